"""Mesh physics against published numbers and hand formulas: ISO 6336-1 stiffness, profile shift, the
line-of-action spring, backlash on both flanks, damping as a ratio of critical, and the findings."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from scipy.interpolate import PchipInterpolator

from core.chbm.modes import distinct, train_modes
from core.chbm.train_from_model import train_from_model
from core.commands import AddItem, replace_fields
from core.dynamics.checks import check
from core.dynamics.formulations import assemble
from core.dynamics.program.linker import program
from core.dynamics.simulate import simulate
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import MeshModel, equivalent_mass, mesh_in_model, mesh_model_for
from core.gearing.mesh_stiffness import N_PER_MM_UM, fractional, involute_waveform, iso6336_stiffness
from core.geometry.macro import PairSpec, center_distance, pair_geometry
from core.model import builders
from core.model.entities import CompliantMesh, FixedJoint, RigidBody, SimulationSettings, TimeLaw, Torque
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES

TR_EXAMPLE = dict(z1=17, z2=103, module=0.008 / math.cos(math.radians(15.8)), pressure_angle=math.radians(20),
                  helix_angle=math.radians(15.8), face_width=0.1, x1=0.145, x2=0.0)


def test_iso_tr_6336_30_worked_example():
    """ISO/TR 6336-30 example (m_n 8, z 17/103, b 100 mm, beta 15.8 deg, x 0.145/0, basic rack h_fP = 1.4 m_n):
    c'_th = 17.86, c' = 12.37, c_gamma_alpha = 17.46 N/(mm um)."""
    geo = pair_geometry(PairSpec(**TR_EXAMPLE))
    assert geo.center_distance == pytest.approx(0.500, abs=5e-6)  # a_w = 500 mm by the profile shift
    iso = iso6336_stiffness(17, 103, math.radians(20), math.radians(15.8), geo.transverse_contact_ratio,
                            0.145, 0.0, dedendum=1.4).in_n_per_mm_um()
    assert iso["c_th"] == pytest.approx(17.86, abs=0.005)
    assert iso["c_prime"] == pytest.approx(12.37, abs=0.005)
    # eps_alpha here comes from the standard tip circles (1.5495); the published value rounds to 0.01
    assert iso["c_gamma_alpha"] == pytest.approx(17.46, abs=0.01)


def test_profile_shift_sets_the_working_pressure_angle_and_the_centre_distance():
    spec = PairSpec(z1=17, z2=103, module=0.008, x1=0.5, x2=0.2)
    alpha_w = pair_geometry(spec).working_pressure_angle
    inv = lambda a: math.tan(a) - a  # noqa: E731
    assert inv(alpha_w) == pytest.approx(inv(math.radians(20)) + 2 * math.tan(math.radians(20)) * 0.7 / 120, rel=1e-12)
    assert center_distance(spec) == pytest.approx(0.008 * 120 / 2 * math.cos(math.radians(20)) / math.cos(alpha_w), rel=1e-12)
    assert PairSpec(kind="internal", z1=20, z2=60, x1=0.2).problems()[0] == (
        "x1", "must be 0 for internal pairs (profile shift is supported on external pairs), got 0.2")


def test_waveform_from_the_involute_geometry():
    spur = involute_waveform(1.6)
    levels = np.unique(np.round(spur, 12))
    assert len(levels) == 2 and levels[1] / levels[0] == pytest.approx(2.0, rel=1e-12)  # single and double contact
    assert np.mean(spur == spur.max()) == pytest.approx(0.6, abs=1e-3)  # double contact over eps_alpha - 1
    assert np.ptp(involute_waveform(1.6, 1.0)) < 1e-12  # an integer overlap ratio smooths it flat


def test_a_helical_waveform_is_the_exact_face_average_with_a_few_kinks_a_period():
    """The count of pairs in contact averaged over the face (u shifted by eps_beta y, y uniform on [0, 1]), against
    a sum over 200,000 points across the face: equal to the sum's resolution. Piecewise linear, it bends at a
    handful of fractions a period (where a contact line enters or leaves the face), not at every sample: a sum over
    256 points made a staircase whose slope changed at 853 of 1024 samples, and dopri5 cut its steps at each."""
    eps_alpha, eps_beta = 1.5609, 0.8238  # the helical pair example's
    shape = involute_waveform(eps_alpha, eps_beta)
    s = np.arange(shape.size) / shape.size
    y = (np.arange(200_000) + 0.5) / 200_000
    dense = np.array([np.ceil(eps_alpha - (x + eps_beta * y) % 1.0).mean() for x in s])
    assert shape == pytest.approx(dense / dense.mean(), abs=2e-5)
    bends = np.flatnonzero(np.abs(np.diff(shape, 2, append=shape[:2])) > 1e-9)
    assert 1 <= len(bends) <= 8, len(bends)


def _pchip(profile: np.ndarray, fraction: float) -> tuple[float, float]:
    """The periodic samples' monotone cubic interpolant and its slope per unit fraction by scipy's
    PchipInterpolator (Fritsch and Butland's harmonic-mean slopes), on the samples repeated around the period."""
    n = len(profile)
    x = np.arange(-3, n + 4)
    curve = PchipInterpolator(x, profile[x % n])
    f = (fraction % 1.0) * n
    return float(curve(f)), float(curve(f, 1)) * n


@pytest.mark.parametrize("waveform", ["involute", "cosine", "rectangular"])
def test_stiffness_at_one_phase_is_the_interpolant_of_the_profile(waveform):
    # a run asks for one phase (a float) per evaluation; the waveform's definition is the samples' periodic
    # monotone cubic interpolant (here scipy's, an independent implementation; the cosine: its closed form)
    model = _held_compliant_pair()
    replace_fields(model, "mesh", waveform=waveform, k_amplitude=3e7).do(model)  # 0.3 of k_mean 1e8
    pair = model.gear_pairs["pair"]
    mesh = mesh_model_for(pair, model.forces["mesh"], polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2))
    n = len(mesh.profile)
    changes = np.flatnonzero(np.diff(mesh.profile))  # where the samples step or bend: on a ramp, and beside it
    for fraction in (0.0, 0.123456, 0.5, 0.999, 3.75, -0.2, *((changes[[0, -1]] + 0.3) / n), (changes[0] - 0.6) / n):
        k, dk = mesh.stiffness(fraction)
        assert isinstance(k, float) and isinstance(dk, float)
        if waveform == "cosine":
            phi = 2 * math.pi * fraction
            expected = (mesh.k_mean * (1 + 0.3 * math.cos(phi)), -mesh.k_mean * 0.3 * math.sin(phi))
        else:
            value, slope = _pchip(mesh.profile, fraction)
            expected = (mesh.k_mean * value, mesh.k_mean * slope / (2 * math.pi))
        assert (k, dk) == pytest.approx(expected, rel=1e-12, abs=1e-9 * mesh.k_mean)
        ks, dks = mesh.stiffness(np.array([fraction, fraction]))  # the array path: the same numbers
        assert ks[0] == pytest.approx(k, rel=1e-13) and dks[1] == pytest.approx(dk, rel=1e-12, abs=1e-9 * mesh.k_mean)


