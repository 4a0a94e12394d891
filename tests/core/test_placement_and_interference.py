"""Gears placed in mesh (no overlap, the flanks touching at the pitch point), interference findings, and
mass-property plausibility with the unit that would fix an imported mesh."""

import dataclasses
import math

import numpy as np
import pytest
import trimesh

from core.commands import AddItem, Macro, replace_fields, set_gear_spec
from core.dynamics.run import prepare
from core.errors import ModelError
from core.gearing.fixes import fix_command
from core.gearing.mesh_phase import mesh_phase
from core.gearing.pair_gears import edit_pair, gear_values, pair_values_from_gear
from core.gearing.pitch_point import PairGeometryData, contact_frame
from core.gearing.placement import likely_joints, mesh_turn, place_gear2, teeth_bodies
from core.geometry.macro import GearSpec
from core.geometry.rotations import pose_matrix, quat_about, quat_matrices
from core.model import builders
from core.model.body_shapes import source_mesh
from core.model.entities import GROUND, FixedJoint, GearPair, MeshFileSource, PrimitiveSource, RevoluteJoint
from core.model.files import load
from core.model.interference import overlapping_bodies
from core.model.model import Model
from core.validation import validate
from tests.conftest import EXAMPLES, two_stage_reducer

DEG = math.pi / 180


def _world(body):
    mesh = source_mesh(body.visual)
    mesh.apply_transform(pose_matrix(body.position, body.orientation))
    return mesh


def _two_gears(kind: str) -> tuple[Model, GearPair]:
    """Gear 2 where the pair needs it but turned so that its teeth cross gear 1's."""
    m = 0.002
    if kind == "bevel":
        g1, g2 = builders.bevel_pair_bodies(("g1", "g2"), 18, 30, 0.003, 0.018, (0.01, 0.012))
        g2 = builders.gear_body("g2", g2.visual.spec, position=g2.position, spin=0.3)  # on the apex, out of mesh
        a1, a2 = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
        pair = GearPair("p", "j1", "j2", GROUND, kind="bevel", z1=18, z2=30, module=0.003,
                        pitch_angle=math.atan2(18, 30), face_width=0.018)
    else:
        beta = 15 * DEG if kind == "external" else 0.0
        spec1 = GearSpec("helical", m, 19, 20 * DEG, 0.02, helix_angle=beta, bore_diameter=0.01)
        spec2 = (GearSpec("helical", m, 37, 20 * DEG, 0.02, helix_angle=-beta, bore_diameter=0.012) if kind == "external"
                 else GearSpec("inner", m, 61, 20 * DEG, 0.02, rim_diameter=0.16))
        x = 0.056 if kind == "external" else -0.012  # at the centre distance, turned out of mesh
        g1 = builders.gear_body("g1", spec1, position=(0.0, 0.0, 0.0) if kind == "external" else (0.03, 0.0, 0.0))
        g2 = builders.gear_body("g2", spec2, position=(x, 0.0, 0.0), spin=0.37)
        a1 = a2 = (0.0, 0.0, 1.0)
        pair = GearPair("p", "j1", "j2", GROUND, kind=kind, z1=19, z2=spec2.teeth, module=m, helix_angle=beta,
                        face_width=0.02)
    model = Model()
    Macro("build", [AddItem(g1), AddItem(g2), AddItem(RevoluteJoint("j1", GROUND, "g1", g1.position, a1)),
                    AddItem(RevoluteJoint("j2", GROUND, "g2", g2.position, a2))]).do(model)
    return model, pair


@pytest.mark.parametrize("kind", ["external", "internal", "bevel"])
def test_placed_gears_mesh_without_overlap_and_touch_at_the_pitch_point(kind):
    model, pair = _two_gears(kind)
    before = trimesh.boolean.intersection([_world(model.bodies["g1"]), _world(model.bodies["g2"])], engine="manifold")
    assert before.volume > 0.01 * _world(model.bodies["g1"]).volume / pair.z1  # the teeth cross
    for command in place_gear2(model, pair):
        command.do(model)
    AddItem(pair).do(model)
    assert not [f for f in validate(model) if f.severity == "error"]
    assert abs(mesh_turn(model, pair)) < 1e-9  # placing again turns nothing
    g1, g2 = _world(model.bodies["g1"]), _world(model.bodies["g2"])
    with np.errstate(invalid="ignore"):  # an empty intersection: trimesh divides by its zero volume for its centre
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    tooth = g1.volume / pair.z1
    assert overlap < 1e-6 * tooth, (kind, overlap)
    # the flanks meet at the pitch point: the gap there is a small fraction of the module
    b1, b2 = model.bodies["g1"], model.bodies["g2"]
    frame = contact_frame(PairGeometryData.of(pair), np.asarray(b1.position), quat_matrices(b1.orientation)[:, 2],
                          np.asarray(b2.position), quat_matrices(b2.orientation)[:, 2])
    point = frame.point
    if kind != "bevel":  # a spur gear has vertices only on its end faces: look at the pitch point there
        point = point + frame.a1 * pair.face_width / 2
    else:  # the mean cone point, moved out along the cone line to the heel, where the mesh has vertices
        geo = PairGeometryData.of(pair)
        rm = geo.mesh_radius_1
        apex = point - frame.s1 * rm / math.tan(pair.pitch_angle) - frame.u * rm
        point = apex + (point - apex) * (geo.r1 / rm)
    near = g2.vertices[np.linalg.norm(g2.vertices - point, axis=1) < 2 * pair.module]
    gap = np.abs(trimesh.proximity.signed_distance(g1, near)).min()
    print(f"{kind}: overlap before placing {before.volume * 1e9:.1f} mm^3, after {overlap * 1e9:.2e} mm^3; "
          f"gap at the pitch point {gap * 1e6:.1f} um ({100 * gap / pair.module:.2f} % of the module)")
    assert gap < 0.02 * pair.module


