"""The open model, its file, its undo stack, and the runs made from it.

Views listen to signals that say what changed, so each updates only that:

- ``items_changed(ModelChange)``: items added, removed or replaced by an edit,
  settings changed, or the whole model replaced (new, open);
- ``changed()``: something about the document (title, dirty flag, findings);
- ``runs_changed()``: a run was added or the current run changed;
- ``run_updated(RunRecord)``: a run got samples or ended;
- ``stale_changed()``: the model now differs (or no longer differs) from the
  one the current run started from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal
from PySide6.QtGui import QUndoStack

from app.undo import CommandAdapter
from core.commands import SetModelInfo
from core.dynamics.results import Results, open_results
from core.model.files import load, model_from_dict, save
from core.errors import ModelError
from core.model.model import COLLECTIONS, Model
from core.dynamics.checks import check

#: the bundled example models: templates in the program's folder, where nothing the user makes is written
EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def documents_folder() -> Path:
    """The user's documents folder (the home folder where there is none)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    return Path(folder) if folder and Path(folder).is_dir() else Path.home()


@dataclass
class ModelChange:
    """What an edit changed: item names added, removed, replaced (old name -> new name); settings; everything."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    replaced: dict[str, str] = field(default_factory=dict)
    settings: bool = False
    info: bool = False  # the model's name or description
    reset: bool = False

    def touched(self) -> set[str]:
        return set(self.added) | set(self.removed) | set(self.replaced) | set(self.replaced.values())

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.replaced or self.settings or self.info or self.reset)


def _identities(model: Model) -> dict[str, int]:
    return {item.name: id(item) for _, item in model.items()}


@dataclass
class RunRecord:
    """A run of the document: its results (grown on the GUI thread) and the model it started from."""

    label: str
    model: Model
    results: Results | None = None
    started: datetime = field(default_factory=datetime.now)
    base_dir: Path | None = None
    seconds: float | None = None  # wall time from the Run click to its end [s] (None: opened from a file)

    @property
    def status(self) -> str:
        return self.results.status if self.results is not None else "starting"

    @property
    def ended(self) -> bool:
        """Whether the run has ended (finished, failed or stopped): not starting or running."""
        return self.status not in ("starting", "running")


class Document(QObject):
    """Edits go through `apply(command)`: a core command is checked, done and put on the undo stack."""

    changed = Signal()
    items_changed = Signal(object)
    runs_changed = Signal()
    run_updated = Signal(object)
    stale_changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = Model()
        self.path: Path | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.findings = []
        self.runs: list[RunRecord] = []
        self.current: RunRecord | None = None
        self._numbered = 0  # the number of the last run: a number is not given twice, runs forgotten or not
        self._ids = _identities(self.model)
        self._settings = self.model.settings
        self._info = (self.model.name, self.model.description)
        self._order: dict[str, list[str]] = {}
        self._stale = False

    def _clean_changed(self, _clean: bool) -> None:
        self.changed.emit()

    # ------------------------------------------------------------------ edits

    def apply(self, command) -> None:
        """Do `command`; a ModelError propagates and the model stays as it was."""
        trial = self.model.copy()
        command.do(trial)  # raises before anything visible changes
        command.undo(trial)
        self.undo_stack.push(CommandAdapter(self, command))

    def model_changed(self) -> None:
        """Called after every do and undo: work out what changed and tell the views."""
        ids = _identities(self.model)
        change = ModelChange(settings=self.model.settings is not self._settings,
                             info=(self.model.name, self.model.description) != self._info)
        old_by_id = {v: k for k, v in self._ids.items()}
        for name, ident in ids.items():
            if name not in self._ids:
                if ident in old_by_id:  # the same object under a new name cannot happen: entities are frozen
                    change.replaced[old_by_id[ident]] = name
                else:
                    change.added.append(name)
            elif self._ids[name] != ident:
                change.replaced[name] = name
        for name in self._ids:
            if name not in ids:
                change.removed.append(name)
        # a rename shows as one removal and one addition of the same kind; report it as a replacement
        for old in list(change.removed):
            for new in list(change.added):
                if self._same_place(old, new):
                    change.removed.remove(old)
                    change.added.remove(new)
                    change.replaced[old] = new
                    break
        self._ids, self._settings, self._info = ids, self.model.settings, (self.model.name, self.model.description)
        self._after_change(change)

    def _same_place(self, old: str, new: str) -> bool:
        """Whether `new` took the place of the removed `old` (a rename keeps the item's place in its collection)."""
        for coll in COLLECTIONS:
            names = list(self.model.collection(coll))
            if new in names and old in self._order.get(coll, []):
                return names.index(new) == self._order[coll].index(old)
        return False

    def _after_change(self, change: ModelChange) -> None:
        self._order = {c: list(self.model.collection(c)) for c in COLLECTIONS}
        self.findings = check(self.model)
        self.items_changed.emit(change)
        self.changed.emit()
        self.refresh_stale()

    def _reset(self) -> None:
        self._ids, self._settings = _identities(self.model), self.model.settings
        self._info = (self.model.name, self.model.description)
        self._after_change(ModelChange(reset=True))

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def base_dir(self) -> Path | None:
        return self.path.parent if self.path else None

    def suggested_path(self, suffix: str, stem: str) -> Path:
        """Where a file made from this model goes unless the user says otherwise: beside the model file with its
        name, else `stem` in the user's documents folder (never the folder the program was started from, nor the
        program's own examples folder: an example's files are named after it in the documents folder). A new model
        the user has named gives its files its name, in characters every file system takes."""
        if self.path is not None:
            stem = self.path.stem
        elif self.model.name != Model().name:
            stem = re.sub(r"[^\w.-]+", "_", self.model.name).strip("._") or stem
        return self.own_folder() / f"{stem}{suffix}"

    def own_folder(self) -> Path:
        """Where the user's own files for this model go and are looked for (a part to import, a table, results):
        the model's folder, or the documents folder for a new model or an example."""
        if self.path is not None and self.path.resolve().parent != EXAMPLES:
            return self.path.parent
        return documents_folder()

    def new(self) -> None:
        """An empty model; the runs of the model before go with it (its results files keep them)."""
        self._drop_runs()
        self.model, self.path = Model(), None
        self.undo_stack.clear()
        self._reset()

    def open(self, path) -> None:
        """Load a file, the runs of the model before dropped; on failure raise ModelError and keep the current
        model and its runs."""
        model = load(path)
        self._drop_runs()
        self.model, self.path = model, Path(path)
        self.undo_stack.clear()
        self._reset()

    def recover(self, path) -> None:
        """Load an autosave as an unsaved model (no file of its own, dirty: closing asks to save it); on failure
        raise ModelError and keep the current model."""
        self.open(path)
        self.path = None
        self.undo_stack.resetClean()
        self.changed.emit()

    def _drop_runs(self) -> None:
        """Results belong to their model: a new or opened model starts without runs."""
        self._numbered = 0
        if self.runs:
            self.runs, self.current = [], None
            self.runs_changed.emit()
            self.refresh_stale()

    def save(self, path=None) -> None:
        target = Path(path) if path else self.path
        if target is None:
            raise ModelError("file: choose a file name first (Save As)")
        rename = None
        if self.model.name == Model.name and target.stem.strip():  # a new model takes the name of its file
            rename = SetModelInfo(self.model, target.stem, self.model.description)
        named = self.model
        if rename is not None:
            named = self.model.copy()
            rename.do(named)
        save(named, target)  # written first: a file that cannot be written renames nothing
        if rename is not None:
            self.apply(rename)
        self.path = target
        self.undo_stack.setClean()
        self.changed.emit()

    # ------------------------------------------------------------------ runs

    def add_run(self, model: Model, results: Results | None = None, path=None) -> RunRecord:
        """A new run record of `model` (the frozen copy the run started from; the results read from `path`, named
        after it); it becomes the current run."""
        if path is None:
            self._numbered += 1
            record = RunRecord(f"Run {self._numbered}", model, results, base_dir=self.base_dir)
        else:
            record = RunRecord(Path(path).name, model, results, base_dir=Path(path).parent)
        self.runs.append(record)
        self.current = record
        self.runs_changed.emit()
        self.refresh_stale()
        return record

    def take_back_run(self, record: RunRecord) -> None:
        """Remove `record`, the newest run, refused before it started (its number is given again); the run before
        it becomes the current run."""
        self.runs.remove(record)
        if record.label == f"Run {self._numbered}":
            self._numbered -= 1
        self.current = self.runs[-1] if self.runs else None
        self.runs_changed.emit()
        self.refresh_stale()

    def forget_runs(self, keep: RunRecord) -> list[RunRecord]:
        """Drop every run but `keep`, which becomes the current run: their results leave memory (the next run's
        number follows the last one given). The runs forgotten."""
        gone = [r for r in self.runs if r is not keep]
        if gone:
            self.runs, self.current = [keep], keep
            self.runs_changed.emit()
            self.refresh_stale()
        return gone

    def show_run(self, record: RunRecord) -> None:
        """Make `record`, one of the runs, the current run: the animation, Telemetry and the stale mark follow."""
        self.current = record
        self.runs_changed.emit()
        self.refresh_stale()

    @staticmethod
    def read_results(path) -> tuple[Results, Model]:
        """The results in a results file and the model snapshot they were run from; raises ModelError when the
        file or its model cannot be read."""
        results = open_results(path)
        if results.model is None:
            raise ModelError(f"{Path(path).name}: holds no model snapshot")
        return results, model_from_dict(results.model)

    def add_results(self, path, results: Results, snapshot: Model, take_model: bool = False) -> RunRecord:
        """The results read from `path` (`read_results`) as a run. The snapshot becomes the document's model (the
        runs of the model before dropped) when `take_model`, or when the document is empty and unchanged."""
        if take_model or (self.model.is_empty() and not self.dirty):
            self._drop_runs()
            self.model, self.path = snapshot.copy(), None
            self.undo_stack.clear()
            self._reset()
        record = self.add_run(snapshot, results, path)
        self.run_updated.emit(record)
        return record

    @property
    def stale(self) -> bool:
        """Whether the current run was made from a version of the model that simulates differently (a
        changed telemetry layout or model name leaves its results current)."""
        return self.current is not None and not self.current.model.simulates_like(self.model)

    def refresh_stale(self) -> None:
        stale = self.stale
        if stale != self._stale:
            self._stale = stale
            self.stale_changed.emit()