@pytest.mark.parametrize("eps_beta", [0.0, 0.8238])
def test_the_stiffness_has_no_kink_where_the_count_of_tooth_pairs_changes(eps_beta):
    """The potential torque -(dk/dphi) z p^2 / 2 is a term of the rate: where the slope of k jumped (the linear
    interpolant, at both ends of a spur pair's step from one pair to two, and at a helical pair's kinks), so did
    the rate, and an adaptive step across it was refused until it was the tolerance's size. On the involute
    waveform of a spur pair (eps_alpha 1.6) and of the helical example, at every sample: the slope is the same
    on both sides, to 1e-6 of its largest; between samples k stays within its two samples (no overshoot below
    the single pair's stiffness); and its mean over the period is the samples' (k_mean is kept)."""
    profile = involute_waveform(1.5609 if eps_beta else 1.6, eps_beta)
    law = MeshModel(1.0, profile, 0.0, 0.0, 0.0)
    n = len(profile)
    nodes = np.arange(n) / n
    below, above = law.stiffness(nodes - 1e-9 / n), law.stiffness(nodes + 1e-9 / n)
    steepest = np.abs(law.stiffness(np.arange(8 * n) / (8 * n))[1]).max()
    assert steepest > (100 if eps_beta == 0.0 else 0.1)  # the waveform does change (per unit fraction)
    assert np.abs(above[1] - below[1]).max() <= 1e-6 * steepest
    inside = (np.arange(n)[:, None] + np.linspace(0.0, 1.0, 17)[None, :]) / n
    k = law.stiffness(inside.ravel())[0].reshape(inside.shape)
    low, high = np.minimum(profile, np.roll(profile, -1)), np.maximum(profile, np.roll(profile, -1))
    assert (k >= low[:, None] - 1e-12).all() and (k <= high[:, None] + 1e-12).all()
    fine = law.stiffness((np.arange(64 * n) + 0.5) / (64 * n))[0]
    assert fine.mean() == pytest.approx(profile.mean(), abs=1e-6)


