"""Pseudo-arclength continuation of harmonic-balance solutions over the mesh frequency.

The path y = (z, w) with w = omega / omega_scale is followed with a tangent
predictor and a corrector that keeps the step on the plane normal to the
tangent, so turning points (folds) are passed and the unstable branch between
them is traced too. The step length adapts to the Newton iteration count.
Each point is checked for stability by its Floquet multipliers (core.chbm.stability).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from threadpoolctl import threadpool_limits

from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.stability import floquet_stable
from core.errors import GearDynError
from core.model.views import MAX_CURVE_POINTS


@dataclass
class CurvePoint:
    """One solution on the response curve."""

    frequency: float  # mesh frequency [Hz]
    mean: float  # mean DTE [m]
    half_p2p: float  # half peak-to-peak DTE [m]
    rms: float  # RMS of the fluctuating DTE [m]
    stable: bool
    segment: int  # branch segment id; it changes at every fold
    iterations: int  # corrector steps (Newton by chords)
    z: np.ndarray = field(repr=False)

    def row(self) -> tuple:
        return (self.frequency, self.mean, self.half_p2p, self.rms, int(self.stable), self.segment, self.iterations)


class ContinuationError(GearDynError, RuntimeError):
    """The path could not be followed; `points` holds what was computed."""

    def __init__(self, message: str, points: list[CurvePoint]):
        super().__init__(message)
        self.points = points


def follow(hb: HarmonicBalance, f_min: float, f_max: float, **options) -> list[CurvePoint]:
    """The response curve from exactly f_min to exactly f_max [Hz] (mesh frequency): `_follow`'s, its options.

    The linear algebra of a curve is many small dense solves and exponentials (a few hundred unknowns), which
    BLAS's thread pool only slows down (3x with two threads on two cores): it runs on one thread.
    """
    with threadpool_limits(1, user_api="blas"):
        return _follow(hb, f_min, f_max, **options)


MIN_TURN_COSINE = 0.5  # the cosine of the largest turn of the path's tangent in one step


def _follow(hb: HarmonicBalance, f_min: float, f_max: float, ds: float = 0.02, ds_max: float = 0.08,
            ds_min: float = 1e-6, target_iterations: int = 4, max_iterations: int = 12, tol: float = 1e-9,
            max_points: int = MAX_CURVE_POINTS, stability: bool = True, progress=None, cancel=None,
            df_max: float | None = None, on_point=None) -> list[CurvePoint]:
    """The response curve from exactly f_min to exactly f_max [Hz] (mesh frequency).

    Parameters
    ----------
    ds, ds_max, ds_min : float
        Initial, largest and smallest arclength step in the scaled unknowns.
    df_max : float, optional
        Largest frequency step between points [Hz] (default: 1 % of the range), so
        the curve stays smooth where the response is flat and the arclength steps are long.
    progress : callable(fraction, message), optional
    cancel : callable() -> bool, optional
        Stops the continuation early when it returns True; the points so far are returned.
    on_point : callable(points), optional
        Called with the curve's points so far (the list itself, to read, not to keep) after each point is added,
        so a window can draw the curve as it grows. Points at the list's end may later be dropped again (a branch
        the path climbed: `_step_over`).
    """
    if not (0 < f_min < f_max):
        raise ValueError(f"f_min, f_max: need 0 < f_min < f_max, got {f_min}, {f_max}")
    w_scale = 2 * math.pi * f_max
    z, it, ok = hb.solve(2 * math.pi * f_min, hb.static_guess())
    if not ok:
        raise ContinuationError(f"no harmonic-balance solution found at the start frequency {f_min:g} Hz: Newton's "
                                f"method from the static deflection did not converge in {it} iterations (the "
                                "response there is far from the static one: check the torque and the stiffness, or "
                                "start at another frequency)", [])
    y = np.append(z, f_min * 2 * math.pi / w_scale)
    tangent = _tangent(_bordered(_augmented(hb, y, w_scale)[1]), hb.size)
    points = [_point(hb, y, w_scale, it, 0, stability)]
    points[0].frequency = f_min  # exactly, not through the scaled frequency's round-off
    seen = on_point or (lambda points: None)
    seen(points)
    segment = 0
    crossed = []  # the scaled frequencies of the branch crossings stepped over (`_step_over`)
    w_start, w_end = 2 * math.pi * f_min / w_scale, 2 * math.pi * f_max / w_scale
    dw_max = 2 * math.pi * (df_max if df_max else 0.01 * (f_max - f_min)) / w_scale
    while y[-1] < w_end and len(points) < max_points:
        if cancel and cancel():
            break
        if abs(tangent[-1]) > 0:
            ds = min(ds, dw_max / abs(tangent[-1]))
        for _ in range(60):
            y_new, iters, ok, solve = _correct(hb, y + ds * tangent, tangent, w_scale, max_iterations, tol)
            # the corrector may lengthen the frequency step; and a path that turns by more than 60 degrees in one
            # step has likely jumped to another branch across a sharp peak: both take a shorter step
            new_tangent = _tangent(solve, hb.size) if ok else tangent
            back = any(min(y[-1], y_new[-1]) < c < max(y[-1], y_new[-1]) for c in crossed)  # over a pole again
            if ok and abs(y_new[-1] - y[-1]) <= 1.05 * dw_max and new_tangent @ tangent > MIN_TURN_COSINE and not back:
                break
            ds *= 0.5
            if ds < ds_min:
                raise ContinuationError(
                    f"continuation stalled near {y[-1] * w_scale / (2 * math.pi):.6g} Hz: no step, however short, "
                    "found the next point (the path has a corner there, where a tooth contact opens or closes; light "
                    "mesh damping sharpens it): more mesh damping, or a range that starts past it, may go on", points)
        if y_new[-1] > w_end and tangent[-1] > 0:  # past the end: the last point sits exactly on f_max
            s = (w_end - y[-1]) / (y_new[-1] - y[-1])
            z_end, iters, ok = hb.solve(2 * math.pi * f_max, y[:-1] + s * (y_new[:-1] - y[:-1]))
            if ok:
                points.append(_point(hb, np.append(z_end, w_end), w_scale, iters, segment, stability))
                points[-1].frequency = f_max
                seen(points)
                if progress:
                    progress(1.0, f"HBM {f_max:.0f} Hz")
                break
        if y_new[-1] < w_start - dw_max:  # out of the range backwards: there is no end to reach that way
            raise ContinuationError(
                f"the curve turned back below f_min ({f_min:g} Hz) after {max(p.frequency for p in points):.6g} "
                "Hz: a fold reaching below the range (start lower), or a jump across a sharp peak (a smaller "
                "df_max, the largest frequency step, follows it)", points)
        if np.sign(new_tangent[-1]) != np.sign(tangent[-1]):
            segment += 1  # a fold: the curve turns back in frequency
        y, tangent = y_new, new_tangent
        points.append(_point(hb, y, w_scale, iters, segment, stability))
        _check_tangle(points)
        if _climbing(points):
            crossed.append(points[-1].frequency * 2 * math.pi / w_scale)
            y, tangent, segment = _step_over(hb, points, w_scale, dw_max, stability)
        seen(points)
        ds = float(np.clip(ds * math.sqrt(target_iterations / max(iters, 1)), ds_min, ds_max))
        if progress:
            f = y[-1] * w_scale / (2 * math.pi)
            progress(min(1.0, max(0.0, (f - f_min) / (f_max - f_min))), f"HBM {f:.0f} Hz")
    if points[-1].frequency < f_max and len(points) >= max_points and not (cancel and cancel()):
        raise ContinuationError(f"the curve stopped at {points[-1].frequency:.6g} Hz, short of {f_max:g} Hz: it "
                                f"holds {max_points} points, the most a curve may (a larger df_max or a narrower "
                                "range needs fewer; an undamped resonance never closes)", points)
    return points


#: folds of the path within TANGLE_BAND of the frequency that are a tangle, not a curve: a response curve's
#: folds come in pairs at a softening or hardening peak (the paper's pair: at most two within a tenth of the
#: frequency); an unstable periodic branch of meshes with backlash folds back and forth without end
TANGLE_FOLDS, TANGLE_BAND = 8, 0.1


def _check_tangle(points: list[CurvePoint]) -> None:
    """Raise ContinuationError when the last TANGLE_FOLDS folds of the path lie within TANGLE_BAND of the
    frequency: there the periodic response is unstable and its branch tangled (the meshes move otherwise: a
    period doubling, or no periodic motion at all), and following it leads nowhere along the curve (the
    two-stage reducer with 10 um of backlash: from 2550 to 3400 Hz Newton finds no periodic solution at all)."""
    if points[-1].segment < TANGLE_FOLDS or points[-1].segment == points[-2].segment:
        return
    first = next(i for i, p in enumerate(points) if p.segment == points[-1].segment - TANGLE_FOLDS + 1)
    band = [p.frequency for p in points[first - 1:]]
    if max(band) - min(band) > TANGLE_BAND * min(band):
        return
    if max(band) - min(band) <= CLIMB_RTOL * max(band):  # a climb up a branch at one frequency (`_climbing`):
        return  # its tangent's frequency part is round-off, whose sign flips count as folds
    stable = [p for p in points[:first] if p.stable]
    lost = stable[-1].frequency if stable else points[0].frequency
    raise ContinuationError(
        f"the periodic response lost its stability at {lost:.6g} Hz and from there the path folded back "
        f"{TANGLE_FOLDS} times between {min(band):.6g} and {max(band):.6g} Hz: the periodic solution there is "
        "unstable and tangled, and the meshes move otherwise (a period doubling, or no periodic motion: Newmark "
        "points show it); the curve up to there is kept, and a range starting past it may find the curve again",
        points)


#: points in a row at one frequency (to CLIMB_RTOL) that are a branch crossing the curve there, not the curve
CLIMB_POINTS = 12
CLIMB_RTOL = 1e-7


def _climbing(points: list[CurvePoint]) -> bool:
    """Whether the path has left the curve up a branch that crosses it at one frequency.

    Where a Floquet multiplier of the period passes +1 the balance is singular: a branch of solutions at that
    one frequency crosses the curve (for a train's common period of several mesh periods, a period doubling of
    one mesh's response is such a crossing, as an even number of its periods make the common period). The
    arclength path may turn up that branch and climb it point after point without the frequency moving.
    """
    if len(points) <= CLIMB_POINTS:
        return False
    f = [p.frequency for p in points[-CLIMB_POINTS:]]
    return max(f) - min(f) <= CLIMB_RTOL * max(f)


def _step_over(hb, points: list[CurvePoint], w_scale: float, dw_max: float, stability: bool):
    """Leave the branch the path climbed (`_climbing`): its points are dropped, with those within a hundredth of
    the largest frequency step of the crossing (there the curve's response grows without bound, as at an
    undamped resonance: the multiplier's mode has no damping; how high those points reach says only how close
    the path came), and the curve goes on from the last point before them by Newton at a fixed frequency as far
    past the crossing as that point lies before it (at least a tenth of the largest frequency step), then along
    its own tangent; no later step may cross back. Returns (y, tangent, segment) of the point it adds (the
    segment of the last point kept: the turns of the path up the branch are no folds of the curve)."""
    crossing = points[-1].frequency
    near = 0.01 * dw_max * w_scale / (2 * math.pi)  # [Hz]: a hundredth of the largest frequency step
    while len(points) > 1 and abs(points[-1].frequency - crossing) < near:
        points.pop()
    last = points[-1]
    past = crossing + max(crossing - last.frequency, 0.1 * dw_max * w_scale / (2 * math.pi))
    z, iters, ok = hb.solve(2 * math.pi * past, last.z)
    if not ok:
        raise ContinuationError(f"continuation stalled at {crossing:.6g} Hz, where a branch of solutions crosses "
                                "the curve (a Floquet multiplier passes +1), and no point past it was found", points)
    y = np.append(z, 2 * math.pi * past / w_scale)
    tangent = _tangent(_bordered(_augmented(hb, y, w_scale)[1]), hb.size)
    points.append(_point(hb, y, w_scale, iters, last.segment, stability))
    return y, tangent, last.segment


def _augmented(hb, y, w_scale):
    """The residual, its NewtonSystem in z and its derivative in the scaled frequency w."""
    r, system, dr_dw = hb.residual(y[:-1], y[-1] * w_scale)
    return r, (system, dr_dw * w_scale)


def _bordered(aug, previous=None):
    """The solver of the augmented Jacobian [dR/dz, dR/dw] bordered by the row `previous` (a direction the path
    is not normal to: the last tangent, by default the frequency's alone), factorised once:
    (rhs, rhs_last) -> (x, s)."""
    system, column = aug
    if previous is None:
        return system.bordered(column, np.zeros(len(column)), 1.0)
    return system.bordered(column, previous[:-1], previous[-1])


def _tangent(solve, size: int):
    """Unit tangent of the path from the bordered solver of its augmented Jacobian (`_bordered`; `size` unknowns
    z): the null direction t of [dR/dz, dR/dw] with p^T t = 1 for the row p it is bordered by, so it is oriented
    like p."""
    t, s = solve(np.zeros(size), 1.0)
    t = np.append(t, s)
    return t / np.linalg.norm(t)


#: A corrector step at least this much shorter than the one before keeps the Jacobian it was taken with
CHORD_CONTRACTION = 0.25


def _correct(hb, y_pred, tangent, w_scale, max_iterations, tol):
    """Newton on R = 0 and the arclength plane, by chords; also returns the bordered solver last factorised.

    The Jacobian, factorised once, serves the following steps while each is at least 1 / CHORD_CONTRACTION
    times shorter than the one before (a predictor close to the path); a slower step takes it anew at the
    current iterate. Bordered by the tangent as the next tangent's is, its factors serve that tangent too
    (`_tangent`), without another evaluation or factorisation.
    """
    def factorised(y):  # the residual and the bordered solver of the augmented Jacobian at y
        r, a = _augmented(hb, y, w_scale)
        return r, _bordered(a, tangent)

    y = y_pred.copy()
    r, solve = factorised(y)
    last = math.inf
    for it in range(1, max_iterations + 1):
        step, s = solve(-r, -(tangent @ (y - y_pred)))
        step = np.append(step, s)
        y += step
        if not np.all(np.isfinite(y)):
            return y, it, False, solve
        size = np.linalg.norm(step)
        if size < tol * max(1.0, np.linalg.norm(y)):
            return y, it, True, solve
        if size > CHORD_CONTRACTION * last:
            r, solve = factorised(y)
        else:
            r = hb.residual(y[:-1], y[-1] * w_scale, jacobian=False)
        last = size
    return y, max_iterations, False, solve


def _point(hb, y, w_scale, iterations, segment, stability) -> CurvePoint:
    omega = y[-1] * w_scale
    mean, half, rms = hb.summary(y[:-1])
    stable = floquet_stable(hb, y[:-1], omega) if stability else True
    return CurvePoint(omega / (2 * math.pi), mean, half, rms, stable, segment, iterations, y[:-1].copy())
