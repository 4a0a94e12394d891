"""The engine against analytic and independent results: planetary accelerations, the seed-002 soft mesh,
energy balance, convergence orders, a stiff mesh, failures that keep their results."""

import csv
import math

import numpy as np
import pytest

from core.commands import AddItem, replace_fields
from core.dynamics.integrators import METHODS, make_integrator
from core.dynamics.simulate import simulate
from core.dynamics.state_space import EuclideanSpace
from core.dynamics.formulations import FORMULATIONS, assemble
from core.model.entities import SimulationSettings, TimeLaw, TorsionalSpringDamper
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_planetary_accelerations_equal_the_energy_method(formulation):
    model = load(EXAMPLES / "planetary.gdyn")
    b = model.bodies
    izz = {k: b[k].inertia[2][2] for k in b}
    zs, zp, zr = 24, 24, 72
    a = 0.002 * (zs + zp) / 2
    # ring held: w_c = w_s zs / (zs + zr); a planet turns w_p = w_c - (zs / zp)(w_s - w_c) and its centre moves at a w_c
    kc = zs / (zs + zr)
    kp = kc - (zs / zp) * (1 - kc)
    j_eq = izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                     for k in (1, 2, 3))
    alpha_sun = 1.0 / j_eq  # 1 N m on the sun
    system = assemble(model, formulation)
    y = system.initial_state()
    dw = system.accelerations(0.0, y)[:, 3:]
    k_sun, k_car = system.index["sun"], system.index["carrier"]
    assert dw[k_sun, 2] == pytest.approx(alpha_sun, rel=1e-6)
    assert dw[k_car, 2] == pytest.approx(alpha_sun * kc, rel=1e-6)
    ch = system.channels(0.0, y)
    for group in (["sun_planet1", "sun_planet2", "sun_planet3"], ["planet1_ring", "planet2_ring", "planet3_ring"]):
        ft = np.array([ch[f"{p}.Ft [N]"] for p in group])
        assert np.ptp(ft) <= 1e-9 * np.abs(ft).max()
    # each planet carries a third: N Ft r_s = torque on the sun
    assert abs(ch["sun_planet1.Ft [N]"]) * 3 * 0.024 == pytest.approx(1.0 - izz["sun"] * alpha_sun, rel=1e-6)
    # and after 0.2 s of integration the speeds follow the same acceleration
    res = simulate(model, t_end=0.2, step=4e-4, output_step=0.1, formulation=formulation)
    assert res["sun_joint.speed [rad/s]"][-1] == pytest.approx(alpha_sun * 0.2, rel=1e-6)
    assert res["carrier_joint.speed [rad/s]"][-1] == pytest.approx(alpha_sun * kc * 0.2, rel=1e-6)


def _torsional_reference(model, t_end, h):
    """The seed-002 pair as two torsional DOFs, integrated by classical RK4 (written here, independent of core)."""
    p = model.gear_pairs["pair"]
    mesh = model.forces["mesh"]
    j1, j2 = model.bodies["gear1"].inertia[2][2], model.bodies["gear2"].inertia[2][2]
    r1, r2 = p.module * p.z1 / 2, p.module * p.z2 / 2
    t1, t2 = model.forces["drive"].law.value, model.forces["load"].law.value
    k0, k1, c, z1 = mesh.k_mean, mesh.k_amplitude, mesh.damping, p.z1
    cos = math.cos(p.pressure_angle)  # spur: the spring acts along the line of action, delta = e cos(alpha)

    def f(y):
        th1, th2, w1, w2, e = y
        k = k0 + k1 * math.cos(z1 * th1)
        ed = r1 * w1 + r2 * w2
        force = -(k * e + c * ed) * cos * cos  # on gear 1 along its pitch-circle motion: F cos(alpha)
        dv_dth1 = -0.5 * k1 * z1 * math.sin(z1 * th1) * (e * cos) ** 2  # of V = k(z1 theta1) delta^2 / 2
        return np.array([w1, w2, (t1 + r1 * force - dv_dth1) / j1, (t2 + r2 * force) / j2, ed])

    w10 = model.bodies["gear1"].angular_velocity[2]
    return f, w10, (r1, r2, k0 * cos * cos, k1 * cos * cos, t1)


