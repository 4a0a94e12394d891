"""The lossy gear in the GUI: the loss-table editor in the pair's properties (checked as typed, one undoable
edit), the mode changes in Messages, and mode and loss power in the Telemetry window."""

from PySide6.QtCore import QPoint, Qt

from tests.app.conftest import headers_read_whole, toolbar_button, type_in_properties
from tests.conftest import EXAMPLES


def _editor(window):
    from app.dialogs.loss_table_editor import LossTableEditor

    editors = window.findChildren(LossTableEditor)
    assert len(editors) == 1
    return editors[0]


def _type_cell(qtbot, editor, row, column, text):
    table = editor.table
    editor.window().props.scroll.ensureWidgetVisible(table)  # the editor sits below the pair's fields
    qtbot.wait(20)
    rect = table.visualItemRect(table.item(row, column))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    editor_widget = table.focusWidget()
    assert table.state() == table.State.EditingState
    editor_widget.selectAll()
    qtbot.keyClicks(editor_widget, text)
    qtbot.keyClick(editor_widget, Qt.Key_Return)
    qtbot.waitUntil(lambda: table.item(row, column).text() == text)  # the delegate commits after the key


def test_loss_table_editor_checks_rows_and_applies_one_undoable_edit(window, qtbot):
    window.open_file(EXAMPLES / "lossy_gear_demo1.gdyn")
    window.select("gear")
    editor = _editor(window)
    assert editor.table.rowCount() == 1 and editor.apply.isEnabled()
    assert _constant_loss_rows(window) == [False, False]  # the table gives the losses: no constant ones shown
    qtbot.mouseClick(editor.add, Qt.LeftButton)
    assert editor.table.rowCount() == 2 and editor.table.item(1, 0).text() == "10"
    _type_cell(qtbot, editor, 1, 1, "1.2")
    assert not editor.apply.isEnabled()
    assert editor.status.text() == "row 2, eta_mf1: an efficiency must be above 0 and at most 1, got 1.2"
    _type_cell(qtbot, editor, 1, 0, "0")
    assert "row 2, |w_a| [rad/s]: speeds must be at least 0 and above the row before (0 rad/s)" in editor.status.text()
    _type_cell(qtbot, editor, 1, 3, "x")
    assert editor.status.text() == "row 2, tau_bf1 [N m]: must be a number, got 'x'"
    _type_cell(qtbot, editor, 1, 0, "20")
    _type_cell(qtbot, editor, 1, 1, "0.4")
    _type_cell(qtbot, editor, 1, 3, "0.25")
    assert editor.apply.isEnabled(), editor.status.text()
    before = window.doc.model.gear_pairs["gear"].loss_table
    qtbot.mouseClick(editor.apply, Qt.LeftButton)
    assert window.doc.model.gear_pairs["gear"].loss_table == ((0.0, 0.5, 0.5, 0.0, 0.0), (20.0, 0.4, 0.5, 0.25, 0.0))
    window.doc.undo_stack.undo()
    assert window.doc.model.gear_pairs["gear"].loss_table == before
    assert _editor(window).table.rowCount() == 1  # the dock shows the model as it is again
    editor = _editor(window)
    editor.table.selectRow(0)
    qtbot.mouseClick(editor.remove, Qt.LeftButton)
    assert editor.table.rowCount() == 0 and editor.apply.isEnabled()
    qtbot.mouseClick(editor.apply, Qt.LeftButton)
    assert window.doc.model.gear_pairs["gear"].loss_table == ()  # lossless
    assert _constant_loss_rows(window) == [True, True]  # without a table the constant efficiency and friction apply


def _in_view(window, widget) -> bool:
    """Whether `widget` lies within the Properties dock's visible part."""
    viewport = window.props.scroll.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0)).y()
    return 0 <= top and top + widget.height() <= viewport.height()


def _constant_loss_rows(window) -> list[bool]:
    """Whether the pair's Properties show its constant efficiency and its bearing friction."""
    form = window.props.form
    return [form.form.isRowVisible(form.widgets[f]) for f in ("efficiency", "bearing_friction")]


def test_modes_in_messages_and_telemetry(window, qtbot):
    window.open_file(EXAMPLES / "lossy_gear_demo1.gdyn")
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    res = window.doc.current.results
    assert res.status == "finished", res.message
    assert [name for _, name, _ in res.events] == ["gear: stop", "gear: stop", "gear: stop", "gear: flow"]
    notes = [n for n in window.run_notes if "gear: " in n]
    assert len(notes) == 4 and "starts forwards" in notes[1] and "gear 2 drives" in notes[3]
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    qtbot.waitExposed(tw)
    shown = [list(p.curves) for p in tw.stack.panels]
    assert shown == [["gear.w_a"], ["gear.mode", "gear.driving"], ["gear.loss_power"], ["gear.tau_a", "gear.tau_b"]]
    mode = res["gear.mode"]
    assert set(mode) == {-1.0, 0.0, 1.0}
    assert res["gear.loss_power"].max() > 0.1 and res["gear.loss_power"].min() >= 0.0
    for name in ("gear.mode", "gear.loss_power"):
        assert name in tw.browser.items


def test_loss_table_headers_are_read_whole_in_the_dock(window, qtbot):
    window.open_file(EXAMPLES / "lossy_gear_demo2.gdyn")
    window.select("gear")
    qtbot.wait(100)  # the dock lays its form out
    headers_read_whole(_editor(window).table.horizontalHeader())


def test_a_loss_table_applied_to_a_pair_with_a_constant_efficiency_takes_its_place(window, qtbot):
    """The helical pair with an efficiency of 0.9 typed in its Properties, then a loss table row added and
    applied: the edit was refused ('give either a loss table or a constant efficiency ..., not both') and the
    efficiency field had to be set back first; Add gave a lossless first row. The first row is now the
    efficiency as a row, the table takes the efficiency's place in one edit, and the constant fields leave the
    dock; Undo brings the efficiency back."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    type_in_properties(window, qtbot, "pair", "efficiency", "0.9")
    assert window.doc.model.gear_pairs["pair"].efficiency == 0.9
    editor = _editor(window)
    window.props.scroll.ensureWidgetVisible(editor.apply)  # the editor sits below the pair's fields
    before = window.doc.model.gear_pairs["pair"].loss_rows()
    qtbot.mouseClick(editor.add, Qt.LeftButton)
    assert editor.table.rowCount() == 1 and editor.apply.isEnabled(), editor.status.text()
    qtbot.mouseClick(editor.apply, Qt.LeftButton)
    pair = window.doc.model.gear_pairs["pair"]
    assert len(pair.loss_table) == 1 and (pair.efficiency, pair.bearing_friction) == (1.0, 0.0)
    # the first row added is the constant efficiency as a row: the table starts with the losses the pair had
    assert pair.loss_rows() == before == ((0.0, 0.9, 0.9, 0.0, 0.0),)
    assert _constant_loss_rows(window) == [False, False]
    # the dock, drawn again for the pair's other fields, stays where the user was: at the table, not the top
    qtbot.waitUntil(lambda: _in_view(window, _editor(window).apply))
    window.act_undo.trigger()
    assert window.doc.model.gear_pairs["pair"].efficiency == 0.9 and window.doc.model.gear_pairs["pair"].loss_table == ()
