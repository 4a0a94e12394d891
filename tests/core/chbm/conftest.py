"""Shared CHBM fixtures: the paper's curve at T = 100 N m (computed once per session); and the largest Floquet
multiplier of Newmark's period map, the reference for the monodromy matrix's."""

import math

import numpy as np
import pytest

from core.chbm.lumped_model import paper_model
from core.chbm.newmark import NewmarkIntegrator
from core.chbm.study import run_study


@pytest.fixture(scope="session")
def paper_curve_100():
    (result,) = run_study(paper_model, [100.0], 500.0, 4000.0, harmonics=14)
    return result


def period_map_multiplier(hb, z: np.ndarray, frequency: float, steps_per_period: int) -> float:
    """The largest |multiplier| of Newmark's map over one period of hb's model at `frequency` [Hz] (the first
    mesh's), by central differences from the HB solution z's state at phase 0 (steps of 1e-4 of x_scale and
    of x_scale omega)."""
    omega = 2 * math.pi * frequency
    n = hb.model.dofs
    y0 = np.concatenate(hb.state_at_start(z, omega))
    scale = np.concatenate([np.full(n, hb.x_scale), np.full(n, hb.x_scale * omega)])
    newmark = NewmarkIntegrator(hb.model, steps_per_period=steps_per_period)
    columns = []
    for k in range(2 * n):
        e = np.zeros(2 * n)
        e[k] = 1e-4 * scale[k]
        plus = np.concatenate(newmark.advance(frequency, ((y0 + e)[:n], (y0 + e)[n:])))
        minus = np.concatenate(newmark.advance(frequency, ((y0 - e)[:n], (y0 - e)[n:])))
        columns.append((plus - minus) / (2 * e[k]))
    return float(np.abs(np.linalg.eigvals(np.column_stack(columns))).max())
