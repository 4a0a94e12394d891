"""The one adapter between core.commands and Qt's undo stack."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand


class CommandAdapter(QUndoCommand):
    """Wraps a core command; the document is told after every do and undo."""

    def __init__(self, document, command):
        super().__init__(command.text)
        self.document, self.command = document, command

    def redo(self) -> None:
        self.command.do(self.document.model)
        self.document.model_changed()

    def undo(self) -> None:
        self.command.undo(self.document.model)
        self.document.model_changed()
