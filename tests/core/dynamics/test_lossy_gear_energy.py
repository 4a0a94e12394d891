"""A lossy gear never creates energy: random loss tables (efficiencies near 0, tables rising with speed), the
power-balance guard, and the mode cases that used to loop or gain energy (issue 32's reproducers).

The balance is the energy channels' own: the work fed in [J] equals the kinetic energy gained plus what the
losses took, and what the losses took never falls below zero. Modelica's LossyGearDemo1 (ratio 2, J 1 and
1.5 kg m^2, 10 sin(2 pi t) N m in, -10 + 2.5 t N m out) under each table.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.commands import AddItem, replace_fields
from core.dynamics.run import prepare
from core.model.entities import SpeedMotor, TimeLaw, Torque
from core.model.files import load
from tests.conftest import EXAMPLES

efficiency = st.one_of(st.floats(min_value=1e-9, max_value=1e-3), st.floats(min_value=1e-3, max_value=1.0))
friction = st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=3.0))


@st.composite
def loss_tables(draw):
    """1 to 3 rows ordered by speed; each efficiency anywhere in (0, 1], near 0 as well."""
    n = draw(st.integers(1, 3))
    speeds = sorted(draw(st.lists(st.floats(min_value=0.0, max_value=20.0), min_size=n, max_size=n, unique=True)))
    return tuple((w, draw(efficiency), draw(efficiency), draw(friction), draw(friction)) for w in speeds)


def balance(res, pair="gear"):
    """(largest |work - kinetic - dissipated| [J], smallest dissipated [J], smallest loss power [W], the work's
    scale [J])."""
    kinetic, work, lost = (res[f"energy.{q}"] for q in ("kinetic", "work", "dissipated"))
    scale = max(float(np.abs(work).max()), float(np.abs(kinetic).max()), 1e-6)  # 1 uJ: a pair that holds
    return (float(np.abs(work - kinetic - lost).max()), float(lost.min()), float(res[f"{pair}.loss_power [W]"].min()),
            scale)


def demo1_with(table):
    model = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    replace_fields(model, "gear", loss_table=table).do(model)
    return model


@settings(max_examples=15, deadline=None, derandomize=True)
@given(table=loss_tables())
def test_random_loss_tables_never_create_energy(table):
    res = prepare(demo1_with(table)).run()
    assert res.status == "finished", res.message
    residual, lost_min, power_min, scale = balance(res)
    assert residual <= 1e-4 * scale, table  # the energy channels' integration error (it falls with rtol)
    assert lost_min >= -1e-9 * scale and power_min >= -1e-9 * scale, table
    mode, w_a = res["gear.mode [1]"], res["gear.w_a [rad/s]"]
    assert not np.any(mode * w_a < -1e-9), "a pair rolling one way while its shaft turns the other"


def test_a_table_rising_with_speed_holds_its_last_row_and_creates_no_energy():
    # 0.90 at rest to 0.95 at 100 rad/s; extended linearly it passed 1 above 200 rad/s: the speed run here
    # reaches far beyond the last row
    table = ((0.0, 0.90, 0.90, 0.0, 0.0), (1.0, 0.95, 0.95, 0.0, 0.0))
    model = demo1_with(table)
    replace_fields(model, "load", law=TimeLaw(kind="constant", value=20.0)).do(model)
    res = prepare(model, t_end=2.0).run()
    assert res.status == "finished", res.message
    assert np.abs(res["gear.w_a [rad/s]"]).max() > 10.0  # ten times the last row's speed
    residual, lost_min, power_min, scale = balance(res)
    assert residual <= 1e-6 * scale and lost_min >= 0.0 and power_min >= -1e-9 * scale


def test_a_gear_of_tiny_efficiency_self_locks_instead_of_speeding_up():
    # efficiency 1e-9 both ways: once the input's torque is above 5e-9 N m, neither way of rolling is
    # consistent (each would need the other gear to drive) and the pair holds: it does not gain the 6.97 J
    # of kinetic energy the first mode logic gave it
    res = prepare(demo1_with(((0.0, 1e-9, 1e-9, 0.0, 0.0),))).run()
    assert res.status == "finished", res.message
    assert res["energy.kinetic [J]"].max() < 1e-12
    held = (res.time > 0.001) & (res.time < 0.45)  # the input's torque above 0.03 N m: far from the limits' close
    assert np.all(res["gear.mode [1]"][held] == 0)


def test_the_guard_fails_a_sample_whose_losses_give_power_back():
    run = prepare(load(EXAMPLES / "lossy_gear_demo1.gdyn"))
    pair = next(e for e in run.system.elements if e.name == "gear")
    values = run.system.sample(0.0, run.solver.y)[0].copy()
    at = pair.out0 + 4  # after the rigid pair's tooth forces: drift, mode, driving, loss power, tau_a, tau_b, w_a
    values[at + 3:at + 7] = (-0.5, 10.0, -20.0, 2.0)  # 0.5 W given back of 40 W through the pair
    assert "its losses give power back (-0.5 W of 40 W through the pair)" in pair.guard(values)
    values[at + 3] = -1e-12  # round-off of the power through it
    assert pair.guard(values) == ""


def test_demo3_sticking_as_its_load_steps_on_settles_within_seconds():
    # the load of 1 N m steps on at 0.02 s, when the pair comes to rest: the events repeated there forever
    model = load(EXAMPLES / "lossy_gear_demo3.gdyn")
    replace_fields(model, "load", law=TimeLaw(kind="step", value=0.0, final=1.0, t_start=0.02)).do(model)
    start = time.perf_counter()
    res = prepare(model, t_end=0.1).run()
    assert time.perf_counter() - start < 20.0
    assert res.status == "finished", res.message
    assert res.events[-1][1] == "gear: stop" and "stuck: it holds 1 N m" in res.events[-1][2]
    assert res["gear.mode [1]"][-1] == 0 and abs(res["gear.w_a [rad/s]"][-1]) < 1e-9


def test_the_planetary_with_every_pair_at_a_tiny_efficiency_finishes_within_seconds():
    model = load(EXAMPLES / "planetary.gdyn")
    for name in list(model.gear_pairs):
        replace_fields(model, name, efficiency=1e-9).do(model)
    start = time.perf_counter()
    res = prepare(model, t_end=0.5).run()
    assert time.perf_counter() - start < 30.0
    assert res.status == "finished", res.message
    residual, lost_min, _, scale = balance(res, "sun_planet1")
    # the set holds (it self-locks: each planet's spin would have to be driven by the ring, at k = 1 / eta = 1e9).
    # At rest its members stand with those losses, so the tooth forces' round-off is 1e9 times larger in the
    # energy channels' rates than the set's lossless split gave: 5e-10 J over 0.5 s, holding 1 N m
    assert res["energy.kinetic [J]"].max() < 1e-30
    assert residual <= 1e-3 * scale and lost_min >= -1e-9 * scale


def test_an_event_at_the_end_time_finishes_the_run():
    # demo 3 sticks at exactly 0.02 s: run to that time, the last event is the stop and the run finishes
    res = prepare(load(EXAMPLES / "lossy_gear_demo3.gdyn"), t_end=0.02).run()
    assert res.status == "finished", res.message
    assert res.events[-1][1] == "gear: stop" and res.time[-1] == 0.02


@pytest.mark.parametrize("torque, motor_power", [(-50.0, -2375.0), (50.0, 2500.0 / 0.95)])
def test_a_torques_power_channel_says_whether_it_drives_or_brakes_and_closes_the_power_balance(torque, motor_power):
    """A speed motor holds gear 1 (z 20) at 100 rad/s; gear 2 (z 40) turns at -50 rad/s; a torque on gear 2,
    efficiency 0.95. The torque's power is its torque times gear 2's speed: -50 N m drives (+2500 W, the motor
    takes 0.95 of it back), +50 N m brakes (-2500 W, the motor feeds 2500 / 0.95 W). At constant speeds the
    powers fed in sum to the pair's loss."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    replace_fields(model, "pair", efficiency=0.95).do(model)
    AddItem(SpeedMotor("motor", "gear1_joint", TimeLaw(value=100.0))).do(model)
    AddItem(Torque("load", "gear2_joint", TimeLaw(value=torque))).do(model)
    res = prepare(model, t_end=0.05, output_step=0.01).run()
    assert res.status == "finished", res.message
    assert res["gear2_joint.speed [rad/s]"] == pytest.approx(-50.0, rel=1e-9)
    assert res["load.power [W]"] == pytest.approx(-50.0 * torque, rel=1e-9)
    assert res["motor.power [W]"] == pytest.approx(motor_power, rel=1e-6)
    assert res["load.power [W]"] + res["motor.power [W]"] == pytest.approx(res["pair.loss_power [W]"], rel=1e-6)
