"""Files in the window: unsaved-changes prompt, recent files, autosave and recovery after a crash."""

from PySide6.QtWidgets import QMessageBox

from app.main_window import recovery_path
from core.commands import replace_fields
from tests.conftest import EXAMPLES


def _edit(window):
    window.doc.apply(replace_fields(window.doc.model, "sun", mass=1.0))


def test_new_asks_about_unsaved_changes_and_cancel_keeps_the_model(window, monkeypatch):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _edit(window)
    assert window.windowTitle().endswith("*")
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    window.act_new.trigger()
    assert asked and "unsaved" in asked[0]
    assert "sun" in window.doc.model.bodies


def test_recent_files_are_remembered(window):
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    names = [a.text() for a in window.recent_menu.actions()]
    assert names[:2] == ["helical_pair.gdyn", "planetary.gdyn"]


def test_autosave_and_recovery_after_a_crash(window, monkeypatch):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _edit(window)
    window.write_autosave()
    assert recovery_path().exists()
    # a new session finds the autosave left by the crashed one and is offered it
    window.doc.undo_stack.setClean()
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    window.offer_recovery()
    assert window.doc.model.bodies["sun"].mass == 1.0
    assert not recovery_path().exists()
