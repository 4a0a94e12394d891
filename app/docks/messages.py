"""Messages dock: validation findings of the model, live; clicking one selects its item."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget, QListWidget, QListWidgetItem

COLOURS = {"error": "#b00020", "warning": "#9a6700", "info": "#1f5fa8"}


class MessagesDock(QDockWidget):
    picked = Signal(str)

    def __init__(self, parent=None):
        super().__init__("Messages", parent)
        self.setObjectName("messages_dock")
        self.list = QListWidget()
        self.list.setObjectName("messages")
        self.setWidget(self.list)
        self.list.itemClicked.connect(lambda it: self.picked.emit(it.data(Qt.UserRole)))

    def show_findings(self, findings, notes=()) -> None:
        self.list.clear()
        for f in findings:
            it = QListWidgetItem(str(f))
            it.setData(Qt.UserRole, f.item)
            it.setForeground(QColor(COLOURS.get(f.severity, "black")))
            self.list.addItem(it)
        for note in notes:
            self.list.addItem(QListWidgetItem(note))
        self.setWindowTitle(f"Messages: {len(findings)} finding(s)")
