"""The compiled program against the same code run as Python, and what every run's plan says.

The kernels are one source (core.dynamics.program.linker): numba compiles it, or Python runs it. Compiled,
they must give the Python program's rates, projections and samples to 1e-12 on random states of every example
in both formulations, and the same runs; every example (and the 64-stage train of the benchmarks) runs compiled
in every formulation it allows, and its plan says so. The integrators' leaps (many steps in one kernel call)
must give the states of as many steps.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

from core.commands import AddItem, replace_fields
from core.dynamics import run as run_module
from core.dynamics import warm
from core.dynamics.formulations import FORMULATIONS
from core.dynamics.program.cache import CACHE_VARIABLE
from core.dynamics.program.linker import CompileError, program
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.entities import TimeLaw, TorsionalSpringDamper
from core.model.files import load
from tests.benchmarks.bench_gear_train_scaling import gear_train
from tests.conftest import EXAMPLES, ROOT

EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.gdyn"))
# members on bearings float: joint coordinates refuse them (tested below), Cartesian coordinates take them
FLOATING_EXAMPLES = {"compliant_planetary"}


def allowed(name: str) -> list[str]:
    """The formulations an example runs in."""
    return ["cartesian"] if name in FLOATING_EXAMPLES else list(FORMULATIONS)


def test_an_example_with_members_on_bearings_is_refused_by_joint_coordinates_with_the_way_out():
    for name in FLOATING_EXAMPLES:
        with pytest.raises(ModelError, match="use the cartesian formulation"):
            prepare(load(EXAMPLES / f"{name}.gdyn"), t_end=1e-4, formulation="joint")


def both(model, formulation):
    """The model's system on the compiled program and on the Python one."""
    return tuple(FORMULATIONS[formulation](model, program(c)) for c in (True, False))


def random_states(system, count, seed):
    """States near the constraints (a short run's, moved a little) and far from them (random speeds)."""
    rng = np.random.default_rng(seed)
    sp = system.space
    y0 = system.consistent_initial_state()[0]
    for _ in range(count):
        y = y0.copy()
        if system.formulation == "joint":
            y[sp.q] = rng.uniform(-20.0, 20.0, system.nq)
            y[sp.qd] += rng.normal(scale=5.0, size=system.nq)
        else:
            d = np.zeros(sp.tangent_size)
            d[sp.dx], d[sp.dth] = rng.normal(scale=1e-5, size=3 * system.n), rng.normal(scale=0.5, size=3 * system.n)
            d[sp.dv], d[sp.dw] = rng.normal(scale=0.1, size=3 * system.n), rng.normal(scale=5.0, size=3 * system.n)
            y = sp.retract(y, d)
        y[sp.e] += rng.normal(scale=1e-6, size=system.extra)
        yield float(rng.uniform(0.0, 1.0)), y


def relative(a, b) -> float:
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-300))


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_compiled_rates_projections_and_samples_are_the_python_programs(name, formulation):
    if formulation not in allowed(name):
        pytest.skip(f"{name} runs in {allowed(name)} only (test_an_example_with_members_on_bearings_...)")
    model = load(EXAMPLES / f"{name}.gdyn")
    compiled, python = both(model, formulation)  # every example hangs from the ground on revolute joints
    assert compiled.compiled and not python.compiled
    for t, y in random_states(python, 8, 5):
        for system in (compiled, python):
            system.kernel.flanks[:] = 1.0  # both from the drive flanks
        assert relative(compiled.evaluate(t, y), python.evaluate(t, y)) < 1e-12
        assert relative(compiled.onto_constraints(t, y), python.onto_constraints(t, y)) < 1e-12
        (va, pa, qa, fa), (vb, pb, qb, fb) = compiled.sample(t, y), python.sample(t, y)
        units = np.array([c.unit for c in python.channel_records])
        for unit in set(units):  # each channel to round-off of the largest of its unit
            of = units == unit
            scale = max(float(np.abs(vb[of]).max()), 1e-9)
            assert float(np.abs(va[of] - vb[of]).max()) <= 1e-12 * scale, unit
        assert relative(pa, pb) < 1e-12 and relative(qa, qb) < 1e-12
        assert np.abs(fa - fb).max(initial=0.0) <= 1e-12 * max(np.abs(fb).max(initial=0.0), 1e-9)
        ports = [np.zeros((len(s.asm.port_bodies), s.velocities)) for s in (compiled, python)]
        for s, out in zip((compiled, python), ports):
            s.kernel.jacobian(y, s.velocities, out)
        assert np.abs(ports[1]).max(initial=0.0) > 0.0 or not ports[1].size  # the rows were written
        assert np.abs(ports[0] - ports[1]).max(initial=0.0) <= 1e-12 * max(np.abs(ports[1]).max(initial=0.0), 1.0)