def test_a_bevel_gear_made_with_gear_1s_pitch_angle_is_generated_again_with_the_pairs_and_then_meets_the_apex():
    """The Bevel Gear dialog starts gear 2 with gear 1's pitch angle (26.57 deg for 20 teeth; 40 typed): Move gear
    2 into mesh turned it square and then stopped, its apex 90 mm off (the cone of the pitch angle it was made
    with), the pitch-angle warning left for the user to mend in the property dock, the button doing nothing
    more. Now it generates gear 2 again with the pitch angle the pair needs: one press, no finding left, and gear
    2 is the gear the Bevel Gear dialog makes with that angle (mass and inertia)."""
    z1, z2, m = 20, 40, 0.003
    gamma1 = math.atan2(z1, z2)
    specs = [GearSpec("bevel", m, z, 20 * DEG, 0.02, pitch_angle=gamma1, bore_diameter=0.012) for z in (z1, z2)]
    model = Model()
    Macro("build", [AddItem(builders.gear_body("g1", specs[0])), AddItem(builders.gear_body("g2", specs[1])),
                    AddItem(RevoluteJoint("j1", GROUND, "g1", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))),
                    AddItem(RevoluteJoint("j2", GROUND, "g2", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)))]).do(model)
    pair = GearPair("p", "j1", "j2", GROUND, kind="bevel", z1=z1, z2=z2, module=m, pitch_angle=gamma1,
                    face_width=0.02)
    AddItem(pair).do(model)
    cone = [f for f in validate(model) if "needs a pitch angle of 63.4349 deg" in f.message]
    assert cone and cone[0].fix == "place_gear2"  # the finding offers the fix (on a double-click in Messages)
    for command in place_gear2(model, pair):
        command.do(model)
    assert not [f for f in validate(model) if f.item == "p"]
    g2 = model.bodies["g2"]
    assert g2.visual.spec.pitch_angle == pytest.approx(math.pi / 2 - gamma1, abs=1e-15)
    made = builders.gear_body("made", dataclasses.replace(specs[1], pitch_angle=math.pi / 2 - gamma1))
    assert g2.mass == pytest.approx(made.mass, rel=1e-12)
    assert np.allclose(g2.inertia, made.inertia, rtol=1e-12, atol=0)
    assert abs(mesh_turn(model, pair)) < 1e-9


@pytest.mark.parametrize("beside", [0.0, 0.09])
def test_a_bevel_gear_made_on_gear_1s_axis_is_turned_square_placed_on_the_apex_and_in_mesh(beside):
    """The Bevel Gear dialog makes gear 2 on the z axis as it makes gear 1 (on top of it, or where the user put
    it beside): Move gear 2 into mesh turns it to 90 deg, on the side it stood, puts its apex on gear 1's, and
    turns its teeth into gear 1's gaps (it refused before, saying to turn the axis by hand first; and the model
    check told to move it along its axis, which cannot bring the apexes together while the axes are parallel)."""
    z1, z2, m = 20, 40, 0.003
    gamma1 = math.atan2(z1, z2)
    specs = [GearSpec("bevel", m, z, 20 * DEG, 0.02, pitch_angle=g, bore_diameter=0.012)
             for z, g in ((z1, gamma1), (z2, math.pi / 2 - gamma1))]
    model = Model()
    Macro("build", [AddItem(builders.gear_body("g1", specs[0])),
                    AddItem(builders.gear_body("g2", specs[1], position=(beside, 0.0, 0.0))),
                    AddItem(RevoluteJoint("j1", GROUND, "g1", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))),
                    AddItem(RevoluteJoint("j2", GROUND, "g2", (beside, 0.0, 0.0), (0.0, 0.0, 1.0)))]).do(model)
    pair = GearPair("p", "j1", "j2", GROUND, kind="bevel", z1=z1, z2=z2, module=m, pitch_angle=gamma1,
                    face_width=0.02)
    AddItem(pair).do(model)
    square = [f for f in validate(model) if f.message.startswith("bevel joint axes must be at 90")]
    assert square and square[0].fix == "place_gear2"  # the finding offers the fix
    assert not [f for f in validate(model) if "apexes" in f.message]  # not "move it along its axis": that cannot do
    for command in place_gear2(model, pair):
        command.do(model)
    assert not [f for f in validate(model) if f.severity == "error"]
    assert not [f for f in validate(model) if "apexes" in f.message]
    a2 = model.joints["j2"].unit_axis()
    assert abs(a2 @ (0.0, 0.0, 1.0)) < 1e-12
    assert np.allclose(quat_matrices(model.bodies["g2"].orientation)[:, 2], a2, atol=1e-12)  # the gear turned with it
    # gear 2's pitch circle touches gear 1's: its centre r1 across gear 1's axis, r2 along it (tan gamma1 = r1/r2)
    r1, r2 = m * z1 / 2, m * z2 / 2
    centre = np.asarray(model.bodies["g2"].position)
    assert abs(math.hypot(centre[0], centre[1]) - r1) < 1e-12 and abs(centre[2] - r2) < 1e-12
    if beside:
        assert centre[0] > 0  # on the side the user put it
    assert abs(mesh_turn(model, pair)) < 1e-9
    g1, g2 = _world(model.bodies["g1"]), _world(model.bodies["g2"])
    with np.errstate(invalid="ignore"):
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    assert overlap < 1e-6 * g1.volume / z1


def test_the_examples_are_in_mesh():
    for name in ("helical_pair", "inner_pair", "bevel_pair"):
        model = load(EXAMPLES / f"{name}.gdyn")
        assert abs(mesh_turn(model, model.gear_pairs["pair"])) < 1e-9, name
    planetary = load(EXAMPLES / "planetary.gdyn")
    for pair in planetary.gear_pairs.values():
        assert abs(mesh_turn(planetary, pair)) < 1e-9, pair.name


