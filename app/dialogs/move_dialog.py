"""Move / Rotate a body: by values (a shift in mm, a turn in degrees about an axis through a point), or snapped
onto a revolute joint's axis. The joints that carry the body, and the bodies welded to it, move with it unless
told not to."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, VectorField, finish_form, follow_keys
from app.dialogs.gear_dialog import AXIS, POSITION
from core.commands import move_body, snap_onto_joint
from core.geometry.rotations import quat_about, quat_matrices
from core.model.entities import RevoluteJoint
from core.errors import ModelError
from core.ranges import DEG, Range, direction

TURN = Range(lo=-2 * np.pi, hi=2 * np.pi, **DEG)
BY_VALUES = "(by the values below)"


class MoveDialog(QDialog):
    """`command` holds the move (one undoable step) after OK."""

    def __init__(self, model, body_name: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Move / Rotate {body_name}")
        self.setObjectName("move_dialog")
        self.model, self.body = model, model.bodies[body_name]
        self.snap = QComboBox()
        self.snap.setObjectName("snap")
        self.snap.addItems([BY_VALUES, *(j.name for j in model.joints.values() if isinstance(j, RevoluteJoint))])
        self.snap.setToolTip("Put the body's origin on a revolute joint's point and its axis along the joint's axis")
        self.shift = VectorField("Shift", POSITION, (0.0, 0.0, 0.0))
        self.turn = QuantityField("Turn", TURN, 0.0)
        self.axis = VectorField("Turn axis", AXIS, (0.0, 0.0, 1.0))
        self.pivot = VectorField("Turn about point", POSITION, self.body.position)
        self.follow = QCheckBox("Joints and bearings that carry the body move with it")
        self.follow.setObjectName("joints_follow")
        self.follow.setChecked(True)
        piece = sorted(b for b in model.rigid_piece(body_name) if b in model.bodies and b != body_name)
        self.welded = QCheckBox(f"Bodies welded to it move with it ({', '.join(piece)})" if piece else
                                "Bodies welded to it move with it (none)")
        self.welded.setObjectName("welded_follow")
        self.welded.setToolTip("A compound shaft moves as one; unchecked, the body alone moves (a gear slid along "
                               "its shaft) and its welds hold it where it is put")
        self.welded.setChecked(True)
        self.welded.setEnabled(bool(piece))
        form = QFormLayout()
        form.addRow("Snap onto joint axis", self.snap)
        for label, w in (("Shift", self.shift), ("Turn", self.turn), ("Turn axis", self.axis),
                         ("Turn about point", self.pivot)):
            form.addRow(label, w)
        form.addRow(self.follow)
        form.addRow(self.welded)
        self.result = QLabel("")
        self.result.setObjectName("move_result")
        self.result.setWordWrap(True)
        form.addRow("Result", self.result)
        self.message = finish_form(self, form)
        self.command = None
        entries = (*self.shift.parts, self.turn, *self.axis.parts, *self.pivot.parts)
        for f in entries:
            f.edit.editingFinished.connect(self.show_result)
        follow_keys(entries, self.show_result)
        self.snap.currentIndexChanged.connect(self.show_result)
        self.follow.toggled.connect(self.show_result)
        self.welded.toggled.connect(self.show_result)
        self.show_result()

    def _command(self):
        """The move as the entries stand (FieldError or ModelError saying what is wrong)."""
        if self.snap.currentText() != BY_VALUES:
            return snap_onto_joint(self.model, self.body.name, self.snap.currentText(),
                                   welded_follow=self.welded.isChecked())
        axis = np.asarray(self.axis.value(), float)
        if np.linalg.norm(axis) < 1e-12:
            raise FieldError("Turn axis: must be a non-zero direction")
        return move_body(self.model, self.body.name, translation=self.shift.value(),
                         rotation=tuple(quat_about(axis, self.turn.value())), pivot=self.pivot.value(),
                         joints_follow=self.follow.isChecked(), welded_follow=self.welded.isChecked())

    def show_result(self, *_) -> None:
        """Where the body's origin [mm] and its axis (its z) go, and what moves with it; or what is wrong."""
        try:
            command = self._command()
        except (FieldError, ModelError) as exc:
            self.result.setText("")
            self.message.setText(str(exc))
            return
        self.message.setText("")
        moved = {c.new.name: c.new for c in command.commands}
        body = moved.pop(self.body.name)
        where = ", ".join(f"{v * 1e3 + 0.0:.6g}" for v in body.position)
        stays = np.allclose(body.position, self.body.position, rtol=0.0, atol=1e-12)
        verb = "move" if len(moved) > 1 else "moves"
        with_it = f"; {', '.join(moved)} {verb} with it" if moved else "; it moves alone"
        axis = direction(quat_matrices(body.orientation)[:, 2])
        self.result.setText(f"{self.body.name} {'stays at' if stays else 'goes to'} {where} mm, its axis along {axis}"
                            f"{with_it}")

    def accept(self) -> None:
        try:
            self.command = self._command()
        except (FieldError, ModelError) as exc:
            self.message.setText(str(exc))
            return
        super().accept()
