"""The plots of the Train Dynamics window: the Campbell diagram, the forced-response curves over the mesh frequency
(every mesh's dynamic factor or 1x force amplitude, or every body's rotation or translation; one set per torque
scale; stable solid, unstable dashed, folds marked, Newmark's check as triangles) and one period of the mesh
forces at a clicked frequency.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal

from app.chbm.curve_plot import colour
from app.plot_axis import empty_range, unit_axes
from app.plot_legend import anchor_legend, least_crossed_corner
from core.chbm.modes import distinct
from core.chbm.train_study import contact_lost, frequency_label, newmark_response, period_forces, period_samples

# what the response plot can show: (per mesh or per body, the value at one curve point [SI], the axis title and
# SI unit: the axis takes the prefix that suits the values, nm or µm for a body's vibration)
RESPONSES = {
    "Mesh dynamic factor": ("mesh", lambda ld: ld.factor, "dynamic factor (peak / static mesh force)", ""),
    "Mesh force, 1x mesh amplitude": ("mesh", lambda ld: ld.harmonics[0], "1x mesh force amplitude", "N"),
    "Body rotation (arc at rho)": ("body", lambda b: b.rotation, "rotation amplitude, arc at rho", "m"),
    "Body centre translation": ("body", lambda b: b.translation, "centre translation amplitude", "m"),
}

PLURAL = {"mesh": "meshes", "body": "bodies"}
KIND_COLOURS = {"rotational": "#d62728", "translational": "#1f77b4", "planet": "#2ca02c", "mixed": "#7f7f7f",
                "support": "#bcbd22"}


class TrainPlot(pg.PlotWidget):
    """A white plot with a grid, its axes labelled and a legend: what the Train Dynamics plots share."""

    def __init__(self, name: str, bottom: str, left: str = "", parent=None, axisItems=None):
        super().__init__(parent, axisItems=axisItems)
        self.setObjectName(name)
        self.showGrid(x=True, y=True, alpha=0.25)
        self.setLabel("bottom", bottom)
        if left:
            self.setLabel("left", left)
        self.legend = self.addLegend(offset=(-10, 10))


ORDER_COLOURS = ("#444", "#1f77b4", "#9467bd", "#8c564b")  # the mesh harmonics of each stage of a train


class CampbellPlot(TrainPlot):
    """Natural frequencies (horizontal, coloured by kind) and mesh harmonics 1, 2, 3 against the input speed."""

    def __init__(self, parent=None):
        super().__init__("train_campbell_plot", "input speed [rpm]", "frequency [Hz]", parent)

    def show(self, campbell, input_name: str) -> None:
        """Draw a core.chbm.modes.Campbell; `input_name` labels the speed axis."""
        self.clear()
        self.legend.clear()
        self.setLabel("bottom", f"speed of {input_name} [rpm]")
        s = campbell.speeds
        top = max([campbell.harmonic_line(max(campbell.harmonics), k)[-1] for k in range(len(campbell.orders))] + [1.0])
        seen = set()
        for m in distinct(campbell.modes):
            if 0 < m.frequency <= 1.2 * top:
                pen = pg.mkPen(KIND_COLOURS.get(m.kind, "#000"), width=1.5)
                item = self.plot([s[0], s[-1]], [m.frequency, m.frequency], pen=pen,
                                 name=None if m.kind in seen else f"{m.kind} modes")
                item.setToolTip(f"{m.frequency:.1f} Hz, {m.kind} (x{m.multiplicity})")
                seen.add(m.kind)
        styles = (Qt.SolidLine, Qt.DashLine, Qt.DotLine, Qt.DashDotLine)
        for order, (label, _) in enumerate(campbell.orders):  # a multi-stage train: an order a stage, each its colour
            colour = ORDER_COLOURS[order % len(ORDER_COLOURS)]
            for k, h in enumerate(campbell.harmonics):
                self.plot(s, campbell.harmonic_line(h, order), pen=pg.mkPen(colour, style=styles[k % len(styles)]),
                          name=f"{h}x {label}")
        # filled where the harmonic drives the mode, hollow where the meshes' phases cancel it or the meshes do not
        # strain it (a support mode; core.chbm.modes)
        for excited, name, brush in ((True, "crossings", "#ff7f0e"),
                                     (False, "crossings the meshes do not drive", None)):
            marks = [c for c in campbell.crossings if c.excited == excited]
            if marks:
                self.plot([c.speed for c in marks], [c.speed * c.harmonic * campbell.orders[c.order][1] for c in marks],
                          pen=None, symbol="o", symbolSize=7, symbolBrush=brush, symbolPen="#ff7f0e", name=name)
        self.setYRange(0, 1.2 * top)


class ResponsePlot(TrainPlot):
    """A RESPONSES quantity of every mesh or body against the mesh frequency, one set of lines per torque scale;
    a click picks a frequency."""

    point_clicked = Signal(float)  # mesh frequency [Hz]

    def __init__(self, parent=None):
        super().__init__("train_response_plot", "mesh frequency [Hz]", parent=parent, axisItems=unit_axes("left"))
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen("#888", style=Qt.DashLine))
        self.marker.setVisible(False)
        self.addItem(self.marker, ignoreBounds=True)
        # the mesh frequencies where the harmonics do not resolve the train (core.chbm.train_study), greyed
        self.unresolved = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(128, 128, 128, 45),
                                              pen=pg.mkPen("#888", style=Qt.DotLine))
        self.unresolved.setObjectName("train_unresolved")
        self.unresolved_label = pg.InfLineLabel(self.unresolved.lines[1], "", position=0.92, anchor=(0, 0.5),
                                                color="#555")
        self.unresolved.setVisible(False)
        self.addItem(self.unresolved, ignoreBounds=True)
        self.scene().sigMouseClicked.connect(self._clicked)
        self.curves = []

    def show(self, curves, quantity: str = "Mesh dynamic factor", only: str = "") -> None:
        """Draw core.chbm.train_study.TrainCurves (empty: nothing) as the RESPONSES `quantity`, of every mesh or
        body or `only` the one so named."""
        for item in list(self.listDataItems()):
            self.removeItem(item)
        self.legend.clear()
        self.curves = [c for c in curves if c.points]
        # meshes of different frequencies: the axis is the first mesh's; no curve: no point chosen either
        self.setLabel("bottom", frequency_label(self.curves[0].train) if self.curves else "mesh frequency [Hz]")
        self.marker.setVisible(self.marker.isVisible() and bool(self.curves))
        folds_named = checks_named = False
        unsteady = sum(not run.converged for c in self.curves for run in c.reference)
        per, value, title, unit = RESPONSES[quantity]
        self.getAxis("left").set_quantity(title, unit)
        for k, c in enumerate(self.curves):
            f = np.array([p.frequency for p in c.points])
            stable = np.array([p.stable for p in c.points])
            names = [m.name for m in c.train.meshes] if per == "mesh" else [b.name for b in c.train.bodies]
            rows = c.loads if per == "mesh" else c.bodies
            values = np.array([[value(x) for x in row] for row in rows])
            shown = [i for i in range(len(names))  # a held body does not move
                     if np.abs(values[:, i]).max() > 0 and only in ("", names[i])]
            # Newmark's check of the curve (core.chbm.train_study.newmark_reference), the same quantity
            checks = [newmark_response(c, run)[0 if per == "mesh" else 1] for run in c.reference]
            for n, i in enumerate(shown):
                # one torque: a colour per mesh or body; several: a colour per torque, and the legend names the
                # torque once (pick one mesh or body in `only` to tell them apart) so it stays short
                if len(self.curves) == 1:
                    col, name = colour(n), names[i]
                elif only:
                    col, name = colour(k), f"{names[i]} x{c.scale:g}"
                else:
                    col, name = colour(k), f"x{c.scale:g} ({len(shown)} {PLURAL[per]})" if n == 0 else None
                self.plot(f, np.where(stable, values[:, i], np.nan), pen=pg.mkPen(col, width=1.5), name=name,
                          connect="finite")
                self.plot(f, np.where(~stable, values[:, i], np.nan), pen=pg.mkPen(col, style=Qt.DashLine),
                          connect="finite")
                if checks:
                    check = self.plot([run.frequency for run in c.reference], [value(row[i]) for row in checks],
                                      pen=None, symbol="t", symbolSize=9, symbolBrush=None,
                                      symbolPen=pg.mkPen(col, width=1.5),
                                      name=None if checks_named else "Newmark check" + (
                                          f" ({unsteady} not steady)" if unsteady else ""))
                    check.setObjectName("train_newmark_check")
                    checks_named = True
            seg = np.array([p.segment for p in c.points])
            folds = np.flatnonzero(np.diff(seg)) + 1
            if folds.size and shown:
                self.plot(f[folds], values[folds][:, shown].max(axis=1), pen=None, symbol="x", symbolSize=10,
                          symbolPen="#000", name=None if folds_named else "folds")
                folds_named = True
        self._shade_unresolved()
        if not self.curves:  # the unit square, not the range of a curve that is gone
            empty_range(self)
            return
        place_legend(self)

    def _shade_unresolved(self) -> None:
        """Grey the mesh frequencies below the curves' resolved_from, with the bound named on its line."""
        low = min((c.points[0].frequency for c in self.curves), default=0.0)
        bound = max((c.resolved_from for c in self.curves), default=0.0)
        self.unresolved.setVisible(bool(self.curves) and low < bound)
        if self.unresolved.isVisible():
            self.unresolved.setRegion((low, min(bound, max(c.points[-1].frequency for c in self.curves))))
            self.unresolved_label.setFormat(f" resolved from {bound:.0f} Hz (H = {self.curves[0].hb.harmonics})")

    def _clicked(self, event) -> None:
        if not self.curves:
            return
        x = self.plotItem.vb.mapSceneToView(event.scenePos()).x()
        self.marker.setValue(x)
        self.marker.setVisible(True)
        self.point_clicked.emit(float(x))


