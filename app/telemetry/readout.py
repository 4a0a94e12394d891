"""The read-out under the plots: each plotted channel's value at the cursors A and B, their difference, and its
statistics over the visible time range. A row shows its numbers in its unit with the SI prefix that suits its
largest one, as the plots' axes do (a transmission error in µm), and a channel's row in the run compared with
takes the prefix of the two rows together, so they read side by side; `rows` keeps them in SI units.

A number below ROUND_OFF times the largest of the rows in its unit reads 0, and takes no part in choosing the
prefix: a steady tooth force's peak-to-peak of 1e-12 N, or a joint's moment about its own axis of 1e-15 N m beside
its tilting moment of 3.6 N m, is the round-off of the numbers it came from, not a value."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from app.plot_axis import prefixed

COLUMNS = ("Channel", "Unit", "at A", "at B", "B - A", "min", "max", "mean", "RMS", "peak-to-peak")
TIME_ROW = "time (t_A, t_B, dt)"
#: double precision's round-off, summed over a run's steps, stays below about 1e-13 of the values it is made from
ROUND_OFF = 1e-12


def statistics(values: np.ndarray) -> tuple[float, float, float, float, float]:
    """min, max, mean, RMS, peak-to-peak of the samples with a value (NaN, a ratio's where its divisor is 0, is
    left out; nan when none has one)."""
    values = values[~np.isnan(values)]
    if not len(values):
        return (float("nan"),) * 5
    lo, hi = float(values.min()), float(values.max())
    scale = max(abs(lo), abs(hi))  # the RMS of samples scaled to 1 first: a diverged run's squares overflowed
    rms = scale * float(np.sqrt(np.mean((values / scale) ** 2))) if 0 < scale < np.inf else scale
    return lo, hi, float(values.mean()), rms, hi - lo


def has_channel(results, name: str) -> bool:
    """Whether `results` (or None) hold channel `name`."""
    try:
        return results is not None and results.index(name) >= 0
    except KeyError:
        return False


def _magnitudes(entry: dict[str, float]) -> list[float]:
    return [abs(v) for v in entry.values() if v == v]


def _rounded(entry: dict[str, float], floor: float) -> dict[str, float]:
    """`entry` with its numbers below `floor` in magnitude (round-off) made 0."""
    return {k: (0.0 if abs(v) < floor else v) for k, v in entry.items()}


def _fmt(v: float) -> str:
    return "" if v != v else f"{v + 0.0:.6g}"  # + 0.0: a spur pair's Fa of -0.0 N read "-0"


class ReadoutTable(QTableWidget):
    def __init__(self, parent=None):
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("telemetry_readout")
        self.setHorizontalHeaderLabels(COLUMNS)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(False)  # each column its contents' width, numbers side by side
        self.rows: dict[str, dict[str, float]] = {}

    def show_values(self, results, names, t_range, cursors: tuple[float, float] | None, reference=None) -> None:
        """Fill the table for channels `names` of `results` over t_range = (t0, t1); with the cursors on, a first
        row gives their times t_A, t_B [s] and dt = t_B - t_A. `reference`, (label, results) of another run:
        under each channel's row, that run's row of it, named 'channel (label)'."""
        self.rows = {}
        shown = []  # (row name, results, channel)
        for name in names:
            shown.append((name, results, name))
            if reference is not None and has_channel(reference[1], name):
                shown.append((f"{name} ({reference[0]})", reference[1], name))
        first = 1 if cursors is not None else 0
        self.setRowCount(len(shown) + first)
        if results is None or not len(results):
            return
        if cursors is not None:
            t_a, t_b = cursors
            self.rows[TIME_ROW] = {"at A": t_a, "at B": t_b, "B - A": t_b - t_a}
            self._fill(0, TIME_ROW, "s", self.rows[TIME_ROW])
        filled = []  # (table row, row name, channel, unit, entry)
        for r, (row, res, name) in enumerate(shown, start=first):
            try:
                values = res[name]
                unit = res.record(name).unit
            except KeyError:
                continue
            time = res.time
            entry = dict(zip(("min", "max", "mean", "RMS", "peak-to-peak"),
                             statistics(values[(time >= t_range[0]) & (time <= t_range[1])])))
            if cursors is not None:
                a, b = (float(np.interp(t, time, values)) for t in cursors)
                entry.update({"at A": a, "at B": b, "B - A": b - a})
            self.rows[row] = entry
            filled.append((r, row, name, unit, entry))
        largest: dict[str, float] = {}
        for _, _, _, unit, entry in filled:
            largest[unit] = max([largest.get(unit, 0.0)] + _magnitudes(entry))
        floors = {unit: ROUND_OFF * top for unit, top in largest.items()}
        prefix_of: dict[str, float] = {}  # by channel: the largest number of its rows, round-off left out
        for _, _, name, unit, entry in filled:
            prefix_of[name] = max([prefix_of.get(name, 0.0)] + _magnitudes(_rounded(entry, floors[unit])))
        for r, row, name, unit, entry in filled:
            self._fill(r, row, unit, entry, floors[unit], prefix_of[name])

    def _fill(self, r: int, name: str, unit: str, entry: dict[str, float], floor: float = 0.0,
              prefix_for: float | None = None) -> None:
        """Row r: the name, the unit with the prefix that suits the number `prefix_for` (default: the entry's
        largest), and the numbers; those below `floor` in magnitude read 0."""
        entry = _rounded(entry, floor)
        scale, unit = prefixed(max(_magnitudes(entry), default=0.0) if prefix_for is None else prefix_for, unit)
        cells = [name, unit] + [_fmt(entry.get(c, float("nan")) * scale) for c in COLUMNS[2:]]
        for c, text in enumerate(cells):
            self.setItem(r, c, QTableWidgetItem(text))
