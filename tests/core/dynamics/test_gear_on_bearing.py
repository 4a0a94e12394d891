"""A gear carried by its bearing (RevoluteJoint.on_bearing, core.gearing.bearings): the joint keeps its axis, the
bearing's springs hold the gear, and the load they carry is the tooth load of statics."""

import math

import numpy as np
import pytest

from core.commands import AddItem, RemoveItem, replace_fields
from core.dynamics.run import prepare
from core.gearing.fixes import FIXES, fix_command
from core.model.entities import BearingSpringDamper, CompliantMesh
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES

K_RADIAL = 1e8  # N/m
C_RADIAL = 2 * 0.5 * math.sqrt(K_RADIAL * 6.8)  # half critical on gear 2's 6.8 kg: the start's transient dies


def balanced_pair():
    """The seed 002 pair: 100 N m in on gear 1, 250 N m out on gear 2 (ratio 2.5), at rest in static equilibrium,
    with a bearing from the ground to gear 2 at its centre beside gear 2's joint."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    for gear in ("gear1", "gear2"):  # the example turns at 100 rad/s: here it stands
        replace_fields(model, gear, angular_velocity=(0.0, 0.0, 0.0)).do(model)
    AddItem(BearingSpringDamper("gear2_bearing", "ground", "gear2", model.bodies["gear2"].position,
                                radial_stiffness=K_RADIAL, radial_damping=C_RADIAL)).do(model)
    return model


def test_a_bearing_beside_a_rigid_joint_is_warned_and_its_fix_lets_it_carry_the_gear():
    model = balanced_pair()
    warning = next(f for f in validate(model) if f.item == "gear2_bearing")
    assert warning.severity == "warning" and "carry no load" in warning.message and warning.fix == "carry_on_bearing"
    fix_command(model, warning).do(model)
    assert model.joints["gear2_joint"].on_bearing and not model.joints["gear1_joint"].on_bearing
    assert [f for f in validate(model) if f.severity != "info"] == []  # the pair had its compliant mesh already


def test_the_bearing_carries_the_tooth_load_of_statics_where_the_joint_did():
    """At rest under balanced torques the mesh pushes gear 2 along the line of action with T2 / r_b2: the bearing
    takes that force, as the rigid joint's reaction did, and gives way by force / k along it (once the start's
    transient has died out in the bearing's damping)."""
    rigid = balanced_pair()
    replace_fields(rigid, "gear2_bearing", radial_stiffness=0.0, axial_stiffness=0.0, tilt_stiffness=0.0,
                   radial_damping=0.0).do(rigid)
    carried = balanced_pair()
    fix_command(carried, next(f for f in validate(carried) if f.fix == "carry_on_bearing")).do(carried)
    runs = {}
    for name, model in (("rigid", rigid), ("carried", carried)):
        run = prepare(model, t_end=0.03, formulation="cartesian")
        res = run.run()
        assert res.status == "finished", res.message
        runs[name] = res
    pair = carried.gear_pairs["pair"]
    base2 = pair.module * pair.z2 / 2 * math.cos(pair.pressure_angle)
    force = 250.0 / base2  # N along the line of action
    on_joint = np.array([runs["rigid"][f"gear2_joint.F{a}"][-1] for a in "xy"])
    on_bearing = np.array([runs["carried"][f"gear2_bearing.F{a}"][-1] for a in "xy"])
    assert np.linalg.norm(on_joint) == pytest.approx(force, rel=1e-6)
    assert on_bearing == pytest.approx(on_joint, rel=1e-4, abs=1e-4 * force)
    res = runs["carried"]
    moved = res.positions[-1, res.bodies.index("gear2"), :2] - carried.bodies["gear2"].position[:2]
    # the mesh pushed gear 2 away: the springs, stretched by `moved`, pull it back with the force the bearing reports
    assert moved == pytest.approx(-on_bearing / K_RADIAL, rel=1e-3, abs=1e-3 * force / K_RADIAL)
    assert "gear2_joint.Fx [N]" not in res.names  # the joint holds nothing: no reaction of its own
    assert res.settings["formulation"] == "cartesian"


def test_a_joint_on_bearing_without_a_bearing_and_a_rigid_pair_on_it_are_errors_naming_them():
    model = load(EXAMPLES / "helical_pair.gdyn")
    replace_fields(model, "gear2_joint", on_bearing=True).do(model)
    errors = {f.item: f.message for f in validate(model) if f.severity == "error"}
    assert "on_bearing: no Bearing Spring-Damper joins ground and gear2" in errors["gear2_joint"]
    assert "needs a Compliant Mesh" in errors["pair"]


def test_the_fix_names_a_new_mesh_after_its_pair_and_takes_the_next_free_name():
    """A second bearing-carried gear on a model that has a 'pair_mesh' item already: the new mesh is 'pair_mesh2'."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(BearingSpringDamper("pair_mesh", "ground", "gear1", model.bodies["gear1"].position)).do(model)
    AddItem(BearingSpringDamper("b2", "ground", "gear2", model.bodies["gear2"].position)).do(model)
    fix_command(model, next(f for f in validate(model) if f.item == "b2" and f.fix == "carry_on_bearing")).do(model)
    assert model.forces["pair_mesh2"].pair == "pair" and model.joints["gear2_joint"].on_bearing


def test_a_rigid_pair_on_a_gear_a_bearing_carries_is_fixed_by_making_it_compliant_and_then_runs():
    """A pair added to a gear its bearing carries was an error with no fix ('the pair needs a Compliant Mesh'): the
    user had to find the Compliant Mesh tool. The finding now offers it: the fix adds the pair's mesh (ISO 6336
    stiffness), after which nothing is in error and the bearing carries the mesh's force, as the bearing fix's
    model does."""
    model = balanced_pair()
    RemoveItem(model, "mesh").do(model)
    replace_fields(model, "gear2_joint", on_bearing=True).do(model)
    error = next(f for f in validate(model) if f.item == "pair" and f.severity == "error")
    assert "needs a Compliant Mesh" in error.message and error.fix == "compliant_mesh"
    assert FIXES["compliant_mesh"][0] == "Make the pair compliant (Compliant Mesh, ISO 6336 stiffness)"
    fix_command(model, error).do(model)
    mesh = model.forces["pair_mesh"]
    assert isinstance(mesh, CompliantMesh) and mesh.pair == "pair" and mesh == CompliantMesh("pair_mesh", "pair")
    assert [f for f in validate(model) if f.severity == "error"] == []
    res = prepare(model, t_end=0.03, formulation="cartesian").run()
    assert res.status == "finished", res.message
    pair = model.gear_pairs["pair"]
    force = 250.0 / (pair.module * pair.z2 / 2 * math.cos(pair.pressure_angle))  # statics, as above
    on_bearing = np.hypot(res["gear2_bearing.Fx"][-1], res["gear2_bearing.Fy"][-1])
    assert on_bearing == pytest.approx(force, rel=1e-3)
