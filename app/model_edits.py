"""The tools that edit the model, as the main window offers them: add gears, joints, pairs, planetary sets,
parts and loads through their dialogs, move a body, apply a finding's fix, duplicate and delete. Each edit is a
command of core.commands applied to the document (undoable)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from app.dialogs.body_dialogs import ImportMeshDialog, PrimitiveDialog
from app.dialogs.entity_form import ItemDialog
from app.dialogs.gear_dialog import GearDialog
from app.dialogs.joint_dialog import RevoluteJointDialog
from app.dialogs.move_dialog import MoveDialog
from app.dialogs.pair_dialog import GearPairDialog
from app.dialogs.planetary_dialog import PlanetaryDialog
from core.commands import AddItem, DuplicateItem, RemoveItem, replace_fields
from core.errors import ModelError
from core.gearing.fixes import FIXES, fix_command
from core.model import entities as E
from core.model.builders import selection_defaults
from core.model.kinds import KINDS


class ModelEdits:
    """The main window's edits of its document's model (a mixin of app.main_window.MainWindow: it uses the
    window's `doc`, `tree`, `report`, `select`, `statusBar` and `dialog_memory`)."""

    def apply(self, command) -> bool:
        try:
            self.doc.apply(command)
        except ModelError as exc:
            self.report(str(exc))
            return False
        return True

    def add_gear(self, kind: str) -> None:
        dlg = GearDialog(kind, self.doc.model.numbered("gear"), self, memory=self.dialog_memory.setdefault(kind, {}))
        if dlg.exec() and dlg.body is not None:
            self.apply(AddItem(dlg.body))
            self.statusBar().showMessage(f"{dlg.body.name}: {dlg.body.mass:.4g} kg from its mesh", 5000)

    def add_revolute(self) -> None:
        if not self.doc.model.bodies:
            self.report("Revolute Joint: add a body first")
            return
        start = selection_defaults(E.RevoluteJoint, self.doc.model, self.tree.current())
        dlg = RevoluteJointDialog(self.doc.model, self.doc.model.numbered("joint"), self,
                                  body_j=start.get("body_j", ""))
        if dlg.exec() and dlg.joint is not None:
            self.apply(AddItem(dlg.joint))

    def add_pair(self) -> None:
        dlg = GearPairDialog(self.doc.model, self.doc.model.numbered("pair"), self)
        if dlg.exec() and dlg.command is not None:
            self.apply(dlg.command)

    def add_planetary(self) -> None:
        dlg = PlanetaryDialog(self)
        if dlg.exec() and dlg.command is not None:
            self.apply(dlg.command)

    def import_mesh(self, path=None) -> None:
        """Model > Import OBJ/STL, on `path` when given (a file dropped on the window)."""
        model = self.doc.model
        dlg = ImportMeshDialog(model.numbered("part"), self, folder=self.doc.own_folder(),
                               free_name=lambda stem: stem if stem not in model.names() else model.numbered(stem))
        if path:
            dlg.path.setText(str(path))
            dlg.show_preview()
        if dlg.exec() and dlg.body is not None and self.apply(AddItem(dlg.body)):
            for note in dlg.notes:
                self.statusBar().showMessage(note, 10_000)

    def add_primitive(self, shape: str) -> None:
        dlg = PrimitiveDialog(shape, self.doc.model.numbered(shape), self)
        if dlg.exec() and dlg.body is not None:
            self.apply(AddItem(dlg.body))

    def add_load(self, cls, title: str) -> None:
        refs = getattr(cls, "REFERENCE_FIELDS", {})
        need = {"revolute": "a revolute joint", "gear pair": "a gear pair", "body": "a body"}
        model = self.doc.model
        for kind in set(refs.values()) - {"optional body"}:
            have = {"revolute": [j for j in model.joints.values() if isinstance(j, E.RevoluteJoint)],
                    "gear pair": list(model.gear_pairs), "body": list(model.bodies)}[kind]
            if not have:
                bearings = kind == "revolute" and any(isinstance(f, E.BearingSpringDamper)
                                                      for f in model.forces.values())
                self.report(f"{title}: add {need[kind]} first" + (
                    " (Model > Revolute Joint): on a shaft a Bearing Spring-Damper holds, the joint is 'Carried by a "
                    "bearing' and keeps only the axis it acts about" if bearings else ""))
                return
        dlg = ItemDialog(cls, model, self.doc.model.numbered(KINDS[cls].stem or cls.__name__.lower()), title,
                         t_span=model.settings.t_end, parent=self,
                         **selection_defaults(cls, model, self.tree.current()))
        if dlg.exec() and dlg.item is not None:
            self.apply(AddItem(dlg.item))

    def rename_item(self, old: str, new: str) -> None:
        """Rename item `old` to `new` (F2 in the model tree): a name taken or not allowed is said, the name kept."""
        try:
            command = replace_fields(self.doc.model, old, name=new.strip())
        except ModelError as exc:
            self.report(str(exc))
            return
        if self.apply(command):
            self.select(new.strip())

    def move_body(self, name: str) -> None:
        if name not in self.doc.model.bodies:
            self.report("Move / Rotate: select a body first")
            return
        dlg = MoveDialog(self.doc.model, name, self)
        if dlg.exec() and dlg.command is not None:
            self.apply(dlg.command)

    def apply_fix(self, finding) -> None:
        """Apply the one-click fix a finding offers (e.g. move gear 2 into mesh)."""
        try:
            command = fix_command(self.doc.model, finding)
        except ModelError as exc:
            self.report(str(exc))
            return
        if command is not None and self.apply(command):  # said where the user looks: the list's line is gone
            self.statusBar().showMessage(f"{FIXES[finding.fix][0]}: done (Edit > Undo takes it back)", 10_000)

    def delete_selected(self) -> None:
        name = self.tree.current()
        if not name:
            return
        cmd = RemoveItem(self.doc.model, name)
        if cmd.dependent_names:
            answer = QMessageBox.question(self, "Delete",
                                          f"Deleting {name} also deletes: {', '.join(cmd.dependent_names)}. Go on?")
            if answer != QMessageBox.Yes:
                return
        self.apply(cmd)

    def duplicate_selected(self) -> None:
        """A copy of the selected body or force element under a new name, in the same place, selected (move it
        with Move / Rotate)."""
        name = self.tree.current()
        if not name:
            self.report("Duplicate: select a body or a load in the model tree first")
            return
        new = self.doc.model.numbered(f"{name}_copy")
        try:
            command = DuplicateItem(self.doc.model, name, new)
        except ModelError as exc:
            self.report(str(exc))
            return
        if self.apply(command):
            self.select(new)
            where = " on the original: move it with Move / Rotate (Ctrl+M)" if new in self.doc.model.bodies else ""
            self.statusBar().showMessage(f"{new}: a copy of {name}{where}", 10_000)
