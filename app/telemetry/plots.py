"""The stacked plots of the Telemetry window: linked time axes, a playhead, A/B cursors, legends, drops.

Curves are pyqtgraph PlotDataItems with peak downsampling and clipping to
the view, so a million samples per channel pan and zoom without drawing a
million points. Every panel has its own playhead and cursor lines, kept at
the same times; dragging any of them moves all (and the playhead seeks the
animation).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from app.plot_axis import empty_range, unit_axes
from app.plot_legend import anchor_legend, least_crossed_corner
from app.plot_span import Curve
from app.telemetry.browser import MIME

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
           "#bcbd22")
PLAYHEAD_PEN = pg.mkPen("#e0a000", width=2)
EMPTY_HINT = "Double-click a channel on the left, or drag it here, to plot it"
CURSOR_PENS = {"A": pg.mkPen("#c0392b", width=1.5, style=Qt.DashLine), "B": pg.mkPen("#2471a3", width=1.5, style=Qt.DashLine)}


class Envelope:
    """Min/max envelopes of a channel at coarser and coarser levels (each BIN times the one before), built once
    per data version, so a redraw draws about two points per pixel whatever the zoom: the cost of a pan or a
    zoom no longer grows with the number of samples (pyqtgraph's own peak downsampling passes over every
    visible sample at each change)."""

    BIN = 8

    def __init__(self, time: np.ndarray, values: np.ndarray):
        self.time, self.values = time, values
        self.levels = []  # (bin start times, minima, maxima) per level
        t, lo, hi = time, values, values
        while len(t) > 4096:
            n = len(t) // self.BIN * self.BIN
            if n == 0:
                break
            rest = slice(n, None)
            t_next = t[:n:self.BIN]
            lo_next = lo[:n].reshape(-1, self.BIN).min(axis=1)
            hi_next = hi[:n].reshape(-1, self.BIN).max(axis=1)
            if len(t) > n:  # the tail that does not fill a bin
                t_next = np.append(t_next, t[rest][0])
                lo_next = np.append(lo_next, lo[rest].min())
                hi_next = np.append(hi_next, hi[rest].max())
            t, lo, hi = t_next, lo_next, hi_next
            self.levels.append((t, lo, hi))

    def visible(self, x0: float, x1: float, pixels: int) -> tuple[np.ndarray, np.ndarray, bool]:
        """Points to draw for the time range [x0, x1] on `pixels` columns, and whether they are envelope pairs
        (each bin's min and max, drawn as one vertical stroke: no diagonal joins to draw)."""
        t = self.time
        i0 = max(int(np.searchsorted(t, x0)) - 1, 0)
        i1 = min(int(np.searchsorted(t, x1)) + 1, len(t))
        budget = max(pixels, 100)  # bins, two points each: a min and a max per pixel column
        if i1 - i0 <= 2 * budget or not self.levels:
            return t[i0:i1], self.values[i0:i1], False
        for bt, lo, hi in self.levels:
            j0 = max(int(np.searchsorted(bt, x0)) - 1, 0)
            j1 = min(int(np.searchsorted(bt, x1)) + 1, len(bt))
            if j1 - j0 <= budget:
                break
        x = np.repeat(bt[j0:j1], 2)
        y = np.empty(2 * (j1 - j0))
        y[0::2], y[1::2] = lo[j0:j1], hi[j0:j1]
        return x, y, True


class PlotPanel(pg.PlotWidget):
    """One plot of the stack: its curves by channel name, a playhead and the A/B cursor lines."""

    dropped = Signal(object, list)  # panel, channel names
    clicked = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent, axisItems=unit_axes("left", "bottom"))
        self.setAcceptDrops(True)
        self.setObjectName("telemetry_plot")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.references: dict[str, pg.PlotDataItem] = {}  # another run's samples of a curve's channel, dashed
        self.units: dict[str, str] = {}
        item = self.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.25)
        item.getAxis("bottom").set_quantity("t", "s")
        self.legend = item.addLegend(offset=(5, 5))
        item.sigXRangeChanged.connect(lambda *_: self.redraw())
        item.getViewBox().sigRangeChanged.connect(lambda *_: self.place_legend())
        self.legend_corner = (0, 0)
        self.playhead = pg.InfiniteLine(angle=90, movable=True, pen=PLAYHEAD_PEN)
        self.playhead.setZValue(10)
        self.addItem(self.playhead, ignoreBounds=True)
        self.cursors = {}
        for name, pen in CURSOR_PENS.items():
            line = pg.InfiniteLine(angle=90, movable=True, pen=pen, label=name,
                                   labelOpts={"position": 0.95, "color": pen.color()})
            line.setVisible(False)
            self.addItem(line, ignoreBounds=True)
            self.cursors[name] = line
        self.hint = QLabel(EMPTY_HINT, self)  # an empty plot says how to fill it
        self.hint.setObjectName("empty_plot_hint")
        self.hint.setAlignment(Qt.AlignCenter)
        self.hint.setStyleSheet("color: #777; background: transparent")
        self.hint.setAttribute(Qt.WA_TransparentForMouseEvents)

    def add_curve(self, name: str, unit: str, time, values) -> None:
        if name in self.curves:
            return
        pen = pg.mkPen(COLOURS[len(self.curves) % len(COLOURS)], width=1)  # a thicker pen draws several times slower
        curve = Curve(pen=pen, name=name, skipFiniteCheck=True)  # the unit, with its prefix, is the axis's
        self.addItem(curve)
        self.curves[name] = curve
        self.units[name] = unit
        self.set_data(name, time, values)
        self._label()

    def set_data(self, name: str, time, values) -> None:
        """Give a curve its (new or grown) samples; what is drawn comes from their envelopes."""
        self._give(self.curves[name], time, values)

    def set_reference(self, name: str, label: str, time, values) -> None:
        """Draw run `label`'s samples of curve `name`'s channel beside it: its colour, dashed."""
        ref = self.references.get(name)
        if ref is None:
            pen = pg.mkPen(self.curves[name].opts["pen"].color(), width=1, style=Qt.DashLine)
            ref = self.references[name] = Curve(pen=pen, name=f"{name} ({label})", skipFiniteCheck=True)
            self.addItem(ref)
        self._give(ref, time, values)

    def remove_reference(self, name: str) -> None:
        ref = self.references.pop(name, None)
        if ref is not None:
            self.removeItem(ref)
            self.legend.removeItem(ref)

    def clear_references(self) -> None:
        for name in list(self.references):
            self.remove_reference(name)

    def _give(self, curve, time, values) -> None:
        curve.envelope = Envelope(np.asarray(time), np.asarray(values))
        curve.full_bounds = ((float(time[0]), float(time[-1])), (float(np.min(values)), float(np.max(values)))) \
            if len(time) else None
        self.redraw_curve(curve)
        self.place_legend()

    def redraw_curve(self, curve) -> None:
        x0, x1 = self.getPlotItem().viewRange()[0]
        if curve.full_bounds is not None and self.getPlotItem().getViewBox().autoRangeEnabled()[0]:
            x0, x1 = curve.full_bounds[0]  # autorange in x: the whole curve (the view range is not set yet)
        x, y, pairs = curve.envelope.visible(x0, x1, max(self.width(), 200))
        curve.setData(x, y, connect="pairs" if pairs else "all")

    def redraw(self) -> None:
        for curve in (*self.curves.values(), *self.references.values()):
            self.redraw_curve(curve)
        self.place_legend()

    def place_legend(self) -> None:
        """Put the legend in the corner of the plot that the drawn curves cross least (kept while as good)."""
        if not self.curves:
            return
        best = least_crossed_corner(self.getPlotItem(), [*self.curves.values(), *self.references.values()],
                                    self.legend_corner)
        if best is not None and best != self.legend_corner:
            self.legend_corner = best
            anchor_legend(self.legend, best)

    def remove_curve(self, name: str) -> None:
        self.remove_reference(name)
        curve = self.curves.pop(name, None)
        self.units.pop(name, None)
        if curve is not None:
            self.removeItem(curve)
            self.legend.removeItem(curve)
            if not self.curves:  # no axis of data that is gone; the time axis, shared, stays
                empty_range(self, None)
        self._label()

    def clear_curves(self) -> None:
        for name in list(self.curves):
            self.remove_curve(name)

    def _label(self) -> None:
        """The unit the curves share on the axis, and the quantity where they are all the same one (two meshes'
        'Ft'; a channel is named item.quantity)."""
        units = sorted(set(self.units.values()))
        quantities = {name.rsplit(".", 1)[-1] for name in self.units}
        self.getPlotItem().getAxis("left").set_quantity(quantities.pop() if len(quantities) == 1 else "",
                                                        units[0] if len(units) == 1 else "")
        self.hint.setVisible(not self.curves)

    # drag and drop of channel names from the browser
    def dragEnterEvent(self, event):
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event):
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event):
        if event.mimeData().hasFormat(MIME):
            names = bytes(event.mimeData().data(MIME)).decode("utf-8").split("\n")
            self.dropped.emit(self, [n for n in names if n])
            event.acceptProposedAction()
        else:
            super().dropEvent(event)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if "hint" in self.__dict__:  # pyqtgraph resizes once while it builds the view
            self.hint.setGeometry(self.rect())
            self.redraw()

    def mousePressEvent(self, event):
        self.clicked.emit(self)
        super().mousePressEvent(event)


