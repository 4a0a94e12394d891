"""Which flank of each gear mesh carries the load: the multipliers with the gear flanks settled.

A gear row's multiplier is the tangential tooth force Ft; the force it puts on the bodies is G+ for Ft > 0 and
G+ - 2 G-sep for Ft < 0 (the radial part always pushes the gears apart, a bevel pair's thrust always pushes
gear 1 from the apex). So the matrix of the multipliers' equations depends on the signs of its own solution:
start from the flanks the last evaluation settled (they change only where a tooth force changes sign, so the
first try nearly always holds), solve, and try again with the signs found until they agree, at most
FLANK_ITERATIONS times (`settled` decides each try). Both formulations call `settle` with their own
A0 = J M^-1 G+^T and S = J M^-1 G-sep^T (the gear rows' columns); the joint coordinates' constant matrices
solve each try by a stored inverse and call `settled`. Plain Python that numba compiles unchanged.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.kernels.linear import solve_rows

#: Sets of flanks tried before the last one is kept (a set that does not settle flips between two).
FLANK_ITERATIONS = 4
#: compiled into their callers (core.dynamics.program.linker), as the loop it is part of
INLINE = ("settled",)


def settle(a0, s, gear_rows, rhs, flanks, redundant, a):
    """The multipliers lambda of (A0 - 2 S F) lambda = rhs, F the gear rows whose flank is negative, with `flanks`
    (+1 or -1 per gear row; the last evaluation's) updated to the set the returned lambda was solved with.
    `a` is work space of A0's shape."""
    lam = np.zeros(rhs.shape[0])
    for it in range(FLANK_ITERATIONS):
        a[:, :] = a0
        for k in range(gear_rows.shape[0]):
            if flanks[k] < 0:
                a[:, gear_rows[k]] -= 2.0 * s[:, k]
        lam = solve_rows(a, rhs, redundant)
        if settled(lam, gear_rows, flanks, it == FLANK_ITERATIONS - 1):
            break
    return lam


def settled(lam, gear_rows, flanks, last):
    """Whether the tooth forces of `lam` (solved on `flanks`) have the signs `flanks` says, or this was the last
    try (the set it was solved with is kept); else `flanks` takes their signs for the next try."""
    same = True
    for k in range(gear_rows.shape[0]):
        if (-1.0 if lam[gear_rows[k]] < 0 else 1.0) != flanks[k]:
            same = False
    if same or last:
        return True
    for k in range(gear_rows.shape[0]):
        flanks[k] = -1.0 if lam[gear_rows[k]] < 0 else 1.0
    return False
