"""One period at a chosen mesh frequency: x(t), Fc(t) and the mesh stiffness Fc / x, HBM solutions and DTI overlaid."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from app.chbm.curve_plot import colour

EMPTY_TITLE = "click a point of a curve above to see one period at its frequency here"
ROWS = (("x [m]", "x", "µm", 1e6), ("Fc [N]", "Fc", "kN", 1e-3),
        ("mesh stiffness [N/m]", "Fc / x", "N/µm", 1e-6))  # DTE, total contact force, mesh stiffness


class PeriodPlot(pg.GraphicsLayoutWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("chbm_period_plot")
        self.setBackground("w")
        self.plots = []
        for k, (_, title, unit, _) in enumerate(ROWS):
            p = self.addPlot(row=k, col=0)
            p.showGrid(x=True, y=True, alpha=0.25)
            p.setLabel("left", f"{title} [{unit}]")
            for axis in ("left", "bottom"):
                p.getAxis(axis).enableAutoSIPrefix(False)
            if k:
                p.setXLink(self.plots[0])
            self.plots.append(p)
        self.plots[-1].setLabel("bottom", "time in the period [ms]")
        self.plots[0].addLegend(offset=(10, 5))
        self.empty()

    def empty(self) -> None:
        """No period chosen: the plots empty, and the title says how to choose one."""
        for p in self.plots:
            p.clear()
        self.plots[0].setTitle(EMPTY_TITLE, color="#777")
        self.names, self.data = [], None

    def show_period(self, names: list[str], data: np.ndarray, frequency: float, curve: int = 0) -> None:
        """Columns of `core.chbm.study.period_comparison`: time, then (x, Fc, stiffness) per solution.

        HBM solutions in the colour of their torque's curve (`curve`), solid when stable and dashed when
        not; DTI runs dotted in grey.
        """
        self.names, self.data = list(names), data
        for p in self.plots:
            p.clear()
        self.plots[0].setTitle(f"one period at {frequency:.6g} Hz: DTE x, contact force Fc, mesh stiffness Fc / x")
        t = data[:, 0] * 1e3
        labels = [n[: -len(" x [m]")] for n in names[1:] if n.endswith(" x [m]")]
        greys = iter(("#444444", "#999999"))
        for label in labels:
            dti = label.startswith("DTI")
            style = Qt.DotLine if dti else (Qt.SolidLine if "unstable" not in label else Qt.DashLine)
            pen = pg.mkPen(next(greys) if dti else colour(curve), width=2, style=style)
            for row, (suffix, _, _, scale) in enumerate(ROWS):
                y = data[:, names.index(f"{label} {suffix}")] * scale
                self.plots[row].plot(t, y, pen=pen, name=label if row == 0 else None)
