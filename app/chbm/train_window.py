"""Analysis > Train Dynamics: the modes, Campbell diagram and forced response of the open model's gear train.

The train is core.chbm.train_from_model's lumped model of all the model's gear pairs (compliant meshes,
bearings, mean torques), rebuilt whenever the model changes. Tabs: the modes (frequency, kind, multiplicity,
energy shares; Animate shows the selected mode in the main window's 3-D view, the bodies displaced along
the shape, scaled), the Campbell diagram up to a speed, and the forced response at one or more torque scales
(every mesh's dynamic factor or 1x force amplitude, or every body's rotation or centre translation, over the
mesh frequency; stable solid, unstable dashed, folds marked; a click shows one period of the mesh forces of
the chosen scale). The curves run in the background with progress and Stop; Export Curve CSV writes them as
`geardyn train-chbm` does. The form's settings are kept with the model when the curves run
(model.views.train), unless they are the ones the window suggested (a run of those asks for no save), and
fill the form when a file is opened.
"""

from __future__ import annotations

import dataclasses
import math

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
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
from app.chbm.panels import WorkerRuns, message_label, note_label, refill, row_label, side_dock, tool_bar
from app.chbm.train_plots import (
    RESPONSES,
    CampbellPlot,
    PeriodPlot,
    ResponsePlot,
    item_names,
)
from app.chbm.train_worker import TrainWorker
from app.dialogs.fields import FieldError, QuantityField, QuantityListField
from app.plot_menu import plot_menus
from app.screen import fit_to_screen
from core.chbm.modes import campbell, displaced_poses, distinct, mode_scale, train_modes
from core.chbm.train_commands import SHARES, input_body, suggested_study
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import RESOLVED_REACH, write_curves_csv
from core.commands import SetViews
from core.errors import ModelError
from core.model.views import MAX_TORQUE_SCALES, NEWMARK_POINTS, TORQUE_SCALE, TRAIN_HARMONICS, TrainStudy
from core.ranges import Range

HZ = Range(lo=0.0, hi=1e6, lo_open=True, unit="Hz")
ANIMATION_SHARE = 0.12  # the largest rim displacement of an animated mode, of the largest body radius

#: what each column of the modes table counts (its header's tooltip)
MODE_COLUMNS = (
    "Natural frequency at the meshes' mean stiffness, of the flank the mean torques load",
    "rotational, translational or planet mode (Lin and Parker's classes for a planetary set), mixed, or rigid "
    "(the train rolls: nothing strains)",
    "How many modes share the frequency (equally spaced planets give translational pairs and N - 3 planet modes)",
    "Share of the mode's kinetic energy in the turning of the bodies that are not planets: sun, ring, carrier, "
    "and the gears of a fixed-axis train",
    "Share of the mode's kinetic energy in the motion of those bodies' centres (on bearing spring-dampers)",
    "Share of the mode's kinetic energy in the planets' motion",
    "Share of the mode's strain energy in the meshes",
    "Share of the mode's strain energy in the bearings, torsional springs and spring-dampers")
FRAMES_PER_CYCLE = 40