def test_every_time_law_a_spring_and_a_motor_compiled():
    model = load(EXAMPLES / "planetary.gdyn")
    table = ((0.0, 1.0), (0.3, 2.5), (0.7, -0.5), (1.0, 0.0))
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.1, t_end=0.6)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002, angle0=0.2)).do(model)
    for formulation in ("joint", "cartesian"):
        compiled, python = both(model, formulation)
        for t, y in random_states(python, 5, 9):
            assert relative(compiled.evaluate(t, y), python.evaluate(t, y)) < 1e-12


@pytest.mark.parametrize("name", EXAMPLE_NAMES + ["train64"])
def test_every_model_runs_compiled_in_every_formulation_it_allows_and_its_plan_says_so(name):
    model = gear_train(64) if name == "train64" else load(EXAMPLES / f"{name}.gdyn")
    # the Python program takes 1.7 s an evaluation of the 64-stage train in Cartesian coordinates: two steps (three
    # samples, eight evaluations) of it
    t_end = (2 if name == "train64" else 20) * model.settings.step
    for formulation in allowed(name):
        run = prepare(model, t_end=t_end, formulation=formulation, compiled="on")
        plan = run.plan
        assert plan.compiled and plan.formulation == formulation and plan.compiled_why == "asked for"
        assert plan.samples == "compiled" and "(compiled)" in plan.steps
        assert "compiled" in run.results.settings["plan"]["samples"]
        res = run.run()
        assert res.status == "finished", (name, formulation, res.message)
        python = prepare(model, t_end=t_end, formulation=formulation, compiled="off").run()
        assert not python.settings["plan"]["compiled"]
        units = np.array([c.unit for c in python.channels])
        for unit in set(units):  # each channel to round-off of the largest of its unit
            of = units == unit
            scale = max(float(np.abs(python.data[:, of]).max()), 1e-9)
            assert float(np.abs(res.data[:, of] - python.data[:, of]).max()) <= 1e-9 * scale, (name, formulation, unit)


def test_a_joint_run_of_a_train_on_parallel_axes_takes_the_constant_matrices():
    plan = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.01, compiled="on").plan
    assert plan.formulation == "joint" and plan.rates == "constant matrices"
    assert plan.formulation_why == "auto: every body hangs from the ground on revolute and fixed joints"
    assert "rk4, the steps between output samples in one call of the kernel (compiled)" == plan.steps


def test_compiled_on_without_numba_is_an_error_that_says_why(monkeypatch, tmp_path):
    real = importlib.import_module
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))  # a kernel cache without the kernels compiled ahead of time

    def no_numba(name, *args):
        if name == "numba":
            raise ImportError("numba is broken here")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_numba)
    monkeypatch.setattr("core.dynamics.program.linker._PROGRAMS", {})
    with pytest.raises(CompileError, match="compiled: numba cannot be imported \\(numba is broken here\\)"):
        prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.01, compiled="on")
    run = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.01, compiled="auto")
    assert not run.plan.compiled and "numba cannot be imported" in run.plan.compiled_why \
        or "not in the cache" in run.plan.compiled_why


def test_auto_compiles_when_the_kernels_are_cached_and_says_why_not_otherwise(monkeypatch):
    model = load(EXAMPLES / "planetary.gdyn")
    monkeypatch.setattr(type(program(False)), "cached", lambda self: True)
    assert prepare(model, t_end=0.01).plan.compiled_why == "the compiled kernels are in the cache"
    monkeypatch.setattr(type(program(False)), "cached", lambda self: False)
    plan = prepare(model, t_end=0.01).plan
    assert not plan.compiled and plan.compiled_why.startswith("the compiled kernels are not in the cache yet")
    assert prepare(model, t_end=1000.0, output_step=1.0).plan.compiled  # a long run repays compiling


def test_a_bad_compiled_option_is_refused_before_any_work():
    with pytest.raises(ValueError, match="compiled: must be one of auto, on, off, got 'yes'"):
        prepare(load(EXAMPLES / "planetary.gdyn"), compiled="yes")


