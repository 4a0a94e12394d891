"""Where a new load, spring or bearing starts from the selected item (core.model.builders.selection_defaults):
the references a user means, and an item the model accepts as it stands."""

import dataclasses
import math

import numpy as np
import pytest

from core.errors import ModelError
from core.model.builders import pair_bodies, selection_defaults
from core.commands import AddItem, RemoveItem
from core.gearing.placement import place_gear2
from core.model.entities import (GROUND, BearingSpringDamper, CompliantMesh, FixedJoint, GearPair, RevoluteJoint,
                                 RigidBody, SpeedMotor, SpringDamper, TimeLaw, Torque)
from core.model.files import load
from core.model.model import Model
from core.validation import validate
from tests.conftest import EXAMPLES, two_stage_reducer


@pytest.fixture
def pair():
    return load(EXAMPLES / "compliant_mesh_pair.gdyn")  # gear1, gear2 on gear1_joint, gear2_joint; pair; mesh


def _accepted(model, cls, **fields):
    item = cls(name="new", **fields)
    assert model.item_problems(item) == [], item
    return item


@pytest.mark.parametrize("selected, joint", [("gear2", "gear2_joint"), ("gear2_joint", "gear2_joint"),
                                             ("pair", "gear1_joint")])
def test_a_torque_starts_on_the_joint_of_the_selected_body_joint_or_pair(pair, selected, joint):
    start = selection_defaults(Torque, pair, selected)
    assert start == {"joint": joint}
    _accepted(pair, Torque, **start)


def test_without_a_selection_a_joint_reference_is_left_to_the_first_candidate(pair):
    assert selection_defaults(Torque, pair, "") == {} and selection_defaults(Torque, pair, "mesh") == {}


def test_a_bearing_starts_between_the_ground_and_the_selected_body_at_its_origin(pair):
    start = selection_defaults(BearingSpringDamper, pair, "gear2")
    assert start == {"body_j": "gear2", "position": pair.bodies["gear2"].position}
    bearing = _accepted(pair, BearingSpringDamper, body_i=GROUND, **start)
    assert bearing.body_i == GROUND and bearing.position != (0.0, 0.0, 0.0)  # gear 2 sits off the origin
    # the joint's body when a joint is selected; with nothing selected the first body, never ground to ground
    assert selection_defaults(BearingSpringDamper, pair, "gear2_joint")["body_j"] == "gear2"
    assert selection_defaults(BearingSpringDamper, pair, "")["body_j"] == "gear1"
    _accepted(pair, BearingSpringDamper, body_i=GROUND, **selection_defaults(BearingSpringDamper, pair, ""))


def test_a_mesh_starts_on_the_pair_of_the_selected_body_and_a_spring_on_the_selected_body(pair):
    assert selection_defaults(CompliantMesh, pair, "gear1") == {"pair": "pair"}
    start = selection_defaults(SpringDamper, pair, "gear2")
    assert start == {"body_j": "gear2"} and not {f.name for f in dataclasses.fields(SpringDamper)} >= {"position"}
    _accepted(pair, SpringDamper, body_i=GROUND, **start)


def test_a_joint_starts_on_the_first_body_no_joint_carries_when_nothing_is_selected(pair):
    AddItem(RigidBody("shaft", mass=1.0, position=(0.0, 0.3, 0.0))).do(pair)
    assert selection_defaults(RevoluteJoint, pair, "")["body_j"] == "shaft"
    assert selection_defaults(RevoluteJoint, pair, "gear2")["body_j"] == "gear2"  # a selection wins


def test_without_a_selection_a_mesh_starts_on_the_first_pair_that_has_none():
    model = load(EXAMPLES / "compliant_planetary.gdyn")  # six pairs, each with its compliant mesh
    meshes = [f for f in model.forces.values() if isinstance(f, CompliantMesh)]
    assert selection_defaults(CompliantMesh, model, "") == {}  # every pair has one: the first candidate
    RemoveItem(model, meshes[2].name).do(model)
    assert selection_defaults(CompliantMesh, model, "") == {"pair": meshes[2].pair}
    assert selection_defaults(CompliantMesh, model, "carrier") == {"pair": meshes[2].pair}  # no pair of its own
    assert selection_defaults(CompliantMesh, model, meshes[0].pair) == {"pair": meshes[0].pair}  # a selection wins


