"""Lossy pairs whose motions the rigid rows tie together (one pinion driving two gears, the meshes of a planetary
set) stick and roll as one: while one is stuck, all are.

Reference: a pinion meshing two identical gears, each pair with Modelica's LossyGearDemo3 losses and each gear
with its own load, moves as the single pair of the demo whose output has twice the inertia, twice the load and
twice the bearing friction (the same efficiencies): the pairs are alike, so each takes half of the torques.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.dynamics.run import prepare
from core.model.entities import TimeLaw, Torque
from core.model.files import load
from core.model.files import load as load_file
from tests.conftest import EXAMPLES

LOAD = TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.5, t_end=1.0)


def _demo3():
    model = load(EXAMPLES / "lossy_gear_demo3.gdyn")
    model.settings = dataclasses.replace(model.settings, t_end=0.8)
    return model


def _two_gears(formulation: str):
    """The demo's pinion with a second output gear mirrored across it, each output with LOAD."""
    model = _demo3()
    out, joint, pair = model.bodies["output"], model.joints["output_joint"], model.gear_pairs["gear"]
    model.bodies["output_b"] = dataclasses.replace(out, name="output_b", position=(-0.1, 0.0, 0.0))
    model.joints["output_b_joint"] = dataclasses.replace(joint, name="output_b_joint", body_j="output_b",
                                                         position=(-0.1, 0.0, 0.0))
    model.gear_pairs["gear_b"] = dataclasses.replace(pair, name="gear_b", joint2="output_b_joint")
    model.forces["load"] = Torque("load", "output_joint", LOAD)
    model.forces["load_b"] = Torque("load_b", "output_b_joint", LOAD)
    model.settings = dataclasses.replace(model.settings, formulation=formulation)
    return model


def _one_gear_for_two():
    model = _demo3()
    out = model.bodies["output"]
    model.bodies["output"] = dataclasses.replace(out, mass=2 * out.mass,
                                                 inertia=tuple(tuple(2 * v for v in row) for row in out.inertia))
    pair = model.gear_pairs["gear"]
    table = tuple((w, e1, e2, 2 * f1, 2 * f2) for w, e1, e2, f1, f2 in pair.loss_table)
    model.gear_pairs["gear"] = dataclasses.replace(pair, loss_table=table)
    model.forces["load"] = Torque("load", "output_joint", dataclasses.replace(LOAD, final=2 * LOAD.final))
    return model


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_pinion_driving_two_lossy_gears_sticks_and_breaks_away_as_one_pair_of_twice_the_friction(formulation):
    reference = prepare(_one_gear_for_two()).run()
    res = prepare(_two_gears(formulation)).run()
    assert reference.status == "finished" and res.status == "finished", (reference.message, res.message)
    modes = [(t, note.split(":")[0]) for t, name, note in reference.events if name == "gear: stop"]
    assert [m for _, m in modes] == ["stuck", "starts forwards"], reference.events
    # a member's driving side as the set would roll is an event too (its losses at rest change with it)
    switches = sorted((t, note.split(":")[0]) for t, n, note in res.events
                      if n.startswith("gear") and not note.startswith("at rest with its set"))
    assert [m for _, m in switches] == [m for _, m in modes], res.events  # one event switches both pairs
    np.testing.assert_allclose([t for t, _ in switches], [t for t, _ in modes], rtol=0, atol=1e-9)
    for name in ("gear", "gear_b"):
        np.testing.assert_allclose(res[f"{name}.mode [1]"], reference["gear.mode [1]"])
    w = reference["input_joint.speed [rad/s]"]
    scale = np.abs(w).max()
    np.testing.assert_allclose(res["input_joint.speed [rad/s]"], w, rtol=0, atol=1e-8 * scale)
    for joint in ("output_joint", "output_b_joint"):
        np.testing.assert_allclose(res[f"{joint}.speed [rad/s]"], reference["output_joint.speed [rad/s]"],
                                   rtol=0, atol=1e-8 * scale)


#: the planetary example's sun, planets and ring (teeth), its meshes' efficiency, and the load on its carrier [N m]
Z_SUN, Z_RING, ETA, CARRIER_LOAD = 24, 72, 0.95, 1.0
#: the sun torque that starts the set forwards against CARRIER_LOAD, and below which that load drives it backwards
#: [N m]:
#: Willis's torques with the stationary-carrier efficiency eta0 = ETA^2 (sun and ring meshes in series) in the
#: carrier's frame, where power flows from the sun to the held ring forwards and back the other way
#: (H. W. Mueller, Epicyclic Drive Trains, 1982: T_carrier = -T_sun (1 + eta0^(+-1) z_ring / z_sun))
T_FORWARD = CARRIER_LOAD / (1 + ETA ** 2 * Z_RING / Z_SUN)
T_BACKWARD = CARRIER_LOAD / (1 + Z_RING / (ETA ** 2 * Z_SUN))
#: the sun torque over time (t [s], N m): within the band at rest, up through T_FORWARD, back into the band (the set
#: rolls, slows and sticks), then down through T_BACKWARD
SUN = ((0.0, 0.24), (0.1, 0.3), (0.12, 0.24), (0.3, 0.24), (0.4, 0.2))


