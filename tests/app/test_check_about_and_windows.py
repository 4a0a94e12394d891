"""Model > Check Model: degrees of freedom and redundant rows of the planetary, a model that nothing moves, the
torques referred to the drive; Help > About with the version, Help > Getting Started; secondary windows that open
whole on the screen."""

from __future__ import annotations

import dataclasses
import json
import tomllib

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMenu, QTextBrowser, QToolBar

from app.main_window import about_text
from app.screen import HEIGHT_SHARE, WIDTH_SHARE

from core.commands import AddItem, SetSettings, replace_fields
from core.dynamics import checks
from core.dynamics.simulate import simulate
from core.model.entities import TimeLaw, Torque
from tests.conftest import EXAMPLES, ROOT


def check_model(window, qtbot) -> dict:
    """Trigger Model > Check Model and read its dialog (then press OK)."""
    seen = {}

    def read():
        dlg = QApplication.activeModalWidget()
        if dlg is None or dlg.objectName() != "check_dialog":
            QTimer.singleShot(50, read)
            return
        seen["freedom"] = dlg.summary.text()
        seen["tally"] = dlg.tally.text()
        seen["balance"] = dlg.balance.text() if dlg.balance.isVisibleTo(dlg) else None
        seen["findings"] = [dlg.findings.item(k).text() for k in range(dlg.findings.count())]
        qtbot.mouseClick(dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)

    QTimer.singleShot(0, read)
    model_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Model")
    assert window.act_check in model_menu.actions()
    window.act_check.trigger()
    qtbot.waitUntil(lambda: "freedom" in seen, timeout=10_000)
    return seen


def test_check_model_counts_the_planetarys_freedom_and_its_redundant_rows(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    seen = check_model(window, qtbot)
    # six joint angles (sun, carrier, ring, three planets), six gear rows of which two close the planets' loops,
    # and the ring's hold: one degree of freedom, the sun's
    assert seen["freedom"] == ("1 degree of freedom: 6 joint angles less 5 independent constraint rows (7 rows, "
                               "2 redundant; 1 of them prescribes a motor's motion)")
    assert any("close 2 loops: 2 constraints are redundant" in f for f in seen["findings"])
    assert seen["balance"] == ("Torques referred to sun_joint (sun_torque's joint) through the train, as their means "
                               "over the run: sun_torque 1 N m; in all 1 N m: they accelerate the train the way "
                               "sun_torque turns it.")


def test_check_model_warns_when_nothing_loads_or_drives_the_model(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    model = window.doc.model
    for name in ("gear1", "gear2"):  # the example's gears start turning: here they start at rest
        window.apply(replace_fields(model, name, angular_velocity=(0.0, 0.0, 0.0)))
    seen = check_model(window, qtbot)
    assert seen["freedom"] == ("1 degree of freedom: 2 joint angles less 1 independent constraint row (1 row, "
                               "0 redundant)")
    assert any(f.startswith("warning: forces: nothing loads or drives the model") for f in seen["findings"])
    assert seen["tally"].startswith("0 errors, 1 warning, ")
    assert seen["balance"] is None  # nothing drives it: nothing to refer to


def test_check_model_refers_the_loads_to_the_drive_and_the_run_turns_the_way_it_says(window, qtbot):
    """10 N m on gear 1 and 25 N m on gear 2 of the 20/40 pair: -12.5 N m at gear 1, so the train turns against
    the drive; from rest, gear 1 then turns backwards."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    model = window.doc.model
    for name in ("gear1", "gear2"):
        window.apply(replace_fields(model, name, angular_velocity=(0.0, 0.0, 0.0)))
    window.apply(AddItem(Torque("drive", "gear1_joint", TimeLaw(value=10.0))))
    window.apply(AddItem(Torque("load", "gear2_joint", TimeLaw(value=25.0))))
    seen = check_model(window, qtbot)
    assert seen["balance"] == ("Torques referred to gear1_joint (drive's joint) through the train, as their means "
                               "over the run: drive 10 N m, load -12.5 N m; in all -2.5 N m: they accelerate the "
                               "train against drive.")
    assert simulate(window.doc.model, t_end=0.01)["gear1_joint.speed"][-1] < 0


def test_about_names_the_version_of_the_project_file(window):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    help_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Help")
    assert any(a.text() == "&About GearDyn" for a in help_menu.actions())
    text = about_text()
    assert text.startswith(f"GearDyn {version}\n") and "numpy " in text and "Python 3." in text


def test_secondary_windows_open_whole_on_the_screen_with_room_for_their_title(window, qtbot):
    free = window.screen().availableGeometry()
    for show in (window.show_telemetry, window.show_chbm, window.show_study):
        shown = show()
        qtbot.waitExposed(shown)
        frame = shown.frameGeometry()
        assert free.contains(frame), (shown.windowTitle(), frame, free)
        assert frame.height() <= HEIGHT_SHARE * free.height() + 1 and frame.width() <= WIDTH_SHARE * free.width() + 1
        shown.close()


def test_help_getting_started_opens_from_the_help_menu_with_the_windows_own_shortcuts(window, qtbot):
    help_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Help")
    entry = next(a for a in help_menu.actions() if a.text() == "&Getting Started")
    seen = {}

    def read_page():
        dialog = QApplication.activeModalWidget()
        seen["title"] = dialog.windowTitle()
        seen["text"] = dialog.findChild(QTextBrowser, "getting_started_page").toPlainText()
        seen["on_screen"] = window.screen().availableGeometry().contains(dialog.frameGeometry())
        dialog.reject()

    QTimer.singleShot(200, read_page)
    entry.trigger()
    assert seen["title"] == "Getting Started" and seen["on_screen"]
    text = seen["text"]
    for action in (window.act_run, window.act_telemetry, window.act_new, window.act_helical, window.act_pair,
                   window.act_duplicate, window.act_train):
        key = action.shortcut().toString(QKeySequence.NativeText)
        assert key and f"({key})" in text, (action.text(), key)
    assert "Run (F5)" in text and "Telemetry (Ctrl+T)" in text and "62.117 mm" in text
    assert "Fit All (Ctrl+0)" in text  # the view's fit, from its action
    assert "Train Dynamics (Ctrl+Shift+D)" in text  # the whole train's analysis has a key, as the pair's has


def test_the_compiled_kernels_load_in_the_background_and_the_checks_after_an_edit_then_run_compiled(
        window, qtbot, monkeypatch):
    """What `geardyn gui` does after its view is made: the checks of the model after each edit (core.dynamics.
    checks.check) move from the Python kernels to the compiled ones, with the same findings."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    programs = []
    real = checks.assemble
    monkeypatch.setattr(checks, "assemble", lambda model, compiled: programs.append(compiled.compiled) or
                        real(model, compiled=compiled))
    window.load_kernels()
    qtbot.waitUntil(lambda: not window.kernel_loading.running, timeout=120_000)
    assert programs == [True]  # the loader's own check, on the compiled program
    before = [str(f) for f in window.doc.findings]
    settings = window.doc.model.settings
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(settings, t_end=2 * settings.t_end)))
    assert programs == [True, True]  # the edit's check
    assert [str(f) for f in window.doc.findings] == before


