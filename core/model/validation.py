"""Engineering checks of a model: the gear modelling rules and connection checks.

Each finding names the item and says what to change. The rules are those of
the gear documentation's User Memo (parallel helical axes at the centre
distance, intersecting perpendicular bevel axes, pinion on joint 1 of an inner
pair, the carrier as body_i, joints on the gear axis rather than the centre of
mass) plus checks of how bodies are connected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.geometry import vec3
from core.geometry.macro import bevel_geometry, bevel_pitch_angle
from core.geometry.rotations import rotate
from core.model.entities import (
    GROUND,
    INTEGRATOR_OPTIONS,
    STEP_IS_FIRST_ONLY,
    BearingSpringDamper,
    CompliantMesh,
    SpeedMotor,
    FixedJoint,
    GearPair,
    GearSource,
    MeshFileSource,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
    SpringDamper,
)
from core.model.interference import overlapping_bodies
from core.model.model import Model, cached

SEVERITIES = ("error", "warning", "info")
MASS_RANGE = (1e-4, 1e5)  # kg: a 0.1 g pin to a 100 t ring gear
GYRATION_RANGE = (2e-4, 5.0)  # m
# Radius of gyration against the largest distance from the centre of mass to the shape: a solid's smallest is
# above 1e-3 of it unless it is a needle a thousand times longer than thick; no mass inside the shape gives more
# than the distance itself (5 % allowed for a coarse display mesh).
SMALL_GYRATION, LARGE_GYRATION = 1e-3, 1.05
ANGLE_TOL = 1e-6  # rad
LENGTH_TOL = 1e-6  # m


@dataclass(frozen=True)
class Finding:
    """One result of `validate`: severity, the item it is about, and what to change."""

    severity: str
    item: str
    message: str
    fix: str = ""  # a one-click fix where it is unique: a key of core.gearing.placement.FIXES, applied to `item`

    def __str__(self) -> str:
        return f"{self.severity}: {self.item}: {self.message}"


def _unit(v) -> tuple[float, float, float]:
    x, y, z = (float(c) for c in v)
    n = math.sqrt(x * x + y * y + z * z)
    return x / n, y / n, z / n


def line_distance(p1, a1, p2, a2) -> float:
    """Shortest distance between the lines p1 + s a1 and p2 + t a2 [m].

    Plain float arithmetic: validation runs on every edit, and numpy's call
    overhead on 3-vectors was most of its time on a 64-stage train.
    """
    a1, a2 = _unit(a1), _unit(a2)
    n = vec3.cross(a1, a2)
    d = tuple(float(q) - float(p) for p, q in zip(p1, p2))
    nn = math.sqrt(vec3.dot(n, n))
    if nn < 1e-12:
        along = vec3.dot(d, a1)
        r = tuple(di - along * ai for di, ai in zip(d, a1))
        return math.sqrt(vec3.dot(r, r))
    return abs(vec3.dot(d, n)) / nn


def axis_angle(a1, a2) -> float:
    """Angle between two directions [rad], 0 to pi."""
    return math.acos(max(-1.0, min(1.0, vec3.dot(_unit(a1), _unit(a2)))))


def coaxial(j1: RevoluteJoint, j2: RevoluteJoint) -> bool:
    """Whether two revolute joints turn about the same line."""
    parallel = min(axis_angle(j1.axis, j2.axis), math.pi - axis_angle(j1.axis, j2.axis)) < ANGLE_TOL
    return parallel and line_distance(j1.position, j1.axis, j2.position, j2.axis) < LENGTH_TOL


def mass_remark(mass: float, largest_moment: float, visual=None) -> str | None:
    """Why a mass [kg] and largest principal moment [kg m^2] are implausible for a gear-train part, or None.

    For a mesh imported in metres that is far too big (or in mm and far too
    small) the remark says what it would weigh in the other unit.
    """
    if not (mass > 0 and largest_moment > 0):
        return None
    k = math.sqrt(largest_moment / mass)  # radius of gyration [m]
    big = mass > MASS_RANGE[1] or k > GYRATION_RANGE[1]
    small = mass < MASS_RANGE[0] or k < GYRATION_RANGE[0]
    if not (big or small):
        return None
    text = (f"{mass:.4g} kg with a radius of gyration of {k * 1e3:.4g} mm is far outside what a gear-train part "
            f"weighs ({MASS_RANGE[0]:g} to {MASS_RANGE[1]:g} kg, {GYRATION_RANGE[0] * 1e3:g} to "
            f"{GYRATION_RANGE[1] * 1e3:g} mm)")
    if isinstance(visual, MeshFileSource) and (visual.unit == "m") == big:
        other, scale = ("mm", 1e-3) if big else ("m", 1e3)
        text += (f"; the file is read in {visual.unit}: read in {other} the part would weigh {mass * scale**3:.4g} kg "
                 f"with {k * scale * 1e3:.4g} mm: import it again with unit {other}")
    return text


def body_axis_line(body: RigidBody) -> tuple[tuple, tuple]:
    """World point and direction of a body's own z axis at its initial pose (the third column of its rotation)."""
    w, x, y, z = body.orientation
    return body.position, (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))


