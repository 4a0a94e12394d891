"""GUI test helpers: a fresh main window with its own settings, and driving of modal dialogs."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QLineEdit,
    QMessageBox,
    QToolButton,
)

from app.main_window import MainWindow
from core.commands import SetSettings


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    QSettings.setDefaultFormat(QSettings.IniFormat)
    # each test's window reads and writes its own settings: QSettings("GearDyn", "GearDyn") takes the native
    # format's path, so both are set (with the INI one alone, every test shared the user's file, its docks' state)
    for form in (QSettings.IniFormat, QSettings.NativeFormat):
        QSettings.setPath(form, QSettings.UserScope, str(tmp_path / "settings"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    w = MainWindow()
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.doc.undo_stack.setClean()  # closing must not stop at the unsaved-changes prompt
    w.close()


def toolbar_button(window, action_name: str) -> QToolButton:
    for tb in window.findChildren(QToolButton):
        if tb.defaultAction() is not None and tb.defaultAction().objectName() == action_name:
            return tb
    raise LookupError(action_name)


def fill_and_ok(qtbot, fields: dict, combos: dict | None = None, press=None, ok: bool = True, seen: list | None = None):
    """Arm a timer that fills the next modal dialog's fields (line edits or combo boxes, by object name), then
    presses OK.

    `seen` collects the dialog's message text after OK (the dialog stays open on bad input, and is then cancelled).
    """

    def act():
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(50, act)
            return
        try:
            fill(dlg)
        except BaseException:  # a failed check: close the dialog so the test fails now, not at its timeout
            dlg.reject()
            raise

    def fill(dlg):
        for name, text in fields.items():
            edit = dlg.findChild(QLineEdit, name)
            if edit is None:  # a choice: a combo box of that name
                combo = dlg.findChild(QComboBox, name)
                assert combo is not None and combo.findText(str(text)) >= 0, (name, text)
                combo.setCurrentText(str(text))
                continue
            edit.setText(str(text))
            edit.editingFinished.emit()
        for name, text in (combos or {}).items():
            combo = dlg.findChild(QComboBox, name)
            combo.setCurrentText(text)
        if press:
            press(dlg)
        box = dlg.findChild(QDialogButtonBox)
        qtbot.mouseClick(box.button(QDialogButtonBox.Ok if ok else QDialogButtonBox.Cancel), Qt.LeftButton)
        if dlg.isVisible():
            if seen is not None:
                seen.append(dlg.findChild(type(dlg.message), "message").text() if hasattr(dlg, "message") else "")
            dlg.reject()

    QTimer.singleShot(0, act)


def type_in_properties(window, qtbot, item: str, field: str, text: str) -> None:
    """Select `item` and type `text` into its `field` in the Properties dock, then Return (the edit)."""
    window.select(item)
    edit = window.props.form.widgets[field].edit
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key_Return)


def torque_and_run(window, qtbot, body: str, t_end: float = 0.05):
    """Select `body`, add a 1 N m Torque on its joint with the toolbar, run to t_end [s] and wait: the results,
    finished."""
    window.tree.select(body)
    fill_and_ok(qtbot, {"Name": "drive", "law_value": 1})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    model = window.doc.model
    window.doc.apply(SetSettings(model, dataclasses.replace(model.settings, t_end=t_end)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    res = window.doc.current.results
    assert res.status == "finished", res.message
    return res


def double_click_channel(qtbot, browser, name):
    """Double-click the channel `name` in a Telemetry browser (its groups opened first)."""
    qtbot.waitExposed(browser.window())
    leaf = browser.items[name]
    tree = browser.tree
    parent = leaf.parent()
    while parent is not None:
        parent.setExpanded(True)
        parent = parent.parent()
    tree.scrollToItem(leaf)
    qtbot.wait(50)
    rect = tree.visualItemRect(leaf)
    assert rect.height() > 0
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.mouseDClick(tree.viewport(), Qt.LeftButton, pos=rect.center())


def answer_boxes(qtbot, buttons: list, texts: list) -> None:
    """Arm a timer that presses buttons[k] of the k-th message box to come, each box's text into `texts`."""
    left = list(buttons)

    def press():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.text() in texts:
            QTimer.singleShot(50, press)
            return
        texts.append(box.text())
        button = box.button(left.pop(0))
        if button is None:  # the box has no such button: close it so the test fails now, not at its timeout
            box.reject()
            raise AssertionError(f"the message box {box.text()!r} has no such button")
        qtbot.mouseClick(button, Qt.LeftButton)
        if left:
            QTimer.singleShot(50, press)

    QTimer.singleShot(0, press)


def axis_unit_suits(axis, title: str, largest: float) -> str:
    """The unit a plot axis (app.plot_axis.UnitAxis) names for values up to `largest` [SI], checked to be the SI
    prefix that puts them between 1 and 1000, with no pyqtgraph '(x...)' factor beside it; as the next paint shows
    it (pyqtgraph brings an auto range up to date just before painting, and a busy machine may not have painted)."""
    view = axis.linkedView()
    if view is not None:
        view.prepareForPaint()
    label = axis.labelString()
    assert "(x" not in label and f"{title} [" in label, label
    unit = label.split("[")[1].split("]")[0]
    factor = {"": 1.0, "m": 1e3, "µ": 1e6, "n": 1e9, "p": 1e12}[unit[:-1]]
    assert 1.0 <= largest * factor < 1000.0, (label, largest)
    return unit


def headers_read_whole(header) -> None:
    """Every section of a table's header (QHeaderView) is wider than each line of its text."""
    for c in range(header.count()):
        text = header.model().headerData(c, header.orientation())
        widest = max(header.fontMetrics().horizontalAdvance(line) for line in text.split("\n"))
        assert header.sectionSize(c) > widest, (text, header.sectionSize(c), widest)
