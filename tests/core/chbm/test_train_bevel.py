"""A right-angle train in the lumped model (core.chbm.train_from_model): a bevel pair couples the rotations of two
groups of parallel axes, on the mean cone's levers, against the engine on the same model.

- The bevel example (20/40, m 3 mm, b 20 mm, pinion about +x, wheel about +z) with a constant compliant mesh, and
  the two-stage reducer of tests/conftest.py with a 20/30 bevel stage on its output shaft made by
  core.gearing.compound.stage_on_shaft: the lumped model's natural frequencies against the eigenvalues of the
  engine's equations linearised at rest, and the bevel pair's against the hand formula.
- The right-angle reducer rolling under load with meshes of k (1 + 0.2 cos phi): each mesh's first two harmonics
  of its own frequency by harmonic balance against the engine's run brought to steady state. The bevel stage
  meshes at 1/5 of stage 1's frequency, so the train's period holds 20, 9 and 4 periods of its meshes.
"""

import dataclasses
import math

import numpy as np
import pytest

from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.modes import displaced_poses, distinct, train_modes
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import mesh_loads, static_mesh_forces, train_curve
from core.commands import AddItem
from core.dynamics.simulate import simulate
from core.errors import ModelError
from core.gearing.compound import stage_on_shaft
from core.gearing.gear_bodies import polar_inertia
from core.geometry.rotations import quat_about, quat_matrix, quat_mul
from core.model.entities import (GROUND, CompliantMesh, GearPair, RevoluteJoint, RigidBody, SimulationSettings,
                                 TimeLaw, Torque)
from core.model.files import load
from tests.conftest import EXAMPLES, two_stage_reducer
from tests.core.chbm.test_train_against_multibody import engine_frequencies

K = (2e8, 3e8, 1.5e8)  # N/m: stage 1, stage 2, the bevel stage


def mesh(pair: str, k: float, amplitude: float = 0.0, damping: float = 0.0) -> CompliantMesh:
    return CompliantMesh(f"{pair}_mesh", pair, stiffness="given", k_mean=k, k_amplitude=amplitude * k,
                         waveform="cosine", damping_model="constant", damping=damping)


def bevel_example(k: float = K[2]):
    model = load(EXAMPLES / "bevel_pair.gdyn")
    AddItem(mesh("pair", k)).do(model)
    return model


def right_angle_reducer(speed: float = 0.0):
    """The reducer (20/40, 18/45) with a 20/30 straight bevel stage (m 2 mm, b 12 mm) on g4's shaft, every gear
    rolling at `speed` [rad/s] of g1 (the stage's wheel as stage_on_shaft starts it), constant undamped meshes.
    g4's joint points down (-z), against the others: its angle, which phases the bevel mesh, runs backwards; the
    bevel pinion is turned a quarter of its tooth pitch (its mesh's phase 0.75, not 0)."""
    model = two_stage_reducer(False, stiffness=K[:2])
    model.joints["g4_j"] = dataclasses.replace(model.joints["g4_j"], axis=(0.0, 0.0, -1.0))
    for name, spin in {"g1": speed, "g2": -speed / 2, "g3": -speed / 2, "g4": speed / 5}.items():
        model.bodies[name] = dataclasses.replace(model.bodies[name], angular_velocity=(0.0, 0.0, spin))
    commands, pair = stage_on_shaft(model, GearPair("p3", "g4_j", "", GROUND, kind="bevel", z1=20, z2=30,
                                                    module=0.002, pitch_angle=math.atan2(20, 30), face_width=0.012))
    for command in commands:
        command.do(model)
    pinion = model.bodies[pair.gear1]
    turn = quat_about((0.0, 0.0, 1.0), 0.25 * 2 * math.pi / 20)
    model.bodies[pinion.name] = dataclasses.replace(pinion, orientation=tuple(quat_mul(turn, pinion.orientation)))
    AddItem(pair).do(model)
    AddItem(mesh("p3", K[2])).do(model)
    return model


def test_a_bevel_pairs_lumped_mode_is_the_engines_and_the_hand_formulas():
    """One mode: sqrt(k (l1^2 / I1 + l2^2 / I2)) / 2 pi with the levers l = r_m cos(alpha) of the mean cone,
    r_m1 = 30 - 10 sin(atan(1/2)) mm, r_m2 = 2 r_m1; the same as the engine's eigenvalue."""
    model = bevel_example()
    train = train_from_model(model)
    lumped = sorted(m.frequency for m in distinct(train_modes(train)) if m.frequency > 0)
    i1, i2 = polar_inertia(model, "pinion_joint"), polar_inertia(model, "gear_joint")
    rm1 = 0.030 - 0.010 * math.sin(math.atan(0.5))
    l1, l2 = rm1 * math.cos(math.radians(20)), 2 * rm1 * math.cos(math.radians(20))
    assert len(lumped) == 1
    assert lumped[0] == pytest.approx(math.sqrt(K[2] * (l1 ** 2 / i1 + l2 ** 2 / i2)) / (2 * math.pi), rel=1e-9)
    assert np.allclose(engine_frequencies(model), lumped, rtol=1e-6)


