"""The compiled joint fast path (core.dynamics.fast_path_kernel) against the general path, and its use in runs.

The reference is the general joint-coordinate path (kinematics, every constraint's blocks and the
multipliers at each call: JointCoordinateSystem(model, fast_path=False)), not the Python fast path the
kernel was made from; the kernel's rates and projections must agree with it to 1e-12 on random states (on
both flanks of the gear rows) of every example the fast path covers, and of variants that hold every kind
of time law, a torsional spring-damper, a speed motor and a compliant mesh with backlash and a sampled
stiffness waveform.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from core.commands import AddItem, replace_fields
from core.dynamics.joint_coordinates import JointCoordinateSystem
from core.dynamics.run import prepare
from core.dynamics.system import System
from core.model.entities import TimeLaw, TorsionalSpringDamper
from core.model.files import load
from tests.conftest import EXAMPLES, ROOT
from tests.core.dynamics.test_joint_fast_path import COVERED, loaded_bevel_pair, random_states

pytest.importorskip("numba")


def compiled_against_general(model, count=40, seed=7):
    """Worst relative difference of the compiled rates and projections from the general path's, and the
    compiled system."""
    kernel, plain = JointCoordinateSystem(model), JointCoordinateSystem(model, fast_path=False)
    assert kernel.compile() is None
    worst = 0.0
    for t, y in random_states(kernel, count, seed):
        a, b = kernel.evaluate(t, y), plain.evaluate(t, y)
        worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
        # the flanks: on a train the fast path covers only the tooth forces' separating parts depend on them, which
        # move no coordinate here, so the rates cannot show them; the Python fast path's flanks are tied to
        # the general path's tooth forces by test_joint_fast_path's sample tests
        flip = kernel.fast_path.solve(t, y)[2]
        assert tuple(bool(v) for v in kernel.kernel.flanks) == tuple(bool(v) for v in flip)
        pa, pb = kernel.onto_constraints(t, y), plain.onto_constraints(t, y)
        worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    return worst, kernel


@pytest.mark.parametrize("name", sorted(COVERED))
def test_compiled_rates_agree_with_the_general_path_on_random_states(name):
    worst, system = compiled_against_general(load(EXAMPLES / f"{name}.gdyn"))
    assert worst < 1e-12, worst
    if system.rows:  # both flanks met: the kernel asked for a second set of flanks' matrices
        assert len(system.kernel._keys) > 1


def planetary_with_every_law():
    model = load(EXAMPLES / "planetary.gdyn")
    table = ((0.0, 1.0), (0.3, 2.5), (0.7, -0.5), (1.0, 0.0))
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.1, t_end=0.6)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002, angle0=0.2)).do(model)
    return model


def test_every_time_law_a_spring_and_a_motor_agree():
    worst, _ = compiled_against_general(planetary_with_every_law(), seed=11)
    assert worst < 1e-12, worst
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "sun_torque", law=TimeLaw(kind="step", value=1.0, final=3.0, t_start=0.5)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="sine", value=1.0, amplitude=2.0, frequency=5.0,
                                                   phase=0.3)).do(model)
    worst, _ = compiled_against_general(model, seed=12)
    assert worst < 1e-12, worst


@pytest.mark.parametrize("waveform", ["involute", "rectangular"])
def test_a_compliant_mesh_with_backlash_and_a_sampled_waveform_agrees(waveform):
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    replace_fields(model, "mesh", waveform=waveform, backlash=2e-5, damping_model="ratio").do(model)
    worst, _ = compiled_against_general(model, seed=13)
    assert worst < 1e-12, worst


def test_a_loaded_bevel_pair_agrees():
    worst, _ = compiled_against_general(loaded_bevel_pair(), seed=14)
    assert worst < 1e-12, worst


def test_a_compiled_rk4_run_gives_the_python_run_to_round_off():
    """The whole run, RK4 steps in one compiled call each, against the same run in Python: every channel at
    every sample, relative to the channel's peak (channels that are round-off in both, below 1e-9 of the
    largest channel of their unit, left out)."""
    model = planetary_with_every_law()
    runs = {}
    for compiled in ("on", "off"):
        run = prepare(model, t_end=0.4, step=1e-3, output_step=1e-2, integrator="rk4", compiled=compiled)
        runs[compiled] = run.run()
        assert runs[compiled].status == "finished", runs[compiled].message
        assert run.compiled_note.startswith(compiled)
    a, b = runs["on"].data, runs["off"].data
    peak = np.abs(b).max(axis=0)
    units = [c.unit for c in runs["off"].channels]
    unit_max = {u: max(p for p, v in zip(peak, units) if v == u) for u in set(units)}
    kept = np.array([p > 1e-9 * unit_max[u] for p, u in zip(peak, units)])
    assert float((np.abs(a - b).max(axis=0)[kept] / peak[kept]).max()) < 1e-11
    assert runs["on"].settings["compiled"].startswith("on")


def test_a_leap_gives_the_states_of_as_many_steps():
    """Integrator.leap takes RK4's steps in one compiled call: the same states, time, counters and dense
    output as step() called as many times, and never the step that reaches t_stop."""
    model = planetary_with_every_law()
    a, b = (prepare(model, t_end=0.4, step=1e-3, output_step=0.4, integrator="rk4", compiled="on").solver
            for _ in range(2))
    assert a.kernel is not None
    for _ in range(38):
        assert a.step() is None
    assert b.leap(0.0375, 100) == 37  # 37.5 steps to t_stop: the 38th, which passes it, is left to step()
    assert b.t < 0.0375 - 1e-3 / 4
    assert b.step() is None
    assert (b.t, b.nsteps, b.nfev) == (a.t, a.nsteps, a.nfev)
    assert np.array_equal(b.y, a.y)
    tm = a.t - 0.3e-3
    assert np.array_equal(b.dense_output()(tm), a.dense_output()(tm))
    # a leap's own last step has its dense output too (f_old evaluated when asked for)
    assert b.leap(0.06, 5) == 5 and b.nsteps == 43
    assert a.step() is None and a.step() is None and a.step() is None and a.step() is None and a.step() is None
    assert np.allclose(b.dense_output()(b.t - 0.5e-3), a.dense_output()(a.t - 0.5e-3), rtol=1e-14, atol=0)
    assert b.leap(0.06, 0) == 0  # no budget
    # the next step reaches t_stop, or passes it: none; a t_stop two steps on (to round-off): one
    assert b.leap(b.t + 1e-3, 10) == 0 and b.leap(b.t + 0.5e-3, 10) == 0 and b.leap(b.t + 2e-3, 10) == 1


def test_runs_leap_between_samples_with_the_same_results_and_step_budget(monkeypatch):
    from core.dynamics import run as run_module

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
    """An adaptive leap takes dopri5's or dop853's accepted steps (with their rejected attempts) in one compiled
    call: the same states, step size, counters and dense output as step() called as many times, never the
    step that reaches t_stop, and none at all where a step needs more retries than max_rejections allows
    (that one is step()'s, which says why)."""
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
    # a first step far too long for the tolerance, at most one retry: left to step()
    strict = prepare(model, t_end=0.01, step=1e-3, integrator=integrator, rtol=1e-12, compiled="on",
                     max_rejections=1).solver
    y0 = strict.y.copy()
    assert strict.leap(0.01, 100) == 0 and np.array_equal(strict.y, y0)
    assert (strict.nsteps, strict.nfailed) == (0, 0)
    assert "rejected steps in a row" in strict.step()


@pytest.mark.parametrize("integrator", ["dopri5", "dop853"])
def test_adaptive_steps_through_the_kernel_agree(integrator):
    """Stages, increment and error norm in one compiled call: the same steps (accepted and rejected) and the
    same transmission error as the Python stages."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    res = {c: prepare(model, t_end=0.01, integrator=integrator, rtol=1e-8, compiled=c).run() for c in ("on", "off")}
    assert res["on"].evaluations == res["off"].evaluations
    te = {c: r["mesh.TE [m]"] for c, r in res.items()}
    assert res["on"].steps == res["off"].steps
    # the TE integrates the slip r1 w1 + r2 w2, a difference of two 6 m/s pitch-line speeds: its round-off is
    # that of the speeds (1e-16 of 6 m/s over 1e-2 s, some 1e-17 m a step), not of the TE (1.4e-5 m)
    assert float(np.abs(te["on"] - te["off"]).max()) < 1e-9 * float(np.abs(te["off"]).max())


def test_auto_compiles_long_runs_only_and_says_why_not():
    model = load(EXAMPLES / "planetary.gdyn")
    short = prepare(model, t_end=0.01, step=1e-3, integrator="rk4")  # 40 evaluations
    assert short.compiled_note.startswith("off: a short run") and short.system.kernel is None
    steps = JointCoordinateSystem.compile_pays_from / 4  # rk4: 4 evaluations a step
    long = prepare(model, t_end=0.1, step=0.1 / steps, integrator="rk4")
    assert long.compiled_note.startswith("on") and long.solver.kernel is long.system.kernel is not None
    cartesian = prepare(model, t_end=0.01, formulation="cartesian", compiled="on")
    assert cartesian.compiled_note == "on: the Cartesian evaluation and steps, compiled (numba)"
    steps = System.compile_pays_from / 4  # the Cartesian threshold: a run of that many evaluations compiles
    assert prepare(model, t_end=0.1, step=0.1 / steps, integrator="rk4", formulation="cartesian").compiled_note == (
        cartesian.compiled_note)
    assert prepare(model, t_end=0.01, step=1e-3, integrator="rk4",
                   formulation="cartesian").compiled_note.startswith("off: a short run")
    assert cartesian.solver.kernel is cartesian.system.kernel is not None  # its steps compiled too
    compliant = prepare(load(EXAMPLES / "compliant_mesh_pair.gdyn"), t_end=0.01, formulation="cartesian",
                        compiled="on")
    assert compliant.compiled_note == "off: mesh: a CompliantMesh is not compiled"
    lossy = prepare(load(EXAMPLES / "lossy_gear_demo1.gdyn"), t_end=0.01, compiled="on")
    assert lossy.compiled_note == "off: the fast path does not cover the model"
    with pytest.raises(ValueError, match="compiled: must be one of auto, on, off"):
        prepare(model, t_end=0.01, compiled="yes")


def test_starting_the_cli_or_a_short_run_does_not_import_numba():
    code = ("import sys; import core.cli, core.dynamics.run as r, core.model.files as f; "
            "from tests.conftest import EXAMPLES; "
            "r.prepare(f.load(EXAMPLES / 'planetary.gdyn'), t_end=0.01).run(); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
