"""What a joint's law does, said under its entries: which way a torque turns and what it does to the train's drive,
and a speed motor's law against its joint's speed at the start."""

from __future__ import annotations

import math

from core.analysis.train_ratio import drive, law_sense, referral, speed_ratio, steady_text
from core.model.entities import RevoluteJoint, SpeedMotor
from core.ranges import direction, spin


def _joint(model, item) -> RevoluteJoint | None:
    """The revolute joint `item` acts on, or None (a name the model's checks refuse)."""
    joint = model.joints.get(item.joint)
    return joint if isinstance(joint, RevoluteJoint) else None


def torque_note(model, torque) -> str:
    """Which way Torque `torque` of `model` turns its gear ('' when its joint is not a revolute joint)."""
    joint = _joint(model, torque)
    if joint is None:
        return ""
    axis = direction(joint.unit_axis())
    zero = "; as entered its law is 0 at every time: it loads nothing" if torque.law.is_zero() else ""
    referred = referred_note(model, torque)
    return (f"a positive torque turns {joint.body_j} about {joint.name}'s axis ({axis}) by the right-hand rule; "
            f"{joint.body_i} takes the reaction{zero}" + (f". {referred}" if referred else ""))


def referred_note(model, torque) -> str:
    """`torque` referred through the gear train to what drives it (core.analysis.train_ratio): how fast its joint
    turns per rad/s of the drive's, a constant torque's value there, and whether it turns the train the way the
    drive does or resists it; '' where the train does not tie the two joints to one motion."""
    source = drive(model, besides=torque)
    ratio = None if source is None else speed_ratio(model, torque.joint, source.joint)
    if not ratio:
        return ""
    text = f"Through the train {torque.joint} turns at {ratio:.4g} times {source.joint}'s speed"
    if torque.law.kind == "constant":
        text += f": {torque.law.value:.4g} N m here is {torque.law.value * ratio + 0.0:.4g} N m at {source.joint}"
    there = law_sense(source.law, model.settings.t_end)
    if not there:
        return text
    here, load = law_sense(torque.law, model.settings.t_end), "positive" if ratio * there < 0 else "negative"
    if here * ratio * there < 0:
        return text + f"; it resists {source.name}"
    if here:
        text += f"; it turns the train the way {source.name} does"
    return text + f" (a load resisting {source.name} is {load} here)"


def motor_note(model, motor) -> str:
    """One line on SpeedMotor `motor` of `model` ('' when its joint is not a revolute joint of the model)."""
    if _joint(model, motor) is None:  # the model's checks say why
        return ""
    start, law = model.start_speed(motor.joint), motor.law(0.0)
    text = f"{motor.joint} turns at {spin(start)} at the start"
    if math.isclose(start, law, rel_tol=1e-9, abs_tol=1e-12):
        text += "; the law keeps that speed at t = 0"
    else:
        text += (f"; the law starts at {spin(law)}: the run changes the start speeds to agree with it (its notes "
                 "say by how much)")
    return text + held_against(model, motor)


def held_against(model, motor) -> str:
    """What the loads come to at a driving motor's joint through the train, and so the motor's torque in steady
    running, with the gear pairs' losses where they have them (core.analysis.train_ratio): '' for a hold (a law
    of 0), beside another driving motor, or where a torque is not tied to its joint or none is."""
    others = [f for f in model.forces.values() if isinstance(f, SpeedMotor) and f.name != motor.name
              and not f.law.is_zero()]
    found = None if motor.law.is_zero() or others else referral(model, motor)
    if found is None or found.untied:  # a torque off the train: the motor's share of it is not known here
        return ""
    return (f". The torques referred to {motor.joint} through the train come to {found.net:.4g} N m (their means "
            f"over the run): in steady running the motor's torque is {steady_text(found)}")
