"""Where and how two gears touch: the pitch point, its directions, and the tooth-force formulas.

The gear-pair constraint is the no-slip condition at the pitch point P:
t . (v1(P) - v2(P)) = 0, with t the direction in which gear 1's pitch circle
moves. With both gear centres held on the carrier by their revolute joints
this is exactly the Willis equation n1.w1 + n2.w2 - (n1 + n2).wc = 0
(n1 = r1 a1, n2 = s2 r2 a2), and its multiplier is the tangential tooth force
Ft. The radial and axial components follow from Ft by the gear formulas and
act at P too, so the joints carry the bearing loads:

helical/spur  Fr = |Ft| tan(alpha_wt),  Fa = Ft tan(beta_w)   (alpha_wt the working transverse pressure
              angle, tan(alpha_wt) = tan(alpha_n) / cos(beta) without profile shift; beta_w the helix
              angle at the working pitch circle)
bevel         Fr = |Ft| tan(alpha) cos(gamma1),    Fa = |Ft| tan(alpha) sin(gamma1)
total         Fc = sqrt(Ft^2 + Fr^2 + Fa^2)

A bevel pair's pitch point is at the mean pitch cone, r_m = r_e - (b/2) sin(gamma)
(ISO 10300-1, AGMA 2005): Ft = T1 / r_m1 there and the bearing lever arms
are measured to it. A cylindrical pair's pitch point lies in the mid-face
plane of each gear (the solver passes the gear centres in that plane).

The radial component always pushes the gears apart and the bevel thrust
always pushes gear 1 away from the apex; the helical thrust changes sign with
Ft (the flank in contact).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.geometry.macro import pair_geometry
from core.geometry.vec3 import add, cross, dot, scale, sub

#: the tooth-force channels' meanings and signs (their tooltips): forces on gear 1 at the pitch point; gear 2
#: takes the opposite force
TOOTH_FORCE_TEXT = {
    "Ft": "tangential tooth force on gear 1 at the pitch point: positive when it pushes gear 1's pitch circle the "
          "way it moves as gear 1 turns positively about its axis (gear 1 driven), negative when gear 1 drives; "
          "gear 2 takes -Ft",
    "Fr": "radial tooth force, |Ft| tan(alpha_wt) (bevel: |Ft| tan(alpha) cos(gamma1)): never negative, it pushes "
          "the gears apart",
    "Fa": "axial tooth force, Ft tan(beta_w): positive pushes gear 1 against its axis direction, and it changes "
          "sign with Ft (the other flank); bevel: |Ft| tan(alpha) sin(gamma1), pushing gear 1 from the apex",
    "Fc": "total tooth force sqrt(Ft^2 + Fr^2 + Fa^2) on each gear: never negative"}


@dataclass(frozen=True)
class PairGeometryData:
    """What the solver keeps of a gear pair [m, rad]."""

    kind: str
    r1: float
    r2: float
    z1: int
    pressure_angle: float
    helix_angle: float
    pitch_angle: float
    face_width: float = 0.0
    working_pressure_angle: float = 0.0  # alpha_wt, transverse [rad] (cylindrical pairs)
    working_helix_angle: float = 0.0  # beta_w at the working pitch circle [rad]

    @classmethod
    def of(cls, pair) -> "PairGeometryData":
        """From a model GearPair: working pitch radii (profile shift included), mean cone for bevel."""
        geo = pair_geometry(pair.pair_spec())
        r1, r2 = geo.working_radius_1, geo.working_radius_2
        beta_w = math.atan(math.tan(pair.helix_angle) * r1 / pair.pitch_radii()[0])
        return cls(pair.kind, r1, r2, pair.z1, pair.pressure_angle, pair.helix_angle, pair.pitch_angle,
                   pair.face_width, geo.working_pressure_angle, beta_w)

    @property
    def mesh_radius_1(self) -> float:
        """Radius [m] of gear 1 at the pitch point: the mean cone radius for a bevel pair, else r1."""
        if self.kind == "bevel":
            return bevel_mean_radius(self.r1, self.face_width, self.pitch_angle)
        return self.r1


def bevel_mean_radius(outer_radius: float, face_width: float, pitch_angle: float) -> float:
    """r_m = r_e - (b / 2) sin(gamma) [m]: pitch radius at the middle of the face (ISO 10300-1)."""
    return outer_radius - 0.5 * face_width * math.sin(pitch_angle)


@dataclass
class ContactFrame:
    """Pitch point P and directions at one instant (world) [m]."""

    point: np.ndarray
    t: np.ndarray  # tangential: motion of gear 1's pitch circle for positive spin about a1
    u: np.ndarray  # radial: from gear 1's centre towards P
    a1: np.ndarray  # gear 1's axis
    s1: np.ndarray  # bevel: from the apex towards gear 1 (its thrust direction); else a1
    apex: float = 0.0  # bevel: the apex is c1 + apex a1 [m] (the point of gear 1's axis closest to gear 2's)


def contact_frame(g: PairGeometryData, c1: np.ndarray, a1: np.ndarray, c2: np.ndarray, a2: np.ndarray) -> ContactFrame:
    """Pitch point and directions from the joint points c and axes a of both gears (world)."""
    if g.kind == "bevel":
        point, t, u, s1, s = bevel_frame(g.mesh_radius_1, g.pitch_angle, tuple(c1), tuple(a1), tuple(c2), tuple(a2))
        return ContactFrame(np.array(point), np.array(t), np.array(u), a1, np.array(s1), s)
    point, t, u = (np.array(v) for v in cylinder_frame(-1.0 if g.kind == "internal" else 1.0, g.r1, c1, a1, c2))
    return ContactFrame(point, t, u, a1, a1, 0.0)


def bevel_frame(rm: float, pitch_angle: float, c1, a1, c2, a2):
    """A bevel pair's pitch point P, tangent t, radial direction u, gear 1's thrust direction s1 (from the apex
    towards gear 1) and the apex's offset s along a1 (the apex is c1 + s a1, the point of gear 1's axis closest
    to gear 2's: they intersect on a valid pair), from the gears' centres c and axes a (world) and gear 1's mean
    cone radius rm [m] and pitch angle [rad]: u is the unit part of c2 - apex normal to a1, P = apex + s1 rm /
    tan(gamma1) + rm u, t = a1 x u. 3-sequences (core.geometry.vec3)."""
    s = apex_offset(c1, a1, c2, a2)
    apex = add(c1, scale(s, a1))
    side = sub(c1, apex)
    size = math.sqrt(dot(side, side))
    s1 = scale(1.0 / size, side) if size > 1e-12 else scale(-1.0, a1)
    d = sub(c2, apex)
    d_perp = sub(d, scale(dot(a1, d), a1))
    size = math.sqrt(dot(d_perp, d_perp))  # 0: gear 2's centre on gear 1's axis, no radial direction (NaN)
    u = scale(1.0 / size if size > 0.0 else math.nan, d_perp)
    point = add(add(apex, scale(rm / math.tan(pitch_angle), s1)), scale(rm, u))
    return point, cross(a1, u), u, s1, s


def cylinder_frame(sign: float, r1: float, c1, a1, c2):
    """A cylindrical pair's pitch point P, tangent t and radial direction u (world), from gear 1's centre c1 and
    axis a1 and gear 2's centre c2 [m]: u is the unit part of c2 - c1 normal to a1, turned round (sign -1)
    for an internal pair, whose pinion's pitch point faces away from the ring's centre; P = c1 + r1 u and
    t = a1 x u. Vectors are 3-sequences (core.geometry.vec3); the compiled Cartesian evaluation runs it too."""
    d = sub(c2, c1)
    along = dot(a1, d)
    p = sub(d, scale(along, a1))
    length = math.sqrt(dot(p, p))
    u = (sign * (p[0] / length), sign * (p[1] / length), sign * (p[2] / length))
    return add(c1, scale(r1, u)), cross(a1, u), u


def apex_offset(c1, a1, c2, a2) -> float:
    """s [m] with c1 + s a1 the point of gear 1's axis closest to gear 2's axis: with w0 = c1 - c2 and
    b = a1 . a2, s = (b a2.w0 - a1.w0) / (1 - b^2); 0 for parallel axes."""
    w0 = sub(c1, c2)
    b = dot(a1, a2)
    den = 1.0 - b * b
    return (b * dot(a2, w0) - dot(a1, w0)) / den if den > 1e-12 else 0.0


def contact_frame_rate(g: PairGeometryData, f: ContactFrame, c1, c2, c1_dot, a1_dot, c2_dot, a2=None, a2_dot=None):
    """(dP/dt, dt/dt) of a pair's frame `f` for moving centres and axes (world) [m/s, 1/s]: `cylinder_frame_rate`
    or `bevel_frame_rate` (a bevel pair also needs gear 2's axis a2 and its rate)."""
    if g.kind == "bevel":
        return bevel_frame_rate(g.mesh_radius_1, g.pitch_angle, tuple(f.a1), tuple(f.u), f.apex, c1, c2, c1_dot,
                                a1_dot, c2_dot, a2, a2_dot)
    return cylinder_frame_rate(-1.0 if g.kind == "internal" else 1.0, g.r1, f.a1, f.u, c1, c2, c1_dot, a1_dot,
                               c2_dot)


def cylinder_frame_rate(sign: float, r1: float, a1, u, c1, c2, c1_dot, a1_dot, c2_dot):
    """(dP/dt, dt/dt) of a cylindrical pair's frame (`cylinder_frame`: sign, r1 [m], a1 and u) for centres c
    moving at c_dot [m/s] and gear 1's axis turning at a1_dot [1/s] (3-sequences, core.geometry.vec3)."""
    ax, ay, az = a1[0], a1[1], a1[2]
    ux, uy, uz = u[0], u[1], u[2]
    bx, by, bz = a1_dot[0], a1_dot[1], a1_dot[2]
    dx, dy, dz = c2[0] - c1[0], c2[1] - c1[1], c2[2] - c1[2]
    ex, ey, ez = c2_dot[0] - c1_dot[0], c2_dot[1] - c1_dot[1], c2_dot[2] - c1_dot[2]
    along = ax * dx + ay * dy + az * dz
    px, py, pz = dx - ax * along, dy - ay * along, dz - az * along
    length = math.sqrt(px * px + py * py + pz * pz)
    nx, ny, nz = px / length, py / length, pz / length
    along_dot = bx * dx + by * dy + bz * dz + ax * ex + ay * ey + az * ez
    qx, qy, qz = ex - bx * along - ax * along_dot, ey - by * along - ay * along_dot, ez - bz * along - az * along_dot
    nq = nx * qx + ny * qy + nz * qz
    vx, vy, vz = (sign * (qx - nx * nq) / length, sign * (qy - ny * nq) / length, sign * (qz - nz * nq) / length)
    point_dot = (c1_dot[0] + r1 * vx, c1_dot[1] + r1 * vy, c1_dot[2] + r1 * vz)
    t_dot = (by * uz - bz * uy + ay * vz - az * vy,
             bz * ux - bx * uz + az * vx - ax * vz,
             bx * uy - by * ux + ax * vy - ay * vx)
    return point_dot, t_dot


def pitch_jdot_v(point, t, point_dot, t_dot, x1, v1, w1, x2, v2, w2) -> float:
    """(dJ/dt) v of a gear pair's row t . (v1(P) - v2(P)) = 0 along the motion, v held: with vP_k = v_k +
    w_k x (P - x_k), t' . (vP1 - vP2) + t . (w1 x (P' - v1) - w2 x (P' - v2)), P' and t' the frame's rates
    (`contact_frame_rate`). 3-sequences (core.geometry.vec3)."""
    vp1 = add(v1, cross(w1, sub(point, x1)))
    vp2 = add(v2, cross(w2, sub(point, x2)))
    k1, k2 = cross(w1, sub(point_dot, v1)), cross(w2, sub(point_dot, v2))
    return (t_dot[0] * (vp1[0] - vp2[0]) + t_dot[1] * (vp1[1] - vp2[1]) + t_dot[2] * (vp1[2] - vp2[2])
            + t[0] * (k1[0] - k2[0]) + t[1] * (k1[1] - k2[1]) + t[2] * (k1[2] - k2[2]))
def bevel_frame_rate(rm: float, pitch_angle: float, a1, u, s: float, c1, c2, c1_dot, a1_dot, c2_dot, a2, a2_dot):
    """(dP/dt, dt/dt) of a bevel pair's frame (`bevel_frame`: rm, pitch angle, a1, u and the apex offset s) for
    centres c moving at c_dot [m/s] and axes turning at a_dot [1/s]: the apex construction differentiated by
    the product and quotient rules. 3-sequences (core.geometry.vec3)."""
    w0, w0d = sub(c1, c2), sub(c1_dot, c2_dot)
    b = dot(a1, a2)
    bd = dot(a1_dot, a2) + dot(a1, a2_dot)
    den = 1.0 - b * b
    s_d = 0.0
    if den > 1e-12:  # as apex_offset: parallel axes leave the apex at c1
        num_d = bd * dot(a2, w0) + b * (dot(a2_dot, w0) + dot(a2, w0d)) - dot(a1_dot, w0) - dot(a1, w0d)
        s_d = (num_d + s * 2.0 * b * bd) / den
    apex = add(c1, scale(s, a1))
    apex_d = add(add(c1_dot, scale(s_d, a1)), scale(s, a1_dot))
    s1_d = scale(-1.0 if abs(s) <= 1e-12 else -math.copysign(1.0, s), a1_dot)
    d, d_d = sub(c2, apex), sub(c2_dot, apex_d)
    along = dot(a1, d)
    d_perp = sub(d, scale(along, a1))
    perp_d = sub(sub(d_d, scale(along, a1_dot)), scale(dot(a1_dot, d) + dot(a1, d_d), a1))
    size = math.sqrt(dot(d_perp, d_perp))  # 0: gear 2's centre on gear 1's axis, where bevel_frame's u is NaN
    u_d = scale(1.0 / size if size > 0.0 else math.nan, sub(perp_d, scale(dot(u, perp_d), u)))
    point_d = add(add(apex_d, scale(rm / math.tan(pitch_angle), s1_d)), scale(rm, u_d))
    return point_d, add(cross(a1_dot, u), cross(a1, u_d))


def force_parts(g: PairGeometryData, f: ContactFrame) -> tuple[np.ndarray, np.ndarray]:
    """Tooth force on gear 1 per unit Ft: base + sign(Ft) * separating."""
    if g.kind == "bevel":
        base, sep = bevel_force_parts(math.tan(g.pressure_angle), g.pitch_angle, f.t, f.u, f.s1)
    else:
        base, sep = cylinder_force_parts(math.tan(g.working_helix_angle), math.tan(g.working_pressure_angle), f.t,
                                         f.a1, f.u)
    return np.array(base), np.array(sep)


def bevel_force_parts(tan_pressure: float, pitch_angle: float, t, u, s1):
    """A bevel pair's tooth force on gear 1 per unit Ft: base t and separating tan(alpha) (-cos(gamma1) u +
    sin(gamma1) s1), the radial force pushing the gears apart and the thrust pushing gear 1 from the apex."""
    return t, scale(tan_pressure, add(scale(-math.cos(pitch_angle), u), scale(math.sin(pitch_angle), s1)))


def cylinder_force_parts(tan_helix: float, tan_pressure: float, t, a1, u):
    """A cylindrical pair's tooth force on gear 1 per unit Ft (`force_parts`): base t - tan(beta_w) a1 (the
    tooth trace on gear 1 is cos(beta_w) a1 + sin(beta_w) t; the force is normal to it in the pitch plane)
    and separating -tan(alpha_wt) u, from the working helix and transverse pressure angles' tangents."""
    return sub(t, scale(tan_helix, a1)), scale(-tan_pressure, u)


def force_direction(g: PairGeometryData, f: ContactFrame, sign: float) -> np.ndarray:
    """Tooth force on gear 1 per unit Ft, for Ft of the given sign (the flank in contact)."""
    base, sep = force_parts(g, f)
    return base + sign * sep


def cylinder_force_components(ft, tan_pressure: float, tan_helix: float):
    """(Ft, Fr, Fa, Fc) [N] of a cylindrical pair from the tangential force and the tangents of its working
    transverse pressure and helix angles (ft a number, or an array of them; the compiled sample runs it on
    numbers)."""
    return with_resultant(ft, abs(ft) * tan_pressure, ft * tan_helix)


def with_resultant(ft, fr, fa):
    """(Ft, Fr, Fa, Fc) [N]: the three components and their resultant Fc."""
    return ft, fr, fa, (ft * ft + fr * fr + fa * fa) ** 0.5
