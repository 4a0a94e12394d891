"""The mouse wheel over the Properties dock scrolls the dock: it does not pick another item in a closed drop-down
list the pointer happens to pass over (each pick would be a model edit), unless the user clicked that list first.

The wheel events are sent through the window system (QTest.wheelEvent), as a mouse sends them, so that Qt hands
an event the list does not take on to the scroll area behind it."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox

from tests.conftest import EXAMPLES


def _wheel_over(window, qtbot, widget, notches: int = -1) -> None:
    """Turn the wheel `notches` notches (negative: towards the user, scrolling down) with the pointer on `widget`."""
    at = widget.mapTo(window, widget.rect().center())
    QTest.mouseMove(window, at)
    QTest.wheelEvent(window.windowHandle(), QPointF(at), QPoint(0, 120 * notches))
    qtbot.wait(50)


def test_wheel_over_a_closed_list_scrolls_the_dock_and_leaves_the_model(window, qtbot):
    window.resize(1100, 620)  # a dock shorter than the pair's fields: it scrolls
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.open_file(EXAMPLES / "lossy_gear_demo2.gdyn")
    window.select("gear")
    qtbot.wait(100)  # the dock lays its form out
    combo = window.props.findChild(QComboBox, "gear1")
    scroll = window.props.scroll
    scroll.ensureWidgetVisible(combo)
    qtbot.wait(50)
    assert scroll.verticalScrollBar().maximum() > 0
    pair, index, top = window.doc.model.gear_pairs["gear"], combo.currentIndex(), scroll.verticalScrollBar().value()
    depth = window.doc.undo_stack.count()
    _wheel_over(window, qtbot, combo)
    assert combo.currentIndex() == index
    assert window.doc.model.gear_pairs["gear"] == pair and window.doc.undo_stack.count() == depth
    assert scroll.verticalScrollBar().value() > top  # the wheel went to the dock
    assert not combo.hasFocus()


def test_wheel_changes_a_list_the_user_clicked(window, qtbot):
    window.open_file(EXAMPLES / "lossy_gear_demo2.gdyn")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.select("gear")
    qtbot.wait(100)
    combo = window.props.findChild(QComboBox, "carrier")
    window.props.scroll.ensureWidgetVisible(combo)
    qtbot.wait(50)
    combo.setFocus(Qt.MouseFocusReason)  # as a click on it gives it, without opening its list
    qtbot.waitUntil(combo.hasFocus)
    before = combo.currentIndex()
    _wheel_over(window, qtbot, combo, notches=-1)
    assert combo.currentIndex() == before + 1
