"""Each modelling rule of the gear documentation's User Memo gives a finding that names the item."""

import dataclasses
import math
import re

import numpy as np
import pytest
import trimesh
from hypothesis import HealthCheck, given, settings

from core.analysis.train_ratio import balance
from core.commands import AddItem, replace_fields
from core.dynamics.checks import check, model_freedom
from core.dynamics.simulate import simulate
from core.errors import ModelError
from core.gearing.fixes import fix_command
from core.gearing.pair_gears import edit_pair
from core.geometry.gear_mesh import gear_mesh
from core.geometry.macro import GearSpec
from core.geometry.tooth_checks import pair_tooth_warnings
from core.geometry.mesh_import import import_mesh
from core.model import builders
from core.model.entities import (GROUND, BearingSpringDamper, FixedJoint, MeshFileSource, PrimitiveSource,
                                 RevoluteJoint, RigidBody, TimeLaw, Torque)
from core.model.files import load
from core.model.model import Model
from core.validation import validate
from tests.conftest import EXAMPLES, two_stage_reducer
from tests.core.strategies import models


def _model(name):
    return load(EXAMPLES / f"{name}.gdyn")


def _errors(model):
    return [f for f in validate(model) if f.severity == "error"]


def _edit(model, item, **changes):
    replace_fields(model, item, **changes).do(model)
    return model


@pytest.mark.parametrize("name", ["helical_pair", "inner_pair", "bevel_pair", "planetary"])
def test_examples_have_no_errors_or_warnings(name):
    findings = validate(_model(name))
    assert [f for f in findings if f.severity != "info"] == []


def test_planetary_reports_its_redundant_ring_meshes():
    (info,) = [f for f in validate(_model("planetary")) if f.severity == "info"]
    assert "2 loops: 2 constraints are redundant" in info.message  # three planets: N - 1 = 2 redundant ring meshes


def test_helical_axes_off_the_centre_distance():
    m = _edit(_model("helical_pair"), "gear2_joint", position=(0.061, 0.0, 0.0))
    (f,) = _errors(m)
    assert f.item == "pair" and "61 mm apart" in f.message and "60 mm" in f.message and "gear2_joint" in f.message


def test_helical_axes_not_parallel():
    m = _edit(_model("helical_pair"), "gear2_joint", axis=(0.0, math.sin(0.01), math.cos(0.01)))
    (f,) = [e for e in _errors(m) if "parallel" in e.message]
    assert f.item == "pair" and "0.573 deg" in f.message


def test_inner_pair_with_the_ring_on_joint_1():
    m = _model("inner_pair")
    _edit(m, "pair", joint1="ring_joint", joint2="pinion_joint", z1=60, z2=20)
    messages = " ".join(e.message for e in _errors(m))
    assert "pinion on joint 1" in messages and "inner gear belongs on joint 2" in messages


def test_inner_pair_centre_distance_uses_the_difference_of_teeth():
    m = _edit(_model("inner_pair"), "pinion_joint", position=(0.080, 0.0, 0.0))
    (f,) = _errors(m)
    assert "m_t (z2 - z1) / 2 is 40 mm" in f.message


def test_carrier_must_be_body_i():
    m = _model("planetary")
    j = m.joints["planet1_joint"]
    _edit(m, "planet1_joint", body_i=j.body_j, body_j=j.body_i)
    assert any("as body_j" in e.message and "swap" in e.message and e.item == "sun_planet1" for e in _errors(m))


def test_gear_centre_moving_relative_to_the_carrier():
    m = _model("planetary")
    _edit(m, "sun_planet1", carrier=GROUND)  # the planet's centre moves relative to the ground
    assert any("moves relative to the carrier 'ground'" in e.message for e in _errors(m))


def test_bevel_axes_must_intersect_at_90_degrees():
    m = _edit(_model("bevel_pair"), "gear_joint", position=(0.0, 0.005, -0.03))
    assert any("intersect" in e.message and "5 mm" in e.message for e in _errors(m))
    m = _edit(_model("bevel_pair"), "gear_joint", axis=(math.sin(0.1), 0.0, math.cos(0.1)))
    assert any("at 90 deg" in e.message for e in _errors(m))


