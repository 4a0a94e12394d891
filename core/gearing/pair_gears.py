"""A gear pair and its generated gears kept in agreement: the edits that make one follow the other.

A pair states its teeth, transverse module, angles and profile shifts; its gears, where GearDyn generated them,
carry the same values in their macro-geometry (core.geometry.macro.GearSpec). An edit of one side leaves the other
as it was, and the model check says so. `pair_from_gears` is the fix it offers (the gears were edited): the pair
takes their values. `edit_pair` is the edit of a pair's fields in which its gears follow where they agreed with
it before (the pair was edited). Either ends with a gear moved into mesh: gear 2, or gear 1 where gear 2's shaft
carries another pair's gear (core.gearing.placement.moving_gear); and, where gear 2 moved and the gears' start
speeds kept the old ratio, gear 2's start speed on the new one (`follow_ratio`).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from core.commands import Command, Macro, ReplaceItem, replace_fields, set_gear_spec
from core.errors import ModelError
from core.gearing.gear_bodies import generated_gears
from core.gearing.placement import moving_gear, place_moving_gear
from core.geometry.macro import bevel_pitch_angle
from core.model.entities import GROUND, GearPair, GearSource
from core.model.model import Model

RATIO_TOL = 1e-6  # relative: start speeds that kept a pair's ratio to this kept it (a model file's rounding)
#: the pair's fields its generated cylindrical gears carry
GEAR_FIELDS = ("z1", "z2", "module", "pressure_angle", "helix_angle", "pitch_angle", "x1", "x2")
ANGLE_TOL = 1e-9  # rad


def pair_from_gears(model: Model, name: str) -> Command:
    """The fix for a cylindrical pair whose generated gears were edited after it was made: the pair takes their
    teeth, transverse module and (an external pair) profile shifts, then gear 2 (or gear 1, placement.moving_gear)
    moves to the centre distance and turns into mesh; neither moves where both shafts carry other pairs' gears
    (a planetary set). Raises ModelError naming the pair where its gears are not both generated cylindrical gears
    of one module, or the pair's new values are out of range."""
    pair = model.gear_pairs[name]
    bodies = [model.bodies.get(model.gear_body(pair, k)) for k in (1, 2)]
    if pair.kind == "bevel" or not all(b is not None and isinstance(b.visual, GearSource) for b in bodies):
        raise ModelError(name, "takes its values from its gears only where both are generated cylindrical gears")
    s1, s2 = (b.visual.spec for b in bodies)
    if abs(s1.module - s2.module) > 1e-12:
        raise ModelError(name, f"its gears {bodies[0].name!r} and {bodies[1].name!r} were generated with different "
                         f"modules (m_t {s1.module * 1e3:.6g} and {s2.module * 1e3:.6g} mm): generate one again")
    shifts = {"x1": s1.profile_shift, "x2": s2.profile_shift} if pair.kind == "external" else {}
    new = dataclasses.replace(pair, z1=s1.teeth, z2=s2.teeth, module=s1.module, **shifts)
    problems = new.problems()
    if problems:
        raise ModelError(f"{name}.{problems[0][0]}", problems[0][1])
    side = moving_gear(model, pair)
    if side is None:  # moving either gear would take another pair out of mesh: the check then says so
        return Macro(f"Take {name}'s teeth from its gears", [ReplaceItem(model, name, new)])
    trial = model.copy()
    commands: list[Command] = [ReplaceItem(trial, name, new)]
    commands[-1].do(trial)
    commands += _done(trial, place_moving_gear(trial, new))
    return Macro(f"Take {name}'s teeth from its gears and move gear {side} into mesh",
                 commands + (follow_ratio(trial, pair, new) if side == 2 else []))


def face_from_gears(model: Model, name: str) -> Command:
    """The fix for a pair wider than a generated gear of it: the pair takes its narrower generated gear's face
    width (the teeth touch over that at most)."""
    widths = [b.visual.spec.face_width for b in generated_gears(model, model.gear_pairs[name])]
    if not widths:
        raise ModelError(name, "takes its face width from its gears only where one is a generated gear")
    return replace_fields(model, name, face_width=min(widths))


