"""The undo history dock (Edit > Undo History, also under View): every edit of the model as the undo stack holds
it; a click on an entry takes the model back, or forward, to just after it (Qt's QUndoView over the document's
stack)."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDockWidget, QUndoView


class HistoryDock(QDockWidget):
    """The edits of `stack`, oldest first, the model as opened or made at the top; hidden until asked for."""

    def __init__(self, stack: QUndoStack, parent=None):
        super().__init__("Undo History", parent)
        self.setObjectName("history_dock")
        self.view = QUndoView(stack)
        self.view.setObjectName("history")
        self.view.setEmptyLabel("The model as opened")
        self.setWidget(self.view)
        self.toggleViewAction().setText("Undo &History")
