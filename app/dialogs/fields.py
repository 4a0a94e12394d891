"""Entry fields in engineering units (mm, deg) that check the allowed range and say it."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from core.ranges import Range


class FieldError(ValueError):
    """An entry is out of range; the message names the field and the range."""


class QuantityField(QWidget):
    """A number in display units; `value()` gives SI or raises FieldError."""

    def __init__(self, label: str, rng: Range, value_si: float, tooltip: str = "", parent=None):
        super().__init__(parent)
        self.label, self.range = label, rng
        self.edit = QLineEdit(f"{rng.to_display(value_si):.6g}")
        self.edit.setObjectName(label)
        self.edit.setToolTip(tooltip or f"{label}: {rng.describe()}")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit)
        if rng.shown_unit:
            lay.addWidget(QLabel(rng.shown_unit))

    def set_si(self, value: float) -> None:
        self.edit.setText(f"{self.range.to_display(value):.6g}")

    def value(self) -> float:
        text = self.edit.text().strip()
        try:
            shown = int(text) if self.range.integer else float(text)
        except ValueError:
            raise FieldError(f"{self.label}: must be {self.range.describe()}, got {text!r}") from None
        si = shown if self.range.integer else self.range.from_display(shown)
        msg = self.range.problem(si)
        if msg:
            raise FieldError(f"{self.label}: {msg}")
        return si


class VectorField(QWidget):
    """Three numbers (x, y, z) in one unit."""

    def __init__(self, label: str, rng: Range, value_si, parent=None):
        super().__init__(parent)
        self.label = label
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.parts = []
        for axis, v in zip("xyz", value_si):
            f = QuantityField(f"{label} {axis}", rng, v)
            self.parts.append(f)
            lay.addWidget(f)

    def value(self) -> tuple[float, float, float]:
        return tuple(p.value() for p in self.parts)

    def set_si(self, values) -> None:
        for p, v in zip(self.parts, values):
            p.set_si(v)


def add_rows(form: QFormLayout, fields: dict) -> None:
    for name, widget in fields.items():
        form.addRow(getattr(widget, "label", name), widget)


def finish_form(dialog, form: QFormLayout, *extra) -> QLabel:
    """Lay out a form, any extra widgets, a red message line and OK/Cancel; returns the message label."""
    message = QLabel("")
    message.setObjectName("message")
    message.setStyleSheet("color: #b00020")
    message.setWordWrap(True)
    buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    lay = QVBoxLayout(dialog)
    lay.addLayout(form)
    for w in extra:
        lay.addWidget(w)
    lay.addWidget(message)
    lay.addWidget(buttons)
    return message
