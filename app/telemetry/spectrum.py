"""Spectra in the Telemetry window: the amplitude spectrum of a channel with each gear pair's mesh frequency and
its harmonics marked (and, dashed beside it, the same channel's spectrum in the run compared with over the same
span), and the order map of a run-up against a shaft's speed with the mesh orders as lines."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.plot_axis import empty_range, prefixed, unit_axes
from app.screen import fit_to_screen
from app.telemetry.readout import has_channel
from core.analysis.spectra import (
    ROUND_OFF,
    WINDOWS,
    amplitude_spectrum,
    mesh_frequency_spans,
    mesh_orders,
    order_map,
    shared_frequencies,
)
from core.dynamics.mesh_sampling import ADVISED_SAMPLES
from core.model.entities import CompliantMesh, RevoluteJoint

# harmonics marked up to the samples' highest frequency, at most this many: closer lines would hide the spectrum
HARMONICS = 20
RANGES = ("Visible range", "Cursors A..B", "Whole run")
# a mesh frequency that sweeps more than this many bins over the range is shown as a band, not a line
SWEEP_BINS = 2
CROWDED = 0.04  # harmonic lines closer than this fraction of the axis have one label between them
MARKER_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#af601a", "#7d3c98", "#117a65")


def mesh_label(pairs: list[str]) -> str:
    """A marker's name: its pair, or how many meshes share it (the info line names them)."""
    return pairs[0] if len(pairs) == 1 else f"{len(pairs)} meshes"


