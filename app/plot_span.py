"""The least y span a plotted line claims when its plot autoranges: a line that is constant, or zero, but for
round-off is drawn flat, not as its noise magnified to fill the plot.

A planetary's tooth force of 386.58 N varying by 5e-13 N filled a Telemetry plot with noise; so did the tooth
force of a pair spinning free (+-2e-15 N), and a study's result over cases where it is zero. Telemetry's curves
and the Parameter Study's lines take their y bounds from here.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

#: the least span a line claims in y, as a share of its magnitude
MIN_SPAN = 1e-6
#: and at least this much in its SI unit
MIN_ABS_SPAN = 1e-9


def claimed(lo, hi):
    """The y bounds (lo, hi) widened about their middle to the least span (unchanged when not finite)."""
    if lo is None or hi is None or not (np.isfinite(lo) and np.isfinite(hi)):
        return lo, hi
    need = max(MIN_SPAN * max(abs(lo), abs(hi)), MIN_ABS_SPAN)
    if hi - lo >= need:
        return lo, hi
    mid = 0.5 * (lo + hi)
    return mid - 0.5 * need, mid + 0.5 * need


class LeastSpan:
    """A plot item whose y bounds for autorange are at least the least span (mixed into a pyqtgraph item)."""

    def dataBounds(self, ax, frac=1.0, orthoRange=None):
        bounds = super().dataBounds(ax, frac, orthoRange)
        return claimed(*bounds) if ax == 1 else bounds


class Curve(LeastSpan, pg.PlotCurveItem):
    """A curve (Telemetry's channels)."""


class Line(LeastSpan, pg.PlotDataItem):
    """A line with symbols (the Parameter Study's results)."""
