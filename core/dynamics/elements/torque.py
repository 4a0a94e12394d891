"""A torque about a revolute joint's axis, as a function of time: body j takes it, body i the reaction."""

from __future__ import annotations

from core.dynamics.buffers.tables import time_law
from core.dynamics.elements.base import OUT0, PORT0, Element, element
from core.dynamics.elements.blocks import put_spin, vector
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import Torque

AI = 0  # the joint's axis in body i's axes
BI, BJ, LAW = 10, 11, 12


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    put_spin(ports[0], ip[PORT0], 1, 0, vec3.rotate(bodies[1][ip[BI]], vector(fp, AI)))


def law(t, fb, ib, fp, ip, disc, state, forces):
    p = ip[PORT0]
    tau = time_law(fb, ib, ip[LAW], t)
    forces[0][p] = tau
    forces[5][1] += tau * state[1][p]  # the power it feeds in [W]


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    p, at = ip[PORT0], ip[OUT0]
    out[at] = forces[0][p]
    out[at + 1] = forces[0][p] * state[1][p]  # the torque times the joint's relative speed


@element(Torque)
class TorqueElement(Element):
    FLOATS, INTS = 3, 3

    def __init__(self, torque, asm):
        super().__init__(torque, asm)
        self.frame = f = asm.element_of(torque.joint).frame
        asm.ports(self, 1, (f.bi, f.bj))
        self.law_index = asm.tables.add_law(torque.law)

    def params(self):
        return list(self.frame.ai), [self.frame.bi, self.frame.bj, self.law_index]

    def channels(self):
        return [Channel(self.name, "torque", "N m", "force", "applied torque on body j"),
                Channel(self.name, "power", "W", "force", "the power the torque feeds in (torque times the joint's "
                        "speed; negative while it brakes)")]