def test_bevel_gear_2_centred_on_gear_1s_axis_is_an_error_that_says_to_move_it():
    """Gear 2's joint on gear 1's axis (where both Bevel Gear dialogs put a new gear) leaves the pair without a
    pitch point; the rule names it and points to the fix, instead of the assembly's 'Jacobian is not finite'."""
    m = _edit(_model("bevel_pair"), "gear_joint", position=(0.0, 0.0, 0.0), axis=(0.0, 1.0, 0.0))
    found = [e for e in _errors(m) if e.item == "pair" and "lies on gear 1's axis" in e.message]
    assert found and "'gear_joint'" in found[0].message and found[0].fix == "place_gear2"
    messages = [f.message for f in check(m)]
    assert not any("not finite" in text for text in messages)


def test_bevel_pitch_angle_must_match_the_teeth():
    m = _edit(_model("bevel_pair"), "pair", pitch_angle=math.radians(30))
    assert any("atan(z1 / z2) = 26.5651 deg" in e.message for e in _errors(m))


def test_a_bevel_face_width_over_a_third_of_the_cone_distance_or_ten_modules_is_a_warning():
    """The straight bevel rule (Mott, Machine Elements, sec. 8-8; Gleason): b at most R_e / 3 and 10 m. The
    example's m 3 mm, z 20/40 give R_e = 1.5 mm sqrt(20^2 + 40^2) = 67.082 mm: its 20 mm pass, 25 mm is over
    R_e / 3 = 22.361 mm; with m 2 mm (R_e 44.721 mm) 20 mm is over 14.907 mm. The gear made with the face is
    named; the pair's own entries say it once for both gears."""
    def wide(m, body, **spec):
        visual = m.bodies[body].visual
        return _edit(m, body, visual=dataclasses.replace(visual, spec=dataclasses.replace(visual.spec, **spec)))

    def found(m):
        return [f for f in validate(m) if "face width" in f.message]

    assert found(_model("bevel_pair")) == []
    over = found(wide(_model("bevel_pair"), "pinion", face_width=0.025))
    assert [(f.severity, f.item) for f in over] == [("warning", "pinion")]
    assert "25 mm" in over[0].message and "22.361 mm" in over[0].message and "67.082 mm" in over[0].message
    small = found(wide(_model("bevel_pair"), "gear", module=0.002))
    assert [f.item for f in small] == ["gear"] and "over 14.907 mm" in small[0].message
    assert found(wide(_model("helical_pair"), "gear1", face_width=0.2)) == []  # a bevel rule only
    pair = dataclasses.replace(_model("bevel_pair").gear_pairs["pair"], face_width=0.025)
    said = [text for text in pair_tooth_warnings(pair.pair_spec()) if "face width" in text]
    assert len(said) == 1 and said[0].startswith("gears 1 and 2: face width 25 mm is over 22.361 mm")


def test_joint_at_the_centre_of_mass_instead_of_the_gear_axis():
    m = _edit(_model("helical_pair"), "gear1_joint", position=(0.0, 0.0005, 0.0))
    warnings = [f for f in validate(m) if f.severity == "warning" and f.item == "gear1_joint"]
    assert warnings and "not the axis of 'gear1'" in warnings[0].message


def test_pair_teeth_that_disagree_with_the_generated_gear():
    m = _edit(_model("helical_pair"), "pair", z2=41)
    found = validate(m)
    assert any(f.severity == "warning" and "z2 = 41" in f.message for f in found)


def test_a_pair_wider_than_its_generated_gear_is_a_warning_whose_fix_narrows_the_pair():
    """The teeth touch over the narrower gear's face at most, and the pair's face width is what its mesh
    stiffness, its overlap ratio and a bevel pair's mean cone radius take. The bevel example's pair edited to
    25 mm with both gears 20 mm wide said nothing; now the pair is named, and the fix sets its face to 20 mm. A
    pinion wider than its pair (the common practice) is not told."""
    m = _edit(_model("bevel_pair"), "pair", face_width=0.025)
    found = [f for f in validate(m) if f.item == "pair" and "wider than" in f.message]
    assert [f.severity for f in found] == ["warning"] and "'pinion'" in found[0].message
    assert "25 mm" in found[0].message and "20 mm" in found[0].message and found[0].fix == "face_from_gears"
    fix_command(m, found[0]).do(m)
    assert m.gear_pairs["pair"].face_width == 0.020
    assert not [f for f in validate(m) if "wider than" in f.message]
    narrow = _edit(_model("helical_pair"), "pair", face_width=0.015)  # both gears 20 mm: the pair narrower
    assert not [f for f in validate(narrow) if "wider than" in f.message]


