"""Placing gear 2 of a pair where the pair needs it: at the centre distance (or on the bevel apex), turned into mesh.

Generated gears have a tooth centred on their body x axis (the ring of an
inner gear: a tooth of the ring, i.e. material, centred there), and a helical
gear's teeth turn by z tan(beta) / r with the height z above its mid-face
plane. Two gears mesh when, along their common tangent at the pitch point,
the tooth centres of one lie midway between those of the other. With p_k the
position of the pitch point in tooth pitches from a tooth centre of gear k
(measured in the direction its pitch circle turns) and sigma_k = +-1 whether
that direction is the common tangent t or its opposite, the condition is

    frac(sigma_1 p_1 - sigma_2 p_2) = 1/2,

the same for external, internal and bevel pairs. Turning gear 2 by delta
about its own axis changes p_2 by -delta z_2 / (2 pi), which gives the turn.
"""

from __future__ import annotations

import math

import numpy as np

from core.geometry.macro import center_distance

from core.commands import Command, replace_fields, set_gear_spec
from core.gearing.gear_bodies import bevel_apex, mid_face_point
from core.gearing.pitch_point import PairGeometryData, contact_frame
from core.geometry.rotations import quat_about, quat_matrices, quat_mul
from core.model.entities import GROUND, FixedJoint, GearPair, GearSource, RevoluteJoint
from core.errors import ModelError
from core.model.model import Model


def target_position(model: Model, pair: GearPair) -> np.ndarray:
    """Where joint 2's point must go [m], world: the centre distance from joint 1 along their present direction
    (parallel pairs); bevel pairs (axes at 90 deg): where it takes gear 2's pitch apex onto gear 1's, of the gears
    that carry the teeth (generated bevel gears: their own heels and apex distances), else gear 2's outer pitch
    circle r2 / tan(gamma2) from the apex that joint 1's point and axis give.

    Raises ModelError when no placement is unique (bevel axes not at 90 deg: `place_gear2` turns them first).
    """
    j1, j2 = model.joints[pair.joint1], model.joints[pair.joint2]
    a1, a2 = j1.unit_axis(), j2.unit_axis()
    p1, p2 = np.asarray(j1.position, float), np.asarray(j2.position, float)
    r1, r2 = pair.pitch_radii()
    if pair.kind == "bevel":
        if abs(a1 @ a2) > 1e-9:
            raise ModelError(f"{pair.name}: turn gear 2's axis to 90 deg from gear 1's first; then it can be moved to the apex")
        apexes = [bevel_apex(model.bodies[b]) if b in model.bodies else None
                  for b in (model.gear_body(pair, 1), model.gear_body(pair, 2))]
        if not any(apex is None for apex in apexes):  # generated gears: gear 2's apex onto gear 1's, where they are
            return p2 + apexes[0] - apexes[1]
        apex = p1 + a1 * r1 / math.tan(pair.pitch_angle)  # else from the joints' points, taken for the heels
        return apex - a2 * r2 / math.tan(math.pi / 2 - pair.pitch_angle)
    d = p2 - p1
    return p1 + a1 * (a1 @ d) + center_distance(pair.pair_spec()) * across(a1, d)


