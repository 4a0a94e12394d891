"""A bearing spring-damper between a housing (body i) and a shaft (body j) at a point: radial, axial and tilt
stiffness and damping, the spin about the axis free.

Six ports at the point, three forces and three moments along the world axes (their rates: the relative
velocity of the point and the relative spin); the point's relative displacement, the axes' relative tilt and
the axis itself are its positions.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.elements.base import OUT0, PORT0, POS0, Element, element
from core.dynamics.elements.blocks import pose, put, put_force, vector
from core.dynamics.elements.frames import JointFrame
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import BearingSpringDamper

SI, SJ, AI, AJ, KR, CR, KA, CA, KT, CT = 0, 3, 6, 9, 12, 13, 14, 15, 16, 17
BI, BJ = 10, 11
UNITS = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
ZERO = (0.0, 0.0, 0.0)


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    xi, ri, _, _ = pose(bodies, ip[BI])
    xj, rj, _, _ = pose(bodies, ip[BJ])
    arm_i, arm_j = vec3.rotate(ri, vector(fp, SI)), vec3.rotate(rj, vector(fp, SJ))
    a = vec3.rotate(ri, vector(fp, AI))
    d = vec3.sub(vec3.add(xj, arm_j), vec3.add(xi, arm_i))
    tilt = vec3.cross(a, vec3.rotate(rj, vector(fp, AJ)))
    pr, p = ports[0], ip[PORT0]
    for k in range(3):
        put_force(pr, p + k, 1, UNITS[k], arm_j, 1.0)
        put_force(pr, p + k, 0, UNITS[k], arm_i, -1.0)
        put(pr, p + 3 + k, 1, ZERO, UNITS[k], 1.0)
        put(pr, p + 3 + k, 0, ZERO, UNITS[k], -1.0)
    q = ports[1]
    at = ip[POS0]
    for k in range(3):
        q[at + k], q[at + 3 + k], q[at + 6 + k] = d[k], tilt[k], a[k]


def loads(fp, ip, state):
    """The force and moment on the shaft [N, N m] (world), the energy [J] and the dissipated power [W]."""
    q, pv = state[2], state[1]
    at, p = ip[POS0], ip[PORT0]
    d, tilt, a = (q[at], q[at + 1], q[at + 2]), (q[at + 3], q[at + 4], q[at + 5]), (q[at + 6], q[at + 7], q[at + 8])
    dv, dw = (pv[p], pv[p + 1], pv[p + 2]), (pv[p + 3], pv[p + 4], pv[p + 5])
    da, dva = vec3.scale(vec3.dot(a, d), a), vec3.scale(vec3.dot(a, dv), a)
    dr, dvr = vec3.sub(d, da), vec3.sub(dv, dva)
    dw_perp = vec3.sub(dw, vec3.scale(vec3.dot(a, dw), a))
    force = vec3.scale(-1.0, vec3.add(vec3.add(vec3.scale(fp[KR], dr), vec3.scale(fp[CR], dvr)),
                                      vec3.add(vec3.scale(fp[KA], da), vec3.scale(fp[CA], dva))))
    moment = vec3.scale(-1.0, vec3.add(vec3.scale(fp[KT], tilt), vec3.scale(fp[CT], dw_perp)))
    energy = 0.5 * (fp[KR] * vec3.dot(dr, dr) + fp[KA] * vec3.dot(da, da) + fp[KT] * vec3.dot(tilt, tilt))
    lost = fp[CR] * vec3.dot(dvr, dvr) + fp[CA] * vec3.dot(dva, dva) + fp[CT] * vec3.dot(dw_perp, dw_perp)
    return force, moment, energy, lost


def law(t, fb, ib, fp, ip, disc, state, forces):
    force, moment, energy, lost = loads(fp, ip, state)
    u, p = forces[0], ip[PORT0]
    for k in range(3):
        u[p + k], u[p + 3 + k] = force[k], moment[k]
    forces[5][0] += energy
    forces[5][2] += lost


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    u, p, at = forces[0], ip[PORT0], ip[OUT0]
    for k in range(3):
        out[at + k] = u[p + k]


@element(BearingSpringDamper)
class BearingElement(Element):
    FLOATS, INTS = 18, 2

    def __init__(self, bearing, asm):
        super().__init__(bearing, asm)
        self.frame = f = JointFrame(asm, bearing.body_i, bearing.body_j, bearing.position, bearing.axis)
        asm.ports(self, 6, (f.bi, f.bj))
        asm.positions(self, 9)

    def params(self):
        e, f = self.entity, self.frame
        return ([*f.si, *f.sj, *f.ai, *f.aj, e.radial_stiffness, e.radial_damping, e.axial_stiffness,
                 e.axial_damping, e.tilt_stiffness, e.tilt_damping], [f.bi, f.bj])

    def channels(self):
        return [Channel(self.name, f"F{a}", "N", "force", "bearing force on the shaft, world") for a in "xyz"]

    def support_rows(self, ports):
        """The point's relative velocity and the relative spin square to the axis (at the start): the spin about
        the axis is free."""
        a = np.asarray(self.entity.axis, float) / np.linalg.norm(self.entity.axis)
        return np.vstack([ports[:3], (np.eye(3) - np.outer(a, a)) @ ports[3:]])