class _Checker:
    def __init__(self, model: Model):
        self.m = model
        self.out: list[Finding] = []

    def add(self, severity: str, item: str, message: str, fix: str = "") -> None:
        self.out.append(Finding(severity, item, message, fix))

    # ---------------------------------------------------------------- gear pairs

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

    def check_pair(self, pair: GearPair) -> None:
        j1, j2 = self.m.joints[pair.joint1], self.m.joints[pair.joint2]
        name = pair.name
        for label, j in (("joint1", j1), ("joint2", j2)):
            if j.body_j == pair.carrier:
                self.add("error", name, f"{label} {j.name!r} has the carrier {pair.carrier!r} as body_j; "
                         "body_i must be the carrier and body_j the gear: swap the joint's bodies")
            elif not self.gear_centre_fixed_on_carrier(j, pair.carrier):
                self.add("error", name, f"the centre of gear {j.body_j!r} ({label} {j.name!r}, body_i {j.body_i!r}) "
                         f"moves relative to the carrier {pair.carrier!r}: make the carrier body_i of {j.name!r}, "
                         "or choose as carrier the body both gear centres are fixed on")
        if j1.body_j == j2.body_j:
            self.add("error", name, f"joint1 and joint2 turn the same body {j1.body_j!r}; a pair needs two gears")
            return
        r1, r2 = pair.pitch_radii()
        if pair.kind == "bevel":
            self.check_bevel(pair, j1, j2)
            self.check_bevel_apexes(pair, j1, j2)
        else:
            angle = axis_angle(j1.axis, j2.axis)
            angle = min(angle, math.pi - angle)
            if angle > ANGLE_TOL:
                self.add("error", name, f"the joint axes must be parallel for a {pair.kind} pair; they are "
                         f"{math.degrees(angle):.4g} deg apart: align {j2.name!r} with {j1.name!r}")
            else:
                need = center_distance(pair.pair_spec())
                have = line_distance(j1.position, j1.axis, j2.position, j2.axis)
                if abs(have - need) > LENGTH_TOL + 1e-9 * need:
                    formula = "m_t (z1 + z2) / 2" if pair.kind == "external" else "m_t (z2 - z1) / 2"
                    if pair.x1 or pair.x2:
                        formula = "a_w with the profile shift"
                    self.add("error", name, f"the joint axes are {have * 1e3:.6g} mm apart; the centre distance "
                             f"{formula} is {need * 1e3:.6g} mm: move {j2.name!r} (and gear {j2.body_j!r})",
                             fix="place_gear2")
            if pair.kind == "internal" and pair.z1 >= pair.z2:
                self.add("error", name, f"an inner pair needs the pinion on joint 1 and the ring on joint 2 "
                         f"(z1 < z2); got z1 = {pair.z1}, z2 = {pair.z2}: swap the joints and the teeth")
            if angle <= ANGLE_TOL:
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
                                      (self.m.bodies.get(gear_body_name(self.m, pair, k)) for k in (1, 2))
                                      if b is not None and isinstance(b.visual, GearSource)]
        limit = 0.5 * max(widths) if max(widths) > 0 else LENGTH_TOL
        if offset > limit + LENGTH_TOL:
            g1, g2 = gear_body_name(self.m, pair, 1), gear_body_name(self.m, pair, 2)
            self.add("warning", pair.name, f"the mid-face planes of {g1!r} and {g2!r} are {offset * 1e3:.4g} mm apart "
                     f"along the axis (more than half the face width, {limit * 1e3:.4g} mm): the teeth do not face each "
                     "other. If a gear welded to the shaft carries the teeth, name it in gear1/gear2")

    def check_bevel(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> None:
        angle = axis_angle(j1.axis, j2.axis)
        if abs(angle - math.pi / 2) > ANGLE_TOL:
            self.add("error", pair.name, f"bevel joint axes must be at 90 deg; they are at {math.degrees(angle):.6g} deg")
        gap = line_distance(j1.position, j1.axis, j2.position, j2.axis)
        if gap > LENGTH_TOL:
            self.add("error", pair.name, f"bevel joint axes must intersect at the pitch apex; they miss by {gap * 1e3:.6g} mm",
                     fix="place_gear2" if abs(angle - math.pi / 2) <= ANGLE_TOL else "")
        want = bevel_pitch_angle(pair.z1, pair.z2)
        if abs(pair.pitch_angle - want) > ANGLE_TOL:
            self.add("error", pair.name, f"pitch angle of gear 1 is {math.degrees(pair.pitch_angle):.6g} deg; with 90 deg "
                     f"shafts it must be atan(z1 / z2) = {math.degrees(want):.6g} deg")

    def check_bevel_apexes(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> None:
        """Generated bevel gears must share their pitch apex (their cones touch along a line through it)."""
        apexes = []
        for joint in (j1, j2):
            body = self.m.bodies.get(joint.body_j)
            if body is None or not isinstance(body.visual, GearSource) or body.visual.spec.kind != "bevel":
                return
            h = bevel_geometry(body.visual.spec).apex_distance
            apexes.append(np.asarray(body.position) + h * rotate(body.orientation, (0.0, 0.0, 1.0)))
        gap = float(np.linalg.norm(apexes[1] - apexes[0]))
        if gap > LENGTH_TOL:
            self.add("warning", pair.name, f"the pitch apexes of the two bevel gears are {gap * 1e3:.6g} mm apart: "
                     f"move gear {j2.body_j!r} along its axis so its apex meets gear 1's", fix="place_gear2")

    def check_generated_gears(self, pair: GearPair, j1: RevoluteJoint, j2: RevoluteJoint) -> None:
        """Compare the pair's macro-geometry with the gears' generators, where known."""
        kind2 = {"bevel": "bevel", "internal": "inner"}.get(pair.kind, "helical")
        beta2 = pair.helix_angle if pair.kind == "internal" else -pair.helix_angle
        expect = {1: ("bevel" if pair.kind == "bevel" else "helical", pair.z1, pair.helix_angle),
                  2: (kind2, pair.z2, beta2)}
        for k, joint in ((1, j1), (2, j2)):
            body = self.m.bodies.get(gear_body_name(self.m, pair, k))
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
            if spec.teeth != z:
                self.add("warning", pair.name, f"z{k} = {z} but gear {body.name!r} was generated with {spec.teeth} teeth")
            if abs(spec.module - pair.module) > 1e-12:
                self.add("warning", pair.name, f"module {pair.module * 1e3:.6g} mm but gear {body.name!r} was generated "
                         f"with {spec.module * 1e3:.6g} mm")
            if kind != "bevel" and abs(spec.helix_angle - beta) > ANGLE_TOL:
                self.add("warning", pair.name, f"gear {k} needs a helix angle of {math.degrees(beta):.6g} deg but "
                         f"{body.name!r} was generated with {math.degrees(spec.helix_angle):.6g} deg")
            if kind == "bevel":
                want = pair.pitch_angle if k == 1 else math.pi / 2 - pair.pitch_angle
                if abs(spec.pitch_angle - want) > ANGLE_TOL:
                    self.add("warning", pair.name, f"gear {k} needs a pitch angle of {math.degrees(want):.6g} deg but "
                             f"{body.name!r} was generated with {math.degrees(spec.pitch_angle):.6g} deg")

    # ---------------------------------------------------------------- connections

    def check_connections(self) -> None:
        links: dict[frozenset, list[str]] = {}
        for j in self.m.joints.values():
            links.setdefault(frozenset((j.body_i, j.body_j)), []).append(j.name)
        for bodies, names in links.items():
            if len(names) > 1:
                self.add("warning", names[1], f"joints {', '.join(repr(n) for n in names)} all connect "
                         f"{' and '.join(sorted(bodies))}: the extra ones are redundant; remove them")
        seen_pairs: dict[frozenset, str] = {}
        for p in self.m.gear_pairs.values():
            key = frozenset((p.joint1, p.joint2))
            if key in seen_pairs:
                self.add("error", p.name, f"duplicates gear pair {seen_pairs[key]!r} on the same joints; remove one")
            seen_pairs[key] = p.name
        meshes: dict[str, str] = {}
        for f in self.m.forces.values():
            if isinstance(f, CompliantMesh):
                if f.pair in meshes:
                    self.add("error", f.name, f"gear pair {f.pair!r} already has compliant mesh {meshes[f.pair]!r}")
                meshes[f.pair] = f.name
        graph: dict[str, set[str]] = {b: set() for b in self.m.bodies}
        graph[GROUND] = set()
        for j in self.m.joints.values():
            graph[j.body_i].add(j.body_j)
            graph[j.body_j].add(j.body_i)
        for f in self.m.forces.values():
            if isinstance(f, (BearingSpringDamper, SpringDamper)):
                graph[f.body_i].add(f.body_j)
                graph[f.body_j].add(f.body_i)
        reach, stack = {GROUND}, [GROUND]
        while stack:
            for nxt in graph[stack.pop()] - reach:
                reach.add(nxt)
                stack.append(nxt)
        for b in self.m.bodies:
            if not graph[b]:
                self.add("warning", b, "is not connected to anything and will fly freely: add a joint")
            elif b not in reach:
                self.add("warning", b, "is not connected to the ground through joints or bearings; it floats with its neighbours")

    def check_gear_loops(self) -> None:
        """Closed loops of gear pairs: redundant when the ratios close (a planetary set), a locked train when not."""
        gears: set[str] = set()
        edges = []
        for p in self.m.gear_pairs.values():
            if any(isinstance(f, CompliantMesh) and f.pair == p.name for f in self.m.forces.values()):
                continue
            g1, g2 = self.m.joints[p.joint1].body_j, self.m.joints[p.joint2].body_j
            gears |= {g1, g2}
            edges.append((g1, g2, p.name))
        parent = {g: g for g in gears}
        tree: dict[str, list[tuple[str, str]]] = {g: [] for g in gears}  # gear -> [(neighbour, pair)]

        def root(g):
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        closing = []
        for a, b, name in edges:
            ra, rb = root(a), root(b)
            if ra == rb:
                closing.append((name, _tree_path(tree, a, b)))
            else:
                parent[ra] = rb
                tree[a].append((b, name))
                tree[b].append((a, name))
        loops = len(closing)
        stuck = set(locked_loops(self.m, [name for name, _ in closing]))
        locked = [(name, path) for name, path in closing if name in stuck]
        for name, path in locked:
            pairs = [pn for _, pn in path] + [name]
            self.add("error", name, f"the gear pairs {', '.join(repr(pn) for pn in pairs)} close a loop whose ratios "
                     "cannot agree: the loop locks the train (every speed would be held at zero). Remove one pair of "
                     "the loop, or mount one of its gears on a moving carrier")
        if loops > len(locked):
            n = loops - len(locked)
            self.add("info", "gear_pairs", f"the gear pairs close {n} loop(s): {n} constraint(s) are redundant "
                     "when the teeth agree (as in a planetary set); the solver shares the load by minimum-norm multipliers")

    def check_conditioning(self) -> None:
        """An effective mass matrix too ill-conditioned to integrate (an absurd inertia beside normal ones)."""
        found = mass_conditioning(self.m)
        if found is None:
            return
        cond, body = found
        if not cond <= CONDITION_LIMIT:
            self.add("error", body, f"the effective mass matrix has a condition number of {cond:.3g} (at most "
                     f"{CONDITION_LIMIT:.0e} can be integrated in double precision); its softest direction is mostly "
                     f"{body!r}: check that body's mass and inertia")

    def check_inertia_vs_shape(self) -> None:
        """Inertia implausibly small (or large) for a body's mass and the size of its shape."""
        for body in self.m.bodies.values():
            reach = cached(body, "reach", _reach_from_com)
            if not reach or body.mass <= 0:
                continue
            eig = cached(body, "principal_moments", lambda b: np.linalg.eigvalsh(np.asarray(b.inertia, float)))
            k_min, k_max = (math.sqrt(max(e, 0.0) / body.mass) for e in (eig[0], eig[-1]))
            if k_min < SMALL_GYRATION * reach:
                self.add("error", body.name, f"inertia is implausibly small for its mass and size: the smallest "
                         f"principal moment {eig[0]:.3g} kg m^2 gives {body.mass:.4g} kg a radius of gyration of "
                         f"{k_min * 1e3:.3g} mm, while its shape reaches {reach * 1e3:.4g} mm from the centre of mass "
                         f"(a solid of that size has at least {SMALL_GYRATION * reach * 1e3:.3g} mm): recompute the "
                         "mass properties from the shape")
            elif k_max > LARGE_GYRATION * reach:
                self.add("warning", body.name, f"inertia is larger than any mass inside its shape can give: the "
                         f"largest principal moment {eig[-1]:.3g} kg m^2 gives {body.mass:.4g} kg a radius of gyration "
                         f"of {k_max * 1e3:.4g} mm, beyond the {reach * 1e3:.4g} mm the shape reaches from the centre "
                         "of mass (intended for a flywheel not drawn? else recompute the mass properties)")

    def check_settings(self) -> None:
        """Options stored for another integrator are reported, not silently ignored."""
        st = self.m.settings
        unused = st.unused_options()
        if unused:
            users = {name: " or ".join(k for k, opts in INTEGRATOR_OPTIONS.items() if name in opts) for name in unused}
            self.add("info", "settings", "; ".join(f"{u} is set but only {users[u]} uses it (the integrator is "
                                                   f"{st.integrator})" for u in unused))

    def check_meshes(self) -> None:
        """Compliant meshes: fields not used, a face width for ISO stiffness, and a step that resolves the mesh."""
        st = self.m.settings
        for mesh in self.m.forces.values():
            if not isinstance(mesh, CompliantMesh) or mesh.pair not in self.m.gear_pairs:
                continue
            pair = self.m.gear_pairs[mesh.pair]
            for field, why in mesh.unused_fields():
                self.add("info", f"{mesh.name}.{field}", f"is set but not used: {why}")
            if mesh.stiffness == "iso6336" and pair.face_width <= 0:
                self.add("error", f"{mesh.name}.stiffness", f"ISO 6336 stiffness needs the face width of pair "
                         f"{pair.name!r} (it is 0): set pair {pair.name}.face_width, or give k_mean with stiffness = given")
                continue
            i1, i2 = polar_inertia(self.m, pair.joint1), polar_inertia(self.m, pair.joint2)
            if i1 <= 0 or i2 <= 0:
                continue
            model = mesh_model_for(pair, mesh, i1, i2)
            geo = pair_geometry(pair.pair_spec())
            m_eq = equivalent_mass(i1, i2, geo.base_radius_1, geo.base_radius_2)
            f_n = math.sqrt(model.k_mean * float(np.mean(model.profile)) / m_eq) / (2 * math.pi) if m_eq > 0 else 0.0
            speed = self.expected_speed(pair)
            f_mesh = pair.z1 * speed / (2 * math.pi)
            if f_mesh > 0 and st.step > 1.0 / (50.0 * f_mesh) and st.integrator not in STEP_IS_FIRST_ONLY:
                self.add("warning", "settings.step", f"{st.step:.3g} s is coarser than 1/50 of the mesh period of "
                         f"{mesh.name!r} ({1 / f_mesh:.3g} s at {f_mesh:.4g} Hz): the mesh response is not resolved; "
                         f"use a step of at most {1 / (50 * f_mesh):.3g} s")
            if f_n > 0 and st.integrator == "generalized_alpha" and st.rho_inf < 1.0 and st.step * f_n > 1.0 / 20:
                self.add("warning", "settings.rho_inf", f"generalised-alpha with rho_inf {st.rho_inf:g} damps the mesh "
                         f"mode of {mesh.name!r} ({f_n:.4g} Hz, {1 / (st.step * f_n):.3g} steps per period): set "
                         "rho_inf to 1, or a step under 1/20 of that period")
            if f_n > 0 and st.integrator == "rk4" and 2 * math.pi * f_n * st.step > 2.5:
                self.add("warning", "settings.step", f"RK4 is unstable on the mesh mode of {mesh.name!r} "
                         f"({f_n:.4g} Hz) at {st.step:.3g} s: use a step under {2.5 / (2 * math.pi * f_n):.3g} s")

    def expected_speed(self, pair: GearPair) -> float:
        """The largest speed [rad/s] of gear 1 relative to the carrier expected in the run: initial or motor-driven."""
        j1 = self.m.joints[pair.joint1]
        a = j1.unit_axis()
        w = lambda name: np.asarray(self.m.bodies[name].angular_velocity, float) if name in self.m.bodies else np.zeros(3)  # noqa: E731
        speed = abs(float(a @ (w(j1.body_j) - w(j1.body_i))))
        times = np.linspace(0.0, self.m.settings.t_end, 201)
        for f in self.m.forces.values():
            if isinstance(f, SpeedMotor) and f.joint == pair.joint1:
                speed = max(speed, float(np.abs([f.law(t) for t in times]).max()))
        return speed

    def check_interference(self) -> None:
        for a, b in overlapping_bodies(self.m):
            self.add("warning", a, f"overlaps {b!r} at the initial positions: move one of them (gears that mesh are "
                     "coupled by a gear pair between their joints, parts of one shaft by a fixed joint)")

    def check_mass_properties(self) -> None:
        """Mass and size far outside what a gear-train part has: most often a mesh imported in the wrong unit."""
        for body in self.m.bodies.values():
            eig = cached(body, "principal_moments", lambda b: np.linalg.eigvalsh(np.asarray(b.inertia, float)))
            text = mass_remark(body.mass, float(eig.max()), body.visual)
            if text:
                self.add("warning", body.name, text)

    def run(self) -> list[Finding]:
        structural = self.m.structural_problems()
        if structural:
            return [Finding("error", path, msg) for path, msg in structural]
        self.check_settings()
        self.check_mass_properties()
        self.check_interference()
        for pair in self.m.gear_pairs.values():
            self.check_pair(pair)
        self.check_connections()
        self.check_gear_loops()
        self.check_inertia_vs_shape()
        self.check_conditioning()
        self.check_meshes()
        return self.out


from core.gearing.gear_bodies import gear_body_name, mesh_centre, welded  # noqa: E402  (gearing imports the model)
from core.geometry.macro import center_distance, pair_geometry  # noqa: E402
from core.gearing.gear_bodies import polar_inertia  # noqa: E402
from core.gearing.mesh_model import equivalent_mass, mesh_model_for  # noqa: E402
from core.dynamics.soundness import CONDITION_LIMIT, locked_loops, mass_conditioning  # noqa: E402
from core.model.body_shapes import source_arrays  # noqa: E402


def _tree_path(tree: dict, a: str, b: str) -> list[tuple[str, str]]:
    """(gear, pair) steps from a to b along the spanning forest of gear pairs."""
    back = {a: None}
    queue = [a]
    while queue:
        g = queue.pop(0)
        if g == b:
            break
        for nxt, pair in tree[g]:
            if nxt not in back:
                back[nxt] = (g, pair)
                queue.append(nxt)
    path = []
    g = b
    while back.get(g) is not None:
        prev, pair = back[g]
        path.append((g, pair))
        g = prev
    return path[::-1]


def _reach_from_com(body) -> float | None:
    """Largest distance [m] from the body's centre of mass to its shape, or None when it has no readable shape."""
    if body.visual is None:
        return None
    try:
        vertices, _ = source_arrays(body.visual)
    except Exception:  # an imported file that cannot be read now is reported by the import checks
        return None
    if not len(vertices):
        return None
    return float(np.linalg.norm(vertices - np.asarray(body.com, float), axis=1).max())


def validate(model: Model) -> list[Finding]:
    """All findings for `model`, errors first."""
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(_Checker(model).run(), key=lambda f: order[f.severity])