def _lossy_planetary(formulation: str, sun: TimeLaw, load: float = CARRIER_LOAD, bearing_friction: float = 0.0):
    """The planetary example (at rest, its ring held by a motor at 0 rad/s) with every mesh at ETA, `sun` on the
    sun and -`load` on the carrier."""
    model = load_file(EXAMPLES / "planetary.gdyn")
    for pair in list(model.gear_pairs.values()):
        model.gear_pairs[pair.name] = dataclasses.replace(pair, efficiency=ETA, bearing_friction=bearing_friction)
    model.forces["sun_torque"] = Torque("sun_torque", "sun_joint", sun)
    model.forces["load"] = Torque("load", "carrier_joint", TimeLaw(value=-load))
    model.settings = dataclasses.replace(model.settings, t_end=0.5, formulation=formulation)
    return model


def _crossing(level: float, t0: float, t1: float) -> float:
    """When the sun torque passes `level` [N m] on SUN's straight stretch from t0 to t1 [s]."""
    v0, v1 = (dict(SUN)[t] for t in (t0, t1))
    return t0 + (t1 - t0) * (level - v0) / (v1 - v0)


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_lossy_planetary_breaks_away_where_willis_efficiency_says_both_ways(formulation):
    """The six meshes differ (sun and ring meshes in series, three planets in parallel) and their locks repeat one
    another: what each holds at rest is not determined, only the set's break-away is. Before, GearDyn split the
    held torque by least squares and the run failed ("the set rolling forwards would slow") or was refused."""
    run = prepare(_lossy_planetary(formulation, TimeLaw(kind="table", table=SUN)))
    assert [f.split(":")[0] for f in run.results.findings] == ["sun_planet1 starts stuck"], run.results.findings
    res = run.run()
    assert res.status == "finished", res.message
    starts = [(t, note.split(":")[0]) for t, _, note in res.events if note.startswith("starts")]
    assert [way for _, way in starts] == ["starts forwards", "starts backwards"], res.events
    hand = [_crossing(T_FORWARD, 0.0, 0.1), _crossing(T_BACKWARD, 0.3, 0.4)]
    np.testing.assert_allclose([t for t, _ in starts], hand, rtol=0, atol=1e-9)
    stops = [t for t, _, note in res.events if note.startswith("stuck")]
    assert len(stops) >= 1 and starts[0][0] < stops[-1] < starts[1][0]  # the forward roll slowed and stuck
    carrier = res["carrier_joint.speed [rad/s]"]
    rest = (res.time < starts[0][0]) | ((res.time > stops[-1]) & (res.time < starts[1][0]))
    np.testing.assert_allclose(carrier[rest], 0.0, atol=1e-9)
    assert carrier[(res.time > starts[0][0]) & (res.time < stops[-1])].min() > 0.0
    assert carrier[res.time > starts[1][0]].max() < 0.0
    for pair in model_pairs(res):  # each turns its own way relative to the carrier: +-1 as sun_planet1 or against
        mode = res[f"{pair}.mode [1]"]
        np.testing.assert_array_equal(mode[rest], 0.0)
        forwards = set(mode[(res.time > starts[0][0] + 1e-3) & (res.time < stops[-1] - 1e-3)])
        assert len(forwards) == 1 and forwards.pop() in (1.0, -1.0)
        assert set(mode[res.time > starts[1][0] + 1e-3]) == {-mode[res.time > starts[0][0]][0]}
    assert res["sun_planet1.mode [1]"][-1] == -1.0
    work, kinetic, lost = (res[f"energy.{q}"] for q in ("work [J]", "kinetic [J]", "dissipated [J]"))
    scale = np.abs(work).max()
    assert np.abs(work - kinetic - lost).max() <= 1e-6 * scale and lost.min() >= -1e-9 * scale


def test_a_lossy_planetary_pushed_past_its_limit_at_the_start_starts_rolling():
    """Above T_FORWARD from rest it rolls at once: prepare() refused this model before (the least-squares split put
    one pair past its limit while the set, by that split, still held)."""
    res = prepare(_lossy_planetary("joint", TimeLaw(value=1.05 * T_FORWARD))).run()
    assert res.status == "finished" and not res.events, (res.message, res.events)
    for pair in model_pairs(res):
        assert set(res[f"{pair}.mode [1]"]) in ({1.0}, {-1.0})
    assert set(res["sun_planet1.mode [1]"]) == {1.0}
    assert np.all(np.diff(res["carrier_joint.speed [rad/s]"]) > 0.0)


@pytest.mark.parametrize("bearing_friction", [0.0, 0.05])
def test_a_lossy_planetary_at_rest_with_nothing_to_hold_stays_stuck_without_an_event(bearing_friction):
    """No torque at all: the set's torque is zero to round-off, which must not switch the way its members' losses
    are taken at every step."""
    res = prepare(_lossy_planetary("cartesian", TimeLaw(value=0.0), load=0.0, bearing_friction=bearing_friction),
                  t_end=0.1).run()
    assert res.status == "finished" and not res.events, (res.message, res.events)
    np.testing.assert_allclose(res["carrier_joint.speed [rad/s]"], 0.0, atol=1e-12)


def model_pairs(res):
    return [c.name.split(".")[0] for c in res.channels if c.name.endswith(".mode")]
