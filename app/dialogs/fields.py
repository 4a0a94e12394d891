"""Entry fields in engineering units (mm, deg) that check the allowed range and say it."""

from __future__ import annotations

import textwrap

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.geometry.rotations import quat_about, quat_log
from core.ranges import DEG, Range


def display_text(rng: Range, value_si: float) -> str:
    """A value in display units with six significant digits; round-off noise (below 1e-12 of a metre, a radian...)
    shows as 0."""
    if value_si is None:
        return ""
    if not rng.integer and abs(value_si) < 1e-12:
        return "0"
    return f"{rng.to_display(value_si):.6g}"


def file_row(text: str, browse) -> tuple[QWidget, QLineEdit]:
    """A file entry (object name "File") wide enough to show a path of about 50 characters, and its Browse...
    button calling `browse`: the row and the entry."""
    edit = QLineEdit(text)
    edit.setObjectName("File")
    edit.setMinimumWidth(50 * edit.fontMetrics().averageCharWidth())
    button = QPushButton("Browse...")
    button.clicked.connect(browse)
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(edit)
    lay.addWidget(button)
    return row, edit


class WarningLines(QLabel):
    """Warnings in red under a dialog's entries, hidden when there are none. The lines are broken here (80
    characters) rather than word-wrapped, so that the dialog grows to show them all."""

    def __init__(self, name: str, parent=None):
        super().__init__("", parent)
        self.setObjectName(name)
        self.setStyleSheet("color: #b00020")
        self.setVisible(False)

    def show_lines(self, texts: list[str]) -> None:
        text = "\n".join(textwrap.fill(t, 80) for t in texts)
        if text != self.text():
            self.setText(text)
            self.setVisible(bool(texts))
            self.window().adjustSize()  # room for the lines, or back to the size without them


class FieldError(ValueError):
    """An entry is out of range; the message names the field and the range."""


class QuantityField(QWidget):
    """A number in display units; `value()` gives SI or raises FieldError.

    The entry shows six significant digits but keeps the exact value it was
    given: reading it back untouched returns that value, not the rounded text
    (tabbing through a form must not change a model).
    """

    def __init__(self, label: str, rng: Range, value_si: float, tooltip: str = "", parent=None, unit: bool = True):
        super().__init__(parent)
        self.label, self.range = label, rng
        self._exact = (display_text(rng, value_si), value_si)
        self.edit = QLineEdit()
        self.edit.setObjectName(label)
        self._show(self._exact[0])
        self.edit.setToolTip(tooltip or f"{label}: {rng.describe()}")
        self.edit.setMinimumWidth(48)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit)
        if unit and rng.shown_unit:
            lay.addWidget(QLabel(rng.shown_unit))

    def _show(self, text: str) -> None:
        """Show `text` from its first character: a narrow entry cut off the leading digits ('1.5692' of 41.5692)
        where the cursor at the end scrolled it."""
        self.edit.setText(text)
        self.edit.setCursorPosition(0)

    def set_si(self, value: float) -> None:
        self._exact = (display_text(self.range, value), value)
        self._show(self._exact[0])

    def _number(self, text: str) -> float:
        """The number `text` reads as, in display units (ValueError if it does not)."""
        return int(text) if self.range.integer else float(text)

    def reads(self) -> bool:
        """Whether the entry reads as a number, in its range or not: not half typed ('-', '1e', '')."""
        try:
            self._number(self.edit.text().strip())
        except ValueError:
            return False
        return True

    def value(self) -> float:
        text = self.edit.text().strip()
        if text == self._exact[0] and self._exact[1] is not None and self.range.problem(self._exact[1]) is None:
            return self._exact[1]
        try:
            shown = self._number(text)
        except ValueError:
            raise FieldError(f"{self.label}: must be {self.range.describe()}, got {text!r}") from None
        si = shown if self.range.integer else self.range.from_display(shown)
        msg = self.range.problem(si)
        if msg:
            raise FieldError(f"{self.label}: {msg}")
        return si


def follow_keys(fields, slot) -> None:
    """Call `slot()` at each key typed into one of `fields` (QuantityFields) after which every one of them reads
    as a number (`QuantityField.reads`): a preview that follows typing and says at once a number out of range. A
    number half typed ('-', '1e') leaves the last preview; the slot the entries' editingFinished calls says what
    is wrong with it once the entry is finished."""
    fields = tuple(fields)

    def typed(*_) -> None:
        if all(f.reads() for f in fields):
            slot()

    for f in fields:
        f.edit.textChanged.connect(typed)


