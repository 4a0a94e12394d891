"""3-vectors as plain float tuples, for the few formulas evaluated per row at every step.

At this size numpy's cost per call is most of the time (a 3-vector cross
product: about 1 us here against 5 to 20 us through numpy), so the pitch-point
rates and J-dot-v use these. Arguments are any 3-sequences: of floats, or of
arrays (one component of many vectors each, e.g. a (3, k) array), which gives
the k results at once. The same functions compile with numba (the compiled
kernels, core.dynamics.kernels and core.dynamics.elements, run them on floats).
"""

from __future__ import annotations

Vec = tuple[float, float, float]


def add(a, b) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(k: float, a) -> Vec:
    return (k * a[0], k * a[1], k * a[2])


def dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def rotate(r, a) -> Vec:
    """R a for a rotation matrix r indexed r[row, column] (a (3, 3) array, or (3, 3, k) for k at once)."""
    return (r[0, 0] * a[0] + r[0, 1] * a[1] + r[0, 2] * a[2],
            r[1, 0] * a[0] + r[1, 1] * a[1] + r[1, 2] * a[2],
            r[2, 0] * a[0] + r[2, 1] * a[1] + r[2, 2] * a[2])
