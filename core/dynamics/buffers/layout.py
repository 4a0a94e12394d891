"""Where a kernel finds its data: two flat buffers, one of floats and one of ints, with a header of slots.

A numba call pays for every argument it types (about 0.1 us each), so an assembled system travels as two
arrays: `fb` (floats) and `ib` (ints). The int buffer starts with the sizes (the names below, up to SIZES),
then one (offset, rows, columns) entry per slot; a slot's array lives in `fb` or `ib` as the kernel that reads
it knows. `Pack` fills them at assembly; `floats` and `ints` give a slot's array back as a 2-D view (a 1-D
array is one column). Element kinds own the slots from KIND_SLOTS on: kind k's parameter rows are slot
KIND_SLOTS + 2 k (floats) and KIND_SLOTS + 2 k + 1 (ints).

Every function here is plain Python that numba compiles unchanged (core.dynamics.program.linker).
"""

from __future__ import annotations

import math

import numpy as np

# --------------------------------------------------------------------------- sizes (the first ints of ib)

(N, NQ, EXTRA, ROWS, PORTS, POSITIONS, DISCRETE, EVENTS, OUTPUTS, FORM, WORK, DISSIPATED, GEAR_ROWS, REDUNDANT,
 EDGES, LEVELS, CONSTANT, HOLONOMIC_REDUNDANT, SIZES) = range(19)

#: FORM: the formulation of the buffers
CARTESIAN, JOINT = 0, 1

# --------------------------------------------------------------------------- slots

(GRAVITY_BAUMGARTE,  # floats: gravity (3) [m/s^2], Baumgarte alpha, beta [1/s]
 MASS,  # floats (n,): body masses [kg]
 INERTIA,  # floats (n, 9): inertia about the COM, body axes [kg m^2]
 INERTIA_INV,  # floats (n, 9)
 COM,  # floats (n, 3): COM in body axes [m]
 ROT0,  # floats (n, 9): rotation at the start
 QUAT0,  # floats (n, 4): orientation at the start (unit quaternion w, x, y, z)
 X0,  # floats (n, 3): COM at the start [m]
 ROW_BODIES,  # ints (rows, 3): the bodies a row's blocks act on (-1: none or the ground)
 ROW_FLAGS,  # ints (rows, 3): stabilised, its gear index (-1: not a gear row), power (NO_POWER, WORK_POWER, LOSS)
 GEAR_ROW_INDEX,  # ints (gear rows,): the flank-dependent rows
 PORT_BODIES,  # ints (ports, 3)
 BODY_ROWS,  # ints (k, 2): (row, slot) of every block on a body, by body
 BODY_ROWS_START,  # ints (n + 1,): body b's entries of BODY_ROWS are [start[b], start[b + 1])
 HOLONOMIC_ROWS,  # ints (h,): the rows positions are projected onto (Cartesian: joints)
 EDGE_TABLE,  # ints (edges, 5): parent body (-1 ground), child, coordinate (-1 fixed), level, joint's edge slot
 EDGE_AXES,  # floats (edges, 9): axis and point at the start (world) [m], the point in the child's axes from its COM
 EDGE_SIGN,  # floats (edges,): +1 where the child is the joint's body j, else -1 (the turn's sign, the reaction's side)
 SUBTREE,  # ints (edges, n): 1 where a body is in the edge's subtree
 COORD_PATH,  # ints (n, w): the coordinates that move a body (-1 pad)
 CONSTANT_J, CONSTANT_GP, CONSTANT_GS,  # floats (rows, nq): J, G+ and G-sep in the coordinates (constant matrices)
 CONSTANT_C,  # floats (ports, nq): the ports in the coordinates
 CONSTANT_POSITIONS,  # floats (positions,)
 CONSTANT_MINV,  # floats (nq, nq): the joint mass matrix's inverse
 CONSTANT_PROJECTOR,  # floats (nq, rows): M^-1 J^T (J M^-1 J^T)^+, the rates' projection onto the rows
 CONSTANT_OFF,  # ints (rows,): 1 for a row switched off in the discrete states the constant matrices are of
 LAWS,  # floats (laws, 8): time laws (core.dynamics.buffers.tables)
 TABLE_INDEX,  # ints (tables, 3): offset, rows, columns of each table in TABLE_DATA
 TABLE_DATA,  # floats
 OUTPUT_BODIES,  # ints (1,): the first output channel of the bodies' channels, then energy's
 KIND_SLOTS) = range(33)