def test_file_open_example_says_what_each_example_is_when_the_menu_opens(window, qtbot):
    """The entries were bare file names ('lossy_gear_demo1'). Opened, the menu gives each its model's description
    (read from the file here with json) as tooltip and status tip; opening an entry still opens its file."""
    menu = window.examples_menu
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitUntil(menu.isVisible)
    for act in menu.actions():
        described = json.loads((EXAMPLES / f"{act.text()}.gdyn").read_text())["description"]
        assert act.toolTip() == act.statusTip() == f"{act.text()}.gdyn: {described}" and menu.toolTipsVisible()
    menu.hide()
    next(a for a in menu.actions() if a.text() == "two_stage_reducer").trigger()
    assert window.doc.model.name == "two_stage_reducer"


def test_a_fixed_joint_is_added_from_the_model_menu_and_the_joints_toolbar_beside_the_revolute_joint(window):
    """The Fixed Joint sat under Loads and on the loads' toolbar, among torques and springs: a joint is not a load.
    It now sits under Model and on the joints' toolbar, after Revolute Joint; Loads lists the force elements."""
    def texts(title):
        menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == title)
        return [a.text().replace("&", "") for a in menu.actions() if a.text()]

    model, loads = texts("&Model"), texts("&Loads")
    assert model[model.index("Revolute Joint") + 1] == "Fixed Joint"
    assert "Fixed Joint" not in loads and loads[0] == "Torque"
    toolbars = {t.objectName(): [a.text() for a in t.actions()] for t in window.findChildren(QToolBar)}
    assert "Fixed Joint" in toolbars["joints_toolbar"] and "Fixed Joint" not in toolbars["loads_toolbar"]
