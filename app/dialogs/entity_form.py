"""A form for any model entity, built from its dataclass fields: the same widgets in the Add dialogs and the property dock.

A field's widget follows what the field declares: a range (a number in the
unit people type, checked against the range), a vector (three numbers), a
list of choices, a reference to another item (the items of the right kind), a
time law (the law editor), a switch. Labels are shared here so a field reads
the same everywhere.
"""

from __future__ import annotations

import dataclasses
import typing

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.dialogs.mode_notes import bearing_note, torsion_note
from app.dialogs.fields import AxisAngleField, FieldError, QuantityField, VectorField, finish_form, follow_keys
from app.dialogs.law_editor import LawEditor
from app.dialogs.mesh_note import mesh_note
from app.dialogs.joint_law_notes import motor_note, torque_note
from app.dialogs.pair_note import pair_note
from app.dialogs.spring_note import spring_note
from core.model.builders import selection_defaults
from core.model.entities import (GROUND, BearingSpringDamper, CompliantMesh, GearPair, RevoluteJoint, SpeedMotor,
                                 SpringDamper, TimeLaw, Torque, TorsionalSpringDamper)
from core import ranges
from core.ranges import Range

LABELS = {
    "body_i": "Body I", "body_j": "Body J", "joint": "Revolute joint", "pair": "Gear pair",
    "point_i": "Point on body I (body axes)", "point_j": "Point on body J (body axes)",
    "position": "Position", "axis": "Axis", "stiffness": "Stiffness", "damping": "Damping",
    "free_length": "Free length", "angle0": "Angle at rest",
    "radial_stiffness": "Radial stiffness", "radial_damping": "Radial damping",
    "axial_stiffness": "Axial stiffness", "axial_damping": "Axial damping",
    "tilt_stiffness": "Tilt stiffness", "tilt_damping": "Tilt damping",
    "k_mean": "Mean mesh stiffness", "k_amplitude": "Stiffness amplitude", "waveform": "Stiffness waveform",
    "law": "Law", "t_end": "End time", "step": "Time step", "output_step": "Output step", "integrator": "Integrator",
    "rtol": "Relative tolerance", "atol": "Absolute tolerance", "rho_inf": "rho_inf (spectral radius at infinity)",
    "baumgarte_alpha": "Baumgarte alpha", "baumgarte_beta": "Baumgarte beta", "gravity": "Gravity",
    "static_equilibrium": "Start from static equilibrium", "formulation": "Formulation",
    "drift_tolerance": "Drift tolerance (of the module)",
    "mass": "Mass", "com": "Centre of mass (body axes)", "velocity": "Initial velocity",
    "angular_velocity": "Initial angular velocity", "orientation": "Orientation (axis, angle)",
    "pressure_angle": "Normal pressure angle", "helix_angle": "Helix angle", "pitch_angle": "Pitch angle",
    "module": "Transverse module", "face_width": "Face width", "stabilise": "Stabilise the phase (Baumgarte)",
    "teeth": "Number of teeth", "bore_diameter": "Bore diameter", "rim_diameter": "Outer rim diameter",
    "density": "Density", "profile_shift": "Profile shift x", "x1": "Profile shift x1", "x2": "Profile shift x2",
    "gear1": "Gear 1 body (if welded to the shaft)", "gear2": "Gear 2 body (if welded to the shaft)",
    "damping_model": "Damping model", "damping_ratio": "Damping ratio",
    "backlash": "Backlash (line of action)",
    "on_bearing": "Carried by a bearing (the joint keeps its axis)",
}
TIPS = {
    "drift_tolerance": "A run stops as failed when a gear phase drift or joint error exceeds this share of the "
                      "smallest module (in rad for axis and motor angle errors)",
    "waveform": "involute: single/double contact from the contact ratio, smoothed by the overlap ratio",
    "damping_model": "ratio: a share of critical damping for the mean stiffness; constant: Damping in N s/m",
    "gear1": "Leave empty when the joint's body carries the teeth",
    "gear2": "Leave empty when the joint's body carries the teeth",
    "body_i": "Body I: the carrier or housing (the reaction acts on it)",
    "body_j": "Body J: the gear or shaft",
    "on_bearing": "A Bearing Spring-Damper between the same bodies holds body J; the joint holds nothing and keeps "
                  "the axis its gear pairs, torques and motors act about (its gear pairs need compliant meshes)",
    "k_mean": "Along the line of action: the mean, or the single-pair stiffness of the rectangular wave",
    "rho_inf": "1 keeps every mode undamped; 0 damps the unresolved ones in one step",
    "output_step": "Spacing of the output samples; finer than the time step is interpolated",
    "formulation": "joint: one angle per joint of the tree; cartesian: 6 per body; auto: joint when it applies",
}
REFERENCE_KINDS = {"body": lambda m: [GROUND, *m.bodies],
                   "optional body": lambda m: ["", *m.bodies],
                   "revolute": lambda m: [j.name for j in m.joints.values() if isinstance(j, RevoluteJoint)],
                   "gear pair": lambda m: [p.name for p in m.gear_pairs.values() if isinstance(p, GearPair)]}
