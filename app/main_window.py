"""The GearDyn main window: menus, toolbars, model tree, properties, messages, 3-D view, files, undo."""

from __future__ import annotations

import importlib.metadata
import os
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app import smoke
from app.background import Background
from app.dialogs.check_dialog import CheckDialog
from app.dialogs.getting_started import GettingStartedDialog, shortcut
from app.dialogs.settings_dialog import SettingsDialog
from app.docks.history import HistoryDock
from app.docks.messages import MessagesDock
from app.docks.model_tree import ModelTreeDock
from app.docks.properties import PropertyDock
from app.document import EXAMPLES, Document
from app.file_menu import AUTOSAVE_MS, FileMenu, recovery_path
from app.launch import ICON
from app.model_edits import ModelEdits
from app.run.animation import Animator
from app.run.clock import PlaybackClock
from app.run.controller import RunController
from app.run.kernels import KernelLoader
from app.run.playback_bar import PlaybackBar
from app.run.run_menu import RunMenu
from app.screen import close_key, fit_to_screen
from app.tree_menu import item_menu, section_menu
from app.view_menu import ViewControls
from app.wheel_guard import guard_wheel
from app.window_menus import build_menus_and_toolbars
from core.commands import SetSettings
from core.dynamics.results import SUFFIX as RESULTS_SUFFIX
from core.model.kinds import tools


def about_text() -> str:
    """The program's version and those of the libraries it stands on (for a bug report)."""
    version = _version("geardyn") or "(not installed: run from the source folder)"
    libraries = ", ".join(f"{name} {v}" for name, dist in (
        ("PySide6", "PySide6-Essentials"), ("numpy", "numpy"), ("scipy", "scipy"), ("numba", "numba"),
        ("pyvista", "pyvista"), ("VTK", "vtk"), ("h5py", "h5py")) if (v := _version(dist)))
    return (f"GearDyn {version}\n\nA multibody gear modeller: gears from macro-geometry, Willis gear pairs, "
            f"compliant and lossy meshes, harmonic balance.\n\nPython {sys.version.split()[0]}; {libraries}")


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