def test_helix_hand_of_gear_2_must_be_opposite():
    m = _model("helical_pair")
    spec = dataclasses.replace(m.bodies["gear2"].visual.spec, helix_angle=math.radians(15))
    _edit(m, "gear2", visual=dataclasses.replace(m.bodies["gear2"].visual, spec=spec))
    assert any("-15 deg" in f.message for f in validate(m))


def test_unconnected_and_redundant_bodies():
    m = _model("helical_pair")
    AddItem(RigidBody("loose", mass=1.0)).do(m)
    AddItem(RigidBody("island", mass=1.0)).do(m)
    AddItem(RigidBody("island2", mass=1.0)).do(m)
    AddItem(FixedJoint("weld", "island", "island2")).do(m)
    AddItem(RevoluteJoint("again", GROUND, "gear1", (0, 0, 0), (0, 0, 1))).do(m)
    found = {(f.item, f.severity): f.message for f in validate(m)}
    assert "not connected to anything" in found[("loose", "warning")]
    assert "not connected to the ground" in found[("island", "warning")]
    assert "redundant" in found[("again", "warning")]


def test_same_gear_on_both_joints_and_duplicate_pairs():
    m = _model("helical_pair")
    AddItem(RevoluteJoint("gear1_joint_b", GROUND, "gear1", (0, 0, 0), (0, 0, 1))).do(m)
    _edit(m, "pair", joint2="gear1_joint_b")
    assert any("same body 'gear1'" in e.message for e in _errors(m))


def test_bevel_gears_must_share_their_pitch_apex():
    m = _model("bevel_pair")
    replace_fields(m, "gear", position=(0.0, 0.0, -0.05)).do(m)
    replace_fields(m, "gear_joint", position=(0.0, 0.0, -0.05)).do(m)
    found = [f for f in validate(m) if "apexes" in f.message]
    assert found and "20 mm apart" in found[0].message and found[0].item == "pair"


@pytest.mark.parametrize("table, field, message", [
    (((0.0, 0.5, 0.5, 0.0, 0.0), (2.0, 1.2, 0.9, 0.0, 0.0)), "loss_table[1][1]",
     "row 2, eta_mf1: an efficiency must be above 0 and at most 1, got 1.2"),
    (((0.0, 0.5, 0.0, 0.0, 0.0),), "loss_table[0][2]", "row 1, eta_mf2: an efficiency must be above 0"),
    (((0.0, 0.9, 0.9, 0.0, -0.5),), "loss_table[0][4]", "row 1, tau_bf2 [N m]: a bearing friction torque must be at "
                                                         "least 0 N m, got -0.5"),
    (((5.0, 0.9, 0.9, 0.0, 0.0), (1.0, 0.9, 0.9, 0.0, 0.0)), "loss_table[1][0]",
     "row 2, |w_a| [rad/s]: speeds must be at least 0 and above the row before (5 rad/s)"),
    (((0.0, 0.9, 0.9, 0.0),), "loss_table[0]", "row 1 has 4 values; a row holds 5"),
])
def test_bad_loss_tables_name_the_row_and_column(table, field, message):
    model = _model("helical_pair")
    with pytest.raises(ModelError, match=re.escape(field) + ".*" + re.escape(message)):
        replace_fields(model, "pair", loss_table=table).do(model)
    assert model.gear_pairs["pair"].loss_table == ()  # the model stays as it was


