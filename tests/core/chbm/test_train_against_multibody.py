"""The lumped train against the multibody engine on the same model: the torsional planetary example with
compliant meshes on every pair (sun 24, planets 24, ring 72 held; each body on its revolute joint), and the
compliant planetary example whose members sit in hubs on bearings.

- Natural frequencies: the eigenvalues of the engine's equations (joint coordinates; Cartesian ones for the
  members on bearings) linearised at rest by central differences, against the lumped model's at the same
  (constant) mesh stiffness.
- Forced response: the engine run at a constant rolling speed until steady, its mesh force's first two
  mesh harmonics against the harmonic balance's at three mesh frequencies (below, at and above the first
  rotational resonance). The mesh stiffness varies as k (1 + 0.2 cos phi) in both.
"""

import dataclasses
import math

import numpy as np
import pytest

from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.modes import distinct, train_modes
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import mesh_loads, period_forces, static_mesh_forces, train_curve
from core.commands import AddItem
from core.dynamics.formulations import assemble
from core.errors import ModelError
from core.dynamics.simulate import simulate
from core.gearing.fixes import fix_command
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import mesh_model_for
from core.model.entities import (
    GROUND,
    BearingSpringDamper,
    CompliantMesh,
    SimulationSettings,
    SpringDamper,
    TimeLaw,
    Torque,
)
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES, two_stage_reducer

K_MEAN = 5e8  # N/m


def planetary(amplitude: float, damping: float, torque: float = 0.0, sun_speed: float = 0.0):
    """The planetary example with compliant meshes, balanced torques (the carrier loaded by 4 T) and every body
    rolling at `sun_speed` [rad/s] of the sun."""
    model = load(EXAMPLES / "planetary.gdyn")
    for p in list(model.gear_pairs):
        model.forces[f"{p}_mesh"] = CompliantMesh(f"{p}_mesh", p, stiffness="given", k_mean=K_MEAN,
                                                  k_amplitude=amplitude * K_MEAN, waveform="cosine",
                                                  damping_model="constant", damping=damping)
    model.forces["sun_torque"] = Torque("sun_torque", "sun_joint", TimeLaw(value=torque))
    model.forces["carrier_load"] = Torque("carrier_load", "carrier_joint", TimeLaw(value=-4.0 * torque))
    w_c = sun_speed / 4.0  # ring held: the carrier turns at z_s / (z_s + z_r) of the sun
    w_p = w_c - (sun_speed - w_c)  # z_s = z_p: a planet turns back on the carrier as fast as the sun on it
    for name, body in list(model.bodies.items()):
        spin = {"sun": sun_speed, "carrier": w_c, "ring": 0.0}.get(name, w_p)
        p = body.position
        model.bodies[name] = dataclasses.replace(body, angular_velocity=(0.0, 0.0, spin),
                                                 velocity=(-w_c * p[1], w_c * p[0], 0.0))
    return model


def test_natural_frequencies_equal_the_linearised_multibody_equations():
    model = planetary(0.0, 0.0)
    lumped = sorted(m.frequency for m in distinct(train_modes(train_from_model(model))) if m.frequency > 0)
    engine = engine_frequencies(model)
    assert len(engine) == len(lumped) == 3  # rotational, planet (twice), rotational
    assert np.allclose(engine, lumped, rtol=1e-6), (engine, lumped)