class TrainWindow(WorkerRuns, QMainWindow):
    #: the form's label of each TrainStudy field, for its problems
    FIELD_LABELS = {"speed_max_rpm": "Highest input speed", "f_min": "Lowest mesh frequency", "harmonics": "Harmonics",
                    "df_max": "Largest frequency step", "torque_scales": "Torque scales",
                    "newmark_points": "Newmark check points"}

    def __init__(self, doc, viewport, parent=None):
        super().__init__(parent)
        self.setObjectName("train_window")
        self.setWindowTitle("Train Dynamics")
        self.doc, self.viewport = doc, viewport
        self.background = Background(self)
        self.train, self.modes, self.curves = None, [], []
        self.frame, self.mode, self.scale = 0, None, 0.0
        self.timer = QTimer(self)
        self.timer.setInterval(40)
        self.timer.timeout.connect(self._animate)

        self.table = QTableWidget(0, 3 + len(SHARES))
        self.table.setObjectName("train_modes_table")
        self.table.setHorizontalHeaderLabels(["f [Hz]", "kind", "multiplicity",
                                              *(f"{s} [%]" for s in SHARES)])
        for column, tip in enumerate(MODE_COLUMNS):
            self.table.horizontalHeaderItem(column).setToolTip(tip)
        self.table.resizeColumnsToContents()  # the headers read whole before a run fills the table
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
        self.quantity = QComboBox()
        self.quantity.setObjectName("train_quantity")
        self.quantity.addItems(list(RESPONSES))
        self.quantity.currentTextChanged.connect(self._quantity_changed)
        self.only = QComboBox()
        self.only.setObjectName("train_only")
        self.only.setToolTip("Every mesh or body, or one of them")
        self.only.currentTextChanged.connect(self._redraw)
        self.period_scale = QComboBox()
        self.period_scale.setObjectName("train_period_scale")
        self.period_scale.setToolTip("The torque scale whose curve the clicked period is taken from")
        response = QWidget()
        lay = QVBoxLayout(response)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Show"))
        row.addWidget(self.quantity)
        row.addWidget(QLabel("of"))
        row.addWidget(self.only)
        row.addSpacing(16)
        row.addWidget(QLabel("Period of torque"))
        row.addWidget(self.period_scale)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addWidget(self.response_plot, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(response)
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
        plot_menus(self, doc.suggested_path)
        doc.items_changed.connect(self.rebuild)
        self.rebuild(None)

    # ------------------------------------------------------------------ form and toolbar

    def _name_frequencies(self) -> None:
        """The frequency fields name the first mesh where the meshes run at different frequencies: the curves'
        axis is its frequency."""
        train = self.train
        first = train.meshes[0].name if train and train.meshes and train.lumped.cycles > 1 else ""
        for field, word in ((self.f_min, "Lowest"), (self.f_max, "Highest")):
            field.label = f"{word} mesh frequency" + (f" of {first}" if first else "")
            self.form.labelForField(field).setText(field.label)

    def _build_form(self) -> None:
        self.form = form = QFormLayout()
        d = TrainStudy()
        self.speed_max = QuantityField("Highest input speed", Range(lo=0.0, hi=1e6, lo_open=True, unit="rpm"),
                                       d.speed_max_rpm, "The Campbell diagram's speed range [rpm] of the driven member")
        self.f_min = QuantityField("Lowest mesh frequency", HZ, d.f_min)
        self.f_max = QuantityField("Highest mesh frequency", HZ, d.f_max)
        self.harmonics = QuantityField("Harmonics", TRAIN_HARMONICS, d.harmonics,
                                       "Harmonics H of the train's period (the mesh period where every mesh runs at "
                                       "one frequency; else the common period of the meshes, several periods of "
                                       "each): a curve is resolved where H times its frequency reaches "
                                       f"{RESOLVED_REACH:g}x the train's highest natural frequency; more harmonics "
                                       "take longer")
        self.df_max = QuantityField("Largest frequency step", Range(lo=0.0, hi=1e6, unit="Hz"), d.df_max,
                                    "Largest frequency step between curve points [Hz]; 0: 1 % of the range")
        self.scales = QuantityListField("Torque scales", TORQUE_SCALE, d.torque_scales,
                                        "Scales of the model's mean torques, one curve each, separated by commas "
                                        f"(e.g. 0.5, 1, 2): at most {MAX_TORQUE_SCALES}, each {TORQUE_SCALE.describe()}")
        self.newmark = QuantityField("Newmark check points", NEWMARK_POINTS, d.newmark_points,
                                     "Mesh frequencies, evenly spaced over the range, where Newmark time integration "
                                     "of the same lumped model checks each curve (triangles on the plot, 'Newmark' "
                                     "rows in the CSV); 0: none. Each brings the train to its periodic steady state: "
                                     "seconds to a minute a point")
        for w in (self.speed_max, self.f_min, self.f_max, self.harmonics, self.df_max, self.scales, self.newmark):
            form.addRow(row_label(w), w)
        self.speed_max.edit.editingFinished.connect(self.show_campbell)
        self.summary = note_label("train_summary")
        form.addRow(self.summary)
        self.message = message_label("train_message")
        form.addRow(self.message)
        self.checked = note_label("train_check")  # how Newmark's check agrees with the curves
        form.addRow(self.checked)
        side_dock(self, "Train", "train_dock", form)

    def _build_toolbar(self) -> None:
        bar, act = tool_bar(self, "Train", "train_toolbar")
        self.act_run = act("Run", self.run, "train_run",
                           "Compute the forced-response curves, one per torque scale (in the background)")
        self.act_stop = act("Stop", self.stop, "train_stop", "Stop; the points so far are kept")
        self.act_stop.setEnabled(False)
        bar.addSeparator()
        self.act_export = act("Export Curve CSV", self.export_dialog, "train_export",
                              "The curves: every mesh's mean and peak force, dynamic factor and 1x and 2x amplitudes, "
                              "every body's rotation and translation amplitudes (as geardyn train-chbm)")

    # ------------------------------------------------------------------ the train and its modes

    def load_settings(self, s: TrainStudy | None = None) -> None:
        """The form from `s`, by default the settings kept with the model (model.views.train)."""
        s = self.doc.model.views.train if s is None else s
        self.speed_max.set_si(s.speed_max_rpm)
        self.f_min.set_si(s.f_min)
        self.f_max.set_si(s.f_max)
        self.harmonics.set_si(s.harmonics)
        self.df_max.set_si(s.df_max)
        self.scales.set_values(s.torque_scales)
        self.newmark.set_si(s.newmark_points)

    def unchosen(self) -> TrainStudy:
        """What the form shows a model that keeps no settings of its own: around the train's mesh modes. A run
        with it changes nothing in the model (the file opens on it again), so it asks for no save."""
        return suggested_study(self.train, self.modes)

    def settings(self) -> TrainStudy:
        """The form's settings; raises FieldError naming the field that is out of range."""
        study = TrainStudy(self.speed_max.value(), self.f_min.value(), self.f_max.value(), int(self.harmonics.value()),
                           self.df_max.value(), self.scales.value(), int(self.newmark.value()))
        if not study.f_min < study.f_max:
            raise FieldError(f"Lowest mesh frequency: must be below the highest ({study.f_max:g} Hz), got "
                             f"{study.f_min:g} Hz")
        for field, msg in study.problems():  # what the form's fields cannot hold alone: the step for the range
            raise FieldError(f"{self.FIELD_LABELS.get(field, field)}: {msg}")
        return study

    def rebuild(self, change=None) -> None:
        """The train of the model as it is now: modes table, Campbell diagram; an old curve is dropped. A file
        opened (or the window's first show) fills the form from its settings; an edit of no item or setting (the
        windows' settings kept with the model) changes nothing here."""
        if change is not None and not change:
            return
        if change is None or change.reset:
            self.load_settings()
        self.set_animating(False)
        self.mode = None
        self._show_curves([])
        self.period_plot.empty()
        self.supersede()  # a curve running is of the train before
        if not self.background.running:  # the dropped curve's summary and progress go with it
            self.statusBar().clearMessage()
            self.progress.setValue(0)
        try:
            self.train = train_from_model(self.doc.model.copy())
        except ModelError as exc:
            self.train, self.modes = None, []
            self._name_frequencies()
            self.table.setRowCount(0)
            self.campbell_plot.clear()
            self.summary.setText("")
            self.message.setText(f"No train: {exc}")
            self.act_run.setEnabled(False)
            return
        self.message.setText("")
        self.act_run.setEnabled(not self.background.running)
        self._name_frequencies()
        self.modes = distinct(train_modes(self.train))
        if (change is None or change.reset) and self.doc.model.views.train == TrainStudy():
            self.load_settings(self.unchosen())
        self.table.setRowCount(len(self.modes))
        for r, m in enumerate(self.modes):
            cells = [f"{m.frequency:.2f}", m.kind, str(m.multiplicity), *(f"{100 * m.shares[s]:.1f}" for s in SHARES)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter if c != 1 else Qt.AlignLeft | Qt.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.selectRow(next((i for i, m in enumerate(self.modes) if m.frequency > 0), 0))
        meshes = len(self.train.meshes)
        self.summary.setText(f"{meshes} mesh{'es' if meshes != 1 else ''}, {self.train.dofs} coordinates; "
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
            study = self.settings()
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        kept = self.doc.model.views.train
        if study != (self.unchosen() if kept == TrainStudy() else kept):  # the user's own: kept with the model
            self.doc.apply(SetViews(self.doc.model, dataclasses.replace(self.doc.model.views, train=study)))
        self.message.setText("")
        self.progress.setValue(0)
        self.tabs.setCurrentIndex(2)
        worker = TrainWorker(self.doc.model.copy(), self.train, study.torque_scales, study.f_min, study.f_max,
                             study.harmonics, study.df_max or None, study.newmark_points)
        worker.progress.connect(self._progress)
        worker.growing.connect(self._growing)
        worker.done.connect(self._done)
        self.start_worker(worker)

    def _done(self, status: str, message: str, curves) -> None:
        self.act_run.setEnabled(self.train is not None)
        if self.end_superseded():
            return
        self.background.finish()
        self.act_stop.setEnabled(False)
        self.message.setText(message)
        if not curves:
            self.statusBar().showMessage(status)
            return
        self._show_curves(curves)
        self.progress.setValue(1000 if status == "finished" else self.progress.value())
        self.statusBar().showMessage(f"{status}: " + "; ".join(f"x{c.scale:g}: {c.summary()}" for c in curves))
        notes = [f"x{c.scale:g}: {c.resolution_note()}" if len(curves) > 1 else c.resolution_note()
                 for c in curves if c.resolution_note()]
        self.message.setText("\n".join(filter(None, [message, *notes])))

    def _show_curves(self, curves) -> None:
        """Draw `curves` (a curve growing as it runs, or the finished ones); the mesh or body and the torque scale
        chosen stay chosen while the curves have them."""
        self.curves = list(curves)
        self.checked.setText("\n".join(f"x{c.scale:g}: {c.check}" if len(self.curves) > 1 else c.check
                                       for c in self.curves if c.check))
        self._quantity_changed()
        refill(self.period_scale, [f"x{c.scale:g}" for c in self.curves])

    def _quantity_changed(self, *_) -> None:
        """The `of` list for the quantity shown (meshes or bodies), then the plot."""
        refill(self.only, ["all", *item_names(self.curves, self.quantity.currentText())])
        self._redraw()

    def _growing(self, curves) -> None:
        """The curves so far while they run, the last one still being followed."""
        if not self.superseded and self.background.running:
            self._show_curves(curves)

    def _redraw(self, *_) -> None:
        only = self.only.currentText()
        self.response_plot.show(self.curves, self.quantity.currentText(), "" if only == "all" else only)

    def show_period(self, frequency: float) -> None:
        if self.curves:
            curve = self.curves[max(self.period_scale.currentIndex(), 0)]
            self.period_plot.setTitle(self.period_plot.show(curve, frequency))

    def export_dialog(self) -> None:
        if not self.curves:
            self.message.setText("Run the forced response first: there is no curve to export")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export Curve CSV", str(self.doc.suggested_path(".train.csv", "train_curve")),
                                              "CSV (*.csv)")
        if path:
            self.export(path)

    def export(self, path: str) -> None:
        try:
            write_curves_csv(self.curves, path)
        except OSError as exc:
            self.message.setText(f"Export Curve CSV: {exc}")
            return
        self.statusBar().showMessage(f"wrote {path}")

    def closeEvent(self, event) -> None:
        self.set_animating(False)
        self.background.stop()
        super().closeEvent(event)
