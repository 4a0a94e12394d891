"""A fixed joint: body j is welded to body i (six rows: the point, and the axes' relative turn), unless joint
coordinates hold it by their own construction."""

from __future__ import annotations


from core.dynamics.elements.base import NROWS, OUT0, ROW0, Element, element
from core.dynamics.elements.blocks import copy_row, pose, put, vector
from core.dynamics.elements.frames import JointFrame
from core.dynamics.elements.revolute_joint import joint_reaction, reaction_channels, watch_joint
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import FixedJoint

SI, SJ, REL = 0, 3, 6  # the point in both bodies' axes, body i's axes seen in body j at the start (3 x 3)
BI, BJ = 10, 11


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    if ip[NROWS] == 0:
        return
    rj_, rgp, _, gam, phi, _ = rows
    xi, ri, _, wi = pose(bodies, ip[BI])
    xj, rj, _, wj = pose(bodies, ip[BJ])
    arm_i, arm_j = vec3.rotate(ri, vector(fp, SI)), vec3.rotate(rj, vector(fp, SJ))
    gp = vec3.sub(vec3.cross(wj, vec3.cross(wj, arm_j)), vec3.cross(wi, vec3.cross(wi, arm_i)))
    pp = vec3.sub(vec3.add(xi, arm_i), vec3.add(xj, arm_j))
    r0 = ip[ROW0]
    zero = (0.0, 0.0, 0.0)
    # the orientation error: half the sum of e_k(i) x e_k(j) over the axes; its rate is w_j - w_i
    turn = (0.0, 0.0, 0.0)
    for k in range(3):
        ek_i = (ri[0, k], ri[1, k], ri[2, k])
        ek_j = vec3.rotate(rj, (fp[REL + k], fp[REL + 3 + k], fp[REL + 6 + k]))
        turn = vec3.add(turn, vec3.scale(0.5, vec3.cross(ek_i, ek_j)))
    for a in range(3):
        unit = (1.0 if a == 0 else 0.0, 1.0 if a == 1 else 0.0, 1.0 if a == 2 else 0.0)
        put(rj_, r0 + a, 0, unit, vec3.cross(arm_i, unit), 1.0)
        put(rj_, r0 + a, 1, unit, vec3.cross(arm_j, unit), -1.0)
        put(rj_, r0 + 3 + a, 0, zero, unit, -1.0)
        put(rj_, r0 + 3 + a, 1, zero, unit, 1.0)
        gam[r0 + a], phi[r0 + a] = gp[a], pp[a]
        gam[r0 + 3 + a], phi[r0 + 3 + a] = 0.0, turn[a]
    for a in range(6):
        copy_row(rgp, rj_, r0 + a)


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    joint_reaction(fp[SJ:SJ + 3], ip, bodies, rows, lam, react, out, ip[OUT0])


@element(FixedJoint)
class FixedJointElement(Element):
    FLOATS, INTS = 15, 2

    def __init__(self, joint, asm):
        super().__init__(joint, asm)
        self.frame = f = JointFrame(asm, joint.body_i, joint.body_j, joint.position, (0.0, 0.0, 1.0))
        if not asm.held(joint.name):
            asm.rows(self, 6, (f.bi, f.bj), holonomic=True)
            watch_joint(asm, self)

    def params(self):
        f = self.frame
        return [*f.si, *f.sj, *f.rel.ravel()], [f.bi, f.bj]

    def channels(self) -> list[Channel]:
        return reaction_channels(self.name)
