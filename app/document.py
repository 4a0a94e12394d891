"""The open model, its file, and its undo stack."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.undo import CommandAdapter
from core.model.files import load, save
from core.model.model import Model, ModelError
from core.model.validation import validate


class Document(QObject):
    """Edits go through `apply(command)`: a core command is checked, done and put on the undo stack."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = Model()
        self.path: Path | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda _: self.changed.emit())
        self.findings = []

    def apply(self, command) -> None:
        """Do `command`; a ModelError propagates and the model stays as it was."""
        trial = self.model.copy()
        command.do(trial)  # raises before anything visible changes
        command.undo(trial)
        self.undo_stack.push(CommandAdapter(self, command))

    def model_changed(self) -> None:
        self.findings = validate(self.model)
        self.changed.emit()

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def new(self) -> None:
        self.model, self.path = Model(), None
        self.undo_stack.clear()
        self.model_changed()

    def open(self, path) -> None:
        """Load a file; on failure raise ModelError and keep the current model."""
        model = load(path)
        self.model, self.path = model, Path(path)
        self.undo_stack.clear()
        self.model_changed()

    def save(self, path=None) -> None:
        target = Path(path) if path else self.path
        if target is None:
            raise ModelError("file: choose a file name first (Save As)")
        save(self.model, target)
        self.path = target
        self.undo_stack.setClean()
        self.changed.emit()
