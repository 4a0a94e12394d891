"""Helical, inner and bevel gear generators: macro-geometry in, a rigid body with mesh mass properties out."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QDialog, QFormLayout, QLabel, QLineEdit

from app.dialogs.fields import (
    FieldError,
    QuantityField,
    VectorField,
    add_rows,
    finish_form,
)
from core.geometry.macro import GearSpec, bevel_geometry, cylindrical_geometry
from core.model import builders
from core.errors import ModelError
from core.ranges import MM, Range, field_range

LABELS = {
    "module": "Module (transverse)", "teeth": "Number of teeth", "pressure_angle": "Normal pressure angle",
    "helix_angle": "Helix angle", "pitch_angle": "Pitch angle", "face_width": "Gear width",
    "bore_diameter": "Bore diameter", "rim_diameter": "Outer rim diameter", "density": "Density",
    "profile_shift": "Profile shift x",
}
TIPS = {
    "profile_shift": "Profile shift coefficient (ISO 21771): the rack moved out by x m_n thickens the tooth",
    "module": "Transverse module m_t in the plane of rotation (not the normal module)",
    "helix_angle": "Angle of the tooth trace to the axis; 0 for a spur gear, positive for right hand",
    "pitch_angle": "Pitch-cone angle gamma; the mate gets 90 deg - gamma",
}
DEFAULTS = {"helical": GearSpec("helical", bore_diameter=0.01),
            "inner": GearSpec("inner", teeth=60, rim_diameter=0.15),
            "bevel": GearSpec("bevel", module=0.003, pitch_angle=0.4636476, bore_diameter=0.012)}
TITLES = {"helical": "Helical Gear", "inner": "Inner Gear", "bevel": "Bevel Gear"}
POSITION = Range(lo=-1e3, hi=1e3, **MM)
AXIS = Range(lo=-1.0, hi=1.0)


class GearDialog(QDialog):
    """Asks for a gear's parameters, position and axis; `body` holds the new rigid body after OK."""

    def __init__(self, kind: str, name: str, parent=None):
        super().__init__(parent)
        self.kind = kind
        self.setWindowTitle(TITLES[kind])
        self.setObjectName(f"{kind}_gear_dialog")
        spec = DEFAULTS[kind]
        form = QFormLayout()
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        form.addRow("Name", self.name)
        self.fields = {f: QuantityField(LABELS[f], field_range(GearSpec, f), getattr(spec, f), TIPS.get(f, ""))
                       for f in spec.relevant_fields()}
        add_rows(form, self.fields)
        self.position = VectorField("Position", POSITION, (0.0, 0.0, 0.0))
        self.axis = VectorField("Axis", AXIS, (0.0, 0.0, 1.0))
        form.addRow("Position", self.position)
        form.addRow("Axis", self.axis)
        self.derived = QLabel("")
        self.derived.setObjectName("derived")
        self.derived.setWordWrap(True)
        form.addRow("Derived", self.derived)
        self.message = finish_form(self, form)
        self.body = None
        for w in self.fields.values():
            w.edit.editingFinished.connect(self.show_derived)
        self.show_derived()

    def show_derived(self) -> None:
        """The diameters and both modules of the gear as entered, in mm (ISO 21771 names)."""
        try:
            spec = self.spec()
        except FieldError:
            self.derived.setText("")
            return
        if self.kind == "bevel":
            g = bevel_geometry(spec)
            values = {"m": spec.module, "d": 2 * g.pitch_radius, "d_a": 2 * g.outer_tip_radius}
        else:
            g = cylindrical_geometry(spec)
            values = {"m_t": g.transverse_module, "m_n": g.normal_module, "d": 2 * g.pitch_radius,
                      "d_a": 2 * g.tip_radius, "d_f": 2 * g.root_radius, "d_b": 2 * g.base_radius}
        self.derived.setText(", ".join(f"{k} {v * 1e3:.5g} mm" for k, v in values.items()))

    def spec(self) -> GearSpec:
        values = {f: w.value() for f, w in self.fields.items()}
        spec = dataclasses.replace(DEFAULTS[self.kind], **values)
        problems = spec.problems()
        if problems:
            name, msg = problems[0]
            raise FieldError(f"{LABELS.get(name, name)}: {msg}")
        return spec

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
        super().accept()
