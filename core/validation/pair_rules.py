"""The gear modelling rules of the gear documentation's User Memo, for each gear pair: parallel helical axes at
the centre distance, intersecting perpendicular bevel axes, the pinion on joint 1 of an inner pair, the carrier
as body_i, the gears' mid-face planes, generated gears that match their pair.
"""

from __future__ import annotations

import math

import numpy as np

from core.gearing.gear_bodies import bevel_apex, generated_gears, mesh_centre, welded
from core.gearing.placement import moving_gear, other_pairs
from core.geometry import vec3
from core.geometry.macro import bevel_pitch_angle, center_distance
from core.model.entities import (
    BearingSpringDamper,
    CompliantMesh,
    FixedJoint,
    GearPair,
    GearSource,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
)

ANGLE_TOL = 1e-6  # rad
LENGTH_TOL = 1e-6  # m


def _unit(v) -> tuple[float, float, float]:
    x, y, z = v
    n = math.sqrt(x * x + y * y + z * z)
    return float(x / n), float(y / n), float(z / n)


def line_distance(p1, a1, p2, a2) -> float:
    """Shortest distance between the lines p1 + s a1 and p2 + t a2 [m].

    Plain float arithmetic: validation runs on every edit, and numpy's call
    overhead on 3-vectors was most of its time on a 64-stage train.
    """
    a1, a2 = _unit(a1), _unit(a2)
    n = vec3.cross(a1, a2)
    d = float(p2[0] - p1[0]), float(p2[1] - p1[1]), float(p2[2] - p1[2])
    nn = math.sqrt(vec3.dot(n, n))
    if nn < 1e-12:
        along = vec3.dot(d, a1)
        r = d[0] - along * a1[0], d[1] - along * a1[1], d[2] - along * a1[2]
        return math.sqrt(vec3.dot(r, r))
    return abs(vec3.dot(d, n)) / nn


def axis_angle(a1, a2) -> float:
    """Angle between two directions [rad], 0 to pi."""
    return math.acos(max(-1.0, min(1.0, vec3.dot(_unit(a1), _unit(a2)))))


def coaxial(j1: RevoluteJoint, j2: RevoluteJoint) -> bool:
    """Whether two revolute joints turn about the same line."""
    parallel = min(axis_angle(j1.axis, j2.axis), math.pi - axis_angle(j1.axis, j2.axis)) < ANGLE_TOL
    return parallel and line_distance(j1.position, j1.axis, j2.position, j2.axis) < LENGTH_TOL


def body_axis_line(body: RigidBody) -> tuple[tuple, tuple]:
    """World point and direction of a body's own z axis at its initial pose (the third column of its rotation)."""
    w, x, y, z = body.orientation
    return body.position, (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))