def in_gear_plane(model):
    """The compliant planetary example made planar, as Lin and Parker's model is: every hub moved along its axis
    into the gears' plane with its bearing and arms (they sit in front of or behind the gears), the bearings'
    tilt made stiff (1e11 N m/rad), every damper off, the mesh stiffness constant at its ISO 6336 mean and
    every body at rest. A tenth of the torques stays: it decides the flank in contact, while the stiffness its
    preload adds as the force turns with the centres (out of the lumped model, 1e-5 at full load) drops to 1e-6."""
    for name, f in list(model.forces.items()):
        if isinstance(f, BearingSpringDamper):
            dz = f.position[2]
            hub = model.bodies[f.body_j]
            model.bodies[f.body_j] = dataclasses.replace(hub, position=(*hub.position[:2], hub.position[2] - dz))
            model.forces[name] = dataclasses.replace(f, position=(*f.position[:2], 0.0), radial_damping=0.0,
                                                     tilt_stiffness=1e11)
            for arm_name, arm in list(model.forces.items()):
                if isinstance(arm, SpringDamper) and arm.body_j == f.body_j:
                    model.forces[arm_name] = dataclasses.replace(
                        arm, point_i=(*arm.point_i[:2], arm.point_i[2] - dz), damping=0.0)
        elif isinstance(f, Torque):
            model.forces[name] = dataclasses.replace(f, law=dataclasses.replace(f.law, value=0.1 * f.law.value))
        elif isinstance(f, CompliantMesh):
            pair = model.gear_pairs[f.pair]
            k = mesh_model_for(pair, f, polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)).k_mean
            model.forces[name] = dataclasses.replace(f, stiffness="given", k_mean=k, k_amplitude=0.0,
                                                     waveform="cosine", damping_model="constant", damping=0.0)
    for name, b in list(model.bodies.items()):
        model.bodies[name] = dataclasses.replace(b, angular_velocity=(0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0))
    return model


def test_translational_rotational_frequencies_equal_the_linearised_multibody_equations_with_bearings():
    """Every mode of the lumped model (rotational and translational: the members' centres move on their
    bearings and load the meshes along the lines of action) is an eigenvalue of the engine's Cartesian equations;
    the engine's others are its out-of-plane modes (axial, tilt) and the constraint stabilisation."""
    model = in_gear_plane(load(EXAMPLES / "compliant_planetary.gdyn"))
    modes = [m for m in train_modes(train_from_model(model)) if m.frequency > 0]
    assert {m.kind for m in modes} >= {"rotational", "translational"}  # three planets: no planet modes
    engine = cartesian_frequencies(model)
    for m in modes:
        nearest = engine[np.argmin(np.abs(engine - m.frequency))]
        assert nearest == pytest.approx(m.frequency, rel=1e-5), (m.kind, m.frequency, nearest)


