"""Add a named frame on a body: an origin and a z axis in the body's own axes (mm)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout, QLineEdit

from app.dialogs.fields import FieldError, VectorField, finish_form
from app.dialogs.gear_dialog import AXIS, POSITION
from core.geometry.rotations import orientation_for_axis
from core.model.entities import Frame


class FrameDialog(QDialog):
    def __init__(self, body, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Frame on {body.name}")
        self.setObjectName("frame_dialog")
        self.body = body
        self.name = QLineEdit(f"frame{len(body.frames) + 1}")
        self.name.setObjectName("Name")
        self.origin = VectorField("Origin", POSITION, (0.0, 0.0, 0.0))
        self.axis = VectorField("Axis", AXIS, (0.0, 0.0, 1.0))
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Origin (body axes)", self.origin)
        form.addRow("z axis (body axes)", self.axis)
        self.message = finish_form(self, form)
        self.frame = None

    def accept(self) -> None:
        try:
            name = self.name.text().strip()
            if not name or name in {f.name for f in self.body.frames}:
                raise FieldError(f"Name: must be a new frame name on {self.body.name}")
            axis = self.axis.value()
            if sum(a * a for a in axis) < 1e-12:
                raise FieldError("Axis: must be a non-zero direction")
            self.frame = Frame(name, self.origin.value(), orientation_for_axis(axis))
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        super().accept()
