"""Analysis > CHBM Study: the harmonic-balance forced response of a gear pair, from the GUI.

Left, the study: the pair (the paper's Table 1 pair or a pair of the current
model, with its derived lumped values shown read-only), torques, frequency
range, harmonics, the largest frequency step and the DTI sweep points. In the
middle the response curves (one colour per torque, stable solid, unstable
dashed, folds marked, DTI points as triangles); below, one period at the
clicked frequency. The study runs in a worker thread with progress and Stop
(the points so far are kept). The settings are kept with the model file,
unless they are the ones the window suggested (a run of those asks for no
save); results are recomputed, or exported as CSV.
"""

from __future__ import annotations

import dataclasses
import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSplitter,
)

from app.background import Background
from app.chbm.panels import WorkerRuns, message_label, note_label, row_label, side_dock, tool_bar
from app.chbm.curve_plot import QUANTITIES, CurvePlot
from app.chbm.period_plot import PeriodPlot
from app.chbm.study_worker import StudyWorker
from app.dialogs.fields import FieldError, QuantityField
from app.plot_image import save_plot_image
from app.plot_menu import plot_menus
from app.screen import fit_to_screen
from core.chbm import lumped_model as paper
from core.chbm.from_model import lumped_from_model, study_defaults
from core.chbm.lumped_model import paper_model
from core.chbm.study import CURVE_HEADER, curve_rows, period_comparison
from core.commands import SetViews
from core.errors import ModelError
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import mesh_levers
from core.geometry.macro import pair_geometry
from core.model.entities import CompliantMesh
from core.model.views import CURVE_TORQUE, DTI_POINTS_MAX, MAX_TORQUES, PAPER_SOURCE, ChbmStudy
from core.ranges import Range
from core.tables import write_csv
from core.wording import counted

PAPER_LABEL = "Paper pair (Saletti et al. 2025, Table 1)"
HZ = Range(lo=0.0, hi=1e6, lo_open=True, unit="Hz")