class QuantityListField(QuantityField):
    """Several numbers in display units, separated by commas; `value()` gives a tuple of SI values (1 to
    `most`, each in the range) or raises FieldError naming the field, the entry and the range."""

    def __init__(self, label: str, rng: Range, values_si, tooltip: str = "", most: int = 6, parent=None):
        super().__init__(label, rng, values_si[0], tooltip, parent)
        self.most = most
        self.set_values(values_si)

    def set_values(self, values_si) -> None:
        self._show(", ".join(display_text(self.range, v) for v in values_si))

    def reads(self) -> bool:
        """Whether every comma-separated entry reads as a number (in its range or not)."""
        parts = [p.strip() for p in self.edit.text().split(",") if p.strip()]
        try:
            [float(p) for p in parts]
        except ValueError:
            return False
        return bool(parts)

    def value(self) -> tuple[float, ...]:
        parts = [p.strip() for p in self.edit.text().split(",") if p.strip()]
        if not 1 <= len(parts) <= self.most:
            raise FieldError(f"{self.label}: must be 1 to {self.most} values separated by commas, got {len(parts)}")
        out = []
        for text in parts:
            try:
                si = self.range.from_display(float(text))
            except ValueError:
                raise FieldError(f"{self.label}: each must be {self.range.describe()}, got {text!r}") from None
            msg = self.range.problem(si)
            if msg:
                raise FieldError(f"{self.label}: {text}: {msg}")
            out.append(si)
        return tuple(out)


class VectorField(QWidget):
    """Three numbers (x, y, z) in one unit."""

    def __init__(self, label: str, rng: Range, value_si, parent=None):
        super().__init__(parent)
        self.label = label
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        self.parts = []
        for axis, v in zip("xyz", value_si):
            f = QuantityField(f"{label} {axis}", rng, v, unit=False)  # one unit after the three, to save room
            self.parts.append(f)
            lay.addWidget(f)
        if rng.shown_unit:
            lay.addWidget(QLabel(rng.shown_unit))
        self._fit()

    def _fit(self) -> None:
        """Each entry at least as wide as its number (41.5692 showed as 41.569 in a narrow dock); a row that then
        does not fit beside its label goes below it (WrapLongRows)."""
        for p in self.parts:
            wide = p.edit.fontMetrics().horizontalAdvance(p.edit.text()) + 12
            p.edit.setMinimumWidth(max(48, wide))

    def value(self) -> tuple[float, float, float]:
        return tuple(p.value() for p in self.parts)

    def set_si(self, values) -> None:
        for p, v in zip(self.parts, values):
            p.set_si(v)
        self._fit()


class AxisAngleField(QWidget):
    """An orientation as an axis (three numbers) and an angle [deg] about it; `value()` gives a unit quaternion."""

    def __init__(self, label: str, quaternion, parent=None):
        super().__init__(parent)
        self.label = label
        lay = QVBoxLayout(self)  # the angle under the axis: four numbers side by side ran off a 300 px dock
        lay.setContentsMargins(0, 0, 0, 0)
        axis, angle = self._split(quaternion)
        self.axis = VectorField(f"{label} axis", Range(), axis)
        self.angle = QuantityField(f"{label} angle", Range(**DEG), angle)
        turn = QHBoxLayout()
        turn.addWidget(QLabel("angle"))
        turn.addWidget(self.angle, 1)
        lay.addWidget(self.axis)
        lay.addLayout(turn)
        self.parts = [*self.axis.parts, self.angle]

    @staticmethod
    def _split(q):
        theta = quat_log(q)
        angle = float(np.linalg.norm(theta))
        return (tuple(theta / angle) if angle > 1e-12 else (0.0, 0.0, 1.0)), angle

    def set_si(self, quaternion) -> None:
        axis, angle = self._split(quaternion)
        self.axis.set_si(axis)
        self.angle.set_si(angle)

    def value(self) -> tuple[float, float, float, float]:
        axis = np.asarray(self.axis.value(), float)
        if np.linalg.norm(axis) < 1e-12:
            raise FieldError(f"{self.label} axis: must be a non-zero direction")
        q = quat_about(axis, self.angle.value())
        return tuple(float(v) for v in q / np.linalg.norm(q))


def add_rows(form: QFormLayout, fields: dict) -> None:
    for name, widget in fields.items():
        form.addRow(getattr(widget, "label", name), widget)


def grow_to_fit(dialog) -> None:
    """Let `dialog` grow to the height its wrapped texts need at its width (a note that gained a line): a shown
    dialog keeps its size otherwise, and squeezes the lines of a longer note into its old height."""
    def grow() -> None:
        height = dialog.layout().totalHeightForWidth(dialog.width())
        if height > 0:  # -1: nothing shown in the layout wraps now (Qt refuses a negative size, and says so)
            dialog.setMinimumHeight(height)

    # once the labels' new sizes are in (a label posts them; measured at once, the old text counts)
    QTimer.singleShot(0, dialog, grow)


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
