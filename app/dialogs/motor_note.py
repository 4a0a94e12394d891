"""What a speed motor's law does at the start: its joint's speed there against the law's first value."""

from __future__ import annotations

import math

from core.model.entities import RevoluteJoint
from core.ranges import spin


def motor_note(model, motor) -> str:
    """One line on SpeedMotor `motor` of `model` ('' when its joint is not a revolute joint of the model)."""
    if not isinstance(model.joints.get(motor.joint), RevoluteJoint):  # the model's checks say why
        return ""
    start, law = model.start_speed(motor.joint), motor.law(0.0)
    text = f"{motor.joint} turns at {spin(start)} at the start"
    if math.isclose(start, law, rel_tol=1e-9, abs_tol=1e-12):
        return text + "; the law keeps that speed at t = 0"
    return (text + f"; the law starts at {spin(law)}: the run changes the start speeds to agree with it "
                   "(its notes say by how much)")