def test_the_teeth_of_every_example_pair_do_not_cross():
    """By the meshes themselves (trimesh's boolean intersection), not by the placement's own phase rule: the
    bodies carrying each pair's teeth, a gear welded to a compound shaft included, share no volume."""
    for name in ("helical_pair", "inner_pair", "two_stage_reducer"):
        model = load(EXAMPLES / f"{name}.gdyn")
        for pair in model.gear_pairs.values():
            g1, g2 = (_world(model.bodies[model.gear_body(pair, k)]) for k in (1, 2))
            with np.errstate(invalid="ignore"):
                overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
            # touching flanks overlap by their facets: a few millionths of a tooth (the ring's), not a tooth's tip
            assert overlap < 1e-4 * g1.volume / pair.z1, (name, pair.name, overlap)


def _overlaps(model):
    return {(f.item, f.message.split("'")[1]) for f in validate(model) if f.message.startswith("overlaps")}


def test_interference_findings():
    planetary = load(EXAMPLES / "planetary.gdyn")
    assert not _overlaps(planetary)
    # a second sun on top of the first, a box through planet 1, a gear inside the ring's teeth
    spec = planetary.bodies["sun"].visual.spec
    AddItem(builders.gear_body("sun2", spec, position=(0.0, 0.0, 0.005))).do(planetary)
    box = PrimitiveSource("box", size=(0.2, 0.005, 0.005))
    AddItem(builders.body_from_source("bar", box, position=(0.048, 0.0, 0.0))).do(planetary)
    found = _overlaps(planetary)
    assert ("sun", "sun2") in found and ("planet1", "bar") in found and ("ring", "bar") in found
    assert ("sun", "planet1") not in found  # paired gears touch by design


def test_gear_2_inside_gear_1_before_pairing_and_not_after_placing():
    model, pair = _two_gears("external")
    from core.commands import replace_fields

    replace_fields(model, "g2", position=(0.005, 0.0, 0.0)).do(model)
    replace_fields(model, "j2", position=(0.005, 0.0, 0.0)).do(model)
    assert ("g1", "g2") in _overlaps(model)
    for command in place_gear2(model, pair):
        command.do(model)
    AddItem(pair).do(model)
    assert not _overlaps(model)


def test_a_mesh_in_mm_imported_as_metres_is_named_with_the_fix(tmp_path):
    path = tmp_path / "housing.stl"
    trimesh.creation.box(extents=(40.0, 30.0, 20.0)).export(path)  # a 40 mm part, written in mm
    from core.geometry.mesh_import import import_mesh
    from core.model.entities import RigidBody

    imp = import_mesh(path, unit="m", density=7850.0)
    mp = imp.mass_properties
    model = Model()
    AddItem(RigidBody("housing", mass=mp.mass, com=mp.com, inertia=mp.inertia,
                      visual=MeshFileSource(str(path), "m", 7850.0))).do(model)
    (finding,) = [f for f in validate(model) if f.item == "housing" and "weighs" in f.message]
    assert finding.severity == "warning" and "far outside what a gear-train part weighs" in finding.message
    assert "import it with unit mm" in finding.message
    assert f"{mp.mass * 1e-9:.4g} kg" in finding.message  # 0.188 kg as a 40 mm steel block
    assert mp.mass * 1e-9 == pytest.approx(7850 * 0.04 * 0.03 * 0.02, rel=1e-9)


@pytest.mark.parametrize("planets, touch", [(3, False), (4, False), (6, True)])
def test_a_planetary_set_whose_planets_touch_is_refused_by_the_neighbour_condition(planets, touch):
    """24/24/72 at m 2 mm, a = 48 mm, a planet's tip circle d_a = 2 (24 + 2) = 52 mm: N planets' centres are
    2 a sin(pi / N) apart, 83.1, 67.9 and 48 mm for N = 3, 4, 6, so six planets touch."""
    if touch:
        with pytest.raises(ModelError, match=r"planets: 6 planets touch each other: their centres are 2 a sin\(pi / N\) "
                                             r"= 48 mm apart, their tip circles d_a = 52 mm"):
            builders.planetary_set(24, 24, 72, planets, 0.002, 0.02)
        return
    model = Model()
    for item in builders.planetary_set(24, 24, 72, planets, 0.002, 0.02):
        AddItem(item).do(model)
    assert not [f for f in validate(model) if "overlaps" in f.message]  # no two bodies overlap


def _on_joints(gears: dict) -> Model:
    """Spur gears of module 2 mm on ground joints: name -> (teeth, kind, centre [m])."""
    model = Model()
    for name, (teeth, kind, where) in gears.items():
        spec = GearSpec(kind, 0.002, teeth, 20 * DEG, 0.02, **({"rim_diameter": 0.2} if kind == "inner" else {"bore_diameter": 0.01}))
        model.bodies[name] = builders.gear_body(name, spec, position=where)
        model.joints[name + "_j"] = RevoluteJoint(name + "_j", GROUND, name, where, (0.0, 0.0, 1.0))
    return model


def test_a_new_pair_starts_on_gears_standing_in_mesh_then_on_joints_no_pair_uses():
    # an idler: a (20) meshes b (40), c (30) stands in mesh with b at 70 mm, d (30) is not placed yet
    model = _on_joints({"a": (20, "helical", (0, 0, 0)), "b": (40, "helical", (0.06, 0, 0)),
                        "c": (30, "helical", (0.06, 0.07, 0)), "d": (30, "helical", (0.3, 0, 0))})
    assert likely_joints(model) == ("a_j", "b_j")
    model.gear_pairs["p"] = GearPair("p", "a_j", "b_j", GROUND, z1=20, z2=40, module=0.002)
    assert likely_joints(model) == ("b_j", "c_j")  # c at b's centre distance, though b has a pair
    model.gear_pairs["q"] = GearPair("q", "b_j", "c_j", GROUND, z1=40, z2=30, module=0.002)
    assert likely_joints(model) == ("a_j", "d_j")  # nothing in mesh left: the joint no pair uses
    model.joints["c_j"] = RevoluteJoint("c_j", GROUND, "c", (0.06, 0.07, 0.05), (0.0, 0.0, 1.0))
    model.bodies["c"] = dataclasses.replace(model.bodies["c"], position=(0.06, 0.07, 0.05))
    del model.gear_pairs["q"]
    assert likely_joints(model) == ("c_j", "d_j")  # c 50 mm above b's face: not in mesh; both unused


