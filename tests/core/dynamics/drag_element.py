"""A viscous drag on a revolute joint, tau = -c theta' on body j: an element the engine was never told about.

One file: its entity, its physics, its class and its one registration (core.dynamics.elements.base's
contract). Importing the module registers it; tests/core/dynamics/test_elements.py takes it out again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from core.dynamics.elements.base import OUT0, PORT0, Element, element
from core.dynamics.elements.blocks import put_spin, vector
from core.dynamics.results import Channel
from core.geometry import vec3
from core.model.entities import Entity
from core.model.kinds import ItemKind
from core.ranges import ranged

C, AI = 0, 1  # the damping [N m s/rad], the joint's axis in body i's axes
BI, BJ = 10, 11


@dataclass(frozen=True)
class Drag(Entity):
    """Viscous drag about a revolute joint's axis [N m s/rad]."""

    name: str
    joint: str
    damping: float = ranged(0.0, lo=0.0, unit="N m s/rad")

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"joint": "revolute"}


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    put_spin(ports[0], ip[PORT0], 1, 0, vec3.rotate(bodies[1][ip[BI]], vector(fp, AI)))


def law(t, fb, ib, fp, ip, disc, state, forces):
    p = ip[PORT0]
    rate = state[1][p]
    forces[0][p] = -fp[C] * rate
    forces[5][2] += fp[C] * rate * rate


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    out[ip[OUT0]] = forces[0][ip[PORT0]]


@element(Drag, kind=ItemKind(Drag, "forces", "drag", "Drag", "A viscous drag on a revolute joint"))
class DragElement(Element):
    FLOATS, INTS = 4, 2

    def __init__(self, drag, asm):
        super().__init__(drag, asm)
        self.frame = f = asm.element_of(drag.joint).frame
        asm.ports(self, 1, (f.bi, f.bj))

    def params(self):
        return [self.entity.damping, *self.frame.ai], [self.frame.bi, self.frame.bj]

    def channels(self):
        return [Channel(self.name, "torque", "N m", "force", "drag torque on body j")]
