"""A reducer built stage by stage (core.gearing.compound.stage_on_shaft), checked by hand and by its meshes."""

import dataclasses
import math

import numpy as np
import pytest
import trimesh

from core.commands import AddItem
from core.dynamics.run import prepare
from core.errors import ModelError
from core.gearing.compound import stage_on_shaft
from core.gearing.placement import place_gear2
from core.geometry.rotations import pose_matrix, quat_matrices
from core.model import builders
from core.model.body_shapes import source_mesh
from core.model.entities import GROUND, FixedJoint, GearPair, RevoluteJoint, SpeedMotor, TimeLaw
from core.model.files import load
from core.model.interference import overlapping_bodies
from core.model.model import Model
from core.validation import validate
from tests.conftest import EXAMPLES

M = 0.002
ALPHA = math.radians(20)


def _stage_one() -> Model:
    """Stage 1 as the Gear Pair dialog makes it on an empty model: 20/40 teeth, module 2 mm, face 20 mm, gear 2
    moved into mesh (along +y), the input at 100 rad/s and gear 2 at -50 rad/s."""
    model = Model()
    pair = GearPair("stage1", "gear1_joint", "gear2_joint", GROUND, z1=20, z2=40, module=M, pressure_angle=ALPHA,
                    face_width=0.02)
    for body, spin in zip(builders.pair_bodies(pair, ("gear1", "gear2")), (100.0, -50.0)):
        AddItem(dataclasses.replace(body, angular_velocity=(0.0, 0.0, spin))).do(model)
        AddItem(RevoluteJoint(f"{body.name}_joint", GROUND, body.name, body.position, (0.0, 0.0, 1.0))).do(model)
    for command in place_gear2(model, pair):
        command.do(model)
    AddItem(pair).do(model)
    return model


def _stage_two(model: Model) -> GearPair:
    commands, pair = stage_on_shaft(model, GearPair("stage2", "gear2_joint", "", GROUND, z1=18, z2=45, module=M,
                                                    pressure_angle=ALPHA, face_width=0.02))
    for command in commands:
        command.do(model)
    AddItem(pair).do(model)
    return pair


def _world(body):
    mesh = source_mesh(body.visual)
    mesh.apply_transform(pose_matrix(body.position, body.orientation))
    return mesh


def test_a_stage_on_a_shaft_welds_its_pinion_beyond_the_shaft_and_puts_its_wheel_in_mesh_away_from_stage_1():
    """Gear 2's faces reach 10 mm up its axis: gear 3's mid-face goes 10 + 5 (a quarter of its 20 mm face) + 10 mm
    = 25 mm up, welded to gear 2 there. Gear 4 turns on a joint of its own, m (18 + 45) / 2 = 63 mm from the
    shaft's axis on the side away from gear 1 (which is 60 mm the other way), its teeth in gear 3's spaces."""
    model = _stage_one()
    pair = _stage_two(model)
    shaft = np.asarray(model.bodies["gear2"].position)
    assert (pair.joint1, pair.joint2, pair.gear1, pair.gear2) == ("gear2_joint", "gear4_joint", "gear3", "")
    assert np.asarray(model.bodies["gear3"].position) == pytest.approx(shaft + (0, 0, 0.025), abs=1e-15)
    weld = model.joints["gear3_weld"]
    assert isinstance(weld, FixedJoint) and (weld.body_i, weld.body_j) == ("gear2", "gear3")
    to_gear1 = (np.asarray(model.bodies["gear1"].position) - shaft) / 0.06
    assert np.linalg.norm(to_gear1) == pytest.approx(1.0)
    gear4 = model.bodies["gear4"]
    assert np.asarray(gear4.position) == pytest.approx(shaft - 0.063 * to_gear1 + (0, 0, 0.025), abs=1e-15)
    assert model.joints["gear4_joint"].position == pytest.approx(gear4.position, abs=1e-15)
    g3, g4 = _world(model.bodies["gear3"]), _world(gear4)
    with np.errstate(invalid="ignore"):  # an empty intersection: trimesh divides by its zero volume
        overlap = trimesh.boolean.intersection([g3, g4], engine="manifold").volume
    assert overlap < 1e-6 * g3.volume / 18
    assert not [f for f in validate(model) if f.severity == "error"]


