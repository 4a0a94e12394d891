"""Planetary Gearset wizard: teeth, planets, normal module, helix and width in (with a sketch of the set as they
stand); sun, carrier, planets, ring, joints, pairs (with a mesh efficiency) and (optionally) an input torque on the
sun, a load on the carrier and compliant meshes out."""

from __future__ import annotations

import math

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, WarningLines, finish_form, follow_keys
from app.dialogs.gear_entries import HANDS, hand_follows
from app.dialogs.pair_dialog import ERROR_STYLE, OK_STYLE
from app.dialogs.planetary_sketch import PlanetarySketch
from core.commands import AddItem, Macro
from core.geometry.macro import GearSpec
from core.model.entities import GearPair
from core.model import builders
from core.errors import ModelError
from core.ranges import DEG, Range, field_range

PLANETS = Range(lo=1, hi=12, integer=True)
TORQUE = Range(lo=0.0, hi=1e6, unit="N m")


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
        self.width = QuantityField("Face width", field_range(GearSpec, "face_width"), 0.02)
        self.alpha = QuantityField("Normal pressure angle", field_range(GearSpec, "pressure_angle"), math.radians(20))
        self.beta = QuantityField("Helix angle", Range(lo=0.0, hi=field_range(GearSpec, "helix_angle").hi, **DEG), 0.0,
                                  "Helix angle beta of every gear of the set; 0 for spur gears")
        self.hand = QComboBox()
        self.hand.setObjectName("sun_hand")
        self.hand.addItems(list(HANDS))
        self.hand.setToolTip("Hand of the sun's helix; the planets take the other hand, the ring the planets'")
        hand_follows(self.beta, self.hand)
        self.torque = QuantityField("Input torque on the sun", TORQUE, 1.0,
                                    "A constant torque on the sun's joint about +z; 0 adds none")
        self.load = QuantityField("Load torque on the carrier", TORQUE, 0.0,
                                  "A constant torque on the carrier's joint about -z, against the input; 0 adds none")
        self.efficiency = QuantityField("Mesh efficiency", field_range(GearPair, "efficiency"), 1.0,
                                        "The efficiency of every sun-planet and planet-ring mesh, both ways of power "
                                        "flow, in the carrier's frame (Modelica's LossyGear, with its stuck phases); "
                                        "1: lossless")
        self.hold = QCheckBox("Hold the ring (a 0 rad/s motor on its joint)")
        self.hold.setChecked(True)
        self.compliant = QCheckBox("Compliant meshes (ISO 6336 stiffness on every pair)")
        self.compliant.setObjectName("compliant_meshes")
        self.compliant.setToolTip("A Compliant Mesh on each sun-planet and planet-ring pair: the teeth deflect "
                                  "under load (transmission error, mesh forces); the model check then says the time "
                                  "step their mesh modes need, or switches to adaptive steps on a double-click")
        form = QFormLayout()
        geometry = (self.sun, self.planet, self.ring, self.count, self.module, self.width, self.alpha, self.beta)
        for w in geometry:
            form.addRow(w.label, w)
        form.addRow("Sun hand", self.hand)
        for w in (self.torque, self.load, self.efficiency):
            form.addRow(w.label, w)
        form.addRow(self.hold)
        form.addRow(self.compliant)
        self.derived = QLabel()
        self.derived.setObjectName("derived")
        self.derived.setWordWrap(True)
        self.derived.setMinimumHeight(3 * self.derived.fontMetrics().lineSpacing())  # a broken condition's lines
        form.addRow(self.derived)
        self.teeth_check = WarningLines("teeth_check")  # a sun or planet the rack undercuts
        form.addRow(self.teeth_check)
        self.sketch = PlanetarySketch()
        form.addRow("Seen from +z", self.sketch)
        self.message = finish_form(self, form, QLabel("Coaxial: z_r = z_s + 2 z_p. Assembly: (z_s + z_r) / N whole. "
                                                      "Neighbours: the planets' tips clear each other."))
        for w in (*geometry, self.torque, self.load, self.efficiency):
            w.edit.editingFinished.connect(self.show_derived)
        follow_keys((*geometry, self.torque, self.load, self.efficiency), self.show_derived)
        self.hand.currentTextChanged.connect(self.show_derived)
        self.show_derived()
        self.command = None

    def _set(self) -> tuple:
        """The set's teeth, planets, transverse module [m], width [m], pressure angle and signed helix angle [rad]
        (FieldError naming an entry out of range)."""
        beta = self.beta.value() * HANDS[self.hand.currentText()]
        return (self.sun.value(), self.planet.value(), self.ring.value(), self.count.value(),
                self.module.value() / math.cos(beta), self.width.value(), self.alpha.value(), beta)

    def show_derived(self) -> None:
        """The ratio and the centre distance as the entries stand, or the first condition they break: an entry of
        the set out of its range, the set's conditions, then a torque out of its range (the set is still drawn)."""
        try:
            zs, zp, zr, n, mt, b, alpha, beta = self._set()
        except FieldError as exc:
            self.derived.setText(str(exc))
            self.derived.setStyleSheet(ERROR_STYLE)
            self.sketch.clear()
            return
        self.sketch.show_set(zs, zp, zr, n, mt, alpha, beta)
        problems = [self._named("{}: {}".format(*p)) for p in builders.planetary_problems(zs, zp, zr, n, mt, alpha, beta)]
        for field in (self.torque, self.load, self.efficiency):
            try:
                field.value()
            except FieldError as exc:
                problems.append(str(exc))
        if problems:
            self.derived.setText(problems[0])
        else:
            self.derived.setText(f"ratio sun to carrier with the ring held 1 + z_r / z_s = {1 + zr / zs:.6g}; centre "
                                 f"distance a = {builders.carrier_arm(mt, zs, zp) * 1e3:.6g} mm"
                                 f"{self._efficiency(zs, zr)}; every condition holds")
        self.derived.setStyleSheet(ERROR_STYLE if problems else OK_STYLE)
        self.teeth_check.show_lines(builders.planetary_tooth_warnings(zs, zp, mt, alpha, beta))

    def _efficiency(self, zs: int, zr: int) -> str:
        """The set's efficiency with the ring held both ways, for lossy meshes ('' for lossless ones)."""
        eta = self.efficiency.value()
        if eta == 1.0:
            return ""
        forwards, back = builders.planetary_efficiency(zs, zr, eta)
        return (f"; efficiency with the ring held (Willis, eta0 = {eta ** 2:.6g}) {forwards:.4g} sun to carrier, "
                f"{back:.4g} carrier to sun")

    @staticmethod
    def _named(text: str) -> str:
        """A builder's message with the dialog's names of its fields."""
        return text.replace("ring_teeth:", "Ring teeth:").replace("planets:", "Number of planets:")

    def accept(self) -> None:
        try:
            zs, zp, zr, n, mt, b, alpha, beta = self._set()
            items = builders.planetary_set(zs, zp, zr, n, mt, b, alpha, helix_angle=beta,
                                           efficiency=self.efficiency.value())
            torque, load = self.torque.value(), self.load.value()
        except (FieldError, ModelError) as exc:
            self.message.setText(self._named(str(exc)))
            return
        if self.compliant.isChecked():
            items += builders.compliant_meshes(items)
        if self.hold.isChecked():
            items.append(builders.held_joint("ring_hold", "ring_joint"))
        if torque > 0:
            items.append(builders.constant_torque("sun_torque", "sun_joint", torque))
        if load > 0:
            items.append(builders.constant_torque("carrier_load", "carrier_joint", -load))
        self.command = Macro("Add planetary gearset", [AddItem(i) for i in items])
        super().accept()
