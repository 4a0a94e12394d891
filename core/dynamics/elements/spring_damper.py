"""A linear spring-damper between a point of body i and a point of body j: tension k (L - L0) + c L' along the
line between them, pulling the points together when positive.

One port along that line (its rate is L'), and the length L as a position.
"""

from __future__ import annotations

import math

import numpy as np

from core.dynamics.elements.base import OUT0, PORT0, POS0, Element, element
from core.dynamics.elements.blocks import pose, put_force, vector
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import SpringDamper

SI, SJ, K, C, L0 = 0, 3, 6, 7, 8  # the points in the bodies' axes from the COM, stiffness, damping, free length
BI, BJ = 10, 11


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    xi, ri, _, _ = pose(bodies, ip[BI])
    xj, rj, _, _ = pose(bodies, ip[BJ])
    arm_i, arm_j = vec3.rotate(ri, vector(fp, SI)), vec3.rotate(rj, vector(fp, SJ))
    d = vec3.sub(vec3.add(xj, arm_j), vec3.add(xi, arm_i))
    length = math.sqrt(vec3.dot(d, d))
    n = vec3.scale(1.0 / length, d) if length > 1e-15 else (0.0, 0.0, 0.0)
    pr, p = ports[0], ip[PORT0]
    put_force(pr, p, 1, n, arm_j, 1.0)  # the port's rate is the lengthening rate L'
    put_force(pr, p, 0, n, arm_i, -1.0)
    ports[1][ip[POS0]] = length


def law(t, fb, ib, fp, ip, disc, state, forces):
    p = ip[PORT0]
    stretch, rate = state[2][ip[POS0]] - fp[L0], state[1][p]
    tension = fp[K] * stretch + fp[C] * rate
    forces[0][p] = -tension
    forces[5][0] += 0.5 * fp[K] * stretch * stretch
    forces[5][2] += fp[C] * rate * rate


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    out[ip[OUT0]] = -forces[0][ip[PORT0]]


@element(SpringDamper)
class SpringDamperElement(Element):
    FLOATS, INTS = 9, 2

    def __init__(self, spring, asm):
        super().__init__(spring, asm)
        self.bi, self.bj = asm.index[spring.body_i], asm.index[spring.body_j]
        # the points in body axes from the COM (the ground's: world)
        self.si = np.asarray(spring.point_i, float) - asm.com(self.bi)
        self.sj = np.asarray(spring.point_j, float) - asm.com(self.bj)
        asm.ports(self, 1, (self.bi, self.bj))
        asm.positions(self, 1)

    def params(self):
        e = self.entity
        return [*self.si, *self.sj, e.stiffness, e.damping, e.free_length], [self.bi, self.bj]

    def channels(self):
        return [Channel(self.name, "force", "N", "force", "tension (positive pulls the points together)")]

    def support_rows(self, ports):
        return ports  # its length's rate