class PlotStack(QWidget):
    """Several PlotPanels stacked with linked time axes; one of them is current (where double-clicks add)."""

    playhead_dragged = Signal(float)
    cursors_moved = Signal()
    channels_dropped = Signal(object, list)  # panel, names
    view_changed = Signal()
    panel_added = Signal(object)  # the new PlotPanel (not for the first, made with the stack)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.splitter = QSplitter(Qt.Vertical)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.splitter)
        self.panels: list[PlotPanel] = []
        self.current: PlotPanel | None = None
        self.cursors_on = False
        self._moving = False
        self.add_panel()

    # ------------------------------------------------------------------ panels

    def add_panel(self) -> PlotPanel:
        panel = PlotPanel()
        if self.panels:
            panel.setXLink(self.panels[0])
            panel.playhead.setValue(self.panels[0].playhead.value())
            for name, line in panel.cursors.items():
                line.setValue(self.panels[0].cursors[name].value())
                line.setVisible(self.cursors_on)
        panel.playhead.sigDragged.connect(lambda line: self._drag_playhead(line.value()))
        for name, line in panel.cursors.items():
            line.sigPositionChanged.connect(lambda l, n=name: self._cursor_moved(n, l))
        panel.dropped.connect(self.channels_dropped)
        panel.clicked.connect(self.set_current)
        panel.getPlotItem().sigXRangeChanged.connect(lambda *_: self.view_changed.emit())
        self.splitter.addWidget(panel)
        self.panels.append(panel)
        self.set_current(panel)
        self.panel_added.emit(panel)
        return panel

    def remove_panel(self, panel: PlotPanel | None = None) -> None:
        panel = panel or self.current
        if panel is None or len(self.panels) == 1:
            if panel is not None:
                panel.clear_curves()
            return
        index = self.panels.index(panel)
        self.panels.remove(panel)
        if index == 0:  # the first panel holds the x link: hand it to the next
            for p in self.panels[1:]:
                p.setXLink(self.panels[0])
        panel.setParent(None)
        panel.deleteLater()
        self.set_current(self.panels[min(index, len(self.panels) - 1)])

    def set_current(self, panel: PlotPanel) -> None:
        self.current = panel
        for p in self.panels:
            p.setStyleSheet("border: 2px solid #e0a000;" if p is panel and len(self.panels) > 1 else "border: none;")

    def layout_names(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(p.curves) for p in self.panels)

    # ------------------------------------------------------------------ lines

    def set_playhead(self, t: float) -> None:
        self._moving = True
        for p in self.panels:
            p.playhead.setValue(t)
        self._moving = False

    def _drag_playhead(self, t: float) -> None:
        self.set_playhead(t)
        self.playhead_dragged.emit(t)

    def show_cursors(self, on: bool, t_a: float | None = None, t_b: float | None = None) -> None:
        self.cursors_on = on
        if on and t_a is not None:
            self.set_cursor("A", t_a)
            self.set_cursor("B", t_b)
        for p in self.panels:
            for line in p.cursors.values():
                line.setVisible(on)
        self.cursors_moved.emit()

    def set_cursor(self, name: str, t: float) -> None:
        self._moving = True
        for p in self.panels:
            p.cursors[name].setValue(t)
        self._moving = False
        self.cursors_moved.emit()

    def cursor(self, name: str) -> float:
        return float(self.panels[0].cursors[name].value())

    def _cursor_moved(self, name: str, line) -> None:
        if not self._moving:
            self.set_cursor(name, float(line.value()))

    def x_range(self) -> tuple[float, float]:
        lo, hi = self.panels[0].getPlotItem().viewRange()[0]
        return float(lo), float(hi)

    def set_x_range(self, lo: float, hi: float) -> None:
        self.panels[0].getPlotItem().setXRange(lo, hi, padding=0)

    def auto_range(self, span: tuple[float, float] | None = None) -> None:
        """Fit each plot to its curves; a plot without curves to the run's `span` [s] of time, or without a run to
        the unit square (no axes of old data)."""
        for p in self.panels:
            item = p.getPlotItem()
            if p.curves:
                item.enableAutoRange()
            else:
                empty_range(item, span or (0.0, 1.0))

    def visible_channels(self) -> list[str]:
        seen = []
        for p in self.panels:
            seen += [n for n in p.curves if n not in seen]
        return seen