class SpectrumWindow(QWidget):
    """Spectrum and order map of one channel of the telemetry window's results."""

    def __init__(self, telemetry, parent=None):
        super().__init__(parent, Qt.Window)
        self.setWindowTitle("GearDyn Spectrum")
        self.setObjectName("spectrum_window")
        self.telemetry = telemetry
        self.channel = QComboBox()
        self.channel.setObjectName("spectrum_channel")
        self.window_kind = QComboBox()
        self.window_kind.setObjectName("spectrum_window_kind")
        self.window_kind.addItems(list(WINDOWS))
        self.range = QComboBox()
        self.range.setObjectName("spectrum_range")
        self.range.addItems(list(RANGES))
        self.reference = QComboBox()
        self.reference.setObjectName("order_reference")
        self.segment = QSpinBox()
        self.segment.setRange(16, 65536)
        self.segment.setValue(512)
        self.segment.setObjectName("order_segment")
        self.info = QLabel("")
        self.info.setObjectName("spectrum_info")
        self.info.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Channel", self.channel)
        form.addRow("Window", self.window_kind)
        form.addRow("Over", self.range)
        form.addRow("Order map: shaft", self.reference)
        form.addRow("Order map: samples per spectrum", self.segment)
        self.plot = pg.PlotWidget(axisItems=unit_axes("left", "bottom"))
        self.plot.setObjectName("spectrum_plot")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.getAxis("bottom").set_quantity("f", "Hz")
        self.curve = self.plot.plot(pen=pg.mkPen("#1f77b4", width=1.5))
        # the run compared with (Telemetry's runs bar): its spectrum dashed, the two named in a legend
        self.reference_curve = self.plot.plot(pen=pg.mkPen("#1f77b4", width=1.5, style=Qt.DashLine))
        self.legend = self.plot.addLegend(offset=(-10, 10))
        self.legend.setVisible(False)
        self.map_plot = pg.PlotWidget(axisItems=unit_axes("left", "bottom"))
        self.map_plot.setObjectName("order_map_plot")
        self.map_plot.getAxis("left").set_quantity("f", "Hz")
        self.image = pg.ImageItem()
        self.map_plot.addItem(self.image)
        # the map's colours read against a scale of the amplitude beside it
        self.colour_bar = pg.ColorBarItem(colorMap=pg.colormap.get("viridis"), interactive=False, width=15)
        self.colour_bar.setImageItem(self.image, insert_in=self.map_plot.getPlotItem())
        self.colour_bar.axis.enableAutoSIPrefix(False)  # the amplitude comes scaled to its prefix
        self.tabs = QTabWidget()
        self.tabs.addTab(self.plot, "Spectrum")
        self.tabs.addTab(self.map_plot, "Order map")
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.info)
        lay.addWidget(self.tabs, 1)
        self.markers: dict[str, float] = {}
        self.followed = ""  # the channel shown, followed from run to run
        self.spectrum = None
        self._lines: list = []
        for w in (self.channel, self.window_kind, self.range, self.reference):
            w.currentIndexChanged.connect(self.update_view)
        self.segment.valueChanged.connect(self.update_view)
        fit_to_screen(self, 820, 620)

    def show_channel(self, name: str) -> None:
        res = self.telemetry.results
        self.followed = name
        self.channel.blockSignals(True)
        self.channel.clear()
        self.channel.addItems([c.name for c in res.channels])
        self.channel.setCurrentText(name)
        self.channel.blockSignals(False)
        model = self.telemetry.model_of_results()
        self.reference.blockSignals(True)
        self.reference.clear()
        self.reference.addItems([j.name for j in model.joints.values() if isinstance(j, RevoluteJoint)])
        self.reference.blockSignals(False)
        self.update_view()

    def follow_run(self) -> None:
        """The telemetry's run changed (a run started or ended, or none after File > New or Open): the same
        channel of the run once it has ended, or nothing."""
        current = self.telemetry.doc.current
        if current is not None and current.status in ("starting", "running"):
            self._clear("the run is going: its spectrum shows when it ends")
            return
        res = self.telemetry.results
        name = self.channel.currentText() or self.followed
        if res is not None and name in {c.name for c in res.channels}:
            self.show_channel(name)
            return
        for combo in (self.channel, self.reference):  # the channels and shafts of a run that is gone
            combo.blockSignals(True)
            combo.clear()
            combo.blockSignals(False)
        self._clear("no run: the spectrum shows once the model has run" if res is None else
                    f"the run has no channel {name!r}")

    def _clear(self, why: str) -> None:
        """No spectrum, no markers and no order map; `why` in the info line."""
        self.spectrum, self.markers = None, {}
        self.curve.setData([], [])
        self._compare(None, "", 0.0, 0.0)
        for item in self._lines:
            self.plot.removeItem(item)
        self._lines = []
        self.map_plot.clear()
        self.plot.getAxis("left").set_quantity("amplitude", "")
        empty_range(self.plot)
        self.info.setText(why)

    def _span(self) -> tuple[float, float]:
        res = self.telemetry.results
        choice = self.range.currentText()
        if choice == "Cursors A..B" and self.telemetry.stack.cursors_on:
            a, b = sorted((self.telemetry.stack.cursor("A"), self.telemetry.stack.cursor("B")))
            return a, b
        if choice == "Visible range":
            lo, hi = self.telemetry.stack.x_range()
            return max(lo, float(res.time[0])), min(hi, float(res.time[-1]))
        return float(res.time[0]), float(res.time[-1])

    def update_view(self, *_) -> None:
        res = self.telemetry.results
        name = self.channel.currentText()
        if res is None or not name:
            return
        t0, t1 = self._span()
        try:
            spec = amplitude_spectrum(res.time, res[name], t0, t1, self.window_kind.currentText())
        except ValueError as exc:
            self.info.setText(str(exc))
            return
        self.spectrum = spec
        unit = res.record(name).unit
        self.curve.setData(spec.frequency, spec.amplitude)
        self.plot.getAxis("left").set_quantity("amplitude", unit)
        model = self.telemetry.model_of_results()
        spans = mesh_frequency_spans(res, model, spec.t0, spec.t1)
        self.markers = {pair: span[0] for pair, span in spans.items()}
        for item in self._lines:
            self.plot.removeItem(item)
        self._lines = []
        groups = shared_frequencies(self.markers, spec.resolution)  # a planetary's meshes: one marker
        top = spec.frequency[-1]  # the samples' Nyquist frequency: a mesh frequency above it has no line here
        sprung = {m.pair for m in model.forces.values() if isinstance(m, CompliantMesh)}  # a rigid pair: no waveform
        named, unseen, swept = [], [], False
        for k, (f, pairs) in enumerate(groups):
            colour = MARKER_COLOURS[k % len(MARKER_COLOURS)]
            low, high = min(spans[p][1] for p in pairs), max(spans[p][2] for p in pairs)
            if high - low > SWEEP_BINS * spec.resolution:  # a run-up: a band where the mesh frequency swept
                self._mark_sweep(low, high, top, mesh_label(pairs), colour, k)
                swept = True
                start = "0" if low <= 1e-9 * high else f"{low:.6g}"  # from rest: its round-off reads 0
                named.append(f"{start}-{high:.6g} Hz, swept ({', '.join(pairs)})")
                if high > top:
                    unseen.append(f"{mesh_label(pairs)}: the sweep reaches {high:.6g} Hz, above the {top:.4g} Hz the "
                                  f"output samples resolve: an output step under {0.5 / high:.3g} s shows it")
                continue
            self._mark_lines(f, top, mesh_label(pairs), colour, k)
            named.append(f"{f:.6g} Hz ({', '.join(pairs)})")
            if (HARMONICS + 1) * f <= top:
                unseen.append(f"{mesh_label(pairs)}: harmonics marked to {HARMONICS}x ({HARMONICS * f:.6g} Hz)")
            if f > top:
                unseen.append(f"{mesh_label(pairs)}: {f:.6g} Hz is above the {top:.4g} Hz the output samples resolve: "
                              f"an output step under {0.5 / f:.3g} s shows it")
            elif f * ADVISED_SAMPLES > 2 * top and sprung & set(pairs):  # fewer samples a period than runs ask for
                first = math.floor(top / f) + 1
                unseen.append(f"{mesh_label(pairs)}: its harmonics from {first}x ({first * f:.6g} Hz) up are above the "
                              f"{top:.4g} Hz the output samples resolve and fold back onto lower frequencies, between "
                              f"the marked lines; an output step under {1 / (ADVISED_SAMPLES * f):.3g} s resolves "
                              f"them to {ADVISED_SAMPLES // 2}x")
        if swept:
            unseen.append("a swept mesh frequency spreads over the spectrum: the Order map shows it against the "
                          "shaft's speed")
        if spec.round_off:  # the plot scales its femto-units of round-off into peaks
            unseen.append(f"every amplitude is below {ROUND_OFF:g} of the channel's largest value "
                          f"({spec.level:.6g}): the channel is constant over the range but for round-off")
        compared = self._compare(self.telemetry.runs.reference, name, spec.t0, spec.t1)
        self.info.setText(f"{name}: {spec.samples} samples from {spec.t0:.6g} to {spec.t1:.6g} s, {spec.window} window, "
                          f"resolution {spec.resolution:.4g} Hz" + (" (resampled to equal steps)" if spec.resampled else "")
                          + "; mesh frequencies: " + ", ".join(named) + "".join(f"; {text}" for text in unseen)
                          + compared)
        self._order_map(res, model, name, t0, t1)

    def _compare(self, record, name: str, t0: float, t1: float) -> str:
        """Channel `name`'s spectrum in the run `record` (the one compared with, or None) over t0..t1 [s], as far
        as it goes, dashed beside the run shown's; what the info line says of it."""
        self.legend.clear()
        self.legend.setVisible(False)
        self.reference_curve.setData([], [])
        res = record.results if record is not None else None
        if not has_channel(res, name) or len(res) < 2:
            return ""
        lo, hi = max(t0, float(res.time[0])), min(t1, float(res.time[-1]))
        try:
            spec = amplitude_spectrum(res.time, res[name], lo, hi, self.window_kind.currentText())
        except ValueError as exc:
            return f"; {record.label}: {exc}"
        self.reference_curve.setData(spec.frequency, spec.amplitude)
        self.legend.addItem(self.curve, self.telemetry.doc.current.label)
        self.legend.addItem(self.reference_curve, record.label)
        self.legend.setVisible(True)
        return (f"; dashed: {record.label}, {spec.samples} samples from {spec.t0:.6g} to {spec.t1:.6g} s, resolution "
                f"{spec.resolution:.4g} Hz")

    def _mark_lines(self, f: float, top: float, label: str, colour: str, k: int) -> None:
        """Dashed lines at a steady mesh frequency f [Hz] and its harmonics up to `top` [Hz]."""
        drawn = [h for h in range(1, HARMONICS + 1) if f * h <= top]
        labels = [f"{h}x" for h in drawn]
        if f < CROWDED * top:  # the harmonics' labels would overlap: the first line names them all
            labels = [f"1x-{drawn[-1]}x" if len(drawn) > 1 else "1x"] + [None] * (len(drawn) - 1)
        if labels:
            labels[0] = f"{label} {labels[0]}"
        for h, text in zip(drawn, labels):
            line = pg.InfiniteLine(f * h, angle=90, pen=pg.mkPen(colour, width=1, style=Qt.DashLine), label=text,
                                   labelOpts={"position": 0.9 - 0.05 * k, "color": colour})
            self.plot.addItem(line, ignoreBounds=True)
            self._lines.append(line)

    def _mark_sweep(self, low: float, high: float, top: float, label: str, colour: str, k: int) -> None:
        """Shaded bands where a mesh frequency swept, low to high [Hz], and its harmonics while the bands stay
        apart and begin below `top` [Hz]."""
        brush = pg.mkColor(colour)
        brush.setAlpha(40)
        for h in range(1, HARMONICS + 1):
            if h > 1 and (h * low <= (h - 1) * high or h * low > top):
                break
            band = pg.LinearRegionItem((h * low, min(h * high, top)), movable=False, brush=brush,
                                       pen=pg.mkPen(colour, width=1, style=Qt.DashLine))
            pg.InfLineLabel(band.lines[0], text=f"{label} {h}x swept", position=0.9 - 0.05 * k,
                            color=colour)
            self.plot.addItem(band, ignoreBounds=True)
            self._lines.append(band)

    def _order_map(self, res, model, name, t0, t1) -> None:
        joint = self.reference.currentText()
        self.map_plot.clear()
        self.map_plot.addItem(self.image)
        if not joint:
            return
        try:
            om = order_map(res.time, res[name], res[f"{joint}.speed"], self.segment.value(), 0.75,
                           self.window_kind.currentText(), t0, t1)
        except (ValueError, KeyError) as exc:
            self.info.setText(self.info.text() + f"; order map: {exc}")
            return
        if len(om.time) < 2:
            return
        rpm = om.speed_rpm
        increasing = np.all(np.diff(rpm) > 0)
        if increasing:  # a run-up: amplitude against shaft speed on a uniform grid
            grid = np.linspace(rpm[0], rpm[-1], len(rpm))
            amp = np.column_stack([np.interp(grid, rpm, om.amplitude[:, k]) for k in range(om.amplitude.shape[1])])
            x0, x1, xlabel = grid[0], grid[-1], (f"{joint} speed", "rpm")
        else:
            amp, x0, x1, xlabel = om.amplitude, om.time[0], om.time[-1], ("t (the shaft speed is not rising)", "s")
        scale, unit = prefixed(float(np.abs(amp).max(initial=0.0)), res.record(name).unit)
        self.image.setImage(amp * scale)
        self.colour_bar.setLevels((float(amp.min()) * scale, float(amp.max()) * scale))
        self.colour_bar.getAxis("left").setLabel(f"amplitude [{unit}]")
        self.image.setRect(x0, om.frequency[0], max(x1 - x0, 1e-12), om.frequency[-1] - om.frequency[0])
        self.map_plot.getAxis("bottom").set_quantity(*xlabel)
        if increasing:  # each mesh order's line, up to the highest frequency the samples resolve
            top = float(om.frequency[-1])
            for k, (order, pairs) in enumerate(shared_frequencies(mesh_orders(model, res, joint, t0, t1), 1e-3)):
                end = min(x1, top * 60 / order) if order > 0 else x1
                if end <= x0:
                    continue
                colour = MARKER_COLOURS[k % len(MARKER_COLOURS)]
                self.map_plot.plot([x0, end], [order * x0 / 60, order * end / 60], pen=pg.mkPen(colour, width=1.5),
                                   name=f"{mesh_label(pairs)} order {order:.4g}")
