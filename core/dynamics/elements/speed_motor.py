"""A motor that prescribes a revolute joint's relative speed as a function of time (0 holds the joint still).

One row, a . (w_j - w_i) = s(t); its multiplier is the motor's torque on body j about the axis, and its power is
work fed in (both are channels). An extra state integrates the speed error, so the angle the motor lags by is held
by Baumgarte's terms too.
"""

from __future__ import annotations

from core.dynamics.buffers.layout import WORK_POWER
from core.dynamics.buffers.tables import time_law, time_law_rate
from core.dynamics.elements.base import OUT0, ROW0, X0, Element, element
from core.dynamics.elements.blocks import copy_row, pose, put_spin, vector
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import SpeedMotor

AI = 0  # the joint's axis in body i's axes
BI, BJ, LAW = 10, 11, 12


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    rj, rgp, _, gam, phi, _ = rows
    r = ip[ROW0]
    _, ri, _, wi = pose(bodies, ip[BI])
    _, _, _, wj = pose(bodies, ip[BJ])
    a = vec3.rotate(ri, vector(fp, AI))
    put_spin(rj, r, 1, 0, a)
    copy_row(rgp, rj, r)
    gam[r] = -vec3.dot(vec3.cross(wi, a), vec3.sub(wj, wi))  # -(dJ/dt) v: the axis turns with body i
    phi[r] = 0.0


def law(t, fb, ib, fp, ip, disc, state, forces):
    r = ip[ROW0]
    u, tgt, tgtr, phi, xdot, acc = forces
    tgt[r] = time_law(fb, ib, ip[LAW], t)
    tgtr[r] = time_law_rate(fb, ib, ip[LAW], t)
    phi[r] += state[3][ip[X0]]
    xdot[ip[X0]] = state[0][r] - tgt[r]


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    r, at = ip[ROW0], ip[OUT0]
    out[at] = lam[r]
    out[at + 1] = lam[r] * state[0][r]  # the torque times the joint's relative speed


@element(SpeedMotor)
class SpeedMotorElement(Element):
    FLOATS, INTS = 3, 3

    def __init__(self, motor, asm):
        super().__init__(motor, asm)
        self.frame = f = asm.element_of(motor.joint).frame
        asm.rows(self, 1, (f.bi, f.bj), power=WORK_POWER)
        asm.extras(self, 1)
        asm.drift(self, "motor angle error", "rad", extra=self.x0)  # the angle the motor lags its law by
        self.law_index = asm.tables.add_law(motor.law)

    def params(self):
        return list(self.frame.ai), [self.frame.bi, self.frame.bj, self.law_index]

    def channels(self):
        return [Channel(self.name, "torque", "N m", "force", "the motor's torque on body j about the joint's axis"),
                Channel(self.name, "power", "W", "force", "the power the motor feeds in (torque times the joint's "
                        "speed; negative while it brakes)")]
