"""The undo history dock (app.docks.history), by the Edit menu's entry and real clicks on its list."""

from PySide6.QtCore import Qt

from core.commands import replace_fields
from tests.conftest import EXAMPLES


def _click(qtbot, view, row: int) -> None:
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(view.model().index(row, 0)).center())


def test_the_undo_history_lists_every_edit_and_a_click_takes_the_model_to_it(window, qtbot):
    """Undo and redo went one step at a time, with no list of the steps. Edit > Undo History shows each edit by
    name under the model as opened; a click on a row takes the model back, or forward, to just after it."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    dock = window.history
    assert not dock.isVisible()
    window.history.toggleViewAction().trigger()  # Edit > Undo History
    qtbot.waitUntil(dock.isVisible, timeout=3000)
    window.doc.apply(replace_fields(window.doc.model, "gear2", name="wheel"))
    window.doc.apply(replace_fields(window.doc.model, "wheel", mass=2.0))
    view = dock.view
    rows = [view.model().index(r, 0).data() for r in range(view.model().rowCount())]
    assert rows == ["The model as opened", "Rename gear2 to wheel", "Edit wheel"]
    _click(qtbot, view, 0)
    assert set(window.doc.model.bodies) == {"gear1", "gear2"} and not window.doc.dirty
    assert window.tree.items["gear2"].text(0) == "gear2"
    _click(qtbot, view, 2)
    assert window.doc.model.bodies["wheel"].mass == 2.0 and window.doc.dirty
