"""The main window in a real window under Xvfb: it opens the example, draws the gears, and refuses bad files."""

import dataclasses
import math

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QMenu, QMessageBox, QPlainTextEdit

from core.commands import SetSettings, replace_fields
from core.geometry.rotations import quat_about
from core.model.files import load
from tests.app.conftest import answer_boxes, fill_and_ok, toolbar_button, type_in_properties
from tests.conftest import EXAMPLES


def test_window_shows_the_planetary_gears(window, qtbot, tmp_path):
    assert window.open_file(EXAMPLES / "planetary.gdyn")
    assert window.windowTitle() == "GearDyn - planetary.gdyn"
    assert window.messages.windowTitle() == "Messages: 1 finding"  # the planets' loops, counted in the singular
    assert set(window.viewport.body_actors) == {"sun", "carrier", "planet1", "planet2", "planet3", "ring"}
    window.viewport.render()
    qtbot.wait(200)
    shot = tmp_path / "main_window.png"
    assert window.grab().save(str(shot))
    image = window.viewport.frame_image()
    grey = np.asarray(image, dtype=float).mean(axis=2)
    # Not blank: the lit gears give many distinct shades, far from the plain background.
    assert grey.std() > 10
    assert len(np.unique(grey.round())) > 50


def test_bad_file_leaves_the_model_and_says_why(window, tmp_path, monkeypatch):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    bad = tmp_path / "bad.gdyn"
    bad.write_text('{"format_version": 1, "bodies": [{"name": "x", "mass": -1}]}')
    assert not window.open_file(bad)
    assert "bodies[0].mass" in shown[0]
    assert window.doc.model.name == "helical_pair" and window.windowTitle() == "GearDyn - helical_pair.gdyn"