def _held_compliant_pair(backlash=0.0, torque=10.0, waveform="involute"):
    model = load(EXAMPLES / "helical_pair.gdyn")
    for body in list(model.bodies):
        replace_fields(model, body, angular_velocity=(0.0, 0.0, 0.0)).do(model)
    AddItem(builders.constant_torque("drive", "gear1_joint", torque)).do(model)
    AddItem(builders.held_joint("hold", "gear2_joint")).do(model)
    AddItem(CompliantMesh("mesh", "pair", stiffness="given", k_mean=1e8, waveform=waveform, backlash=backlash)).do(model)
    return model


@pytest.mark.parametrize("torque", [10.0, -10.0])
def test_line_of_action_spring_and_backlash_on_both_flanks(torque):
    """Static: F = Ft / cos(alpha_wt) = k (delta - j/2), e = delta / cos(alpha_wt); the sign follows the flank.
    With a constant stiffness (a cosine of no amplitude): where the stiffness varies along the mesh position, its
    energy adds the torque -(dk/dphi) z pen^2 / 2 to the balance."""
    j = 50e-6
    model = _held_compliant_pair(backlash=j, torque=torque, waveform="cosine")
    model.settings = SimulationSettings(static_equilibrium=True)
    system = assemble(model)
    y, note = system.mesh_equilibrium(system.initial_state())
    ch = system.channels(0.0, y)
    pair = model.gear_pairs["pair"]
    alpha = pair_geometry(pair.pair_spec()).working_pressure_angle
    k = 1e8
    ft = abs(torque) / (pair.module * pair.z1 / 2)
    delta = math.copysign(ft / math.cos(alpha) / k + j / 2, torque)  # a drive torque loads the drive flanks
    # the run's note, in µm as gear data give it (it read 3.24259e-05 m)
    assert note == f"static equilibrium: transmission error mesh {delta / math.cos(alpha) * 1e6:.4g} µm"
    assert ch["mesh.deflection [m]"] == pytest.approx(delta, rel=1e-6)
    assert ch["mesh.TE [m]"] == pytest.approx(delta / math.cos(alpha), rel=1e-6)
    assert abs(ch["pair.Ft [N]"]) == pytest.approx(ft, rel=1e-6)


def test_contact_is_lost_inside_the_backlash_and_the_gears_impact():
    """No load, gear 1 spinning into a gear at rest across a 100 um gap: no force until the gap closes, then contact."""
    model = _held_compliant_pair(backlash=100e-6, torque=0.0)
    del model.forces["drive"], model.forces["hold"]
    replace_fields(model, "gear1", angular_velocity=(0.0, 0.0, 1.0)).do(model)
    res = simulate(model, t_end=0.01, step=2e-6, output_step=2e-5, integrator="rk4")
    force, te = res.channel("mesh.force"), res.channel("mesh.deflection")
    r1 = 0.02 * math.cos(pair_geometry(model.gear_pairs["pair"].pair_spec()).working_pressure_angle)
    t_close = 50e-6 / r1  # the drive flanks meet when delta = j / 2 (delta grows at r_b1 w1)
    before = res.time < 0.9 * t_close
    assert np.all(force[before] == 0.0) and np.all(np.abs(te[before]) < 50e-6)
    assert np.abs(force[res.time > 1.1 * t_close]).max() > 0.0  # the impact


