"""What the Python integrators and the compiled steps share (core.dynamics.kernels.steps compiles these functions
from their source): the step size control of the adaptive explicit methods and generalised-alpha's Newton
update."""

from __future__ import annotations

import math


def reaches(h: float, remaining: float) -> bool:
    """Whether a step of h [s] reaches a point `remaining` [s] ahead, to round-off (a step that does is ended
    there)."""
    return h >= remaining * (1.0 - 1e-9)


def next_step(h: float, ratio: float, order: int, retried: bool) -> tuple[bool, float]:
    """The step controller of the adaptive methods: whether a step of size h [s] whose error is `ratio` times
    its tolerance is accepted, and the size to take next (after it, or for its retry): grown or shrunk by
    0.9 ratio^(-1 / order), by a factor of at most 5 and at least 0.2. A step accepted after a rejected attempt
    (`retried`) is followed by one no larger (Hairer, Norsett and Wanner, Solving ODEs I, sec. II.4): else, at
    the stability boundary of a stiff member, the controller grows straight back into the size just refused."""
    factor = 0.9 * ratio ** (-1.0 / order) if ratio > 0 else 5.0
    if ratio <= 1.0:
        return True, h * min(1.0 if retried else 5.0, max(0.2, factor))
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


def least_change(y, h_gamma):
    """The change of a generalised-alpha step's rate variable below which an update moves no component of the
    state y by more than its round-off (64 eps of y's largest component, at least 1; the step's increment
    changes by h gamma times it): Newton's iterations can do no more there."""
    largest = 1.0
    for m in range(y.shape[0]):
        largest = max(largest, abs(y[m]))
    return 64.0 * 2.220446049250313e-16 * largest / h_gamma


def newton_update(r0, k, f, inverse, am, floor, dk, least):
    """One Newton update of a generalised-alpha step's rate variable k, in place: the residual r0 + am (k - r0) - f
    of the method's equation (f: the rate at the step's alpha_f point; overwritten by the residual), the change
    dk = -inverse residual on the inverse of the iterations' matrix, k + dk. Returns the root mean square of dk
    relative to each component's own size, |k| + floor max |k| + 1e-12 (SUNDIALS' weighted norm: the floor
    keeps a resting component from asking for more than round-off gives; not the largest change: a stiff
    member's rate carries round-off of about 1e-11 of the largest rate, which Newton cannot reduce, and a
    bearing-mounted hub stalled there); 0 when no component of dk exceeds `least` (least_change: a train at rest
    under load, whose rates are all round-off of the forces that balance); inf when dk is not finite."""
    size = k.shape[0]
    for m in range(size):
        f[m] = r0[m] + am * (k[m] - r0[m]) - f[m]
    for m in range(size):
        total = 0.0
        for j in range(size):
            total += inverse[m, j] * f[j]
        dk[m] = -total
    largest, moved = 0.0, 0.0
    for m in range(size):
        k[m] += dk[m]
        largest = max(largest, abs(k[m]))
        moved = max(moved, abs(dk[m]))
    total = 0.0
    for m in range(size):
        r = dk[m] / (abs(k[m]) + floor * largest + 1e-12)
        total += r * r
    total = math.sqrt(total / size) if size else 0.0
    if not math.isfinite(total):  # before the test on `moved`, which a NaN passes
        return math.inf
    return 0.0 if moved <= least else total