HIDDEN = {"inertia", "visual", "frames", "table"}
RPM = Range(**ranges.RPM)
#: a note under an add dialog's form, and in Properties, on what the item makes: {kind: (heading, note(model, item))}
NOTES = {CompliantMesh: ("As run", mesh_note), GearPair: ("Derived", pair_note),
         SpeedMotor: ("Joint speed", motor_note), Torque: ("Direction", torque_note),
         SpringDamper: ("At the start", spring_note), BearingSpringDamper: ("Modes", bearing_note),
         TorsionalSpringDamper: ("Mode", torsion_note)}
#: the references whose choice the entries left as they came follow (ItemDialog)
FOLLOWED = ("joint", "body_j")


CLASS_LABELS = {"GearPair": {"helix_angle": "Helix angle of gear 1", "pitch_angle": "Pitch angle of gear 1",
                             "joint1": "Joint of gear 1", "joint2": "Joint of gear 2", "z1": "Teeth of gear 1 (z1)",
                             "z2": "Teeth of gear 2 (z2)", "carrier": "Carrier"},
                "CompliantMesh": {"stiffness": "Stiffness source", "damping": "Damping (constant)"}}
CLASS_TIPS = {"GearPair": {"efficiency": "Constant mesh efficiency for both directions of power flow, for a pair "
                                           "without a loss table (1: lossless)",
                            "bearing_friction": "Constant bearing friction referred to gear 1 [N m], with the constant "
                                                "efficiency; the pair sticks at rest while its losses hold the torque"},
              "CompliantMesh": {"stiffness": "iso6336: c_gamma_alpha b from the pair's geometry (ISO 6336-1 "
                                             "method B); given: the mean mesh stiffness below"}}


def label_of(name: str, cls=None) -> str:
    """What a field is called on screen (some names read differently on some entities)."""
    own = CLASS_LABELS.get(getattr(cls, "__name__", ""), {})
    return own.get(name) or LABELS.get(name, name.replace("_", " ").capitalize())


def law_unit(cls) -> tuple[str, str]:
    """Unit and name of the quantity a joint law gives."""
    return cls.LAW_UNIT, ("Speed" if cls is SpeedMotor else "Torque")


