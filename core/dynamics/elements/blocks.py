"""Writing an element's rows and ports: the blocks (force, moment about the COM) an element puts on its bodies.

Plain Python on numbers and 3-sequences (core.geometry.vec3) that numba compiles unchanged.
"""

from __future__ import annotations

from core.geometry import vec3


def put(blocks, r, slot, linear, angular, sign):
    """blocks[r, slot] = sign (linear, angular)."""
    for a in range(3):
        blocks[r, slot, a] = sign * linear[a]
        blocks[r, slot, 3 + a] = sign * angular[a]


def put_force(blocks, r, slot, force, arm, sign):
    """blocks[r, slot] = sign (force, arm x force): a force at a point `arm` from the body's COM."""
    put(blocks, r, slot, force, vec3.cross(arm, force), sign)


ZERO = (0.0, 0.0, 0.0)


def put_spin(blocks, r, slot_j, slot_i, axis):
    """A spin row about `axis` (world): body j's spin relative to body i's, a . (w_j - w_i); a torque along it
    turns body j about the axis and body i back."""
    put(blocks, r, slot_j, ZERO, axis, 1.0)
    put(blocks, r, slot_i, ZERO, axis, -1.0)


def copy_row(to, source, r):
    """to[r] = source[r] for row r's blocks (slots, 6), entry by entry: no temporary array."""
    for slot in range(source.shape[1]):
        for a in range(source.shape[2]):
            to[r, slot, a] = source[r, slot, a]


def pose(bodies, b):
    """Body b's COM, rotation, COM velocity and spin as 3-sequences and a (3, 3) array."""
    pos, rot, vel, spin = bodies
    return ((pos[b, 0], pos[b, 1], pos[b, 2]), rot[b], (vel[b, 0], vel[b, 1], vel[b, 2]),
            (spin[b, 0], spin[b, 1], spin[b, 2]))


def vector(fp, at):
    """The 3-vector fp[at:at + 3]."""
    return (fp[at], fp[at + 1], fp[at + 2])
