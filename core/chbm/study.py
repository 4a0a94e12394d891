"""A forced-response study: HBM curves for several torques, the DTI reference, one-period comparisons, CSV."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

import numpy as np

from core.atomic import atomic_write_bytes
from core.chbm.continuation import CurvePoint, follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.lumped_model import LumpedModel
from core.chbm.newmark import NewmarkIntegrator, PeriodicResponse
from core.chbm.stability import floquet_stable


@dataclass
class CurveResult:
    """The HBM curve of one torque and, optionally, the DTI sweeps at some frequencies."""

    torque: float
    model: LumpedModel
    hb: HarmonicBalance
    points: list[CurvePoint]
    forward: list[PeriodicResponse] = field(default_factory=list)
    backward: list[PeriodicResponse] = field(default_factory=list)
    check: str = ""  # how the DTI runs agree with the curve, in words (`dti_check`, by `run_study`)


#: a DTI run this near a turning point (a share of its frequency) only creeps towards the marginal solution there
FOLD_SHARE = 5e-3


def dti_check(result: CurveResult) -> str:
    """How the DTI sweeps agree with the HBM curve, in words ("" without them): each steady run's half
    peak-to-peak DTE against the nearest stable HBM solution at its own frequency (`hbm_solutions_at`). Runs
    within FOLD_SHARE of a turning point are counted apart; runs that did not reach a steady state, or where the
    curve has no stable solution, are named."""
    runs = result.forward + result.backward
    if not runs:
        return ""
    pts = result.points
    folds = [a.frequency for a, b in zip(pts, pts[1:]) if a.segment != b.segment]
    far, near, missed = [], [], []
    steady = [run for run in runs if run.converged]
    for run in steady:
        half = run.summary()[1]
        best = min((abs(result.hb.summary(z)[1] / half - 1) for z, stable, _ in hbm_solutions_at(result, run.frequency)
                    if stable), default=None)
        if best is None:
            missed.append(run.frequency)
        else:
            (near if any(abs(run.frequency / f - 1) < FOLD_SHARE for f in folds) else far).append((best, run.frequency))
    said = [f"DTI at {len(runs)} runs"]
    if far:
        worst = max(far)
        said.append(f"half peak-to-peak DTE within {100 * worst[0]:.2g} % of the nearest stable HBM solution "
                    f"(the most at {worst[1]:.0f} Hz)")
    if near:
        said.append(f"{len(near)} within {100 * FOLD_SHARE:g} % of a turning point, where a time integration only "
                    f"creeps: up to {100 * max(near)[0]:.2g} %")
    if len(steady) < len(runs):
        said.append(f"{len(runs) - len(steady)} did not reach a steady state")
    if missed:
        said.append("no stable HBM solution at " + ", ".join(f"{f:.0f}" for f in sorted(set(missed))) + " Hz")
    return ": ".join(said[:2]) + "".join(f"; {x}" for x in said[2:])


def hbm_solutions_at(result: CurveResult, frequency: float) -> list[tuple[np.ndarray, bool, int]]:
    """Every HBM solution at `frequency` [Hz] on the curve: (z, stable, segment), refined by Newton there."""
    out = []
    omega = 2 * math.pi * frequency
    pts = result.points
    for a, b in zip(pts, pts[1:]):
        lo, hi = sorted((a.frequency, b.frequency))
        slack = 1e-9 * abs(frequency)
        if not (lo - slack <= frequency <= hi + slack) or lo == hi:
            continue
        s = (frequency - a.frequency) / (b.frequency - a.frequency)
        z, _, ok = result.hb.solve(omega, a.z + s * (b.z - a.z))
        if ok and not any(np.allclose(z, o[0], rtol=1e-6, atol=1e-8) for o in out):
            out.append((z, floquet_stable(result.hb, z, omega), a.segment))
    return out


def run_study(model_for_torque, torques, f_min: float, f_max: float, harmonics: int = 14, dti_frequencies=None,
              progress=None, cancel=None, df_max: float | None = None, on_result=None,
              watch=None) -> list[CurveResult]:
    """HBM curves (and DTI sweeps at `dti_frequencies`) for each torque [N m].

    `model_for_torque(T)` builds the lumped model under torque T; `df_max` is
    the largest frequency step [Hz] (default 1 % of the range). A cancel
    keeps every point computed so far (the curve being followed ends there)
    and starts no further torque. `on_result(result)` is called as each
    torque's curve is done; `watch(count, snapshot)` after each point of the
    curve being followed, with the count of its points so far and snapshot()
    giving its CurveResult so far (the HBM points alone), so a window can
    draw it as it grows.
    """
    results = []
    count = len(torques) * (2 if dti_frequencies is not None else 1)
    done = 0

    def sub(fraction, message):
        if progress:
            progress((done + fraction) / count, message)

    for torque in torques:
        if cancel and cancel():
            break
        model = model_for_torque(torque)
        hb = HarmonicBalance(model, harmonics)

        def seen(points, torque=torque, model=model, hb=hb):
            if watch:
                watch(len(points), lambda: CurveResult(torque, model, hb, list(points)))

        points = follow(hb, f_min, f_max, progress=sub, cancel=cancel, df_max=df_max, on_point=seen)
        res = CurveResult(torque, model, hb, points)
        done += 1
        if dti_frequencies is not None and not (cancel and cancel()):
            nm = NewmarkIntegrator(model)
            res.forward = nm.sweep(dti_frequencies, "forward", progress=lambda f, m: sub(0.5 * f, m), cancel=cancel)
            res.backward = nm.sweep(dti_frequencies, "backward", progress=lambda f, m: sub(0.5 + 0.5 * f, m),
                                    cancel=cancel)
            res.check = dti_check(res)
            done += 1
        results.append(res)
        if on_result:
            on_result(res)
    return results


CURVE_HEADER = ("method", "torque [N m]", "frequency [Hz]", "mean DTE [m]", "half peak-to-peak DTE [m]",
                "RMS fluctuating DTE [m]", "stable", "segment", "iterations or periods")


def curve_rows(results: list[CurveResult]):
    for r in results:
        for p in r.points:
            yield ("HBM", r.torque, *p.row())
        for label, sweep in (("DTI forward", r.forward), ("DTI backward", r.backward)):
            for s in sweep:
                mean, half, rms = s.summary()
                yield (label, r.torque, s.frequency, mean, half, rms, int(s.converged), -1, s.periods)


def period_comparison(result: CurveResult, frequency: float, samples: int = 256,
                      dti: bool = True) -> tuple[list[str], np.ndarray]:
    """One period at `frequency`: x(t) [m], Fc(t) [N] and Fc / (-x) [N/m] for every HBM solution and the DTI runs.
    Fc is the teeth's force along the DTE: a coast flank's counts negative.

    Returns column names and an array (samples, columns); the first column is
    the time within the period [s]. DTI columns (when `dti`) come from runs
    started from the nearest forward and backward sweep states when sweeps
    exist, else from rest.
    """
    model = result.model
    t = np.arange(samples) / (samples * frequency)
    fractions = np.arange(samples) / samples
    names, cols = ["time [s]"], [t]

    def add(label, x):
        forces, _ = model.contact_forces(x, model.gaps(fractions), model.stiffnesses(fractions))
        fc = model.contact_sides @ forces
        dte = x @ model.output
        with np.errstate(divide="ignore", invalid="ignore"):
            k = np.where(fc != 0, fc / -dte, 0.0)
        names.extend([f"{label} x [m]", f"{label} Fc [N]", f"{label} mesh stiffness [N/m]"])
        cols.extend([dte, fc, k])

    for z, stable, segment in hbm_solutions_at(result, frequency):
        add(f"HBM seg{segment} {'stable' if stable else 'unstable'}", result.hb.coordinate_samples(z, samples))
    if not dti:
        return names, np.column_stack(cols)
    nm = NewmarkIntegrator(model)
    for label, sweep in (("DTI forward", result.forward), ("DTI backward", result.backward)):
        start = min(sweep, key=lambda s: abs(s.frequency - frequency)).state if sweep else None
        res = nm.run(frequency, start)
        stride = res.x.shape[0] // samples
        add(label, np.roll(res.x, 1, axis=0)[::stride][:samples])  # runs store step ends; phase 0 first
        if not sweep:
            break
    return names, np.column_stack(cols)


def plot_curves(results: list[CurveResult], path) -> None:
    """Forced response (half peak-to-peak DTE against mesh frequency): stable solid, unstable dashed, DTI markers."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.8), dpi=120)
    for k, r in enumerate(results):
        colour = f"C{k}"
        f = np.array([p.frequency for p in r.points])
        a = np.array([p.half_p2p for p in r.points]) * 1e6
        st = np.array([p.stable for p in r.points])
        ax.plot(f, np.where(st, a, np.nan), "-", color=colour, lw=1.4, label=f"HBM T = {r.torque:g} N m")
        ax.plot(f, np.where(~st, a, np.nan), "--", color=colour, lw=1.0)
        for sweep, marker, name in ((r.forward, ">", "DTI forward"), (r.backward, "<", "DTI backward")):
            if sweep:
                ax.plot([s.frequency for s in sweep], [s.summary()[1] * 1e6 for s in sweep], marker, color=colour,
                        ms=4, ls="none", label=f"{name} T = {r.torque:g} N m")
    ax.set_xlabel("mesh frequency [Hz]")
    ax.set_ylabel("half peak-to-peak DTE [um]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())
