"""The forced-response plot: DTE against mesh frequency per torque, stable solid, unstable dashed, folds and DTI marked.

Clicking a curve point emits (curve index, frequency) for the period plot.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal

from app.plot_axis import empty_range, unit_axes

QUANTITIES = {"half_p2p": ("half peak-to-peak DTE", 2), "mean": ("mean DTE", 1), "rms": ("RMS fluctuating DTE", 3)}
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def colour(k: int) -> str:
    return COLOURS[k % len(COLOURS)]


class CurvePlot(pg.PlotWidget):
    point_clicked = Signal(int, float)  # curve index, mesh frequency [Hz]

    def __init__(self, parent=None):
        super().__init__(parent, axisItems=unit_axes("left", "bottom"))
        self.setObjectName("chbm_curve_plot")
        self.quantity = "half_p2p"
        self.results = []
        self.legend = self.addLegend(offset=(10, 10))
        self.showGrid(x=True, y=True, alpha=0.25)
        self.getAxis("bottom").set_quantity("mesh frequency", "Hz")
        self.scatters = []
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen("#888", style=Qt.DashLine))
        self.marker.setVisible(False)
        self.addItem(self.marker, ignoreBounds=True)
        self.scene().sigMouseClicked.connect(self._scene_clicked)
        self._label()

    def _label(self) -> None:
        self.getAxis("left").set_quantity(QUANTITIES[self.quantity][0], "m")  # in m: the axis takes the prefix

    def set_quantity(self, quantity: str) -> None:
        self.quantity = quantity
        self._label()
        self.redraw()

    def set_results(self, results) -> None:
        self.results = list(results)
        self.redraw()

    def values(self, result) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Frequencies [Hz], the chosen quantity [m], stable flags and segment ids of a curve's points."""
        col = QUANTITIES[self.quantity][1]
        rows = np.array([p.row() for p in result.points]) if result.points else np.zeros((0, 7))
        return rows[:, 0], rows[:, col], rows[:, 4].astype(bool), rows[:, 5].astype(int)

    def redraw(self) -> None:
        for item in [i for i in self.listDataItems()]:
            self.removeItem(item)
        self.legend.clear()
        self.scatters = []
        col = QUANTITIES[self.quantity][1]
        for k, r in enumerate(self.results):
            f, v, stable, segment = self.values(r)
            pen = pg.mkPen(colour(k), width=2)
            dashed = pg.mkPen(colour(k), width=1.5, style=Qt.DashLine)
            # stable stretches solid, unstable ones dashed; each stretch keeps its neighbour point so lines join
            solid = self.plot(f, np.where(stable, v, np.nan), pen=pen, connect="finite",
                              name=f"HBM T = {r.torque:g} N m")
            solid.setObjectName(f"curve_{k}_stable")
            unstable = ~stable
            joined = unstable | np.r_[unstable[1:], False] | np.r_[False, unstable[:-1]]
            self.plot(f, np.where(joined, v, np.nan), pen=dashed, connect="finite")
            folds = np.nonzero(np.diff(segment))[0]
            if len(folds):
                self.plot(f[folds + 1], v[folds + 1], pen=None, symbol="x", symbolSize=11,
                          symbolPen=pg.mkPen(colour(k), width=2), symbolBrush=None)
            scatter = pg.ScatterPlotItem(f, v, size=4, pen=None, brush=pg.mkBrush(pg.mkColor(colour(k)).lighter(130)))
            scatter.setObjectName(f"points_{k}")
            self.addItem(scatter)
            self.scatters.append(scatter)
            for sweep, symbol, name in ((r.forward, "t2", "DTI forward"), (r.backward, "t3", "DTI backward")):
                if sweep:
                    fs = np.array([s.frequency for s in sweep])
                    vs = np.array([s.summary()[col - 1] for s in sweep])
                    self.plot(fs, vs, pen=None, symbol=symbol, symbolSize=9, symbolBrush=None,
                              symbolPen=pg.mkPen(colour(k), width=1.5), name=f"{name} T = {r.torque:g} N m")
        if not self.results:  # the unit square, not the range of curves that are gone; the next ones fit again
            empty_range(self)

    def nearest_point(self, scene_pos, radius_px: float = 12.0):
        """(curve index, frequency [Hz]) of the curve point drawn within radius_px of a scene position, or None."""
        vb = self.getPlotItem().vb
        at = vb.mapSceneToView(scene_pos)
        px, py = vb.viewPixelSize()
        best = None
        for k, r in enumerate(self.results):
            f, v, _, _ = self.values(r)
            if not len(f):
                continue
            d = np.hypot((f - at.x()) / px, (v - at.y()) / py)
            i = int(np.argmin(d))
            if d[i] <= radius_px and (best is None or d[i] < best[0]):
                best = (d[i], k, float(f[i]))
        return None if best is None else best[1:]

    def _scene_clicked(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        hit = self.nearest_point(event.scenePos())
        if hit is not None:
            self.show_marker(hit[1])
            self.point_clicked.emit(*hit)

    def show_marker(self, frequency: float) -> None:
        self.marker.setValue(frequency)
        self.marker.setVisible(True)