class PairRules:
    """The checks of one gear pair (a part of the model checker: `self.m` the model, `self.add` a finding,
    `self.errors_only` whether checks that find only warnings are skipped)."""


    def placing(self, pair: GearPair) -> str:
        """The fix that moves a gear of `pair` into mesh: gear 2's, gear 1's where gear 2's shaft carries another
        pair's gear (core.gearing.placement.moving_gear), none where moving either would take another pair out of
        mesh."""
        return {1: "place_gear1", 2: "place_gear2"}.get(moving_gear(self.m, pair), "")

    def gear_centre_fixed_on_carrier(self, joint: RevoluteJoint, carrier: str) -> bool:
        """Whether the joint's axis line stays put relative to `carrier`.

        True when the joint's body_i is the carrier, is welded to it, or turns
        relative to it about the same line (a sun on the ground beside a carrier
        on the ground, both on the central axis).
        """
        base = joint.body_i
        if base == carrier:
            return True
        for other in self.m.joints.values():
            if {other.body_i, other.body_j} != {base, carrier}:
                continue
            if isinstance(other, FixedJoint):
                return True
            if isinstance(other, RevoluteJoint) and coaxial(other, joint):
                return True
        return False

    def on_bearing(self, joint: RevoluteJoint) -> bool:
        """Whether the joint's gear centre moves elastically: the joint is on_bearing, or its body_i sits on a
        bearing spring-damper (a hub)."""
        return joint.on_bearing or any(isinstance(f, BearingSpringDamper) and f.body_j == joint.body_i
                                       for f in self.m.forces.values())

    def check_pair(self, pair: GearPair) -> None:
        j1, j2 = self.m.joints[pair.joint1], self.m.joints[pair.joint2]
        # a compliant mesh measures the slip where the gears are, so centres on bearings may move
        soft = any(isinstance(f, CompliantMesh) and f.pair == pair.name for f in self.m.forces.values())
        name = pair.name
        for label, j in (("joint1", j1), ("joint2", j2)):
            if j.body_j == pair.carrier:
                self.add("error", name, f"{label} {j.name!r} has the carrier {pair.carrier!r} as body_j; "
                         "body_i must be the carrier and body_j the gear: swap the joint's bodies")
            elif j.on_bearing and not soft:
                self.add("error", name, f"gear {j.body_j!r} is carried by a bearing ({label} {j.name!r} is "
                         "on_bearing), so its centre moves: the pair needs a Compliant Mesh, which measures the "
                         "teeth's approach where the gears are (a rigid pair holds only their speeds)",
                         fix="compliant_mesh")
            elif not self.gear_centre_fixed_on_carrier(j, pair.carrier) and not (soft and self.on_bearing(j)):
                self.add("error", name, f"the centre of gear {j.body_j!r} ({label} {j.name!r}, body_i {j.body_i!r}) "
                         f"moves relative to the carrier {pair.carrier!r}: make the carrier body_i of {j.name!r}, "
                         "or choose as carrier the body both gear centres are fixed on")
        if j1.body_j == j2.body_j:
            self.add("error", name, f"joint1 and joint2 turn the same body {j1.body_j!r}; a pair needs two gears")
            return
        r1, r2 = pair.pitch_radii()
        if pair.kind == "bevel":
            square = self.check_bevel(pair, j1, j2)
            if square and not self.errors_only:  # a warning; moving along the axis helps only once it is square
                self.check_bevel_apexes(pair, j1, j2)
        else:
            angle = axis_angle(j1.axis, j2.axis)
            angle = min(angle, math.pi - angle)
            if angle > ANGLE_TOL:
                self.add("error", name, f"the joint axes must be parallel for {pair.kind} pairs; they are "
                         f"{math.degrees(angle):.4g} deg apart: align {j2.name!r} with {j1.name!r}")
            else:
                need = center_distance(pair.pair_spec())
                have = line_distance(j1.position, j1.axis, j2.position, j2.axis)
                if abs(have - need) > LENGTH_TOL + 1e-9 * need:
                    formula = "m_t (z1 + z2) / 2" if pair.kind == "external" else "m_t (z2 - z1) / 2"
                    if pair.x1 or pair.x2:
                        formula = "a_w with the profile shift"
                    # the gear to move; where neither may, the one fewer other pairs hold (a planet, not its ring)
                    side = moving_gear(self.m, pair) or min((2, 1), key=lambda k: other_pairs(self.m, pair, k))
                    joint = j1 if side == 1 else j2
                    self.add("error", name, f"the joint axes are {have * 1e3:.6g} mm apart; the centre distance "
                             f"{formula} is {need * 1e3:.6g} mm: move {joint.name!r} (and gear {joint.body_j!r})",
                             fix=self.placing(pair))
            if pair.kind == "internal" and pair.z1 >= pair.z2:
                self.add("error", name, f"an inner pair needs the pinion on joint 1 and the ring on joint 2 "
                         f"(z1 < z2); got z1 = {pair.z1}, z2 = {pair.z2}: swap the joints and the teeth")
            if angle <= ANGLE_TOL and not self.errors_only:  # warnings only
                self.check_mesh_planes(pair, j1)
        for k, (field, joint) in enumerate((("gear1", j1), ("gear2", j2)), start=1):
            named = getattr(pair, field)
            if named and not welded(self.m, named, joint.body_j):
                self.add("error", f"{name}.{field}", f"gear body {named!r} is not welded to {joint.body_j!r}, the body "
                         f"{joint.name!r} turns: add a fixed joint between them, or leave {field} empty")
        self.check_generated_gears(pair, j1, j2)

    def check_mesh_planes(self, pair: GearPair, j1: RevoluteJoint) -> None:
        """The two gears' mid-face planes must face each other: otherwise the tooth force acts in the wrong plane."""
        c1, c2 = mesh_centre(self.m, pair, 1), mesh_centre(self.m, pair, 2)
        offset = abs(float(j1.unit_axis() @ (c2 - c1)))
        widths = [pair.face_width] + [b.visual.spec.face_width for b in
                                      (self.m.bodies.get(self.m.gear_body(pair, k)) for k in (1, 2))
                                      if b is not None and isinstance(b.visual, GearSource)]
        limit = 0.5 * max(widths) if max(widths) > 0 else LENGTH_TOL
        if offset > limit + LENGTH_TOL:
            g1, g2 = self.m.gear_body(pair, 1), self.m.gear_body(pair, 2)
            self.add("warning", pair.name, f"the mid-face planes of {g1!r} and {g2!r} are {offset * 1e3:.4g} mm apart "
                     f"along the axis (more than half the face width, {limit * 1e3:.4g} mm): the teeth do not face each "
                     "other. If a gear welded to the shaft carries the teeth, name it in gear1/gear2")

    def check_bevel(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> bool:
        """Check the bevel pair's axes and pitch angle; whether its axes are at 90 deg."""
        angle = axis_angle(j1.axis, j2.axis)
        square = abs(angle - math.pi / 2) <= ANGLE_TOL
        if not square:
            self.add("error", pair.name, f"bevel joint axes must be at 90 deg; they are at "
                     f"{math.degrees(angle):.6g} deg", fix=self.placing(pair))
        gap = line_distance(j1.position, j1.axis, j2.position, j2.axis)
        if gap > LENGTH_TOL:
            self.add("error", pair.name, f"bevel joint axes must intersect at the pitch apex; they miss by {gap * 1e3:.6g} mm",
                     fix=self.placing(pair))
        elif square:  # gear 2's centre on gear 1's axis: no direction from the apex to gear 2, so no pitch point
            a1, d = np.asarray(j1.unit_axis()), mesh_centre(self.m, pair, 2) - mesh_centre(self.m, pair, 1)
            if np.linalg.norm(d - a1 * (a1 @ d)) <= LENGTH_TOL:
                self.add("error", pair.name, f"the centre of gear 2 (on joint {j2.name!r}) lies on gear 1's axis, "
                         "where the pair has no pitch point: gear 2 must sit beside that axis, its apex on gear 1's "
                         "('Move gear 2 into mesh' in the Gear Pair dialog puts it there)", fix=self.placing(pair))
        want = bevel_pitch_angle(pair.z1, pair.z2)
        if abs(pair.pitch_angle - want) > ANGLE_TOL:
            self.add("error", pair.name, f"pitch angle of gear 1 is {math.degrees(pair.pitch_angle):.6g} deg; with 90 deg "
                     f"shafts it must be atan(z1 / z2) = {math.degrees(want):.6g} deg")
        return square

    def check_bevel_apexes(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> None:
        """Generated bevel gears must share their pitch apex (their cones touch along a line through it): the gears
        that carry the teeth (a gear welded to a shaft, named in gear1/gear2), at their own heels."""
        gears = [self.m.bodies.get(self.m.gear_body(pair, k)) for k in (1, 2)]
        apexes = [bevel_apex(body) if body is not None else None for body in gears]
        if any(apex is None for apex in apexes):
            return
        gap = float(np.linalg.norm(apexes[1] - apexes[0]))
        if gap > LENGTH_TOL:
            self.add("warning", pair.name, f"the pitch apexes of the two bevel gears are {gap * 1e3:.6g} mm apart: "
                     f"move gear {gears[1].name!r} along its axis so its apex meets gear 1's", fix=self.placing(pair))

    def check_face_width(self, pair: GearPair) -> None:
        """The pair's face width at most its narrower generated gear's: the teeth touch over that face at most,
        and the pair's width is what its mesh stiffness, overlap ratio and a bevel pair's mean cone radius take."""
        gears = generated_gears(self.m, pair)
        if not gears:
            return
        narrow = min(gears, key=lambda b: b.visual.spec.face_width)
        width = narrow.visual.spec.face_width
        if pair.face_width > width + LENGTH_TOL:
            self.add("warning", pair.name, f"face width {pair.face_width * 1e3:.6g} mm is wider than gear "
                     f"{narrow.name!r} ({width * 1e3:.6g} mm): the teeth touch over {width * 1e3:.6g} mm at most, "
                     "while the mesh stiffness and forces take the pair's width", fix="face_from_gears")

    def check_generated_gears(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> None:
        """Compare the pair's macro-geometry with the gears' generators, where known."""
        kind2 = {"bevel": "bevel", "internal": "inner"}.get(pair.kind, "helical")
        beta2 = pair.helix_angle if pair.kind == "internal" else -pair.helix_angle
        expect = {1: ("bevel" if pair.kind == "bevel" else "helical", pair.z1, pair.helix_angle),
                  2: (kind2, pair.z2, beta2)}

        def held() -> str:
            """Where an edit of the pair leaves its gears as they are (core.gearing.pair_gears.edit_pair), why:
            asked only for a finding (it scans every pair)."""
            return ("; the gears do not follow the pair: both shafts carry other pairs' gears (a planetary set is "
                    "made again as a whole, by Gears > Planetary Gearset)") if moving_gear(self.m, pair) is None else ""

        self.check_face_width(pair)
        for k, joint in ((1, j1), (2, j2)):
            body = self.m.bodies.get(self.m.gear_body(pair, k))
            if body is None:
                continue
            point, direction = body_axis_line(body)
            if isinstance(body.visual, (GearSource, PrimitiveSource)):
                off = line_distance(joint.position, joint.axis, point, direction)
                ang = axis_angle(joint.axis, direction)
                if off > LENGTH_TOL or min(ang, math.pi - ang) > ANGLE_TOL:
                    self.add("warning", joint.name, f"the joint axis is not the axis of {body.name!r} "
                             f"({off * 1e3:.4g} mm off, {math.degrees(min(ang, math.pi - ang)):.4g} deg): put the joint on "
                             "the gear axis, not at the centre of mass")
            if not isinstance(body.visual, GearSource):
                continue
            spec = body.visual.spec
            kind, z, beta = expect[k]
            if spec.kind != kind:
                where = "joint 2" if spec.kind == "inner" else "joint 1"
                self.add("error" if spec.kind == "inner" else "warning", pair.name,
                         f"gear {body.name!r} on joint {k} was generated as a {spec.kind} gear; this {pair.kind} pair "
                         f"expects a {kind} gear there" + (f" (an inner gear belongs on {where})" if spec.kind == "inner" else ""))
                continue
            # a cylindrical pair can take its gears' teeth, module and profile shifts, gear 2 then placed
            take = "" if kind == "bevel" else "pair_from_gears"
            if spec.teeth != z:
                self.add("warning", pair.name,
                         f"z{k} = {z} but gear {body.name!r} was generated with {spec.teeth} teeth" + held(), fix=take)
            if abs(spec.module - pair.module) > 1e-12 and kind == "bevel":
                self.add("warning", pair.name, f"module {pair.module * 1e3:.6g} mm but gear {body.name!r} was generated "
                         f"with {spec.module * 1e3:.6g} mm")
            elif abs(spec.module - pair.module) > 1e-12:  # the dialogs take m_n: both named
                self.add("warning", pair.name, f"transverse module m_t {pair.module * 1e3:.6g} mm but gear "
                         f"{body.name!r} was generated with m_t {spec.module * 1e3:.6g} mm (m_n "
                         f"{spec.module * math.cos(spec.helix_angle) * 1e3:.6g} mm)" + held(), fix=take)
            shift = getattr(pair, f"x{k}") if pair.kind == "external" else 0.0
            if kind == "helical" and abs(spec.profile_shift - shift) > 1e-12:
                self.add("warning", pair.name, f"x{k} = {shift:.6g} but gear {body.name!r} was generated with a profile "
                         f"shift of {spec.profile_shift:.6g}" + ("" if pair.kind == "external" else
                                                                 " (an internal pair takes none)"),
                         fix=take if pair.kind == "external" else "")
            if kind != "bevel" and abs(spec.helix_angle - beta) > ANGLE_TOL:
                self.add("warning", pair.name, f"gear {k} needs a helix angle of {math.degrees(beta):.6g} deg but "
                         f"{body.name!r} was generated with {math.degrees(spec.helix_angle):.6g} deg")
            if kind == "bevel":
                want = pair.pitch_angle if k == 1 else math.pi / 2 - pair.pitch_angle
                if abs(spec.pitch_angle - want) > ANGLE_TOL:
                    self.add("warning", pair.name, f"gear {k} needs a pitch angle of {math.degrees(want):.6g} deg but "
                             f"{body.name!r} was generated with {math.degrees(spec.pitch_angle):.6g} deg",
                             fix=self.placing(pair) if k == 2 else "")

    # ---------------------------------------------------------------- connections

