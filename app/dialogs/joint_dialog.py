"""Revolute joint tool: body_i (the carrier), body_j (the gear), a point and an axis, and whether a bearing
carries the gear."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QFormLayout, QLineEdit

from app.dialogs.entity_form import LABELS, TIPS
from app.dialogs.fields import FieldError, VectorField, finish_form
from app.dialogs.gear_dialog import AXIS, POSITION
from core.gearing.bearings import bearing_between
from core.gearing.gear_bodies import has_own_axis, made_on_z, own_axis_joint
from core.geometry.rotations import rotate
from core.model.entities import GROUND, RevoluteJoint


class RevoluteJointDialog(QDialog):
    """Picks the carrier and the gear; the point and axis start on the gear's own axis."""

    def __init__(self, model, name: str, parent=None, body_j: str = ""):
        """`body_j`: the gear it starts on (core.model.builders.selection_defaults), else the first body."""
        super().__init__(parent)
        self.setWindowTitle("Revolute Joint")
        self.setObjectName("revolute_dialog")
        self.model = model
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        self.body_i = QComboBox()
        self.body_i.setObjectName("body_i")
        self.body_i.addItems([GROUND, *model.bodies])
        self.body_i.setToolTip("Body_I: the carrier (the body that holds the gear)")
        self.body_j = QComboBox()
        self.body_j.setObjectName("body_j")
        self.body_j.addItems(list(model.bodies))
        if body_j:
            self.body_j.setCurrentText(body_j)
        self.body_j.setToolTip("Body_J: the gear that turns on the joint")
        self.position = VectorField("Position", POSITION, (0.0, 0.0, 0.0))
        self.axis = VectorField("Axis", AXIS, (0.0, 0.0, 1.0))
        self.frame = QComboBox()
        self.frame.setObjectName("frame")
        self.frame.setToolTip("Put the joint at a frame of body J (its origin and z axis)")
        self.frame.currentTextChanged.connect(self._at_frame)
        self.on_bearing = QCheckBox(LABELS["on_bearing"])
        self.on_bearing.setObjectName("on_bearing")
        self.on_bearing.setToolTip(TIPS["on_bearing"])
        self.body_j.currentTextChanged.connect(self._follow_gear)
        self.body_i.currentTextChanged.connect(lambda _: self._follow_bearing())
        self._follow_gear(self.body_j.currentText())
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Body I (carrier)", self.body_i)
        form.addRow("Body J (gear)", self.body_j)
        form.addRow("At frame of body J", self.frame)
        form.addRow("Position", self.position)
        form.addRow("Axis", self.axis)
        form.addRow("", self.on_bearing)
        self.message = finish_form(self, form)
        self.joint = None

    def _follow_gear(self, body_name: str) -> None:
        body = self.model.bodies.get(body_name)
        self.frame.blockSignals(True)
        self.frame.clear()
        # the body's own axis (core.gearing.gear_bodies.own_axis_joint: a generated gear's origin and z axis, an
        # imported part's axis of symmetry through its centre of mass), else its origin and z axis; or a frame
        own = body is not None and has_own_axis(body) and not made_on_z(body)
        first = "(its axis of symmetry, through its centre of mass)" if own else "(its origin, z axis)"
        self.frame.addItems([first, *(f.name for f in body.frames)] if body is not None else [])
        self.frame.blockSignals(False)
        if own:
            joint = own_axis_joint(self.model, body_name)
            self.position.set_si(joint.position)
            self.axis.set_si(joint.axis)
        elif body is not None:
            self.position.set_si(body.position)
            self.axis.set_si(tuple(rotate(body.orientation, (0.0, 0.0, 1.0))))
        self._follow_bearing()

    def _follow_bearing(self) -> None:
        """A Bearing Spring-Damper between the two bodies carries the gear: the joint starts on its point and axis,
        keeping only the axis; else the joint holds the gear."""
        bearing = bearing_between(self.model, self.body_i.currentText(), self.body_j.currentText())
        self.on_bearing.setChecked(bearing is not None)
        if bearing is not None:
            self.position.set_si(bearing.position)
            self.axis.set_si(bearing.axis)

    def _at_frame(self, frame_name: str) -> None:
        body = self.model.bodies.get(self.body_j.currentText())
        frame = next((f for f in body.frames if f.name == frame_name), None) if body is not None else None
        if frame is None:
            self._follow_gear(self.body_j.currentText())
            return
        origin = np.asarray(body.position) + rotate(body.orientation, frame.origin)
        self.position.set_si(tuple(origin))
        self.axis.set_si(tuple(rotate(body.orientation, rotate(frame.orientation, (0.0, 0.0, 1.0)))))

    def accept(self) -> None:
        try:
            axis = self.axis.value()
            if sum(a * a for a in axis) < 1e-12:
                raise FieldError("Axis: must be a non-zero direction")
            bi, bj = self.body_i.currentText(), self.body_j.currentText()
            if not bj:
                raise FieldError("Body J: the model has no body to put on a joint")
            if bi == bj:
                raise FieldError("Body J: must differ from Body I")
            self.joint = RevoluteJoint(self.name.text().strip(), bi, bj, self.position.value(), axis,
                                       on_bearing=self.on_bearing.isChecked())
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        super().accept()
