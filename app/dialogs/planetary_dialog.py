"""Planetary Gearset wizard: teeth, planets, normal module, helix and width in; sun, carrier, planets, ring,
joints, pairs and (optionally) an input torque on the sun and a load on the carrier out."""

from __future__ import annotations

import math

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, finish_form
from core.commands import AddItem, Macro
from core.geometry.macro import GearSpec
from core.model import builders
from core.errors import ModelError
from core.ranges import DEG, Range, field_range

PLANETS = Range(lo=1, hi=12, integer=True)
TORQUE = Range(lo=0.0, hi=1e6, unit="N m")
HANDS = {"Right": 1.0, "Left": -1.0}


class PlanetaryDialog(QDialog):
    """Checks z_r = z_s + 2 z_p and that (z_s + z_r) / N is whole; `command` adds the whole set as one step.

    The module is the normal module m_n (the set's m_t = m_n / cos(beta)); the sun's hand is chosen, the planets
    take the other and the ring the planets' (an internal mesh has one hand). The input torque acts on the sun
    about +z, the load on the carrier about -z (against the turning the input gives it); 0 leaves either out.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Planetary Gearset")
        self.setObjectName("planetary_dialog")
        teeth = field_range(GearSpec, "teeth")
        self.sun = QuantityField("Sun teeth", teeth, 24)
        self.planet = QuantityField("Planet teeth", teeth, 24)
        self.ring = QuantityField("Ring teeth", teeth, 72)
        self.count = QuantityField("Number of planets", PLANETS, 3)
        self.module = QuantityField("Normal module", field_range(GearSpec, "module"), 0.002,
                                    "Normal module m_n (ISO 21771); the transverse module is m_n / cos(beta)")
        self.width = QuantityField("Gear width", field_range(GearSpec, "face_width"), 0.02)
        self.alpha = QuantityField("Normal pressure angle", field_range(GearSpec, "pressure_angle"), math.radians(20))
        self.beta = QuantityField("Helix angle", Range(lo=0.0, hi=field_range(GearSpec, "helix_angle").hi, **DEG), 0.0,
                                  "Helix angle beta of every gear of the set; 0 for spur gears")
        self.hand = QComboBox()
        self.hand.setObjectName("sun_hand")
        self.hand.addItems(list(HANDS))
        self.hand.setToolTip("Hand of the sun's helix; the planets take the other hand, the ring the planets'")
        self.torque = QuantityField("Input torque on the sun", TORQUE, 1.0,
                                    "A constant torque on the sun's joint about +z; 0 adds none")
        self.load = QuantityField("Load torque on the carrier", TORQUE, 0.0,
                                  "A constant torque on the carrier's joint about -z, against the input; 0 adds none")
        self.hold = QCheckBox("Hold the ring (a 0 rad/s motor on its joint)")
        self.hold.setChecked(True)
        form = QFormLayout()
        for w in (self.sun, self.planet, self.ring, self.count, self.module, self.width, self.alpha, self.beta):
            form.addRow(w.label, w)
        form.addRow("Sun hand", self.hand)
        for w in (self.torque, self.load):
            form.addRow(w.label, w)
        form.addRow(self.hold)
        self.message = finish_form(self, form, QLabel("Coaxial: z_r = z_s + 2 z_p. Assembly: (z_s + z_r) / N whole."))
        self.command = None

    def accept(self) -> None:
        try:
            beta = self.beta.value() * HANDS[self.hand.currentText()]
            items = builders.planetary_set(self.sun.value(), self.planet.value(), self.ring.value(), self.count.value(),
                                           self.module.value() / math.cos(beta), self.width.value(), self.alpha.value(),
                                           helix_angle=beta)
            torque, load = self.torque.value(), self.load.value()
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc).replace("ring_teeth:", "Ring teeth:").replace("planets:", "Number of planets:"))
            return
        if self.hold.isChecked():
            items.append(builders.held_joint("ring_hold", "ring_joint"))
        if torque > 0:
            items.append(builders.constant_torque("sun_torque", "sun_joint", torque))
        if load > 0:
            items.append(builders.constant_torque("carrier_load", "carrier_joint", -load))
        self.command = Macro("Add planetary gearset", [AddItem(i) for i in items])
        super().accept()
