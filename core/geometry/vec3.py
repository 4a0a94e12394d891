"""3-vectors as plain float tuples, for the few formulas evaluated per row at every step.

At this size numpy's cost per call is most of the time (a 3-vector cross
product: about 1 us here against 5 to 20 us through numpy), so the pitch-point
rates and J-dot-v use these. Arguments are any 3-sequences of floats.
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