@pytest.mark.parametrize("up", ["z", "y"])
def test_an_imported_gear_is_offered_a_revolute_joint_about_its_axis_of_symmetry_and_an_imported_box_no_fix(
        tmp_path, up):
    """A gear exported to STL (geardyn gear --export) and imported stands alone like a generated one, but its
    warning offered no fix: an imported part has no axis by its making. Its inertia gives one: a gear's teeth
    (any n-fold symmetry, n >= 3) make two principal moments equal, and the third one's axis is its axis of
    symmetry. The fix puts it on a revolute joint through its centre of mass about that axis: (0, 0, 1) for the
    gear written with its axis up the file's z, (0, 1, 0) for the same gear turned to lie along y in the file,
    at 30 mm from the origin. A 40 x 30 x 20 mm box beside it (three moments apart) has no axis: no fix."""
    mesh = gear_mesh(GearSpec("helical", 0.002, 30, math.radians(20), 0.02, bore_diameter=0.01))
    if up == "y":
        mesh.apply_transform(trimesh.transformations.rotation_matrix(-math.pi / 2, (1, 0, 0)))
    mesh.apply_scale(1e3)  # written in mm
    mesh.apply_translation((30.0, 0.0, 0.0))
    box = trimesh.creation.box(extents=(40.0, 30.0, 20.0))
    box.apply_translation((200.0, 0.0, 0.0))  # clear of the gear
    box.export(tmp_path / "box.stl")
    mesh.export(tmp_path / "gear.stl")
    model = Model()
    for name in ("gear", "box"):
        mp = import_mesh(tmp_path / f"{name}.stl", unit="mm").mass_properties
        AddItem(RigidBody(name, mass=mp.mass, com=mp.com, inertia=mp.inertia,
                          visual=MeshFileSource(str(tmp_path / f"{name}.stl"), "mm", 7850.0))).do(model)
    free = {f.item: f for f in validate(model) if "fly freely" in f.message}
    assert free["gear"].fix == "own_axis_joint" and free["box"].fix == ""
    fix_command(model, free["gear"]).do(model)
    joint = model.joints["gear_joint"]
    assert joint.position == pytest.approx((0.03, 0.0, 0.0), abs=1e-9)
    assert joint.axis == pytest.approx((0.0, 0.0, 1.0) if up == "z" else (0.0, 1.0, 0.0), abs=1e-9)
    assert not [f for f in validate(model) if f.item == "gear"]


def test_a_loss_table_given_to_a_pair_with_a_constant_efficiency_takes_its_place_in_one_undoable_edit():
    """A pair with the constant shortcut (efficiency 0.9, bearing friction 0.2 N m) given a loss table: the table
    replaces the shortcut (the Properties dock hides those two fields while a table is set), where the edit was
    refused before ('give either a loss table or a constant efficiency ..., not both'). Both in one edit are
    still refused, and the model stays as it was."""
    model = _model("helical_pair")
    replace_fields(model, "pair", efficiency=0.9, bearing_friction=0.2).do(model)
    before = model.gear_pairs["pair"]
    table = ((0.0, 0.95, 0.9, 0.1, 0.3),)
    edit = edit_pair(model, "pair", loss_table=table)
    edit.do(model)
    pair = model.gear_pairs["pair"]
    assert (pair.loss_table, pair.efficiency, pair.bearing_friction) == (table, 1.0, 0.0)
    assert pair.loss_rows() == table  # the solver's losses are the table's
    edit.undo(model)
    assert model.gear_pairs["pair"] == before
    with pytest.raises(ModelError, match=r"efficiency: give either a loss table or a constant efficiency"):
        edit_pair(model, "pair", loss_table=table, efficiency=0.8).do(model)
    assert model.gear_pairs["pair"] == before


def test_a_model_that_nothing_moves_is_warned_and_one_load_or_start_speed_ends_the_warning():
    model = load(EXAMPLES / "helical_pair.gdyn")
    for name in ("gear1", "gear2"):
        replace_fields(model, name, angular_velocity=(0.0, 0.0, 0.0)).do(model)
    warned = [f for f in validate(model) if "nothing loads or drives the model" in f.message]
    assert len(warned) == 1 and warned[0].severity == "warning" and warned[0].item == "forces"
    zero = TimeLaw(kind="sine", value=0.0, amplitude=0.0, frequency=5.0)
    AddItem(Torque("idle", "gear1_joint", law=zero)).do(model)  # a torque that is zero at every time moves nothing
    assert any("nothing loads" in f.message for f in validate(model))
    replace_fields(model, "idle", law=TimeLaw(kind="step", value=0.0, final=1.0, t_start=0.1)).do(model)
    assert not any("nothing loads" in f.message for f in validate(model))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(models())
def test_errors_only_finds_exactly_the_errors_of_all_checks(model):
    """A run checks with errors_only (skipping the checks that find only warnings): random models with
    misplaced joints, wrong carriers, bad pairs and meshes give the same errors as every check together."""
    full = validate(model)
    assert validate(model, errors_only=True) == [f for f in full if f.severity == "error"]