def test_seed_002_te_against_an_independent_two_dof_integration():
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    model.settings = SimulationSettings(t_end=0.05, step=1e-4, output_step=1e-4, integrator="rk4", static_equilibrium=True)
    res = simulate(model)
    assert res.status == "finished", res.message
    f, w10, (r1, r2, k0, k1, t1) = _torsional_reference(model, 0.05, 1e-4)
    # same start: static TE e0 = Ft / (k(0) cos^2(alpha)) with Ft = T1 / r1 (as the model's equilibrium found)
    e0 = (t1 / r1) / (k0 + k1)
    te = res.channel("mesh.TE")
    assert te[0] == pytest.approx(e0, rel=1e-9)
    y = np.array([0.0, 0.0, w10, -w10 * r1 / r2, e0])
    h = 1e-4
    ref = [y[4]]
    for _ in range(len(te) - 1):
        k1_ = f(y)
        k2_ = f(y + 0.5 * h * k1_)
        k3_ = f(y + 0.5 * h * k2_)
        k4_ = f(y + h * k3_)
        y = y + h / 6 * (k1_ + 2 * k2_ + 2 * k3_ + k4_)
        ref.append(y[4])
    ref = np.array(ref)
    assert np.abs(te - ref).max() <= 1e-6 * np.abs(ref).max()
    # the mesh-frequency line: z1 w1 / 2 pi = 509.3 Hz is the strongest line of the fluctuating TE
    fluct = te - te.mean()
    spec = np.abs(np.fft.rfft(fluct * np.hanning(len(fluct))))
    freqs = np.fft.rfftfreq(len(fluct), 1e-4)
    f_mesh = 32 * w10 / (2 * math.pi)
    assert abs(freqs[np.argmax(spec[1:]) + 1] - f_mesh) <= 2 * (freqs[1] - freqs[0])


def test_shipped_compliant_example_is_accurate():
    """The example's own settings give the TE within 1e-3 of a converged independent integration
    (scipy's DOP853 at rtol 1e-11 on the two torsional DOFs written in this file)."""
    from scipy.integrate import solve_ivp

    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    res = simulate(model)
    assert res.status == "finished", res.message
    f, w10, (r1, r2, k0, k1, t1) = _torsional_reference(model, 0.0, 0.0)
    te = res.channel("mesh.TE")
    e0 = (t1 / r1) / (k0 + k1)
    ref = solve_ivp(lambda t, y: f(y), (0.0, res.time[-1]), [0.0, 0.0, w10, -w10 * r1 / r2, e0], method="DOP853",
                    rtol=1e-11, atol=1e-15, t_eval=res.time).y[4]
    err = np.abs(te - ref).max() / np.abs(ref).max()
    print(f"shipped settings {model.settings.integrator} h = {model.settings.step:g} s: TE error {err:.2e} of its peak")
    assert err < 1e-3


def test_adaptive_generalized_alpha_is_accurate_on_the_compliant_mesh():
    """The implicit method with error control reaches the accuracy asked on the stiff mesh (same reference);
    at the seed's fixed 1e-4 s with rho_inf 0.5 it is far off, which is what validate warns about."""
    from scipy.integrate import solve_ivp

    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    f, w10, (r1, r2, k0, k1, t1) = _torsional_reference(model, 0.0, 0.0)

    def error(**settings):
        res = simulate(model, t_end=0.005, output_step=1e-4, **settings)
        assert res.status == "finished", res.message
        ref = solve_ivp(lambda t, y: f(y), (0.0, res.time[-1]), [0.0, 0.0, w10, -w10 * r1 / r2, (t1 / r1) / (k0 + k1)],
                        method="DOP853", rtol=1e-11, atol=1e-15, t_eval=res.time).y[4]
        return np.abs(res.channel("mesh.TE") - ref).max() / np.abs(ref).max()

    adaptive = error(integrator="generalized_alpha_adaptive", step=1e-4, rtol=1e-4, rho_inf=1.0)
    fixed = error(integrator="generalized_alpha", step=1e-4, rho_inf=0.5)
    print(f"TE error: adaptive generalised-alpha (rtol 1e-4) {adaptive:.2e}, fixed 1e-4 s rho_inf 0.5 {fixed:.2e}")
    assert adaptive < 1e-3 < fixed


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_energy_balance(formulation):
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    AddItem(TorsionalSpringDamper("shaft", "gear2_joint", stiffness=0.0, damping=0.5)).do(model)
    replace_fields(model, "load", law=TimeLaw(value=0.0)).do(model)  # the drive's work goes into speed, mesh and damper
    res = simulate(model, t_end=0.05, step=2e-5, integrator="rk4", output_step=1e-3, formulation=formulation)
    ke, pe = res["energy.kinetic [J]"], res["energy.potential [J]"]
    work, diss = res["energy.work [J]"], res["energy.dissipated [J]"]
    balance = ke + pe + diss - work
    assert work[-1] > 100.0 and diss[-1] > 0 and pe.max() > 0
    assert np.abs(balance - balance[0]).max() <= 1e-6 * work[-1]
    print(f"energy balance: largest change {np.abs(balance - balance[0]).max():.2e} J of {work[-1]:.1f} J of work")


