"""The step size control of the adaptive explicit methods, in one place for the Python step and the compiled leaps
(core.dynamics.kernels.steps compiles these functions from their source)."""

from __future__ import annotations

import math


def reaches(h: float, remaining: float) -> bool:
    """Whether a step of h [s] reaches a point `remaining` [s] ahead, to round-off (a step that does is ended
    there)."""
    return h >= remaining * (1.0 - 1e-9)


def next_step(h: float, ratio: float, order: int) -> tuple[bool, float]:
    """The step controller of the adaptive methods: whether a step of size h [s] whose error is `ratio` times
    its tolerance is accepted, and the size to take next (after it, or for its retry): grown or shrunk by
    0.9 ratio^(-1 / order), by a factor of at most 5 and at least 0.2."""
    factor = 0.9 * ratio ** (-1.0 / order) if ratio > 0 else 5.0
    if ratio <= 1.0:
        return True, h * min(5.0, max(0.2, factor))
    return False, h * max(0.2, factor)


def dopri5_ratio(h: float, norms, size: int) -> float:
    """Dormand-Prince 5(4)'s error as a ratio to the tolerance: the RMS of its one estimate (norms: the squared
    norms of the error rows, as the step gives them; h unused)."""
    return math.sqrt(norms[0] / size)


def dop853_ratio(h: float, norms, size: int) -> float:
    """DOP853's error as a ratio to the tolerance, from the squared norms of its fifth- and third-order
    estimates combined as Hairer's DOP853 combines them."""
    e5, e3 = norms[0] / (h * h), norms[1] / (h * h)  # of E k, as Hairer's formula takes them
    if e5 == 0.0 and e3 == 0.0:
        return 0.0
    return abs(h) * e5 / math.sqrt((e5 + 0.01 * e3) * size)
