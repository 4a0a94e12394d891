"""Tables and time laws in the buffers: what an element's law reads by index (a torque's law, a loss table, a
mesh stiffness waveform).

A table is a block of floats (rows, columns); a time law is a row of LAWS: its kind and parameters as
core.model.entities.law_value takes them, and the index of its table (kind 'table'). `Tables` collects them
at assembly; `table`, `time_law` and `time_law_rate` read them in a kernel (plain Python that numba compiles).
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import HEADER, LAWS, TABLE_DATA, TABLE_INDEX, Pack, float_row, int_row
from core.model.entities import LAW_CODES, TimeLaw, law_rate, law_value

#: compiled into their callers (core.dynamics.program.linker), as core.dynamics.buffers.layout's views
INLINE = ("table", "time_law", "time_law_rate")
LAW_WIDTH = 9  # kind, value, final, t_start, t_end, amplitude, frequency, phase, table index


def table(fb, ib, k):
    """Table k as a 2-D view (rows, columns); an empty one for k < 0."""
    start = ib[HEADER + 3 * TABLE_DATA]  # the tables' data: one column, so fb[start + i] is its entry i
    if k < 0:
        return fb[start:start].reshape((0, 2))
    at = int_row(ib, TABLE_INDEX, k)
    return fb[start + at[0]:start + at[0] + at[1] * at[2]].reshape((at[1], at[2]))


def time_law(fb, ib, i, t):
    """The value of time law i at t [s]."""
    p = float_row(fb, ib, LAWS, i)
    if p[8] < 0:  # no table: no views of one (each view costs a kernel more than the law)
        return law_value(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[:0], p[:0], t)
    tab = table(fb, ib, int(p[8]))
    return law_value(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], tab[:, 0], tab[:, 1], t)


def time_law_rate(fb, ib, i, t):
    """d/dt of time law i at t [s] (0 at a step's jump and a table's corners)."""
    p = float_row(fb, ib, LAWS, i)
    if p[8] < 0:
        return law_rate(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[:0], p[:0], t)
    tab = table(fb, ib, int(p[8]))
    return law_rate(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], tab[:, 0], tab[:, 1], t)


class Tables:
    """Tables and time laws gathered at assembly, then put into a Pack."""

    def __init__(self):
        self.laws: list[list[float]] = []
        self.blocks: list[np.ndarray] = []

    def add_table(self, rows) -> int:
        """Index of a new table (a 2-D array of floats)."""
        a = np.asarray(rows, float)
        self.blocks.append(a.reshape(len(a), -1) if a.ndim == 1 else a)
        return len(self.blocks) - 1

    def add_law(self, law: TimeLaw) -> int:
        """Index of a new time law."""
        tab = self.add_table(np.column_stack(law.columns)) if law.kind == "table" else -1
        self.laws.append([LAW_CODES[law.kind], law.value, law.final, law.t_start, law.t_end, law.amplitude,
                          law.frequency, law.phase, tab])
        return len(self.laws) - 1

    def pack(self, pack: Pack) -> None:
        index, at = [], 0
        for b in self.blocks:
            index.append([at, b.shape[0], b.shape[1]])
            at += b.size
        pack.put(LAWS, np.array(self.laws, float).reshape(-1, LAW_WIDTH))
        pack.put(TABLE_INDEX, np.array(index, np.int64).reshape(-1, 3), integer=True)
        pack.put(TABLE_DATA, np.concatenate([b.ravel() for b in self.blocks]) if self.blocks else np.zeros(0))
