"""The compiled Cartesian evaluation (core.dynamics.cartesian_kernel) against System's Python evaluation, and
its use in runs."""

import numpy as np
import pytest

from core.commands import AddItem, replace_fields
from core.dynamics.run import prepare
from core.dynamics.system import System
from core.model.entities import TimeLaw, TorsionalSpringDamper
from core.model.files import load
from tests.conftest import EXAMPLES
from tests.core.dynamics.test_generalized_alpha import time_varying_planetary

pytest.importorskip("numba")

COVERED = ["planetary", "helical_pair", "inner_pair"]


def states_along_a_run(model, count=12, steps=240, h=5e-4):
    """(t, y) along a Python RK4 run of `model` in Cartesian coordinates: on the constraints, as a run meets
    them (a planetary set's redundant rows make its multipliers ill-conditioned far from them: there a
    change of 1e-15 in y moves the Python evaluation's own rate by up to 1e-7)."""
    run = prepare(model, t_end=steps * h, step=h, output_step=steps * h, integrator="rk4", formulation="cartesian",
                  compiled="off")
    found = []
    for k in range(steps):
        run.solver.step()
        if k % (steps // count) == 0:
            found.append((run.solver.t, run.solver.y.copy()))
    return found


def compiled_against_python(model, states=None, flanks=None):
    """The worst relative difference of the rates, rows and projections; the flanks the kernel settled at each
    state into the list `flanks` when given (it starts from the last evaluation's)."""
    compiled, plain = System(model), System(model)
    assert compiled.compile() is None
    worst = 0.0
    for t, y in states if states is not None else states_along_a_run(model):
        a, b = compiled.evaluate(t, y), plain.evaluate(t, y)
        if flanks is not None:
            flanks.append(tuple(compiled.kernel._flanks[compiled.gear_rows]))
        worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
        # the rows the projections onto the constraints use: J, the velocity targets, the position errors
        jac, _, _, _, target, phi, _ = plain._jacobian(t, plain.snapshot(y))
        for mine, theirs in zip(compiled.kernel.rows(t, y), (jac, target, phi)):
            worst = max(worst, float(np.abs(mine - theirs).max() / max(np.abs(theirs).max(), 1e-300)))
        pa, pb = compiled.onto_constraints(t, y), plain.onto_constraints(t, y)
        worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    return worst


@pytest.mark.parametrize("name", COVERED)
def test_compiled_rates_agree_with_the_python_evaluation_along_a_run(name):
    assert compiled_against_python(load(EXAMPLES / f"{name}.gdyn")) < 1e-12


@pytest.mark.parametrize("name", ["helical_pair", "inner_pair"])
def test_compiled_rates_agree_on_random_states_without_redundant_rows(name):
    """Off the constraints too (positions, speeds and phase errors moved at random), where no row is
    redundant and the multipliers are well-conditioned."""
    model = load(EXAMPLES / f"{name}.gdyn")
    system = System(model)
    sp = system.space
    rng = np.random.default_rng(3)
    y0 = system.consistent_initial_state()[0]
    states = []
    for _ in range(20):
        y = y0.copy()
        y[sp.v] += 0.1 * rng.normal(size=3 * system.n)
        y[sp.w] += 50.0 * rng.normal(size=3 * system.n)
        y[sp.e] += 1e-4 * rng.normal(size=system.extra)
        states.append((float(rng.uniform(0, 1)), sp.retract(y, 1e-3 * rng.normal(size=sp.tangent_size))))
    assert compiled_against_python(model, states) < 1e-12


def test_every_time_law_a_spring_and_a_motor_agree():
    model = load(EXAMPLES / "planetary.gdyn")
    table = ((0.0, 1.0), (0.03, 2.5), (0.07, -0.5), (1.0, 0.0))
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.01,
                                                   t_end=0.06)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002, angle0=0.2)).do(model)
    assert compiled_against_python(model) < 1e-12
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    # the sun torque turns negative: the tooth forces change sign along the run, and the kernel's flanks with
    # them. Near the crossing the rate is a tenth of its size elsewhere and the two paths' round-off is 1.5e-12
    # of it (the same with the kernel started from all flanks positive, as Python starts)
    flanks = []
    assert compiled_against_python(model, flanks=flanks) < 3e-12
    assert len(set(flanks)) > 1
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "sun_torque", law=TimeLaw(kind="step", value=1.0, final=3.0, t_start=0.05)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="sine", value=1.0, amplitude=2.0, frequency=5.0,
                                                   phase=0.3)).do(model)
    assert compiled_against_python(model) < 1e-12


