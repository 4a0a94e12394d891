"""Analysis > Parameter Study: vary fields of the open model, run the cases on dask, read a table and a plot.

It writes the same study a study file holds (core.studies.study_file), so a
study built here can be saved and run with `geardyn study` on a cluster.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSettings, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.background import Background
from app.plot_axis import PEOPLE, empty_range
from app.plot_menu import plot_menus
from app.plot_span import Line
from app.screen import fit_to_screen
from app.studies.form import UNIT, VALUES, StudyForm, form_message
from app.studies.workers import ClusterWorker, StudyWorker
from core.atomic import atomic_write_text
from core.errors import ModelError
from core.model.entities import INTEGRATOR_OPTIONS
from core.model.files import model_to_dict
from core.studies.cases import NOT_COMPILED, output_columns
from core.studies.parameters import path_range, value_problems
from core.studies.runner import header, write_results
from core.studies.study_file import study_from_dict
from core.wording import counted

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
EMPTY_TITLE = "Run the study: one row per case above; the chosen result is plotted here"
WORKERS_KEY = "study/workers"  # the Dask workers count last chosen, in the app's settings (QSettings)
#: the Values column's width [px], room for "0.5:2:4" or a few numbers; the field's path takes the rest
VALUES_WIDTH = 110


class StudyWindow(StudyForm, QMainWindow):
    @Slot(int, int)
    def _progress(self, done: int, total: int) -> None:
        if not self.superseded:
            self.progress.setValue(done)

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.setObjectName("study_window")
        self.setWindowTitle("Parameter Study")
        self.doc = doc
        self.study = None
        self.rows = []
        self.factors: list[float] = []  # each result column's factor from SI to the unit shown
        self.background = Background(self)  # the study's cases
        self.starter = Background(self)  # the local dask cluster's start
        self.cluster = None  # the started cluster (app.studies.workers.Cluster), kept for every study
        self.pending = None  # a study waiting for the cluster to start
        self.status = ""
        self.superseded = False  # the study running was of a model no longer open: its results are dropped

        left = QWidget()
        lay = QVBoxLayout(left)
        lay.addWidget(QLabel("Parameters (values: numbers, or start:stop:count)"))
        self.params = QTableWidget(0, 3)
        self.params.setObjectName("parameters")
        self.params.setHorizontalHeaderLabels(["Field", "Unit", "Values"])
        header = self.params.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Stretch)  # the field's path: the longest text
        header.setSectionResizeMode(UNIT, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(VALUES, QHeaderView.Interactive)
        header.resizeSection(VALUES, VALUES_WIDTH)
        lay.addWidget(self.params)
        lay.addLayout(_buttons(("Add Parameter", self.add_parameter, "add_parameter"),
                               ("Remove Parameter", self.remove_parameter, "remove_parameter")))
        form = QFormLayout()
        self.combine = QComboBox()
        self.combine.setObjectName("combine")
        self.combine.addItems(["grid", "list"])
        form.addRow("Combine", self.combine)
        self.t_end = QLineEdit()
        self.t_end.setObjectName("End time")
        self.step = QLineEdit()
        self.step.setObjectName("Time step")
        self.integrator = QComboBox()
        self.integrator.setObjectName("integrator")
        self.integrator.addItems(list(INTEGRATOR_OPTIONS))
        form.addRow("End time [s]", self.t_end)
        form.addRow("Time step [s]", self.step)
        form.addRow("Integrator", self.integrator)
        lay.addLayout(form)
        lay.addWidget(QLabel("Results: channel and reduction"))
        self.outputs = QTableWidget(0, 2)
        self.outputs.setObjectName("outputs")
        self.outputs.setHorizontalHeaderLabels(["Channel", "Reduce"])
        self.outputs.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        lay.addWidget(self.outputs)
        lay.addLayout(_buttons(("Add Result", self.add_output, "add_output"),
                               ("Remove Result", self.remove_output, "remove_output")))
        form2 = QFormLayout()
        self.workers = QSpinBox()
        self.workers.setObjectName("workers")
        self.workers.setRange(0, max(1, os.cpu_count() or 1) * 4)
        settings = QSettings("GearDyn", "GearDyn")  # the count chosen last, in this session or an earlier one
        self.workers.setValue(settings.value(WORKERS_KEY, min(2, os.cpu_count() or 1), type=int))
        self.workers.valueChanged.connect(lambda n: settings.setValue(WORKERS_KEY, n))
        self.workers.setToolTip("Worker processes of a local dask cluster, started when this window opens and kept "
                                "for every study; 0 runs the cases in this process. The count is kept for the next "
                                "session")
        self._workers_changed = QTimer(self)
        self._workers_changed.setSingleShot(True)
        self._workers_changed.setInterval(400)  # once the number has settled
        self._workers_changed.timeout.connect(self.prepare_cluster)
        self.workers.valueChanged.connect(self._workers_changed.start)
        form2.addRow("Dask workers", self.workers)
        lay.addLayout(form2)
        row = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.run_button.setObjectName("study_run")
        self.run_button.clicked.connect(self.run)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("study_stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.save_button = QPushButton("Save Study File...")
        self.save_button.setObjectName("study_save")
        self.save_button.clicked.connect(self.save_study_dialog)
        self.export_button = QPushButton("Export CSV...")
        self.export_button.setObjectName("study_export")
        self.export_button.clicked.connect(self.export_dialog)
        for b in (self.run_button, self.stop_button, self.save_button, self.export_button):
            row.addWidget(b)
        lay.addLayout(row)
        self.message = QLabel()
        self.message.setObjectName("study_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a33;")
        lay.addWidget(self.message)

        right = QSplitter(Qt.Vertical)
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("study_results")
        self.table.verticalHeader().setVisible(False)  # the case column numbers the rows (from 0, as the study file)
        right.addWidget(self.table)
        plot_box = QWidget()
        pl = QVBoxLayout(plot_box)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("Plot"))
        self.y_choice = QComboBox()
        self.y_choice.setObjectName("plot_result")
        self.y_choice.currentIndexChanged.connect(self.redraw)
        pick.addWidget(self.y_choice, 1)
        pl.addLayout(pick)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("study_plot")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        for axis in ("left", "bottom"):
            self.plot.getAxis(axis).enableAutoSIPrefix(False)  # the values as typed; no hidden scale
        self.legend = self.plot.addLegend(offset=(10, 10))
        pl.addWidget(self.plot)
        right.addWidget(plot_box)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([420, 760])
        self.setCentralWidget(split)
        self.progress = QProgressBar()
        self.progress.setObjectName("study_progress")
        self.statusBar().addPermanentWidget(self.progress)
        fit_to_screen(self, 1200, 760)
        plot_menus(self, doc.suggested_path)
        self.start_form()
        self.redraw()
        doc.items_changed.connect(self._model_changed)

    def _model_changed(self, change) -> None:
        """Another model opened (File > New or Open): the results, and a study running, were of the model before,
        and the form's fields and channels may not exist in this one. The study stops, and what it still reports
        is dropped; the results go; the form starts again on the open model."""
        if not change.reset:
            return
        if self.pending is not None:  # waiting for the workers: nothing runs yet
            self.pending = None
            self._finished_running()
        if self.background.running:
            self.superseded = True
            self.background.cancel()
            self.statusBar().showMessage("stopping: the model changed while it ran")
        else:
            self.statusBar().clearMessage()
        self.study, self.rows, self.status = None, [], ""
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.y_choice.clear()
        self.redraw()
        empty_range(self.plot)
        self.progress.setValue(0)
        self.message.setText("")
        self.start_form()

    # ------------------------------------------------------------------ cluster

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.prepare_cluster()  # while the user sets the study up

    def prepare_cluster(self) -> None:
        """Start the local cluster of the chosen worker count in the background, unless it is there or starting."""
        n = self.workers.value()
        if self.starter.running or (self.cluster is not None and self.cluster.workers == n):
            return
        if self.cluster is not None and not self.background.running:  # not while cases run on it
            self.cluster.close()
            self.cluster = None
        if n == 0 or self.cluster is not None:
            return
        worker = ClusterWorker(n, model_to_dict(self.doc.model))
        worker.ready.connect(self._cluster_ready)
        worker.failed.connect(self._cluster_failed)
        self.statusBar().showMessage(f"Starting {n} dask workers...")
        self.starter.start(worker)

    @Slot(object)
    def _cluster_ready(self, cluster) -> None:
        self.starter.finish()
        if not self.isVisible():  # closed as the cluster came up (its 'ready' was queued): none will use it
            cluster.close()
            return
        self.cluster = cluster
        self.statusBar().showMessage(f"{cluster.workers} dask workers ready", 5000)
        if self.pending is not None:
            study, self.pending = self.pending, None
            self._start(study)
        elif cluster.workers != self.workers.value():
            self.prepare_cluster()

    @Slot(str)
    def _cluster_failed(self, message: str) -> None:
        """The cluster did not start (`message` says why; '' when it was cancelled): a study waiting for it runs
        in this process instead, unless the window, closed as it started, is open again and starts its own."""
        self.starter.finish()
        if not message and self.isVisible():  # the window was closed as it started, and opened again since
            self.prepare_cluster()
            if self.starter.running:
                return  # a study waiting for workers waits for these
        if message:
            self.message.setText(f"{message}; the cases run in this process")
        if self.pending is not None:
            study, self.pending = self.pending, None
            self._start(study)

    # ------------------------------------------------------------------ running

    def run(self) -> None:
        if self.running:
            return
        try:
            study = study_from_dict(self.study_dict())
            self._check(study)
        except ModelError as exc:
            self.message.setText(form_message(exc))
            return
        self.message.setText("")
        self.study, self.rows = study, []
        self.progress.setRange(0, len(study.cases()))
        self.progress.setValue(0)
        self.status = "running"
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        n = self.workers.value()
        if n and (self.cluster is None or self.cluster.workers != n):
            self.pending = study  # it starts when the cluster is ready
            self.statusBar().showMessage(f"Starting {n} dask workers for {len(study.cases())} cases...")
            self.prepare_cluster()
            return
        self._start(study)

    def _check(self, study) -> None:
        """A ModelError naming each parameter with a value outside its field's range (core.studies.parameters) and
        each result whose channel the model does not give, where its channels are known (a model that cannot run
        yet leaves that to its cases): before the workers are asked for."""
        names = set(self.channel_names())
        bad = value_problems(self.doc.model, study.parameters)
        if names:
            bad += [(f"analysis.outputs[{i}].channel", f"the model has no channel {o.channel!r}")
                    for i, o in enumerate(study.analysis.outputs) if o.channel not in names]
        if bad:
            raise ModelError.of(bad)

    def _start(self, study) -> None:
        cluster = self.cluster if self.workers.value() and self.cluster is not None else None
        worker = StudyWorker(study, model_to_dict(self.doc.model), cluster)
        # bound slots of this window: the calls are queued to the GUI thread
        worker.progress.connect(self._progress)
        worker.done.connect(self._done)
        where = f"on {cluster.workers} dask workers" if cluster is not None else "in this process"
        self.statusBar().showMessage(f"Running {len(study.cases())} cases {where}...")
        self.background.start(worker)

    def stop(self) -> None:
        if self.pending is not None:
            self.pending = None
            self.rows = []
            self._finished_running()
            self.status = "stopped"
            self.statusBar().showMessage("Stopped before the workers had started")
            return
        self.background.cancel()

    @property
    def running(self) -> bool:
        return self.background.running or self.pending is not None

    def _finished_running(self) -> None:
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)

    def _done(self, rows, error: str) -> None:
        self.background.finish()
        self._finished_running()
        if self.superseded:
            self.superseded = False
            self.statusBar().showMessage("stopped: the model changed while it ran, so its results are not shown")
            return
        if error:
            self.status = "failed"
            self.message.setText(error)
            return
        self.rows = rows
        failed = sum(r["status"] == "failed" for r in rows)
        cancelled = sum(r["status"] == "cancelled" for r in rows)
        warned = sum(r["status"] == "ok" and "warning:" in r["message"] for r in rows)
        slow = sum(r["message"].startswith(NOT_COMPILED) for r in rows)  # the fast path not taken: said here
        self.status = "stopped" if cancelled else "finished"
        self.statusBar().showMessage(f"{counted(len(rows), 'case')}: {len(rows) - failed - cancelled} computed, "
                                     f"{failed} failed"
                                     + (f", {cancelled} not run (stopped)" if cancelled else "")
                                     + (f"; {warned} with warnings (see their message)" if warned else "")
                                     + (f"; {slow} ran in Python, not compiled (see their message)" if slow else ""))
        self.fill_table()
        self.redraw()
        if self.cluster is not None and self.cluster.workers != self.workers.value():
            self.prepare_cluster()  # the count was changed during the study

    # ------------------------------------------------------------------ results

    def fill_table(self) -> None:
        cols = header(self.study, self.rows)
        ranges = [path_range(self.doc.model, p.path) for p in self.study.parameters]
        for k, rng in enumerate(ranges):  # the parameters in the units they were typed in
            if rng is not None and rng.shown_unit:
                cols[1 + k] = f"{cols[1 + k]} [{rng.shown_unit}]"
        self.factors = self._shown_outputs(cols)
        self.table.clear()
        self.table.setColumnCount(len(cols))
        self.table.setRowCount(len(self.rows))
        self.table.setHorizontalHeaderLabels(cols)
        for k, r in enumerate(self.rows):
            shown = (rng.to_display(v) if rng is not None else v for v, rng in zip(r["values"], ranges))
            cells = [str(k), *(f"{v:.6g}" for v in shown),
                     *("" if math.isnan(v) else f"{v * f:.6g}" for v, f in zip(r["results"], self.factors)),
                     r["status"], r["message"]]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text if c == len(cells) - 1 else "")  # the whole message, which the column cuts
                self.table.setItem(k, c, item)
        self.table.resizeColumnsToContents()
        n_par = len(self.study.parameters)
        keep = self.y_choice.currentText()
        self.y_choice.blockSignals(True)
        self.y_choice.clear()
        self.y_choice.addItems(cols[1 + n_par:-2])
        self.y_choice.setCurrentIndex(max(0, self.y_choice.findText(keep)))
        self.y_choice.blockSignals(False)

    def _shown_outputs(self, cols: list[str]) -> list[float]:
        """The result columns of `cols` named in the units the app shows (rpm, deg, N/µm, as Telemetry does),
        rewritten in place; each one's factor from SI (the exported CSV stays SI)."""
        names = output_columns(self.study)
        units = next((r["units"] for r in self.rows if r["status"] not in ("failed", "cancelled")), [""] * len(names))
        factors = [1.0] * len(names)
        for j, (name, unit) in enumerate(zip(names, units)):
            if unit in PEOPLE and "[" not in name:
                shown, factors[j] = PEOPLE[unit]
                cols[1 + len(self.study.parameters) + j] = f"{name} [{shown}]"
        return factors

    def redraw(self) -> None:
        """The chosen result against the first parameter, one line per value of the second."""
        self.plot.clear()
        self.legend.clear()
        if not self.rows or self.y_choice.currentIndex() < 0:
            self.plot.setTitle(EMPTY_TITLE, color="#777")
            self.plot.setLabel("bottom", "")
            self.plot.setLabel("left", "")
            return
        self.plot.setTitle(None)
        j = self.y_choice.currentIndex()
        first = self.table.horizontalHeaderItem(1).text()
        ranges = [path_range(self.doc.model, p.path) for p in self.study.parameters]
        values = np.array([[rng.to_display(v) if rng is not None else v for v, rng in zip(r["values"], ranges)]
                           for r in self.rows], float)
        y = np.array([r["results"][j] for r in self.rows], float) * self.factors[j]
        if not np.isfinite(y).any():  # every case failed or stopped: nothing to draw, and the table says why
            self.plot.setTitle(f"no case gave {self.y_choice.currentText()}: see the table's messages", color="#777")
            return
        groups = sorted(set(values[:, 1])) if values.shape[1] > 1 else [None]
        for g, key in enumerate(groups):
            mask = np.ones(len(y), bool) if key is None else values[:, 1] == key
            order = np.argsort(values[mask, 0])
            name = None if key is None else f"{self.table.horizontalHeaderItem(2).text()} = {key:g}"
            self.plot.addItem(Line(values[mask, 0][order], y[mask][order], pen=pg.mkPen(COLOURS[g % len(COLOURS)],
                                                                                      width=2),
                                   symbol="o", symbolSize=6, symbolBrush=COLOURS[g % len(COLOURS)], name=name))
        self.plot.setLabel("bottom", first)
        self.plot.setLabel("left", self.y_choice.currentText())

    def export(self, path) -> None:
        write_results(path, self.study, self.rows)

    def save_study(self, path) -> None:
        """The study file at `path`; its base names the model file as seen from the study file's folder, so
        `geardyn study` finds it wherever the two are."""
        data = self.study_dict()
        if self.doc.path is not None:
            data["base"] = Path(os.path.relpath(Path(self.doc.path).resolve(), Path(path).resolve().parent)).as_posix()
        atomic_write_text(path, json.dumps(data, indent=2) + "\n")

    def export_dialog(self) -> None:
        if not self.rows:
            self.message.setText("Export CSV: run the study first")
            return
        beside = self.doc.suggested_path(".csv", "study")
        suggestion = beside.with_name(f"{beside.stem}_study.csv") if self.doc.path else beside
        path, _ = QFileDialog.getSaveFileName(self, "Export study results", str(suggestion), "CSV files (*.csv)")
        if path:
            self.export(path)
            self.statusBar().showMessage(f"Wrote {path}", 8000)

    def save_study_dialog(self) -> None:
        try:
            self.study_dict()
        except ModelError as exc:
            self.message.setText(str(exc))
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save study file", str(self.doc.suggested_path(".json", "study")),
                                              "Study files (*.json)")
        if path:
            self.save_study(path)
            self.statusBar().showMessage(f"Wrote {path}: run it with geardyn study {Path(path).name} --out results.csv",
                                         10000)

    def closeEvent(self, event) -> None:
        self.pending = None
        self.background.stop()
        # a cluster still starting cannot be interrupted (seconds): its worker closes it once it is up, and the
        # window closes now
        self.starter.cancel()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
        super().closeEvent(event)

    def end(self) -> None:
        """Wait for a cluster still starting to be up and closed: the app quits, and a thread may not outlive it."""
        self.starter.stop()


def _buttons(*entries) -> QHBoxLayout:
    """A row of push buttons, each (text, slot, object name)."""
    row = QHBoxLayout()
    for text, slot, name in entries:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(slot)
        row.addWidget(button)
    return row
