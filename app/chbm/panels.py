"""The pieces the analysis windows (CHBM Study, Train Dynamics) build their side panel and toolbar from."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QFormLayout, QLabel, QMainWindow, QWidget


def message_label(name: str) -> QLabel:
    """The red, wrapping label a window says what went wrong in."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet("color: #a33;")
    return label


def side_dock(window: QMainWindow, title: str, name: str, form: QFormLayout) -> QDockWidget:
    """`form` in a movable dock on the window's left."""
    box = QWidget()
    box.setLayout(form)
    box.setMinimumWidth(300)
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(box)
    dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
    window.addDockWidget(Qt.LeftDockWidgetArea, dock)
    return dock


def tool_bar(window: QMainWindow, title: str, name: str):
    """A toolbar on the window, and the function that adds an action to it: add(text, slot, name, tip) -> QAction."""
    bar = window.addToolBar(title)
    bar.setObjectName(name)

    def add(text, slot, action_name, tip):
        action = QAction(text, window)
        action.setObjectName(action_name)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        bar.addAction(action)
        return action

    return bar, add
