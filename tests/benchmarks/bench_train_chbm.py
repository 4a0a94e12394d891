"""The compliant planetary example's forced response by harmonic balance against Newmark, side by side.

The train of resources/examples/compliant_planetary.gdyn (three planets, every member on a bearing, 23
coordinates): the HB curve from 100 to 3100 Hz of mesh frequency in steps of at most 10 Hz (about 300 points,
the default harmonics, continuation and Floquet stability included), timed from loading the model (set-up and
run, the first run and the median of three); Newmark time integration of the same lumped model brought to steady state at 6
of those frequencies, whose mean time per point times the curve's point count estimates the Newmark sweep.
Goal: the curve in under 20 s on this machine.

The same for the two-stage reducer example, whose stages mesh at 20 : 9 and run on the train's period of 20 mesh
periods of stage 1: its whole default curve (suggested_study: 1500 to 15000 Hz of stage 1's mesh frequency, 147
harmonics of the train's period), once, against Newmark at 6 of its stable points' frequencies.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.chbm.modes import distinct, train_modes  # noqa: E402
from core.chbm.newmark import NewmarkIntegrator  # noqa: E402
from core.chbm.train_commands import suggested_study  # noqa: E402
from core.chbm.train_from_model import train_from_model  # noqa: E402
from core.chbm.train_study import DEFAULT_HARMONICS, train_curve  # noqa: E402
from core.model.files import load  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "compliant_planetary.gdyn"
REDUCER = EXAMPLE.with_name("two_stage_reducer.gdyn")


def timed_curve():
    t0 = time.perf_counter()
    curve = train_curve(train_from_model(load(EXAMPLE)), 100.0, 3100.0, df_max=10.0)
    return curve, time.perf_counter() - t0


def main() -> int:
    runs = [timed_curve() for _ in range(3)]
    curve, t_first = runs[0]
    t_hb = float(np.median([t for _, t in runs]))
    freqs = np.linspace(300.0, 2900.0, 6)
    nm = NewmarkIntegrator(curve.train.lumped)
    t0 = time.perf_counter()
    sweep = nm.sweep(freqs, "forward")
    t_point = (time.perf_counter() - t0) / len(freqs)
    n = len(curve.points)
    met = "met" if t_hb < 20.0 else "NOT MET"
    print(f"HB curve (H = {DEFAULT_HARMONICS}): {n} points, first run {t_first:.1f} s, median of 3 {t_hb:.1f} s (goal: under 20 s: {met})")
    print(f"Newmark: {t_point:.1f} s per frequency ({sum(r.converged for r in sweep)}/{len(sweep)} steady), "
          f"so about {t_point * n:.0f} s for the curve's {n} points")
    print(f"ratio Newmark / HB: about {t_point * n / t_hb:.0f}x")
    reducer()
    return 0  # the goal is reported, not asserted: the other benchmarks still run


def reducer() -> None:
    """The reducer's default curve from loading the model, and Newmark at 6 of its frequencies."""
    t0 = time.perf_counter()
    train = train_from_model(load(REDUCER))
    study = suggested_study(train, distinct(train_modes(train)))
    curve = train_curve(train, study.f_min, study.f_max, study.harmonics, study.df_max)
    t_hb = time.perf_counter() - t0
    n = len(curve.points)
    print(f"two-stage reducer, HB curve {study.f_min:g}-{study.f_max:g} Hz (H = {study.harmonics} of the train's "
          f"period): {n} points in {t_hb:.1f} s; {curve.summary()}")
    t0 = time.perf_counter()
    stable = [p.frequency for p in curve.points if p.stable]  # an unstable point has no steady state to reach
    sweep = NewmarkIntegrator(train.lumped).sweep([stable[i] for i in np.linspace(0, len(stable) - 1, 6).astype(int)],
                                                  "forward")
    t_point = (time.perf_counter() - t0) / 6
    print(f"Newmark: {t_point:.1f} s per frequency ({sum(r.converged for r in sweep)}/6 steady), so about "
          f"{t_point * n:.0f} s for the curve's {n} points; ratio Newmark / HB: about {t_point * n / t_hb:.0f}x")


if __name__ == "__main__":
    sys.exit(main())
