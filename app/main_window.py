"""The GearDyn main window: menus, toolbars, model tree, properties, messages, 3-D view, files, undo."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QMessageBox

from app.dialogs.body_dialogs import ImportMeshDialog, PrimitiveDialog
from app.dialogs.gear_dialog import GearDialog
from app.dialogs.joint_dialog import RevoluteJointDialog
from app.dialogs.pair_dialog import GearPairDialog
from app.dialogs.planetary_dialog import PlanetaryDialog
from app.docks.messages import MessagesDock
from app.docks.model_tree import ModelTreeDock
from app.docks.properties import PropertyDock
from app.document import Document
from app.viewport import ViewportWidget
from core.commands import AddItem, RemoveItem
from core.model.files import SUFFIX, save
from core.model.model import ModelError

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
AUTOSAVE_MS = 60_000
MAX_RECENT = 8


def recovery_path() -> Path:
    base = Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or Path.home() / ".geardyn")
    base.mkdir(parents=True, exist_ok=True)
    return base / "autosave.gdyn"


class MainWindow(QMainWindow):
    """Main window holding one document."""

    def __init__(self):
        super().__init__()
        self.settings = QSettings("GearDyn", "GearDyn")
        self.doc = Document(self)
        self.viewport = ViewportWidget(self, on_pick=self.select)
        self.setCentralWidget(self.viewport)
        self.tree = ModelTreeDock(self)
        self.props = PropertyDock(self.doc, self.report, self)
        self.messages = MessagesDock(self)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.tree)
        self.addDockWidget(Qt.RightDockWidgetArea, self.props)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.messages)
        self.tree.selected.connect(self.select)
        self.messages.picked.connect(self.select)
        self.doc.changed.connect(self.refresh)
        self._make_actions()
        self.resize(1280, 820)
        if self.settings.value("geometry"):
            self.restoreGeometry(self.settings.value("geometry"))
            self.restoreState(self.settings.value("state"))
        self.autosave = QTimer(self)
        self.autosave.timeout.connect(self.write_autosave)
        self.autosave.start(AUTOSAVE_MS)
        self.statusBar().showMessage("Ready")
        self.refresh()

    # ------------------------------------------------------------------ actions

    def _action(self, text, slot, shortcut=None, tip="", name=None) -> QAction:
        act = QAction(text, self)
        act.triggered.connect(slot)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.setToolTip(tip or text.replace("&", ""))
        act.setStatusTip(tip or text.replace("&", ""))
        act.setObjectName(name or text.replace("&", "").replace(" ", "_").replace(".", "").lower())
        return act

    def _make_actions(self) -> None:
        a = self._action
        self.act_new = a("&New", self.file_new, QKeySequence.New, "Start an empty model")
        self.act_open = a("&Open...", self.file_open, QKeySequence.Open, "Open a .gdyn model file")
        self.act_save = a("&Save", self.file_save, QKeySequence.Save, "Save the model")
        self.act_save_as = a("Save &As...", self.file_save_as, QKeySequence("Ctrl+Shift+S"), "Save the model under a new name")
        self.act_quit = a("&Quit", self.close, QKeySequence.Quit, "Close GearDyn")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.Undo)
        undo.setObjectName("undo")
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence("Ctrl+Shift+Z"))
        redo.setObjectName("redo")
        self.act_undo, self.act_redo = undo, redo
        self.act_delete = a("&Delete", self.delete_selected, QKeySequence.Delete, "Delete the selected item and what depends on it")
        self.act_helical = a("Helical Gear", lambda: self.add_gear("helical"), "Ctrl+1", "Generate a helical or spur gear (helix 0) from its macro-geometry", "helical_gear")
        self.act_inner = a("Inner Gear", lambda: self.add_gear("inner"), "Ctrl+2", "Generate an inner (ring) gear", "inner_gear")
        self.act_bevel = a("Bevel Gear", lambda: self.add_gear("bevel"), "Ctrl+3", "Generate a straight bevel gear", "bevel_gear")
        self.act_pair = a("Gear Pair", self.add_pair, "Ctrl+4", "Couple two revolute joints by a gear pair (Willis equation)", "gear_pair")
        self.act_planetary = a("Planetary Gearset", self.add_planetary, "Ctrl+5", "Sun, planets on a carrier, ring: bodies, joints and pairs", "planetary")
        self.act_revolute = a("Revolute Joint", self.add_revolute, "Ctrl+J", "Joint: body I is the carrier, body J the gear", "revolute_joint")
        self.act_import = a("Import OBJ/STL", self.import_mesh, "Ctrl+I", "Import a mesh as a rigid body (unit, density, watertight check)", "import_mesh")
        self.act_cylinder = a("Cylinder", lambda: self.add_primitive("cylinder"), None, "A cylinder body, e.g. a carrier disc", "cylinder")
        self.act_box = a("Box", lambda: self.add_primitive("box"), None, "A box body, e.g. a housing", "box")
        menu = self.menuBar()
        fm = menu.addMenu("&File")
        for act in (self.act_new, self.act_open):
            fm.addAction(act)
        self.examples_menu = fm.addMenu("Open &Example")
        for path in sorted(EXAMPLES.glob(f"*{SUFFIX}")):
            self.examples_menu.addAction(self._action(path.stem, lambda _=False, p=path: self.open_file(p),
                                                      tip=f"Open the example {path.name}", name=f"example_{path.stem}"))
        self.recent_menu = fm.addMenu("Open &Recent")
        fm.addSeparator()
        for act in (self.act_save, self.act_save_as):
            fm.addAction(act)
        fm.addSeparator()
        fm.addAction(self.act_quit)
        em = menu.addMenu("&Edit")
        em.addAction(undo)
        em.addAction(redo)
        em.addSeparator()
        em.addAction(self.act_delete)
        vm = menu.addMenu("&View")
        for dock in (self.tree, self.props, self.messages):
            vm.addAction(dock.toggleViewAction())
        mm = menu.addMenu("&Model")
        for act in (self.act_revolute, self.act_import, self.act_cylinder, self.act_box):
            mm.addAction(act)
        gm = menu.addMenu("&Gears")
        for act in (self.act_helical, self.act_inner, self.act_bevel, self.act_pair, self.act_planetary):
            gm.addAction(act)
        menu.addMenu("&Simulate")
        menu.addMenu("&Analysis")
        hm = menu.addMenu("&Help")
        hm.addAction(self._action("&About GearDyn", self.about, tip="About GearDyn"))
        tb = self.addToolBar("File")
        tb.setObjectName("file_toolbar")
        for act in (self.act_new, self.act_open, self.act_save):
            tb.addAction(act)
        gt = self.addToolBar("Gears")
        gt.setObjectName("gears_toolbar")
        for act in (self.act_helical, self.act_inner, self.act_bevel, self.act_pair, self.act_planetary):
            gt.addAction(act)
        jt = self.addToolBar("Joints and Bodies")
        jt.setObjectName("joints_toolbar")
        for act in (self.act_revolute, self.act_import, self.act_cylinder, self.act_box):
            jt.addAction(act)
        self._update_recent()

    # ------------------------------------------------------------------ view

    def refresh(self) -> None:
        model = self.doc.model
        name = self.doc.path.name if self.doc.path else "untitled"
        self.setWindowTitle(f"GearDyn - {name}{' *' if self.doc.dirty else ''}")
        self.tree.show_model(model)
        self.viewport.show_model(model, self.doc.path.parent if self.doc.path else None,
                                 reset_camera=not self.viewport.body_actors)
        self.messages.show_findings(self.doc.findings, self.viewport.problems)
        self.props.show_item(self.tree.current())

    def select(self, name: str) -> None:
        if self.tree.current() != name:
            self.tree.select(name)
        self.props.show_item(name)
        self.viewport.highlight(name if name in self.doc.model.bodies else "")

    def report(self, message: str) -> None:
        self.statusBar().showMessage(message, 10_000)
        QMessageBox.warning(self, "GearDyn", message)

    def about(self) -> None:
        QMessageBox.about(self, "GearDyn", "GearDyn: a multibody gear modeller.")

    # ------------------------------------------------------------------ edits

    def _unique(self, stem: str) -> str:
        names = self.doc.model.names()
        k = 1
        while f"{stem}{k}" in names:
            k += 1
        return f"{stem}{k}"

    def apply(self, command) -> bool:
        try:
            self.doc.apply(command)
        except ModelError as exc:
            self.report(str(exc))
            return False
        return True

    def add_gear(self, kind: str) -> None:
        dlg = GearDialog(kind, self._unique("gear"), self)
        if dlg.exec() and dlg.body is not None:
            self.apply(AddItem(dlg.body))
            self.statusBar().showMessage(f"{dlg.body.name}: {dlg.body.mass:.4g} kg from its mesh", 5000)

    def add_revolute(self) -> None:
        if not self.doc.model.bodies:
            self.report("Revolute Joint: add a body first")
            return
        dlg = RevoluteJointDialog(self.doc.model, self._unique("joint"), self)
        if dlg.exec() and dlg.joint is not None:
            self.apply(AddItem(dlg.joint))

    def add_pair(self) -> None:
        dlg = GearPairDialog(self.doc.model, self._unique("pair"), self)
        if dlg.exec() and dlg.command is not None:
            self.apply(dlg.command)

    def add_planetary(self) -> None:
        dlg = PlanetaryDialog(self)
        if dlg.exec() and dlg.command is not None:
            self.apply(dlg.command)

    def import_mesh(self) -> None:
        dlg = ImportMeshDialog(self._unique("part"), self)
        if dlg.exec() and dlg.body is not None and self.apply(AddItem(dlg.body)):
            for note in dlg.notes:
                self.statusBar().showMessage(note, 10_000)

    def add_primitive(self, shape: str) -> None:
        dlg = PrimitiveDialog(shape, self._unique(shape), self)
        if dlg.exec() and dlg.body is not None:
            self.apply(AddItem(dlg.body))

    def delete_selected(self) -> None:
        name = self.tree.current()
        if not name:
            return
        cmd = RemoveItem(self.doc.model, name)
        if cmd.dependent_names:
            answer = QMessageBox.question(self, "Delete", f"Deleting {name} also deletes: {', '.join(cmd.dependent_names)}. Go on?")
            if answer != QMessageBox.Yes:
                return
        self.apply(cmd)

    # ------------------------------------------------------------------ files

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current model (saved, discarded or nothing to lose)."""
        if not self.doc.dirty:
            return True
        answer = QMessageBox.question(self, "Unsaved changes", "The model has unsaved changes. Save them?",
                                      QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
        if answer == QMessageBox.Save:
            return self.file_save()
        return answer == QMessageBox.Discard

    def file_new(self) -> None:
        if self.maybe_save():
            self.doc.new()

    def file_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open model", str(EXAMPLES), f"GearDyn models (*{SUFFIX})")
        if path:
            self.open_file(path, ask=False)

    def open_file(self, path, ask: bool = True) -> bool:
        """Load a model file; on failure say why and keep the current model."""
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path)
        except ModelError as exc:
            self.report(f"Cannot open the model: {exc}")
            return False
        self._remember(Path(path))
        self.viewport.reset_camera()
        self.viewport.view_isometric()
        return True

    def file_save(self) -> bool:
        if self.doc.path is None:
            return self.file_save_as()
        return self._save_to(self.doc.path)

    def file_save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save model as", str(self.doc.path or "model.gdyn"),
                                              f"GearDyn models (*{SUFFIX})")
        if not path:
            return False
        if not path.endswith(SUFFIX):
            path += SUFFIX
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except (ModelError, OSError) as exc:
            self.report(f"Cannot save: {exc}")
            return False
        self._remember(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _remember(self, path: Path) -> None:
        recent = [p for p in (self.settings.value("recent") or []) if p != str(path)]
        self.settings.setValue("recent", [str(path), *recent][:MAX_RECENT])
        self._update_recent()

    def _update_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.value("recent") or []:
            self.recent_menu.addAction(self._action(Path(p).name, lambda _=False, q=p: self.open_file(q), tip=p,
                                                    name=f"recent_{Path(p).stem}"))

    def write_autosave(self) -> None:
        if self.doc.dirty:
            try:
                save(self.doc.model, recovery_path())
            except (ModelError, OSError):
                pass  # an autosave must never interrupt the user; the next tick tries again

    def offer_recovery(self) -> None:
        """After a crash an autosave is left behind: offer to restore it."""
        path = recovery_path()
        if not path.exists():
            return
        answer = QMessageBox.question(self, "Recover", "GearDyn did not close cleanly. Restore the autosaved model?")
        if answer == QMessageBox.Yes:
            self.open_file(path, ask=False)
            self.doc.path = None
            self.refresh()
        path.unlink(missing_ok=True)

    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        recovery_path().unlink(missing_ok=True)
        self.viewport.close()
        event.accept()


def run_gui(args: list[str]) -> int:
    """Open the main window on the file in `args` (default: the planetary example)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("GearDyn")
    app.setOrganizationName("GearDyn")
    window = MainWindow()
    window.show()
    window.offer_recovery()
    window.open_file(args[0] if args else EXAMPLES / "planetary.gdyn", ask=False)
    return app.exec()
