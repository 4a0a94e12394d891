"""A revolute joint: body j (the gear) turns about an axis fixed in body i (the carrier).

Five rows hold it (the point, and the axis by two normals of body i), unless joint coordinates hold it by
their own construction (a tree joint: no rows, its reaction from Newton-Euler on its subtree) or a bearing
carries body j (`on_bearing`: no rows and no reaction; the bearing's springs hold body j). One port
measures body j's spin relative to body i about the axis, and an extra state integrates it: the joint's
angle, which torques, springs and compliant meshes read.
"""

from __future__ import annotations

from core.dynamics.elements.base import (EDGE, NROWS, OUT0, PORT0, ROW0, X0, Element, element)
from core.dynamics.elements.blocks import copy_row, pose, put, put_spin, vector
from core.dynamics.elements.frames import JointFrame
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import RevoluteJoint

SI, SJ, AI, AJ, B1, B2 = 0, 3, 6, 9, 12, 15  # the frame's vectors in the parameter row
BI, BJ, REACTS = 10, 11, 12  # the bodies in the int row; 1 when it reports a reaction


def revolute_terms(xi, ri, wi, xj, rj, wj, si, sj, aj, b1, b2):
    """A revolute joint's rows at one instant, from body i's and j's COM x, rotation r and spin w (world) and the
    joint's point from each COM s, body j's axis aj and body i's two normals b1, b2 (body axes): the arms R s of
    both bodies, gamma (5,) (-(dJ/dt) v), phi (5,) (the point's gap, then b . a for each normal) and the
    angular J entries b x a of the two axis rows on body i (body j's are their negatives). The linear J entries
    are the identity (body i) and its negative, the angular ones of the point rows -[arm_i]x and [arm_j]x.
    Vectors are 3-sequences and matrices r[row, column] (core.geometry.vec3)."""
    arm_i, arm_j = vec3.rotate(ri, si), vec3.rotate(rj, sj)
    gp = vec3.sub(vec3.cross(wj, vec3.cross(wj, arm_j)), vec3.cross(wi, vec3.cross(wi, arm_i)))
    pp = vec3.sub(vec3.add(xi, arm_i), vec3.add(xj, arm_j))
    a = vec3.rotate(rj, aj)
    wa = vec3.cross(wj, a)
    b = vec3.rotate(ri, b1)
    wb = vec3.cross(wi, b)
    gam1 = -(vec3.dot(vec3.cross(wi, wb), a) + 2.0 * vec3.dot(wb, wa) + vec3.dot(b, vec3.cross(wj, wa)))
    c1, phi1 = vec3.cross(b, a), vec3.dot(b, a)
    b = vec3.rotate(ri, b2)
    wb = vec3.cross(wi, b)
    gam2 = -(vec3.dot(vec3.cross(wi, wb), a) + 2.0 * vec3.dot(wb, wa) + vec3.dot(b, vec3.cross(wj, wa)))
    c2, phi2 = vec3.cross(b, a), vec3.dot(b, a)
    return arm_i, arm_j, (gp[0], gp[1], gp[2], gam1, gam2), (pp[0], pp[1], pp[2], phi1, phi2), c1, c2


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    xi, ri, _, wi = pose(bodies, ip[BI])
    xj, rj, _, wj = pose(bodies, ip[BJ])
    pr = ports[0]
    put_spin(pr, ip[PORT0], 1, 0, vec3.rotate(ri, vector(fp, AI)))
    if ip[NROWS] == 0:
        return
    rj_, rgp, _, gam, phi, _ = rows
    r0 = ip[ROW0]
    arm_i, arm_j, g, ph, c1, c2 = revolute_terms(xi, ri, wi, xj, rj, wj, vector(fp, SI), vector(fp, SJ),
                                                 vector(fp, AJ), vector(fp, B1), vector(fp, B2))
    zero = (0.0, 0.0, 0.0)
    for a in range(3):
        unit = (1.0 if a == 0 else 0.0, 1.0 if a == 1 else 0.0, 1.0 if a == 2 else 0.0)
        # row a of -[arm_i]x is arm_i x e_a; of [arm_j]x, e_a x arm_j
        put(rj_, r0 + a, 0, unit, vec3.cross(arm_i, unit), 1.0)
        put(rj_, r0 + a, 1, unit, vec3.cross(arm_j, unit), -1.0)
    put(rj_, r0 + 3, 0, zero, c1, 1.0)
    put(rj_, r0 + 3, 1, zero, c1, -1.0)
    put(rj_, r0 + 4, 0, zero, c2, 1.0)
    put(rj_, r0 + 4, 1, zero, c2, -1.0)
    for a in range(5):
        gam[r0 + a], phi[r0 + a] = g[a], ph[a]
        copy_row(rgp, rj_, r0 + a)