def test_a_gear_carried_by_its_bearing_has_the_modes_of_the_linearised_multibody_equations():
    """The seed 002 pair with gear 2 carried by a bearing (its joint on_bearing, the warning's fix): the lumped
    train seats gear 2 on the bearing, and each of its modes (the bearing's translations, the mesh's) is an
    eigenvalue of the engine's Cartesian equations; the one across the line of action is sqrt(k / m) alone."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    AddItem(BearingSpringDamper("gear2_bearing", GROUND, "gear2", model.bodies["gear2"].position)).do(model)
    fix_command(model, next(f for f in validate(model) if f.fix == "carry_on_bearing")).do(model)
    model = in_gear_plane(model)
    modes = [m for m in train_modes(train_from_model(model)) if m.frequency > 0]
    assert [m.kind for m in modes].count("translational") >= 1
    across = math.sqrt(model.forces["gear2_bearing"].radial_stiffness / model.bodies["gear2"].mass) / (2 * math.pi)
    assert min(abs(m.frequency - across) for m in modes) < 1e-9 * across
    engine = cartesian_frequencies(model)
    for m in modes:
        nearest = engine[np.argmin(np.abs(engine - m.frequency))]
        assert nearest == pytest.approx(m.frequency, rel=1e-5), (m.kind, m.frequency, nearest)


def cartesian_frequencies(model) -> np.ndarray:
    """The damped natural frequencies [Hz] of the engine's Cartesian equations linearised by central differences
    at the static mesh equilibrium (the drive flanks loaded by the torques)."""
    system = assemble(model, "cartesian")
    space = system.space
    y0, _ = system.mesh_equilibrium(system.initial_state())
    n = space.tangent_size
    jac = np.zeros((n, n))
    for j in range(n):
        step = np.zeros(n)
        step[j] = 1e-10
        jac[:, j] = (system.evaluate(0.0, space.retract(y0, step))
                     - system.evaluate(0.0, space.retract(y0, -step))) / 2e-10
    lam = np.linalg.eigvals(jac)
    return np.abs(lam.imag[lam.imag > 1.0]) / (2 * math.pi)


@pytest.mark.parametrize("share", [0.6, 1.0, 1.4])  # of the first rotational natural frequency
def test_mesh_force_harmonics_match_a_multibody_run_brought_to_steady_state(share):
    damping = 2 * 0.05 * math.sqrt(K_MEAN * 0.1)  # about 5 % of critical for the meshes
    first = min(m.frequency for m in train_modes(train_from_model(planetary(0.2, damping))) if m.frequency > 0)
    f_mesh = share * first
    sun = f_mesh * 2 * math.pi / (24 * 0.75)  # mesh frequency z_s (w_s - w_c) / 2 pi
    model = planetary(0.2, damping, torque=20.0, sun_speed=sun)
    train = train_from_model(model)
    hb = HarmonicBalance(train.lumped, 10)
    z, _, ok = hb.solve(2 * math.pi * f_mesh, hb.static_guess())
    assert ok
    ours = mesh_loads(train, hb, z, f_mesh, static_mesh_forces(train))[0]

    periods, per = 40, 64
    t_end = 0.004 + periods / f_mesh
    model.settings = SimulationSettings(t_end=t_end, step=1.0 / (f_mesh * per), output_step=1.0 / (f_mesh * per),
                                        integrator="rk4", formulation="joint")
    res = simulate(model)
    assert res.status == "finished", res.message
    force = res["sun_planet1_mesh.force [N]"][-periods * per:]
    spec = np.abs(np.fft.rfft(force)) * 2 / force.size
    theirs = spec[[periods, 2 * periods]]  # the first two mesh harmonics
    for h in range(2):
        assert theirs[h] == pytest.approx(ours.harmonics[h], rel=0.02), (share, h, theirs, ours.harmonics[:2])


def engine_frequencies(model) -> np.ndarray:
    """The natural frequencies [Hz] of the engine's equations (joint coordinates) linearised at the start."""
    system = assemble(model, "joint")
    y0 = system.initial_state()
    jac = np.zeros((y0.size, y0.size))
    for j in range(y0.size):
        step = np.zeros(y0.size)
        step[j] = 1e-8
        jac[:, j] = (system.evaluate(0.0, y0 + step) - system.evaluate(0.0, y0 - step)) / 2e-8
    lam = np.linalg.eigvals(jac)
    return np.unique(np.round(np.abs(lam.imag[lam.imag > 1.0]) / (2 * math.pi), 3))


@pytest.mark.parametrize("own_joint", [True, False])
def test_a_compound_shaft_is_one_lumped_body_with_the_engines_natural_frequencies(own_joint):
    """Gears 2 and 3 welded together turn as one body of the lumped train (their inertias summed, each mesh on
    its own gear's base radius): its two torsional frequencies are the engine's, however the shaft is modelled."""
    model = two_stage_reducer(own_joint, stiffness=(2e8, 3e8))
    train = train_from_model(model)
    assert [b.name for b in train.bodies if b.name in ("g2", "g3")] == ["g2"]
    lumped = sorted(m.frequency for m in distinct(train_modes(train)) if m.frequency > 0)
    engine = engine_frequencies(model)
    assert len(engine) == len(lumped) == 2 and np.allclose(engine, lumped, rtol=1e-6), (engine, lumped)


REDUCER_K = (2e8, 3e8)  # N/m, stages 1 and 2


