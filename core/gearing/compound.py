"""Compound shafts: a new stage on a shaft, and a shaft held twice with the edit that holds it once.

A stage on a shaft (`stage_on_shaft`) is what a multi-stage reducer is built of: the pinion of the next pair
welded to a shaft that already turns on its joint, beyond the shaft's gears along its axis, and the wheel on a
joint of its own, in mesh. The pair then names the welded pinion as the body that carries its teeth (gear1).

A shaft (body A on revolute joint J_A) with a second gear B welded to it that also sits on a revolute joint of its
own, J_B, coaxial with J_A and on the same body, is held twice: the loop J_A, weld, J_B leaves the bearing
loads undetermined. Holding it once drops J_B: the pairs on J_B turn on J_A and name B as the body that carries
their teeth (gear1/gear2), and the loads on J_B act through J_A (the same axis, the same direction, the same
bodies: the same torque on the same piece).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from core.commands import AddItem, Command, Macro, RemoveItem, replace_fields
from core.errors import ModelError
from core.gearing.gear_bodies import bevel_apex, on_one_line
from core.gearing.placement import across, place_gear2
from core.geometry.macro import bevel_geometry, center_distance
from core.geometry.rotations import orientation_for_axis
from core.model.builders import AXIAL_CLEARANCE, pair_bodies
from core.model.entities import GROUND, FixedJoint, GearPair, RevoluteJoint
from core.model.interference import reach
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


def stage_on_shaft(model: Model, pair: GearPair) -> tuple[list[Command], GearPair]:
    """The gears of a new stage `pair` on the shaft that turns on its joint1 (see the module docstring).

    Gear 1, generated from the pair's entries (core.model.builders.pair_bodies), is welded to the shaft beyond its
    farthest part along the joint's axis (against the axis where the shaft's mates lie that way, as a bevel wheel
    does towards the apex), core.model.builders.AXIAL_CLEARANCE of a face width clear of it. Gear 2 turns on a new
    revolute joint from the body the shaft's joint hangs on, on the side away from the shaft's other mates: at the
    centre distance (external and internal pairs), or (a bevel pair: the pinion's apex ahead of its heel) across
    the shaft with its apex on the pinion's; turned into mesh (placement.place_gear2). Both start at the speeds the
    shaft has: gear 1 the shaft's, gear 2 by the ratio (about the shaft joint's body_i, moving with it).

    Returns the commands, made on a copy (the model is not touched), and the pair with its joint2 and gear1.
    Raises ModelError naming the field: joint1 not a revolute joint on a body, entries that generate no gear.
    """
    joint = model.joints.get(pair.joint1)
    if not isinstance(joint, RevoluteJoint) or joint.body_j not in model.bodies:
        raise ModelError("joint1", "must be a revolute joint that a shaft (a body) turns on")
    trial = model.copy()
    axis, at = joint.unit_axis(), np.asarray(joint.position, float)
    names = [trial.numbered("gear")]
    names.append(trial.numbered("gear", also=names))
    gear1, gear2 = pair_bodies(pair, tuple(names))
    shaft = trial.bodies[joint.body_j]
    # along the axis away from the shaft's mates (a bevel wheel lies towards the apex), else along it
    offsets = [np.asarray(trial.bodies[trial.joints[j].body_j].position, float) - at for j in _mates(trial, pair.joint1)
               if trial.joints[j].body_j in trial.bodies]
    ahead = -axis if sum(float(axis @ d) for d in offsets) > 1e-9 else axis
    mates = sum((across(axis, d) for d in offsets), np.zeros(3))  # gear 2 goes the other way
    side = -mates / np.linalg.norm(mates) if np.linalg.norm(mates) > 1e-12 else across(axis, np.zeros(3))
    shaft_reach = reach([trial.bodies[b] for b in trial.rigid_piece(joint.body_j) - {GROUND}], ahead, at)
    w1 = trial.start_speed(pair.joint1) * float(axis @ ahead)  # gear 1's spin about `ahead` relative to the seat
    housing = trial.bodies.get(joint.body_i)
    if pair.kind == "bevel":  # the pinion's apex ahead of its heel; the wheel beside it, its apex on the pinion's
        pinion = dataclasses.replace(gear1, position=(0.0, 0.0, 0.0), orientation=orientation_for_axis(ahead))
        heel = at + ahead * (shaft_reach + AXIAL_CLEARANCE * pair.face_width + reach([pinion], -ahead, np.zeros(3)))
        wheel_axis = -side  # a bevel gear's z points to its apex
        wheel_at = heel + bevel_apex(pinion) + side * bevel_geometry(gear2.visual.spec).apex_distance
        # rolling at the heel's pitch point: w1 r1 = -w2 r2 about these axes (ahead, -side)
        gear1 = _started(gear1, heel, ahead, shaft, np.zeros(3))
        gear2 = _started(gear2, wheel_at, wheel_axis, housing, -w1 * pair.z1 / pair.z2 * wheel_axis)
        weld_at, wheel_turns = heel, wheel_axis
    else:
        centre = at + ahead * (shaft_reach + (AXIAL_CLEARANCE + 0.5) * pair.face_width)
        ratio = (pair.z1 / pair.z2) * (1.0 if pair.kind == "internal" else -1.0)
        gear1 = _started(gear1, centre, axis, shaft, np.zeros(3))
        gear2 = _started(gear2, centre + side * center_distance(pair.pair_spec()), axis, housing,
                         ratio * w1 * ahead)
        weld_at, wheel_turns = centre, axis
    weld = FixedJoint(trial.free_name(f"{gear1.name}_weld"), shaft.name, gear1.name, tuple(float(v) for v in weld_at))
    turns = RevoluteJoint(trial.free_name(f"{gear2.name}_joint"), joint.body_i, gear2.name, gear2.position,
                          tuple(float(v) for v in wheel_turns))
    commands: list[Command] = [AddItem(item) for item in (gear1, gear2, weld, turns)]
    for command in commands:
        command.do(trial)
    staged = dataclasses.replace(pair, joint2=turns.name, gear1=gear1.name, gear2="")
    return commands + place_gear2(trial, staged), staged


def _mates(model: Model, joint: str) -> list[str]:
    """The joints of the pairs that mesh with the shaft turning on `joint`."""
    return [p.joint2 if p.joint1 == joint else p.joint1 for p in model.gear_pairs.values()
            if joint in (p.joint1, p.joint2)]


def _started(gear, centre: np.ndarray, axis: np.ndarray, seat, spin: np.ndarray):
    """`gear` (made at the origin about z) at `centre` turning about `axis`, moving with the body `seat` (None: the
    ground) and turning relative to it at `spin` [rad/s]."""
    v, w, origin = np.zeros(3), np.zeros(3), np.zeros(3)
    if seat is not None:
        v, w, origin = (np.asarray(x, float) for x in (seat.velocity, seat.angular_velocity, seat.position))
    return dataclasses.replace(gear, position=tuple(float(x) for x in centre), orientation=orientation_for_axis(axis),
                               velocity=tuple(float(x) for x in v + np.cross(w, centre - origin)),
                               angular_velocity=tuple(float(x) for x in w + spin))
