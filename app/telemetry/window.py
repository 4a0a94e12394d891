"""The Telemetry window: where a gear engineer reads the results.

Left, the channel browser; in the middle, stacked plots with linked time
axes, a playhead tied to the animation clock and A/B cursors; below, the
cursor read-out and the statistics over the visible range. It follows the
document's current run, live while it runs (redrawn about ten times a
second, not per sample), and keeps its layout (plots and their channels, by
name) in the model file.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
)

from app.dialogs.fields import FieldError, file_row, finish_form
from app.plot_image import save_plot_image
from app.plot_menu import plot_menu, plot_menus
from app.screen import close_key, fit_to_screen
from app.telemetry.browser import ChannelBrowser
from app.telemetry.derived_dialog import DerivedDialog
from app.telemetry.plots import PlotStack
from app.telemetry.readout import ReadoutTable, has_channel
from app.telemetry.run_bar import RunBar
from app.telemetry.spectrum import SpectrumWindow
from core.commands import SetViews
from core.errors import ModelError
from core.model.files import model_from_dict
from core.model.views import TelemetryLayout

REDRAW_MS = 100  # live runs redraw at about 10 Hz
SCOPES = {"selected": "Plotted channels over the visible range", "all": "All channels over the whole run"}


class ExportCsvDialog(QDialog):
    """Which channels over which span, and the file."""

    def __init__(self, suggestion: Path, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Export CSV")
        self.setObjectName("export_csv_dialog")
        self.scope = QComboBox()
        self.scope.setObjectName("scope")
        for key, text in SCOPES.items():
            self.scope.addItem(text, key)
        row, self.file = file_row(str(suggestion), self._browse)
        form = QFormLayout()
        form.addRow("Export", self.scope)
        form.addRow("File", row)
        self.message = finish_form(self, form)
        self.path = None

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export CSV", self.file.text(), "CSV files (*.csv)")
        if path:
            self.file.setText(path)

    def accept(self) -> None:
        path = Path(self.file.text().strip())
        if path.suffix.lower() != ".csv" or not path.parent.is_dir():
            self.message.setText(f"File: must be a .csv file in an existing folder, got {str(path)!r}")
            return
        self.path = path
        super().accept()


class TelemetryWindow(QMainWindow):
    """Plots of the current run's channels. `results` is what it shows (None before a run)."""

    def __init__(self, document, clock, parent=None):
        super().__init__(parent, Qt.Window)
        self.setObjectName("telemetry_window")
        self.doc, self.clock = document, clock
        self.results = None
        self._model_cache = (None, None)
        self.browser = ChannelBrowser()
        self.stack = PlotStack()
        self.readout = ReadoutTable()
        self.setCentralWidget(self.stack)
        left = QDockWidget("Channels", self)
        left.setObjectName("channels_dock")
        left.setWidget(self.browser)
        self.addDockWidget(Qt.LeftDockWidgetArea, left)
        bottom = QDockWidget("Cursors and statistics (visible range)", self)
        bottom.setObjectName("readout_dock")
        bottom.setWidget(self.readout)
        self.addDockWidget(Qt.BottomDockWidgetArea, bottom)
        self.spectrum_window: SpectrumWindow | None = None
        self._make_actions()
        self.addToolBarBreak()
        self.runs = RunBar(document, self)
        self.addToolBar(self.runs)
        self.runs.compare_changed.connect(self._compare_changed)
        self.browser.add_requested.connect(self.add_channels)
        self.browser.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.browser.tree.customContextMenuRequested.connect(self._browser_menu)
        self.browser_menu = None  # the channels' right-click menu while it is open
        self.stack.channels_dropped.connect(lambda panel, names: self.add_channels(names, panel))
        self.stack.playhead_dragged.connect(self._seek)
        self.stack.cursors_moved.connect(self._mark)
        self.stack.view_changed.connect(self._mark)
        plot_menus(self.stack, document.suggested_path)
        self.stack.panel_added.connect(lambda panel: plot_menu(panel, document.suggested_path))
        clock.time_changed.connect(self.stack.set_playhead)
        self.stack.set_playhead(clock.time)  # where the animation stands now, not 0 until the clock next moves
        document.run_updated.connect(self._run_updated)
        document.runs_changed.connect(self._runs_changed)
        document.items_changed.connect(self._model_changed)
        document.stale_changed.connect(self._title)  # the title says when the run is from an earlier model
        self._dirty = False
        self._restoring = False
        self.timer = QTimer(self)
        self.timer.setInterval(REDRAW_MS)
        self.timer.timeout.connect(self._refresh)
        fit_to_screen(self, 1180, 760)
        self._runs_changed()
        self._title()

    # ------------------------------------------------------------------ actions

    def _make_actions(self) -> None:
        tb = self.addToolBar("Telemetry")
        tb.setObjectName("telemetry_toolbar")

        def act(text, slot, name, tip, shortcut=None, checkable=False):
            a = QAction(text, self)
            a.setObjectName(name)
            a.setToolTip(tip)
            a.setCheckable(checkable)
            if shortcut:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(slot)
            tb.addAction(a)
            return a

        self.act_add_plot = act("Add Plot", self.add_plot, "add_plot", "A new plot under the others")
        self.act_remove_plot = act("Remove Plot", self.remove_plot, "remove_plot", "Remove the current plot")
        self.act_clear_plot = act("Clear Plot", self.clear_plot, "clear_plot", "Take every channel off the current plot")
        self.act_remove_channel = act("Remove Channel", self.remove_selected, "remove_channel",
                                      "Take the channels selected in the browser off the current plot")
        tb.addSeparator()
        self.act_auto = act("Auto Range", self.auto_range, "auto_range", "Fit every plot to its data", "A")
        self.act_cursors = act("A/B Cursors", self.toggle_cursors, "cursors",
                               "Two cursors with the values and differences of every plotted channel", checkable=True)
        self.act_follow = act("Follow Run", self._mark, "follow", "Keep the whole run in view while it grows",
                              checkable=True)
        self.act_follow.setChecked(True)
        tb.addSeparator()
        self.act_spectrum = act("Spectrum", self.open_spectrum, "spectrum",
                                "Amplitude spectrum and order map of the channel selected (or the first plotted)")
        self.act_derived = act("Derived Channel", self.add_derived, "derived",
                               "Derivative, integral, moving average, difference, dynamic factor")
        tb.addSeparator()
        self.act_csv = act("Export CSV", self.export_csv, "export_csv", "The plotted channels or all of them, as CSV")
        self.act_image = act("Export Image", self.export_image, "export_image", "The plots as PNG or SVG")

    # ------------------------------------------------------------------ results

    def model_of_results(self):
        """The model the shown results were made from (their snapshot)."""
        res = self.results
        if self._model_cache[0] is not res:
            self._model_cache = (res, model_from_dict(res.model) if res is not None and res.model else self.doc.model)
        return self._model_cache[1]

    def _runs_changed(self) -> None:
        rec = self.doc.current
        self.results = rec.results if rec is not None else None
        if self._model_cache[0] is not self.results:  # a run forgotten or dropped is not kept here
            self._model_cache = (None, None)
        self.runs.fill()
        if rec is None and self.stack.cursors_on:  # no run (a new or opened model): no cursors from the last one
            self.act_cursors.setChecked(False)
            self.stack.show_cursors(False)
        self._rebuild()
        if self.spectrum_window is not None:
            self.spectrum_window.follow_run()

    def _run_updated(self, record) -> None:
        if record is not self.doc.current:
            return
        if record.results is not self.results:
            self.results = record.results
            self._rebuild()
            return
        if record.ended:  # another run may be shown now, and this one's whole span
            self.runs.fill()
            if self.spectrum_window is not None:
                self.spectrum_window.follow_run()
        self._dirty = True
        if not self.timer.isActive():
            self.timer.start()

    def _model_changed(self, change) -> None:
        if change.reset or change.touched() == set():
            if not self._restoring and self.doc.model.views.telemetry.plots != self.stack.layout_names():
                self._rebuild()

    def _rebuild(self) -> None:
        """Channels and plots afresh from the results and the model's saved layout."""
        res = self.results
        self.browser.show_channels(res.channels if res is not None else [])
        layout = self.doc.model.views.telemetry.plots or ((),)
        self._restoring = True
        while len(self.stack.panels) > 1:
            self.stack.remove_panel(self.stack.panels[-1])
        self.stack.panels[0].clear_curves()
        for k, names in enumerate(layout):
            panel = self.stack.panels[0] if k == 0 else self.stack.add_panel()
            self._put(panel, names)
        self.stack.set_current(self.stack.panels[0])
        self._restoring = False
        self.auto_range()
        self._dirty = True
        self._refresh()
        self._title()

    def auto_range(self) -> None:
        """Fit every plot to its curves; a plot without curves spans the run's time (to its end time, also while
        it runs)."""
        res = self.results
        end = float(res.settings.get("t_end", 0.0)) if res is not None else 0.0
        self.stack.auto_range((0.0, end) if end > 0 else None)

    def _put(self, panel, names) -> list[str]:
        res = self.results
        added = []
        for name in names:
            if res is None:
                continue
            try:
                k = res.index(name)
            except KeyError:
                continue  # a layout name this run does not have
            c = res.channels[k]
            panel.add_curve(c.name, c.unit, res.time, res.data[:, k])
            added.append(c.name)
        return added

    def _refresh(self) -> None:
        """Redraw the curves from the growing results and the read-out (at most REDRAW_MS apart)."""
        if not self._dirty:
            if not (self.doc.current is not None and self.doc.current.status == "running"):
                self.timer.stop()
            return
        self._dirty = False
        res = self.results
        if res is not None and len(res):
            time = res.time
            for panel in self.stack.panels:
                for name in panel.curves:
                    panel.set_data(name, time, res[name])
            if self.act_follow.isChecked() and self.doc.current is not None and self.doc.current.status == "running":
                self.stack.set_x_range(float(time[0]), float(time[-1]))
        reference = self._draw_references()
        names = self.stack.visible_channels()
        cursors = (self.stack.cursor("A"), self.stack.cursor("B")) if self.stack.cursors_on else None
        self.readout.show_values(res, names, self.stack.x_range(), cursors, reference)
        self._title()

    # ------------------------------------------------------------------ another run beside

    def _compare_changed(self, *_) -> None:
        for panel in self.stack.panels:  # named after the run they came from: drawn afresh
            panel.clear_references()
        self._mark()
        if self.spectrum_window is not None and self.spectrum_window.spectrum is not None:
            self.spectrum_window.update_view()

    def _draw_references(self):
        """Each plotted channel of the run compared with, dashed beside its curve; (label, results) of that run,
        or None."""
        record = self.runs.reference
        res = record.results if record is not None else None
        for panel in self.stack.panels:
            for name in list(panel.curves):
                if not has_channel(res, name) or not len(res):
                    panel.remove_reference(name)
                elif getattr(panel.references.get(name), "source", None) != (res, len(res)):
                    panel.set_reference(name, record.label, res.time, res[name])
                    panel.references[name].source = (res, len(res))
        return (record.label, res) if res is not None else None

    def _mark(self, *_) -> None:
        self._dirty = True
        if not self.timer.isActive():
            self.timer.start()

    def _title(self) -> None:
        rec = self.doc.current
        what = f"{rec.label} ({rec.status})" if rec is not None else "no results yet: run the model (F5)"
        stale = " - from an earlier version of the model" if self.doc.stale else ""
        self.setWindowTitle(f"GearDyn Telemetry - {what}{stale}")

    # ------------------------------------------------------------------ editing the layout

    def add_channels(self, names, panel=None) -> None:
        """Plot channels in `panel` (default: the current plot); a channel of another unit than the plot's goes
        to a plot of its unit (a new one when there is none), so that one axis never mixes units."""
        panel = panel or self.stack.current
        touched = []
        for name in names:
            target = self._panel_for(self._unit(name), panel)
            if self._put(target, [name]) and target not in touched:
                touched.append(target)
        if touched:
            self._save_layout()
            for p in touched:
                p.getPlotItem().enableAutoRange()
            self._mark()

    def _unit(self, name: str) -> str | None:
        try:
            return self.results.channels[self.results.index(name)].unit
        except (AttributeError, KeyError):
            return None

    def _panel_for(self, unit, preferred):
        """`preferred` when it is empty or plots `unit`, else a plot of `unit` alone, else a new plot."""
        units = set(preferred.units.values())
        if unit is None or not units or units == {unit}:
            return preferred
        return next((p for p in self.stack.panels if set(p.units.values()) == {unit}), None) or self.stack.add_panel()

    def _browser_menu(self, pos) -> None:
        """The channels' right-click menu: the channels selected into the current plot or a new one, and the
        Spectrum and Derived Channel tools on them."""
        names = self.browser.selected_names()
        if not names:  # a group's heading
            return
        menu = self.browser_menu = QMenu()
        menu.addAction("Plot", lambda: self.add_channels(names))
        menu.addAction("Plot in a New Plot", lambda: self.add_channels(names, self.stack.add_panel()))
        menu.addSeparator()
        menu.addActions([self.act_spectrum, self.act_derived])
        menu.popup(self.browser.tree.viewport().mapToGlobal(pos))

    def add_plot(self) -> None:
        self.stack.add_panel()
        self._save_layout()

    def remove_plot(self) -> None:
        self.stack.remove_panel()
        self._save_layout()
        self._mark()

    def clear_plot(self) -> None:
        self.stack.current.clear_curves()
        self._save_layout()
        self._mark()

    def remove_selected(self) -> None:
        for name in self.browser.selected_names():
            self.stack.current.remove_curve(name)
        self._save_layout()
        self._mark()

    def _save_layout(self) -> None:
        layout = TelemetryLayout(tuple(p for p in self.stack.layout_names()))
        if self._restoring or layout == self.doc.model.views.telemetry:
            return
        self._restoring = True
        try:
            self.doc.apply(SetViews(self.doc.model, dataclasses.replace(self.doc.model.views, telemetry=layout)))
        except ModelError as exc:
            QMessageBox.warning(self, "Telemetry", str(exc))
        finally:
            self._restoring = False

    # ------------------------------------------------------------------ cursors, playhead

    def toggle_cursors(self, on: bool) -> None:
        lo, hi = self.stack.x_range()
        self.stack.show_cursors(on, lo + 0.25 * (hi - lo), lo + 0.75 * (hi - lo))
        self._mark()

    def _seek(self, t: float) -> None:
        self.clock.pause()
        self.clock.seek(t)

    # ------------------------------------------------------------------ analysis and export

    def _first_channel(self) -> str:
        picked = self.browser.selected_names()
        if picked:
            return picked[0]
        shown = self.stack.visible_channels()
        return shown[0] if shown else ""

    def open_spectrum(self) -> None:
        name = self._first_channel()
        if self.results is None or not name:
            QMessageBox.information(self, "Spectrum", "Plot or select a channel of a run first")
            return
        if self.spectrum_window is None:
            self.spectrum_window = SpectrumWindow(self, self)
            plot_menus(self.spectrum_window, self.doc.suggested_path)
            close_key(self.spectrum_window)
        self.spectrum_window.show_channel(name)
        self.spectrum_window.show()
        self.spectrum_window.raise_()

    def add_derived(self) -> None:
        if self.results is None or not len(self.results) or (self.doc.current and self.doc.current.status == "running"):
            QMessageBox.information(self, "Derived Channel", "Derived channels need a run that has ended")
            return
        dlg = DerivedDialog(self.results, self.model_of_results(), self._first_channel(), self)
        if dlg.exec() and dlg.channel is not None:
            self.results.add_channel(dlg.channel, dlg.values)
            self.browser.show_channels(self.results.channels)
            self.add_channels([dlg.channel.name])

    def export_csv(self) -> None:
        res = self.results
        if res is None or not len(res):
            QMessageBox.information(self, "Export CSV", "There are no results to export yet")
            return
        base = self.doc.suggested_path(".csv", "results")
        dlg = ExportCsvDialog(base, self)
        if not (dlg.exec() and dlg.path is not None):
            return
        try:
            if dlg.scope.currentData() == "all":
                res.to_csv(dlg.path)
            else:
                names = self.stack.visible_channels()
                if not names:
                    raise FieldError("Export: no channel is plotted")
                lo, hi = self.stack.x_range()
                res.to_csv(dlg.path, columns=names, t_min=lo, t_max=hi)
        except (OSError, FieldError) as exc:
            QMessageBox.warning(self, "Export CSV", str(exc))
            return
        self.statusBar().showMessage(f"Wrote {dlg.path}", 8000)

    def export_image(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export plots", str(self.doc.suggested_path(".png", "plots")),
                                              "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self.save_image(path)

    def save_image(self, path) -> None:
        """The stacked plots as PNG (pixels) or SVG (vector paths)."""
        save_plot_image(path, self.stack.panels, self.stack, "GearDyn telemetry")
        self.statusBar().showMessage(f"Wrote {path}", 8000)