def loaded_reducer(torque: float = 0.0, speed: float = 0.0, zeta: float = 0.05):
    """The two-stage reducer of tests/conftest.py (20/40, then 18/45 on g2's shaft) with meshes of k (1 + 0.2 cos
    phi), damped about `zeta` of critical at its first mode, `torque` [N m] on g1 balanced by 5 times it on g4,
    and every gear rolling at `speed` [rad/s] of g1."""
    model = two_stage_reducer(False, stiffness=REDUCER_K)
    first = min(m.frequency for m in train_modes(train_from_model(model)) if m.frequency > 0)
    for pair, k in zip(("p1", "p2"), REDUCER_K):
        mesh = model.forces[f"{pair}_mesh"]
        model.forces[mesh.name] = dataclasses.replace(mesh, k_amplitude=0.2 * k,
                                                      damping=2 * zeta * k / (2 * math.pi * first))
    model.forces["drive"] = Torque("drive", "g1_j", TimeLaw(value=torque))
    model.forces["load"] = Torque("load", "g4_j", TimeLaw(value=-5.0 * torque))  # 40/20 * 45/18
    spins = {"g1": speed, "g2": -speed / 2, "g3": -speed / 2, "g4": speed / 5}
    for name, body in list(model.bodies.items()):
        model.bodies[name] = dataclasses.replace(body, angular_velocity=(0.0, 0.0, spins[name]))
    return model, first


def test_a_two_stage_train_runs_on_the_shortest_period_that_holds_whole_periods_of_both_meshes():
    """Stage 2 meshes at z3 / z2 = 18 / 40 = 9 / 20 of stage 1's frequency: the train's period holds 20 mesh
    periods of p1 and 9 of p2, and over it p2's stiffness is its cosine at the 9th harmonic alone. A planetary
    set's six meshes share one frequency (one mesh period). Trains not geared together, and harmonics that
    leave out a mesh's own frequency, are refused with the field named."""
    model, _ = loaded_reducer(20.0)
    train = train_from_model(model)
    assert train.mesh_frequency_ratios() == pytest.approx({"p1": 1.0, "p2": 18 / 40}, rel=1e-12)
    assert {m.name: m.order for m in train.meshes} == {"p1": 20, "p2": 9} and train.lumped.cycles == 20
    stiff = train.lumped.stiffnesses(np.arange(360) / 360)  # drive and coast flank of p1, then of p2
    for flank, (k, order) in zip(stiff, ((REDUCER_K[0], 20), (REDUCER_K[0], 20), (REDUCER_K[1], 9),
                                         (REDUCER_K[1], 9))):
        amplitude = np.abs(np.fft.rfft(flank)) * 2 / 360
        assert flank.mean() == pytest.approx(k, rel=1e-12) and amplitude[order] == pytest.approx(0.2 * k, rel=1e-12)
        assert np.delete(amplitude[1:], order - 1).max() < 1e-9 * k
    planetary_train = train_from_model(load(EXAMPLES / "compliant_planetary.gdyn"))
    assert planetary_train.lumped.cycles == 1 and {m.order for m in planetary_train.meshes} == {1}
    with pytest.raises(ModelError, match=r"harmonics: must be at least 20 \(up to 1000\), got 12"):
        train_curve(train, 100.0, 200.0, harmonics=12)
    apart = two_stage_reducer(True, stiffness=REDUCER_K)
    del apart.joints["shaft"]  # g3 on its own joint: two pairs that do not drive each other
    apart.forces["drive"] = Torque("drive", "g1_j", TimeLaw(value=1.0))
    with pytest.raises(ModelError, match=r"train: p2 does not turn in a fixed ratio to p1"):
        train_curve(train_from_model(apart), 100.0, 200.0)


