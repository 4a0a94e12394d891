"""A gear's macro-geometry entries as catalogues give them, the same in the Gear dialogs and in Properties.

A cylindrical gear is entered by its normal module m_n (the hob's), its helix angle's size and its hand; the
spec keeps the transverse module m_t = m_n / cos(beta) and a signed helix angle, positive for right hand. So an
edit of the helix angle keeps the normal module, as a gear cut by the same hob. A bevel gear takes its outer
transverse module.
"""

from __future__ import annotations

import dataclasses
import math

from PySide6.QtWidgets import QComboBox, QFormLayout

from app.dialogs.fields import FieldError, QuantityField, follow_keys
from core.geometry.macro import GearSpec
from core.ranges import DEG, Range, field_range

LABELS = {
    "module": "Module", "teeth": "Number of teeth", "pressure_angle": "Normal pressure angle",
    "helix_angle": "Helix angle", "pitch_angle": "Pitch angle", "face_width": "Face width",
    "bore_diameter": "Bore diameter", "rim_diameter": "Outer rim diameter", "density": "Density",
    "profile_shift": "Profile shift x",
}
TIPS = {
    "profile_shift": "Profile shift coefficient (ISO 21771): the rack moved out by x m_n thickens the tooth",
    "module": "Outer transverse module of the bevel gear (at the heel, where the pitch diameter d = m z is "
              "measured)",
    "pitch_angle": "Pitch-cone angle gamma; the mate gets 90 deg - gamma",
}
NORMAL_MODULE = "Normal module"
OUTER_MODULE = "Outer module"  # a straight bevel gear's: at the heel
NORMAL_TIPS = {
    "module": "Normal module m_n (ISO 21771), in the section normal to the teeth: the hob's module. The "
              "transverse module m_t = m_n / cos(beta) is shown below",
    "helix_angle": "Helix angle beta of the tooth trace to the axis at the pitch cylinder; 0 for a spur gear",
}
HANDS = {"Right": 1.0, "Left": -1.0}


def hand_follows(helix: QuantityField, hand: QComboBox) -> None:
    """Open the choice of `hand` only while `helix` reads a helix angle above 0 (or one still being typed): a
    spur gear has no hand."""

    def update(*_) -> None:
        try:
            helical = helix.value() > 0
        except FieldError:
            helical = True
        hand.setEnabled(helical)

    helix.edit.textChanged.connect(update)
    update()


class GearEntries:
    """The entries of a gear's macro-geometry over `spec` (its kind, and the values they start with): `fields`
    (name: QuantityField) and `hand`, laid into a form by `add_rows`; `spec()` is the spec they give."""

    def __init__(self, spec: GearSpec):
        self.base = spec
        self.cylindrical = spec.kind != "bevel"
        self.fields = {f: self._field(f, spec) for f in spec.relevant_fields()}
        self.hand = QComboBox()
        self.hand.setObjectName("hand")
        self.hand.addItems(list(HANDS))
        self.hand.setCurrentText("Left" if spec.helix_angle < 0 else "Right")
        self.hand.setToolTip("Hand of the helix (ISO 21771): right hand when the teeth wind clockwise away from "
                             "the viewer looking along the axis; a mating external gear has the other hand. A spur "
                             "gear (helix angle 0) has none")
        if self.cylindrical:
            hand_follows(self.fields["helix_angle"], self.hand)

    def _field(self, f: str, spec: GearSpec) -> QuantityField:
        if self.cylindrical and f == "module":
            return QuantityField(NORMAL_MODULE, field_range(GearSpec, f), spec.module * math.cos(spec.helix_angle),
                                 NORMAL_TIPS[f])
        if self.cylindrical and f == "helix_angle":  # its size; the hand is a choice of its own
            hi = field_range(GearSpec, f).hi
            return QuantityField(LABELS[f], Range(lo=0.0, hi=hi, **DEG), abs(spec.helix_angle), NORMAL_TIPS[f])
        return QuantityField(LABELS[f], field_range(GearSpec, f), getattr(spec, f), TIPS.get(f, ""))

    def add_rows(self, form: QFormLayout) -> None:
        """Append the entries to `form`, the hand beside the helix angle."""
        for f, w in self.fields.items():
            form.addRow(w.label, w)
            if f == "helix_angle":
                form.addRow("Hand", self.hand)

    def connect(self, slot) -> None:
        """Call `slot()` when an entry is finished or the hand is chosen."""
        for w in self.fields.values():
            w.edit.editingFinished.connect(slot)
        self.hand.currentIndexChanged.connect(slot)

    def follow_keys(self, slot) -> None:
        """Also call `slot()` at each key that leaves every entry a number (`fields.follow_keys`): a dialog's
        preview, not an edit of the model."""
        follow_keys(self.fields.values(), slot)

    def spec(self) -> GearSpec:
        """The spec the entries give (over `spec` given at the start); FieldError names the first entry out of
        its range, as its label reads."""
        values = {f: w.value() for f, w in self.fields.items()}
        if self.cylindrical:
            beta = values["helix_angle"] * HANDS[self.hand.currentText()]
            m_t = values["module"] / math.cos(beta)
            if beta == self.base.helix_angle and values["module"] == self.base.module * math.cos(beta):
                m_t = self.base.module  # neither entry changed: the module as it was, not its round trip
            values.update(module=m_t, helix_angle=beta)
        spec = dataclasses.replace(self.base, **values)
        problems = spec.problems()
        if problems:
            name, msg = problems[0]
            label = NORMAL_MODULE if self.cylindrical and name == "module" else LABELS.get(name, name)
            raise FieldError(f"{label}: {msg}")
        return spec
