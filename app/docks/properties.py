"""Property dock: the selected item's fields in an entity form; each finished entry is one undoable command."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.dialogs.body_dialogs import MESH_FILES
from app.dialogs.entity_form import NOTES, EntityForm
from app.dialogs.fields import FieldError
from app.dialogs.frame_dialog import FrameDialog
from app.dialogs.gear_dialog import derived_text
from app.dialogs.gear_entries import NORMAL_MODULE, OUTER_MODULE, TIPS, GearEntries
from app.dialogs.gear_sketch import GearSketch
from app.dialogs.loss_table_editor import LossTableEditor
from app.docks.model_info import ModelInfoPanel
from core.commands import relink_mesh, replace_fields, set_gear_spec
from core.gearing.pair_gears import edit_pair
from core.geometry.rotations import quat_matrix
from core.model.entities import GearPair, GearSource, MeshFileSource, RigidBody
from core.model.kinds import kind_title
from core.ranges import direction
from core.errors import ModelError

BODY_FIELDS = ("name", "mass", "com", "position", "orientation", "velocity", "angular_velocity")
GENERATED_BODY_FIELDS = ("name", "position", "orientation", "velocity", "angular_velocity")
MESH_NOTES = {
    "none": "<b>Imported</b> from {file} ({unit}): mass and inertia from its closed mesh.",
    "close_holes": "<b>Imported</b> from {file} ({unit}), which is not watertight: mass and inertia are those of its "
                   "mesh with its holes closed by flat caps.",
    "convex_hull": "<b>Imported</b> from {file} ({unit}), which is not watertight: mass and inertia are those of its "
                   "convex hull, an upper bound of the part's.",
    "manual": "<b>Imported</b> from {file} ({unit}), which is not watertight: mass, centre of mass and inertia "
              "were entered by hand."}
PAIR_MODULE_TIP = ("Normal module m_n (ISO 21771), as the Gear Pair dialog takes it; the pair keeps the transverse "
                   "module m_t = m_n / cos(beta), named in the note above. A new helix angle keeps m_n")
SPEC_KIND_TEXT = {"helical": "helical/spur gear", "inner": "inner (ring) gear", "bevel": "straight bevel gear"}


class PropertyDock(QDockWidget):
    """Shows the selected item; edits go through the document as commands. `move_requested(body)` asks for the
    Move/Rotate dialog."""

    move_requested = Signal(str)

    def __init__(self, document, report, parent=None, t_span=lambda: 1.0):
        super().__init__("Properties", parent)
        self.setObjectName("property_dock")
        self.document, self.report, self.t_span = document, report, t_span
        self.name = ""
        self.form: EntityForm | None = None
        self._committing = False
        self._committed: set[str] = set()  # the fields of the edit being committed
        self._scroll_to = 0  # where the next panel opens: a panel of the item shown before opens where it was
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.setWidget(self.scroll)
        self.panel = QWidget()
        document.items_changed.connect(self._model_changed)

    def _model_changed(self, change) -> None:
        if self._committing and self.name in change.replaced.values() and not change.added and not change.removed:
            item, before = self.document.model.find(self.name), self.form.item
            if isinstance(item, GearPair) and item.inactive_fields().keys() != before.inactive_fields().keys():
                self.show_item(self.name)  # another kind of pair: other fields apply
                return
            if {f.name for f in dataclasses.fields(item) if getattr(item, f.name) != getattr(before, f.name)} \
                    - self._committed:
                self.show_item(self.name)  # the edit changed fields not typed (a bevel pair's pitch angle)
                return
            self.form.item = item  # our own edit: keep the form (and the focus), its note said again
            if isinstance(item, GearPair):
                self.loss_editor.pair = item  # its first row takes the pair's efficiency as it is now
            note = self.panel.findChild(QLabel, "note")
            if note is not None:
                note.setText(self._note(item))
            return
        if not self.name and change.info and isinstance(self.panel, ModelInfoPanel) and self.panel.shows_model():
            return  # the panel's own entry: keep it (and the focus)
        if change.reset or self.name in change.touched() or (not self.name and change.info):
            new = change.replaced.get(self.name, self.name)
            self.show_item(new if self.document.model.find(new) is not None else "")

    def show_item(self, name: str) -> None:
        # the same item drawn again (an edit that changes which fields apply) stays where the user was
        self._scroll_to = self.scroll.verticalScrollBar().value() if name == self.name else 0
        self.name = name
        item = self.document.model.find(name) if name else None
        self.form = None
        if item is None:  # the model itself
            self._set(ModelInfoPanel(self.document, self.report))
            return
        panel = QWidget()
        lay = QVBoxLayout(panel)
        lay.addWidget(QLabel(f"<b>{kind_title(type(item))}</b>"))
        if type(item) in NOTES:  # what the item makes, first: a pair's loss table below runs off the dock
            note = QLabel(self._note(item))
            note.setObjectName("note")
            note.setWordWrap(True)
            lay.addWidget(note)
        fields = None
        generated = isinstance(getattr(item, "visual", None), GearSource)
        if isinstance(item, RigidBody):
            fields = GENERATED_BODY_FIELDS if generated else BODY_FIELDS
        self.form = EntityForm(type(item), self.document.model, item, t_span=self.t_span())
        if fields is not None:
            for f in self.form.widgets:
                self.form.set_visible(f, f in fields)
        if isinstance(item, GearPair):  # only the angle that applies to the kind; profile shifts on external pairs
            for field in item.inactive_fields():
                self.form.set_visible(field, False)
            self._show_normal_module(item)
        self.form.edited.connect(self._commit_field)
        lay.addWidget(self.form)
        if isinstance(item, GearPair):
            self.loss_editor = LossTableEditor(item)
            self.loss_editor.apply_requested.connect(lambda rows: self._commit("loss_table", rows))
            lay.addWidget(self.loss_editor)
        extra = QFormLayout()
        extra.setRowWrapPolicy(QFormLayout.WrapLongRows)  # as the form above: a narrow dock puts labels above
        if isinstance(item, RigidBody):
            move = QPushButton("Move / Rotate...")
            move.setObjectName("move_body")
            move.setToolTip("Move or turn the body (and the joints on it) by values, or snap it onto a joint axis")
            move.clicked.connect(lambda: self.move_requested.emit(item.name))
            extra.addRow(move)
            if isinstance(item.visual, MeshFileSource):  # where its mass came from stays on the body
                self._mesh_file_rows(item, extra)
            if generated:
                spec = item.visual.spec
                note = QLabel(f"<b>Generated {SPEC_KIND_TEXT[spec.kind]}</b>: mass and inertia come from its "
                              "mesh and follow its macro-geometry.")
                note.setWordWrap(True)
                extra.addRow(note)
                self.gear_entries = GearEntries(spec)  # as the gear dialogs take them: m_n, the helix and its hand
                self.gear_entries.add_rows(extra)
                self.gear_entries.connect(self._commit_spec)
                derived = QLabel(derived_text(spec, hand=True))  # the engineer's sizes: m_n, d, d_a, ...
                derived.setObjectName("gear_derived")
                derived.setWordWrap(True)
                extra.addRow("Derived", derived)
                sketch = GearSketch()  # the section its mesh is made of, as its dialog draws it
                sketch.show_spec(spec)
                extra.addRow(sketch)
                extra.addRow("Mass", QLabel(f"{item.mass:.6g} kg"))
            top = max(abs(v) for row in item.inertia for v in row)
            shown = "\n".join("  ".join("0" if abs(v) < 1e-9 * top else f"{v:.4e}" for v in row) for row in item.inertia)
            extra.addRow("Inertia about the COM [kg m^2]", QLabel(shown))
            for fr in item.frames:  # where a joint put at it stands, and its axis (the frame's z)
                origin = ", ".join(f"{v * 1e3:.6g}" for v in fr.origin)
                z = direction(quat_matrix(fr.orientation)[:, 2])
                extra.addRow(f"Frame {fr.name}", QLabel(f"{origin} mm; z axis ({z})"))
            add = QPushButton("Add frame...")
            add.setObjectName("add_frame")
            add.setToolTip("A named frame on this body, for joints and force points")
            add.clicked.connect(lambda: self._add_frame(item))
            extra.addRow(add)
        lay.addLayout(extra)
        lay.addStretch(1)
        self._set(panel)

    def _note(self, item) -> str:
        """What `item` makes (NOTES), as the dock's note says it."""
        heading, make = NOTES[type(item)]
        text = make(self.document.model, item)
        return f"{heading}: {text}" if text else ""  # a heading alone says nothing

    def _set(self, panel: QWidget) -> None:
        self.panel = panel
        old = self.scroll.takeWidget()  # deleted once control is back in the event loop: an entry of the old
        if old is not None:  # panel may be the one whose signal made this edit
            old.deleteLater()
        self.scroll.setWidget(panel)
        bar, value = self.scroll.verticalScrollBar(), self._scroll_to
        if value:  # once the new panel is laid out and the bar has its range
            QTimer.singleShot(0, bar, lambda: bar.setValue(value))  # not after the dock is gone

    def _mesh_file_rows(self, body, rows: QFormLayout) -> None:
        """An imported body's file: where its mass came from, whether the file is there, and Locate File..."""
        source = body.visual
        note = QLabel(MESH_NOTES[source.fallback].format(file=Path(source.path).name, unit=source.unit))
        note.setObjectName("mesh_note")
        note.setWordWrap(True)
        rows.addRow(note)
        if not Path(source.path).is_file():
            missing = QLabel(f"The file is not at {source.path}: the view cannot draw the body, which keeps the mass "
                             "properties read from it. Locate File... points it at the file.")
            missing.setObjectName("mesh_missing")
            missing.setStyleSheet("color: #b00020")
            missing.setWordWrap(True)
            rows.addRow(missing)
        locate = QPushButton("Locate File...")
        locate.setObjectName("relink_mesh")
        locate.setToolTip("Point the body at its mesh file where it is now (read with its unit and density: the "
                          "mass properties follow the file)")
        locate.clicked.connect(lambda: self._relink(body))
        rows.addRow(locate)

    def _relink(self, body) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"Locate the mesh file of {body.name}",
                                              str(Path(body.visual.path).parent), MESH_FILES)
        if not path:
            return
        try:
            self.document.apply(relink_mesh(self.document.model, body.name, path))
        except ModelError as exc:
            self.report(str(exc))

    def _add_frame(self, body) -> None:
        dlg = FrameDialog(body, self)
        if dlg.exec() and dlg.frame is not None:
            self._commit("frames", (*body.frames, dlg.frame))
            self.show_item(self.name)  # the panel's own edit keeps its rows: the new frame's row is one more

    def _show_normal_module(self, pair: GearPair) -> None:
        """The pair's module entry as the Gear Pair dialog takes it: the normal module m_n = m_t cos(beta) (the
        pair keeps m_t); `_commit_field` turns it back. A bevel pair's is its outer module (straight teeth:
        beta 0)."""
        field = self.form.widgets["module"]
        label = OUTER_MODULE if pair.kind == "bevel" else NORMAL_MODULE
        self.form.form.labelForField(field).setText(label)
        field.label = label
        field.edit.setObjectName(NORMAL_MODULE)
        field.edit.setToolTip(TIPS["module"] if pair.kind == "bevel" else PAIR_MODULE_TIP)
        field.set_si(pair.module * math.cos(pair.helix_angle))

    def _commit_field(self, field_name: str) -> None:
        if self.form is None:
            return
        pair = self.form.item if isinstance(self.form.item, GearPair) else None
        try:
            value = self.form.field_value(field_name)
            if pair is not None and field_name in ("module", "helix_angle"):  # m_n typed, or kept by a new helix
                m_n, beta = self.form.field_value("module"), self.form.field_value("helix_angle")
                untouched = beta == pair.helix_angle and m_n == pair.module * math.cos(beta)
                self._commit("helix_angle", beta, module=pair.module if untouched else m_n / math.cos(beta))
                return
        except FieldError as exc:
            self.report(str(exc))
            self.show_item(self.name)
            return
        self._commit(field_name, value)

    def _commit_spec(self) -> None:
        """A finished entry of a generated gear: the fields its entries change, as one command."""
        try:
            spec, before = self.gear_entries.spec(), self.document.model.bodies[self.name].visual.spec
            changes = {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)
                       if getattr(spec, f.name) != getattr(before, f.name)}
            if not changes:
                return
            self.document.apply(set_gear_spec(self.document.model, self.name, **changes))
        except (FieldError, ModelError) as exc:
            self.report(str(exc))
            self.show_item(self.name)

    def _commit(self, field_name: str, value, **more) -> None:
        """Set `field_name` (and the fields in `more`) of the item shown, as one command where any changes."""
        item = self.document.model.find(self.name)
        changes = {field_name: value, **more}
        if item is None or all(getattr(item, f) == v for f, v in changes.items()):
            return
        self._committing, self._committed = True, set(changes)
        try:
            # a pair's generated gears follow its teeth, module, angles and shifts (core.gearing.pair_gears)
            edit = edit_pair if isinstance(item, GearPair) else replace_fields
            self.document.apply(edit(self.document.model, self.name, **changes))
        except ModelError as exc:
            self.report(str(exc))
            self._committing = False
            self.show_item(self.name)
            return
        finally:
            self._committing = False
        if field_name == "name":
            self.name = value