class ChbmWindow(WorkerRuns, QMainWindow):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.setObjectName("chbm_window")
        self.setWindowTitle("CHBM Study")
        self.doc = doc
        self.results, self.results_source = [], PAPER_SOURCE  # the curves shown and the pair they are of
        self.background = Background(self)
        self.status = ""
        self.period = None  # (names, data, frequency) shown

        self.curve = CurvePlot()
        self.curve.point_clicked.connect(self.show_period)
        self.period_plot = PeriodPlot()
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.curve)
        split.addWidget(self.period_plot)
        split.setSizes([480, 320])
        self.setCentralWidget(split)
        self._build_form()
        self._build_toolbar()
        self.progress = QProgressBar()
        self.progress.setObjectName("chbm_progress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(320)
        self.statusBar().addPermanentWidget(self.progress)
        fit_to_screen(self, 1200, 800)
        plot_menus(self, doc.suggested_path)
        self.load_study()
        doc.items_changed.connect(self._model_changed)

    # ------------------------------------------------------------------ form

    def _build_form(self) -> None:
        form = QFormLayout()
        self.source = QComboBox()
        self.source.setObjectName("Source")
        self.source.currentIndexChanged.connect(self._source_changed)
        form.addRow("Gear pair", self.source)
        self.derived = note_label("derived")
        form.addRow(self.derived)
        self.torques = QLineEdit()
        self.torques.setObjectName("Torques")
        self.torques.setToolTip(f"Torques on gear 1 [N m], 1 to {MAX_TORQUES} numbers, each {CURVE_TORQUE.describe()}, "
                                "separated by spaces")
        form.addRow("Torques [N m]", self.torques)
        self.f_min = QuantityField("Lowest mesh frequency", HZ, 500.0)
        self.f_max = QuantityField("Highest mesh frequency", HZ, 4000.0)
        self.harmonics = QuantityField("Harmonics", Range(lo=1, hi=100, integer=True), 14)
        self.df_max = QuantityField("Largest frequency step", Range(lo=0.0, hi=1e6, unit="Hz"), 0.0,
                                    "Largest frequency step between curve points [Hz]; 0: 1 % of the range")
        self.dti_points = QuantityField("DTI sweep points", Range(lo=0, hi=DTI_POINTS_MAX, integer=True), 0,
                                        "Frequencies of the Newmark forward and backward sweeps; 0: none")
        for w in (self.f_min, self.f_max, self.harmonics, self.df_max, self.dti_points):
            form.addRow(row_label(w), w)
        self.quantity = QComboBox()
        self.quantity.setObjectName("Quantity")
        for key, (text, _) in QUANTITIES.items():
            self.quantity.addItem(text, key)
        self.quantity.currentIndexChanged.connect(lambda: self.curve.set_quantity(self.quantity.currentData()))
        form.addRow("Plot", self.quantity)
        self.dti_overlay = QCheckBox("DTI overlay in the period plot")
        self.dti_overlay.setObjectName("dti_overlay")
        form.addRow(self.dti_overlay)
        self.message = message_label("chbm_message")
        form.addRow(self.message)
        self.checked = note_label("chbm_check")  # how the DTI sweeps agree with the curves
        form.addRow(self.checked)
        side_dock(self, "Study", "chbm_study_dock", form)

    def _build_toolbar(self) -> None:
        bar, act = tool_bar(self, "CHBM", "chbm_toolbar")
        self.act_run = act("Run", self.run, "chbm_run", "Compute the response curves (in the background)")
        self.act_stop = act("Stop", self.stop, "chbm_stop", "Stop; the points computed so far are kept")
        self.act_stop.setEnabled(False)
        bar.addSeparator()
        act("Export Curve CSV", self.export_curve_dialog, "chbm_export_curve", "The curve points (as geardyn chbm --out)")
        act("Export Period CSV", self.export_period_dialog, "chbm_export_period", "The period shown below")
        act("Export Image", self.export_image_dialog, "chbm_export_image", "The curve plot as PNG or SVG")

    def pairs(self) -> list[str]:
        return list(self.doc.model.gear_pairs)

    def _unchosen(self) -> bool:
        """Whether the pair shown is nobody's choice: the model keeps no study of its own (the default one, the
        paper's) and the user has not picked a pair in this window."""
        return not self._picked and self.doc.model.views.chbm == ChbmStudy()

    def _first_pair(self) -> str:
        """The pair a model's user most likely built to study: the first with a compliant mesh (its dynamic
        transmission error is what the study computes), else the model's first pair (its mesh then ISO 6336's, as
        the note says), else the paper's."""
        meshed = {f.pair for f in self.doc.model.forces.values() if isinstance(f, CompliantMesh)}
        pairs = self.pairs()
        return next((n for n in pairs if n in meshed), pairs[0] if pairs else PAPER_SOURCE)

    def _fill_sources(self, keep: str) -> None:
        """The list of pairs: the paper's and the model's, `keep` chosen (the paper's when it is not listed)."""
        self.source.blockSignals(True)
        self.source.clear()
        self.source.addItem(PAPER_LABEL, PAPER_SOURCE)
        for name in self.pairs():
            self.source.addItem(f"Model pair {name!r}", name)
        self.source.setCurrentIndex(max(self.source.findData(keep), 0))
        self.source.blockSignals(False)
        self._pair_names = set(self.doc.model.gear_pairs)  # the pairs listed: a change of one refills

    def load_study(self, *_) -> None:
        """Fill the form from the study kept with the model."""
        s = self.doc.model.views.chbm
        self._picked = False
        self._fill_sources(self._first_pair() if self._unchosen() else s.source)
        self.torques.setText(" ".join(f"{t:g}" for t in s.torques))
        self.f_min.set_si(s.f_min)
        self.f_max.set_si(s.f_max)
        self.harmonics.set_si(s.harmonics)
        self.df_max.set_si(s.df_max)
        self.dti_points.set_si(s.dti_points)
        self._filled = self._entries()
        self._fill_for_source()
        self._note_suggestion()

    def _note_suggestion(self) -> None:
        """Note the study the form now shows when it is nobody's choice (`_unchosen`): a run of it changes nothing
        in the model, whose file opens on it again, so it asks for no save."""
        try:
            self._suggested = self.study() if self._unchosen() else None
        except FieldError:
            self._suggested = None

    def _model_changed(self, change) -> None:
        """A file opened: its study; a pair added, removed or edited: the list of pairs and their values."""
        if change.reset:
            self._drop_results()
            self.load_study()
            return
        touched = change.touched()
        meshes = {n for n in touched if isinstance(self.doc.model.forces.get(n), CompliantMesh)}
        if meshes or touched & (set(self.doc.model.gear_pairs) | self._pair_names):
            forces = self.doc.model.forces
            if self.results_source in touched or any(forces[n].pair == self.results_source for n in meshes):
                self._drop_results()  # the curves were of the pair as it was
            keep = self.source.currentData()
            if self._unchosen():  # a pair or a mesh built with the window open: the suggestion follows
                keep = self._first_pair()
            self._fill_sources(keep)
            self._fill_for_source()
            self._note_suggestion()

    def study(self) -> ChbmStudy:
        """The study as entered; raises FieldError naming the field and its range."""
        try:
            torques = tuple(float(t) for t in self.torques.text().replace(",", " ").split())
        except ValueError:
            raise FieldError(f"Torques: must be 1 to {MAX_TORQUES} numbers, each {CURVE_TORQUE.describe()}, got "
                             f"{self.torques.text()!r}") from None
        study = ChbmStudy(source=self.source.currentData() or PAPER_SOURCE, torques=torques,
                          f_min=self.f_min.value(), f_max=self.f_max.value(), harmonics=int(self.harmonics.value()),
                          df_max=self.df_max.value(), dti_points=int(self.dti_points.value()))
        names = {"torques": "Torques", "f_min": "Lowest mesh frequency", "harmonics": "Harmonics",
                 "df_max": "Largest frequency step", "dti_points": "DTI sweep points"}
        for field, msg in study.problems():
            raise FieldError(f"{names.get(field, field)}: {msg}")
        return study

    def builder(self, source: str):
        """A function torque -> LumpedModel for the source, on a private copy of the model."""
        if source == PAPER_SOURCE:
            return paper_model
        model = self.doc.model.copy()
        return lambda torque: lumped_from_model(model, source, torque)

    def _entries(self) -> tuple[str, str, str]:
        return self.torques.text(), self.f_min.edit.text(), self.f_max.edit.text()

    def show_pair(self, name: str) -> None:
        """Study the model's pair `name`, as if picked in the list."""
        self.source.setCurrentIndex(self.source.findData(name))

    def _source_changed(self, *_) -> None:
        """The user picked another pair: see `_fill_for_source`."""
        self._picked = True
        self._fill_for_source()

    def _fill_for_source(self) -> None:
        """The pair shown: its derived values, and torques and a range that suit it where the entries are still the
        ones filled in for the last pair (the paper's Table 1, or core.chbm.from_model.study_defaults of a model
        pair); entries the user changed stay."""
        source = self.source.currentData() or PAPER_SOURCE
        note = ""
        if self._entries() == self._filled:
            if source == PAPER_SOURCE:
                torques, f_min, f_max = ChbmStudy.torques, ChbmStudy.f_min, ChbmStudy.f_max
            else:
                try:
                    torques, f_min, f_max, note = study_defaults(self.doc.model, source)
                except ModelError as exc:
                    torques, f_min, f_max, note = None, self.f_min.value(), self.f_max.value(), str(exc)
            if torques is not None:
                self.torques.setText(" ".join(f"{t:g}" for t in torques))
            self.f_min.set_si(f_min)
            self.f_max.set_si(f_max)
            self._filled = self._entries()
        if self.show_derived() and note:  # a pair that cannot be built has said why once
            self.derived.setText(f"{self.derived.text()}; study: {note}")

    def show_derived(self, *_) -> bool:
        """The source's lumped values, read-only; False where the model's pair cannot be built (the text says why)."""
        source = self.source.currentData() or PAPER_SOURCE
        if source == PAPER_SOURCE:
            self.derived.setText(
                f"inertias {paper.PAPER_INERTIA:g} and {paper.PAPER_INERTIA:g} kg m^2; base radii "
                f"{paper.PAPER_BASE_RADIUS * 1e3:g} mm; contact ratio {paper.PAPER_CONTACT_RATIO:g}; contact "
                f"stiffness {paper.PAPER_CONTACT_STIFFNESS:.4g} N/m per tooth pair (Table 1, step-gap contact); "
                f"damping {paper.PAPER_DAMPING:g} N s/m")
            return True
        model = self.doc.model
        pair = model.gear_pairs.get(source)
        if pair is None:
            self.derived.setText("")
            return False
        try:
            lumped = lumped_from_model(model, source, 1.0)
        except ModelError as exc:
            self.derived.setText(f"cannot build the lumped pair: {exc}")
            return False
        geo = pair_geometry(pair.pair_spec())
        i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
        levers, named = mesh_levers(pair), "levers r_m cos(alpha)" if pair.kind == "bevel" else "base radii"
        self.derived.setText(
            f"inertias {i1:.4g} and {i2:.4g} kg m^2; {named} {levers[0] * 1e3:.4g} and {levers[1] * 1e3:.4g} mm; "
            f"contact ratio {geo.transverse_contact_ratio:.4g} (overlap "
            f"{geo.overlap_ratio:.3g}); equivalent mass {lumped.mass[0, 0]:.4g} kg; " + "; ".join(lumped.notes))
        return True

    # ------------------------------------------------------------------ running

    @property
    def running(self) -> bool:
        return self.background.running

    def run(self) -> None:
        if self.running:
            return
        try:
            study = self.study()
            build = self.builder(study.source)
            build(study.torques[0])  # refuse a pair that cannot be built before starting
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc))
            return
        self.message.setText("")
        kept = self.doc.model.views.chbm
        if study != kept and not (kept == ChbmStudy() and study == self._suggested):  # the user's own: kept
            self.doc.apply(SetViews(self.doc.model, dataclasses.replace(self.doc.model.views, chbm=study)))
        self.results, self.results_source = [], study.source
        self._show_results()
        self.progress.setValue(0)
        self.status = "running"
        worker = StudyWorker(build, study)
        worker.progress.connect(self._progress)
        worker.curve.connect(self._curve)
        worker.growing.connect(self._growing)
        worker.done.connect(self._done)
        self.start_worker(worker)

    def _drop_results(self) -> None:
        """Forget the curves and the period shown, and stop a study running: they were of the model (or pair)
        before."""
        self.supersede()
        self.results, self.period, self.status = [], None, ""
        self._show_results()
        self.curve.marker.setVisible(False)
        self.period_plot.empty()
        if not self.running:
            self.statusBar().clearMessage()
        self.progress.setValue(0)

    def _curve(self, result) -> None:
        if self.superseded:
            return
        self.results.append(result)
        self._show_results()

    def _show_results(self) -> None:
        """The curves finished, and how their DTI sweeps agree with them (core.chbm.study.dti_check)."""
        self.curve.set_results(self.results)
        self.checked.setText("\n".join(f"T = {r.torque:g} N m: {r.check}" for r in self.results if r.check))

    def _growing(self, result) -> None:
        """The curve being followed, drawn as it grows after the finished ones."""
        if not self.superseded and self.running:
            self.curve.set_results([*self.results, result])

    def _done(self, status: str, message: str) -> None:
        self.act_run.setEnabled(True)
        if self.end_superseded():
            self.status = ""
            return
        self.background.finish()
        self.status = status
        self.act_stop.setEnabled(False)
        points = sum(len(r.points) for r in self.results)
        text = {"finished": f"finished: {points} points for {counted(len(self.results), 'torque')}",
                "stopped": f"stopped: {points} points kept for {counted(len(self.results), 'torque')}",
                "failed": f"failed: {message}"}[status]
        if status == "finished":
            self.progress.setValue(1000)
        self.statusBar().showMessage(f"CHBM study {text}")
        if status == "failed":
            self.message.setText(message.splitlines()[0])

    def wait(self, timeout_ms: int = 600000) -> None:
        """Block (processing events) until the study has ended (for scripts and tests)."""
        end = time.monotonic() + timeout_ms / 1000
        while self.running and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.01)

    def closeEvent(self, event) -> None:
        self.background.stop()
        super().closeEvent(event)

    # ------------------------------------------------------------------ period

    def show_period(self, k: int, frequency: float) -> None:
        """One period at `frequency` for curve k: every HBM solution there, and DTI runs when asked."""
        if not 0 <= k < len(self.results):
            return
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            names, data = period_comparison(self.results[k], frequency, dti=self.dti_overlay.isChecked())
        finally:
            QApplication.restoreOverrideCursor()
        self.period = (names, data, frequency, self.results[k].torque)
        self.curve.show_marker(frequency)
        self.period_plot.show_period(names, data, frequency, k)

    # ------------------------------------------------------------------ export

    def export_curve(self, path) -> None:
        write_csv(path, CURVE_HEADER, curve_rows(self.results))

    def export_period(self, path) -> None:
        names, data, _, _ = self.period
        write_csv(path, names, (tuple(float(v) for v in row) for row in data))

    def save_image(self, path) -> None:
        """The curve plot as PNG (pixels) or SVG (vector paths)."""
        save_plot_image(path, [self.curve], self.curve, "GearDyn CHBM forced response")

    def _ask(self, title: str, default: str, filters: str):
        path, _ = QFileDialog.getSaveFileName(self, title, default, filters)
        return path or None

    def export_curve_dialog(self) -> None:
        if not self.results:
            self.message.setText("Export Curve CSV: run a study first")
            return
        path = self._ask("Export curve CSV", "chbm_curve.csv", "CSV files (*.csv)")
        if path:
            self._write(self.export_curve, path)

    def export_period_dialog(self) -> None:
        if self.period is None:
            self.message.setText("Export Period CSV: click a point of a curve first")
            return
        path = self._ask("Export period CSV", f"chbm_period_{self.period[2]:.0f}Hz.csv", "CSV files (*.csv)")
        if path:
            self._write(self.export_period, path)

    def export_image_dialog(self) -> None:
        path = self._ask("Export image", "chbm_curve.png", "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self._write(self.save_image, path)

    def _write(self, writer, path) -> None:
        try:
            writer(path)
        except OSError as exc:
            QMessageBox.warning(self, "Export", f"Cannot write {path}: {exc}")
            return
        self.statusBar().showMessage(f"Wrote {path}", 8000)