def test_damping_ratio_of_critical_is_the_default():
    model = load(EXAMPLES / "helical_pair.gdyn")
    mesh = CompliantMesh("mesh", "pair")
    assert mesh.damping_model == "ratio" and mesh.stiffness == "iso6336" and mesh.waveform == "involute"
    pair = model.gear_pairs["pair"]
    i1, i2 = polar_inertia(model, "gear1_joint"), polar_inertia(model, "gear2_joint")
    mm = mesh_model_for(pair, mesh, i1, i2)
    geo = pair_geometry(pair.pair_spec())
    iso = iso6336_stiffness(pair.z1, pair.z2, pair.pressure_angle, pair.helix_angle, geo.transverse_contact_ratio)
    assert mm.k_mean == pytest.approx(iso.c_gamma_alpha * pair.face_width, rel=1e-12)
    m_eq = equivalent_mass(i1, i2, geo.base_radius_1, geo.base_radius_2)
    assert mm.damping == pytest.approx(2 * 0.07 * math.sqrt(mm.k_mean * float(np.mean(mm.profile)) * m_eq), rel=1e-12)


def _peaks(t, x):
    """The maxima of a sampled signal above 0, each refined by the parabola through it and its neighbours."""
    found = []
    for i in range(1, len(x) - 1):
        if x[i] > 0 and x[i] > x[i - 1] and x[i] >= x[i + 1]:
            a, b, c = x[i - 1], x[i], x[i + 1]
            s = 0.5 * (a - c) / (a - 2 * b + c)
            found.append((t[i] + s * (t[1] - t[0]), b - 0.25 * (a - c) * s))
    return np.array(found)


