"""Messages dock: validation findings of the model, live; clicking one selects its item; Ctrl+C or a right-click
copies the lines (for a report or a colleague)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QListView, QListWidget, QListWidgetItem, QMenu

from core.gearing.fixes import FIXES
from core.wording import counted

COLOURS = {"error": "#b00020", "warning": "#9a6700", "info": "#1f5fa8"}


class MessageList(QListWidget):
    """The lines: shift- and ctrl-click select several; Ctrl+C copies those selected, and the right-click menu
    offers Copy and Copy All (the list's own Ctrl+C copied only the current line)."""

    def __init__(self):
        super().__init__()
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setContextMenuPolicy(Qt.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.menu = None  # the right-click menu while it is open
        copy = QAction("Copy", self)
        copy.setShortcut(QKeySequence.Copy)  # shown in the menu; the key itself is taken in keyPressEvent
        copy.setShortcutContext(Qt.WidgetShortcut)
        copy.triggered.connect(self.copy_selected)
        every = QAction("Copy All", self)
        every.triggered.connect(lambda: self._copy(range(self.count())))
        self.addActions([copy, every])

    def _menu(self, pos) -> None:
        # shown, not run: nothing waits on it, as the model tree's menu (app.tree_menu)
        self.menu = QMenu()
        self.menu.addActions(self.actions())
        self.menu.popup(self.viewport().mapToGlobal(pos))

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.Copy):
            self.copy_selected()
            return
        super().keyPressEvent(event)

    def copy_selected(self) -> None:
        """The selected lines to the clipboard, in the order listed, one a line."""
        self._copy(sorted(self.row(it) for it in self.selectedItems()))

    def _copy(self, rows) -> None:
        QGuiApplication.clipboard().setText("\n".join(self.item(r).text() for r in rows))


class MessagesDock(QDockWidget):
    """Findings, errors first; a finding with a one-click fix says so and is fixed by a double-click."""

    picked = Signal(str)
    fix_requested = Signal(object)
    settings_requested = Signal(str)  # a finding on a simulation setting: the field's name

    def __init__(self, parent=None):
        super().__init__("Messages", parent)
        self.setObjectName("messages_dock")
        self.list = MessageList()
        self.list.setObjectName("messages")
        self.list.setWordWrap(True)  # a long finding in lines, not cut at the dock's edge behind a scroll bar
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListView.Adjust)
        self.setWidget(self.list)
        self.list.itemClicked.connect(lambda it: self.picked.emit(it.data(Qt.UserRole)))
        self.list.itemDoubleClicked.connect(self._fix)
        self.findings = []
        self.notes: list[str] = []
        self._lines: list[tuple] = []  # what the list shows, as show_findings made it

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
        """List `findings` and then `notes`; lines as listed already stay, with the lines selected among them."""
        lines = []  # (text, item, colour)
        for f in findings:
            action = FIXES[f.fix][0] if f.fix in FIXES else "Simulation Settings" if _setting(f) else ""
            lines.append((str(f) + (f"   [double-click: {action}]" if action else ""), f.item,
                          COLOURS.get(f.severity, "black")))
        for note in notes:
            lines.append((note + ("   [double-click: Simulation Settings]" if _noted_setting(note) else ""), None,
                          "black"))
        self.findings, self.notes = list(findings), list(notes)
        if lines != self._lines:
            self._lines = lines
            self.list.clear()
            for text, item, colour in lines:
                it = QListWidgetItem(text)
                it.setData(Qt.UserRole, item)
                it.setForeground(QColor(colour))
                self.list.addItem(it)
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