def test_errors_only_still_refuses_an_example_made_wrong():
    """The subset is not empty by accident: an example with planet 1's joint moved 1 mm is refused by both of
    the planet's pairs."""
    model = load(EXAMPLES / "planetary.gdyn")
    joint = model.joints[model.gear_pairs["sun_planet1"].joint2]
    model.joints[joint.name] = dataclasses.replace(joint, position=(joint.position[0] + 1e-3, *joint.position[1:]))
    errors = validate(model, errors_only=True)
    assert sorted(f.item for f in errors) == ["planet1_ring", "sun_planet1"]
    assert all("apart" in f.message for f in errors)


def test_a_bearing_beside_a_joint_on_the_same_bodies_is_warned_of_and_indeed_carries_nothing():
    """A user selects gear 2 and adds a Bearing Spring-Damper to read its bearing loads; gear 2 keeps its revolute
    joint to the ground, which holds it rigidly: the run reads zero on the bearing while the joint carries the
    mesh's kN. The model check says so; the run shows that it is so."""
    m = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    assert validate(m) == []
    AddItem(BearingSpringDamper("b", GROUND, "gear2", m.bodies["gear2"].position)).do(m)
    found = [f for f in validate(m) if f.item == "b"]
    assert [f.severity for f in found] == ["warning"] and "'gear2_joint'" in found[0].message
    # removing the joint would remove the pair and the load on it: the advice (and its fix) keeps it, on_bearing
    assert found[0].fix == "carry_on_bearing" and "mark the joint on_bearing" in found[0].message
    res = simulate(m, t_end=0.01)
    assert max(abs(res[f"b.F{c}"]).max() for c in "xyz") == 0.0
    assert max(abs(res[f"gear2_joint.F{c}"]).max() for c in "xy") > 100.0  # N: the joint takes the mesh force
    # the bearing in place of the joint: no warning (it carries the shaft)
    m2 = load(EXAMPLES / "compliant_planetary.gdyn")
    assert not [f for f in validate(m2) if "runs beside joint" in f.message]


def test_a_bearing_beside_a_flywheels_joint_carries_the_flywheel_after_the_fix():
    """A flywheel on a joint of its own with a bearing beside it: the finding's fix marks the joint on_bearing
    (the wheel has no gear pair to make compliant), and the bearing then carries it (its weight, 1 g below)."""
    m = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    wheel = builders.body_from_source("wheel", PrimitiveSource(radius=0.05, length=0.02), position=(0.0, 0.0, -0.1))
    AddItem(wheel).do(m)
    AddItem(RevoluteJoint("wheel_joint", GROUND, "wheel", (0.0, 0.0, -0.1))).do(m)
    AddItem(BearingSpringDamper("wheel_bearing", GROUND, "wheel", (0.0, 0.0, -0.1), radial_damping=1e4)).do(m)
    found = [f for f in validate(m) if f.item == "wheel_bearing"]
    assert len(found) == 1 and found[0].fix == "carry_on_bearing"
    fix_command(m, found[0]).do(m)
    assert m.joints["wheel_joint"].on_bearing and not [f for f in validate(m) if f.severity != "info"]
    m.settings = dataclasses.replace(m.settings, gravity=(9.81, 0.0, 0.0))
    res = simulate(m, t_end=0.05)
    assert res.status == "finished", res.message
    weight = m.bodies["wheel"].mass * 9.81
    assert res["wheel_bearing.Fx"][-1] == pytest.approx(-weight, rel=1e-6)  # N, on the wheel (damped to rest)