def _oscillator_model():
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(TorsionalSpringDamper("spring", "gear2_joint", stiffness=5.0, damping=0.0)).do(model)
    return model


@pytest.fixture(scope="module")
def oscillator():
    """The helical pair with a torsional spring on gear 2, and a fine DOPRI5 reference at 0.05 s."""
    model = _oscillator_model()
    system = assemble(model, "cartesian")  # the Lie-group state space with its Munthe-Kaas corrections
    y0, _ = system.consistent_initial_state()
    return system, y0, _run(system, y0, "dopri5", 1e-5, adaptive=False)


def _run(system, y0, name, h, **kw):
    integ = make_integrator(name, system.evaluate, 0.0, y0, 0.05, h, system.space, **kw)
    while integ.status == "running":
        integ.step()
    assert integ.status == "finished", integ.message
    return integ.y


@pytest.mark.parametrize("method, expected", [("rk4", 4), ("dopri5", 5), ("generalized_alpha", 2)])
def test_measured_convergence_order(oscillator, method, expected):
    system, y0, ref = oscillator
    options = {"adaptive": False} if method == "dopri5" else {"rho_inf": 0.8} if method == "generalized_alpha" else {}
    errs = [np.abs(system.space.difference(_run(system, y0, method, h, **options), ref)).max() for h in (1.25e-3, 6.25e-4)]
    order = math.log(errs[0] / errs[1], 2)
    print(f"{method}: errors {errs[0]:.3e}, {errs[1]:.3e}; measured order {order:.2f}")
    assert order == pytest.approx(expected, abs=0.5)


def test_dop853_reaches_order_eight_on_the_lie_group_and_its_dense_output_order_eight_on_an_exact_solution(oscillator):
    # on the bodies' Lie group (Munthe-Kaas stages) against the fine dopri5 reference; larger steps than the
    # other methods' test, as at 1e-3 s the eighth-order error is below round-off
    system, y0, ref = oscillator
    errs = [np.abs(system.space.difference(_run(system, y0, "dop853", h, adaptive=False), ref)).max()
            for h in (6.25e-3, 3.125e-3)]
    order = math.log(errs[0] / errs[1], 2)
    print(f"dop853: errors {errs[0]:.3e}, {errs[1]:.3e}; measured order {order:.2f}")
    assert order == pytest.approx(8, abs=0.5)
    # the interpolant between steps: y'' = -y from (1, 0) is (cos t, -sin t); its worst error at 7 points inside
    # every step, at fixed steps of 0.5 and 0.25 s over 10 s
    dense = []
    for h in (0.5, 0.25):
        integ = make_integrator("dop853", lambda t, y: np.array([y[1], -y[0]]), 0.0, np.array([1.0, 0.0]), 10.0, h,
                                EuclideanSpace(2), adaptive=False)
        worst = 0.0
        while integ.status == "running":
            integ.step()
            sol = integ.dense_output()
            for t in np.linspace(integ.t_old, integ.t, 9)[1:-1]:
                worst = max(worst, float(np.abs(sol(t) - [math.cos(t), -math.sin(t)]).max()))
        assert integ.nfev == round(10.0 / h) * (13 + 3)  # 12 stages, the end's rate, 3 for the interpolant
        dense.append(worst)
    print(f"dop853 dense output: worst errors {dense[0]:.3e}, {dense[1]:.3e}")
    assert dense[1] < 1e-10
    assert math.log(dense[0] / dense[1], 2) == pytest.approx(8, abs=0.5)