def place_legend(plot: pg.PlotWidget) -> None:
    """The plot's legend into the corner its drawn curves cross least (app.plot_legend)."""
    view = plot.plotItem.vb
    view.enableAutoRange()
    view.updateAutoRange()  # the view fitted to the curves just drawn (it follows them lazily otherwise)
    corner = least_crossed_corner(plot.plotItem, plot.listDataItems())
    if corner is not None:
        anchor_legend(plot.legend, corner)


def item_names(curves, quantity: str) -> list[str]:
    """The meshes' or the bodies' names the RESPONSES `quantity` of the curves is shown for."""
    if not curves:
        return []
    train = curves[0].train
    return [m.name for m in train.meshes] if RESPONSES[quantity][0] == "mesh" else [b.name for b in train.bodies]


#: each mesh's force positive on its loaded flank, the one its mean torques press: the pair's own drive flank is
#: the one gear 1 turning forwards drives, which a gear turning backwards (a reducer's second stage) loads the
#: other way
PERIOD_FORCE = "mesh force [N] (+ loaded flank, - other)"


class PeriodPlot(TrainPlot):
    """The mesh forces over one period of the train (one mesh period where every mesh runs at one frequency) at
    one curve point."""

    def __init__(self, parent=None):
        super().__init__("train_period_plot", "mesh period [-]", PERIOD_FORCE, parent)
        self.empty()

    def empty(self) -> None:
        """No curve point chosen: the plot says how to choose one."""
        self.clear()
        self.setLabel("bottom", "mesh period [-]")
        self.setTitle("click a point of a curve above to see every mesh force over one period here", color="#777")

    def show(self, curve, frequency: float) -> str:
        """One period of every mesh force on the curve point nearest `frequency` [Hz]; returns a caption."""
        self.clear()
        self.legend.clear()
        i = int(np.argmin([abs(p.frequency - frequency) for p in curve.points]))
        point = curve.points[i]
        cycles, first = curve.train.lumped.cycles, curve.train.meshes[0].name
        samples = period_samples(curve.hb, 512)  # the train's period: `cycles` mesh periods of the first mesh
        forces = period_forces(curve.train, curve.hb, point.z, point.frequency, samples)
        forces *= np.where(curve.train.loaded_flanks()[0::2], 1.0, -1.0)[:, None]  # PERIOD_FORCE's sign
        s = cycles * np.arange(samples) / samples
        self.setLabel("bottom", "mesh period [-]" if cycles == 1 else f"mesh periods of {first} [-]")
        for k, mesh in enumerate(curve.train.meshes):
            self.plot(s, forces[k], pen=pg.mkPen(colour(k), width=1.5), name=mesh.name)
        place_legend(self)
        lost = bool(contact_lost(curve.train, curve.hb.coordinate_samples(point.z, samples)).any())
        held = "" if cycles == 1 else f" of {first} (the train's period holds {cycles})"
        return (f"{point.frequency:.1f} Hz, {'stable' if point.stable else 'unstable'}"
                + (", not resolved" if point.frequency < curve.resolved_from else "")
                + (", contact lost in the period" if lost else "")
                + f"; mesh period {1e3 / point.frequency:.4g} ms{held}")