def test_a_right_angle_reducers_lumped_modes_are_the_linearised_engines():
    """Three meshes, two groups of axes (z, and the bevel wheel's across it), g4 and the bevel pinion one body:
    three torsional modes, each the engine's; the rolling speeds are the engine's kinematics (the wheel at 1/7.5
    of g1, about its own axis)."""
    model = right_angle_reducer()
    train = train_from_model(model)
    wheel = model.joints[model.gear_pairs["p3"].joint2].body_j
    assert [b.name for b in train.bodies] == ["g1", "g2", "g4", wheel]
    lumped = sorted(m.frequency for m in distinct(train_modes(train)) if m.frequency > 0)
    engine = engine_frequencies(model)
    assert len(engine) == len(lumped) == 3 and np.allclose(engine, lumped, rtol=1e-6), (engine, lumped)
    speeds = train.rolling_speeds()
    assert abs(speeds[wheel] / speeds["g1"]) == pytest.approx(1 / 7.5, rel=1e-12)
    assert abs(train.frames[wheel][2] @ train.frames["g1"][2]) < 1e-12
    assert train.mesh_frequency_ratios() == pytest.approx({"p1": 1.0, "p2": 0.45, "p3": 0.2}, rel=1e-12)
    assert {m.name: m.order for m in train.meshes} == {"p1": 20, "p2": 9, "p3": 4}


def test_a_mode_shape_turns_the_bevel_wheel_about_its_own_axis():
    """Animate Mode's poses (core.chbm.modes.displaced_poses): each gear turns about its own joint's axis through its
    centre by the shape's rotation; the bevel wheel about its joint's -x, across the others' z (with one frame for
    every body, as before the groups, it turned about z)."""
    model = right_angle_reducer()
    train = train_from_model(model)
    mode = max(train_modes(train), key=lambda m: m.frequency)
    poses = displaced_poses(train, mode.shape, 1.0, model)
    for name in ("g1", model.joints[model.gear_pairs["p3"].joint2].body_j):
        body, joint = model.bodies[name], next(j for j in model.joints.values() if j.body_j == name)
        angle = float(train.rotation[name] @ mode.shape)
        axis = train.frames[name][2]
        assert abs(abs(axis @ joint.unit_axis()) - 1.0) < 1e-12 and abs(angle) > 1e-6
        turned = quat_mul(quat_about(axis, angle), body.orientation)
        assert poses[name][1] == pytest.approx(turned, abs=1e-12)
        on_axis = np.asarray(joint.position) + axis * (axis @ (np.asarray(body.position) - joint.position))
        assert poses[name][0] == pytest.approx(on_axis + quat_matrix(quat_about(axis, angle)) @ (
            np.asarray(body.position) - on_axis), abs=1e-12)


@pytest.mark.parametrize("share", [0.6, 1.4])  # of the first natural frequency, in p1's mesh frequency
def test_a_right_angle_reducers_mesh_forces_match_a_multibody_run_brought_to_steady_state(share):
    """20 N m on g1 balanced at the bevel wheel, meshes of k (1 + 0.2 cos phi) damped about 5 % of critical at the
    first mode, every gear rolling: each mesh's first two harmonics of its own frequency, against the engine's
    run over 4 periods of the train after 10 ms, within 2 %. (Tones at sums and differences of the stages'
    frequencies are not compared: there the engine's torque -dV/dtheta of the bevel mesh's varying stiffness, which
    the lumped model leaves out, is some 6 times the bevel tooth force's own share.)"""
    first = min(m.frequency for m in train_modes(train_from_model(right_angle_reducer())) if m.frequency > 0)
    f_mesh = share * first
    speed = f_mesh * 2 * math.pi / 20  # z1 = 20
    model = right_angle_reducer(speed)
    for name, k in zip(("p1", "p2", "p3"), K):
        model.forces[f"{name}_mesh"] = mesh(name, k, 0.2, 2 * 0.05 * k / (2 * math.pi * first))
    joint = model.gear_pairs["p3"].joint2
    wheel_speed = float(np.dot(model.bodies[model.joints[joint].body_j].angular_velocity,
                               model.joints[joint].unit_axis()))
    model.forces["drive"] = Torque("drive", "g1_j", TimeLaw(value=20.0))
    model.forces["load"] = Torque("load", joint, TimeLaw(value=-20.0 * speed / wheel_speed))  # no net power
    train = train_from_model(model)
    hb = HarmonicBalance(train.lumped, 200)  # 10 harmonics of p1's frequency
    z, _, ok = hb.solve(2 * math.pi * f_mesh, hb.static_guess())
    assert ok
    ours = mesh_loads(train, hb, z, f_mesh, static_mesh_forces(train))

    periods, per = 4, 64  # train periods; samples a mesh period of p1
    model.settings = SimulationSettings(t_end=0.01 + periods * 20 / f_mesh, step=1.0 / (f_mesh * per),
                                        output_step=1.0 / (f_mesh * per), integrator="rk4", formulation="joint")
    res = simulate(model)
    assert res.status == "finished", res.message
    for k, (pair, order) in enumerate((("p1", 20), ("p2", 9), ("p3", 4))):
        force = res[f"{pair}_mesh.force [N]"][-periods * 20 * per:]
        spec = np.abs(np.fft.rfft(force)) * 2 / force.size
        theirs = spec[[periods * order, 2 * periods * order]]
        assert theirs == pytest.approx(ours[k].harmonics[:2], rel=0.02), (share, pair, theirs, ours[k].harmonics[:2])


