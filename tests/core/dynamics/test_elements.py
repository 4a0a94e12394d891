"""The element registry: every joint, gear pair and force entity has a builder, and a new force element is one
class and one builder (no edit of the system)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.commands import AddItem
from core.dynamics.elements import BUILDERS, ForceElement, build, builds
from core.dynamics.formulations import assemble
from core.model import entities as E
from core.model.files import load
from tests.conftest import EXAMPLES


def test_every_entity_kind_has_a_builder():
    for cls in (E.RevoluteJoint, E.FixedJoint, E.GearPair, E.Torque, E.SpeedMotor, E.SpringDamper,
                E.TorsionalSpringDamper, E.BearingSpringDamper, E.CompliantMesh):
        assert cls in BUILDERS, cls.__name__


@dataclasses.dataclass(frozen=True)
class Drag:
    """A viscous drag on a revolute joint: a force entity the system was never told about."""

    name: str
    joint: str
    damping: float


class DragElement(ForceElement):
    def __init__(self, name, geometry, damping):
        self.name, self.g, self.c = name, geometry, damping

    def apply(self, t, s, loads, out):
        _, ri, _, _ = s.pose(self.g.bi)
        a = ri @ self.g.ai
        rate = self.g.relative_speed(s)
        loads.torque(self.g.bj, -self.c * rate * a)
        loads.torque(self.g.bi, self.c * rate * a)
        loads.dissipation += self.c * rate * rate
        if out is not None:
            out.add(self.name, "torque", "N m", -self.c * rate, "force", "drag torque on body j")


def test_a_new_force_element_is_one_class_and_one_builder():
    builds(Drag)(lambda system, f: DragElement(f.name, system.geometry[f.joint], f.damping))
    try:
        with_drag = load(EXAMPLES / "helical_pair.gdyn")
        with_drag.forces["drag"] = Drag("drag", "gear1_joint", 1e-4)
        with_spring = load(EXAMPLES / "helical_pair.gdyn")
        AddItem(E.TorsionalSpringDamper("drag", "gear1_joint", stiffness=0.0, damping=1e-4)).do(with_spring)
        a, b = assemble(with_drag, "cartesian"), assemble(with_spring, "cartesian")
        y = a.consistent_initial_state()[0]
        # the same equations as the built-in torsional damper with no stiffness (its angle state aside)
        np.testing.assert_allclose(a.evaluate(0.0, y), b.evaluate(0.0, y), rtol=1e-13, atol=1e-15)
        assert a.channels(0.0, y)["drag.torque [N m]"] == pytest.approx(-1e-4 * 100.0)
    finally:
        del BUILDERS[Drag]


def test_an_entity_without_a_builder_is_named():
    model = load(EXAMPLES / "helical_pair.gdyn")
    with pytest.raises(TypeError, match="drag: no solver element is registered for a Drag"):
        build(assemble(model, "cartesian"), Drag("drag", "gear1_joint", 1.0))
    with pytest.raises(ValueError, match="already has a builder"):
        builds(E.Torque)(lambda system, f: None)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gdyn")), ids=lambda p: p.stem)
def test_revolute_rows_are_the_derivatives_of_the_joint_errors_along_the_motion(path):
    # RevoluteRows (every revolute joint at once, as the Cartesian Jacobian takes them) against the joint's
    # definition written here: phi = the point gap and the two axis dot products; J v = d phi / dt and
    # gamma = -d^2 phi / dt^2 along a rigid motion at the current speeds, by central differences
    from core.dynamics.constraints import RevoluteConstraint, RevoluteRows, Snapshot
    from core.geometry.rotations import axis_angle_matrix

    system = assemble(load(path), "cartesian")
    sp = system.space
    joints = [c for c in system.constraints if type(c) is RevoluteConstraint]
    assert joints
    rows = RevoluteRows(joints)
    rng = np.random.default_rng(5)

    def errors(s, g):
        _, ri, _, _ = s.pose(g.bi)
        xi = s.pose(g.bi)[0]
        xj, rj, _, _ = s.pose(g.bj)
        a = rj @ g.aj
        return np.concatenate([(xi + ri @ g.si) - (xj + rj @ g.sj), [(ri @ g.bi1) @ a, (ri @ g.bi2) @ a]])

    for _ in range(5):
        y = system.initial_state()
        y[sp.x] += rng.normal(size=y[sp.x].shape) * 1e-3
        q = y[sp.q].reshape(-1, 4) + rng.normal(size=(system.n, 4)) * 0.3
        y[sp.q] = (q / np.linalg.norm(q, axis=1, keepdims=True)).ravel()
        y[sp.v] = rng.normal(size=y[sp.v].shape)
        y[sp.w] = rng.normal(size=y[sp.w].shape) * 5.0
        s = system.snapshot(y)

        def moved(dt):
            turn = np.array([axis_angle_matrix(dt * w) for w in s.w])
            return Snapshot(s.x + dt * s.v, turn @ s.rot, s.v, s.w, s.extra)

        bi, bj, jac_i, jac_j, gamma, phi = rows.evaluate(s)
        vel = np.hstack([s.v, s.w])
        for k, c in enumerate(joints):
            g = c.g
            assert (bi[k], bj[k]) == (g.bi, g.bj)
            np.testing.assert_allclose(phi[k], errors(s, g), rtol=0, atol=1e-15)
            jv = sum(jac @ vel[b] for b, jac in ((g.bi, jac_i[k]), (g.bj, jac_j[k])) if b >= 0)
            eps = 1e-6
            rate = (errors(moved(eps), g) - errors(moved(-eps), g)) / (2 * eps)
            np.testing.assert_allclose(jv, rate, rtol=0, atol=1e-7 * max(1.0, np.abs(rate).max()))
            eps = 1e-4
            second = (errors(moved(eps), g) - 2 * errors(s, g) + errors(moved(-eps), g)) / eps**2
            np.testing.assert_allclose(gamma[k], -second, rtol=0, atol=1e-5 * max(1.0, np.abs(second).max()))
            # the joint's own evaluate is the same formula for it alone
            ((b1, j1, _), (b2, j2, _)), gam, ph = c.evaluate(s)
            assert (b1, b2) == (g.bi, g.bj)
            np.testing.assert_array_equal(gam, gamma[k])
            np.testing.assert_array_equal(j1, jac_i[k])