def gear_values(pair: GearPair, k: int) -> dict:
    """The macro-geometry gear k of `pair` needs: teeth, module (transverse), normal pressure angle; a cylindrical
    gear's helix angle (gear 2 of an external pair the other hand, a ring the pinion's) and profile shift (an
    external pair's; an inner gear has none); a bevel gear's pitch angle (gear 2's the complement of gear 1's)."""
    values = {"teeth": pair.z1 if k == 1 else pair.z2, "module": pair.module, "pressure_angle": pair.pressure_angle}
    if pair.kind == "bevel":  # gear 2's cone the complement of gear 1's (90 deg shafts)
        values["pitch_angle"] = pair.pitch_angle if k == 1 else math.pi / 2 - pair.pitch_angle
        return values
    values["helix_angle"] = pair.helix_angle if k == 1 or pair.kind == "internal" else -pair.helix_angle + 0.0
    if pair.kind == "external":
        values["profile_shift"] = pair.x1 if k == 1 else pair.x2
    elif k == 1:
        values["profile_shift"] = 0.0
    return values


def pair_values_from_gear(spec, k: int) -> dict:
    """The pair fields that gear k's macro-geometry `spec` gives, the inverse of `gear_values`: its teeth (z1 or
    z2), the transverse module, the normal pressure angle; a cylindrical gear's helix angle as gear 1's (gear 2 of
    an external pair has the other hand, a ring the pinion's) and its profile shift (x1 or x2; a ring has none);
    a bevel gear's pitch angle as gear 1's (gear 2's is its complement). Where only one gear of a pair was
    generated, these are what it says of the pair."""
    values = {f"z{k}": spec.teeth, "module": spec.module, "pressure_angle": spec.pressure_angle}
    if spec.kind == "bevel":
        values["pitch_angle"] = spec.pitch_angle if k == 1 else math.pi / 2 - spec.pitch_angle
        return values
    values["helix_angle"] = spec.helix_angle if k == 1 or spec.kind == "inner" else -spec.helix_angle + 0.0
    if spec.kind != "inner":
        values[f"x{k}"] = spec.profile_shift
    return values


def _agrees(spec, values: dict) -> bool:
    return all(getattr(spec, f) == v if f == "teeth" else math.isclose(getattr(spec, f), v, rel_tol=1e-12,
                                                                        abs_tol=ANGLE_TOL)
               for f, v in values.items())


def table_takes_over(changes: dict) -> dict:
    """A pair's field changes where a loss table given without an efficiency or a bearing friction takes the
    place of the constant ones: those return to lossless (1 and 0 N m), since a pair takes one or the other."""
    if changes.get("loss_table") and not {"efficiency", "bearing_friction"} & set(changes):
        return {**changes, "efficiency": 1.0, "bearing_friction": 0.0}
    return changes


