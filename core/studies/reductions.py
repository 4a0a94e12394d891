"""Reductions of a channel's time history to one number (the results of a study case)."""

from __future__ import annotations

import numpy as np

REDUCTIONS = {
    "max": np.max,
    "min": np.min,
    "max_abs": lambda v: np.max(np.abs(v)),
    "mean": np.mean,
    "rms": lambda v: float(np.sqrt(np.mean(np.square(v)))),
    "std": np.std,  # RMS of the fluctuation about the mean
    "ptp": np.ptp,
    "final": lambda v: v[-1],
}


def reduce(values: np.ndarray, how: str) -> float:
    """One number from a channel's samples by the reduction `how` (a key of REDUCTIONS)."""
    return float(REDUCTIONS[how](np.asarray(values, float)))