def test_a_ring_stands_in_mesh_at_the_difference_of_the_pitch_radii():
    model = _on_joints({"sun": (20, "helical", (0, 0, 0)), "planet": (20, "helical", (0.1, 0, 0)),
                        "other": (20, "helical", (0.3, 0, 0)), "ring": (60, "inner", (0.06, 0, 0))})
    assert likely_joints(model) == ("planet_j", "ring_j")  # 40 mm apart: pitch radii 60 and 20 mm


def test_a_gear_welded_to_a_compound_shaft_meshes_with_its_mate_without_an_overlap_finding():
    # b (40) on its joint carries c (18) 25 mm along the shaft; c meshes d (45) on the pair b_j-d_j naming gear1 'c'
    model = _on_joints({"a": (20, "helical", (0, 0, 0)), "b": (40, "helical", (0.06, 0, 0)),
                        "c": (18, "helical", (0.06, 0, 0.025)), "d": (45, "helical", (0.123, 0, 0.025))})
    del model.joints["c_j"]
    model.joints["shaft"] = FixedJoint("shaft", "b", "c", (0.06, 0, 0.0125))
    model.gear_pairs["p"] = GearPair("p", "a_j", "b_j", GROUND, z1=20, z2=40, module=0.002)
    model.gear_pairs["q"] = GearPair("q", "b_j", "d_j", GROUND, z1=18, z2=45, module=0.002, gear1="c")
    assert model.gear_body(model.gear_pairs["q"], 1) == "c" and model.gear_body(model.gear_pairs["q"], 2) == "d"
    assert overlapping_bodies(model) == []
    model.gear_pairs["q"] = GearPair("q", "b_j", "d_j", GROUND, z1=18, z2=45, module=0.002)  # b's teeth named
    assert overlapping_bodies(model) == [("c", "d")]


def test_the_mesh_phase_of_a_gear_welded_to_a_shaft_counts_its_own_teeth():
    """Phase 0 is a tooth of the reference gear on the line to the pitch point: turning the welded gear c (18
    teeth, gear 1 of q) by half a tooth pitch moves q's phase by half a period; turning the shaft's own gear b
    does not move it."""
    model = _on_joints({"b": (40, "helical", (0, 0, 0)), "c": (18, "helical", (0, 0, 0.025)),
                        "d": (45, "helical", (0.063, 0, 0.025))})
    del model.joints["c_j"]
    model.joints["shaft"] = FixedJoint("shaft", "b", "c", (0, 0, 0.0125))
    q = GearPair("q", "b_j", "d_j", GROUND, z1=18, z2=45, module=0.002, gear1="c")
    before = mesh_phase(model, q).phase0
    for name, turn, moved in (("b", 0.3, 0.0), ("c", math.pi / 18, 0.5)):
        model.bodies[name] = dataclasses.replace(model.bodies[name], orientation=tuple(quat_about((0, 0, 1), turn)))
        assert (mesh_phase(model, q).phase0 - before - moved) % 1.0 == pytest.approx(0.0, abs=1e-12), name


def test_a_new_pair_where_every_two_joints_are_joined_starts_on_the_last_pairs_gear_2_for_the_next_stage():
    model = _on_joints({"a": (20, "helical", (0, 0, 0)), "b": (40, "helical", (0.06, 0, 0))})
    model.gear_pairs["p"] = GearPair("p", "a_j", "b_j", GROUND, z1=20, z2=40, module=0.002)
    assert likely_joints(model) == ("b_j", "a_j")


def test_a_pair_on_a_compound_shaft_starts_on_the_welded_gear_that_meets_its_mate():
    """Gear 3 welded to gear 2's shaft, 25 mm along it, with no joint of its own: a second pair starts on gear 2's
    joint and gear 4's, and its teeth on gear 3 (in mesh with gear 4 there), not on gear 2."""
    model = two_stage_reducer(own_joint=False, second_pair=False)
    assert likely_joints(model) == ("g2_j", "g4_j")
    assert teeth_bodies(model, "g2_j", "g4_j") == ("g3", "g4") and teeth_bodies(model, "g1_j", "g2_j") == ("g1", "g2")


def test_placing_a_compound_shaft_as_gear_2_moves_the_shaft_its_welded_gear_and_the_weld_as_one():
    """Pair q joins a (18) on its joint to the shaft b, whose welded gear c (45, 25 mm along it) carries q's teeth.
    Moving gear 2 into mesh moves b, c, the weld's point and b's joint by one shift, to the centre distance
    63 mm, and turns c (not b) until the meshes of a and c share no volume."""
    model = _on_joints({"a": (18, "helical", (0, 0, 0.025)), "b": (40, "helical", (0.1, 0.02, 0)),
                        "c": (45, "helical", (0.1, 0.02, 0.025))})
    del model.joints["c_j"]
    model.joints["weld"] = FixedJoint("weld", "b", "c", (0.1, 0.02, 0.0125))
    q = GearPair("q", "a_j", "b_j", GROUND, z1=18, z2=45, module=0.002, gear2="c")
    b_spin = model.bodies["b"].orientation
    for command in place_gear2(model, q):
        command.do(model)
    shift = np.asarray(model.bodies["b"].position) - (0.1, 0.02, 0.0)
    for name, before in (("c", (0.1, 0.02, 0.025)), ("weld", (0.1, 0.02, 0.0125)), ("b_j", (0.1, 0.02, 0.0))):
        assert np.asarray(model.find(name).position) - before == pytest.approx(shift, abs=1e-15), name
    assert math.hypot(*model.bodies["c"].position[:2]) == pytest.approx(0.063, abs=1e-12)
    assert model.bodies["b"].orientation == b_spin
    g1, g2 = _world(model.bodies["a"]), _world(model.bodies["c"])
    with np.errstate(invalid="ignore"):
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    assert overlap < 1e-6 * g1.volume / 18