@pytest.mark.parametrize("share", [0.6, 1.0, 1.4])  # of the first natural frequency, in p1's mesh frequency
def test_a_two_stage_trains_mesh_forces_match_a_multibody_run_brought_to_steady_state(share):
    """Each mesh's first two harmonics of its own frequency, and p1's tone at the sum of the two mesh frequencies
    (the 29th harmonic of the train's period: the stages modulate each other), against the engine's run at a
    constant rolling speed over 4 periods of the train after 10 ms, within 2 %."""
    _, first = loaded_reducer()
    f_mesh = share * first
    model, _ = loaded_reducer(20.0, f_mesh * 2 * math.pi / 20)  # z1 = 20
    train = train_from_model(model)
    hb = HarmonicBalance(train.lumped, 200)  # 10 harmonics of p1's frequency
    z, _, ok = hb.solve(2 * math.pi * f_mesh, hb.static_guess())
    assert ok
    ours = mesh_loads(train, hb, z, f_mesh, static_mesh_forces(train))
    tones = np.abs(np.fft.rfft(period_forces(train, hb, z, f_mesh, 1280), axis=1)) * 2 / 1280

    periods, per = 4, 64  # train periods; samples a mesh period of p1
    model.settings = SimulationSettings(t_end=0.01 + periods * 20 / f_mesh, step=1.0 / (f_mesh * per),
                                        output_step=1.0 / (f_mesh * per), integrator="rk4", formulation="joint")
    res = simulate(model)
    assert res.status == "finished", res.message
    for k, (pair, order) in enumerate((("p1", 20), ("p2", 9))):
        force = res[f"{pair}_mesh.force [N]"][-periods * 20 * per:]
        spec = np.abs(np.fft.rfft(force)) * 2 / force.size
        theirs = spec[[periods * order, 2 * periods * order]]
        assert theirs == pytest.approx(ours[k].harmonics[:2], rel=0.02), (share, pair, theirs, ours[k].harmonics[:2])
    p1 = res["p1_mesh.force [N]"][-periods * 20 * per:]
    assert (np.abs(np.fft.rfft(p1)) * 2 / p1.size)[periods * 29] == pytest.approx(tones[0, 29], rel=0.02)


def on_its_bearing(example: str):
    """An example pair with gear 2 carried by a bearing to the ground (its joint on_bearing, the warning's fix)."""
    model = load(EXAMPLES / example)
    AddItem(BearingSpringDamper("gear2_bearing", GROUND, "gear2", model.bodies["gear2"].position)).do(model)
    fix_command(model, next(f for f in validate(model) if f.fix == "carry_on_bearing")).do(model)
    return model


def test_a_bearings_axial_and_tilt_springs_are_said_left_out_of_the_planar_train():
    """The lumped train moves in its plane: it takes a bearing's radial spring-damper and says that the axial and
    tilt ones are left out; where a helical gear sits on a bearing, that its axial tooth force moves the bearing
    in the multibody run alone. A spur pair's note does not speak of an axial tooth force it does not have."""
    spur = train_from_model(on_its_bearing("compliant_mesh_pair.gdyn")).notes
    helical = train_from_model(on_its_bearing("helical_pair.gdyn")).notes
    for notes in (spur, helical):
        assert any(n.startswith("gear2_bearing: its axial and tilt spring-dampers are left out") for n in notes), notes
    assert not any("axial tooth force" in n for n in spur)
    assert any(n.startswith("pair: a helical pair (15 deg) with gear2 on a bearing") and "axial tooth force" in n
               for n in helical), helical
    rigid = train_from_model(load(EXAMPLES / "helical_pair.gdyn")).notes  # on revolute joints: nothing left out
    assert not any("axial" in n for n in rigid), rigid


def test_a_train_whose_every_reference_gear_turns_backwards_says_so_once():
    """The compliant planetary example: each of its six meshes' reference gears (the planets) turns backwards on
    the carrier as the train rolls; the phases' note says so once, not after each of the six phases."""
    notes = train_from_model(load(EXAMPLES / "compliant_planetary.gdyn")).notes
    phases = next(n for n in notes if n.startswith("mesh phases"))
    assert "its reference gear" not in phases, phases
    assert phases.endswith("planet3_ring 0.6667; every mesh's reference gear turns backwards as the train rolls")


def test_a_translational_modes_mesh_share_is_zero_not_minus_zero():
    """The helical example with gear 2 on a bearing: its mode across the line of action strains the bearing alone.
    Its mesh share was the round-off of a difference, -1e-17, and the modes table showed it as -0.0 %."""
    modes = train_modes(train_from_model(on_its_bearing("helical_pair.gdyn")))
    across = next(m for m in modes if m.kind == "translational")
    assert f"{100 * across.shares['meshes']:.1f}" == "0.0"  # as the table shows it
    assert all(share >= 0.0 for m in modes for share in m.shares.values())