def test_a_reference_to_the_wrong_kind_of_item_names_its_kind_in_words():
    """A torque on a gear instead of its joint: "'gear1' is a RigidBody" (the class name) reads "'gear1' is a Rigid
    Body", the kind as the tree and the tools name it."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    problems = dict(model.item_problems(Torque("t", "gear1", TimeLaw(kind="constant", value=1.0))))
    assert problems["joint"] == "must name a revolute joint; 'gear1' is a Rigid Body"


def test_a_shaft_held_by_two_joints_is_a_warning_and_one_held_once_has_determinate_bearing_loads():
    """A compound shaft whose second gear has a revolute joint of its own besides the weld closes a loop of
    joints: a warning naming the weld and the two joints. Held once (the welded gear named in its pair's gear1),
    no warning, and the bearing loads are determinate: the joint and Cartesian formulations give the same."""
    looped = two_stage_reducer(own_joint=True)
    found = [f for f in validate(looped) if f.item == "shaft"]
    assert len(found) == 1 and found[0].severity == "warning" and found[0].fix == "hold_once"
    assert "closes a loop of joints with 'g2_j', 'g3_j'" in found[0].message
    held_once = two_stage_reducer(own_joint=False)
    assert not [f for f in validate(held_once) if "loop of joints" in f.message]
    held_once.forces["drive"] = builders.constant_torque("drive", "g1_j", 2.0)
    held_once.forces["load"] = builders.constant_torque("load", "g4_j", -10.0)
    loads = {}
    for formulation in ("joint", "cartesian"):
        res = simulate(held_once, t_end=1e-3, step=1e-4, output_step=1e-3, integrator="rk4", formulation=formulation)
        loads[formulation] = np.array([res.channel(f"g2_j.{c}")[-1] for c in ("Fx", "Fy", "Fz", "Tx", "Ty")])
    assert np.abs(loads["joint"]).max() > 100.0  # the second stage's tooth force, 222 N at 10 N m
    assert np.allclose(loads["joint"], loads["cartesian"], rtol=1e-6, atol=1e-6), loads


def test_the_fix_for_a_shaft_held_twice_makes_the_model_of_a_shaft_held_once():
    """'Hold the shaft by one joint': g3's own joint goes, pair p2 turns on g2's joint with its teeth on g3, a
    torque on g3's joint acts through g2's; the result runs as the model built held once from the start (the
    speeds of both stages), and undo brings the loop back."""
    looped = two_stage_reducer(own_joint=True)
    looped.forces["drive"] = builders.constant_torque("drive", "g3_j", 2.0)  # on the welded gear's joint
    looped.forces["load"] = builders.constant_torque("load", "g4_j", -3.0)
    finding = next(f for f in validate(looped) if f.fix)
    command = fix_command(looped, finding)
    command.do(looped)
    assert set(looped.joints) == {"g1_j", "g2_j", "g4_j", "shaft"}
    p2 = looped.gear_pairs["p2"]
    assert (p2.joint1, p2.gear1, looped.forces["drive"].joint) == ("g2_j", "g3", "g2_j")
    assert not [f for f in validate(looped) if "loop of joints" in f.message]
    built = two_stage_reducer(own_joint=False)
    built.forces["drive"] = builders.constant_torque("drive", "g2_j", 2.0)
    built.forces["load"] = builders.constant_torque("load", "g4_j", -3.0)
    runs = [simulate(m, t_end=0.01, step=1e-4, output_step=1e-3, integrator="rk4") for m in (looped, built)]
    for channel in ("g1_j.speed", "g2_j.speed", "g4_j.speed", "p2.Ft"):
        assert runs[0].channel(channel) == pytest.approx(runs[1].channel(channel), rel=1e-9, abs=1e-12), channel
    assert abs(runs[0].channel("g4_j.speed")[-1]) > 0.1  # it moved
    command.undo(looped)
    assert "g3_j" in looped.joints and looped.gear_pairs["p2"].joint1 == "g3_j"


def test_a_free_gear_is_offered_a_revolute_joint_about_its_own_axis_and_a_free_box_no_fix():
    """A gear just generated (Gears > Helical Gear from File > New) stands alone: 'will fly freely'. The warning
    offers the fix that puts it on a revolute joint to the ground about its own axis: for a gear at (100, 0, 20)
    mm turned 90 deg about x, the joint's point is the gear's origin and its axis the gear's z axis, (0, -1, 0),
    by hand; the warning is gone, and one undo takes the joint away. A box has no axis of its own: no fix."""
    model = Model()
    spec = GearSpec("helical", 0.002, 20, math.radians(20), 0.02, bore_diameter=0.01)
    turned = (math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0)
    model.bodies["gear1"] = dataclasses.replace(builders.gear_body("gear1", spec, position=(0.1, 0.0, 0.02)),
                                                orientation=turned)
    model.bodies["block"] = RigidBody("block", 1.0, visual=PrimitiveSource("box"))
    free = {f.item: f for f in validate(model) if "fly freely" in f.message}
    assert free["gear1"].fix == "own_axis_joint" and free["block"].fix == ""
    fix = fix_command(model, free["gear1"])
    fix.do(model)
    joint = model.joints["gear1_joint"]
    assert (joint.body_i, joint.body_j, joint.position) == (GROUND, "gear1", (0.1, 0.0, 0.02))
    assert joint.axis == pytest.approx((0.0, -1.0, 0.0), abs=1e-15)
    assert not [f for f in validate(model) if f.item == "gear1"]
    fix.undo(model)
    assert not model.joints


@pytest.mark.parametrize("field", ["gear1", "carrier", "joint1"])
def test_a_reference_to_an_unknown_item_with_a_name_thousands_of_characters_long_is_cut_in_the_message(field):
    """The fuzz turned a pair's gear1 into the digits of 10**4000: the message repeated all of them."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    name = "1" + "0" * 4000
    pair = dataclasses.replace(model.gear_pairs["pair"], **{field: name})
    (path, message), = [(p, m) for p, m in model.item_problems(pair) if p == field]
    assert message.startswith("names an unknown ") and "'10000" in message and len(message) < 200, message


def test_an_item_whose_two_ends_name_one_very_long_body_says_so_in_a_readable_message():
    """The other side of the fuzz's find: 'must differ from body_i' repeated the name too."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    name = "b" * 4000
    joint = dataclasses.replace(model.joints["gear1_joint"], body_i=name, body_j=name)
    problems = model.item_problems(joint)
    assert any(message.startswith("must differ from body_i ('bbb") for _, message in problems), problems
    assert all(len(message) < 200 for _, message in problems), problems


@pytest.mark.filterwarnings("error")
def test_the_checks_of_a_pair_whose_gear_centres_coincide_refuse_it_without_a_warning_on_the_terminal():
    """The fuzz moved the lossy demo's output gear onto the input's centre: assembling it for the checks divided
    0 by 0 (the direction to the pitch point), and every check after an edit in the app printed a RuntimeWarning."""
    model = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    model.joints["output_joint"] = dataclasses.replace(model.joints["output_joint"],
                                                       position=model.joints["input_joint"].position)
    model.bodies["output"] = dataclasses.replace(model.bodies["output"], position=model.bodies["input"].position)
    assert any(f.severity == "error" and "0 mm apart" in f.message for f in check(model))
    assert "not defined at these poses" in str(model_freedom(model))
    assert balance(model) == ""


def test_an_unstable_rk4_step_offers_dop853_which_holds_ft_to_1e_6_in_fewer_evaluations_than_dopri5():
    """The model check's fix for an RK4 step the compliant meshes make unstable hands the run to an adaptive
    method at the model's tolerances. On the planetary a user makes by Gears > Planetary Gearset with compliant
    meshes (spur, 1 N m on the sun, the ring held), over 0.05 s: dop853, which the fix sets, holds the sun-planet
    Ft to 1e-6 of its largest against dop853 at rtol 1e-10, as dopri5 does, in fewer evaluations."""
    model = Model()
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.020, math.radians(20))
    items += builders.compliant_meshes(items)
    items += [builders.held_joint("ring_hold", "ring_joint"), builders.constant_torque("sun_torque", "sun_joint", 1.0)]
    for item in items:
        AddItem(item).do(model)
    (unstable,) = [f for f in check(model) if f.fix == "adaptive_steps"]
    assert unstable.message.endswith("or dop853, whose steps hold its tolerance rtol"), unstable.message
    fix_command(model, unstable).do(model)
    assert model.settings.integrator == "dop853" and (model.settings.rtol, model.settings.atol) == (1e-8, 1e-10)
    ref = simulate(model, t_end=0.05, rtol=1e-10, atol=1e-13).channel("sun_planet1.Ft")
    runs = {name: simulate(model, t_end=0.05, integrator=name) for name in ("dop853", "dopri5")}
    errors = {name: float(np.abs(res.channel("sun_planet1.Ft") - ref).max()) for name, res in runs.items()}
    print({name: (res.evaluations, errors[name]) for name, res in runs.items()})
    assert all(res.status == "finished" for res in runs.values())
    assert max(errors.values()) < 1e-6 * np.abs(ref).max()
    assert runs["dop853"].evaluations < 0.7 * runs["dopri5"].evaluations