def edit_pair(model: Model, name: str, /, **changes) -> Command:
    """The edit of gear pair `name`'s fields `changes`. Where it changes what its gears carry (GEAR_FIELDS) and a
    gear of it is a generated gear that agreed with the pair before, that gear is generated again with the new
    values and gear 2 is moved into mesh (a bevel wheel onto the apex; gear 1 where gear 2's shaft carries
    another pair's gear, placement.moving_gear), all one command; otherwise the edit alone (imported gears, a gear
    that already differed, both shafts carrying other pairs' gears: the model check says so). A gear that
    another pair meshes with (an idler) keeps its teeth.
    A bevel pair's new teeth bring the pitch angle atan(z1 / z2) along where it had its teeth's. A new ratio
    brings gear 2's start speed along where gear 2 moves and the speeds kept the old one (`follow_ratio`).
    A loss table given without an efficiency or bearing friction takes the place of the constant ones (they
    return to lossless: a table and the constant shortcut together are refused)."""
    pair = model.gear_pairs[name]
    changes = table_takes_over(changes)
    if pair.kind == "bevel" and {"z1", "z2"} & set(changes) and "pitch_angle" not in changes \
            and math.isclose(pair.pitch_angle, bevel_pitch_angle(pair.z1, pair.z2), abs_tol=ANGLE_TOL):
        # new teeth on 90 deg shafts: the pitch angle follows them, as the pair dialog's does
        changes["pitch_angle"] = bevel_pitch_angle(changes.get("z1", pair.z1), changes.get("z2", pair.z2))
    edit = replace_fields(model, name, **changes)
    new = edit.new
    side = moving_gear(model, pair)
    if new.kind != pair.kind or not set(changes) & set(GEAR_FIELDS) or side is None:
        return edit
    trial = model.copy()
    edit.do(trial)
    commands: list[Command] = [edit]
    others = {model.gear_body(p, k) for p in model.gear_pairs.values() if p.name != name for k in (1, 2)}
    for k in (1, 2):
        body = trial.bodies.get(trial.gear_body(new, k))
        if body is None or not isinstance(body.visual, GearSource) or body.name in others:
            continue  # an idler another pair meshes with keeps its teeth: that pair still holds them
        before, after = gear_values(pair, k), gear_values(new, k)
        if _agrees(body.visual.spec, before) and not _agrees(body.visual.spec, after):
            try:
                commands.append(set_gear_spec(trial, body.name, **after))
            except ModelError as exc:  # the gear cannot take the new values: say which gear, and what to change
                path, message = exc.problems[0]
                raise ModelError(f"{body.name}.{path}", f"{message}; {name}'s gear {body.name!r} is generated again "
                                 f"with the pair's new values: change its {path} first") from None
            commands[-1].do(trial)
    speeds = follow_ratio if side == 2 else lambda *_: []
    if len(commands) == 1:
        more = speeds(trial, pair, new)
        return Macro(f"Edit {name}; gear 2's start speed follows", commands + more) if more else edit
    commands += _done(trial, place_moving_gear(trial, new))
    return Macro(f"Edit {name}; its gears follow, gear {side} into mesh", commands + speeds(trial, pair, new))


def _done(model: Model, commands: list[Command]) -> list[Command]:
    """`commands`, done on `model` (a trial copy) in turn."""
    for command in commands:
        command.do(model)
    return commands


def follow_ratio(model: Model, old: GearPair, new: GearPair) -> list[Command]:
    """Commands that give gear 2's shaft (joint 2's body and what is welded to it) the start speed of `new`'s ratio,
    where the start speeds kept `old`'s (|u2 / u1| = z1 / z2 to RATIO_TOL, u the joints' relative speeds): the
    increment turns the shaft about joint 2's axis, so its angular velocity and the velocity of each body's origin
    change [rad/s, m/s]. None where the speeds did not keep the old ratio (a run projects them and says so), gear 1
    stands still, or the ratio is the same. `model` holds the placed gears (positions after the edit)."""
    u1, u2 = model.start_speed(new.joint1), model.start_speed(new.joint2)
    if u1 == 0.0 or new.z1 * old.z2 == old.z1 * new.z2 \
            or not math.isclose(abs(u2 / u1), old.z1 / old.z2, rel_tol=RATIO_TOL):
        return []
    joint = model.joints[new.joint2]
    change = u2 * (new.z1 * old.z2 / (old.z1 * new.z2) - 1.0) * joint.unit_axis()
    at = np.asarray(joint.position, float)
    commands = []
    for name in sorted(model.rigid_piece(joint.body_j) - {GROUND}):
        body = model.bodies[name]
        w = np.add(body.angular_velocity, change)
        v = np.add(body.velocity, np.cross(change, np.subtract(body.position, at)))
        commands.append(replace_fields(model, name, angular_velocity=tuple(float(c) for c in w),
                                       velocity=tuple(float(c) for c in v)))
    return commands
