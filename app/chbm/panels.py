"""The pieces the analysis windows (CHBM Study, Train Dynamics) build their side panel and toolbar from, and the
Run/Stop of their one background worker."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QDockWidget, QFormLayout, QLabel, QMainWindow, QWidget


#: What 0 means in an entry of the study panels, said in its row's label (the entry's tooltip says it whole)
ZERO_MEANS = {"Largest frequency step": "0: auto", "DTI sweep points": "0: none", "Newmark check points": "0: none"}


def row_label(field) -> str:
    """The row label of a study panel's entry (app.dialogs.fields.QuantityField): its label, and what 0 means in it
    where 0 does not mean zero."""
    zero = ZERO_MEANS.get(field.label)
    return f"{field.label} ({zero})" if zero else field.label


def note_label(name: str) -> QLabel:
    """A wrapping label, its text selectable, in the text's own colour: what a window says that is not a fault."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


def message_label(name: str) -> QLabel:
    """The red, wrapping label a window says what went wrong in."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet("color: #a33;")
    return label


def refill(combo: QComboBox, items: list[str]) -> None:
    """Put `items` in `combo`, keeping the choice made when it is still one of them, without a signal for the
    refill itself (the caller redraws once)."""
    chosen = combo.currentText()
    combo.blockSignals(True)
    combo.clear()
    combo.addItems(items)
    combo.setCurrentIndex(max(combo.findText(chosen), 0))
    combo.blockSignals(False)


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
    (app.background.Background), the `act_run` and `act_stop` actions and the `progress` bar [0, 1000]).

    A worker computes on a copy of the model as it was when it started. When that model is replaced or the part
    it studies is edited, the window calls `supersede`: the worker is stopped, and what it still reports is of a
    model that is gone, so the window's slots drop it (`superseded` is True until the next start)."""

    superseded = False

    def start_worker(self, worker) -> None:
        """Start `worker`, whose progress signal the window connected to `_progress`."""
        self.superseded = False
        self.act_run.setEnabled(False)
        self.act_stop.setEnabled(True)
        self.background.start(worker)

    def stop(self) -> None:
        self.background.cancel()

    def supersede(self) -> None:
        """Stop the running worker, if any: the model it computes on is gone (see the class docstring)."""
        if self.background.running:
            self.superseded = True
            self.background.cancel()
            self.progress.setValue(0)
            self.statusBar().showMessage("stopping: the model changed while it ran")

    def end_superseded(self) -> bool:
        """In the slot of the worker's last signal: when it was superseded, end its thread, say so and offer Run
        again; True then (the slot shows nothing of it)."""
        if not self.superseded:
            return False
        self.background.finish()
        self.act_stop.setEnabled(False)
        self.statusBar().showMessage("stopped: the model changed while it ran, so its results are not shown")
        return True

    def _progress(self, fraction: float, message: str) -> None:
        # a method of the window: Qt queues the worker's signal to the GUI thread (a lambda would run in the
        # worker's thread and touch the widgets from there)
        if self.superseded:
            return
        self.progress.setValue(int(1000 * fraction))
        self.statusBar().showMessage(message)
