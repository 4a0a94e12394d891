"""A torsional spring-damper on a revolute joint's angle: tau = -k (theta - theta0) - c theta' on body j."""

from __future__ import annotations

from core.dynamics.elements.base import OUT0, PORT0, Element, element
from core.dynamics.elements.blocks import put_spin, vector
from core.dynamics.results.channels import Channel
from core.geometry import vec3
from core.model.entities import TorsionalSpringDamper

AI, K, C, ANGLE0 = 0, 3, 4, 5  # the joint's axis in body i's axes, stiffness, damping, free angle
BI, BJ, ANGLE = 10, 11, 12  # ANGLE: the joint's angle state


def spring_torque(k: float, c: float, angle0: float, angle: float, rate: float) -> tuple[float, float, float]:
    """A torsional spring-damper (stiffness k [N m/rad], damping c [N m s/rad], free angle angle0 [rad]) at its
    angle [rad] and spin [rad/s]: torque on body j [N m], energy [J], dissipated power [W]."""
    dth = angle - angle0
    return -k * dth - c * rate, 0.5 * k * dth * dth, c * rate * rate


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    put_spin(ports[0], ip[PORT0], 1, 0, vec3.rotate(bodies[1][ip[BI]], vector(fp, AI)))


def law(t, fb, ib, fp, ip, disc, state, forces):
    p = ip[PORT0]
    tau, energy, lost = spring_torque(fp[K], fp[C], fp[ANGLE0], state[3][ip[ANGLE]], state[1][p])
    forces[0][p] = tau
    forces[5][0] += energy
    forces[5][2] += lost


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    out[ip[OUT0]] = forces[0][ip[PORT0]]


@element(TorsionalSpringDamper)
class TorsionalSpringDamperElement(Element):
    FLOATS, INTS = 6, 3

    def __init__(self, spring, asm):
        super().__init__(spring, asm)
        joint = asm.element_of(spring.joint)
        self.frame, self.angle = joint.frame, joint.x0
        asm.ports(self, 1, (self.frame.bi, self.frame.bj))

    def params(self):
        e = self.entity
        return [*self.frame.ai, e.stiffness, e.damping, e.angle0], [self.frame.bi, self.frame.bj, self.angle]

    def channels(self):
        return [Channel(self.name, "torque", "N m", "force", "spring-damper torque on body j")]
