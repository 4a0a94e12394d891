"""Gear Pair dialog: two revolute joints and a carrier, the macro-geometry, derived values and rule checks."""

from __future__ import annotations

import math

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

from app.dialogs.fields import FieldError, QuantityField, follow_keys
from app.dialogs.gear_entries import NORMAL_MODULE, OUTER_MODULE
from app.dialogs.pair_note import pair_note
from core.commands import AddItem, Macro
from core.dynamics.checks import check
from core.errors import ModelError
from core.gearing.bearings import mesh_for
from core.gearing.compound import stage_on_shaft
from core.gearing.gear_bodies import own_axis_joint
from core.gearing.pair_gears import pair_values_from_gear
from core.gearing.placement import gears_on, likely_joints, place_gear2, teeth_bodies
from core.geometry.macro import bevel_face_width_limit, bevel_pitch_angle
from core.geometry.tooth_checks import pair_tooth_warnings
from core.model.builders import AXIAL_CLEARANCE, above, pair_bodies
from core.model.entities import GROUND, CompliantMesh, GearPair, GearSource, RevoluteJoint
from core.ranges import field_range

ERROR_STYLE = "color: #b00020"
OK_STYLE = "color: #1b7f3a"


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
        self._start_on(model)
        self.teeth1, self.teeth2 = QComboBox(), QComboBox()  # a compound shaft: which of its gears meshes
        for k, combo in ((1, self.teeth1), (2, self.teeth2)):
            combo.setObjectName(f"gear{k}_body")
            combo.setToolTip(f"The body whose teeth mesh: the joint's body, or a gear welded to it (gear{k})")
        self.carrier = QComboBox()
        self.carrier.setObjectName("carrier")
        self.carrier.addItems([GROUND, *model.bodies])
        self.carrier.setToolTip("The body relative to which the centres of both gears do not move")
        r = lambda f: field_range(GearPair, f)  # noqa: E731
        self.z1 = QuantityField("z1", r("z1"), 20)
        self.z2 = QuantityField("z2", r("z2"), 40)
        self.module = QuantityField(
            NORMAL_MODULE, r("module"), 0.002,
            "Normal module m_n (ISO 21771), in the section normal to the teeth, as catalogues give it; the pair keeps "
            "the transverse module m_t = m_n / cos(beta), shown below (a straight bevel pair: its outer module)")
        self.alpha = QuantityField("Normal pressure angle", r("pressure_angle"), math.radians(20))
        self.beta = QuantityField("Helix angle gear 1", r("helix_angle"), 0.0)
        self.gamma = QuantityField("Pitch angle gear 1", r("pitch_angle"), math.atan2(20, 40))
        self.width = QuantityField("Face width", r("face_width"), 0.02)
        self.efficiency = QuantityField("Efficiency", r("efficiency"), 1.0,
                                        "Mesh efficiency, both ways of power flow (Modelica's LossyGear, with its "
                                        "stuck phases at rest); 1: lossless. Bearing friction and a loss table over "
                                        "speed: in the pair's properties")
        form = self.form = QFormLayout()
        for label, w in (("Name", self.name), ("Kind", self.kind), ("Rev. joint gear 1", self.joint1),
                         ("Gear 1 teeth on", self.teeth1), ("Rev. joint gear 2", self.joint2),
                         ("Gear 2 teeth on", self.teeth2), ("Carrier", self.carrier)):
            form.addRow(label, w)
        for w in (self.z1, self.z2, self.module, self.alpha, self.beta, self.gamma, self.width, self.efficiency):
            form.addRow(w.label, w)
        self.derived = QLabel("")
        self.derived.setObjectName("derived")
        self.derived.setWordWrap(True)  # a long line pushed the dialog 250 px wider under the pointer
        self.checks = QLabel("")
        self.checks.setObjectName("checks")
        self.checks.setWordWrap(True)
        self.checks.setStyleSheet(ERROR_STYLE)
        self.move_button = QPushButton("Move gear 2 into mesh")
        self.move_button.setObjectName("move_gear2")
        self.move_button.setToolTip("Moves gear 2 and its joint to the centre distance (bevel: onto the apex) and turns "
                                    "gear 2 so its teeth sit in gear 1's spaces")
        self.move_button.clicked.connect(self._move_gear2)
        self.joints_button = QPushButton("Create revolute joints to the ground for the gears without one")
        self.joints_button.setObjectName("create_joints")
        self.joints_button.setToolTip("A revolute joint on each generated gear's axis, at its centre, to the ground")
        self.joints_button.clicked.connect(self._create_joints)
        self.joints_button.setVisible(bool(unjointed_gears(model)))
        self.generate_button = QPushButton("Generate both gears from these entries")
        self.generate_button.setObjectName("generate_gears")
        self.generate_button.setToolTip("Two generated gears with the teeth, module, angles and face width above, each "
                                        "on a revolute joint to the ground, gear 2 moved into mesh; OK adds them with "
                                        "the pair, as one undo step")
        self.generate_button.clicked.connect(self._generate_gears)
        self.generate_button.setVisible(self.joint2.count() < 2 and self.joints_button.isHidden())
        self.stage_button = QPushButton()
        self.stage_button.setObjectName("generate_stage")
        self.stage_button.setToolTip("The next stage of a train: gear 1 generated from the entries and welded to the "
                                     "shaft of 'Rev. joint gear 1', beyond its gears along the axis; gear 2 generated "
                                     "on a revolute joint of its own, in mesh, on the side away from the shaft's other "
                                     "mates (a bevel pair: across the shaft, a right angle); both at the shaft's "
                                     "speeds. OK adds them with the pair, as one undo step")
        self.stage_button.clicked.connect(self._generate_stage)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.derived)
        lay.addWidget(self.checks)
        lay.addWidget(self.joints_button)
        lay.addWidget(self.generate_button)
        lay.addWidget(self.stage_button)
        lay.addWidget(self.move_button)
        lay.addWidget(buttons)
        self.kind.currentTextChanged.connect(self._pitch_from_teeth)  # before the refresh, as the teeth's
        self.kind.currentTextChanged.connect(self._bevel_width)
        self._width_typed = False  # a face width the user typed is kept as typed
        self.width.edit.textEdited.connect(lambda _: setattr(self, "_width_typed", True))
        for w in (self.kind, self.joint1, self.joint2, self.carrier):
            w.currentTextChanged.connect(self.refresh)
        for w in (self.joint1, self.joint2):
            w.currentTextChanged.connect(self._teeth_choices)
        for w in (self.teeth1, self.teeth2):
            w.currentTextChanged.connect(self._from_generators)
        self.gamma.edit.setToolTip(self.gamma.edit.toolTip() + "; atan(z1/z2), as the 90 deg shaft angle of a bevel "
                                   "pair has it: it follows the teeth as they are typed")
        for w in (self.z1, self.z2):  # before the refresh: the pitch angle follows the teeth
            w.edit.editingFinished.connect(self._pitch_from_teeth)
        numbers = (self.z1, self.z2, self.module, self.alpha, self.beta, self.gamma, self.width, self.efficiency)
        for w in numbers:
            w.edit.editingFinished.connect(self.refresh)
        follow_keys((self.z1, self.z2), self._pitch_from_teeth)  # and each key as well, in the same order
        follow_keys(numbers, self.refresh)
        self.name.editingFinished.connect(self.refresh)  # the rules' words and a mesh's name follow the pair's
        self.moves: list = []
        self.command = None
        self._teeth_choices()

    def pair(self) -> GearPair:
        """The pair as entered; the angle that does not apply to the kind keeps its default."""
        bevel = self.kind.currentText() == "bevel"
        unused = {"helix_angle": 0.0} if bevel else {}
        if bevel:
            unused["pitch_angle"] = self.gamma.value()
        else:
            unused["helix_angle"] = self.beta.value()
        if self.kind.currentText() == "external":  # profile shifts come from the generated gears (edit in the dock)
            unused["x1"], unused["x2"] = getattr(self, "shifts", (0.0, 0.0))
        joints = self._trial().joints  # the joints this dialog created are there
        for k, combo, joint in ((1, self.teeth1, self.joint1), (2, self.teeth2, self.joint2)):
            carried = joints.get(joint.currentText())
            if combo.currentText() and carried is not None and combo.currentText() != carried.body_j:
                unused[f"gear{k}"] = combo.currentText()
        module = self.module.value() / math.cos(unused["helix_angle"])  # m_t from the m_n typed
        return GearPair(self.name.text().strip(), self.joint1.currentText(), self.joint2.currentText(),
                        self.carrier.currentText(), kind=self.kind.currentText(), z1=self.z1.value(), z2=self.z2.value(),
                        module=module, pressure_angle=self.alpha.value(), face_width=self.width.value(),
                        efficiency=self.efficiency.value(), **unused)

    def _trial(self):
        trial = self.model.copy()
        for cmd in self.moves:
            cmd.do(trial)
        return trial

    def _pitch_from_teeth(self, *_) -> None:
        """A bevel pair's pitch angle from its teeth, atan(z1/z2), the one a 90 deg shaft angle allows (teeth that
        are not numbers leave it, for the check to name)."""
        if self.kind.currentText() != "bevel":
            return
        try:
            self.gamma.set_si(bevel_pitch_angle(self.z1.value(), self.z2.value()))
        except FieldError:
            return

    def _bevel_width(self, *_) -> None:
        """A bevel pair's face width starts within what straight bevel gears are made with (whole mm, at most
        core.geometry.macro.bevel_face_width_limit), unless the user typed one: a cylindrical pair's default is
        too wide for a bevel pair of the same module."""
        if self.kind.currentText() != "bevel" or self._width_typed:
            return
        try:
            limit, _ = bevel_face_width_limit(self.module.value(), self.z1.value(), self.gamma.value())
            if self.width.value() > limit:
                self.width.set_si(max(math.floor(limit * 1e3), 1) * 1e-3)
        except (FieldError, ValueError, ZeroDivisionError):
            return  # entries that are not numbers yet: the checks name them

    def refresh(self, *_):
        self._stage_choice()
        self._check()
        if self.isVisible():  # the height the findings need at this width: rows are not squeezed to fit them
            lay, wide = self.layout(), self.size().width()  # (self.width is the face width's field)
            self.resize(wide, lay.totalHeightForWidth(wide) if lay.hasHeightForWidth() else lay.totalSizeHint().height())

    def _check(self) -> None:
        """The derived values and the rule checks of the pair as entered."""
        bevel = self.kind.currentText() == "bevel"
        self.form.setRowVisible(self.beta, not bevel)  # only the angle that applies to the kind
        self.form.setRowVisible(self.gamma, bevel)
        self.module.label = OUTER_MODULE if bevel else NORMAL_MODULE  # a straight bevel pair's, at the heel
        self.form.labelForField(self.module).setText(self.module.label)
        self.move_button.setEnabled(self.joint2.count() >= 2)
        if self.joint2.count() < 2:  # a pair needs two revolute joints: say how to get them first
            how = ("press 'Create revolute joints' below" if not self.joints_button.isHidden() else
                   "press 'Generate both gears' below, or generate the gears (Gears menu) and put each on a revolute "
                   "joint (Model > Revolute Joint)")
            how += " first"
            if self.stage_button.isVisibleTo(self):  # a shaft on a joint: its gear and the mate can be made for it
                how += f"; or press '{self.stage_button.text()}' for a pinion on that shaft and its wheel"
            self.derived.setText("")
            self.checks.setText(f"A gear pair joins two gears on revolute joints; the model has "
                                f"{self.joint2.count()}: {how}.")
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        try:
            pair = self.pair()
            text = pair_note(self.model, pair)
        except (FieldError, ValueError) as exc:
            self.derived.setText("")
            self.checks.setText(str(exc))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        self.derived.setText(text)
        teeth = [f"warning: {text}" for text in pair_tooth_warnings(pair.pair_spec())]  # the pair's own teeth
        joined = [p.name for p in self.model.gear_pairs.values() if {p.joint1, p.joint2} == {pair.joint1, pair.joint2}]
        if joined and self.stage_button.isVisibleTo(self):  # the rules of a pair that duplicates one would say little
            self.checks.setText("\n".join([f"{pair.joint1} and {pair.joint2} are joined by '{joined[0]}' already: "
                                           f"choose other joints, or press '{self.stage_button.text()}' for the next "
                                           "stage of the train", *teeth]))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        trial = self._trial()
        problems = trial.item_problems(pair)
        if problems:
            self.checks.setText("; ".join(f"{f}: {m}" for f, m in problems))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        trial.gear_pairs[pair.name] = pair
        found = check(trial)
        mesh = with_mesh(trial, pair, found)
        if mesh is not None:  # the rules again, on the pair with its mesh
            found = check(trial)
        findings = [f"{f.severity}: {f.message}" for f in found
                    if f.item in (pair.name, pair.joint1, pair.joint2) and f.severity != "info"]
        findings += teeth
        notes = [f"A gear of the pair rides on its bearing (its centre moves): OK adds the Compliant Mesh "
                 f"{mesh.name!r} (ISO 6336 stiffness) with the pair"] if mesh else []
        self.checks.setText("\n".join(findings + notes) or "All gear rules hold.")
        self.checks.setStyleSheet(ERROR_STYLE if findings else OK_STYLE)

    def _create_joints(self) -> None:
        """Revolute joints to the ground for the generated gears that have none, added with the pair."""
        trial = self._trial()
        made = []
        for gear in unjointed_gears(trial):
            cmd = AddItem(own_axis_joint(trial, gear))
            cmd.do(trial)
            self.moves.append(cmd)
            made.append(cmd.item.name)
        for combo in (self.joint1, self.joint2):
            combo.blockSignals(True)
            combo.addItems(made)
            combo.blockSignals(False)
        self._start_on(trial)
        self.joints_button.setVisible(False)
        self._teeth_choices()

    def _generate_gears(self) -> None:
        """Both gears from the entries (core.model.builders.pair_bodies), each on a joint to the ground, gear 2 moved
        into mesh: added with the pair."""
        try:
            pair = self.pair()
            trial = self._trial()
            first = trial.numbered("gear")
            bodies = above(trial, pair_bodies(pair, (first, trial.numbered("gear", also=[first]))),
                           AXIAL_CLEARANCE * pair.face_width)  # clear of the bodies the model has
        except (FieldError, ModelError) as exc:
            self.checks.setText(str(exc))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        self.moves += [AddItem(body) for body in bodies]
        self.generate_button.setVisible(False)
        self._create_joints()
        self._move_gear2()

    def _generate_stage(self) -> None:
        """A new stage on joint 1's shaft (core.gearing.compound.stage_on_shaft): its gears and joints, added with
        the pair; the pair joins the shaft's joint and gear 2's new one, its teeth on the welded gear."""
        try:
            commands, staged = stage_on_shaft(self._trial(), self.pair())
        except (FieldError, ModelError) as exc:
            self.checks.setText(str(exc))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        self.moves += commands
        for combo in (self.joint1, self.joint2):
            combo.blockSignals(True)
            combo.addItem(staged.joint2)
            combo.blockSignals(False)
        self.joint2.setCurrentText(staged.joint2)  # its teeth choices follow: the welded gear and gear 2
        self.generate_button.setVisible(False)
        self.refresh()

    def _stage_choice(self, *_) -> None:
        """The stage button names the shaft it builds on (joint 1's body); shown while joint 1 has one and this
        dialog has made or moved nothing yet (its gears are the pair's)."""
        joint = self._trial().joints.get(self.joint1.currentText())
        self.stage_button.setVisible(joint is not None and not self.moves)
        if joint is not None:
            self.stage_button.setText(f"Generate a stage on {joint.body_j}'s shaft")

    def _start_on(self, model) -> None:
        """Start on the two joints the pair most likely joins (core.gearing.placement.likely_joints)."""
        likely = likely_joints(model)
        if likely is not None:
            for combo, name in zip((self.joint1, self.joint2), likely):
                combo.blockSignals(True)
                combo.setCurrentText(name)
                combo.blockSignals(False)

    def _move_gear2(self) -> None:
        """Put gear 2's joint and gear where the pair needs them and turn the gear into mesh (core.gearing.placement)."""
        try:
            pair = self.pair()
            self.moves += place_gear2(self._trial(), pair)
        except (FieldError, ModelError) as exc:
            self.checks.setText(str(exc))
            self.checks.setStyleSheet(ERROR_STYLE)
            return
        self.refresh()

    def _teeth_choices(self, *_) -> None:
        """Each joint's gears (its body and the gears welded to it), the two that meet chosen
        (core.gearing.placement.teeth_bodies); a row only where a joint carries more than one."""
        trial = self._trial()
        one, two = self.joint1.currentText(), self.joint2.currentText()
        ready = one in trial.joints and two in trial.joints
        chosen = teeth_bodies(trial, one, two) if ready and one != two else ("", "")
        for combo, joint, pick in ((self.teeth1, one, chosen[0]), (self.teeth2, two, chosen[1])):
            combo.blockSignals(True)
            combo.clear()
            if joint in trial.joints:
                combo.addItems(gears_on(trial, joint))
            combo.setCurrentText(pick)
            combo.blockSignals(False)
            self.form.setRowVisible(combo, combo.count() > 1)
        self._from_generators()

    def _from_generators(self, *_) -> None:
        """Fill z, module, pressure and helix (or pitch) angles and profile shifts from the gears' generator data
        (core.gearing.pair_gears.pair_values_from_gear): both gears' where both were generated, the one gear's
        where the other was imported (its teeth are then typed). A ring chosen on joint 1 goes to joint 2, where
        an internal pair has it."""
        bodies = [self.model.bodies.get(combo.currentText()) for combo in (self.teeth1, self.teeth2)]
        specs = [b.visual.spec if b is not None and isinstance(b.visual, GearSource) else None for b in bodies]
        s1, s2 = specs
        if s1 is not None and s1.kind == "inner" and (s2 is None or s2.kind != "inner"):
            one, two = self.joint1.currentText(), self.joint2.currentText()  # the ring on joint 2, the pinion on 1
            for combo, text in ((self.joint1, two), (self.joint2, one)):
                combo.blockSignals(True)
                combo.setCurrentText(text)
                combo.blockSignals(False)
            self._teeth_choices()  # the gears follow their joints
            return
        known = [(k, spec) for k, spec in ((2, s2), (1, s1)) if spec is not None]  # gear 1's own values last
        if known:
            values = {f: v for k, spec in known for f, v in pair_values_from_gear(spec, k).items()}
            bevel = "pitch_angle" in values
            if bevel or s2 is not None:
                self.kind.setCurrentText("bevel" if bevel else "internal" if s2.kind == "inner" else "external")
            for k in (1, 2):
                if f"z{k}" in values:
                    (self.z1 if k == 1 else self.z2).set_si(values[f"z{k}"])
            self.module.set_si(values["module"] * math.cos(values.get("helix_angle", 0.0)))  # m_n, as typed
            self.alpha.set_si(values["pressure_angle"])
            self.width.set_si(min(spec.face_width for _, spec in known))
            self.shifts = (values.get("x1", 0.0), values.get("x2", 0.0))
            if bevel:
                self.gamma.set_si(values["pitch_angle"])
            else:
                self.beta.set_si(values["helix_angle"])
        self.refresh()

    def accept(self) -> None:
        try:
            pair = self.pair()
        except FieldError as exc:
            self.checks.setText(str(exc))
            return
        trial = self._trial()
        problems = trial.item_problems(pair)
        if problems:
            self.checks.setText("; ".join(f"{f}: {m}" for f, m in problems))
            return
        trial.gear_pairs[pair.name] = pair
        mesh = with_mesh(trial, pair, check(trial))
        self.command = Macro(f"Add gear pair {pair.name}",
                             [*self.moves, AddItem(pair), *([AddItem(mesh)] if mesh else [])])
        super().accept()


def with_mesh(trial, pair: GearPair, found) -> CompliantMesh | None:
    """The Compliant Mesh `pair` needs where a gear of it rides on its bearing (the 'compliant_mesh' fix among
    `found`, the check's findings on `trial`, the model with the pair), added to `trial`; None where it needs
    none."""
    if not any(f.item == pair.name and f.fix == "compliant_mesh" for f in found):
        return None
    mesh = mesh_for(trial, pair.name)
    trial.forces[mesh.name] = mesh
    return mesh


def unjointed_gears(model) -> list[str]:
    """The generated gears of `model` that no revolute joint carries (as its body_j), neither directly nor through a
    body they are welded to; of gears welded together, the first only (a compound shaft turns on one joint)."""
    carried = {j.body_j for j in model.joints.values() if isinstance(j, RevoluteJoint)}
    found: list[str] = []
    for name, body in model.bodies.items():
        if isinstance(body.visual, GearSource) and not model.rigid_piece(name) & (carried | set(found)):
            found.append(name)
    return found