def test_the_minimum_norm_solve_is_lstsqs():
    """_minimum_norm against numpy's SVD least squares (rcond 1e-10) on square matrices of rank m - d, with
    right-hand sides out of their range: the least-squares solution of least norm, to round-off."""
    from core.dynamics.cartesian_kernel import _minimum_norm

    rng = np.random.default_rng(5)
    for m, d in ((8, 1), (12, 2), (37, 2), (20, 3)):
        for _ in range(5):
            a = rng.normal(size=(m, m - d)) @ rng.normal(size=(m - d, m))
            b = rng.normal(size=m)
            ref = np.linalg.lstsq(a, b, rcond=1e-10)[0]
            assert np.abs(_minimum_norm(a, b, d) - ref).max() < 1e-10 * np.abs(ref).max()
    # fewer pivots than m - d: lstsq itself
    a = rng.normal(size=(10, 6)) @ rng.normal(size=(6, 10))
    b = rng.normal(size=10)
    assert np.allclose(_minimum_norm(a, b, 1), np.linalg.lstsq(a, b, rcond=1e-10)[0], rtol=0, atol=1e-12)


def test_a_compiled_cartesian_run_gives_the_python_run():
    """RK4 over 0.05 s of the planetary in Cartesian coordinates, compiled and not: every channel within 1e-9
    of its peak (the redundant rows' conditioning, 1e4-1e5, on round-off over 100 steps)."""
    model = load(EXAMPLES / "planetary.gdyn")
    res = {}
    for compiled in ("on", "off"):
        run = prepare(model, t_end=0.05, step=5e-4, output_step=5e-3, integrator="rk4", formulation="cartesian",
                      compiled=compiled)
        assert run.compiled_note.startswith(compiled)
        res[compiled] = run.run()
        assert res[compiled].status == "finished", res[compiled].message
    on, off = res["on"].data, res["off"].data
    assert on.shape == off.shape == (11, off.shape[1])
    peak = np.abs(off).max(axis=0)
    units = [name.rsplit("[", 1)[1] for name in res["off"].names]
    of_unit = {u: max(p for p, v in zip(peak, units) if v == u) for u in units}
    # a channel that is zero but for round-off (a reaction along the axes, 1e-11 N beside 20 N) within 1e-10
    # of the largest channel in its unit: round-off of 1e-15 through the redundant rows' conditioning
    allowed = 1e-9 * peak + 1e-10 * np.array([of_unit[u] for u in units])
    assert np.all(np.abs(on - off).max(axis=0) <= allowed)


def test_compiled_stages_on_random_states_are_the_python_stages():
    """The Lie-group update in the compiled stages (retract by the exponential map, the dexp^-1 correction)
    against StateSpace's, on states with spins of some 100 rad/s in every direction (off the constraints, the
    helical pair: no redundant rows), where leaving the correction out would be seen. DOP853's 12 stages."""
    from scipy.integrate._ivp import dop853_coefficients as tb

    model = load(EXAMPLES / "helical_pair.gdyn")
    compiled, plain = System(model), System(model)
    assert compiled.compile() is None
    sp = plain.space
    rng = np.random.default_rng(5)
    y0 = plain.consistent_initial_state()[0]
    a, c, h = np.ascontiguousarray(tb.A[:12, :12]), np.ascontiguousarray(tb.C[:12]), 1e-4
    for _ in range(5):
        y = y0.copy()
        y[sp.w] += 100.0 * rng.normal(size=3 * plain.n)
        t = float(rng.uniform(0, 1))
        k_c, k_p, k_u = (np.zeros((12, sp.tangent_size)) for _ in range(3))
        k_c[0] = k_p[0] = k_u[0] = plain.evaluate(t, y)
        compiled.kernel.stages(t, y, h, a, c, k_c, 1, 12)
        for i in range(1, 12):
            d = h * (a[i, :i] @ k_p[:i])
            k_p[i] = sp.correct(d, plain.evaluate(t + c[i] * h, sp.retract(y, d)))
            d = h * (a[i, :i] @ k_u[:i])
            k_u[i] = plain.evaluate(t + c[i] * h, sp.retract(y, d))  # without the correction
        tolerance = 1e-12 * np.abs(k_p).max()
        assert np.abs(k_c - k_p).max() < tolerance
        assert np.abs(k_u - k_p).max() > 1e3 * tolerance


