"""The element registry: every kind of model item has an element, and a new element is one class in one file
with its one registration, which then runs compiled in both formulations.

The new element is tests/core/dynamics/drag_element.py (a viscous drag on a revolute joint). On the planetary
set with the ring held, a drag c on the sun's joint and a constant torque T on it give the sun the first-order
law J w' = T - c w, J the set's inertia referred to the sun (the energy method, written here), so
w(t) = (T / c) (1 - exp(-c t / J)): the reference the runs are held to.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import sys

import numpy as np
import pytest

from core.commands import AddItem
from core.dynamics.elements.base import BUILDERS, REGISTRY, Element, kind_of, unregister
from core.dynamics.run import prepare
from core.model import entities as E
from core.model.files import dumps, load, loads
from core.model.kinds import KINDS, tools
from tests.conftest import EXAMPLES

BUILT_IN = (E.RevoluteJoint, E.FixedJoint, E.GearPair, E.Torque, E.SpeedMotor, E.SpringDamper,
            E.TorsionalSpringDamper, E.BearingSpringDamper, E.CompliantMesh)


def test_every_kind_of_item_has_an_element():
    for cls in BUILT_IN:
        assert BUILDERS.get(cls), cls.__name__
    pair = load(EXAMPLES / "planetary.gdyn").gear_pairs["sun_planet1"]
    assert kind_of(pair).__name__ == "GearPairElement"
    assert kind_of(dataclasses.replace(pair, efficiency=0.9)).__name__ == "LossyGearPairElement"


def test_an_item_without_an_element_is_named():
    @dataclasses.dataclass(frozen=True)
    class Unknown:
        name: str

    with pytest.raises(TypeError, match="thing: no element is registered for a Unknown"):
        kind_of(Unknown("thing"))


@pytest.fixture(scope="module")
def drag():
    """The drag element registered (its module imported), and taken out again after the tests."""
    name = "tests.core.dynamics.drag_element"
    module = importlib.reload(sys.modules[name]) if name in sys.modules else importlib.import_module(name)
    yield module
    unregister(module.DragElement)


def planetary_inertia(model) -> float:
    """The planetary set's inertia referred to the sun with the ring held [kg m^2] (kinetic energy = J w_s^2 / 2):
    the carrier turns at w_s zs / (zs + zr), a planet at w_c - (zs / zp)(w_s - w_c) with its centre at a w_c."""
    b = model.bodies
    zs, zp, zr = 24, 24, 72
    a = 0.002 * (zs + zp) / 2
    kc = zs / (zs + zr)
    kp = kc - (zs / zp) * (1 - kc)
    izz = {k: b[k].inertia[2][2] for k in b}
    return izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                     for k in (1, 2, 3))


def test_a_new_element_is_one_class_in_one_file_and_one_registration(drag):
    classes = [c for _, c in inspect.getmembers(drag, inspect.isclass) if issubclass(c, Element) and c is not Element]
    assert classes == [drag.DragElement]
    assert drag.DragElement in REGISTRY and BUILDERS[drag.Drag] == [drag.DragElement]
    # the registration registered the entity with the model too: its file tag and the app's tool entry
    assert KINDS[drag.Drag].tag == "drag" and "Drag" in [k.label for k in tools("forces")]
    model = load(EXAMPLES / "planetary.gdyn")
    AddItem(drag.Drag("drag", "sun_joint", 0.01)).do(model)
    assert loads(dumps(model)).forces["drag"] == drag.Drag("drag", "sun_joint", 0.01)


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_the_new_element_runs_compiled_in_both_formulations_against_the_closed_form(drag, formulation):
    model = load(EXAMPLES / "planetary.gdyn")
    j, torque = planetary_inertia(model), model.forces["sun_torque"].law.value
    c = j / 0.2  # a time constant of 0.2 s
    AddItem(drag.Drag("drag", "sun_joint", c)).do(model)
    run = prepare(model, t_end=0.4, step=2e-4, output_step=0.05, integrator="rk4", formulation=formulation,
                  compiled="on")
    assert run.plan.compiled and run.plan.formulation == formulation
    if formulation == "joint":  # the drag's port is the joint's spin: constant in the coordinates
        assert run.plan.rates == "constant matrices"
    res = run.run()
    assert res.status == "finished", res.message
    expected = torque / c * (1.0 - np.exp(-c * res.time / j))
    np.testing.assert_allclose(res["sun_joint.speed [rad/s]"], expected, rtol=0, atol=1e-7 * expected.max())
    np.testing.assert_allclose(res["drag.torque [N m]"], -c * expected, rtol=0, atol=1e-7 * c * expected.max())
    # the energy the drag takes: work in = kinetic + dissipated, and dissipated = integral of c w^2
    kinetic, work, lost = (res[f"energy.{q}"] for q in ("kinetic", "work", "dissipated"))
    np.testing.assert_allclose(work - kinetic - lost, 0.0, atol=1e-7 * work[-1])
    w, s = torque / c, res.time
    tau = j / c
    lost_exact = c * w**2 * (s - 2 * tau * (1 - np.exp(-s / tau)) + tau / 2 * (1 - np.exp(-2 * s / tau)))
    np.testing.assert_allclose(lost, lost_exact, rtol=0, atol=1e-7 * lost_exact.max())


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_spring_damper_in_the_planetary_stays_compiled_and_changes_nothing_when_idle(formulation):
    # a linear spring-damper with neither stiffness nor damping, from a carrier point to the ground: compiled, and
    # the run that of the planetary without it
    model = load(EXAMPLES / "planetary.gdyn")
    plain = prepare(model, t_end=0.2, step=2e-4, output_step=0.05, formulation=formulation, compiled="on").run()
    AddItem(E.SpringDamper("idle", "carrier", E.GROUND, (0.03, 0.0, 0.0), (0.03, 0.5, 0.0))).do(model)
    run = prepare(model, t_end=0.2, step=2e-4, output_step=0.05, formulation=formulation, compiled="on")
    assert run.plan.compiled
    res = run.run()
    assert res.status == plain.status == "finished"
    largest = {}  # each channel to round-off of the largest channel of its unit (a zero reaction is noise)
    for c in plain.channels:
        largest[c.unit] = max(largest.get(c.unit, 0.0), float(np.abs(plain[c.name]).max()))
    for c in plain.channels:
        scale = max(largest[c.unit], 1e-3)
        np.testing.assert_allclose(res[c.name], plain[c.name], rtol=0, atol=1e-12 * scale, err_msg=c.name)


def test_a_spring_damper_gives_the_same_motion_in_both_formulations():
    # a damper from a carrier point to a ground point far along the tangent: two independent evaluations of its
    # geometry (bodies from Cartesian states, and from the joint tree's kinematics) must give the same motion
    model = load(EXAMPLES / "planetary.gdyn")
    AddItem(E.SpringDamper("damper", "carrier", E.GROUND, (0.024, 0.0, 0.0), (0.024, 2.0, 0.0), damping=0.5)).do(model)
    runs = {f: prepare(model, t_end=0.3, step=2e-4, output_step=0.1, formulation=f, compiled="on").run()
            for f in ("joint", "cartesian")}
    assert all(r.status == "finished" for r in runs.values())
    speed = [r["carrier.wz [rad/s]"] for r in runs.values()]
    force = [r["damper.force [N]"] for r in runs.values()]
    np.testing.assert_allclose(speed[0], speed[1], rtol=0, atol=1e-6 * np.abs(speed[1]).max())
    np.testing.assert_allclose(force[0], force[1], rtol=0, atol=1e-6 * np.abs(force[1]).max())
    # and the damper slows the carrier: it ends below the undamped carrier's speed
    free = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.3, step=2e-4, output_step=0.1).run()
    assert speed[0][-1] < free["carrier.wz [rad/s]"][-1] and abs(force[0][-1]) > 0.0
    assert math.isfinite(force[0][-1])
