"""The time-law editor: constant, step, ramp, sine or a table from a CSV file, with a small plot of the law.

No text the user types is ever evaluated: a law is one of the five kinds, and
a table is read as two columns of numbers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.dialogs.fields import FieldError, QuantityField, follow_keys
from app.document import documents_folder
from core.model.entities import TimeLaw
from core import ranges
from core.ranges import Range, field_range
from core.tables import TableError, read_table

RPM = Range(**ranges.RPM)
KIND_TEXT = {"constant": "Constant", "step": "Step", "ramp": "Ramp", "sine": "Sine", "table": "Table (CSV)"}


def in_rpm(field: QuantityField) -> None:
    """Show a speed typed in rad/s in rpm beside it as well ('= 477.5 rpm'), as a body's initial speed is."""
    label = QLabel()
    label.setObjectName(f"{field.edit.objectName()}_rpm")
    # the width of the longest text it shows, so that the entry keeps its width, and aligns with its neighbours,
    # as the number grows
    widest = f"= {-8.88888e8:.6g} {RPM.shown_unit}"  # the longest a number shows in 6 digits
    label.setMinimumWidth(label.fontMetrics().horizontalAdvance(widest))

    def show(text: str) -> None:
        try:
            label.setText(f"= {RPM.to_display(float(text)):.6g} {RPM.shown_unit}")
        except ValueError:
            label.setText("")

    field.layout().addWidget(label)
    field.edit.textChanged.connect(show)
    show(field.edit.text())


