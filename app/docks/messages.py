"""Messages dock: validation findings of the model, live; clicking one selects its item."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget, QListView, QListWidget, QListWidgetItem

from core.gearing.fixes import FIXES
from core.wording import counted

COLOURS = {"error": "#b00020", "warning": "#9a6700", "info": "#1f5fa8"}


class MessagesDock(QDockWidget):
    """Findings, errors first; a finding with a one-click fix says so and is fixed by a double-click."""

    picked = Signal(str)
    fix_requested = Signal(object)
    settings_requested = Signal(str)  # a finding on a simulation setting: the field's name

    def __init__(self, parent=None):
        super().__init__("Messages", parent)
        self.setObjectName("messages_dock")
        self.list = QListWidget()
        self.list.setObjectName("messages")
        self.list.setWordWrap(True)  # a long finding in lines, not cut at the dock's edge behind a scroll bar
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListView.Adjust)
        self.setWidget(self.list)
        self.list.itemClicked.connect(lambda it: self.picked.emit(it.data(Qt.UserRole)))
        self.list.itemDoubleClicked.connect(self._fix)
        self.findings = []
        self.notes: list[str] = []

    def _fix(self, it) -> None:
        row = self.list.row(it)
        if row >= len(self.findings):  # a run's note about one of its settings opens it
            field = _noted_setting(self.notes[row - len(self.findings)])
            if field:
                self.settings_requested.emit(field)
            return
        finding = self.findings[row]
        if finding.fix:
            self.fix_requested.emit(finding)
        elif _setting(finding):
            self.settings_requested.emit(_setting(finding))

    def show_findings(self, findings, notes=()) -> None:
        self.list.clear()
        self.findings = list(findings)
        for f in findings:
            action = FIXES[f.fix][0] if f.fix in FIXES else "Simulation Settings" if _setting(f) else ""
            it = QListWidgetItem(str(f) + (f"   [double-click: {action}]" if action else ""))
            it.setData(Qt.UserRole, f.item)
            it.setForeground(QColor(COLOURS.get(f.severity, "black")))
            self.list.addItem(it)
        self.notes = list(notes)
        for note in notes:
            self.list.addItem(QListWidgetItem(note + ("   [double-click: Simulation Settings]"
                                                      if _noted_setting(note) else "")))
        # the title counts every line listed: the view's problems and the runs' notes as well as the findings
        title = counted(len(findings), "finding") + (f", {counted(len(notes), 'note')}" if notes else "")
        self.setWindowTitle(f"Messages: {title}")


def _setting(finding) -> str:
    """The simulation setting a finding is about ('step' for 'settings.step'; 'settings' for the settings as a
    whole), or ''."""
    head, _, field = finding.item.partition(".")
    return (field or head) if head == "settings" else ""


def _noted_setting(note: str) -> str:
    """The simulation setting a run's note ('Run 2: settings.output_step 0.001 s samples ...') is about, or ''."""
    _, _, text = note.partition(": ")
    head = text.split(" ", 1)[0]
    return head.removeprefix("settings.") if head.startswith("settings.") and head != "settings." else ""