class MainWindow(FileMenu, RunMenu, ModelEdits, QMainWindow):
    """Main window holding one document (its File menu: app.file_menu; its runs: app.run.run_menu; its edits of
    the model: app.model_edits)."""

    def __init__(self, make_view: bool = True):
        """`make_view` False: the 3-D view is made later by `make_view` (run_gui shows the window first)."""
        super().__init__()
        guard_wheel(QApplication.instance())  # the wheel scrolls the docks and dialogs, not the lists in them
        # The 3-D view is a native window (app.viewport); the docks, the window's toolbars and its menu bar stay
        # Qt's own (only the bars above and below the view are made native, below): made native with it, a menu in
        # a dock (an entry's Cut / Copy / Paste) would stand over the dock, not a top-level window, and Qt warns.
        QApplication.setAttribute(Qt.AA_DontCreateNativeWidgetSiblings)
        self.settings = QSettings("GearDyn", "GearDyn")
        self.setAcceptDrops(True)  # a model, results or mesh file dropped on the window opens (FileMenu.dropEvent)
        self.doc = Document(self)
        self.viewport = None
        self.view_placeholder = QLabel("Preparing the 3-D view...")
        self.view_placeholder.setAlignment(Qt.AlignCenter)
        self.clock = PlaybackClock(self)
        self.playback = PlaybackBar(self.clock, self)
        centre = QWidget()
        lay = QVBoxLayout(centre)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.view_toolbar = QToolBar("View")  # over the 3-D view: its camera and drawing
        self.view_toolbar.setObjectName("view_toolbar")
        lay.addWidget(self.view_toolbar)
        lay.addWidget(self.view_placeholder, 1)
        lay.addWidget(self.playback)
        # the bars above and below the view are native windows too: as Qt's own widgets in the view's native holder,
        # they were not repainted when a menu or window over them closed (its picture stayed on them)
        for bar in (self.view_toolbar, self.playback):
            bar.setAttribute(Qt.WA_NativeWindow)
        self.setCentralWidget(centre)
        self.animator = Animator(self.doc, self.clock, None, self.playback, self)
        self.dialog_memory: dict[str, dict] = {}  # per dialog kind: the values it was last accepted with
        self.runner = RunController(self.doc, self)
        self.kernel_loading = Background(self)  # the compiled kernels for the model checks (load_kernels)
        # a thread may not outlive the app: also when it quits without closing the window (the smoke test)
        QApplication.instance().aboutToQuit.connect(self.kernel_loading.finish)
        self.telemetry = None
        self.chbm = None
        self.train = None
        self.study = None
        self.doc.runs_changed.connect(self._runs_changed)
        self.runner.started.connect(self._run_started)
        self.runner.preparing.connect(lambda note: self.progress.setFormat(f"{self.runner.record.label}: {note}"))
        self.runner.prepared.connect(self._run_prepared)
        self.runner.progress.connect(self._run_progress)
        self.runner.finished.connect(self._run_finished)
        self.runner.refused.connect(self._run_refused)
        self.tree = ModelTreeDock(self)
        self.tree_menu = None  # the tree's right-click menu while it is open
        self.props = PropertyDock(self.doc, self.report, self, t_span=lambda: self.doc.model.settings.t_end)
        self.messages = MessagesDock(self)
        self.history = HistoryDock(self.doc.undo_stack, self)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.tree)
        self.addDockWidget(Qt.RightDockWidgetArea, self.props)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.messages)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.history)
        self.history.hide()
        self.tree.selected.connect(self.select)
        self.tree.menu_asked.connect(lambda name, at: self._tree_menu(item_menu(self, name), at))
        self.tree.section_menu_asked.connect(lambda coll, at: self._tree_menu(section_menu(self, coll), at))
        self.tree.rename_asked.connect(self.rename_item)
        self.messages.picked.connect(self.select)
        self.messages.fix_requested.connect(self.apply_fix)
        self.messages.settings_requested.connect(self.settings_for)
        self.props.move_requested.connect(self.move_body)
        self.doc.changed.connect(self.refresh)
        self.last_change = None  # what the last edit, undo or redo changed (app.document.ModelChange)
        self.doc.items_changed.connect(self._items_changed)
        self._make_actions()
        fit_to_screen(self, 1280, 800)
        self.props.setMinimumWidth(300)
        self._laid_out = bool(self.settings.value("state"))
        if self.settings.value("geometry"):
            self.restoreGeometry(self.settings.value("geometry"))
            self.restoreState(self.settings.value("state"))
        self.autosave = QTimer(self)
        self.autosave.timeout.connect(self.write_autosave)
        self.autosave.start(AUTOSAVE_MS)
        self.progress = QProgressBar()
        self.progress.setObjectName("run_progress")
        self.progress.setRange(0, 1000)
        self.progress.setMinimumWidth(380)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.run_notes: list[str] = []
        self.statusBar().showMessage("Ready")
        self.tree.show_model(self.doc.model)
        self.view_controls.set_enabled(False)
        if make_view:
            self.make_view()
        self.refresh()

    def make_view(self) -> None:
        """Make the 3-D view in place of its placeholder and show the model in it."""
        # Imported here, not at the top: pyvista's modules take about 0.6 s to load, and the window shows first.
        from app.viewport import ViewportWidget

        self.viewport = self.animator.viewport = ViewportWidget(self, on_pick=self.select)
        self.centralWidget().layout().replaceWidget(self.view_placeholder, self.viewport)
        self.view_placeholder.deleteLater()
        self.view_controls.set_enabled(True)
        self.viewport.empty_hint = (
            f"An empty model: Gears > Gear Pair {shortcut(self.act_pair)} generates two gears in mesh on their joints,\n"
            f"Gears > Planetary Gearset {shortcut(self.act_planetary)} a whole set; File > Open reads an example.\n"
            f"Help > Getting Started {shortcut(self.act_getting_started)} builds a first model step by step.")
        self.viewport.show_model(self.doc.model, self.doc.base_dir)
        self.refresh()

    def load_kernels(self) -> None:
        """Load the compiled kernels in the background (app.run.kernels): the checks after each edit run compiled
        once they are ready; the status bar says when they cannot be."""
        worker = KernelLoader(self.doc.model)
        worker.done.connect(self._kernels_loaded)
        self.kernel_loading.start(worker)

    def _kernels_loaded(self, ok: bool, why: str) -> None:
        self.kernel_loading.finish()
        if not ok:
            self.statusBar().showMessage(f"Model checks run in Python: {why}", 10_000)

    # ------------------------------------------------------------------ actions

    def action(self, text, slot, shortcut=None, tip="", name=None, checkable: bool = False) -> QAction:
        """An action of this window: `slot` on trigger, a shortcut, its tip as tooltip and status tip, an object
        name (default: from the text) by which tests and the smoke test find it."""
        act = QAction(text, self)
        act.setCheckable(checkable)
        act.triggered.connect(slot)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.setToolTip(tip or text.replace("&", ""))
        act.setStatusTip(tip or text.replace("&", ""))
        act.setObjectName(name or text.replace("&", "").replace(" ", "_").replace(".", "").lower())
        return act

    def _make_actions(self) -> None:
        a = self.action
        self.view_controls = ViewControls(self)
        for act in self.view_controls.toolbar_actions:
            self.view_toolbar.addAction(act)
        self.act_new = a("&New", self.file_new, QKeySequence.New, "Start an empty model")
        self.act_open = a("&Open...", self.file_open, QKeySequence.Open, "Open a .gdyn model file")
        self.act_save = a("&Save", self.file_save, QKeySequence.Save, "Save the model")
        self.act_save_as = a("Save &As...", self.file_save_as, QKeySequence("Ctrl+Shift+S"), "Save the model under a new name")
        self.act_quit = a("&Quit", self.close, QKeySequence.Quit, "Close GearDyn")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.Undo)
        undo.setObjectName("undo")
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])  # the two a user may know
        redo.setObjectName("redo")
        self.act_undo, self.act_redo = undo, redo
        stack = self.doc.undo_stack  # after the stack's own slot: the step is taken when these run
        undo.triggered.connect(lambda: self._show_step("Undo", stack.redoText()))
        redo.triggered.connect(lambda: self._show_step("Redo", stack.undoText()))
        self.act_delete = a("&Delete", self.delete_selected, QKeySequence.Delete, "Delete the selected item and what depends on it")
        self.act_duplicate = a("D&uplicate", self.duplicate_selected, "Ctrl+D",
                               "A copy of the selected body or load under a new name, in the same place")
        self.act_helical = a("Helical Gear", lambda: self.add_gear("helical"), "Ctrl+1", "Generate a helical or spur gear (helix 0) from its macro-geometry", "helical_gear")
        self.act_inner = a("Inner Gear", lambda: self.add_gear("inner"), "Ctrl+2", "Generate an inner (ring) gear", "inner_gear")
        self.act_bevel = a("Bevel Gear", lambda: self.add_gear("bevel"), "Ctrl+3", "Generate a straight bevel gear", "bevel_gear")
        self.act_pair = a("Gear Pair", self.add_pair, "Ctrl+4", "Couple two revolute joints by a gear pair (Willis equation)", "gear_pair")
        self.act_planetary = a("Planetary Gearset", self.add_planetary, "Ctrl+5", "Sun, planets on a carrier, ring: bodies, joints and pairs", "planetary")
        self.act_revolute = a("Revolute Joint", self.add_revolute, "Ctrl+J", "Joint: body I is the carrier, body J the gear", "revolute_joint")
        self.act_import = a("Import OBJ/STL", self.import_mesh, "Ctrl+I", "Import a mesh as a rigid body (unit, density, watertight check)", "import_mesh")
        self.act_cylinder = a("Cylinder", lambda: self.add_primitive("cylinder"), None, "A cylinder body, e.g. a carrier disc", "cylinder")
        self.act_box = a("Box", lambda: self.add_primitive("box"), None, "A box body, e.g. a housing", "box")
        self.act_check = a("&Check Model...", self.check_model, "Ctrl+Shift+K", "Degrees of freedom, redundant "
                           "constraints and every finding of the model", "check_model")
        self.act_move = a("&Move / Rotate...", lambda: self.move_body(self.tree.current()), "Ctrl+M",
                          "Move or turn the selected body (and the joints on it), or snap it onto a joint axis", "move")
        # every registered kind of force element with a tool under Loads; the joints' (the fixed joint; the revolute
        # joint has a dialog of its own) under Model beside the revolute joint (core.model.kinds lists both)
        self.load_actions, self.joint_actions = ([a(k.label, lambda _=False, c=k.cls, t=k.label: self.add_load(c, t),
                                                    None, k.tip, k.tag) for k in tools(root)]
                                                 for root in ("forces", "joints"))
        self.act_settings = a("Simulation &Settings...", self.edit_settings, "Ctrl+E",
                              "End time, steps, integrator and its options, formulation", "simulation_settings")
        self.act_run = a("&Run", self.run_simulation, "F5", "Simulate the model (in the background)", "run")
        self.act_stop = a("S&top", self.stop_simulation, "Shift+F5", "Stop the run; what it computed is kept", "stop")
        self.act_stop.setEnabled(False)
        self.act_play = a("&Play / Pause", self.clock.toggle, "Space", "Play or pause the animation", "play_pause")
        self.act_start = a("Go to &Start", self.clock.to_start, "Home", "The animation at its first sample", "go_to_start")
        self.act_end = a("Go to &End", self.clock.to_end, "End", "The animation at its last sample", "go_to_end")
        self.act_forces = a("Show &Tooth Forces", self._overlays_changed, None,
                            "Ft, Fr and Fa on gear 2 at each pitch point (red, green, violet), on one scale given in the "
                            "view; the gears turn see-through", "show_forces")
        self.act_axes = a("Show &Joint Axes", self._overlays_changed, None,
                          "The revolute joints' axes, through the see-through bodies", "show_axes")
        self.act_circles = a("Show &Pitch Circles", self._overlays_changed, None,
                             "Each gear pair's working pitch circles in the gears' mid-face planes: a gap or an overlap "
                             "between two shows a gear off its centre distance", "show_pitch_circles")
        for act in (self.act_forces, self.act_axes, self.act_circles):
            act.setCheckable(True)
        self.act_video = a("Export &Video...", self.export_video, None, "Write the animation to MP4 or GIF", "export_video")
        self.act_open_results = a("Open &Results...", self.open_results, None, "Open a results file (.gdres)",
                                  "open_results")
        self.act_save_results = a("Save R&esults As...", self.save_results, None,
                                  "Save the current run's results (.gdres)", "save_results")
        self.act_chbm = a("&CHBM Study", self.show_chbm, "Ctrl+H",
                          "Forced response of a gear pair by coupled harmonic balance, with stability and DTI", "chbm_study")
        self.act_train = a("&Train Dynamics", self.show_train, "Ctrl+Shift+D",
                           "Modes, Campbell diagram and forced response of the model's gear train by harmonic balance",
                           "train_dynamics")
        self.act_study = a("&Parameter Study", self.show_study, "Ctrl+Shift+P",
                           "Vary fields of the model, run the cases on dask, compare the results", "parameter_study")
        self.act_getting_started = a("&Getting Started", self.getting_started, QKeySequence.HelpContents,
                                     "A helical pair built, run, plotted and exported, step by step", "getting_started")
        self.act_about = a("&About GearDyn", self.about, tip="About GearDyn")
        self.act_telemetry = a("&Telemetry", self.show_telemetry, "Ctrl+T",
                               "Plots of the channels: tooth forces, speeds, reactions, spectra with mesh orders",
                               "telemetry")
        build_menus_and_toolbars(self, EXAMPLES)
        self._update_recent()

    # ------------------------------------------------------------------ view

    def refresh(self) -> None:
        """Title and messages (cheap; the tree, view and properties update item by item)."""
        name = self.doc.path.name if self.doc.path else "untitled"
        self.setWindowTitle(f"GearDyn - {name}{' *' if self.doc.dirty else ''}")
        problems = self.viewport.problems if self.viewport is not None else []
        self.messages.show_findings(self.doc.findings, [*problems, *self.run_notes])

    def _items_changed(self, change) -> None:
        self.last_change = change
        self.tree.update_items(self.doc.model, change)
        if self.viewport is None:  # make_view shows the model when it comes
            return
        names = None if change.reset else change.touched()
        if names is None or names:
            self.viewport.sync_model(self.doc.model, self.doc.base_dir, names=names)
        if change.reset:
            self.viewport.view_isometric()

    def _show_step(self, verb: str, text: str) -> None:
        """After Undo or Redo: an item it brought back or changed is selected (unless the selection is one), so its
        Properties show what came back; the status bar says which step it was."""
        change = self.last_change
        named = (*change.replaced.values(), *change.added) if change is not None else ()
        back = [n for n in named if self.doc.model.find(n) is not None]
        if back and self.tree.current() not in back:
            self.select(back[0])
        self.statusBar().showMessage(f"{verb}: {text}", 8000)

    def _tree_menu(self, menu, at) -> None:
        """A right-click menu of the tree, shown at `at` (screen); kept until the next one replaces it."""
        self.tree_menu = menu
        menu.popup(at)

    def select(self, name: str) -> None:
        if self.tree.current() != name:
            self.tree.select(name)
        self.props.show_item(name)
        if self.viewport is not None:
            self.viewport.highlight(name if name in self.doc.model.bodies else "")

    def report(self, message: str, more: list[str] | tuple = ()) -> None:
        """Say `message` in the status bar and a warning box, the box with the lines `more` below it."""
        self.statusBar().showMessage(message, 10_000)
        QMessageBox.warning(self, "GearDyn", "\n".join([message, *more]))

    def check_model(self) -> None:
        CheckDialog(self.doc.model, self.doc.findings, self).exec()

    def about(self) -> None:
        QMessageBox.about(self, "About GearDyn", about_text())

    def getting_started(self) -> None:
        GettingStartedDialog(self).exec()

    # ------------------------------------------------------------------ simulation

    def edit_settings(self) -> None:
        self.settings_for("")

    def settings_for(self, field: str) -> None:
        """The Simulation Settings dialog with `field`'s entry in focus ('' for none)."""
        dlg = SettingsDialog(self.doc.model, self, field)
        if dlg.exec() and dlg.settings is not None and dlg.settings != self.doc.model.settings:
            self.apply(SetSettings(self.doc.model, dlg.settings))

    def _overlays_changed(self) -> None:
        self.animator.show_forces = self.act_forces.isChecked()
        self.animator.show_axes = self.act_axes.isChecked()
        self.animator.show_circles = self.act_circles.isChecked()
        self.animator.show(self.clock.time)

    def _window(self, attr: str, make):
        """A tool window made when first asked for (its module loads pyqtgraph), then shown and raised."""
        if getattr(self, attr) is None:
            window = make()
            close_key(window)
            setattr(self, attr, window)
        window = getattr(self, attr)
        window.show()
        window.raise_()
        return window

    def show_telemetry(self):
        """The Telemetry window over the current run."""
        from app.telemetry.window import TelemetryWindow

        def make():
            telemetry = TelemetryWindow(self.doc, self.clock, self)
            telemetry.addActions([self.act_run, self.act_stop])  # F5 and Shift+F5 there too, as its title offers
            return telemetry

        return self._window("telemetry", make)

    def show_chbm(self):
        """The CHBM study window."""
        from app.chbm.window import ChbmWindow

        return self._window("chbm", lambda: ChbmWindow(self.doc, self))

    def show_train(self):
        """The Train Dynamics window."""
        from app.chbm.train_window import TrainWindow

        return self._window("train", lambda: TrainWindow(self.doc, self.viewport, self))

    def show_study(self):
        """The Parameter Study window."""
        from app.studies.window import StudyWindow

        return self._window("study", lambda: StudyWindow(self.doc, self))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._laid_out:  # the first start: sizes that suit a 1280 x 800 screen (docks size once laid out)
            self._laid_out = True
            QTimer.singleShot(0, self._default_dock_sizes)

    def _default_dock_sizes(self) -> None:
        self.resizeDocks([self.tree, self.props], [230, 360], Qt.Horizontal)
        self.resizeDocks([self.messages], [130], Qt.Vertical)

    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        if self.runner.running:
            self.runner.stop()
            self.runner.wait()
        self.clock.pause()
        for window in (self.chbm, self.train, self.study):
            if window is not None:
                window.close()  # stops its study thread
        if self.study is not None:
            self.study.end()
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        recovery_path().unlink(missing_ok=True)
        self.kernel_loading.finish()  # a thread may not outlive its window (waits for the loading to end)
        if self.viewport is not None:
            self.viewport.close()
        event.accept()


