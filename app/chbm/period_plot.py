"""One period at a chosen mesh frequency: x(t), Fc(t) and the mesh stiffness Fc / x, HBM solutions and DTI overlaid."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from app.chbm.curve_plot import colour
from app.plot_axis import UnitAxis

EMPTY_TITLE = "click a point of a curve above to see one period at its frequency here"
#: DTE, total contact force, mesh stiffness: (column suffix, axis title, SI unit: the axis takes the prefix that
#: suits the values, a stiffness reads in N/µm)
ROWS = (("x [m]", "x", "m"), ("Fc [N]", "Fc", "N"), ("mesh stiffness [N/m]", "Fc / x", "N/m"))


class PeriodPlot(pg.GraphicsLayoutWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("chbm_period_plot")
        self.plots = []
        for k, (_, title, unit) in enumerate(ROWS):
            p = self.addPlot(row=k, col=0, axisItems={"left": UnitAxis("left"), "bottom": UnitAxis("bottom")})
            p.showGrid(x=True, y=True, alpha=0.25)
            p.getAxis("left").set_quantity(title, unit)
            if k:
                p.setXLink(self.plots[0])
            self.plots.append(p)
        for p in self.plots[:-1]:  # one time axis, the lowest: the plots share it
            p.getAxis("bottom").setStyle(showValues=False)
        self.plots[-1].getAxis("bottom").set_quantity("time in the period", "s")
        self.plots[0].addLegend(offset=(10, 5))
        self.empty()

    def empty(self) -> None:
        """No period chosen: the plots empty (ticks of 0 to 1 in the unit each shows), and the title says how to
        choose one."""
        for p in self.plots:
            p.clear()
            p.vb.setRange(xRange=(0.0, 1.0), yRange=(0.0, 1.0 / p.getAxis("left").scale), padding=0.0)
        for p in self.plots:  # after every range is set: a linked plot's range turns the others' auto range off
            p.vb.enableAutoRange()
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
        t = data[:, 0]
        labels = [n[: -len(" x [m]")] for n in names[1:] if n.endswith(" x [m]")]
        greys = iter(("#444444", "#999999"))
        for label in labels:
            dti = label.startswith("DTI")
            style = Qt.DotLine if dti else (Qt.SolidLine if "unstable" not in label else Qt.DashLine)
            pen = pg.mkPen(next(greys) if dti else colour(curve), width=2, style=style)
            for row, (suffix, _, _) in enumerate(ROWS):
                y = data[:, names.index(f"{label} {suffix}")]
                self.plots[row].plot(t, y, pen=pen, name=label if row == 0 else None)
