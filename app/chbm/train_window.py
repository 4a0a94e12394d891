"""Analysis > Train Dynamics: the modes, Campbell diagram and forced response of the open model's gear train.

The train is core.chbm.train_from_model's lumped model of all the model's gear pairs (compliant meshes,
bearings, mean torques), rebuilt whenever the model changes. Tabs: the modes (frequency, kind, multiplicity,
energy shares; Animate shows the selected mode in the main window's 3-D view, the bodies displaced along
the shape, scaled), the Campbell diagram up to a speed, and the forced response (every mesh's dynamic factor
over the mesh frequency, stable solid, unstable dashed, folds marked; a click shows one period of the mesh
forces). The curve runs in the background with progress and Stop; Export Curve CSV writes it as
`geardyn train-chbm` does.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.background import Background
from app.chbm.panels import message_label, side_dock, tool_bar
from app.chbm.train_plots import CampbellPlot, PeriodPlot, ResponsePlot
from app.chbm.train_worker import TrainWorker
from app.dialogs.fields import FieldError, QuantityField
from app.screen import fit_to_screen
from core.chbm.modes import campbell, displaced_poses, distinct, mode_scale, train_modes
from core.chbm.train_commands import SHARES, input_body
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import write_curves_csv
from core.errors import ModelError
from core.ranges import Range

HZ = Range(lo=0.0, hi=1e6, lo_open=True, unit="Hz")
ANIMATION_SHARE = 0.12  # the largest rim displacement of an animated mode, of the largest body radius
FRAMES_PER_CYCLE = 40


class TrainWindow(QMainWindow):
    def __init__(self, doc, viewport, parent=None):
        super().__init__(parent)
        self.setObjectName("train_window")
        self.setWindowTitle("Train Dynamics")
        self.doc, self.viewport = doc, viewport
        self.background = Background(self)
        self.train, self.modes, self.curve = None, [], None
        self.frame, self.mode, self.scale = 0, None, 0.0
        self.timer = QTimer(self)
        self.timer.setInterval(40)
        self.timer.timeout.connect(self._animate)

        self.table = QTableWidget(0, 3 + len(SHARES))
        self.table.setObjectName("train_modes_table")
        self.table.setHorizontalHeaderLabels(["f [Hz]", "kind", "multiplicity",
                                              *(f"{s} [%]" for s in SHARES)])
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.animate_button = QPushButton("Animate Mode")
        self.animate_button.setObjectName("train_animate")
        self.animate_button.setToolTip("Show the selected mode in the 3-D view: the bodies move along its shape, "
                                       f"scaled so the largest rim motion is {ANIMATION_SHARE:.0%} of the largest "
                                       "radius")
        self.animate_button.setCheckable(True)
        self.animate_button.toggled.connect(self.set_animating)
        modes_tab = QWidget()
        lay = QVBoxLayout(modes_tab)
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addWidget(self.animate_button)
        row.addStretch(1)
        lay.addLayout(row)

        self.campbell_plot = CampbellPlot()
        self.response_plot = ResponsePlot()
        self.response_plot.point_clicked.connect(self.show_period)
        self.period_plot = PeriodPlot()
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.response_plot)
        split.addWidget(self.period_plot)
        split.setSizes([460, 280])
        self.tabs = QTabWidget()
        self.tabs.setObjectName("train_tabs")
        self.tabs.addTab(modes_tab, "Modes")
        self.tabs.addTab(self.campbell_plot, "Campbell")
        self.tabs.addTab(split, "Forced Response")
        self.setCentralWidget(self.tabs)
        self._build_form()
        self._build_toolbar()
        self.progress = QProgressBar()
        self.progress.setObjectName("train_progress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(320)
        self.statusBar().addPermanentWidget(self.progress)
        fit_to_screen(self, 1200, 800)
        doc.items_changed.connect(self.rebuild)
        self.rebuild()

    # ------------------------------------------------------------------ form and toolbar

    def _build_form(self) -> None:
        form = QFormLayout()
        self.speed_max = QuantityField("Highest input speed", Range(lo=0.0, hi=1e6, lo_open=True, unit="rpm"), 3000.0,
                                       "The Campbell diagram's speed range [rpm] of the driven member")
        self.f_min = QuantityField("Lowest mesh frequency", HZ, 100.0)
        self.f_max = QuantityField("Highest mesh frequency", HZ, 3000.0)
        self.harmonics = QuantityField("Harmonics", Range(lo=1, hi=60, integer=True), 8)
        self.df_max = QuantityField("Largest frequency step", Range(lo=0.0, hi=1e6, unit="Hz"), 10.0,
                                    "Largest frequency step between curve points [Hz]; 0: 1 % of the range")
        for w in (self.speed_max, self.f_min, self.f_max, self.harmonics, self.df_max):
            form.addRow(w.label, w)
        self.speed_max.edit.editingFinished.connect(self.show_campbell)
        self.summary = QLabel()
        self.summary.setObjectName("train_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        form.addRow(self.summary)
        self.message = message_label("train_message")
        form.addRow(self.message)
        side_dock(self, "Train", "train_dock", form)

    def _build_toolbar(self) -> None:
        bar, act = tool_bar(self, "Train", "train_toolbar")
        self.act_run = act("Run", self.run, "train_run", "Compute the forced-response curve (in the background)")
        self.act_stop = act("Stop", self.stop, "train_stop", "Stop; the points so far are kept")
        self.act_stop.setEnabled(False)
        bar.addSeparator()
        self.act_export = act("Export Curve CSV", self.export_dialog, "train_export",
                              "The curve: every mesh's mean and peak force and dynamic factor (as geardyn train-chbm)")

    # ------------------------------------------------------------------ the train and its modes

    def rebuild(self, *_) -> None:
        """The train of the model as it is now: modes table, Campbell diagram; an old curve is dropped."""
        self.set_animating(False)
        self.mode, self.curve = None, None
        self.response_plot.show(None)
        self.period_plot.clear()
        try:
            self.train = train_from_model(self.doc.model.copy())
        except ModelError as exc:
            self.train, self.modes = None, []
            self.table.setRowCount(0)
            self.campbell_plot.clear()
            self.summary.setText("")
            self.message.setText(f"No train: {exc}")
            self.act_run.setEnabled(False)
            return
        self.message.setText("")
        self.act_run.setEnabled(not self.background.running)
        self.modes = distinct(train_modes(self.train))
        self.table.setRowCount(len(self.modes))
        for r, m in enumerate(self.modes):
            cells = [f"{m.frequency:.2f}", m.kind, str(m.multiplicity), *(f"{100 * m.shares[s]:.1f}" for s in SHARES)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter if c != 1 else Qt.AlignLeft | Qt.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.selectRow(next((i for i, m in enumerate(self.modes) if m.frequency > 0), 0))
        self.summary.setText(f"{len(self.train.meshes)} meshes, {self.train.dofs} coordinates; "
                             + "; ".join(self.train.notes))
        self.show_campbell()

    def show_campbell(self) -> None:
        if self.train is None:
            return
        try:
            speed = self.speed_max.value()
            body = input_body(self.train)
            self.campbell_plot.show(campbell(self.train, train_modes(self.train), body, speed), body)
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc))

    def set_animating(self, on: bool) -> None:
        """Start or stop the selected mode's animation in the 3-D view (stopping puts the bodies back)."""
        if self.animate_button.isChecked() != on:
            self.animate_button.setChecked(on)
            return
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if on and (self.train is None or not rows or self.modes[rows[0].row()].frequency == 0.0):
            self.message.setText("Select a mode with a frequency above 0 to animate")
            self.animate_button.setChecked(False)
            return
        if on:
            self.mode = self.modes[rows[0].row()]
            size = ANIMATION_SHARE * max(b.radius for b in self.train.bodies)
            self.scale = mode_scale(self.train, self.mode.shape, size)
            self.frame = 0
            self.timer.start()
            self.viewport.set_caption(f"mode {self.mode.frequency:.1f} Hz ({self.mode.kind}), shown {size * 1e3:.3g} "
                                      "mm at the largest rim")
        else:
            self.timer.stop()
            if self.train is not None and self.mode is not None:
                self._place(0.0)  # back to the model's poses
            self.viewport.set_caption("")

    def _animate(self) -> None:
        self.frame += 1
        self._place(math.sin(2 * math.pi * self.frame / FRAMES_PER_CYCLE))

    def _place(self, amplitude: float) -> None:
        poses = displaced_poses(self.train, self.mode.shape, amplitude * self.scale, self.doc.model)
        names = list(poses)
        self.viewport.set_poses(names, [poses[n][0] for n in names], [poses[n][1] for n in names])

    # ------------------------------------------------------------------ forced response

    def run(self) -> None:
        if self.background.running or self.train is None:
            return
        try:
            f_min, f_max = self.f_min.value(), self.f_max.value()
            harmonics, df_max = int(self.harmonics.value()), self.df_max.value()
            if not f_min < f_max:
                raise FieldError(f"Lowest mesh frequency: must be below the highest ({f_max:g} Hz), got {f_min:g} Hz")
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText("")
        self.progress.setValue(0)
        self.tabs.setCurrentIndex(2)
        worker = TrainWorker(self.train, f_min, f_max, harmonics, df_max or None)
        worker.progress.connect(self._progress)  # a method of this window: queued to the GUI thread (a lambda
        # would run in the worker's thread and touch the widgets from there)
        worker.done.connect(self._done)
        self.act_run.setEnabled(False)
        self.act_stop.setEnabled(True)
        self.background.start(worker)

    def stop(self) -> None:
        self.background.cancel()

    def _progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(1000 * fraction))
        self.statusBar().showMessage(message)

    def _done(self, status: str, message: str, curve) -> None:
        self.background.finish()
        self.act_run.setEnabled(self.train is not None)
        self.act_stop.setEnabled(False)
        if curve is not None:
            self.curve = curve
            self.response_plot.show(curve)
            peak = max((ld.factor, p.frequency, m.name) for p, loads in zip(curve.points, curve.loads)
                       for ld, m in zip(loads, curve.train.meshes))
            folds = max(p.segment for p in curve.points)
            self.progress.setValue(1000 if status == "finished" else self.progress.value())
            self.statusBar().showMessage(f"{status}: {len(curve.points)} points, {folds} folds, "
                                         f"{sum(not p.stable for p in curve.points)} unstable; largest dynamic "
                                         f"factor {peak[0]:.3f} ({peak[2]} at {peak[1]:.1f} Hz)")
        else:
            self.statusBar().showMessage(f"{status}")
            self.message.setText(message)

    def show_period(self, frequency: float) -> None:
        if self.curve is not None:
            self.period_plot.setTitle(self.period_plot.show(self.curve, frequency))

    def export_dialog(self) -> None:
        if self.curve is None:
            self.message.setText("Run the forced response first: there is no curve to export")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export Curve CSV", str(self.doc.suggested_path(".train.csv", "train_curve")),
                                              "CSV (*.csv)")
        if path:
            self.export(path)

    def export(self, path: str) -> None:
        try:
            write_curves_csv([self.curve], path)
        except OSError as exc:
            self.message.setText(f"Export Curve CSV: {exc}")
            return
        self.statusBar().showMessage(f"wrote {path}")

    def closeEvent(self, event) -> None:
        self.set_animating(False)
        self.background.stop()
        super().closeEvent(event)
