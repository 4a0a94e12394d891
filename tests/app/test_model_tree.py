"""The model tree dock (app.docks.model_tree): renaming an item in place with F2, by real keys."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from tests.app.conftest import answer_boxes
from tests.conftest import EXAMPLES


def _rename(window, qtbot, name: str, typed: str) -> None:
    """Select `name` in the tree, press F2, type `typed` over it and press Return."""
    window.tree.select(name)
    tree = window.tree.tree
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key_F2)
    editor = next(e for e in tree.viewport().findChildren(QLineEdit) if e.isVisible())  # not a closed one
    assert editor.text() == name
    editor.selectAll()
    qtbot.keyClicks(editor, typed)
    qtbot.keyClick(editor, Qt.Key_Return)


def test_f2_renames_an_item_in_the_tree_as_one_undo_step_and_a_taken_name_is_refused(window, qtbot):
    """An item could be renamed only in the Properties dock. F2 in the tree edits the name in place: the item,
    the pair that names its joint and the tree follow, one Undo takes it back; a name another item has is refused
    with the reason, and the tree keeps the name."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    _rename(window, qtbot, "gear2_joint", "wheel_joint")
    qtbot.waitUntil(lambda: "wheel_joint" in window.doc.model.joints, timeout=3000)
    model = window.doc.model
    assert "wheel_joint" in model.joints and "gear2_joint" not in model.joints
    assert model.gear_pairs["pair"].joint2 == "wheel_joint"
    assert window.tree.items["wheel_joint"].text(0) == "wheel_joint" and window.tree.current() == "wheel_joint"
    window.act_undo.trigger()
    assert "gear2_joint" in window.doc.model.joints and window.tree.items["gear2_joint"].text(0) == "gear2_joint"
    texts = []
    answer_boxes(qtbot, [QMessageBox.Ok], texts)
    _rename(window, qtbot, "gear2", "gear1")
    qtbot.waitUntil(lambda: bool(texts), timeout=3000)
    assert "gear1" in texts[0] and set(window.doc.model.bodies) == {"gear1", "gear2"}
    assert window.tree.items["gear2"].text(0) == "gear2"
    assert QApplication.activeModalWidget() is None