def test_a_reducer_built_stage_by_stage_starts_at_consistent_speeds_and_carries_the_tooth_forces_worked_by_hand():
    """Gear 3 starts at gear 2's -50 rad/s, gear 4 at 18 / 45 of it the other way: 20 rad/s, so the run projects
    nothing. With 100 rad/s held at the input and 10 N m against the output, gear 4 takes Ft = 10 / 0.045 N and
    stage 1 Ft = (10 / 2.5) / 0.04 = 100 N."""
    model = _stage_one()
    _stage_two(model)
    assert model.bodies["gear3"].angular_velocity == pytest.approx((0.0, 0.0, -50.0))
    assert model.bodies["gear4"].angular_velocity == pytest.approx((0.0, 0.0, 20.0))
    for item in (SpeedMotor("motor", "gear1_joint", TimeLaw(value=100.0)),
                 builders.constant_torque("load", "gear4_joint", -10.0)):
        AddItem(item).do(model)
    run = prepare(model, t_end=0.01, step=1e-3, output_step=1e-3, integrator="rk4", compiled="off")
    assert not [note for note in run.results.findings if "projected" in note]
    res = run.run()
    last = {c.name: float(res.channel(c.name)[-1]) for c in res.channels}
    assert last["gear4_joint.speed"] == pytest.approx(20.0, rel=1e-9)
    assert abs(last["stage2.Ft"]) == pytest.approx(10 / 0.045, rel=1e-9)
    assert abs(last["stage1.Ft"]) == pytest.approx(100.0, rel=1e-9)


def test_a_stage_on_no_shaft_or_of_no_face_is_refused_naming_the_field_and_the_model_is_untouched():
    model = _stage_one()
    before = model.copy()
    with pytest.raises(ModelError, match="face_width"):
        stage_on_shaft(model, GearPair("b", "gear2_joint", "", GROUND, z1=18, z2=30, module=M))
    with pytest.raises(ModelError, match="joint1"):
        stage_on_shaft(model, GearPair("b", "nowhere", "", GROUND, z1=18, z2=45, module=M))
    commands, _ = stage_on_shaft(model, GearPair("s", "gear2_joint", "", GROUND, z1=18, z2=45, module=M, face_width=0.02))
    assert commands and model.names() == before.names()


def test_a_stage_on_a_bevel_pinions_shaft_goes_behind_the_pinion_away_from_the_wheel():
    """The bevel example's pinion turns about +x with its heel at x = -60 mm and its cone towards the apex at the
    origin, where the wheel is. A stage on its shaft goes the other way, behind the heel, and its wheel turns on
    the side away from the bevel wheel (+z: that wheel lies at -z); nothing overlaps, and the stage's teeth share
    no volume."""
    model = load(EXAMPLES / "bevel_pair.gdyn")
    commands, pair = stage_on_shaft(model, GearPair("s", "pinion_joint", "", GROUND, z1=18, z2=36, module=M,
                                                    face_width=0.015))
    for command in commands:
        command.do(model)
    AddItem(pair).do(model)
    pinion, gear, wheel = (model.bodies[n] for n in ("pinion", pair.gear1, model.joints[pair.joint2].body_j))
    assert gear.position[0] < pinion.position[0] - 0.015 / 2 and gear.position[1:] == pytest.approx((0.0, 0.0))
    assert wheel.position[2] == pytest.approx(0.054, abs=1e-12)  # m (18 + 36) / 2 above the pinion's axis
    assert overlapping_bodies(model) == []
    g1, g2 = _world(gear), _world(wheel)
    with np.errstate(invalid="ignore"):
        assert trimesh.boolean.intersection([g1, g2], engine="manifold").volume < 1e-6 * g1.volume / 18


