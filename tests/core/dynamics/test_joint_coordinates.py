"""The joint-coordinate formulation: which models it takes, loop-closing joints, and reactions against Cartesian."""

import numpy as np
import pytest

from core.commands import AddItem, Macro, replace_fields
from core.dynamics.formulations import assemble
from core.dynamics.simulate import simulate
from core.model import builders
from core.model.entities import GROUND, BearingSpringDamper, FixedJoint, PrimitiveSource, RevoluteJoint, RigidBody
from core.model.files import load
from core.errors import ModelError
from core.model.model import Model
from tests.conftest import EXAMPLES


def _disc(name, x, izz):
    return RigidBody(name, mass=2.0, inertia=((0.6 * izz, 0, 0), (0, 0.6 * izz, 0), (0, 0, izz)), position=(x, 0.0, 0.0),
                     visual=PrimitiveSource(radius=0.05, length=0.02))


def _model(*items):
    model = Model(name="t")
    Macro("build", [AddItem(i) for i in items]).do(model)
    return model


def test_a_body_without_joints_is_refused_by_joint_coordinates_and_auto_takes_cartesian():
    model = _model(_disc("floating", 0.0, 1e-3), BearingSpringDamper("bearing", GROUND, "floating"))
    with pytest.raises(ModelError, match="formulation: body 'floating' is not joined to the ground"):
        assemble(model, "joint")
    assert assemble(model).formulation == "cartesian"
    assert assemble(load(EXAMPLES / "planetary.gdyn")).formulation == "joint"


def test_a_loop_closing_joint_stays_a_constraint_and_the_speed_is_analytic():
    """A hub welded to a shaft and also on its own coaxial bearing: the second revolute closes a loop."""
    j_shaft, j_hub, torque = 1e-3, 3e-3, 2.0
    model = _model(_disc("shaft", 0.0, j_shaft), _disc("hub", 0.0, j_hub),
                   RevoluteJoint("shaft_joint", GROUND, "shaft", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
                   FixedJoint("weld", "shaft", "hub", (0.0, 0.0, 0.0)),
                   RevoluteJoint("hub_joint", GROUND, "hub", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
                   builders.constant_torque("drive", "shaft_joint", torque))
    system = assemble(model, "joint")
    # breadth first from the ground: both bearings are tree joints and the weld closes the loop (rank 1 of 6 rows)
    assert system.tree_joints == {"shaft_joint", "hub_joint"} and system.rows == 6 and system.redundant == 5
    res = simulate(model, t_end=0.2, step=1e-3, output_step=0.1, formulation="joint")
    assert res.status == "finished", res.message
    alpha = torque / (j_shaft + j_hub)
    assert res["hub.wz [rad/s]"][-1] == pytest.approx(alpha * 0.2, rel=1e-9)
    # the bearings carry no load: the torque only spins the pair
    assert np.abs(res["hub_joint.Fx [N]"]).max() < 1e-9 and np.abs(res["weld.Tz [N m]"][-1]) == pytest.approx(
        j_hub * alpha, rel=1e-9)


def test_planetary_reactions_and_tooth_forces_agree_with_cartesian_while_spinning():
    """At 200 rad/s of the sun the planet bearings carry the centripetal load; both formulations give it."""
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "sun", angular_velocity=(0.0, 0.0, 200.0)).do(model)
    got = {}
    for formulation in ("joint", "cartesian"):
        system = assemble(model, formulation)
        y0, change = system.consistent_initial_state()
        assert change > 1.0  # the carrier and planets were given no speed
        got[formulation] = system.channels(0.0, y0)
    joint, cart = got["joint"], got["cartesian"]
    planet = model.bodies["planet1"]
    w_carrier = joint["carrier.wz [rad/s]"]
    assert w_carrier == pytest.approx(joint["sun.wz [rad/s]"] * 24 / 96, rel=1e-12)
    centripetal = planet.mass * w_carrier**2 * 0.048
    f = np.array([joint[f"planet1_joint.F{k} [N]"] for k in "xyz"])
    assert np.linalg.norm(f) > 0.5 * centripetal
    for name in cart:
        if name.endswith(("[N]", "[N m]", "[rad/s]")):
            assert joint[name] == pytest.approx(cart[name], rel=1e-6, abs=1e-6 * max(1.0, centripetal)), name
