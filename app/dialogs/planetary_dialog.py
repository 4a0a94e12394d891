"""Planetary Gearset wizard: teeth, planets, module and width in; sun, carrier, planets, ring, joints and pairs out."""

from __future__ import annotations

import math

from PySide6.QtWidgets import QCheckBox, QDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, finish_form
from core.commands import AddItem, Macro
from core.geometry.macro import GearSpec
from core.model import builders
from core.errors import ModelError
from core.ranges import Range, field_range

PLANETS = Range(lo=1, hi=12, integer=True)


class PlanetaryDialog(QDialog):
    """Checks z_r = z_s + 2 z_p and that (z_s + z_r) / N is whole; `command` adds the whole set as one step."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Planetary Gearset")
        self.setObjectName("planetary_dialog")
        teeth = field_range(GearSpec, "teeth")
        self.sun = QuantityField("Sun teeth", teeth, 24)
        self.planet = QuantityField("Planet teeth", teeth, 24)
        self.ring = QuantityField("Ring teeth", teeth, 72)
        self.count = QuantityField("Number of planets", PLANETS, 3)
        self.module = QuantityField("Module (transverse)", field_range(GearSpec, "module"), 0.002)
        self.width = QuantityField("Gear width", field_range(GearSpec, "face_width"), 0.02)
        self.alpha = QuantityField("Normal pressure angle", field_range(GearSpec, "pressure_angle"), math.radians(20))
        self.hold = QCheckBox("Hold the ring (a 0 rad/s motor on its joint)")
        self.hold.setChecked(True)
        form = QFormLayout()
        for w in (self.sun, self.planet, self.ring, self.count, self.module, self.width, self.alpha):
            form.addRow(w.label, w)
        form.addRow(self.hold)
        self.message = finish_form(self, form, QLabel("Coaxial: z_r = z_s + 2 z_p. Assembly: (z_s + z_r) / N whole."))
        self.command = None

    def accept(self) -> None:
        try:
            items = builders.planetary_set(self.sun.value(), self.planet.value(), self.ring.value(), self.count.value(),
                                           self.module.value(), self.width.value(), self.alpha.value())
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc).replace("ring_teeth:", "Ring teeth:").replace("planets:", "Number of planets:"))
            return
        if self.hold.isChecked():
            items.append(builders.held_joint("ring_hold", "ring_joint"))
        self.command = Macro("Add planetary gearset", [AddItem(i) for i in items])
        super().accept()
