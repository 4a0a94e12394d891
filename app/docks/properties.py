"""Property dock: the selected item's fields; each edit is one undoable command."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import (
    QDockWidget,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.dialogs.fields import FieldError, QuantityField
from app.dialogs.frame_dialog import FrameDialog
from core.commands import replace_fields
from core.model.entities import GearSource, RigidBody
from core.model.model import ModelError

# vectors shown read-only: (factor from SI, unit)
VECTOR_UNITS = {"com": (1e3, " mm"), "position": (1e3, " mm"), "axis": (1.0, ""), "angular_velocity": (1.0, " rad/s")}


class PropertyDock(QDockWidget):
    """Shows name, scalar fields (in mm / deg where they have a range) and read-only mass properties."""

    def __init__(self, document, report, parent=None):
        super().__init__("Properties", parent)
        self.setObjectName("property_dock")
        self.document, self.report = document, report
        self.name = ""
        self.setWidget(QWidget())

    def show_item(self, name: str) -> None:
        self.name = name
        panel = QWidget()
        form = QFormLayout(panel)
        item = self.document.model.find(name) if name else None
        if item is None:
            form.addRow(QLabel("Select an item in the model tree or the 3-D view."))
            self.setWidget(panel)
            return
        form.addRow("Type", QLabel(type(item).__name__))
        edit = QLineEdit(item.name)
        edit.setObjectName("prop_name")
        edit.editingFinished.connect(lambda e=edit: self._commit("name", e.text().strip()))
        form.addRow("Name", edit)
        generated = isinstance(getattr(item, "visual", None), GearSource)
        for f in dataclasses.fields(item):
            value = getattr(item, f.name)
            rng = f.metadata.get("range")
            if f.name == "name":
                continue
            if rng is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and not generated:
                field = QuantityField(f.name, rng, value)
                field.edit.setObjectName(f"prop_{f.name}")
                field.edit.editingFinished.connect(lambda fl=field, n=f.name: self._commit_field(n, fl))
                form.addRow(f.name, field)
            elif isinstance(value, (str, int, float, bool)):
                form.addRow(f.name, QLabel(str(value)))
            elif f.name in VECTOR_UNITS and value is not None:
                scale, unit = VECTOR_UNITS[f.name]
                form.addRow(f.name, QLabel(", ".join(f"{v * scale:.6g}" for v in value) + unit))
        if isinstance(item, RigidBody):
            for fr in item.frames:
                form.addRow(f"frame {fr.name}", QLabel(", ".join(f"{v * 1e3:.6g}" for v in fr.origin) + " mm"))
            add = QPushButton("Add frame...")
            add.setObjectName("add_frame")
            add.setToolTip("A named frame on this body, for joints and force points")
            add.clicked.connect(lambda: self._add_frame(item))
            form.addRow(add)
        if generated:
            form.addRow(QLabel("Generated gear: mass and inertia come from its mesh."))
            form.addRow("mass [kg]", QLabel(f"{item.mass:.6g}"))
            form.addRow("inertia [kg m^2]", QLabel("\n".join("  ".join(f"{v:.4e}" for v in row) for row in item.inertia)))
        self.setWidget(panel)

    def _add_frame(self, body) -> None:
        dlg = FrameDialog(body, self)
        if dlg.exec() and dlg.frame is not None:
            self._commit("frames", (*body.frames, dlg.frame))
            self.show_item(self.name)

    def _commit_field(self, field_name: str, field: QuantityField) -> None:
        try:
            value = field.value()
        except FieldError as exc:
            self.report(str(exc))
            self.show_item(self.name)
            return
        self._commit(field_name, value)

    def _commit(self, field_name: str, value) -> None:
        item = self.document.model.find(self.name)
        if item is None or getattr(item, field_name) == value:
            return
        try:
            self.document.apply(replace_fields(self.document.model, self.name, **{field_name: value}))
        except ModelError as exc:
            self.report(str(exc))
        if field_name == "name" and self.document.model.find(value) is not None:
            self.name = value