class EntityForm(QWidget):
    """Widgets for the fields of entity class `cls` (initial values from `item`, else the defaults).

    `value()` gives a new entity or raises FieldError naming the field and its
    range. `edited(field)` fires when one field's entry is finished.
    """

    edited = Signal(str)

    def __init__(self, cls, model, item=None, name: str = "", t_span: float = 1.0, fields=None, parent=None):
        super().__init__(parent)
        self.cls, self.model = cls, model
        self.item = item
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setRowWrapPolicy(QFormLayout.WrapLongRows)  # narrow docks: long labels go above their fields
        self.widgets: dict[str, QWidget] = {}
        self.twins: dict[str, QWidget] = {}
        hints = typing.get_type_hints(cls)
        refs = getattr(cls, "REFERENCE_FIELDS", {})
        for f in dataclasses.fields(cls):
            if f.name in HIDDEN or (fields is not None and f.name not in fields):
                continue
            value = getattr(item, f.name) if item is not None else (
                f.default if f.default is not dataclasses.MISSING else None)
            label = label_of(f.name, cls)
            if f.name == "name":
                w = QLineEdit(item.name if item is not None else name)
                w.setObjectName("Name")
                # as wide as the name: beside long labels (a gear pair's) the field column is too narrow for it,
                # and the row then goes below its label (WrapLongRows)
                w.setMinimumWidth(max(120, w.fontMetrics().horizontalAdvance(w.text()) + 16))
                w.editingFinished.connect(lambda n=f.name: self.edited.emit(n))
            elif f.name in refs:
                w = QComboBox()
                w.setObjectName(f.name)
                w.addItems(REFERENCE_KINDS[refs[f.name]](model))
                if value:
                    w.setCurrentText(value)
                w.currentTextChanged.connect(lambda _, n=f.name: self.edited.emit(n))
            elif "choices" in f.metadata:
                w = QComboBox()
                w.setObjectName(f.name)
                w.addItems(list(f.metadata["choices"]))
                w.setCurrentText(value)
                w.currentTextChanged.connect(lambda _, n=f.name: self.edited.emit(n))
            elif "range" in f.metadata:
                w = QuantityField(label, f.metadata["range"], value)
                w.edit.setObjectName(label)
                w.edit.editingFinished.connect(lambda n=f.name: self.edited.emit(n))
            elif f.name == "orientation":
                w = AxisAngleField("Orientation", value)
                for part in w.parts:
                    part.edit.editingFinished.connect(lambda n=f.name: self.edited.emit(n))
            elif "vector_range" in f.metadata:
                w = VectorField(label, f.metadata["vector_range"], value)
                for part in w.parts:
                    part.edit.editingFinished.connect(lambda n=f.name: self.edited.emit(n))
                if f.metadata["vector_range"].unit == "rad/s":  # the same speeds in rpm, edited either way
                    twin = VectorField(f"{label} (rpm)", RPM, value)
                    for part in twin.parts:
                        part.edit.editingFinished.connect(lambda n=f.name, a=twin, b=w: self._twin_edited(n, a, b))
                    for part in w.parts:
                        part.edit.editingFinished.connect(lambda a=twin, b=w: self._sync(b, a))
                    self.form.addRow(f"{label} (rpm)", twin)
                    self.twins[f.name] = twin
            elif hints[f.name] is bool:
                w = QCheckBox()
                w.setObjectName(f.name)
                w.setChecked(bool(value))
                w.toggled.connect(lambda _, n=f.name: self.edited.emit(n))
            elif hints[f.name] is TimeLaw:
                unit, what = law_unit(cls)
                w = LawEditor(value if value is not None else TimeLaw(), unit, t_span, what)
                w.changed.connect(lambda n=f.name: self.edited.emit(n))
            else:
                continue
            tip = CLASS_TIPS.get(cls.__name__, {}).get(f.name) or TIPS.get(f.name)
            if tip:
                w.setToolTip(tip)
            self.widgets[f.name] = w
            if f.name in self.twins:
                self.form.insertRow(self.form.rowCount() - 1, label, w)
            else:
                self.form.addRow(label, w)
        if hasattr(cls, "inactive_fields"):  # the fields a choice leaves unused are greyed out as it changes
            for name, w in self.widgets.items():
                if isinstance(w, QComboBox) and name not in refs:
                    w.currentTextChanged.connect(self._grey_inactive)
            self._grey_inactive()

    def _grey_inactive(self, *_) -> None:
        """Grey out the entries the chosen options do not use (the model's checks say so of a value set there)."""
        choices = {n: w.currentText() for n, w in self.widgets.items()
                   if isinstance(w, QComboBox) and n not in getattr(self.cls, "REFERENCE_FIELDS", {})}
        required = {f.name: "" for f in dataclasses.fields(self.cls) if f.default is dataclasses.MISSING}
        probe = (dataclasses.replace(self.item, **choices) if self.item is not None
                 else self.cls(**{**required, **choices}))
        inactive = probe.inactive_fields()
        for name, w in self.widgets.items():
            w.setEnabled(name not in inactive)

    def _twin_edited(self, name: str, twin, main) -> None:
        if self._sync(twin, main):
            self.edited.emit(name)

    @staticmethod
    def _sync(source, target) -> bool:
        """Copy an entry to its twin in the other unit; False when the entry is not a valid value yet."""
        try:
            target.set_si(source.value())
        except FieldError:
            return False
        return True

    def field_value(self, name: str):
        """The entered value of one field (SI), or FieldError."""
        w = self.widgets[name]
        if isinstance(w, QLineEdit):
            text = w.text().strip()
            if not text:
                raise FieldError("Name: must not be empty")
            return text
        if isinstance(w, QComboBox):
            if not w.currentText():
                raise FieldError(f"{label_of(name)}: the model has no item of that kind yet")
            return w.currentText()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        return w.value()

    def set_field(self, name: str, value) -> None:
        """Show `value` (SI, as `field_value` gives it) in one field's entry, and in its twin in rpm."""
        w = self.widgets[name]
        if isinstance(w, QComboBox):
            w.setCurrentText(value)
        elif isinstance(w, QLineEdit):
            w.setText(value)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, LawEditor):
            w.set_law(value)
        else:
            w.set_si(value)
        if name in self.twins:
            self.twins[name].set_si(value)

    def values(self) -> dict:
        return {name: self.field_value(name) for name in self.widgets}

    def value(self):
        """A new entity from the entries (over `item`, if any), checked against its own rules."""
        values = self.values()
        obj = dataclasses.replace(self.item, **values) if self.item is not None else self.cls(**values)
        problems = obj.problems() if hasattr(obj, "problems") else []
        if problems:
            field, msg = problems[0]
            head = field.split(".")[0].split("[")[0]
            raise FieldError(f"{label_of(head)}{field[len(head):]}: {msg}")
        return obj

    def set_visible(self, name: str, visible: bool) -> None:
        for w in (self.widgets.get(name), self.twins.get(name)):
            if w is not None:
                self.form.setRowVisible(w, visible)