def test_a_stage_on_a_turning_planet_starts_with_the_carriers_motion_and_the_run_projects_nothing():
    """A stepped planet: the planetary turning at the carrier's 10 rad/s (ring held: sun 40 rad/s, planets
    10 - 24 / 24 (40 - 10) = -20 rad/s, their centres on the 48 mm arm moving at 10 x 48 mm/s), a 12/24 stage on
    planet 1's shaft. Its wheel turns on a joint from the carrier: it starts at the carrier's 10 rad/s plus
    -(12 / 24)(-20 - 10) = 15 relative to it, its centre moving as the carrier's point there; the run's start
    projects nothing (every speed already consistent)."""
    model = load(EXAMPLES / "planetary.gdyn")
    spins = {"sun": 40.0, "carrier": 10.0, "ring": 0.0, "planet1": -20.0, "planet2": -20.0, "planet3": -20.0}
    for name, w in spins.items():
        body = model.bodies[name]
        moving = np.cross((0.0, 0.0, 10.0), body.position) if name.startswith("planet") else np.zeros(3)
        model.bodies[name] = dataclasses.replace(body, angular_velocity=(0.0, 0.0, w), velocity=tuple(moving))
    commands, pair = stage_on_shaft(model, GearPair("step", "planet1_joint", "", "carrier", z1=12, z2=24,
                                                    module=M, face_width=0.015))
    for command in commands:
        command.do(model)
    AddItem(pair).do(model)
    wheel = model.bodies[model.joints[pair.joint2].body_j]
    assert model.joints[pair.joint2].body_i == "carrier"
    assert wheel.angular_velocity == pytest.approx((0.0, 0.0, 10.0 + 15.0))
    assert wheel.velocity == pytest.approx(tuple(np.cross((0.0, 0.0, 10.0), wheel.position)), abs=1e-12)
    run = prepare(model, t_end=1e-3, step=1e-4, output_step=1e-3, integrator="rk4", compiled="off")
    assert not [note for note in run.results.findings if "projected" in note], run.results.findings


def test_a_bevel_stage_on_a_spur_shaft_turns_a_right_angle_with_the_apexes_met_and_the_speeds_rolling():
    """A right-angle stage, 18/27 straight bevel (m 2 mm, b 12 mm), on the intermediate shaft of stage 1 (which
    turns at -50 rad/s about z): the pinion welded past the shaft's end with its apex ahead, the wheel on a joint
    across the shaft with its apex on the pinion's (each from its heel, axis and r / tan(gamma) here). The wheel
    starts at 50 x 18 / 27 = 33.3 rad/s about its own axis; the run's start projects nothing, so the speeds roll
    at the pitch point as the pair's row has them. Nothing overlaps; the teeth share no volume."""
    model = _stage_one()
    commands, pair = stage_on_shaft(model, GearPair("s", "gear2_joint", "", GROUND, kind="bevel", z1=18, z2=27,
                                                    module=M, pitch_angle=math.atan2(18, 27), face_width=0.012))
    for command in commands:
        command.do(model)
    AddItem(pair).do(model)
    pinion, wheel = model.bodies[pair.gear1], model.bodies[model.joints[pair.joint2].body_j]
    axes = [quat_matrices(b.orientation)[:, 2] for b in (pinion, wheel)]
    assert abs(axes[0] @ axes[1]) < 1e-12 and abs(axes[0] @ (0.0, 0.0, 1.0)) == pytest.approx(1.0)
    apexes = [np.asarray(b.position) + a * (M * z / 2) / math.tan(g)
              for b, a, z, g in ((pinion, axes[0], 18, math.atan2(18, 27)),
                                 (wheel, axes[1], 27, math.atan2(27, 18)))]
    assert apexes[0] == pytest.approx(apexes[1], abs=1e-12)
    assert pinion.position[2] > 0.010 and model.joints[pair.joint2].body_i == GROUND
    assert abs(np.dot(wheel.angular_velocity, axes[1])) == pytest.approx(50 * 18 / 27, rel=1e-12)
    assert overlapping_bodies(model) == [] and not [f for f in validate(model) if f.severity == "error"]
    g1, g2 = _world(pinion), _world(wheel)
    with np.errstate(invalid="ignore"):
        assert trimesh.boolean.intersection([g1, g2], engine="manifold").volume < 1e-6 * g1.volume / 18
    run = prepare(model, t_end=1e-3, step=1e-4, output_step=1e-3, integrator="rk4", compiled="off")
    assert not [note for note in run.results.findings if "projected" in note], run.results.findings
