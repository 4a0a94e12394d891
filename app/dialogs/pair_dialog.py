"""Gear Pair dialog: two revolute joints and a carrier, the macro-geometry, derived values and rule checks."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from app.dialogs.fields import FieldError, QuantityField
from core.commands import AddItem, Macro, replace_fields
from core.geometry.macro import pair_geometry
from core.model.entities import GROUND, GearPair, RevoluteJoint
from core.model.validation import validate
from core.ranges import field_range


class GearPairDialog(QDialog):
    """Builds a GearPair; `command` is what OK adds (the pair, and gear 2's move when asked for)."""

    def __init__(self, model, name: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Gear Pair")
        self.setObjectName("pair_dialog")
        self.model = model
        revolutes = [j.name for j in model.joints.values() if isinstance(j, RevoluteJoint)]
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        self.kind.addItems(["external", "internal", "bevel"])
        self.joint1, self.joint2 = QComboBox(), QComboBox()
        self.joint1.setObjectName("joint1")
        self.joint2.setObjectName("joint2")
        self.joint1.addItems(revolutes)
        self.joint2.addItems(revolutes)
        if len(revolutes) > 1:
            self.joint2.setCurrentIndex(1)
        self.carrier = QComboBox()
        self.carrier.setObjectName("carrier")
        self.carrier.addItems([GROUND, *model.bodies])
        self.carrier.setToolTip("The body relative to which the centres of both gears do not move")
        r = lambda f: field_range(GearPair, f)  # noqa: E731
        self.z1 = QuantityField("z1", r("z1"), 20)
        self.z2 = QuantityField("z2", r("z2"), 40)
        self.module = QuantityField("Transverse module", r("module"), 0.002)
        self.alpha = QuantityField("Pressure angle", r("pressure_angle"), math.radians(20))
        self.beta = QuantityField("Helix angle gear 1", r("helix_angle"), 0.0)
        self.gamma = QuantityField("Pitch angle gear 1", r("pitch_angle"), math.atan2(20, 40))
        self.width = QuantityField("Face width", r("face_width"), 0.02)
        form = QFormLayout()
        for label, w in (("Name", self.name), ("Kind", self.kind), ("Rev. joint gear 1", self.joint1),
                         ("Rev. joint gear 2", self.joint2), ("Carrier", self.carrier)):
            form.addRow(label, w)
        for w in (self.z1, self.z2, self.module, self.alpha, self.beta, self.gamma, self.width):
            form.addRow(w.label, w)
        self.derived = QLabel("")
        self.derived.setObjectName("derived")
        self.checks = QLabel("")
        self.checks.setObjectName("checks")
        self.checks.setWordWrap(True)
        self.checks.setStyleSheet("color: #b00020")
        self.move_button = QPushButton("Move gear 2 to the centre distance")
        self.move_button.setObjectName("move_gear2")
        self.move_button.setToolTip("Moves gear 2 and its joint so the axes are the centre distance apart")
        self.move_button.clicked.connect(self._move_gear2)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.derived)
        lay.addWidget(self.checks)
        lay.addWidget(self.move_button)
        lay.addWidget(buttons)
        for w in (self.kind, self.joint1, self.joint2, self.carrier):
            w.currentTextChanged.connect(self.refresh)
        for w in (self.z1, self.z2, self.module, self.alpha, self.beta, self.gamma, self.width):
            w.edit.editingFinished.connect(self.refresh)
        self.moves: list = []
        self.command = None
        self.refresh()

    def pair(self) -> GearPair:
        """The pair as entered; the angle that does not apply to the kind keeps its default."""
        bevel = self.kind.currentText() == "bevel"
        unused = {"helix_angle": 0.0} if bevel else {}
        if bevel:
            unused["pitch_angle"] = self.gamma.value()
        else:
            unused["helix_angle"] = self.beta.value()
        return GearPair(self.name.text().strip(), self.joint1.currentText(), self.joint2.currentText(),
                        self.carrier.currentText(), kind=self.kind.currentText(), z1=self.z1.value(), z2=self.z2.value(),
                        module=self.module.value(), pressure_angle=self.alpha.value(), face_width=self.width.value(),
                        **unused)

    def _trial(self):
        trial = self.model.copy()
        for cmd in self.moves:
            cmd.do(trial)
        return trial

    def refresh(self, *_):
        bevel = self.kind.currentText() == "bevel"
        self.beta.setEnabled(not bevel)
        self.gamma.setEnabled(bevel)
        try:
            pair = self.pair()
            geo = pair_geometry(pair.pair_spec())
        except (FieldError, ValueError) as exc:
            self.derived.setText("")
            self.checks.setText(str(exc))
            return
        if bevel:
            text = (f"gamma2 = 90 - gamma1 = {math.degrees(geo.pitch_angle_2):.4f} deg; atan(z1/z2) = "
                    f"{math.degrees(math.atan2(pair.z1, pair.z2)):.4f} deg; contact ratio {geo.transverse_contact_ratio:.4f}")
        else:
            text = (f"helix angle gear 2 {math.degrees(geo.helix_angle_2):.4g} deg; centre distance "
                    f"{geo.center_distance * 1e3:.6g} mm; contact ratio {geo.transverse_contact_ratio:.4f}"
                    f" (+ overlap {geo.overlap_ratio:.4f})")
        self.derived.setText(text)
        trial = self._trial()
        problems = trial.item_problems(pair)
        if problems:
            self.checks.setText("; ".join(f"{f}: {m}" for f, m in problems))
            return
        trial.gear_pairs[pair.name] = pair
        findings = [f for f in validate(trial) if f.item in (pair.name, pair.joint1, pair.joint2) and f.severity != "info"]
        self.checks.setText("\n".join(f"{f.severity}: {f.message}" for f in findings) or "All gear rules hold.")

    def _move_gear2(self) -> None:
        """Put gear 2's joint (and its gear) where the pair needs it.

        Parallel pairs: at the centre distance from joint 1, along their present
        direction. Bevel pairs (axes already at 90 deg): gear 2's outer pitch
        circle r2 / tan(gamma2) from the apex, which lies r1 / tan(gamma1) along
        joint 1's axis (the axes point towards the apex, as generated gears do).
        """
        try:
            pair = self.pair()
        except FieldError as exc:
            self.checks.setText(str(exc))
            return
        trial = self._trial()
        j1, j2 = trial.joints[pair.joint1], trial.joints[pair.joint2]
        a1, a2 = j1.unit_axis(), j2.unit_axis()
        p1, p2 = np.asarray(j1.position), np.asarray(j2.position)
        r1, r2 = pair.pitch_radii()
        if pair.kind == "bevel":
            if abs(a1 @ a2) > 1e-9:
                self.checks.setText("Turn gear 2's axis to 90 deg from gear 1's first; then it can be moved to the apex.")
                return
            apex = p1 + a1 * r1 / math.tan(pair.pitch_angle)
            target = apex - a2 * r2 / math.tan(math.pi / 2 - pair.pitch_angle)
        else:
            need = r1 + r2 if pair.kind == "external" else r2 - r1
            d = p2 - p1
            d_perp = d - a1 * (a1 @ d)
            if np.linalg.norm(d_perp) > 1e-12:
                u = d_perp / np.linalg.norm(d_perp)
            else:
                u = np.cross(a1, [0.0, 0.0, 1.0] if abs(a1[2]) < 0.9 else [1.0, 0.0, 0.0])
                u /= np.linalg.norm(u)
            target = p1 + a1 * (a1 @ d) + need * u
        shift = target - p2
        gear = trial.bodies[j2.body_j]
        self.moves += [replace_fields(trial, j2.body_j, position=tuple(np.asarray(gear.position) + shift)),
                       replace_fields(trial, j2.name, position=tuple(target))]
        self.refresh()

    def accept(self) -> None:
        try:
            pair = self.pair()
        except FieldError as exc:
            self.checks.setText(str(exc))
            return
        problems = self._trial().item_problems(pair)
        if problems:
            self.checks.setText("; ".join(f"{f}: {m}" for f, m in problems))
            return
        self.command = Macro(f"Add gear pair {pair.name}", [*self.moves, AddItem(pair)])
        super().accept()