def test_the_cli_prints_the_plan_and_refuses_compiled_on_that_cannot_compile(tmp_path):
    out = subprocess.run([sys.executable, "-m", "core.cli", "simulate", str(EXAMPLES / "planetary.gdyn"),
                          "--t-end", "0.01", "--compiled", "on", "--out", str(tmp_path / "p.csv")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "plan: joint coordinates, compiled (asked for); rates: constant matrices; steps: rk4" in out.stdout


def test_starting_the_cli_does_not_import_numba():
    code = "import sys, core.cli; core.cli.main(['--help']) if False else None; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


# --------------------------------------------------------------------------- leaps


def planetary_with_every_law():
    model = load(EXAMPLES / "planetary.gdyn")
    table = ((0.0, 1.0), (0.3, 2.5), (0.7, -0.5), (1.0, 0.0))
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002, angle0=0.2)).do(model)
    return model


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_leap_gives_the_states_of_as_many_steps(formulation):
    """Integrator.leap takes RK4's steps in one kernel call: the same states, time, counters and dense output as
    step() called as many times, and never the step that reaches t_stop."""
    model = planetary_with_every_law()
    a, b = (prepare(model, t_end=0.4, step=2e-4, output_step=0.4, integrator="rk4", formulation=formulation,
                    compiled="on").solver for _ in range(2))
    for _ in range(38):
        assert a.step() is None
    assert b.leap(0.0075, 100) == 37  # 37.5 steps to t_stop: the 38th, which passes it, is left to step()
    assert b.step() is None
    assert (b.t, b.nsteps, b.nfev) == (a.t, a.nsteps, a.nfev)
    assert np.array_equal(b.y, a.y)
    tm = a.t - 0.6e-4
    assert np.array_equal(b.dense_output()(tm), a.dense_output()(tm))
    assert b.leap(b.t + 2e-4, 10) == 0 and b.leap(b.t + 1e-4, 10) == 0 and b.leap(b.t + 4e-4, 10) == 1


def test_runs_leap_between_samples_with_the_same_results_and_step_budget(monkeypatch):
    model = planetary_with_every_law()
    settings = dict(t_end=0.2, step=1e-3, output_step=2.5e-2, integrator="rk4", compiled="on")
    monkeypatch.setattr(run_module, "LEAP_STEPS", 0)  # every step through step()
    plain = prepare(model, **settings).run()
    monkeypatch.undo()
    run = prepare(model, **settings)
    leap, taken = run.solver.leap, []
    run.solver.leap = lambda *args: taken.append(leap(*args)) or taken[-1]
    chunks = 0
    while run.advance(max_steps=30):
        chunks += 1
        assert run.solver.nsteps <= 30 * chunks  # advance()'s budget holds with the leaps inside it
    leapt = run.results
    assert sum(taken) > 150  # most steps were leaps
    assert chunks >= 6 and leapt.status == plain.status == "finished"
    assert (leapt.steps, leapt.evaluations) == (plain.steps, plain.evaluations) == (200, 800)
    assert np.array_equal(leapt.time, plain.time) and np.array_equal(leapt.data, plain.data)