def test_a_flywheel_welded_to_a_gear_turns_in_its_mesh_mode_and_shares_its_damping():
    """A flywheel of 3 times gear 1's inertia welded to gear 1, the gears on fixed centres, a constant mesh stiffness:
    the free vibration the multibody run integrates has the frequency mesh_in_model gives (what the mesh note and
    the model check say) and decays by the damping ratio asked for, 0.07 (log decrement of successive peaks).
    Without the flywheel's inertia both were off: 5336 Hz said, 3373 Hz run; 0.044 of critical."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    i1 = polar_inertia(model, "gear1_joint")
    x, y, z = model.bodies["gear1"].position
    AddItem(RigidBody("flywheel", mass=1.0, inertia=((2 * i1, 0, 0), (0, 2 * i1, 0), (0, 0, 3 * i1)),
                      position=(x, y, z + 0.05), angular_velocity=(0.0, 0.0, 1.0))).do(model)
    AddItem(FixedJoint("weld", "gear1", "flywheel", (x, y, z + 0.05))).do(model)
    replace_fields(model, "gear1", angular_velocity=(0.0, 0.0, 1.0)).do(model)
    replace_fields(model, "gear2", angular_velocity=(0.0, 0.0, 0.0)).do(model)  # the mesh deflects from the start
    mesh = CompliantMesh("mesh", "pair", stiffness="given", k_mean=1e8, waveform="cosine", k_amplitude=0.0)
    AddItem(mesh).do(model)
    assert polar_inertia(model, "gear1_joint") == pytest.approx(4 * i1, rel=1e-12)
    f_n = mesh_in_model(model, mesh)[1]
    res = simulate(model, t_end=8 / f_n, step=1 / f_n / 200, output_step=1 / f_n / 200, integrator="rk4")
    peaks = _peaks(res.time, res.channel("mesh.deflection"))
    decrement = float(np.mean(np.log(peaks[:-1, 1] / peaks[1:, 1])))
    zeta = decrement / math.hypot(2 * math.pi, decrement)
    f_d = 1.0 / float(np.mean(np.diff(peaks[:, 0])))
    assert len(peaks) >= 7 and zeta == pytest.approx(0.07, rel=1e-4)
    assert f_d / math.sqrt(1 - zeta ** 2) == pytest.approx(f_n, rel=1e-5)


def test_findings_for_meshes_and_losses():
    model = _held_compliant_pair()
    replace_fields(model, "mesh", damping=5.0).do(model)  # the ratio is in use: reported as not used
    replace_fields(model, "pair", loss_table=((0.0, 0.98, 0.98, 0.0, 0.0),)).do(model)
    text = [str(f) for f in validate(model)]
    assert any("mesh.damping" in t and "not used" in t for t in text), text
    assert not any("loss_table" in t for t in text), text  # the losses are simulated (tests/core/dynamics/test_lossy_gear)
    example = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    example.settings = SimulationSettings(t_end=0.1, step=1e-4, integrator="generalized_alpha", rho_inf=0.5)
    text = [str(f) for f in validate(example)]
    assert any("coarser than 1/50 of the mesh period" in t for t in text), text
    assert any("damps the mesh mode" in t for t in text), text
    assert not [f for f in validate(load(EXAMPLES / "compliant_mesh_pair.gdyn")) if f.severity != "info"]


def test_cli_pair_reports_the_iso_stiffness():
    out = subprocess.run([sys.executable, "-m", "core.cli", "pair", "--z1", "17", "--z2", "103", "--module", "8.3141",
                          "--helix-angle", "15.8", "--width", "100", "--x1", "0.145", "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert data["units"]["c_th"] == "N/m^2" and data["units"]["c_gamma_alpha"] == "N/m^2"
    assert data["c_th"] / N_PER_MM_UM == pytest.approx(17.86, abs=0.005)
    assert data["x1"] == 0.145 and data["center_distance"] == pytest.approx(0.5, abs=1e-5)


def test_profile_shift_in_the_generated_gear():
    """x m_n moves the tip circle out and thickens the tooth: more steel, same reference circle."""
    from core.geometry.gear_mesh import gear_mesh_arrays
    from core.geometry.macro import GearSpec

    plain, shifted = (GearSpec(kind="helical", module=0.002, teeth=20, face_width=0.02, bore_diameter=0.01,
                               profile_shift=x) for x in (0.0, 0.3))
    (v0, _), (v1, _) = gear_mesh_arrays(plain), gear_mesh_arrays(shifted)
    r0, r1 = np.hypot(v0[:, 0], v0[:, 1]).max(), np.hypot(v1[:, 0], v1[:, 1]).max()
    assert r0 == pytest.approx(0.020 + 0.002, rel=1e-9)
    assert r1 == pytest.approx(0.020 + 1.3 * 0.002, rel=1e-9)
    assert GearSpec(kind="inner", teeth=60, rim_diameter=0.15, profile_shift=0.2).problems()[0] == (
        "profile_shift", "must be 0 for inner gears (profile shift is supported on external helical/spur gears), got 0.2")


def test_the_mesh_mode_of_a_pair_on_fixed_centres_is_the_trains_eigenfrequency():
    """mesh_in_model's f_n = sqrt(k / m_eq) / (2 pi), what the model check and the app's mesh note give, against
    the lumped train's eigenvalue problem (core.chbm.modes) on the same pair: 1653 Hz for the example."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    mesh = next(f for f in model.forces.values() if isinstance(f, CompliantMesh))
    law, f_n = mesh_in_model(model, mesh)
    eigen = [m.frequency for m in distinct(train_modes(train_from_model(model))) if m.frequency > 0]
    assert len(eigen) == 1 and f_n == pytest.approx(eigen[0], rel=1e-9)
    assert law.k_mean == mesh.k_mean