class LawEditor(QWidget):
    """Edits a TimeLaw in `unit`; plots it over [0, t_span] s. `changed` fires after each edit, `typed` after each
    key that leaves the entries a law (the plot follows it)."""

    changed = Signal()
    typed = Signal()

    def __init__(self, law: TimeLaw, unit: str, t_span: float, label: str = "Law", parent=None):
        super().__init__(parent)
        self.unit, self.t_span, self.label = unit, t_span, label
        self.table = law.table
        self.kind = QComboBox()
        self.kind.setObjectName("law_kind")
        for k, text in KIND_TEXT.items():
            self.kind.addItem(text, k)
        value = Range(unit=unit)
        self.fields = {
            "value": QuantityField("Value" if law.kind != "sine" else "Offset", value, law.value),
            "final": QuantityField("Final value", value, law.final),
            "t_start": QuantityField("Start time", field_range(TimeLaw, "t_start"), law.t_start),
            "t_end": QuantityField("End time", field_range(TimeLaw, "t_end"), law.t_end),
            "amplitude": QuantityField("Amplitude", value, law.amplitude),
            "frequency": QuantityField("Frequency", field_range(TimeLaw, "frequency"), law.frequency),
            "phase": QuantityField("Phase", field_range(TimeLaw, "phase"), law.phase),
        }
        for name, f in self.fields.items():
            f.edit.setObjectName(f"law_{name}")
            f.edit.editingFinished.connect(self._edited)
            if unit == "rad/s" and name in ("value", "final", "amplitude"):
                in_rpm(f)
        self.load = QPushButton("Load CSV...")
        self.load.setObjectName("law_load_csv")
        self.load.setToolTip("Two columns: time [s], value; a header row is skipped")
        self.load.clicked.connect(self._load_csv)
        self.table_label = QLabel("")
        self.table_label.setObjectName("law_table")
        self.message = QLabel("")
        self.message.setObjectName("law_message")
        self.message.setStyleSheet("color: #b00020")
        self.message.setWordWrap(True)
        self.form = QFormLayout()
        self.form.addRow("Kind", self.kind)
        for f in self.fields.values():
            self.form.addRow(f.label, f)
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(self.load)
        h.addWidget(self.table_label, 1)
        self.form.addRow("Table", row)
        import pyqtgraph as pg  # loaded with the first law editor, not at start-up

        from app.plot_axis import unit_axes

        self.plot = pg.PlotWidget(axisItems=unit_axes("left", "bottom"))
        self.plot.setObjectName("law_plot")
        self.plot.setMinimumHeight(120)
        self.plot.setMaximumHeight(160)
        self.plot.getAxis("bottom").set_quantity("t", "s")
        # the law's values in the unit its entries take (a flat zero law showed "(x0.001)" after the label)
        self.plot.getAxis("left").set_quantity(label, unit, prefix=False)
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.curve = self.plot.plot(pen=pg.mkPen("#1f5fa8", width=2))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(self.form)
        lay.addWidget(self.message)
        lay.addWidget(self.plot)
        follow_keys(self.fields.values(), self._follow_keys)
        self.kind.setCurrentIndex(list(KIND_TEXT).index(law.kind))
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._show_fields()
        self._replot()

    def _show_fields(self) -> None:
        kind = self.kind.currentData()
        for name, f in self.fields.items():
            self.form.setRowVisible(f, name in TimeLaw.FIELDS_OF[kind])
        self.form.labelForField(self.fields["value"]).setText("Offset" if kind == "sine" else "Value")
        self.form.setRowVisible(self.load.parentWidget(), kind == "table")
        self.table_label.setText(f"{len(self.table)} rows, t from {self.table[0][0]:g} to {self.table[-1][0]:g} s"
                                 if self.table else "no table loaded")

    def _kind_changed(self, *_) -> None:
        """A ramp chosen with no span (its end time at or before its start: a new law's 0 s) ramps over the rest
        of the run, so the law shown is one the model takes. A table chosen with none loaded asks for its file at
        once; until one is loaded the law is not complete, so nothing is said to have changed (an edit in the
        Properties would be refused and the kind set back)."""
        if self.kind.currentData() == "table" and not self.table:
            self.message.setText("")
            self._load_csv()  # a table read says it changed
            if not self.table:
                self._show_fields()
                self.curve.setData([], [])
                if not self.message.text():  # cancelled, rather than a file that did not read
                    self.message.setText("No table loaded yet: Load CSV... reads one (time [s], value).")
            return
        if self.kind.currentData() == "ramp":
            start, end = self.fields["t_start"], self.fields["t_end"]
            try:
                empty = end.value() <= start.value()
            except FieldError:  # a field that does not read keeps what was typed, and says why
                empty = False
            if empty and start.value() < self.t_span:
                end.set_si(self.t_span)
        self._edited()

    def _edited(self, *_) -> None:
        self._show_fields()
        self._replot()
        self.changed.emit()

    def _load_csv(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Load table", str(documents_folder()),
                                              "CSV files (*.csv *.txt);;All files (*)")
        if path:
            self.load_table(path)

    def load_table(self, path) -> bool:
        try:
            self.table = read_table(path)
        except TableError as exc:
            self.message.setText(f"{Path(path).name}: {exc}")
            return False
        self.message.setText("")
        self._edited()
        return True

    def set_law(self, law: TimeLaw) -> None:
        """Show `law` in every entry, as if typed, and say so (`changed`)."""
        self.table = law.table
        self.kind.blockSignals(True)  # one `changed` for the whole law
        self.kind.setCurrentIndex(list(KIND_TEXT).index(law.kind))
        self.kind.blockSignals(False)
        for name, f in self.fields.items():
            f.set_si(getattr(law, name))
        self._edited()

    def value(self) -> TimeLaw:
        """The law as entered, or FieldError naming the field and its range."""
        kind = self.kind.currentData()
        values = {}
        for name in (n for n in TimeLaw.FIELDS_OF[kind] if n in self.fields):
            try:
                values[name] = self.fields[name].value()
            except FieldError as exc:  # say whose law it is: "Torque amplitude: ..."
                raise FieldError(f"{self.label} {str(exc)[0].lower()}{str(exc)[1:]}") from None
        law = TimeLaw(kind=kind, table=self.table if kind == "table" else (), **values)
        problems = law.problems()
        if problems:
            name, msg = problems[0]
            label = self.fields[name].label if name in self.fields else name
            raise FieldError(f"{self.label} {label.lower()}: {msg}")
        return law

    def _follow_keys(self) -> None:
        """Redraw the law, or say what is wrong with it, as it is typed (`fields.follow_keys`)."""
        self._replot()
        self.typed.emit()

    def _replot(self) -> None:
        try:
            law = self.value()
        except FieldError as exc:
            self.message.setText(str(exc))
            self.curve.setData([], [])
            return
        self.message.setText("")
        self._draw(law)

    def _draw(self, law: TimeLaw) -> None:
        span = max(self.t_span, 1e-9)
        t = np.linspace(0.0, span, 801)
        if law.kind in ("step", "table"):  # show the corners where they are
            corners = [law.t_start] if law.kind == "step" else [row[0] for row in law.table]
            t = np.unique(np.concatenate([t, [c for c in corners if 0 <= c <= span],
                                          [c - 1e-12 * span for c in corners if 0 < c <= span]]))
        self.curve.setData(t, [law(v) for v in t])