def test_compiled_steps_and_leaps_give_the_python_steps():
    """RK4's and DOP853's steps through the kernel (stages on the Lie group, the projections) against the Python
    stages on the planetary, and RK4's leap (whole steps in one call) against as many step() calls: the same
    states to round-off through the redundant rows, the same counters, and never the step that reaches t_stop.
    DOP853 in fixed steps: from rest its first error estimates are a thousandth of the tolerance and
    round-off moves them by 1e-5, and so the next step size (the norms are `increment`'s, held to the Python
    ones in test_fast_path_kernel)."""
    model = time_varying_planetary()
    for integrator, h, options in (("rk4", 5e-4, {}), ("dop853", 2e-3, {"adaptive": False})):
        on, off = (prepare(model, t_end=0.1, step=h, integrator=integrator, formulation="cartesian",
                           compiled=c, **options).solver for c in ("on", "off"))
        assert on.kernel is not None and off.kernel is None
        for _ in range(30):
            assert on.step() is None and off.step() is None
            scale = np.abs(off.y).max()
            assert (on.t, on.nsteps, on.nfev) == (off.t, off.nsteps, off.nfev)
            assert np.abs(on.y - off.y).max() < 1e-12 * scale
    a, b = (prepare(model, t_end=0.1, step=5e-4, integrator="rk4", formulation="cartesian", compiled="on").solver
            for _ in range(2))
    for _ in range(25):
        assert a.step() is None
    assert b.leap(0.01225, 100) == 24  # 24.5 steps to t_stop: the 25th, which passes it, is left to step()
    assert b.step() is None
    assert (b.t, b.nsteps, b.nfev) == (a.t, a.nsteps, a.nfev)
    assert np.abs(b.y - a.y).max() < 1e-13 * np.abs(a.y).max()
    assert np.abs(b.dense_output()(a.t - 2e-4) - a.dense_output()(a.t - 2e-4)).max() < 1e-13 * np.abs(a.y).max()


def test_a_compiled_systems_samples_and_drift_checks_are_the_python_ones():
    """An output sample of a compiled system (the rate, multipliers and Jacobian from the kernel, the reactions
    from that Jacobian) against the Python one, channel by channel, and the drift check from the kernel's
    position errors against the joints' own: on the constraints, and with every joint moved off them."""
    from core.dynamics.soundness import worst_violation

    model = load(EXAMPLES / "planetary.gdyn")
    compiled, plain = System(model), System(model)
    assert compiled.compile() is None
    sp = plain.space
    rng = np.random.default_rng(7)
    units = [c.unit for c in plain.outputs(0.0, plain.initial_state()).channels]
    for t, y in states_along_a_run(model, count=4):
        mine, theirs = compiled.sample(t, y), plain.sample(t, y)
        # each channel within 1e-9 of itself and 1e-10 of the largest channel in its unit (as the runs' test)
        of_unit = {u: max(abs(v) for v, w in zip(theirs[0], units) if w == u) for u in units}
        allowed = 1e-9 * np.abs(theirs[0]) + 1e-10 * np.array([of_unit[u] for u in units])
        assert np.all(np.abs(mine[0] - theirs[0]) <= allowed)
        assert all(np.array_equal(a, b) for a, b in zip(mine[1:], theirs[1:]))  # poses: from y alone
        moved = sp.retract(y, 1e-5 * rng.normal(size=sp.tangent_size))
        for tol in ((1e-9, 1e-9), (1e-3, 1e-3)):
            a, b = worst_violation(compiled, moved, *tol), worst_violation(plain, moved, *tol)
            assert (a is None) == (b is None)
            if a is not None:
                assert (a.item, a.kind) == (b.item, b.kind) and abs(a.value - b.value) < 1e-12 * abs(b.value)
    assert worst_violation(plain, moved, 1e-9, 1e-9).kind.startswith("joint")  # the joints' errors were tested


def test_what_is_not_compiled_says_why():
    for name, why in (("lossy_gear_demo1", "lossy pairs are not compiled"),
                      ("bevel_pair", "a bevel pair is not compiled"),
                      ("compliant_mesh_pair", "a CompliantMesh is not compiled")):
        note = System(load(EXAMPLES / f"{name}.gdyn")).compile()
        assert note is not None and why in note, note