def test_integrator_registry_and_plain_odes():
    assert set(METHODS) == {"rk4", "dopri5", "dop853", "generalized_alpha", "generalized_alpha_adaptive"}
    # y' = -y on a plain vector space: every method reaches exp(-1)
    for name in METHODS:
        integ = make_integrator(name, lambda t, y: -y, 0.0, np.array([1.0]), 1.0, 0.01, EuclideanSpace(1))
        while integ.status == "running":
            integ.step()
        assert integ.y[0] == pytest.approx(math.exp(-1), rel=1e-3)
    with pytest.raises(ValueError, match="integrator: must be one of"):
        make_integrator("euler", lambda t, y: y, 0.0, np.zeros(1), 1.0, 0.1, EuclideanSpace(1))


def _stiff_mesh():
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    replace_fields(model, "mesh", k_mean=2e10, k_amplitude=6e9, damping=0.0).do(model)
    return model


def test_implicit_method_is_stable_on_a_stiff_mesh_where_rk4_fails_and_keeps_its_results(tmp_path):
    # k = 2e10 N/m: the mesh mode is near 17 kHz; 1e-4 s is 1/20 of the 509 Hz mesh period but 0.6 of the mode's period
    rk = simulate(_stiff_mesh(), t_end=0.05, step=1e-4, integrator="rk4", output_step=1e-4)
    assert rk.status == "failed"
    assert "NaN or infinite" in rk.message and "t = " in rk.message
    assert 1 < len(rk.time) < 500  # what was computed before the divergence is kept
    out = tmp_path / "failed.csv"
    rk.to_csv(out)
    assert len(out.read_text().splitlines()) == len(rk.time) + 1
    ga = simulate(_stiff_mesh(), t_end=0.05, step=1e-4, integrator="generalized_alpha", output_step=1e-4)
    assert ga.status == "finished"
    te = ga.channel("mesh.TE")
    static = (100.0 / 0.064) / (2.6e10 * math.cos(math.radians(20)) ** 2)  # along the line of action
    assert np.all(np.abs(te) < 3 * static)


def test_results_csv_header_and_units(tmp_path):
    res = simulate(load(EXAMPLES / "planetary.gdyn"), t_end=0.01, step=1e-3, output_step=5e-3)
    path = tmp_path / "r.csv"
    res.to_csv(path)
    header = next(csv.reader(path.open()))
    assert header[0] == "time [s]"
    assert header[1].startswith("sun_planet1.F")  # the gear contact forces come first
    for name in ("sun.x [m]", "sun.wz [rad/s]", "sun_joint.angle [rad]", "sun_joint.speed [rad/s]", "planet1_joint.Fx [N]",
                 "planet1_joint.Tz [N m]", "sun_planet1.Ft [N]", "planet1_ring.Fc [N]", "sun_planet2.drift [m]",
                 "energy.kinetic [J]", "energy.potential [J]", "energy.work [J]", "energy.dissipated [J]"):
        assert name in header
    assert all(h.endswith("]") and " [" in h for h in header)
    mesh = simulate(load(EXAMPLES / "compliant_mesh_pair.gdyn"), t_end=1e-3)
    assert {"mesh.TE [m]", "mesh.force [N]", "mesh.stiffness [N/m]"} <= set(mesh.names)


@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gdyn")), ids=lambda p: p.stem)
def test_every_example_simulates_briefly_without_errors(path, formulation):
    if path.stem == "compliant_planetary" and formulation == "joint":
        pytest.skip("its members float on bearings: joint coordinates refuse it (test_compiled tests the refusal)")
    model = load(path)
    assert not [f for f in validate(model) if f.severity == "error"]
    res = simulate(model, t_end=20 * model.settings.step, output_step=model.settings.step, formulation=formulation)
    assert res.status == "finished", res.message
    assert np.all(np.isfinite(res.data))


def test_a_model_with_validation_errors_is_refused():
    model = load(EXAMPLES / "helical_pair.gdyn")
    replace_fields(model, "gear2_joint", position=(0.07, 0.0, 0.0)).do(model)
    with pytest.raises(Exception, match="error"):
        simulate(model, t_end=0.01)