def across(a1: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The unit direction across axis `a1` towards offset `d` (a fixed one when `d` lies along the axis)."""
    d_perp = d - a1 * (a1 @ d)
    if np.linalg.norm(d_perp) > 1e-12:
        return d_perp / np.linalg.norm(d_perp)
    u = np.cross(a1, [0.0, 0.0, 1.0] if abs(a1[2]) < 0.9 else [1.0, 0.0, 0.0])
    return u / np.linalg.norm(u)


def square_axis(model: Model, pair: GearPair) -> np.ndarray:
    """Gear 2's axis of a bevel pair turned to 90 deg from gear 1's, as little as it can be: its part along gear
    1's axis taken away, or, when it lies along that axis, pointing back across it from the side gear 2 stands
    on (gear 2 stays on that side, its cone towards the apex)."""
    j1, j2 = model.joints[pair.joint1], model.joints[pair.joint2]
    a1, a2 = j1.unit_axis(), j2.unit_axis()
    square = a2 - a1 * (a1 @ a2)
    if np.linalg.norm(square) > 1e-6:
        return square / np.linalg.norm(square)
    return -across(a1, np.asarray(j2.position, float) - np.asarray(j1.position, float))


def _turn_gear2(model: Model, pair: GearPair) -> list[Command]:
    """Commands that turn joint 2 and its gear as one about the joint's point so that the joint's axis is
    `square_axis` (none when it is already); done on `model` as they are made."""
    j2 = model.joints[pair.joint2]
    old, new = j2.unit_axis(), square_axis(model, pair)
    normal = np.cross(old, new)
    if np.linalg.norm(normal) < 1e-12:
        return []
    turn = quat_about(normal, math.atan2(np.linalg.norm(normal), old @ new))
    commands = [replace_fields(model, j2.name, axis=tuple(float(v) for v in new))]
    commands[-1].do(model)
    gear = model.bodies.get(j2.body_j)
    if gear is not None:
        pivot = np.asarray(j2.position, float)
        q = quat_mul(turn, gear.orientation)
        commands.append(replace_fields(
            model, gear.name, orientation=tuple(float(v) for v in q / np.linalg.norm(q)),
            position=tuple(float(v) for v in pivot + quat_matrices(turn) @ (np.asarray(gear.position) - pivot))))
        commands[-1].do(model)
    return commands


def _bevel_cone2(model: Model, pair: GearPair) -> list[Command]:
    """The command that generates gear 2 of a bevel pair again with the pitch angle the pair needs, 90 deg less
    gear 1's (none when it has it, or is no generated bevel gear); done on `model` as it is made. Its apex is
    that cone's: with another angle no placement brings the two apexes together."""
    gear = model.bodies.get(model.joints[pair.joint2].body_j)
    want = math.pi / 2 - pair.pitch_angle
    if gear is None or not isinstance(gear.visual, GearSource) or gear.visual.spec.kind != "bevel" \
            or abs(gear.visual.spec.pitch_angle - want) <= 1e-12:
        return []
    command = set_gear_spec(model, gear.name, pitch_angle=want)
    command.do(model)
    return [command]


def _phase(body, point, teeth: int, pitch_radius: float, tangent) -> tuple[float, float]:
    """(p, sigma): the pitch point in tooth pitches from a tooth centre of `body`, and the sign of its turning direction."""
    rot = quat_matrices(body.orientation)
    origin = np.asarray(body.position, float)
    local = rot.T @ (np.asarray(point) - origin)
    psi = math.atan2(local[1], local[0])
    spec = body.visual.spec
    if spec.kind != "bevel" and spec.helix_angle:
        psi -= local[2] * math.tan(spec.helix_angle) / pitch_radius  # the teeth turn with the height above mid-face
    axis = rot[:, 2]
    radial = np.asarray(point) - origin
    radial -= axis * (axis @ radial)
    sigma = 1.0 if np.cross(axis, radial) @ tangent >= 0 else -1.0
    return psi * teeth / (2 * math.pi), sigma


def mesh_turn(model: Model, pair: GearPair, k: int = 2) -> float:
    """The turn [rad] of gear k (2, or 1) about its own axis that puts its teeth into mesh with the other's (0 if
    not both generated): of the bodies that carry the teeth (a gear welded to a compound shaft, named in
    gear1/gear2)."""
    b1, b2 = (model.bodies.get(model.gear_body(pair, k)) for k in (1, 2))
    if not all(b is not None and isinstance(b.visual, GearSource) for b in (b1, b2)):
        return 0.0
    c = [np.asarray(b.position, float) for b in (b1, b2)]
    a = [quat_matrices(b.orientation)[:, 2] for b in (b1, b2)]
    frame = contact_frame(PairGeometryData.of(pair), c[0], a[0], c[1], a[1])
    r1, r2 = pair.pitch_radii()
    p1, s1 = _phase(b1, frame.point, pair.z1, r1, frame.t)
    p2, s2 = _phase(b2, frame.point, pair.z2, r2, frame.t)
    x = 0.5 - s1 * p1 + s2 * p2
    n = -round(x)
    # gear k turned by delta moves p_k by -delta z_k / (2 pi): x + n must vanish
    return (2 * math.pi / pair.z2) * s2 * (x + n) if k == 2 else -(2 * math.pi / pair.z1) * s1 * (x + n)


def place_gear2(model: Model, pair: GearPair) -> list[Command]:
    """Commands that move gear 2's shaft and its joint to where `pair` needs them and turn gear 2 into mesh (a bevel
    gear's axis first turned to 90 deg from gear 1's when it is not, and the gear generated again with the pitch
    angle the pair needs when it has another).

    The shaft is joint 2's body with the bodies welded to it (a compound shaft moves as one, its welds' points
    with it); the gear turned is the one that carries gear 2's teeth. `pair` need not be in the model yet (the
    pair dialog places before it adds). The commands are checked on a copy, so the model is not touched.
    """
    trial = model.copy()
    j2 = trial.joints[pair.joint2]
    if not isinstance(j2, RevoluteJoint):
        raise ModelError(f"{pair.name}: joint2 must be a revolute joint")
    commands = _turn_gear2(trial, pair) + _bevel_cone2(trial, pair) if pair.kind == "bevel" else []
    j2 = trial.joints[pair.joint2]
    commands += _shift_shaft(trial, j2, target_position(trial, pair) - np.asarray(j2.position, float))
    turn = mesh_turn(trial, pair)
    gear = trial.bodies.get(trial.gear_body(pair, 2))
    if gear is not None and abs(turn) > 1e-12:
        commands.append(_turned(trial, gear, turn))
    return commands


def other_pairs(model: Model, pair: GearPair, k: int) -> int:
    """How many other pairs have a gear on the shaft of gear k of `pair` (its joint's body and what is welded to
    it): for a planetary set's sun-planet pair, 1 on the planet's (its ring pair), 2 or more on the sun's; 1 on a
    reducer's middle shaft. Moving the shaft would take those pairs out of mesh."""
    shaft = model.rigid_piece(model.joints[pair.joint1 if k == 1 else pair.joint2].body_j)
    return sum(any(model.joints[j].body_j in shaft for j in (p.joint1, p.joint2))
               for p in model.gear_pairs.values() if p.name != pair.name)


def moving_gear(model: Model, pair: GearPair) -> int | None:
    """Which gear of `pair` goes into mesh when the pair changes: gear 2, unless its shaft carries another pair's
    gear and gear 1's does not (a reducer's first stage: its input gear moves); None when both shafts carry
    other pairs' gears (a planetary set), or a bevel pair's gear 2 cannot move (only gear 2 goes onto the apex)."""
    if not other_pairs(model, pair, 2):
        return 2
    if pair.kind != "bevel" and not other_pairs(model, pair, 1):
        return 1
    return None


def place_moving_gear(model: Model, pair: GearPair) -> list[Command]:
    """`place_gear2` or `place_gear1`, for the gear `moving_gear` names (none when neither may move)."""
    return {1: place_gear1, 2: place_gear2}.get(moving_gear(model, pair), lambda *_: [])(model, pair)


def place_gear1(model: Model, pair: GearPair) -> list[Command]:
    """Commands that move gear 1's shaft (joint 1's body, the bodies welded to it and their welds) and joint 1 to
    the centre distance from joint 2 along their present direction, and turn gear 1 into mesh: gear 2 stays where
    it is. Parallel pairs only (ModelError for a bevel pair: its gear 2 goes onto the apex). Checked on a copy:
    the model is not touched."""
    if pair.kind == "bevel":
        raise ModelError(pair.name, "a bevel pair's gear 2 goes onto gear 1's apex; gear 1 is not moved")
    trial = model.copy()
    j1, j2 = trial.joints[pair.joint1], trial.joints[pair.joint2]
    a2, p2 = j2.unit_axis(), np.asarray(j2.position, float)
    d = np.asarray(j1.position, float) - p2
    shift = p2 + a2 * (a2 @ d) + center_distance(pair.pair_spec()) * across(a2, d) - np.asarray(j1.position, float)
    commands = _shift_shaft(trial, j1, shift)
    gear = trial.bodies.get(trial.gear_body(pair, 1))
    turn = mesh_turn(trial, pair, 1)
    if gear is not None and abs(turn) > 1e-12:
        commands.append(_turned(trial, gear, turn))
    return commands


def _shift_shaft(model: Model, joint: RevoluteJoint, shift: np.ndarray) -> list[Command]:
    """Commands that move the shaft turning on `joint` (its body, the bodies welded to it and those welds) and the
    joint by `shift` [m]; done on `model` as they are made."""
    if not np.linalg.norm(shift) > 0:
        return []
    piece = model.rigid_piece(joint.body_j) - {GROUND} if joint.body_j in model.bodies else set()
    moved = [name for name in model.bodies if name in piece]
    moved += [j.name for j in model.joints.values() if isinstance(j, FixedJoint) and {j.body_i, j.body_j} <= piece]
    moved.append(joint.name)
    commands = []
    for name in moved:
        where = np.asarray(model.find(name).position, float) + shift
        commands.append(replace_fields(model, name, position=tuple(float(v) for v in where)))
        commands[-1].do(model)
    return commands


def _turned(model: Model, gear, turn: float) -> Command:
    """The command that turns `gear` by `turn` [rad] about its own axis."""
    axis = quat_matrices(gear.orientation)[:, 2]
    q = quat_mul(quat_about(axis, turn), gear.orientation)
    return replace_fields(model, gear.name, orientation=tuple(float(v) for v in q / np.linalg.norm(q)))


def likely_joints(model: Model) -> tuple[str, str] | None:
    """The two revolute joints a new gear pair most likely joins, for a dialog to start on (None with fewer than
    two): generated cylindrical gears standing at their centre distance first (a gear welded to a joint's body
    counts), then joints no pair uses yet, then model order; never two that a pair already joins. Where no two
    left stand in mesh and a pair uses every joint (a train all paired): the last pair's gear 2 first, where the
    next stage of the train goes on (the pair dialog's stage button builds it there)."""
    names = [n for n, j in model.joints.items() if isinstance(j, RevoluteJoint)]
    joined = {frozenset((p.joint1, p.joint2)) for p in model.gear_pairs.values()}
    used = {n for p in model.gear_pairs.values() for n in (p.joint1, p.joint2)}
    candidates = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    if not candidates:
        return None
    fresh = [c for c in candidates if frozenset(c) not in joined]
    rank = {c: (not _in_mesh(model, *c, *teeth_bodies(model, *c)), (c[0] in used) + (c[1] in used)) for c in fresh}
    best = min(fresh, key=rank.get) if fresh else None
    if best is None or rank[best] == (True, 2):
        last = list(model.gear_pairs.values())[-1]
        return last.joint2, last.joint1
    return best


def gears_on(model: Model, joint: str) -> list[str]:
    """The bodies that may carry a gear turning on a revolute joint: its body_j, then the generated gears welded
    to it (a compound shaft's other gears), in model order."""
    body = model.joints[joint].body_j
    piece = model.rigid_piece(body)
    return [body] + [b for b, v in model.bodies.items()
                     if b != body and b in piece and isinstance(v.visual, GearSource)]


def teeth_bodies(model: Model, joint1: str, joint2: str) -> tuple[str, str]:
    """The bodies that carry the teeth of a pair on two revolute joints: of the gears on each (`gears_on`), the two
    standing in mesh, else the two whose mid-face planes lie nearest along the axis, else the joints' bodies."""
    on1, on2 = gears_on(model, joint1), gears_on(model, joint2)
    axis = model.joints[joint1].unit_axis()

    def gap(b1: str, b2: str) -> float:
        return abs(float(axis @ (mid_face_point(model.bodies[b2]) - mid_face_point(model.bodies[b1]))))

    return min(((b1, b2) for b1 in on1 for b2 in on2),
               key=lambda b: (not _in_mesh(model, joint1, joint2, *b), gap(*b), on1.index(b[0]) + on2.index(b[1])))


def _in_mesh(model: Model, joint1: str, joint2: str, body1: str, body2: str) -> bool:
    """Whether generated cylindrical gears on two revolute joints stand in mesh: parallel axes at their centre
    distance (the sum of the pitch radii, their difference with a ring) within 1 %, faces overlapping."""
    j1, j2 = model.joints[joint1], model.joints[joint2]
    b1, b2 = model.bodies.get(body1), model.bodies.get(body2)
    if not all(b is not None and isinstance(b.visual, GearSource) for b in (b1, b2)):
        return False
    s1, s2 = b1.visual.spec, b2.visual.spec
    a1 = j1.unit_axis()
    if "bevel" in (s1.kind, s2.kind) or abs(abs(a1 @ j2.unit_axis()) - 1.0) > 1e-6:
        return False
    d = np.asarray(j2.position, float) - np.asarray(j1.position, float)
    r1, r2 = s1.module * s1.teeth / 2, s2.module * s2.teeth / 2
    distance = abs(r1 - r2) if "inner" in (s1.kind, s2.kind) else r1 + r2
    across = np.linalg.norm(d - a1 * (a1 @ d))
    faces = abs(float(a1 @ (mid_face_point(b2) - mid_face_point(b1))))
    return abs(across - distance) <= 0.01 * distance and faces < (s1.face_width + s2.face_width) / 2