def test_selecting_in_the_tree_highlights_in_3d_and_picking_selects_in_the_tree(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.tree.select("planet2")
    assert window.props.name == "planet2"
    assert window.viewport.actor_colour("planet2") != window.viewport.actor_colour("sun")
    # a real click on a point of the ring's rim, projected to the screen
    view = window.viewport
    view.render()
    ring = window.doc.model.bodies["ring"]
    bounds = view.body_actors["ring"].GetBounds()
    rim = (bounds[1] - 0.001, 0.5 * (bounds[2] + bounds[3]), bounds[5])  # outer rim, top face
    view.renderer.SetWorldPoint(*rim, 1.0)
    view.renderer.WorldToDisplay()
    x, y, _ = view.renderer.GetDisplayPoint()
    qtbot.mouseClick(view, Qt.LeftButton, pos=QPoint(int(round(x)), view.height() - int(round(y))))
    assert ring is not None and window.tree.current() == "ring"
    # a click on the background selects nothing: the Properties dock shows the model again
    qtbot.mouseClick(view, Qt.LeftButton, pos=QPoint(5, 5))
    assert window.tree.current() == "" and window.props.name == ""
    assert window.props.panel.findChild(QLineEdit, "model_name").text() == "planetary"
    assert window.viewport.actor_colour("ring") == window.viewport.actor_colour("sun")


def test_findings_are_listed_live_and_clicking_selects_the_item(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    assert window.messages.list.count() == 0
    assert window.messages.windowTitle() == "Messages: 0 findings"
    window.doc.apply(replace_fields(window.doc.model, "gear2_joint", position=(0.07, 0.0, 0.0)))
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert any("error: pair:" in t and "70 mm apart" in t for t in texts)
    row = next(i for i, t in enumerate(texts) if t.startswith("error: pair:"))
    window.messages.list.itemClicked.emit(window.messages.list.item(row))
    assert window.tree.current() == "pair" and window.props.name == "pair"
    window.act_undo.trigger()
    assert window.messages.list.count() == 0


def test_messages_are_copied_by_ctrl_c_and_by_copy_all_in_their_right_click_menu(window, qtbot):
    """A finding could be read but not copied into a report or a mail. Shift-click selects lines (a refresh of the
    same findings keeps them selected), Ctrl+C copies them one a line, and the right-click menu's Copy All copies
    every line listed."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    fill_and_ok(qtbot, {"Name": "plate", "Radius": 50, "Length": 5})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    listed = window.messages.list
    texts = [listed.item(i).text() for i in range(listed.count())]
    assert len(texts) == 3  # plate overlaps each gear and is joined to nothing
    for row, keys in ((0, Qt.NoModifier), (1, Qt.ShiftModifier)):
        qtbot.mouseClick(listed.viewport(), Qt.LeftButton, keys, listed.visualItemRect(listed.item(row)).center())
    window.refresh()  # as each check of the model ends: the same lines stay, and so does the selection
    qtbot.keyClick(listed, Qt.Key_C, Qt.ControlModifier)
    assert QApplication.clipboard().text() == "\n".join(texts[:2])

    at = listed.visualItemRect(listed.item(2)).center()  # the event Qt makes of a right-click there
    QApplication.sendEvent(listed.viewport(), QContextMenuEvent(QContextMenuEvent.Mouse, at,
                                                                listed.viewport().mapToGlobal(at)))
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=3000)
    menu = QApplication.activePopupWidget()
    assert [a.text() for a in menu.actions()] == ["Copy", "Copy All"]
    action = menu.actions()[1]
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())
    assert QApplication.clipboard().text() == "\n".join(texts)


def test_properties_name_the_kind_of_item_as_the_tools_do(window, qtbot):
    """The panel's heading was the class name ('CompliantMesh', 'RigidBody'); it is the name the toolbar and the
    tree use ('Compliant Mesh'), or the class name in words."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    seen = {}
    for item in ("mesh", "gear1", "gear1_joint", "pair", "drive"):
        window.tree.select(item)
        seen[item] = window.props.scroll.widget().findChildren(QLabel)[0].text()
    assert seen == {"mesh": "<b>Compliant Mesh</b>", "gear1": "<b>Rigid Body</b>",
                    "gear1_joint": "<b>Revolute Joint</b>", "pair": "<b>Gear Pair</b>", "drive": "<b>Torque</b>"}
    assert toolbar_button(window, "compliant_mesh").text() == "Compliant Mesh"


@pytest.mark.parametrize("example, item", [("helical_pair", "gear1"), ("lossy_gear_demo1", "gear"),
                                           ("planetary", "planet2"), ("bevel_pair", "gear"),
                                           ("planetary", "sun_planet1")])
def test_properties_of_a_generated_gear_and_a_lossy_pair_fit_the_dock_of_a_1280_px_screen(window, qtbot, example,
                                                                                             item):
    """On a 1280 px screen the Properties dock gets about 300 px; every field and unit of a generated gear (its
    inertia matrix too) and of a lossy pair (its loss table and buttons) fits it without a horizontal scroll bar,
    with labels above their fields where a row is too long. Every entry shows its whole number: planet 2's
    position y, 41.5692 mm, read '1.5692' (then '41.569') in an entry narrower than it; a gear pair's name,
    sun_planet1, read 'n_planet1' beside its label (the pair's longest labels left its fields 65 px)."""
    window.resize(1230, 780)
    window.open_file(EXAMPLES / f"{example}.gdyn")
    if example == "bevel_pair":  # turned as Move gear 2 into mesh leaves a wheel made on the pinion's axis: its
        # orientation, axis (0.99846, -0.0392296, 0.0392296) and 90.0857 deg, ran off the dock's right edge
        turn = quat_about((0.99846, -0.0392296, 0.0392296), math.radians(90.0857))
        window.doc.apply(replace_fields(window.doc.model, item, orientation=tuple(float(v) for v in turn)))
    window.tree.select(item)
    window.resizeDocks([window.props], [300], Qt.Horizontal)
    qtbot.waitUntil(lambda: abs(window.props.width() - 300) < 20)
    scroll = window.props.scroll
    qtbot.waitUntil(lambda: not scroll.horizontalScrollBar().isVisible(), timeout=2000)
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()
    cut = [(e.objectName(), e.text()) for e in scroll.widget().findChildren(QLineEdit)
           if e.isVisible() and e.width() < e.fontMetrics().horizontalAdvance(e.text()) + 8]
    assert cut == []


def test_a_finding_on_a_setting_opens_the_settings_at_its_entry_on_a_double_click(window, qtbot):
    """'settings.step: 0.001 s is coarser than 1/50 of the mesh period ...' selected nothing and offered nothing:
    the step is not in the model tree. A double-click opens Simulation Settings with the time step's entry in
    focus (a finding with a one-click fix applies that instead: RK4's unstable step)."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, step=1e-3)))
    listed = window.messages.list
    row = next(i for i in range(listed.count()) if "is coarser than 1/50 of" in listed.item(i).text())
    assert listed.item(row).text().endswith("[double-click: Simulation Settings]")
    focused = []
    fill_and_ok(qtbot, {"Time step": 2e-5}, press=lambda dlg: focused.append(dlg.focusWidget().objectName()))
    at = listed.visualItemRect(listed.item(row)).center()
    qtbot.mouseClick(listed.viewport(), Qt.LeftButton, pos=at)  # a press first, as a person's double-click has
    qtbot.mouseDClick(listed.viewport(), Qt.LeftButton, pos=at)
    assert focused == ["Time step"]
    assert window.doc.model.settings.step == 2e-5
    assert not [f for f in window.doc.findings if f.item == "settings.step"]


def test_a_gear_pairs_properties_say_its_centre_distance_and_contact_ratios(window, qtbot):
    """Selecting a pair showed its fields only; an engineer looks for what they give. The helical pair (m_t 2 mm,
    z 20/40, beta 15 deg, b 20 mm): m_n = 2 cos 15 deg = 1.93185 mm (the dialogs' module), a = 60 mm, eps_alpha
    1.560933 and eps_beta 0.852909 as `geardyn pair` reports them (tests/core/test_cli.py), ratio 2."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("pair")
    note = window.props.panel.findChild(QLabel, "note").text()
    assert note == ("Derived: m_t 2 mm, m_n 1.93185 mm; helix angle gear 2 -15 deg; centre distance 60 mm; contact "
                    "ratio 1.5609 (+ overlap 0.8529); ratio z2/z1 2")
    # a bevel pair's profile shifts must be 0 (no entry to type them in), as a spur pair has no pitch angle
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    window.select("pair")
    shown = {w.objectName() for w in window.props.panel.findChildren(QLineEdit) if w.isVisibleTo(window.props.panel)}
    assert "Pitch angle of gear 1" in shown and not shown & {"Profile shift x1", "Profile shift x2"}, shown


def test_a_pairs_properties_follow_its_edits_in_the_dock(window, qtbot):
    """Typing z2 = 50 into the bevel pair's dock left its note at the 20/40 pair's atan(z1/z2) = 26.5651 deg and
    ratio 2; turning its kind to external left the pitch angle shown (greyed) and the helix angle hidden. The note
    now says atan(20/50) = 21.8014 deg and ratio 2.5, and an external pair shows its helix angle, not a pitch angle."""
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    type_in_properties(window, qtbot, "pair", "z2", "50")
    assert window.doc.model.gear_pairs["pair"].z2 == 50
    note = window.props.panel.findChild(QLabel, "note").text()
    assert "atan(z1/z2) = 21.8014 deg" in note and note.endswith("ratio z2/z1 2.5"), note
    window.props.form.widgets["kind"].setCurrentText("external")
    assert window.doc.model.gear_pairs["pair"].kind == "external"

    def shown():
        return {w.objectName() for w in window.props.panel.findChildren(QLineEdit) if w.isVisibleTo(window.props.panel)}
    assert "Helix angle of gear 1" in shown() and "Pitch angle of gear 1" not in shown(), shown()


def test_a_long_finding_wraps_in_the_messages_dock(window, qtbot):
    """'nothing loads or drives the model ... Add a Torque or a Speed Motor (Loads menu)' ran past the dock's right
    edge (a horizontal scroll bar to read it); it wraps onto lines as wide as the list."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "a", "Number of teeth": 20})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    listed = window.messages.list
    row = next(i for i in range(listed.count()) if "nothing loads or drives" in listed.item(i).text())
    qtbot.waitUntil(lambda: listed.visualItemRect(listed.item(row)).height() > listed.fontMetrics().height() * 1.5)
    assert listed.visualItemRect(listed.item(row)).right() <= listed.viewport().width()
    assert not listed.horizontalScrollBar().isVisible()


def test_with_nothing_selected_the_properties_show_the_models_name_and_description_and_edit_them(window, qtbot):
    """An example's description says what it models and how to run it (the compliant planetary's: 'Analysis >
    Train Dynamics for its modes'), and the app showed it nowhere; nor could a model be named. With nothing
    selected the Properties dock shows both; typing into them is one undoable step each, the dock keeps up with
    undo, and a click on an item and back shows the model again."""
    window.open_file(EXAMPLES / "compliant_planetary.gdyn")
    window.select("")
    dock = window.props.panel
    name, text = dock.findChild(QLineEdit, "model_name"), dock.findChild(QPlainTextEdit, "model_description")
    assert name.text() == "compliant_planetary"
    assert text.toPlainText() == load(EXAMPLES / "compliant_planetary.gdyn").description
    assert "Analysis > Train Dynamics for its modes" in text.toPlainText()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.mouseClick(name, Qt.LeftButton)
    name.selectAll()
    qtbot.keyClicks(name, "parker planetary")
    qtbot.mouseClick(text.viewport(), Qt.LeftButton)  # into the description: the name is committed
    assert window.doc.model.name == "parker planetary" and window.doc.undo_stack.count() == 1
    assert window.props.panel.findChild(QPlainTextEdit, "model_description") is text and text.hasFocus()
    qtbot.keyClick(text, Qt.Key_End, Qt.ControlModifier)
    qtbot.keyClicks(text, " Mine.")
    qtbot.mouseClick(name, Qt.LeftButton)  # leaving the box commits it
    assert window.doc.model.description.endswith("and forced response Mine.")
    assert window.doc.undo_stack.count() == 2
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    shown = window.props.panel
    assert shown.findChild(QLineEdit, "model_name").text() == "compliant_planetary"
    assert not shown.findChild(QPlainTextEdit, "model_description").toPlainText().endswith("Mine.")
    said = []
    answer_boxes(qtbot, [QMessageBox.Ok], said)
    shown.findChild(QLineEdit, "model_name").setText("  ")  # a name must not be empty: refused, put back
    shown.findChild(QLineEdit, "model_name").editingFinished.emit()
    assert said == ["name: must be a non-empty name"]
    assert window.doc.model.name == "compliant_planetary" and window.doc.undo_stack.count() == 2
    assert shown.findChild(QLineEdit, "model_name").text() == "compliant_planetary"
    window.select("sun")
    window.select("")
    assert window.props.panel.findChild(QLineEdit, "model_name").text() == "compliant_planetary"


def _hint(view) -> str:
    """The text of the empty view's hint ('' when it is not shown)."""
    actor = view.renderer.actors.get("empty_hint")
    return "" if actor is None else actor.GetInput()


def test_an_empty_view_says_what_builds_a_first_model_until_the_first_body(window, qtbot):
    """File > New showed a blank 3-D view that said nothing of where to begin. While the view has no body it now
    names Gear Pair, Planetary Gearset and Getting Started with their keys; the first body takes the hint away,
    and Undo back to an empty model brings it back."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    assert _hint(window.viewport) == ""
    window.act_new.trigger()
    hint = _hint(window.viewport)
    assert "Gear Pair (Ctrl+4)" in hint and "Planetary Gearset (Ctrl+5)" in hint and "Getting Started (F1)" in hint
    fill_and_ok(qtbot, {})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    assert list(window.doc.model.bodies) and _hint(window.viewport) == ""
    window.doc.undo_stack.undo()
    assert _hint(window.viewport) == hint


def test_a_menu_in_a_dock_opens_without_a_qt_warning(window, qtbot, qtlog):
    """A right-click in an entry of the Properties dock (its Cut / Copy / Paste menu) printed 'QWidgetWindow
    (property_dockWindow) must be a top level window' in the terminal: the 3-D view's native window made every
    dock and bar of the window native. Only the view, the bars above and below it and the widget holding them
    are native now."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    entry = window.props.panel.findChild(QLineEdit, "model_name")
    at = entry.rect().center()
    QApplication.sendEvent(entry, QContextMenuEvent(QContextMenuEvent.Mouse, at, entry.mapToGlobal(at)))
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=3000)
    QApplication.activePopupWidget().close()
    assert not [r.message for r in qtlog.records if "top level window" in r.message]
    native = {w for w in (window.tree, window.props, window.messages, window.menuBar(), window.statusBar())
              if w.internalWinId()}
    assert not native and window.viewport.internalWinId()


def _on_screen(widget) -> QImage:
    """What the X server shows of `widget` (not what Qt would paint): the screen's pixels over its rectangle."""
    at = widget.mapToGlobal(QPoint(0, 0))
    return QApplication.primaryScreen().grabWindow(0, at.x(), at.y(), widget.width(), widget.height()).toImage()


def _settled(qtbot, widget) -> QImage:
    """What the screen shows of `widget` once two looks 300 ms apart agree (the view draws its first frames
    after the window shows, later on a busy machine)."""
    shown = _on_screen(widget)
    for _ in range(20):
        qtbot.wait(300)
        shown, last = _on_screen(widget), shown
        if shown == last:
            break
    return shown


def test_the_bars_over_and_under_the_3d_view_repaint_after_a_menu_over_them_closes(window, qtbot):
    """With the view's siblings kept Qt's own (the test above), the view toolbar and the playback bar were
    painted only into the native widget holding the view: a menu or window closed over them left its picture
    there ('Cylinder', 'Save Study File...') until they were repainted for another reason."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    for bar in (window.view_toolbar, window.playback):
        before = _settled(qtbot, bar)
        menu = QMenu()
        for k in range(12):
            menu.addAction(f"an entry that stands over the bar, number {k}")
        menu.popup(bar.mapToGlobal(QPoint(10, -menu.sizeHint().height() // 2)))
        qtbot.waitExposed(menu)
        qtbot.wait(200)
        assert _on_screen(bar) != before  # the menu stands over the bar
        menu.close()
        try:  # a busy machine repaints late; a bar that keeps the menu's picture never does
            qtbot.waitUntil(lambda: _on_screen(bar) == before, timeout=3000)
        except qtbot.TimeoutError:
            raise AssertionError(f"{bar.objectName()} kept the closed menu's picture") from None