#: ROW_FLAGS' power: where a row's constraint power goes (a motor's is work fed in, a lossy mesh's is lost)
NO_POWER, WORK_POWER, LOSS_POWER = 0, 1, 2

HEADER = SIZES  # slot s's entry: ib[HEADER + 3 s : HEADER + 3 s + 3]
#: compiled into their callers (core.dynamics.program.linker): a view made in a function of its own costs
#: its callers a reference count each way, more than the view
INLINE = ("floats", "ints", "float_row", "int_row", "kind_size", "kind_floats", "kind_ints")


def floats(fb, ib, slot):
    """Slot `slot` of the float buffer as a 2-D view (rows, columns)."""
    at = HEADER + 3 * slot
    o, r, c = ib[at], ib[at + 1], ib[at + 2]
    return fb[o:o + r * c].reshape((r, c))


def ints(ib, slot):
    """Slot `slot` of the int buffer as a 2-D view (rows, columns)."""
    at = HEADER + 3 * slot
    o, r, c = ib[at], ib[at + 1], ib[at + 2]
    return ib[o:o + r * c].reshape((r, c))


def float_row(fb, ib, slot, i):
    """Row i of slot `slot` of the float buffer, a 1-D slice (a 2-D view's reshape calls into numba's helpers)."""
    at = HEADER + 3 * slot
    o, c = ib[at] + i * ib[at + 2], ib[at + 2]
    return fb[o:o + c]


def int_row(ib, slot, i):
    """Row i of slot `slot` of the int buffer, a 1-D slice."""
    at = HEADER + 3 * slot
    o, c = ib[at] + i * ib[at + 2], ib[at + 2]
    return ib[o:o + c]


def kind_size(ib, k):
    """How many elements of kind k there are (read from the header: no view made)."""
    return ib[HEADER + 3 * (KIND_SLOTS + 2 * k + 1) + 1]


def kind_floats(fb, ib, k, e):
    """The float parameter row of element e of kind k (FLOATS)."""
    return float_row(fb, ib, KIND_SLOTS + 2 * k, e)


def kind_ints(ib, k, e):
    """The int parameter row of element e of kind k (COMMON + INTS)."""
    return int_row(ib, KIND_SLOTS + 2 * k + 1, e)


class Pack:
    """Fills the two buffers: sizes first, then arrays by slot (`put`), then `buffers()`.

    Parameters
    ----------
    slots : int
        How many slots the header holds (KIND_SLOTS + 2 per element kind).
    """

    def __init__(self, slots: int):
        self.sizes = [0] * SIZES
        self.slots = slots
        self._float: dict[int, np.ndarray] = {}
        self._int: dict[int, np.ndarray] = {}

    def put(self, slot: int, array, integer: bool = False) -> None:
        """The array of `slot` (1-D or 2-D; a 1-D array is one column)."""
        a = np.asarray(array, dtype=np.int64 if integer else float)
        if a.ndim == 1:
            a = a[:, None]
        elif a.ndim != 2:
            a = a.reshape(a.shape[0], math.prod(a.shape[1:]))
        (self._int if integer else self._float)[slot] = np.ascontiguousarray(a)

    def buffers(self) -> tuple[np.ndarray, np.ndarray]:
        header = list(self.sizes) + [0] * (3 * self.slots)
        fparts, iparts = [], []
        f_at, i_at = 0, len(header)
        for slot in range(self.slots):
            entry = HEADER + 3 * slot
            if slot in self._float:
                a = self._float[slot]
                header[entry:entry + 3] = [f_at, a.shape[0], a.shape[1]]
                fparts.append(a.ravel())
                f_at += a.size
            elif slot in self._int:
                a = self._int[slot]
                header[entry:entry + 3] = [i_at, a.shape[0], a.shape[1]]
                iparts.append(a.ravel())
                i_at += a.size
        fb = np.concatenate(fparts) if fparts else np.zeros(0)
        ib = np.concatenate([np.array(header, np.int64)] + iparts)
        # a view past the end of an empty slot must still be a valid slice: one spare entry at each end
        return np.ascontiguousarray(np.append(fb, 0.0)), np.ascontiguousarray(np.append(ib, 0))