def law(t, fb, ib, fp, ip, disc, state, forces):
    forces[4][ip[X0]] = state[1][ip[PORT0]]  # the angle's rate: the relative spin


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    at = ip[OUT0]
    out[at] = state[3][ip[X0]]
    out[at + 1] = state[1][ip[PORT0]]
    if ip[REACTS]:
        joint_reaction(fp[SJ:SJ + 3], ip, bodies, rows, lam, react, out, at + 2)


def joint_reaction(sj, ip, bodies, rows, lam, react, out, at):
    """The joint's reaction on body j, force [N] and moment about the joint's point [N m] (world), into out[at:at
    + 6]: from its rows' multipliers (G_j^T lambda), or the formulation's Newton-Euler for a tree joint."""
    if ip[NROWS] == 0:
        for a in range(6):
            out[at + a] = react[ip[EDGE], a]
        return
    rgp = rows[1]
    f, m = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    for r in range(ip[ROW0], ip[ROW0] + ip[NROWS]):
        f = vec3.add(f, vec3.scale(lam[r], (rgp[r, 1, 0], rgp[r, 1, 1], rgp[r, 1, 2])))
        m = vec3.add(m, vec3.scale(lam[r], (rgp[r, 1, 3], rgp[r, 1, 4], rgp[r, 1, 5])))
    pos, rot = bodies[0], bodies[1]
    bj = ip[BJ]
    ground = bj == pos.shape[0] - 1
    arm = (0.0, 0.0, 0.0) if ground else vec3.rotate(rot[bj], (sj[0], sj[1], sj[2]))
    moment = vec3.sub(m, vec3.cross(arm, f))
    for a in range(3):
        out[at + a] = f[a]
        out[at + 3 + a] = moment[a]


@element(RevoluteJoint)
class RevoluteJointElement(Element):
    FLOATS, INTS = 18, 3

    def __init__(self, joint, asm):
        super().__init__(joint, asm)
        self.frame = f = JointFrame(asm, joint.body_i, joint.body_j, joint.position, joint.axis)
        self.on_bearing = joint.on_bearing
        if not asm.held(joint.name) and not joint.on_bearing:
            asm.rows(self, 5, (f.bi, f.bj), holonomic=True)
            watch_joint(asm, self)
        asm.ports(self, 1, (f.bi, f.bj))
        asm.extras(self, 1)

    def params(self):
        return self.frame.floats(), [self.frame.bi, self.frame.bj, 0 if self.on_bearing else 1]

    def channels(self):
        n = self.name
        return ([Channel(n, "angle", "rad", "joint", "relative angle about the axis"),
                 Channel(n, "speed", "rad/s", "joint", "relative speed about the axis")]
                + ([] if self.on_bearing else reaction_channels(n)))


def watch_joint(asm, element) -> None:
    """A joint's rows' position errors, watched during a run: the point's gap [m] (its first three rows) and the
    axis' [rad] (the rest)."""
    asm.drift(element, "joint position error", "m", rows=(element.row0, 3), norm=True)
    asm.drift(element, "joint axis error", "rad", rows=(element.row0 + 3, element.nrows - 3))


def reaction_channels(name: str) -> list[Channel]:
    """A joint's reaction channels: force and torque on body j, world."""
    return ([Channel(name, f"F{a}", "N", "joint", "reaction force on body j, world") for a in "xyz"]
            + [Channel(name, f"T{a}", "N m", "joint", "reaction torque on body j about the joint point, world")
               for a in "xyz"])
