"""Runs in the main window: Simulate > Run and Stop with the progress and the plan in the status bar, the run's
notes, Show Run (an earlier run again); results files (open, save) and the video export (a mixin of
app.main_window.MainWindow)."""

from __future__ import annotations

import weakref
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.dialogs.video_dialog import VideoDialog
from app.run.video import export_animation
from core.analysis.tooth_passing import fastest_teeth
from core.dynamics.plan import plan_line
from core.dynamics.results import SUFFIX as RESULTS_SUFFIX
from core.dynamics.results import save_results
from core.errors import ModelError
from core.gearing.fixes import FIXES
from core.model.differences import differences, in_short


def megabytes(records) -> str:
    """The memory the results of `records` take, in MB."""
    total = sum(r.results.nbytes for r in records if r.results is not None)
    return f"{total / 1e6:.3g} MB"


class RunMenu:
    """Run and Stop, the run's progress, plan and notes; Open and Save Results; Export Video."""

    def run_simulation(self) -> None:
        if self.runner.running:
            return
        errors = [f for f in self.doc.findings if f.severity == "error"]
        if errors:
            first = f"{errors[0].item}: {errors[0].message}"
            self.report(f"Cannot run: {first}" if len(errors) == 1 else
                        f"Cannot run: the model has {len(errors)} errors (listed in Messages); the first: {first}")
            return
        if not self.doc.model.bodies:
            self.report("Cannot run: the model has no bodies")
            return
        unstable = next((f for f in self.doc.findings if f.fix == "adaptive_steps"), None)
        if unstable is not None and not self._run_despite(unstable):
            return
        self.runner.start()

    def _run_despite(self, finding) -> bool:
        """Whether to run when the model check finds the step unstable (the finding): its fix's button ('Integrate
        with dop853') applies the fix (one undo step) and runs, 'Run anyway' runs as it is, Cancel does not run."""
        fix = FIXES[finding.fix][0]  # "Integrate with dop853 (adaptive steps)"
        box = QMessageBox(QMessageBox.Warning, "Run", f"{finding.message}.\n\nThe run would diverge. {fix} and run?",
                          QMessageBox.Yes | QMessageBox.Ignore | QMessageBox.Cancel, self)
        box.button(QMessageBox.Yes).setText(fix.split(" (")[0])
        box.button(QMessageBox.Ignore).setText("Run anyway")
        box.setDefaultButton(QMessageBox.Yes)
        answer = box.exec()
        if answer == QMessageBox.Yes:
            self.apply_fix(finding)
        return answer in (QMessageBox.Yes, QMessageBox.Ignore)

    def stop_simulation(self) -> None:
        self.runner.stop()

    def _run_started(self, record) -> None:
        self.act_run.setEnabled(False)
        self.act_stop.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setFormat(f"{record.label}: starting")
        self.progress.show()
        self.run_notes = []

    def _runs_changed(self) -> None:
        """Messages hold the notes of the run shown: a run that has ended shown again (Show Run, here or in
        Telemetry; a results file opened) brings its notes; a new or opened model drops the runs and theirs."""
        record = self.doc.current
        if record is None:
            if self.run_notes:
                self.run_notes = []
                self.refresh()
        elif record.ended:
            self._note_run(record)

    def _run_prepared(self, record) -> None:
        """The run's evaluation plan where the user looks while it runs (and in its notes when it ends)."""
        self.statusBar().showMessage(f"{record.label}: {plan_line(record.results.settings)}")

    def _run_progress(self, fraction: float, t: float, left: float) -> None:
        self.progress.setValue(round(1000 * fraction))
        end = self.runner.record.model.settings.t_end if self.runner.record else 0.0
        left_text = f", {left:.0f} s left" if left == left and left < 1e6 else ""
        self.progress.setFormat(f"t = {t:.4g} s of {end:.4g} s  {100 * fraction:.0f} %{left_text}")

    def _run_refused(self, message: str) -> None:
        """The worker could not start the run (the model as it stands cannot run): Run again, and why."""
        self.act_run.setEnabled(True)
        self.act_stop.setEnabled(False)
        self.progress.hide()
        self.report(f"Cannot run: {message}")

    def _run_finished(self, record) -> None:
        self.act_run.setEnabled(True)
        self.act_stop.setEnabled(False)
        self.progress.hide()
        self._note_run(record)
        self.statusBar().showMessage(f"{record.label}: {record.results.summary()}", 15_000)

    def _note_run(self, record) -> None:
        """A run's notes in Messages (its plan, what changed since the run before it, findings, first events and
        summary): for a run that ended, and for one opened from a results file."""
        res = record.results
        plan = plan_line(res.settings)
        self.run_notes = [f"{record.label}: plan: {plan}"] if plan else []
        place = self.doc.runs.index(record) if record in self.doc.runs else 0
        before = self.doc.runs[place - 1] if place > 0 else None
        changes = differences(before.model, record.model) if before is not None else []
        if changes:
            self.run_notes.append(f"{record.label}: changed since {before.label}: {in_short(changes, 5)}")
        self.run_notes += [f"{record.label}: {note}" for note in res.findings]
        shown = 20  # mode changes of lossy gears, the first ones
        self.run_notes += [f"{record.label}: t = {t:.6g} s, {name}: {detail}" for t, name, detail in res.events[:shown]]
        if len(res.events) > shown:
            self.run_notes.append(f"{record.label}: ... and {len(res.events) - shown} more events (in the results file)")
        cost = ""
        if res.steps:  # an opened run's file keeps its steps and evaluations, not the wall time they took
            cost = f"; {res.steps:,} steps, {res.evaluations:,} evaluations"
            if record.seconds is not None:
                cost += f" in {record.seconds:.3g} s"
        self.run_notes.append(f"{record.label}: {res.summary()}{cost}")
        self.refresh()

    def fill_runs_menu(self) -> None:
        """Simulate > Show Run: every run of the model with its summary and the memory it takes, the one shown
        checked (none to choose while a run is running: its chunks go to the run shown); then Forget the Other
        Runs."""
        menu = self.runs_menu
        menu.clear()
        if not self.doc.runs:
            menu.addAction("No runs yet (F5 runs the model)").setEnabled(False)
            return
        for record in self.doc.runs:
            what = f"{record.results.summary()} ({megabytes([record])})" if record.results is not None else "starting"
            earlier = "" if record.model.simulates_like(self.doc.model) else " (an earlier version of the model)"
            act = menu.addAction(f"{record.label}{earlier}: {what}")
            act.setCheckable(True)
            act.setChecked(record is self.doc.current)
            act.setEnabled(not self.runner.running)
            # a weak reference: the menu's actions stay until it opens again, and must not keep a run forgotten
            act.triggered.connect(lambda _=False, r=weakref.ref(record): self.show_run(r()))
        others = [r for r in self.doc.runs if r is not self.doc.current]
        if others:
            menu.addSeparator()
            act = menu.addAction(f"Forget the Other Runs ({megabytes(others)})...")
            act.setObjectName("forget_runs")
            act.setEnabled(not self.runner.running)
            act.triggered.connect(self.forget_other_runs)

    def forget_other_runs(self) -> None:
        """Drop every run but the one shown, once the user agrees: their results leave memory."""
        others = [r for r in self.doc.runs if r is not self.doc.current]
        if self.runner.running or not others:
            return
        names, size = ", ".join(r.label for r in others), megabytes(others)
        box = QMessageBox(QMessageBox.Question, "Forget Runs",
                          f"Forget {names} ({size})? Their results leave memory; "
                          f"{self.doc.current.label}, the run shown, stays. To keep a run in a file, show it and use "
                          "File > Save Results As first.", QMessageBox.Discard | QMessageBox.Cancel, self)
        box.button(QMessageBox.Discard).setText("Forget")
        box.setDefaultButton(QMessageBox.Cancel)
        if box.exec() != QMessageBox.Discard:
            return
        gone = self.doc.forget_runs(self.doc.current)
        self.statusBar().showMessage(f"Forgot {len(gone)} run{'s' if len(gone) > 1 else ''}: {size}", 10_000)

    def show_run(self, record) -> None:
        """Show an earlier run (or a later one again): its animation, Telemetry and notes."""
        if self.runner.running or record is None or record is self.doc.current:
            return
        self.doc.show_run(record)
        earlier = " (an earlier version of the model)" if self.doc.stale else ""
        self.statusBar().showMessage(f"Showing {record.label}{earlier}: {record.results.summary()}", 10_000)

    def export_video(self) -> None:
        res = self.animator.results
        if res is None or len(res) < 2:
            self.report("Export Video: run the model first")
            return
        model = self.doc.current.model if self.doc.current is not None else self.doc.model  # the run's own
        dlg = VideoDialog(self.doc.suggested_path(".mp4", "animation"), (float(res.time[0]), float(res.time[-1])),
                          self, fastest_teeth(model, res))
        if dlg.exec() and dlg.path is not None:
            try:
                ok = export_animation(self, self.animator, dlg.path, dlg.fps, dlg.speed)
            except (OSError, ValueError) as exc:
                self.report(f"Export Video: {exc}")
                return
            self.statusBar().showMessage(f"Wrote {dlg.path}" if ok else "Video export cancelled", 10_000)

    def open_results(self) -> None:
        # where Save Results As puts them (the examples folder holds none)
        path, _ = QFileDialog.getOpenFileName(self, "Open results", str(self.doc.own_folder()),
                                              f"GearDyn results (*{RESULTS_SUFFIX})")
        if path:
            self.open_results_file(path)

    def open_results_file(self, path) -> bool:
        try:
            results, snapshot = self.doc.read_results(path)
        except ModelError as exc:
            self.report(f"Cannot open the results: {exc}")
            return False
        other = not self.doc.model.is_empty() and not snapshot.draws_like(self.doc.model)
        if other:  # drawn on the open model's bodies, its poses would move other shapes
            answer = QMessageBox.question(
                self, "Open Results",
                f"{Path(path).name} holds the results of model {snapshot.name!r}, whose bodies are not those of the "
                f"open model {self.doc.model.name!r}. Open that model with its results (the open model closes)?",
                QMessageBox.Open | QMessageBox.Cancel)
            if answer != QMessageBox.Open or not self.maybe_save():
                return False
            self._stop_run()
        self.doc.add_results(path, results, snapshot, take_model=other)
        self.statusBar().showMessage(f"Opened {Path(path).name}: {self.doc.current.results.summary()}", 10_000)
        return True

    def save_results(self) -> None:
        record = self.doc.current
        if record is None or record.results is None or self.runner.running:
            self.report("Save Results: no finished run to save")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save results as", str(self.doc.suggested_path(RESULTS_SUFFIX, "run")),
                                              f"GearDyn results (*{RESULTS_SUFFIX})")
        if not path:
            return
        if not path.endswith(RESULTS_SUFFIX):
            path += RESULTS_SUFFIX
        try:
            save_results(record.results, path)
        except OSError as exc:
            self.report(f"Cannot save the results: {exc}")
            return
        self.statusBar().showMessage(f"Saved {path}", 5000)