def test_a_fixed_joint_welds_the_selected_gear_onto_the_shaft_whose_axis_runs_through_it():
    model = two_stage_reducer(own_joint=False, second_pair=False)
    del model.joints["shaft"]  # g3, 25 mm along g2's axis, not welded yet
    assert selection_defaults(FixedJoint, model, "g3") == {"body_j": "g3", "body_i": "g2",
                                                         "position": model.bodies["g3"].position}
    _accepted(model, FixedJoint, **selection_defaults(FixedJoint, model, "g3"))
    assert "body_i" not in selection_defaults(FixedJoint, model, "g4")  # on an axis of its own: the ground
    model.joints.clear()  # before any joint: the gear whose axis runs through g3
    assert selection_defaults(FixedJoint, model, "g3")["body_i"] == "g2"


def test_without_a_selection_a_torque_or_motor_starts_on_a_joint_no_motor_drives(pair):
    """A torque or a second motor on the joint a speed motor already drives would only change that motor's torque:
    the dialog starts on the next joint, and a second torque on a joint no torque acts on yet."""
    AddItem(SpeedMotor("motor", "gear1_joint", TimeLaw(value=10.0))).do(pair)
    assert selection_defaults(Torque, pair, "") == {"joint": "gear2_joint"}
    assert selection_defaults(SpeedMotor, pair, "") == {"joint": "gear2_joint", "law": TimeLaw(value=-40.0)}
    AddItem(Torque("brake", "gear2_joint", TimeLaw(value=-1.0))).do(pair)
    assert selection_defaults(Torque, pair, "") == {"joint": "gear2_joint"}  # every joint taken: not the motor's
    assert selection_defaults(Torque, pair, "gear1") == {"joint": "gear1_joint"}  # a selection is followed


def test_with_a_pair_selected_a_torque_starts_on_its_joint_no_motor_drives(pair):
    """A pair whose gear 1 a speed motor drives: a torque on gear 1 would only change the motor's torque, so a
    torque (the load) starts on gear 2's joint; a selected joint or body is followed as it is."""
    assert selection_defaults(Torque, pair, "pair") == {"joint": "gear1_joint"}
    AddItem(SpeedMotor("motor", "gear1_joint", TimeLaw(value=100.0))).do(pair)
    assert selection_defaults(Torque, pair, "pair") == {"joint": "gear2_joint"}
    assert selection_defaults(Torque, pair, "gear1_joint") == {"joint": "gear1_joint"}
    AddItem(SpeedMotor("motor2", "gear2_joint", TimeLaw(value=-50.0))).do(pair)
    assert selection_defaults(Torque, pair, "pair") == {"joint": "gear1_joint"}  # both driven: gear 1's


def test_a_speed_motor_starts_at_its_joints_speed_at_the_start(pair):
    """The example's gear1 spins at +100 rad/s about +z on gear1_joint (axis +z, on the ground) and gear2 at -40:
    a motor that keeps these speeds leaves the start as the file gives it."""
    assert selection_defaults(SpeedMotor, pair, "") == {"law": TimeLaw(value=100.0)}  # the first joint
    assert selection_defaults(SpeedMotor, pair, "gear2") == {"joint": "gear2_joint", "law": TimeLaw(value=-40.0)}
    _accepted(pair, SpeedMotor, **selection_defaults(SpeedMotor, pair, "gear2"))


def test_a_joints_start_speed_is_body_js_spin_less_body_is_about_its_axis():
    """A planet on its carrier: the planet's spin less the carrier's, about the joint's axis, whichever way it
    points (the planetary example turns its planets at 0 from rest, so the speeds are set here)."""
    model = load(EXAMPLES / "planetary.gdyn")
    joint = next(j for j in model.joints.values() if j.body_j == "planet1")
    carrier, planet = model.bodies[joint.body_i], model.bodies["planet1"]
    model.bodies[carrier.name] = dataclasses.replace(carrier, angular_velocity=(0.0, 0.0, 3.0))
    model.bodies["planet1"] = dataclasses.replace(planet, angular_velocity=(0.0, 0.0, -5.0))
    assert joint.axis == (0.0, 0.0, 1.0) and model.start_speed(joint.name) == pytest.approx(-8.0, abs=1e-12)
    model.joints[joint.name] = dataclasses.replace(joint, axis=(0.0, 0.0, -2.0))  # reversed, not unit
    assert model.start_speed(joint.name) == pytest.approx(8.0, abs=1e-12)


