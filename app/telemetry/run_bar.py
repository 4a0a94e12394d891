"""The Telemetry window's runs bar: the run shown (the document's current run, as Simulate > Show Run chooses it),
another run of the model to compare with, drawn dashed beside it, and what changed from that run to this one."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar

from core.model.differences import differences, in_short


class RunBar(QToolBar):
    """Two choices over the document's runs; `reference` is the run compared with (None for none). Signal:
    compare_changed() when that run changes."""

    compare_changed = Signal()

    def __init__(self, document, parent=None):
        super().__init__("Runs", parent)
        self.setObjectName("runs_toolbar")
        self.doc = document
        self._shown = None  # the run shown at the last fill
        self.shown = QComboBox()
        self.shown.setObjectName("shown_run")
        self.shown.setToolTip("The run the plots show (as Simulate > Show Run); none to choose while a run runs")
        self.compare = QComboBox()
        self.compare.setObjectName("compare_run")
        self.compare.setToolTip("Another run of the model beside the one shown: its curves dashed in their "
                                "colours, its rows in the read-out under theirs")
        for label, box in ((" Run shown ", self.shown), ("  Compare with ", self.compare)):
            self.addWidget(QLabel(label))
            self.addWidget(box)
        self.changes = QLabel("")  # what the run shown was made from that the one compared with was not
        self.changes.setObjectName("run_changes")
        self.addWidget(self.changes)
        self.shown.activated.connect(self._show)
        self.compare.currentIndexChanged.connect(self._say_changes)
        self.compare.currentIndexChanged.connect(lambda *_: self.compare_changed.emit())
        self.fill()

    @property
    def reference(self):
        return self.compare.currentData()

    def fill(self) -> None:
        """Both lists afresh from the document's runs: the run shown selected, and the run compared with kept
        while it is one of the others (shown now, the two change places)."""
        runs, current, before = self.doc.runs, self.doc.current, self.reference
        others = [r for r in runs if r is not current]
        chosen = self._shown if before is current and before is not None else before
        self._shown = current
        for box in (self.shown, self.compare):
            box.blockSignals(True)
            box.clear()
        for record in runs:
            self.shown.addItem(record.label, record)
        self.shown.setCurrentIndex(runs.index(current) if current in runs else -1)
        self.shown.setEnabled(len(runs) > 1 and current is not None and current.ended)
        self.compare.addItem("none", None)
        for record in others:
            self.compare.addItem(record.label, record)
        self.compare.setCurrentIndex(others.index(chosen) + 1 if chosen in others else 0)
        self.compare.setEnabled(bool(others))
        for box in (self.shown, self.compare):
            box.blockSignals(False)
        self._say_changes()
        if self.reference is not before:
            self.compare_changed.emit()

    def _say_changes(self, *_) -> None:
        """Beside the runs: what changed from the run compared with to the run shown (all of it in the tooltip)."""
        reference, current = self.reference, self.doc.current
        changes = differences(reference.model, current.model) if reference is not None and current is not None else []
        if reference is None:
            text = ""
        elif changes:
            text = f"  {current.label} against {reference.label}: {in_short(changes, 2)}"
        else:
            text = f"  {current.label} and {reference.label}: the same model and settings"
        self.changes.setText(text)
        self.changes.setToolTip("\n".join(changes))

    def _show(self, index: int) -> None:
        record = self.shown.itemData(index)
        if record is not None and record is not self.doc.current and self.doc.current.ended:
            self.doc.show_run(record)