def test_a_bevel_pinion_welded_to_a_shaft_is_checked_and_meshed_at_its_own_apex():
    """A shaft (a cylinder on a joint along x at the origin) carries a bevel pinion welded 40 mm along it; the pair
    names the pinion in gear1. The apex check and 'Move gear 2 into mesh' took the shaft joint's point for the
    pinion's heel: the check said nothing of a wheel far off, and placing put the wheel's apex 40 mm from the
    pinion's. Now the check names the gap, and placing brings the two apexes together (each worked out here from
    its gear's heel, axis and r / tan(gamma)) with the teeth in mesh (no shared volume)."""
    pinion, wheel = builders.bevel_pair_bodies(("pinion", "wheel"), 18, 30, 0.003, 0.016, (0.01, 0.012))
    pinion = dataclasses.replace(pinion, position=(0.04, 0.0, 0.0))  # heel 40 mm along the shaft, axis +x
    wheel = dataclasses.replace(wheel, position=(0.1, 0.05, -0.08))
    model = Model()
    shaft = builders.body_from_source("shaft", PrimitiveSource(radius=0.005, length=0.03), axis=(1.0, 0.0, 0.0))
    Macro("build", [AddItem(shaft), AddItem(pinion), AddItem(wheel),
                    AddItem(RevoluteJoint("shaft_j", GROUND, "shaft", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0))),
                    AddItem(FixedJoint("weld", "shaft", "pinion", (0.04, 0.0, 0.0))),
                    AddItem(RevoluteJoint("wheel_j", GROUND, "wheel", wheel.position, (0.0, 0.0, 1.0)))]).do(model)
    pair = GearPair("p", "shaft_j", "wheel_j", GROUND, kind="bevel", z1=18, z2=30, module=0.003,
                    pitch_angle=math.atan2(18, 30), face_width=0.016, gear1="pinion")
    AddItem(pair).do(model)
    assert [f for f in validate(model) if "pitch apexes" in f.message and f.item == "p"]

    def apex(body, z):
        r = 0.003 * z / 2
        gamma = math.atan2(18, 30) if z == 18 else math.pi / 2 - math.atan2(18, 30)
        return np.asarray(body.position) + quat_matrices(body.orientation)[:, 2] * r / math.tan(gamma)

    for command in place_gear2(model, pair):
        command.do(model)
    assert apex(model.bodies["pinion"], 18) == pytest.approx(apex(model.bodies["wheel"], 30), abs=1e-12)
    assert not [f for f in validate(model) if f.item == "p" and f.severity != "info"]
    g1, g2 = _world(model.bodies["pinion"]), _world(model.bodies["wheel"])
    with np.errstate(invalid="ignore"):
        assert trimesh.boolean.intersection([g1, g2], engine="manifold").volume < 1e-6 * g1.volume / 18


def test_a_new_pair_in_a_train_whose_joints_all_mesh_starts_on_its_output_for_the_next_stage():
    """The two-stage reducer: every joint is in a pair and input and output do not mesh. The dialog started on
    input and output (the one two no pair joins), a pair that locks the train; it starts on the output now."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    assert likely_joints(model) == ("output_joint", "shaft_joint")


def _pair_finding(model, start):
    found = [f for f in validate(model) if f.item == "pair" and f.message.startswith(start)]
    assert len(found) == 1, [f.message for f in validate(model)]
    return found[0]


def _joint_distance(model):
    j1, j2 = model.joints["gear1_joint"], model.joints["gear2_joint"]
    return float(np.linalg.norm(np.subtract(j2.position, j1.position)))


def test_a_gear_given_new_teeth_offers_the_fix_that_takes_them_into_the_pair_and_meshes_gear_2():
    """Properties > Number of teeth on gear 1 of the helical example (20 -> 25): the pair still says z1 = 20 and
    the gears overlap. The warning offers a fix; it gives the pair z1 = 25 and moves gear 2 to the centre distance
    m_t (z1 + z2) / 2 by hand (m_t 2 mm, the example's), turned into mesh, the teeth not crossing (trimesh's
    boolean). Undone, the pair and gear 2 are as they were."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    before = (model.gear_pairs["pair"], model.bodies["gear2"], model.joints["gear2_joint"])
    set_gear_spec(model, "gear1", teeth=25).do(model)
    finding = _pair_finding(model, "z1 = 20 but gear 'gear1' was generated with 25 teeth")
    assert finding.fix == "pair_from_gears"
    fix = fix_command(model, finding)
    fix.do(model)
    pair = model.gear_pairs["pair"]
    assert (pair.z1, pair.z2) == (25, 40)
    assert _joint_distance(model) == pytest.approx(0.002 * 65 / 2, rel=1e-12)
    assert abs(mesh_turn(model, pair)) < 1e-9
    assert not [f for f in validate(model) if f.item == "pair" or f.severity == "error"]
    g1, g2 = _world(model.bodies["gear1"]), _world(model.bodies["gear2"])
    with np.errstate(invalid="ignore"):
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    assert overlap < 1e-4 * g1.volume / 25
    fix.undo(model)
    assert (model.gear_pairs["pair"], model.bodies["gear2"], model.joints["gear2_joint"]) == before