def test_a_bevel_pairs_mesh_mode_and_damping_ratio_are_those_of_the_linearised_engine():
    """The bevel example with a compliant mesh of constant stiffness damped at 0.07 of critical, 10 N m on the
    pinion: the engine's equations (joint coordinates) linearised at the static mesh equilibrium have one
    oscillating pair of eigenvalues, whose frequency is mesh_in_model's f_n (what the mesh note and the check
    say) and whose damping ratio is 0.07. Both take the levers of the mean cone, r_m cos(alpha); with the back
    cone's virtual base radii f_n was 1.83 times the engine's frequency, and the damping 0.038 of critical."""
    model = load(EXAMPLES / "bevel_pair.gdyn")
    mesh = CompliantMesh("mesh", "pair", stiffness="given", k_mean=2e8, waveform="cosine", k_amplitude=0.0)
    AddItem(mesh).do(model)
    AddItem(Torque("drive", "pinion_joint", TimeLaw(value=10.0))).do(model)  # loads the drive flank
    f_n = mesh_in_model(model, mesh)[1]
    system = assemble(model, "joint")
    y0, _ = system.mesh_equilibrium(system.initial_state())
    jac = np.zeros((y0.size, y0.size))
    for j in range(y0.size):
        step = np.zeros(y0.size)
        step[j] = 1e-7
        jac[:, j] = (system.evaluate(0.0, y0 + step) - system.evaluate(0.0, y0 - step)) / 2e-7
    lam = [v for v in np.linalg.eigvals(jac) if v.imag > 1.0]
    assert len(lam) == 1
    assert abs(lam[0]) / (2 * math.pi) == pytest.approx(f_n, rel=1e-7)
    assert -lam[0].real / abs(lam[0]) == pytest.approx(0.07, rel=1e-6)
    # by hand: r_m = r_e - (b / 2) sin(gamma), the levers r_m cos(20 deg), m_eq = I1 I2 / (I1 l2^2 + I2 l1^2)
    pair = model.gear_pairs["pair"]
    i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
    rm1 = 0.003 * 20 / 2 - 0.01 * math.sin(math.atan(20 / 40))
    l1, l2 = rm1 * math.cos(math.radians(20)), 2 * rm1 * math.cos(math.radians(20))
    assert f_n == pytest.approx(math.sqrt(2e8 * (l1 ** 2 / i1 + l2 ** 2 / i2)) / (2 * math.pi), rel=1e-12)


def test_the_step_rk4_needs_is_that_of_the_whole_trains_fastest_mode_and_holds_on_both_sides():
    """Six compliant meshes on the planetary: the check named each mesh's own mode (two gears on fixed centres,
    10.7 kHz) and a step under 3.72e-05 s, at which the run blew up: the sun on three meshes is faster. The step
    now comes from the assembled equations' fastest mode, checked against the lumped train's highest
    eigenfrequency (core.chbm.modes, at the mean stiffness: the start's is the waveform's, 1.11 times faster here);
    RK4 runs at 0.9 of the step named and diverges at 1.5 of it (the 7 % mesh damping moves its limit to between
    1.2 and 1.3 of the step named, which keeps a margin)."""
    model = load(EXAMPLES / "planetary.gdyn")
    for pair in list(model.gear_pairs):
        AddItem(CompliantMesh(f"{pair}_mesh", pair)).do(model)
    assert not [f for f in validate(model) if "RK4" in f.message]  # no longer the rules' (one mesh at a time)
    found = [f for f in check(model, program(False)) if f.item == "settings.step"]
    assert len(found) == 1 and found[0].message.startswith("RK4 is unstable at 0.001 s on the model's fastest mode (")
    shown = float(found[0].message.split("fastest mode (")[1].split(" Hz")[0])
    lumped = max(m.frequency for m in train_modes(train_from_model(model)))
    start = involute_waveform(*(lambda g: (g.transverse_contact_ratio, g.overlap_ratio))(
        pair_geometry(model.gear_pairs["sun_planet1"].pair_spec())))[0]  # the sun meshes' stiffness at the start
    assert shown == pytest.approx(lumped * math.sqrt(start), rel=0.02), (shown, lumped, start)
    step = float(found[0].message.rsplit("use a step under ", 1)[1].split()[0])
    assert step == pytest.approx(2.5 / (2 * math.pi * shown), rel=5e-3)  # as printed, 3 digits
    ran = {k: simulate(model, t_end=0.01, step=k * step, output_step=1e-3).status for k in (0.9, 1.5)}
    assert ran == {0.9: "finished", 1.5: "failed"}, ran


def test_the_mesh_phase_fraction_of_a_diverged_state_is_nan_compiled_or_not():
    """The fractional part of the mesh phase: x % 1 for finite x, NaN for an infinite or NaN one. In Python,
    floor(inf) raised OverflowError, and a run on the Python path that diverged failed as 'internal error' instead
    of naming the NaN and the step."""
    for x, part in ((2.25, 0.25), (-0.25, 0.75), (0.0, 0.0)):
        assert fractional(x) == part
    assert all(math.isnan(fractional(x)) for x in (math.inf, -math.inf, math.nan))
