"""The File menu of the main window: New, Open, Save, Save As, recent files, files dropped on the window, the
autosave and the recovery after a crash (a mixin of app.main_window.MainWindow, which holds the document, the
runner and the settings)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.document import EXAMPLES
from core.dynamics.results import SUFFIX as RESULTS_SUFFIX
from core.errors import ModelError
from core.geometry.mesh_import import SUFFIXES as MESH_SUFFIXES
from core.model.files import SUFFIX, save

AUTOSAVE_MS = 60_000
MAX_RECENT = 8


def recovery_path() -> Path:
    base = Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or Path.home() / ".geardyn")
    base.mkdir(parents=True, exist_ok=True)
    return base / "autosave.gdyn"


class FileMenu:
    """File > New, Open, Save, Save As and Open Recent, files dropped on the window; the autosave and the recovery
    it offers."""

    def dropped_file(self, event) -> Path | None:
        """The first local file of a drag that the window opens: a model, a results file or a mesh to import."""
        kinds = {SUFFIX, RESULTS_SUFFIX, *MESH_SUFFIXES}
        for url in event.mimeData().urls() if event.mimeData().hasUrls() else []:
            path = Path(url.toLocalFile())
            if url.isLocalFile() and path.suffix.lower() in kinds:
                return path
        return None

    def dragEnterEvent(self, event) -> None:
        if self.dropped_file(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        """Open a model (asking to save the one open), play a results file, or import a mesh (its dialog on the
        file), after the drop is done: the dialogs they open must not hold the drag's source waiting."""
        path = self.dropped_file(event)
        if path is None:
            return
        event.acceptProposedAction()
        suffix = path.suffix.lower()
        act = (lambda: self.open_file(path)) if suffix == SUFFIX else \
            (lambda: self.open_results_file(path)) if suffix == RESULTS_SUFFIX else (lambda: self.import_mesh(path))
        QTimer.singleShot(0, act)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current model (saved, discarded or nothing to lose)."""
        if not self.doc.dirty:
            return True
        answer = QMessageBox.question(self, "Unsaved changes", "The model has unsaved changes. Save them?",
                                      QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
        if answer == QMessageBox.Save:
            return self.file_save()
        return answer == QMessageBox.Discard

    def file_new(self) -> None:
        if self.maybe_save():
            self._stop_run()
            self.doc.new()

    def _stop_run(self) -> None:
        """A run of the model being closed ends with it (its results go with the model's runs)."""
        if self.runner.running:
            self.runner.stop()
            self.runner.wait()

    def file_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open model", str(self._open_folder()),
                                              f"GearDyn models (*{SUFFIX})")
        if path:
            self.open_file(path, ask=False)

    def _open_folder(self) -> Path:
        """Where File > Open starts: the open model's folder, else that of the last model opened, else the
        examples (a first start)."""
        if self.doc.path is not None:
            return Path(self.doc.path).parent
        folders = [Path(p).parent for p in self.settings.value("recent") or [] if Path(p).parent.is_dir()]
        return folders[0] if folders else EXAMPLES

    def open_file(self, path, ask: bool = True) -> bool:
        """Load a model file; on failure say why and keep the current model."""
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path)
        except ModelError as exc:
            self.report(f"Cannot open the model: {exc}", exc.report()[1:])  # every bad field of the file
            return False
        self._stop_run()  # the run of the model before: its record left with that model's runs
        self._remember(Path(path))
        return True

    def file_save(self) -> bool:
        if self.doc.path is None or Path(self.doc.path).resolve().parent == EXAMPLES:  # an example is a template
            return self.file_save_as()
        return self._save_to(self.doc.path)

    def file_save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save model as", str(self.doc.suggested_path(SUFFIX, "model")),
                                              f"GearDyn models (*{SUFFIX})")
        if not path:
            return False
        if not path.endswith(SUFFIX):
            path += SUFFIX
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except (ModelError, OSError) as exc:
            self.report(f"Cannot save: {exc}")
            return False
        self._remember(path)
        recovery_path().unlink(missing_ok=True)  # nothing unsaved is left to recover
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _remember(self, path: Path) -> None:
        recent = [p for p in (self.settings.value("recent") or []) if p != str(path)]
        self.settings.setValue("recent", [str(path), *recent][:MAX_RECENT])
        self._update_recent()

    def _update_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.value("recent") or []:
            self.recent_menu.addAction(self.action(Path(p).name, lambda _=False, q=p: self.open_file(q), tip=p,
                                                    name=f"recent_{Path(p).stem}"))

    def write_autosave(self) -> None:
        if self.doc.dirty:
            try:
                save(self.doc.model, recovery_path())
            except (ModelError, OSError):
                pass  # an autosave must never interrupt the user; the next tick tries again

    def offer_recovery(self) -> bool:
        """After a crash an autosave is left behind: offer to restore it. True when the model was restored (the
        caller then opens no other model over it)."""
        path = recovery_path()
        if not path.exists():
            return False
        answer = QMessageBox.question(self, "Recover", "GearDyn did not close cleanly. Restore the autosaved model?")
        if answer != QMessageBox.Yes:
            path.unlink(missing_ok=True)
            return False
        try:
            self.doc.recover(path)
        except ModelError as exc:
            kept = path.with_name("autosave.unreadable.gdyn")
            path.replace(kept)  # out of the way of the next autosave, and not offered at every start
            self.report(f"Cannot restore the autosaved model: {exc}. The file is kept as {kept}")
            return False
        # the file stays until the model is saved or the window closes: a second crash finds it again
        self.statusBar().showMessage("Restored the autosaved model: save it with File > Save As", 10_000)
        return True
