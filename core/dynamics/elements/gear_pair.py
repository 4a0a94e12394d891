"""A gear pair without losses: the Willis equation as the no-slip row at the pitch point, whose multiplier is the
tangential tooth force Ft; its force on the gears is the whole tooth force (Ft, and the radial and axial parts
that follow from it by the gear formulas: core.gearing.pitch_point), at the pitch point.

A compliant mesh on the pair (core.dynamics.elements.compliant_mesh) makes it soft: no row, and two ports that
measure how the teeth approach along the tooth force's base part (t - tan(beta) a1: the slip at the pitch point,
plus the axial approach of a helical pair) and its separating part (-tan(alpha) u: the centres approaching),
each integrated by an extra state; the mesh deflects along base + sep on the drive flank and base - sep on the
coast flank, so a gear whose centre moves on a bearing loads the mesh as Lin and Parker's model has it. A rigid
pair's one extra state integrates the slip: its phase error at the pitch circle, held by Baumgarte's terms.
"""

from __future__ import annotations

from core.dynamics.elements.base import NROWS, OUT0, PORT0, ROW0, X0, Element, element
from core.dynamics.elements.gear_geometry import (
    APPROACH_PORTS,
    PAIR_FLOATS,
    pair_floats,
    put_approach,
    put_pair_row,
    tooth_forces,
)
from core.dynamics.results.channels import TOOTH_FORCES, Channel
from core.gearing.pitch_point import TOOTH_FORCE_TEXT
from core.model.entities import CompliantMesh, GearPair

G1, G2 = 10, 11  # the bodies that carry the gears


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    if ip[NROWS]:
        put_pair_row(rows, ip[ROW0], fp, bodies, ip[G1], ip[G2], 1.0)
    else:
        put_approach(ports[0], ip[PORT0], fp, bodies, ip[G1], ip[G2])


def law(t, fb, ib, fp, ip, disc, state, forces):
    x = ip[X0]
    if ip[NROWS]:
        r = ip[ROW0]
        forces[3][r] += state[3][x]  # the phase error, held by Baumgarte's terms
        forces[4][x] = state[0][r]
    else:
        for k in range(APPROACH_PORTS):
            forces[4][x + k] = state[1][ip[PORT0] + k]


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    at = ip[OUT0]
    if ip[NROWS]:
        f = tooth_forces(fp, lam[ip[ROW0]])
        for i in range(4):
            out[at + i] = f[i]
        at += 4
    out[at] = state[3][ip[X0]]


def soft(model, pair) -> bool:
    """Whether a compliant mesh makes the pair soft."""
    return any(isinstance(f, CompliantMesh) and f.pair == pair.name for f in model.forces.values())


def tooth_force_channels(name: str) -> list[Channel]:
    """A pair's tooth force channels (Ft the tangential force, Fr, Fa and Fc by the gear formulas)."""
    return [Channel(name, label, "N", "gear pair", TOOTH_FORCE_TEXT[label]) for label in TOOTH_FORCES]


@element(GearPair)
class GearPairElement(Element):
    FLOATS, INTS = PAIR_FLOATS, 2

    @classmethod
    def accepts(cls, pair) -> bool:
        return not pair.loss_rows()

    def __init__(self, pair, asm):
        super().__init__(pair, asm)
        self.pair_geometry, (self.g1, _), (self.g2, _) = pair_floats(asm, pair)
        self.rigid = not soft(asm.model, pair)
        if self.rigid:
            asm.rows(self, 1, (self.g1, self.g2), stabilised=pair.stabilise, gear=True)
        else:
            asm.ports(self, APPROACH_PORTS, (self.g1, self.g2))
        asm.extras(self, 1 if self.rigid else APPROACH_PORTS)
        if self.rigid:  # a compliant mesh deflects by design
            asm.drift(self, "gear phase drift", "m", extra=self.x0)

    def params(self):
        return self.pair_geometry, [self.g1, self.g2]

    def channels(self):
        drift = Channel(self.name, "drift", "m", "gear pair", "accumulated phase error at the pitch circle"
                        if self.rigid else "approach of the teeth along the tooth force's base part")
        return (tooth_force_channels(self.name) if self.rigid else []) + [drift]