@pytest.mark.parametrize("integrator", ["dopri5", "dop853"])
def test_an_adaptive_leap_gives_the_states_of_as_many_steps(integrator):
    """An adaptive leap takes dopri5's or dop853's accepted steps (with their rejected attempts) in one call: the
    same states, step size, counters and dense output as step() called as many times, never the step that
    reaches t_stop, and none at all where a step needs more retries than max_rejections allows (that one is
    step()'s, which says why)."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    a, b = (prepare(model, t_end=0.01, integrator=integrator, rtol=1e-8, compiled="on").solver for _ in range(2))
    taken = b.leap(0.004, 10_000)
    assert taken > 20 and b.nfailed > 0  # rejected attempts inside the leap too
    for _ in range(taken):
        assert a.step() is None
    assert a.t < 0.004 and a.t + min(a.h, a.max_step) >= 0.004 * (1 - 1e-9)  # the next step reaches t_stop
    assert (b.t, b.h, b.nsteps, b.nfev, b.nfailed, b.t_old) == (a.t, a.h, a.nsteps, a.nfev, a.nfailed, a.t_old)
    assert np.array_equal(b.y, a.y)
    tm = 0.5 * (a.t_old + a.t)
    assert np.array_equal(b.dense_output()(tm), a.dense_output()(tm))
    assert b.step() is None and a.step() is None and np.array_equal(b.y, a.y) and b.nfev == a.nfev
    strict = prepare(model, t_end=0.01, step=1e-3, integrator=integrator, rtol=1e-12, compiled="on",
                     max_rejections=1).solver
    y0 = strict.y.copy()
    assert strict.leap(0.01, 100) == 0 and np.array_equal(strict.y, y0)
    assert (strict.nsteps, strict.nfailed) == (0, 0)
    assert "rejected steps in a row" in strict.step()


@pytest.mark.parametrize("integrator", ["dopri5", "dop853"])
def test_adaptive_runs_compiled_and_in_python_take_the_same_steps(integrator):
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    res = {c: prepare(model, t_end=0.01, integrator=integrator, rtol=1e-8, compiled=c).run() for c in ("on", "off")}
    assert res["on"].steps == res["off"].steps and res["on"].evaluations == res["off"].evaluations
    te = {c: r["mesh.TE [m]"] for c, r in res.items()}
    assert float(np.abs(te["on"] - te["off"]).max()) < 1e-9 * float(np.abs(te["off"]).max())


def test_a_model_error_names_the_formulation_field():
    model = load(EXAMPLES / "planetary.gdyn")
    with pytest.raises(ModelError) as err:
        prepare(model, formulation="polar")
    assert err.value.path == "settings.formulation"


def test_warming_the_cache_finds_the_examples_it_compiles_on():
    # `make venv` compiles the kernels by running the examples: a wrong folder made it compile nothing, and every
    # run of the suite then compiled on its own
    assert sorted(p.stem for p in warm.EXAMPLES.glob("*.gdyn")) == EXAMPLE_NAMES


@pytest.mark.parametrize("integrator", ["generalized_alpha", "generalized_alpha_adaptive"])
@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_generalised_alpha_iterates_in_the_kernel_as_its_python_iterations_do(integrator, formulation):
    """Newton's iterations of a generalised-alpha step run in the kernel, compiled and as Python, and take the
    steps of the integrator's own iterations in Python on the rate (its kernel unset): the same steps, rejections
    and evaluations, and the mesh's transmission error to 1e-9."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    options = {"rtol": 1e-4, "atol": 1e-12} if integrator.endswith("adaptive") else {}
    runs = {c: prepare(model, t_end=0.002, step=2e-5, output_step=1e-4, integrator=integrator, rho_inf=0.5,
                       formulation=formulation, compiled="off" if c == "off" else "on", **options)
            for c in ("on", "off", "loop")}
    runs["loop"].solver.kernel = None
    kernel, iterated = runs["on"].solver.kernel, []
    iterate, leap = kernel.implicit, kernel.leap_implicit

    def leap_counted(*args):
        found = leap(*args)
        iterated.append(found[0])  # the steps it took
        return found

    kernel.implicit, kernel.leap_implicit = (lambda *args: iterated.append(1) or iterate(*args)), leap_counted
    res = {c: run.run() for c, run in runs.items()}
    counts = {c: (r.steps, runs[c].solver.nfailed, r.evaluations) for c, r in res.items()}
    assert counts["on"] == counts["off"] == counts["loop"], counts
    assert sum(iterated) >= res["on"].steps  # every step's iterations in the kernel, one by one or in leaps
    assert all(r.status == "finished" for r in res.values())
    te = {c: r["mesh.TE [m]"] for c, r in res.items()}
    for c in ("on", "off"):
        assert float(np.abs(te[c] - te["loop"]).max()) < 1e-9 * float(np.abs(te["loop"]).max()), c


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_generalised_alpha_leap_gives_the_states_of_as_many_steps(formulation):
    """Fixed-step generalised-alpha leaps as RK4 does: the kernel iterates step after step on the Jacobian in hand,
    in one call, with the same states, rate variable, time, counters and dense output as step() called as many
    times, and never the step that reaches t_stop; the first step, which takes the Jacobian, is step()'s. A run
    with leaps gives the samples of one without, and its plan says where its steps are taken."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    h = 2e-5
    a, b = (prepare(model, t_end=0.01, step=h, output_step=0.01, integrator="generalized_alpha", rho_inf=0.5,
                    formulation=formulation, compiled="on").solver for _ in range(2))
    assert b.leap(0.005, 100) == 0  # no Jacobian yet
    for solver in (a, b):
        assert solver.step() is None
    for _ in range(100):
        assert a.step() is None
    assert b.leap(b.t + 100.5 * h, 1000) == 100
    assert (b.t, b.nsteps, b.nfev, b.t_old) == (a.t, a.nsteps, a.nfev, a.t_old)
    assert np.array_equal(b.y, a.y) and np.array_equal(b.rate, a.rate)
    tm = a.t - 0.3 * h
    assert np.array_equal(b.dense_output()(tm), a.dense_output()(tm))
    settings = dict(t_end=0.004, step=h, output_step=2e-4, integrator="generalized_alpha", rho_inf=0.5,
                    formulation=formulation, compiled="on")
    leapt = prepare(model, **settings)
    assert "the steps between output samples in one call of the kernel" in leapt.plan.steps
    leapt = leapt.run()
    one_by_one = prepare(model, **settings)
    one_by_one.solver.leap = lambda *args: 0
    one_by_one = one_by_one.run()
    assert (leapt.steps, leapt.evaluations) == (one_by_one.steps, one_by_one.evaluations)
    assert np.array_equal(leapt.data, one_by_one.data)
