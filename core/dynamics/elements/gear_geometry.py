"""A gear pair's pitch-point frame from its packed geometry: what the gear pair, the lossy pair and the compliant
mesh read (the formulas are core.gearing.pitch_point's).

The packed geometry (PAIR_FLOATS floats from `pair_floats`): each gear's centre in its mid-face plane and its
axis, in the axes of its body (from the COM); the kind (+1 external, -1 internal, BEVEL); gear 1's working
pitch radius, the tangents of the working helix and transverse pressure angles; a bevel pair's mean cone
radius, pitch angle and the tangent of its pressure angle; a cylindrical pair's centre distance at the start.

A cylindrical pair's centres may move apart (gears on bearing spring-dampers under a compliant mesh): the pitch
point then divides the centre distance a in the ratio of the base radii and the working pressure angle follows
cos(alpha_w) a = r_b1 + r_b2 (r_b2 - r_b1 internal), so the line of action stays tangent to both base circles;
with the pitch point and angle of the start instead, a centre displaced by da at relative spin w would slip by
about w da along the line of action, a deflection that grows while the gears turn.
"""

from __future__ import annotations

import math

import numpy as np

from core.dynamics.elements.blocks import pose, put_force, vector
from core.gearing.gear_bodies import mesh_centre
from core.gearing.pitch_point import (PairGeometryData, bevel_force_parts, bevel_frame, bevel_frame_rate,
                                      cylinder_force_components, cylinder_force_parts, cylinder_frame,
                                      cylinder_frame_rate, pitch_jdot_v, with_resultant)
from core.geometry import vec3

C1, C2, A1, A2, KIND, R1, TAN_HELIX, TAN_PRESSURE, RM, PITCH, TAN_NORMAL, A0 = (0, 3, 6, 9, 12, 13, 14, 15, 16, 17,
                                                                             18, 19)
PAIR_FLOATS = 20
BEVEL = 2.0


def teeth(asm, pair, k: int) -> tuple[int, np.ndarray]:
    """The body that carries gear k (1 or 2) of `pair` (its joint's body, or the gear welded to it that the pair
    names: the tooth force acts there, so a weld carries it to the shaft) and the joint's axis in its axes."""
    frame = asm.element_of(pair.joint1 if k == 1 else pair.joint2).frame
    b = asm.index[asm.model.gear_body(pair, k)]
    return b, asm.pose0(b)[1].T @ (asm.pose0(frame.bj)[1] @ np.asarray(frame.aj, float))


def pair_floats(asm, pair) -> tuple[list[float], tuple[int, np.ndarray], tuple[int, np.ndarray]]:
    """The packed geometry of model GearPair `pair` on the assembly's start poses, and `teeth` of each gear."""
    model = asm.model
    geo = PairGeometryData.of(pair)
    gears, out, world = [], [], []
    for k in (1, 2):
        b, axis = teeth(asm, pair, k)
        x, rot = asm.pose0(b)
        centre = mesh_centre(model, pair, k)
        gears.append((b, axis))
        out.append((rot.T @ (centre - x), axis))
        world.append((centre, rot @ axis))
    (c1, a1), (c2, a2) = out
    d = world[1][0] - world[0][0]
    a0 = float(np.linalg.norm(d - (world[0][1] @ d) * world[0][1]))  # the centre distance in gear 1's plane
    kind = BEVEL if pair.kind == "bevel" else (-1.0 if pair.kind == "internal" else 1.0)
    return ([*c1, *c2, *a1, *a2, kind, geo.r1, math.tan(geo.working_helix_angle),
             math.tan(geo.working_pressure_angle), geo.mesh_radius_1, pair.pitch_angle, math.tan(pair.pressure_angle),
             a0], gears[0], gears[1])