class ItemDialog(QDialog):
    """Add an entity of class `cls`; `item` holds it after OK (checked against the model's references)."""

    def __init__(self, cls, model, name: str, title: str, t_span: float = 1.0, parent=None, **defaults):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(f"{cls.__name__}_dialog")
        self.model = model
        start = dataclasses.replace(_blank(cls, model, name), **defaults) if defaults else None
        self.form = EntityForm(cls, model, start, name=name, t_span=t_span)
        self.note = QLabel("")  # what the entries make, where the kind has such a note (NOTES)
        self.note.setObjectName("note")
        self.note.setWordWrap(True)
        outer = QFormLayout()
        self.message = finish_form(self, outer, self.form, *([self.note] if cls in NOTES else []))
        self.item = None
        # an entry left as it came follows the joint or body J chosen, before the note reads the entries, as the
        # tool's start does from the selection (core.model.builders.selection_defaults): a speed motor's law starts
        # at its joint's speed, a weld or a bearing sits at its body J's origin, and a weld holds it to the shaft
        # whose axis runs through that origin
        self._as_came = self._entered()
        self.form.edited.connect(self._follow)
        if cls in NOTES:
            self.form.edited.connect(self._show_note)
            # the note follows each key typed into a number, as a law's follows its plot
            numbers = []
            for w in self.form.widgets.values():
                if isinstance(w, LawEditor):
                    w.typed.connect(self._show_note)
                numbers += [w] if isinstance(w, QuantityField) else getattr(w, "parts", [])
            follow_keys(numbers, self._show_note)
            self._show_note()

    def _entered(self) -> dict:
        """The entries that read as a value now (an entry half typed is left out)."""
        out = {}
        for name in self.form.widgets:
            try:
                out[name] = self.form.field_value(name)
            except FieldError:
                pass
        return out

    def _follow(self, name: str) -> None:
        now = self._entered() if name in FOLLOWED else {}
        if name not in now:
            return
        # a followed entry is never a reference that is followed, so setting it does not come back here
        for field, value in selection_defaults(self.form.cls, self.model, now[name]).items():
            if field != name and field in now and now[field] == self._as_came.get(field):
                self.form.set_field(field, value)
                self._as_came[field] = value

    def _show_note(self, *_) -> None:
        try:
            self.note.setText(NOTES[self.form.cls][1](self.model, self.form.value()))
        except FieldError:
            self.note.setText("")

    def accept(self) -> None:
        try:
            item = self.form.value()
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        problems = self.model.item_problems(item)
        if problems:
            field, msg = problems[0]
            self.message.setText(f"{label_of(field)}: {msg}")
            return
        self.item = item
        super().accept()


def _blank(cls, model, name):
    """An instance with the first candidate of every reference (for dialogs given some defaults)."""
    refs = {f: (REFERENCE_KINDS[k](model) or [""])[0] for f, k in getattr(cls, "REFERENCE_FIELDS", {}).items()}
    return cls(name=name, **refs)