def open_first(window: MainWindow, args: list[str]) -> Path:
    """The model the window shows first: the autosave a crash left when the user restores it (nothing is opened
    over it), else the model file in `args` or the planetary example. Returns the file asked for (a results
    file is opened by the caller, once the 3-D view is made)."""
    restored = window.offer_recovery()
    target = Path(args[0]) if args else EXAMPLES / "planetary.gdyn"
    if target.suffix == RESULTS_SUFFIX:
        return target
    if not restored:
        window.open_file(target, ask=False)
    elif args:
        window.statusBar().showMessage(f"Restored the autosaved model; {target.name} was not opened (File > Open)",
                                       10_000)
    return target


def run_gui(args: list[str], splash=None) -> int:
    """Open the main window on the file in `args` (default: the planetary example); `splash`, the splash screen
    shown while the app loaded, closes when the window shows."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("GearDyn")
    app.setOrganizationName("GearDyn")
    app.setWindowIcon(QIcon(str(ICON)))
    window = MainWindow(make_view=False)
    window.show()
    if splash is not None:
        splash.close()
    app.processEvents()  # the window drawn before the 3-D view's modules load
    if os.environ.get("GEARDYN_SMOKE_TEST"):
        print("smoke test: window shown", flush=True)
    target = open_first(window, args)
    app.processEvents()  # the model's tree and messages shown while the view's modules load
    window.make_view()
    window.load_kernels()
    if target.suffix == RESULTS_SUFFIX:  # a run to play: the view first
        window.open_results_file(target)
    if os.environ.get("GEARDYN_SMOKE_TEST"):  # packaging/smoke_test.py (app.smoke)
        QTimer.singleShot(0, lambda: smoke.start(app, window))
    return app.exec()