def test_a_profile_shift_given_to_a_gear_is_found_and_the_fix_puts_gear_2_at_the_working_centre_distance():
    """A profile shift x = 0.4 on gear 1 (Properties) that the pair does not know was silent: the pair kept x1 = 0
    and its centre distance. It is a warning now, and its fix gives the pair x1 = 0.4 and gear 2 the working
    centre distance a_w = a cos(alpha_t) / cos(alpha_wt), inv(alpha_wt) = inv(alpha_t) + 2 (x1 + x2) tan(alpha_n)
    / (z1 + z2), solved here by bisection."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    set_gear_spec(model, "gear1", profile_shift=0.4).do(model)
    finding = _pair_finding(model, "x1 = 0 but gear 'gear1' was generated with a profile shift of 0.4")
    fix_command(model, finding).do(model)
    assert model.gear_pairs["pair"].x1 == 0.4
    alpha_n, beta = 20 * DEG, 15 * DEG
    alpha_t = math.atan(math.tan(alpha_n) / math.cos(beta))
    inv = lambda a: math.tan(a) - a  # noqa: E731
    target = inv(alpha_t) + 2 * 0.4 * math.tan(alpha_n) / 60
    lo, hi = alpha_t, 0.6
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if inv(mid) < target else (lo, mid)
    a = 0.002 * 60 / 2  # m_t (z1 + z2) / 2
    assert _joint_distance(model) == pytest.approx(a * math.cos(alpha_t) / math.cos(lo), rel=1e-9)
    assert not [f for f in validate(model) if f.item == "pair" or f.severity == "error"]


def test_the_pair_fix_refuses_gears_of_two_modules_and_names_them():
    model = load(EXAMPLES / "helical_pair.gdyn")
    set_gear_spec(model, "gear1", module=0.0025 / math.cos(15 * DEG)).do(model)
    finding = _pair_finding(model, "transverse module m_t")
    with pytest.raises(ModelError, match="gear1.*gear2|different modules"):
        fix_command(model, finding)


def test_a_pairs_teeth_edited_regenerate_its_gears_and_move_gear_2_into_mesh_as_one_undoable_edit():
    """Properties > Teeth of gear 1 on the helical example's pair (20 -> 25): gear 1, generated with the pair's
    values, is generated again with 25 teeth and gear 2 moves to m_t (z1 + z2) / 2 = 65 mm (by hand), in mesh,
    with no finding left; undone, all is as it was."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    before = {name: model.find(name) for name in ("pair", "gear1", "gear2", "gear2_joint")}
    edit = edit_pair(model, "pair", z1=25)
    edit.do(model)
    g1, g2 = (model.bodies[g].visual.spec for g in ("gear1", "gear2"))
    assert (g1.teeth, g2.teeth) == (25, 40) and g2.helix_angle == pytest.approx(-15 * DEG)
    assert _joint_distance(model) == pytest.approx(0.002 * 65 / 2, rel=1e-12)
    assert abs(mesh_turn(model, model.gear_pairs["pair"])) < 1e-9
    assert not [f for f in validate(model) if f.item == "pair" or f.severity == "error"]
    edit.undo(model)
    assert {name: model.find(name) for name in before} == before


def test_a_pairs_helix_edit_gives_gear_2_the_other_hand_and_a_gear_that_already_differed_is_left_alone():
    model = load(EXAMPLES / "helical_pair.gdyn")
    edit_pair(model, "pair", helix_angle=20 * DEG).do(model)
    assert model.bodies["gear1"].visual.spec.helix_angle == pytest.approx(20 * DEG)
    assert model.bodies["gear2"].visual.spec.helix_angle == pytest.approx(-20 * DEG)
    spur = model.copy()
    edit_pair(spur, "pair", helix_angle=0.0).do(spur)  # gear 2 of a spur pair: a helix angle of 0, not -0
    assert math.copysign(1.0, spur.bodies["gear2"].visual.spec.helix_angle) == 1.0
    set_gear_spec(model, "gear1", teeth=23).do(model)  # gear 1 now differs from the pair: its own choice
    edit_pair(model, "pair", z2=42).do(model)
    assert model.bodies["gear1"].visual.spec.teeth == 23 and model.bodies["gear2"].visual.spec.teeth == 42
    assert [f.message for f in validate(model) if f.item == "pair"] == [
        "z1 = 20 but gear 'gear1' was generated with 23 teeth"]
    efficiency = edit_pair(model, "pair", efficiency=0.98)  # a field the gears do not carry: the edit alone
    assert not isinstance(efficiency, Macro)


def test_a_pair_whose_shafts_both_carry_another_pairs_gears_is_edited_alone_and_the_check_says_what_differs():
    """A planetary set's sun-planet pair: a new sun or a moved planet would take the other pairs out of mesh, so
    the gears stay, and the check says why and how a set changes."""
    planetary = load(EXAMPLES / "planetary.gdyn")
    edit = edit_pair(planetary, "sun_planet1", z1=30)
    assert not isinstance(edit, Macro)
    edit.do(planetary)
    assert planetary.bodies["sun"].visual.spec.teeth == 24
    assert ("z1 = 30 but gear 'sun' was generated with 24 teeth; the gears do not follow the pair: both shafts "
            "carry other pairs' gears (a planetary set is made again as a whole, by Gears > Planetary Gearset)"
            in [f.message for f in validate(planetary)])
    fix_command(planetary, next(f for f in validate(planetary) if f.fix == "pair_from_gears")).do(planetary)
    assert planetary.gear_pairs["sun_planet1"].z1 == 24  # the fix takes the sun's teeth; planet1 stays in the ring
    assert planetary.bodies["planet1"] == load(EXAMPLES / "planetary.gdyn").bodies["planet1"]