@pytest.mark.parametrize("kind, helix, a", [
    # a = m_t (z2 +- z1) / 2 with m_t = 2 mm / cos(beta): worked by hand
    ("external", math.radians(15.0), 0.002 / math.cos(math.radians(15.0)) * (20 + 40) / 2),  # 62.117 mm
    ("internal", 0.0, 0.002 * (72 - 20) / 2),  # 52 mm
])
def test_a_parallel_pair_typed_before_its_gears_gets_gears_that_mesh_at_the_centre_distance(kind, helix, a):
    """pair_bodies, a joint on each gear and place_gear2: the model's checks find nothing wrong (the gears' kinds,
    teeth, modules, hands and axes agree with the pair; no solids overlap), and gear 2 stands at a."""
    z2 = 40 if kind == "external" else 72
    pair = GearPair("p", "j1", "j2", GROUND, kind=kind, z1=20, z2=z2, module=0.002 / math.cos(helix), helix_angle=helix,
                    face_width=0.02)
    model = Model("m")
    for body in pair_bodies(pair, ("g1", "g2")):
        AddItem(body).do(model)
    for k in (1, 2):
        AddItem(RevoluteJoint(f"j{k}", GROUND, f"g{k}", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))).do(model)
    for command in place_gear2(model, pair):
        command.do(model)
    AddItem(pair).do(model)
    AddItem(Torque("drive", "j1", TimeLaw(value=1.0))).do(model)
    assert [f for f in validate(model) if f.severity != "info"] == []
    specs = [model.bodies[g].visual.spec for g in ("g1", "g2")]
    assert (specs[0].helix_angle, specs[1].helix_angle) == (helix, helix if kind == "internal" else -helix)
    assert np.linalg.norm(model.bodies["g2"].position) == pytest.approx(a, rel=1e-12)


def test_a_bevel_pair_typed_before_its_gears_gets_two_cones_on_square_shafts():
    pair = GearPair("p", "j1", "j2", GROUND, kind="bevel", z1=20, z2=40, module=0.003, pitch_angle=math.atan2(20, 40),
                    face_width=0.015)
    g1, g2 = pair_bodies(pair, ("g1", "g2"))
    gammas = (g1.visual.spec.pitch_angle, g2.visual.spec.pitch_angle)
    assert gammas == pytest.approx((math.atan(0.5), math.pi / 2 - math.atan(0.5)))


@pytest.mark.parametrize("kind, z1", [("external", 3), ("external", 20), ("bevel", 6), ("bevel", 20)])
def test_gears_made_from_a_pair_get_a_bore_their_teeth_leave_room_for(kind, z1):
    """The Gear Pair dialog's gears took a bore of 0.4 d: a 3-tooth pinion (m 2 mm: root circle 1 mm) was refused
    with 'bore_diameter ... got 2.4 mm', a field the dialog does not show. A pinion of few teeth now gets 0.8 of
    the largest bore its root circle leaves; a gear of 20 teeth keeps 0.4 d (16 mm; the bevel's 0.4 of its outer
    pitch diameter, 24 mm at m 3 mm)."""
    m = 0.003 if kind == "bevel" else 0.002
    pair = GearPair("p", "j1", "j2", GROUND, kind=kind, z1=z1, z2=40, module=m, face_width=0.015,
                    pitch_angle=math.atan2(z1, 40))
    gear1, _ = pair_bodies(pair, ("g1", "g2"))
    spec = gear1.visual.spec
    assert spec.problems() == []
    expect = 0.4 * m * z1 if z1 == 20 else 0.8 * spec.largest_bore()
    assert spec.bore_diameter == pytest.approx(expect, rel=1e-12) and spec.bore_diameter < spec.largest_bore()


def test_a_pair_whose_gears_cannot_be_made_names_the_pairs_field_and_its_range():
    """A ring of 10 teeth (an inner gear needs 12): the error names z2, the field the pair dialog shows, not the
    ring's 'teeth'; a bevel face wider than half the cone distance names the face width, not a bore."""
    ring = GearPair("p", "j1", "j2", GROUND, kind="internal", z1=8, z2=10, module=0.002, face_width=0.02)
    with pytest.raises(ModelError) as exc:
        pair_bodies(ring, ("g1", "g2"))
    assert exc.value.problems == [("z2", "must be a whole number from 12 to 1000 for an inner gear, got 10")]
    bevel = GearPair("p", "j1", "j2", GROUND, kind="bevel", z1=20, z2=40, module=0.003, face_width=0.2,
                     pitch_angle=math.atan2(20, 40))
    with pytest.raises(ModelError) as exc:
        pair_bodies(bevel, ("g1", "g2"))
    assert exc.value.path == "face_width" and "half the cone distance at most" in exc.value.detail
