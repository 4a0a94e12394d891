"""Helical, inner and bevel gear generators: macro-geometry in, a rigid body with mesh mass properties out."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout, QLabel, QLineEdit

from app.dialogs.fields import FieldError, VectorField, WarningLines, finish_form
from app.dialogs.gear_entries import GearEntries
from app.dialogs.gear_sketch import GearSketch
from core.geometry.macro import GearSpec, bevel_geometry, cylindrical_geometry
from core.geometry.tooth_checks import tooth_warnings
from core.model import builders
from core.errors import ModelError
from core.ranges import MM, Range

DEFAULTS = {"helical": GearSpec("helical", bore_diameter=0.01),
            "inner": GearSpec("inner", teeth=60, rim_diameter=0.15),
            "bevel": GearSpec("bevel", module=0.003, pitch_angle=0.4636476, bore_diameter=0.012)}
TITLES = {"helical": "Helical Gear", "inner": "Inner Gear", "bevel": "Bevel Gear"}
POSITION = Range(lo=-1e3, hi=1e3, **MM)
AXIS = Range(lo=-1.0, hi=1.0)


def derived_text(spec: GearSpec, hand: bool = False) -> str:
    """A gear's diameters and modules in mm (ISO 21771 names: m_t, m_n, d, d_a, d_f, d_b; a bevel gear's m, d,
    d_a), and with `hand` its helix hand."""
    if spec.kind == "bevel":
        g = bevel_geometry(spec)
        values = {"m": spec.module, "d": 2 * g.pitch_radius, "d_a": 2 * g.outer_tip_radius}
    else:
        g = cylindrical_geometry(spec)
        values = {"m_t": g.transverse_module, "m_n": g.normal_module, "d": 2 * g.pitch_radius,
                  "d_a": 2 * g.tip_radius, "d_f": 2 * g.root_radius, "d_b": 2 * g.base_radius}
    text = ", ".join(f"{k} {v * 1e3:.6g} mm" for k, v in values.items())  # as the entries show them
    if hand and spec.kind != "bevel":
        text += "; " + ("spur" if spec.helix_angle == 0 else "right hand" if spec.helix_angle > 0 else "left hand")
    return text


class GearDialog(QDialog):
    """Asks for a gear's parameters, position and axis; `body` holds the new rigid body after OK.

    Cylindrical gears take the normal module m_n, the helix angle's size and its hand (the spec keeps the
    transverse module m_t = m_n / cos(beta) and a signed helix angle, positive for right hand). `memory`, a dict
    the caller keeps per dialog, brings back the values the dialog was last accepted with.
    """

    def __init__(self, kind: str, name: str, parent=None, memory: dict | None = None):
        super().__init__(parent)
        self.kind = kind
        self.setWindowTitle(TITLES[kind])
        self.setObjectName(f"{kind}_gear_dialog")
        form = QFormLayout()
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        form.addRow("Name", self.name)
        self.entries = GearEntries(DEFAULTS[kind])
        self.entries.add_rows(form)
        self.fields, self.hand = self.entries.fields, self.entries.hand
        self.position = VectorField("Position", POSITION, (0.0, 0.0, 0.0))
        self.axis = VectorField("Axis", AXIS, (0.0, 0.0, 1.0))
        form.addRow("Position", self.position)
        form.addRow("Axis", self.axis)
        self.derived = QLabel("")
        self.derived.setObjectName("derived")
        self.derived.setWordWrap(True)
        form.addRow("Derived", self.derived)
        self.teeth_check = WarningLines("teeth_check")  # what the rack does to the teeth: undercut, a pointed tip
        form.addRow(self.teeth_check)
        self.sketch = GearSketch()
        form.addRow("Axial section" if kind == "bevel" else "Section", self.sketch)
        self.message = finish_form(self, form)
        self.body = None
        self.memory = {} if memory is None else memory
        self.recall()
        self.entries.connect(self.show_derived)
        self.entries.follow_keys(self.show_derived)
        self.show_derived()

    def recall(self) -> None:
        """The gear values this dialog was last accepted with (in this window), as they were typed."""
        for f, text in self.memory.get("fields", {}).items():
            if f in self.fields:
                self.fields[f].edit.setText(text)
        if "hand" in self.memory:
            self.hand.setCurrentText(self.memory["hand"])

    def remember(self) -> None:
        """Keep the gear's values as typed (not its name and place: the next gear is another one elsewhere)."""
        self.memory.update(fields={f: w.edit.text() for f, w in self.fields.items()}, hand=self.hand.currentText())

    def show_derived(self) -> None:
        """The diameters and both modules of the gear as entered, in mm (ISO 21771 names), and its mass; or, as
        OK would say it, the first entry that breaks its bound."""
        try:
            spec = self.spec()
        except FieldError as exc:
            self.derived.setText("")
            self.teeth_check.show_lines([])  # of the gear as it was, not as entered
            self.sketch.show_spec(None)
            self.message.setText(str(exc))
            return
        self.message.setText("")
        try:  # the mass from the gear's mesh, as OK will make it (some 20 ms)
            mass = f"; mass {builders.gear_body('preview', spec).mass:.4g} kg"
        except ModelError:
            mass = ""
        self.derived.setText(derived_text(spec) + mass)
        self.teeth_check.show_lines(tooth_warnings(spec))
        self.sketch.show_spec(spec)

    def spec(self) -> GearSpec:
        return self.entries.spec()

    def accept(self) -> None:
        try:
            spec = self.spec()
            axis = self.axis.value()
            if sum(a * a for a in axis) < 1e-12:
                raise FieldError("Axis: must be a non-zero direction")
            name = self.name.text().strip()
            if not name:
                raise FieldError("Name: must not be empty")
            self.body = builders.gear_body(name, spec, position=self.position.value(), axis=axis)
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc))
            return
        self.remember()
        super().accept()