def test_a_joint_whose_axis_points_the_other_way_turns_its_torque_and_its_meshs_phase_with_it():
    """g4's joint turned to -z with the load's value negated is the same machine: the same static mesh forces. The
    engine phases a mesh by its reference gear's joint angle, which then runs the other way: so does the
    lumped mesh's phase (the bevel stage's, whose pinion is welded to g4's shaft)."""
    trains = []
    for axis in (1.0, -1.0):
        model = right_angle_reducer(10.0)
        model.joints["g4_j"] = dataclasses.replace(model.joints["g4_j"], axis=(0.0, 0.0, axis))
        model.forces["drive"] = Torque("drive", "g1_j", TimeLaw(value=20.0))
        model.forces["load"] = Torque("load", "g4_j", TimeLaw(value=-axis * 100.0))
        trains.append(train_from_model(model))
    forces = [t.static_flank_forces() for t in trains]
    assert np.abs(forces[0]).max() > 1e3 and forces[1] == pytest.approx(forces[0], rel=1e-12, abs=1e-9)
    rolling = [{m.name: m.rolling for m in t.meshes} for t in trains]
    assert rolling[1] == {**rolling[0], "p3": -rolling[0]["p3"]}


def test_a_stage_past_the_last_load_is_refused_by_the_forced_response_with_its_mesh_named():
    """Loaded at g4, the bevel stage beyond it carries nothing: its static force was round-off (1e-19 N), and the
    curve the window drew gave it a dynamic factor of 2.4e21."""
    model = right_angle_reducer(10.0)
    model.forces["drive"] = Torque("drive", "g1_j", TimeLaw(value=20.0))
    model.forces["load"] = Torque("load", "g4_j", TimeLaw(value=100.0))  # g4_j points down: -100 N m about +z
    train = train_from_model(model)
    rb = [0.001 * z * math.cos(math.radians(20)) for z in (20, 45)]  # g1's and g4's base radii [m]
    assert np.abs(static_mesh_forces(train))[:2] == pytest.approx([20.0 / rb[0], 100.0 / rb[1]], rel=1e-9)
    with pytest.raises(ModelError, match=r"p3: carries no static force under the model's mean torques"):
        train_curve(train, 1000.0, 2000.0)


def test_a_torque_on_a_body_outside_the_train_is_left_out_and_said_so():
    """A fan on a joint of its own with a torque: not part of the train. Reading its joint's sense against its
    group's axis raised KeyError 'fan' (it has no group); before that, its torque was dropped without a word."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    AddItem(RigidBody("fan", mass=1.0, inertia=((1e-3, 0, 0), (0, 1e-3, 0), (0, 0, 1e-3)),
                      position=(0.3, 0.0, 0.0))).do(model)
    AddItem(RevoluteJoint("fan_joint", GROUND, "fan", (0.3, 0.0, 0.0), (0.0, 0.0, 1.0))).do(model)
    AddItem(Torque("fan_torque", "fan_joint", TimeLaw(value=1.0))).do(model)
    train = train_from_model(model)
    assert "fan" not in [b.name for b in train.bodies]
    assert "fan_torque: acts on 'fan', which is not part of the train (left out)" in train.notes


def test_a_bevel_pair_whose_gear_turns_on_a_moving_body_is_refused_with_the_pair_named():
    """The bevel wheel's joint on a housing that turns itself: its centre would move, which the lumped train's
    planar translations cannot hold."""
    model = bevel_example()
    AddItem(RigidBody("housing", mass=1.0, inertia=((1e-3, 0, 0), (0, 1e-3, 0), (0, 0, 1e-3)),
                      position=(0.0, 0.0, -0.05))).do(model)
    AddItem(RevoluteJoint("housing_joint", GROUND, "housing", (0.0, 0.0, -0.05), (0.0, 0.0, 1.0))).do(model)
    model.joints["gear_joint"] = dataclasses.replace(model.joints["gear_joint"], body_i="housing")
    with pytest.raises(ModelError, match=r"pair: is a bevel pair whose gear 'gear' turns on 'housing'"):
        train_from_model(model)