def _stage_one_in_mesh(model, z1):
    """Stage 1 of the reducer example with z1 teeth on gear 1, gear 1 moved: the input joint m_t (z1 + 40) / 2
    from the shaft joint (by hand), gear 1 turned into mesh, no finding on either stage, the teeth not crossing
    (trimesh's boolean); the middle shaft, the output and stage 2 where they were."""
    example = load(EXAMPLES / "two_stage_reducer.gdyn")
    distance = np.linalg.norm(np.subtract(model.joints["input_joint"].position, model.joints["shaft_joint"].position))
    assert distance == pytest.approx(0.002 * (z1 + 40) / 2, rel=1e-12)
    pair = model.gear_pairs["stage1"]
    assert model.bodies["gear1"].visual.spec.teeth == z1 and abs(mesh_turn(model, pair)) < 1e-9
    assert not [f.message for f in validate(model) if f.item in ("stage1", "stage2") or f.severity == "error"]
    for name in ("gear2", "gear3", "gear4", "shaft_joint", "shaft_weld", "output_joint", "stage2"):
        assert model.find(name) == example.find(name)
    g1, g2 = _world(model.bodies["gear1"]), _world(model.bodies["gear2"])
    with np.errstate(invalid="ignore"):
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    assert overlap < 1e-4 * g1.volume / z1


def test_a_reducers_first_stage_given_new_teeth_moves_its_input_gear_into_mesh_and_leaves_stage_2_in_mesh():
    """The reducer example's middle shaft carries stage 2's pinion: where stage 1's teeth change, moving gear 2
    would take stage 2 out of mesh, so gear 1 (the input, its shaft carrying nothing else) moves and turns into
    mesh. By the pair's Properties (z1 20 -> 22: gear 1 generated again), and by the gear's (turned 0.05 rad out
    of mesh too) with the fix the warning then offers; the check's centre-distance error names the input joint and
    offers to move gear 1."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    edit = edit_pair(model, "stage1", z1=22)
    edit.do(model)
    _stage_one_in_mesh(model, 22)
    edit.undo(model)
    assert model.bodies == load(EXAMPLES / "two_stage_reducer.gdyn").bodies
    turned = quat_about(np.array([0.0, 0.0, 1.0]), 0.05)  # out of mesh as well: placing turns it back
    model.bodies["gear1"] = dataclasses.replace(model.bodies["gear1"], orientation=tuple(turned))
    set_gear_spec(model, "gear1", teeth=23).do(model)
    finding = next(f for f in validate(model) if f.item == "stage1")
    assert finding.message == "z1 = 20 but gear 'gear1' was generated with 23 teeth"
    fix_command(model, finding).do(model)
    _stage_one_in_mesh(model, 23)
    spaced = load(EXAMPLES / "two_stage_reducer.gdyn")
    spaced.gear_pairs["stage1"] = dataclasses.replace(spaced.gear_pairs["stage1"], x1=0.5, x2=0.5)
    finding = next(f for f in validate(spaced) if f.item == "stage1" and "apart" in f.message)
    assert "move 'input_joint' (and gear 'gear1')" in finding.message and finding.fix == "place_gear1"


def test_a_ring_that_cannot_take_its_pairs_new_teeth_refuses_the_edit_naming_the_ring_and_its_rim():
    """The inner example's ring (rim 150 mm) cannot hold 75 teeth (root circle 152.5 mm): the edit of the pair's
    z2 is refused, naming the ring's rim diameter, and the model is as it was."""
    model = load(EXAMPLES / "inner_pair.gdyn")
    before = model.copy()
    with pytest.raises(ModelError) as caught:
        edit_pair(model, "pair", z2=75)
    path, message = caught.value.problems[0]
    assert path == "ring.rim_diameter" and "pair's gear 'ring' is generated again" in message
    assert model.gear_pairs == before.gear_pairs and model.bodies == before.bodies


def test_a_bevel_pairs_new_teeth_bring_the_pitch_angle_and_both_cones_along_and_the_wheel_onto_the_apex():
    """Teeth of gear 1 on the bevel example (20 -> 25, z2 40): the pair's pitch angle becomes atan(25 / 40) =
    32.0054 deg by hand, the pinion is generated again on that cone and the wheel on its complement, and the wheel
    meets the pinion's apex in mesh: no finding is left and the teeth do not cross (trimesh's boolean)."""
    model = load(EXAMPLES / "bevel_pair.gdyn")
    edit_pair(model, "pair", z1=25).do(model)
    pair = model.gear_pairs["pair"]
    assert pair.pitch_angle == pytest.approx(math.atan(25 / 40), rel=1e-12)
    pinion, wheel = (model.bodies[model.gear_body(pair, k)].visual.spec for k in (1, 2))
    assert (pinion.teeth, wheel.teeth) == (25, 40)
    assert pinion.pitch_angle + wheel.pitch_angle == pytest.approx(math.pi / 2, rel=1e-12)
    assert not [f for f in validate(model) if f.severity != "info"]
    assert abs(mesh_turn(model, pair)) < 1e-9
    g1, g2 = (_world(model.bodies[model.gear_body(pair, k)]) for k in (1, 2))
    with np.errstate(invalid="ignore"):
        overlap = trimesh.boolean.intersection([g1, g2], engine="manifold").volume
    assert overlap < 1e-4 * g1.volume / 25


