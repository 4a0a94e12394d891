"""The model tree's right-click menu (app.tree_menu): opened by the event a right-click makes, used by real clicks."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from tests.app.conftest import fill_and_ok
from tests.conftest import EXAMPLES

BODY = ["Move / Rotate...", "Duplicate", "Delete", "Torque", "Speed Motor", "Spring-Damper",
        "Torsional Spring-Damper", "Bearing Spring-Damper"]


def _right_click(window, qtbot, name: str):
    """Right-click tree item `name` (or the heading of section `name`: 'forces', ...): the menu that opens, and
    its entries."""
    window.activateWindow()  # as the window manager does when a dialog or another window closes
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    tree, node = window.tree.tree, window.tree.items.get(name) or window.tree.sections[name]
    tree.scrollToItem(node)  # as a user scrolls to it
    at = tree.visualItemRect(node).center()
    # the event Qt makes of a right-click (QTest's clicks reach the widget without it; two through the window
    # on one spot read as a double-click)
    QApplication.sendEvent(tree.viewport(), QContextMenuEvent(QContextMenuEvent.Mouse, at,
                                                              tree.viewport().mapToGlobal(at)))
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=3000)
    menu = QApplication.activePopupWidget()
    return menu, [a.text().replace("&", "") for a in menu.actions() if a.text()]


def _choose(qtbot, menu, text: str) -> None:
    action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())


def test_a_right_click_on_a_body_offers_its_edits_and_loads_and_a_torque_starts_on_its_joint(window, qtbot):
    """The tree had no right-click menu: a body's Move / Rotate, Duplicate and Delete, and a load on its joint,
    were only in the main menus. The menu offers them on the item clicked (selected by the click); the Torque
    chosen there starts on gear2's joint, not on the first joint."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    menu, entries = _right_click(window, qtbot, "gear2")
    assert entries == BODY and window.tree.current() == "gear2"
    fill_and_ok(qtbot, {"Name": "brake", "law_value": -3})
    _choose(qtbot, menu, "Torque")
    brake = window.doc.model.forces["brake"]
    assert brake.joint == "gear2_joint" and brake.law.value == -3.0
    menu, entries = _right_click(window, qtbot, "brake")
    assert entries == ["Duplicate", "Delete"]
    _choose(qtbot, menu, "Delete")
    assert "brake" not in window.doc.model.forces


def test_a_right_click_on_a_pair_offers_its_mesh_and_its_chbm_study(window, qtbot):
    """A pair's menu: Delete, Compliant Mesh (on that pair) and the CHBM Study of that pair; a joint's its loads;
    a weld's only Delete."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    menu, entries = _right_click(window, qtbot, "stage2")
    assert entries == ["Delete", "Compliant Mesh", "CHBM Study of this pair"]
    fill_and_ok(qtbot, {"Name": "soft"})
    _choose(qtbot, menu, "Compliant Mesh")
    assert window.doc.model.forces["soft"].pair == "stage2"
    menu, _ = _right_click(window, qtbot, "stage1")
    _choose(qtbot, menu, "CHBM Study of this pair")
    qtbot.waitUntil(lambda: window.chbm is not None and window.chbm.isVisible(), timeout=5000)
    assert window.chbm.source.currentData() == "stage1"  # not stage2, the pair with a mesh it would start on
    menu, entries = _right_click(window, qtbot, "shaft_joint")
    assert entries == BODY[2:]
    menu.close()
    weld = next(n for n, j in window.doc.model.joints.items() if type(j).__name__ == "FixedJoint")
    menu, entries = _right_click(window, qtbot, weld)
    assert entries == ["Delete"]
    menu.close()


def test_a_right_click_on_a_sections_heading_offers_the_tools_that_add_to_it(window, qtbot):
    """The heading of each section (Rigid Bodies, Joints, Gear Pairs, Forces) offers the tools that add an item
    there; a Cylinder chosen from the bodies' heading is added, selecting nothing first."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    expected = {"bodies": ["Helical Gear", "Inner Gear", "Bevel Gear", "Planetary Gearset", "Import OBJ/STL",
                           "Cylinder", "Box"],
                "joints": ["Revolute Joint", "Fixed Joint"],
                "gear_pairs": ["Gear Pair", "Planetary Gearset"],
                "forces": BODY[3:] + ["Compliant Mesh"]}
    for section, entries in expected.items():
        menu, shown = _right_click(window, qtbot, section)
        assert shown == entries, section
        menu.close()
    menu, _ = _right_click(window, qtbot, "bodies")
    fill_and_ok(qtbot, {"Name": "disc"})
    _choose(qtbot, menu, "Cylinder")
    assert "disc" in window.doc.model.bodies
