"""A compound shaft held twice, and the edit that holds it once.

A shaft (body A on revolute joint J_A) with a second gear B welded to it that also sits on a revolute joint of its
own, J_B, coaxial with J_A and on the same body, is held twice: the loop J_A, weld, J_B leaves the bearing
loads undetermined. Holding it once drops J_B: the pairs on J_B turn on J_A and name B as the body that carries
their teeth (gear1/gear2), and the loads on J_B act through J_A (the same axis, the same direction, the same
bodies: the same torque on the same piece).
"""

from __future__ import annotations

from core.commands import Command, Macro, RemoveItem, replace_fields
from core.errors import ModelError
from core.gearing.gear_bodies import on_one_line
from core.model.entities import GROUND, FixedJoint, RevoluteJoint
from core.model.model import Model


def double_hold(model: Model, weld: str) -> tuple[str, str] | None:
    """(J_A, J_B) when fixed joint `weld` welds B to A and each has a revolute joint of its own on one line, in one
    direction, from one body; else None."""
    w = model.joints.get(weld)
    if not isinstance(w, FixedJoint) or GROUND in (w.body_i, w.body_j):
        return None
    on = [[j for j in model.joints.values() if isinstance(j, RevoluteJoint) and j.body_j == b]
          for b in (w.body_i, w.body_j)]
    if any(len(found) != 1 for found in on):
        return None
    (ja,), (jb,) = on
    return (ja.name, jb.name) if ja.body_i == jb.body_i and on_one_line(ja, jb, same_direction=True) else None


def hold_once(model: Model, weld: str) -> Command:
    """The edit that holds the shaft of `weld` by its first joint alone (see the module docstring); raises
    ModelError when the weld does not hold a shaft twice."""
    joints = double_hold(model, weld)
    if joints is None:
        raise ModelError(weld, "does not weld two bodies that each turn on a revolute joint of one axis")
    keep, drop = joints
    gear = model.joints[drop].body_j
    trial = model.copy()
    commands: list[Command] = []
    for pair in list(trial.gear_pairs.values()):
        for k in (1, 2):
            if getattr(pair, f"joint{k}") == drop:
                commands.append(replace_fields(trial, pair.name, **{f"joint{k}": keep, f"gear{k}": gear}))
                commands[-1].do(trial)
                pair = trial.gear_pairs[pair.name]
    for item in list(trial.forces.values()):
        moved = {f: keep for f, kind in getattr(type(item), "REFERENCE_FIELDS", {}).items()
                 if kind == "revolute" and getattr(item, f) == drop}
        if moved:
            commands.append(replace_fields(trial, item.name, **moved))
            commands[-1].do(trial)
    commands.append(RemoveItem(trial, drop))
    return Macro(f"Hold {gear} by {keep} alone", commands)
