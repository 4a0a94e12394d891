"""The pieces the analysis windows (CHBM Study, Train Dynamics) build their side panel and toolbar from, and the
Run/Stop of their one background worker."""

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


class WorkerRuns:
    """Run and Stop of an analysis window's background worker (a mixin of the window, which holds `background`
    (app.background.Background), the `act_run` and `act_stop` actions and the `progress` bar [0, 1000])."""

    def start_worker(self, worker) -> None:
        """Start `worker`, whose progress signal the window connected to `_progress`."""
        self.act_run.setEnabled(False)
        self.act_stop.setEnabled(True)
        self.background.start(worker)

    def stop(self) -> None:
        self.background.cancel()

    def _progress(self, fraction: float, message: str) -> None:
        # a method of the window: Qt queues the worker's signal to the GUI thread (a lambda would run in the
        # worker's thread and touch the widgets from there)
        self.progress.setValue(int(1000 * fraction))
        self.statusBar().showMessage(message)
