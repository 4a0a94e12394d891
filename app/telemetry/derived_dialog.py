"""New derived channels by choosing, never by typing a formula: derivative, integral, moving average, difference,
ratio, and a gear pair's dynamic factor."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, finish_form, grow_to_fit
from core.analysis import derived
from core.chbm.from_model import static_torque
from core.model.entities import Torque
from core.ranges import Range

KINDS = {"derivative": "Derivative d/dt", "integral": "Integral over time", "moving_average": "Moving average",
         "difference": "Difference of two channels", "ratio": "Ratio of two channels (a speed ratio, an efficiency)",
         "dynamic_factor": "Dynamic factor of a gear pair (Ft over its share of T / r1)"}
#: the second channel's row, by the kind that takes one
SECOND = {"difference": "Minus channel", "ratio": "Divided by"}
SPAN = Range(lo=0.0, hi=1e6, lo_open=True, unit="s")
TORQUE = Range(lo=0.0, hi=1e9, lo_open=True, unit="N m")


class DerivedDialog(QDialog):
    """`channel, values` hold the new channel after OK."""

    def __init__(self, results, model, first: str = "", parent=None):
        super().__init__(parent)
        self.setWindowTitle("Derived Channel")
        self.setObjectName("derived_dialog")
        self.results, self.model = results, model
        names = [c.name for c in results.channels]
        self.kind = QComboBox()
        self.kind.setObjectName("derived_kind")
        for key, text in KINDS.items():
            self.kind.addItem(text, key)
        self.a, self.b = QComboBox(), QComboBox()
        self.a.setObjectName("derived_a")
        self.b.setObjectName("derived_b")
        self.a.addItems(names)
        self.b.addItems(names)
        if first:
            self.a.setCurrentText(first)
        self.pair = QComboBox()
        self.pair.setObjectName("derived_pair")
        self.pair.addItems(list(model.gear_pairs))
        self.span = QuantityField("Averaging span", SPAN, max(float(results.time[-1]) / 20, 1e-9))
        self.torque = QuantityField("Torque on gear 1", TORQUE, 1.0)
        self.torque.edit.setObjectName("derived_torque")
        self.torque_note = QLabel("")
        self.torque_note.setObjectName("derived_torque_note")
        self.torque_note.setWordWrap(True)
        self.form = QFormLayout()
        self.form.addRow("Kind", self.kind)
        self.form.addRow("Channel", self.a)
        self.form.addRow("Minus channel", self.b)
        self.form.addRow("Gear pair", self.pair)
        self.form.addRow("Torque on gear 1", self.torque)
        self.form.addRow("", self.torque_note)
        self.form.addRow("Averaging span", self.span)
        self.message = finish_form(self, self.form)
        self.kind.currentIndexChanged.connect(self._fields)
        self.pair.currentIndexChanged.connect(self._pair_torque)
        self._pair_torque()
        self._fields()
        self.channel = self.values = None

    def _fields(self, *_) -> None:
        k = self.kind.currentData()
        self.form.setRowVisible(self.a, k != "dynamic_factor")
        self.form.setRowVisible(self.b, k in SECOND)
        if k in SECOND:
            self.form.labelForField(self.b).setText(SECOND[k])
        self.form.setRowVisible(self.pair, k == "dynamic_factor")
        self.form.setRowVisible(self.torque_note, k == "dynamic_factor")
        self.form.setRowVisible(self.torque, k == "dynamic_factor" and not self._driven())
        grow_to_fit(self)  # the torque's note, shown with its kind
        self.form.setRowVisible(self.span, k == "moving_average")

    def accept(self) -> None:
        k = self.kind.currentData()
        try:
            if k == "derivative":
                out = derived.derivative(self.results, self.a.currentText())
            elif k == "integral":
                out = derived.integral(self.results, self.a.currentText())
            elif k == "moving_average":
                out = derived.moving_average(self.results, self.a.currentText(), self.span.value())
            elif k in SECOND:
                out = getattr(derived, k)(self.results, self.a.currentText(), self.b.currentText())
            else:
                torque = None if self._driven() else self.torque.value()
                out = derived.dynamic_factor(self.results, self.model, self.pair.currentText(), torque)
            if out[0].label in self.results.names:
                raise ValueError(f"{out[0].label}: this channel exists already")
        except (FieldError, ValueError, KeyError) as exc:
            self.message.setText(str(exc))
            return
        self.channel, self.values = out
        super().accept()

    def _driven(self) -> list[str]:
        """The torque elements on the chosen pair's gear-1 joint: its quasi-static force follows them."""
        pair = self.model.gear_pairs.get(self.pair.currentText())
        return [f.name for f in self.model.forces.values() if pair and isinstance(f, Torque) and f.joint == pair.joint1]

    def _pair_torque(self, *_) -> None:
        """The chosen pair's quasi-static torque on gear 1: its torque elements sample by sample, or a torque
        given, offered as what its mesh passes under the model's mean loads where the model's train tells."""
        driven, name = self._driven(), self.pair.currentText()
        if driven:
            self.torque_note.setText(f"Ft over its share of the torque of {', '.join(driven)} at every sample")
        elif name:
            torque, why = static_torque(self.model, name)
            if torque is not None:
                self.torque.set_si(torque)
            self.torque_note.setText(f"No torque element drives its gear 1, and {why}: give the torque on it"
                                     if torque is None else
                                     f"What its mesh passes to gear 1 by {why}; Ft over T / r1")
        self._fields()
