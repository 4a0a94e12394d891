"""What a joint's law does, said under its entries: which way a torque turns, and a speed motor's law against its
joint's speed at the start."""

from __future__ import annotations

import math

from core.model.entities import RevoluteJoint
from core.ranges import spin


def _joint(model, item) -> RevoluteJoint | None:
    """The revolute joint `item` acts on, or None (a name the model's checks refuse)."""
    joint = model.joints.get(item.joint)
    return joint if isinstance(joint, RevoluteJoint) else None


def torque_note(model, torque) -> str:
    """Which way Torque `torque` of `model` turns its gear ('' when its joint is not a revolute joint)."""
    joint = _joint(model, torque)
    if joint is None:
        return ""
    axis = ", ".join(f"{v + 0.0:.4g}" for v in joint.unit_axis())
    zero = "; as entered its law is 0 at every time: it loads nothing" if torque.law.is_zero() else ""
    return (f"a positive torque turns {joint.body_j} about {joint.name}'s axis ({axis}) by the right-hand rule; "
            f"{joint.body_i} takes the reaction{zero}")


def motor_note(model, motor) -> str:
    """One line on SpeedMotor `motor` of `model` ('' when its joint is not a revolute joint of the model)."""
    if _joint(model, motor) is None:  # the model's checks say why
        return ""
    start, law = model.start_speed(motor.joint), motor.law(0.0)
    text = f"{motor.joint} turns at {spin(start)} at the start"
    if math.isclose(start, law, rel_tol=1e-9, abs_tol=1e-12):
        return text + "; the law keeps that speed at t = 0"
    return (text + f"; the law starts at {spin(law)}: the run changes the start speeds to agree with it "
                   "(its notes say by how much)")