@pytest.mark.parametrize("example, change, gear2, spin", [
    ("helical_pair", {"z1": 25}, "gear2", (0.0, 0.0, -50.0 * 25 / 20)),
    ("bevel_pair", {"z1": 25}, "gear", (0.0, 0.0, -50.0 * 25 / 20)),
    ("inner_pair", {"z2": 66}, "ring", (0.0, 0.0, 90.0 * 20 / 66)),
])
def test_a_pairs_new_ratio_brings_gear_2s_start_speed_along_so_the_run_projects_nothing(example, change, gear2, spin):
    """The examples' gears start at speeds that keep their pair's ratio. A new ratio (helical and bevel z1 20 ->
    25: gear 2 at -50 * 25 / 20 rad/s by hand; the inner pair's ring to 66 teeth) gives gear 2 the speed of the
    new ratio, in the same undoable edit: the run's projection onto the constraints then changes nothing, where it
    said "initial speeds were projected" before (the inner ring: 90 * 20 / 66 rad/s by hand)."""
    model = load(EXAMPLES / f"{example}.gdyn")
    before = model.bodies[gear2]
    pair = model.gear_pairs["pair"]
    u1, u2 = model.start_speed(pair.joint1), model.start_speed(pair.joint2)
    edit = edit_pair(model, "pair", **change)
    edit.do(model)
    new = model.gear_pairs["pair"]
    assert model.bodies[gear2].angular_velocity == pytest.approx(spin, abs=1e-12)
    assert model.start_speed(new.joint2) == pytest.approx(u2 * (new.z1 / new.z2) / (pair.z1 / pair.z2), rel=1e-12)
    assert model.start_speed(new.joint1) == u1
    assert not any("projected" in f for f in prepare(model, t_end=1e-3, compiled="off").results.findings)
    edit.undo(model)
    assert model.bodies[gear2] == before


def test_the_pair_fix_brings_gear_2s_start_speed_along_and_speeds_that_did_not_keep_the_ratio_are_left_alone():
    """The fix that takes gear 1's new teeth (25) into the helical pair gives gear 2 -62.5 rad/s (-50 * 25 / 20);
    where gear 2 started still (the speeds never kept the ratio), an edit leaves it still and the run projects the
    speeds, saying so."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    set_gear_spec(model, "gear1", teeth=25).do(model)
    fix_command(model, _pair_finding(model, "z1 = 20 but gear 'gear1' was generated with 25 teeth")).do(model)
    assert model.bodies["gear2"].angular_velocity == pytest.approx((0.0, 0.0, -62.5), abs=1e-12)
    still = load(EXAMPLES / "helical_pair.gdyn")
    still.bodies["gear2"] = dataclasses.replace(still.bodies["gear2"], angular_velocity=(0.0, 0.0, 0.0))
    edit_pair(still, "pair", z1=25).do(still)
    assert still.bodies["gear2"].angular_velocity == (0.0, 0.0, 0.0)
    assert any("projected" in f for f in prepare(still, t_end=1e-3, compiled="off").results.findings)


def test_a_planet_out_of_place_is_an_error_with_no_fix_that_would_take_its_other_mesh_apart():
    """Planet 1 of the planetary example moved 1 mm outwards: the sun-planet pair's centre distance is wrong, but
    moving the planet back by that pair alone would take it out of the ring's mesh, and moving the sun would take
    the other planets out: the errors of both its pairs name the planet's joint (not the ring's, which three
    planets hold) and offer no one-click fix. The reducer's stage 2
    (its pinion on the middle shaft, its wheel free) still offers to move gear 2."""
    model = load(EXAMPLES / "planetary.gdyn")
    joint = model.joints["planet1_joint"]
    out = np.asarray(joint.position) * (1 + 0.001 / np.linalg.norm(joint.position))
    replace_fields(model, "planet1_joint", position=tuple(out)).do(model)
    findings = validate(model)
    found = [f for f in findings if f.item in ("sun_planet1", "planet1_ring") and "apart" in f.message]
    assert len(found) == 2 and all("move 'planet1_joint'" in f.message and f.fix == "" for f in found)
    off_axis = [f for f in findings if f.item == "planet1_joint" and "not the axis of 'planet1'" in f.message]
    assert len(off_axis) == 1  # both of the planet's pairs check its joint: said once
    reducer = load(EXAMPLES / "two_stage_reducer.gdyn")
    output = reducer.joints["output_joint"]
    replace_fields(reducer, "output_joint", position=(output.position[0] + 0.001, *output.position[1:])).do(reducer)
    found = [f for f in validate(reducer) if f.item == "stage2" and "apart" in f.message]
    assert len(found) == 1 and found[0].fix == "place_gear2"


@pytest.mark.parametrize("kind, helix, shifts", [("external", 15.0, (0.3, -0.1)), ("internal", 12.0, (0.0, 0.0)),
                                                 ("bevel", 0.0, (0.0, 0.0))])
def test_the_pair_values_one_generated_gear_gives_are_those_it_was_generated_from(kind, helix, shifts):
    """The inverse of gear_values: the pair fields gear k's macro-geometry gives back (its teeth, the transverse
    module, the pressure angle, gear 1's helix or pitch angle, its profile shift), for a gear generated from a
    pair, are that pair's, on either side: gear 2 of an external pair has the other hand, a ring the pinion's, a
    bevel wheel the complement of the pinion's pitch angle. The pair dialog fills its entries from them where
    only one of its gears was generated (the other imported)."""
    pitch = math.atan2(20, 40) if kind == "bevel" else 0.0
    pair = GearPair("p", "j1", "j2", GROUND, kind=kind, z1=20, z2=40, module=0.002, pressure_angle=math.radians(20),
                    helix_angle=math.radians(helix), pitch_angle=pitch, x1=shifts[0], x2=shifts[1])
    spec_kind = {"external": ("helical", "helical"), "internal": ("helical", "inner"), "bevel": ("bevel", "bevel")}
    for k in (1, 2):
        spec = GearSpec(spec_kind[kind][k - 1], face_width=0.02, **gear_values(pair, k))
        given = pair_values_from_gear(spec, k)
        assert {f: getattr(pair, f) for f in given} == pytest.approx(given, abs=1e-15), (k, given)
        assert set(given) >= {f"z{k}", "module", "pressure_angle"}