def pair_frame(fp, bodies, b1, b2):
    """The pitch point P, the tangent t, the tooth force on gear 1 per unit Ft for Ft > 0 split into its base and
    separating parts (on the other flank: base - sep), and gamma = -(dJ/dt) v of the no-slip row t . (v1(P) -
    v2(P)) = 0, from the packed geometry fp and the bodies b1, b2 that carry the gears."""
    x1, r1, v1, w1 = pose(bodies, b1)
    x2, r2, v2, w2 = pose(bodies, b2)
    cen1 = vec3.add(x1, vec3.rotate(r1, vector(fp, C1)))
    cen2 = vec3.add(x2, vec3.rotate(r2, vector(fp, C2)))
    ax1 = vec3.rotate(r1, vector(fp, A1))
    c1_dot = vec3.add(v1, vec3.cross(w1, vec3.sub(cen1, x1)))
    c2_dot = vec3.add(v2, vec3.cross(w2, vec3.sub(cen2, x2)))
    if fp[KIND] == BEVEL:
        ax2 = vec3.rotate(r2, vector(fp, A2))
        point, t, u, s1, s = bevel_frame(fp[RM], fp[PITCH], cen1, ax1, cen2, ax2)
        base, sep = bevel_force_parts(fp[TAN_NORMAL], fp[PITCH], t, u, s1)
        p_dot, t_dot = bevel_frame_rate(fp[RM], fp[PITCH], ax1, u, s, cen1, cen2, c1_dot, vec3.cross(w1, ax1),
                                        c2_dot, ax2, vec3.cross(w2, ax2))
    else:
        # the pitch point and the working pressure angle at the centre distance a now (the module docstring)
        d = vec3.sub(cen2, cen1)
        along = vec3.dot(ax1, d)
        off = vec3.sub(d, vec3.scale(along, ax1))
        a = math.sqrt(vec3.dot(off, off))
        if a == 0.0 or fp[A0] == 0.0:  # gear 2's centre on gear 1's axis (now or at the start): no pitch point
            nan3 = (math.nan, math.nan, math.nan)
            return nan3, nan3, nan3, nan3, math.nan
        spread = a / fp[A0]
        r1 = fp[R1] * spread
        tan_pressure = math.sqrt(max(spread * spread * (1.0 + fp[TAN_PRESSURE] * fp[TAN_PRESSURE]) - 1.0, 0.0))
        point, t, u = cylinder_frame(fp[KIND], r1, cen1, ax1, cen2)
        base, sep = cylinder_force_parts(fp[TAN_HELIX], tan_pressure, t, ax1, u)
        a1_dot = vec3.cross(w1, ax1)
        p_dot, t_dot = cylinder_frame_rate(fp[KIND], r1, ax1, u, cen1, cen2, c1_dot, a1_dot, c2_dot)
        a_dot = (vec3.dot(off, vec3.sub(c2_dot, c1_dot)) - along * vec3.dot(off, a1_dot)) / a
        p_dot = vec3.add(p_dot, vec3.scale(fp[R1] * a_dot / fp[A0], u))  # the pitch point moving with a
    gamma = -pitch_jdot_v(point, t, p_dot, t_dot, x1, v1, w1, x2, v2, w2)
    return point, t, base, sep, gamma


def put_slip(blocks, r, point, t, bodies, b1, b2):
    """The no-slip row t . (v1(P) - v2(P)) on gear 1 (slot 0) and gear 2 (slot 1)."""
    put_force(blocks, r, 0, t, vec3.sub(point, pose(bodies, b1)[0]), 1.0)
    put_force(blocks, r, 1, t, vec3.sub(point, pose(bodies, b2)[0]), -1.0)


def put_approach(blocks, r, fp, bodies, b1, b2):
    """A compliant pair's two ports r, r + 1: the teeth's approach along the tooth force's base part and along
    its separating part (core.dynamics.elements.compliant_mesh deflects each flank by their sum or difference)."""
    point, _, base, sep, _ = pair_frame(fp, bodies, b1, b2)
    put_tooth_force(blocks, r, point, base, bodies, b1, b2, 1.0)
    put_tooth_force(blocks, r + 1, point, sep, bodies, b1, b2, 1.0)


APPROACH_PORTS = 2  # a compliant pair's ports (put_approach) and the extra states that integrate them


def put_tooth_force(blocks, r, point, force, bodies, b1, b2, share):
    """A force on gear 1 at P (slot 0) and `share` of its reaction on gear 2 (slot 1)."""
    put_force(blocks, r, 0, force, vec3.sub(point, pose(bodies, b1)[0]), 1.0)
    put_force(blocks, r, 1, force, vec3.sub(point, pose(bodies, b2)[0]), -share)


def put_pair_row(rows, r, fp, bodies, b1, b2, share):
    """A rigid pair's row r: J the no-slip row, G its tooth force (gear 2's by `share`: 1 without losses), gamma."""
    point, t, base, sep, gamma = pair_frame(fp, bodies, b1, b2)
    rj, rgp, rgs, gam, phi, _ = rows
    put_slip(rj, r, point, t, bodies, b1, b2)
    put_tooth_force(rgp, r, point, vec3.add(base, sep), bodies, b1, b2, share)
    put_tooth_force(rgs, r, point, sep, bodies, b1, b2, share)
    gam[r], phi[r] = gamma, 0.0
    return point, base, sep


def tooth_forces(fp, ft):
    """(Ft, Fr, Fa, Fc) [N] from the tangential force by the pair's gear formulas."""
    if fp[KIND] == BEVEL:
        tan_a = fp[TAN_NORMAL]
        return with_resultant(ft, abs(ft) * tan_a * np.cos(fp[PITCH]), abs(ft) * tan_a * np.sin(fp[PITCH]))
    return cylinder_force_components(ft, fp[TAN_PRESSURE], fp[TAN_HELIX])
