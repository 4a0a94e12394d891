"""A time law that steps (kind 'step'): no integration step straddles it. The run ends a stretch of steps just
before the law's t_start and starts the next at it; a motor's speed that steps there is an impulse, the speeds
projected onto the new law. Checked against the closed forms of the helical pair (z 20 / 40)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.dynamics.run import prepare
from core.model.entities import SpeedMotor, TimeLaw, Torque
from core.model.files import load
from tests.conftest import EXAMPLES

RUNS = [("rk4", {}), ("dop853", {"rtol": 1e-8}), ("generalized_alpha", {})]


def _pair(formulation="joint"):
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.settings = dataclasses.replace(model.settings, formulation=formulation)
    return model


@pytest.mark.parametrize("integrator, options", RUNS)
@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_motor_speed_that_steps_turns_the_gear_at_once_and_holds_the_load(integrator, options, formulation):
    """gear 1 held still, then at 100 rad/s from 0.5 s against 10 N m on gear 2: its motor's torque is the load
    through the pair, 10 z1 / z2 = 5 N m, before and after. It failed at 0.5 s with 'constraint drift ... motor
    angle error of 'drive' is 0.0167 rad; a smaller settings.step ...': the step's last stage saw the new speed."""
    model = _pair(formulation)
    model.forces["drive"] = SpeedMotor("drive", "gear1_joint", TimeLaw(kind="step", value=0.0, final=100.0,
                                                                        t_start=0.5))
    model.forces["load"] = Torque("load", "gear2_joint", TimeLaw(value=10.0))
    res = prepare(model, integrator=integrator, **options).run()
    assert res.status == "finished", res.message
    t, w = res.time, res["gear1_joint.speed [rad/s]"]
    np.testing.assert_allclose(w[t < 0.5], 0.0, atol=1e-9)
    np.testing.assert_allclose(w[t >= 0.5], 100.0, atol=1e-9)
    np.testing.assert_allclose(res["drive.torque [N m]"], 5.0, atol=1e-6)
    steps = [(te, name, note) for te, name, note in res.events if name == "drive"]
    assert len(steps) == 1 and steps[0][0] == 0.5
    assert "steps from 0 to 100 rad/s" in steps[0][2] and "gear1" in steps[0][2]


@pytest.mark.parametrize("integrator, options", RUNS)
def test_a_torque_that_steps_between_two_steps_accelerates_from_its_t_start_exactly(integrator, options):
    """A free pair (both at rest), 2 N m on gear 1 from 0.5004 s, inside an RK4 step of 1 ms: the speed of gear 1
    is 0, then 2 (t - 0.5004) / (J1 + J2 (z1 / z2)^2). RK4 erred by 0.23 of a step's change across the step."""
    model = _pair()
    for name, body in model.bodies.items():
        model.bodies[name] = dataclasses.replace(body, angular_velocity=(0.0, 0.0, 0.0))
    model.forces["push"] = Torque("push", "gear1_joint", TimeLaw(kind="step", value=0.0, final=2.0,
                                                                  t_start=0.5004))
    j = model.bodies["gear1"].inertia[2][2] + model.bodies["gear2"].inertia[2][2] * (20 / 40) ** 2
    res = prepare(model, integrator=integrator, **options).run()
    assert res.status == "finished", res.message
    t, w = res.time, res["gear1_joint.speed [rad/s]"]
    exact = 2.0 * np.clip(t - 0.5004, 0.0, None) / j
    np.testing.assert_allclose(w, exact, rtol=0, atol=1e-9 * exact.max())
    assert [(te, name) for te, name, _ in res.events] == [(0.5004, "push")]


@pytest.mark.parametrize("integrator", ["dopri5", "rk4"])
def test_a_load_that_steps_past_what_a_stuck_lossy_gear_holds_starts_it_at_the_step_once(integrator):
    """Demo 3 sticks at 0.02 s and holds -2.5 to 2.5 N m at rest; 5 N m on gear 2 from 0.5 s starts it forwards,
    gear 2 driving, at 0.5 s. The step straddled by an integration step gave three events about it: 'starts
    forwards: 0 N m to hold ... gear 1 drives' at 0.4999999999999992 s (before the load had stepped), then two
    flows. The speed grows linearly from the step on (constant torque and losses)."""
    model = load(EXAMPLES / "lossy_gear_demo3.gdyn")
    model.forces["load"] = Torque("load", "output_joint", TimeLaw(kind="step", value=0.0, final=5.0, t_start=0.5))
    res = prepare(model, integrator=integrator).run()
    assert res.status == "finished", res.message
    after = [(te, name) for te, name, _ in res.events if te > 0.02]
    assert after == [(0.5, "load"), (0.5, "gear: stop")]
    assert res.events[-1][2].startswith("starts forwards") and res.events[-1][2].endswith("gear 2 drives")
    t, w = res.time, res["gear.w_a [rad/s]"]
    assert np.abs(w[(t > 0.02 + 1e-9) & (t < 0.5)]).max() < 1e-9
    rolling = t >= 0.5
    slope = np.polyfit(t[rolling], w[rolling], 1)
    np.testing.assert_allclose(w[rolling], np.polyval(slope, t[rolling]), atol=1e-9 * abs(w).max())
    assert abs(np.polyval(slope, 0.5)) < 1e-9 * abs(w).max()


@pytest.mark.parametrize("law", [TimeLaw(kind="ramp", value=0.0, final=100.0, t_start=0.5, t_end=0.5001),
                                 TimeLaw(kind="table", table=((0.0, 0.0), (0.5, 0.0), (0.5001, 100.0)))],
                         ids=["ramp", "table"])
@pytest.mark.parametrize("integrator", ["rk4", "dop853"])
def test_a_motor_speed_ramped_within_a_step_follows_its_law(law, integrator):
    """gear 1 from 0 to 100 rad/s over 0.1 ms from 0.5 s, inside one 1 ms RK4 step: it failed at 0.501 s ('motor
    angle error of 'drive' is 0.0823 rad'). The law's corners end the stretches as its steps do; its speed is
    then the law's at every sample, and the corners, where nothing jumps, are not events."""
    model = _pair()
    model.forces["drive"] = SpeedMotor("drive", "gear1_joint", law)
    model.forces["load"] = Torque("load", "gear2_joint", TimeLaw(value=10.0))
    res = prepare(model, integrator=integrator).run()
    assert res.status == "finished", res.message
    t, w = res.time, res["gear1_joint.speed [rad/s]"]
    np.testing.assert_allclose(w, [law(x) for x in t], rtol=0, atol=1e-9)
    assert res.events == []
