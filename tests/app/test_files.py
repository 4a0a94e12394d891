"""Files in the window: unsaved-changes prompt, recent files, autosave and recovery after a crash."""

import dataclasses
from pathlib import Path

import pytest
import trimesh
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox

from app.dialogs.body_dialogs import ImportMeshDialog
from app.document import documents_folder
from app.main_window import open_first, recovery_path
from core.commands import SetSettings, replace_fields
from core.dynamics.results import save_results
from core.dynamics.simulate import simulate
from core.model.files import load
from tests.app.conftest import answer_boxes, fill_and_ok
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


def test_open_dialogs_start_in_the_users_folder_not_where_the_program_was_started(window, tmp_path, monkeypatch):
    """File > Open started in the examples folder even with the user's own model open, Import OBJ/STL's Browse
    in the folder the program was started from. They start in the open model's folder; after New, File > Open
    in the last model's folder, Import in the documents folder."""
    own = tmp_path / "work" / "pair.gdyn"
    own.parent.mkdir()
    own.write_bytes((EXAMPLES / "helical_pair.gdyn").read_bytes())
    window.open_file(own)
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(Path(a[2])) or ("", ""))
    window.act_open.trigger()
    dialog = ImportMeshDialog("part", window, folder=window.doc.own_folder())
    dialog._browse()
    assert asked == [own.parent, own.parent]
    window.act_new.trigger()
    window.act_open.trigger()
    ImportMeshDialog("part", window, folder=window.doc.own_folder())._browse()
    assert asked[2] == own.parent and asked[3] == documents_folder() != Path.cwd()


def crash_with_an_edit(window) -> None:
    """The planetary with the sun's mass 1 kg autosaved, as a session that crashed leaves it (the autosave on
    disk, the window's model clean again as a new session's would be)."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _edit(window)
    window.write_autosave()
    assert recovery_path().exists()
    window.doc.undo_stack.setClean()
    window.open_file(EXAMPLES / "helical_pair.gdyn")


def test_restoring_the_autosave_at_start_shows_it_unsaved_and_opens_nothing_over_it(window, qtbot, tmp_path):
    crash_with_an_edit(window)
    asked = []
    answer_boxes(qtbot, [QMessageBox.Yes], asked)
    open_first(window, [])  # what the program does at start: recovery first, then the model to show
    assert asked and "autosaved" in asked[0]
    assert window.doc.model.bodies["sun"].mass == 1.0  # the restored model, not the planetary example over it
    assert window.doc.dirty and window.doc.path is None and window.windowTitle().endswith("*")
    assert recovery_path().exists()  # kept until saved or closed: a second crash finds it again
    assert window._save_to(tmp_path / "recovered.gdyn") and not recovery_path().exists()


def test_declining_the_autosave_opens_the_file_asked_for_and_drops_the_autosave(window, qtbot):
    crash_with_an_edit(window)
    answer_boxes(qtbot, [QMessageBox.No], [])
    open_first(window, [str(EXAMPLES / "bevel_pair.gdyn")])
    assert window.doc.path == EXAMPLES / "bevel_pair.gdyn" and not window.doc.dirty
    assert not recovery_path().exists()


def test_an_unreadable_autosave_is_set_aside_with_its_path_said(window, qtbot):
    recovery_path().write_text("{ not a model")
    texts = []
    answer_boxes(qtbot, [QMessageBox.Yes, QMessageBox.Ok], texts)  # restore it; then the warning's OK
    open_first(window, [])
    assert window.doc.path == EXAMPLES / "planetary.gdyn"
    kept = recovery_path().with_name("autosave.unreadable.gdyn")
    assert kept.exists() and not recovery_path().exists()
    assert len(texts) == 2 and "Cannot restore" in texts[1] and str(kept) in texts[1]


def test_save_as_of_a_new_model_and_save_results_suggest_the_documents_folder_not_where_the_program_started(
        window, qtbot, monkeypatch, tmp_path):
    suggested = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (suggested.append(Path(a[2])), ("", ""))[1])
    window.act_new.trigger()
    window.file_save_as()
    assert suggested[0].is_absolute() and suggested[0].name == "model.gdyn"
    assert suggested[0].parent != Path.cwd() or Path.cwd() == Path.home()
    name = window.props.panel.findChild(QLineEdit, "model_name")  # a new model named in Properties: its name
    name.setText("two-stage reducer / v2")
    name.editingFinished.emit()
    window.file_save_as()
    assert suggested[1] == suggested[0].with_name("two-stage_reducer_v2.gdyn")
    window.act_undo.trigger()  # the name: the new model is unchanged again, so opening asks nothing
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.doc.add_run(window.doc.model, simulate(window.doc.model, t_end=0.002))
    window.save_results()
    assert suggested[2] == suggested[0].with_name("planetary.gdres")  # an example's run: named after it, not in
    # the program's examples folder
    mine = tmp_path / "mine.gdyn"
    assert window._save_to(mine)
    window.save_results()
    assert suggested[3] == tmp_path / "mine.gdres"  # a model of the user's: beside it


def test_save_of_an_edited_example_asks_where_and_leaves_the_example_as_it_was(window, qtbot, monkeypatch, tmp_path):
    before = (EXAMPLES / "planetary.gdyn").read_bytes()
    window.open_file(EXAMPLES / "planetary.gdyn")
    _edit(window)
    asked = []
    target = tmp_path / "my_planetary.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(Path(a[2])), (str(target), ""))[1])
    assert window.file_save()
    assert asked and asked[0].name == "planetary.gdyn" and asked[0].parent != EXAMPLES  # Save As, in the documents
    assert (EXAMPLES / "planetary.gdyn").read_bytes() == before and target.exists()
    assert window.doc.path == target and not window.doc.dirty


def test_a_new_model_saved_as_a_file_takes_its_name_and_a_named_model_keeps_its_own(window, qtbot, monkeypatch,
                                                                                    tmp_path):
    """A model built from File > New stayed 'untitled' in its file for good (the app has no field for the name):
    `geardyn modes` and the train's description then said 'untitled: 6 meshes' of myplanet.gdyn. The first
    save names it after the file, in one undoable step the save leaves clean; an example saved under another
    name keeps the name its author gave it; a file that cannot be written renames nothing."""
    window.act_new.trigger()
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=0.5)))
    unwritable = tmp_path / "no such folder" / "lost.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(unwritable), ""))
    said = []
    answer_boxes(qtbot, [QMessageBox.Ok], said)
    assert not window.file_save_as()
    assert said[0].startswith("Cannot save: ") and str(unwritable.parent) in said[0]
    assert window.doc.model.name == "untitled" and window.doc.dirty
    target = tmp_path / "myplanet.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert window.file_save_as()
    assert load(target).name == "myplanet" and window.doc.model.name == "myplanet" and not window.doc.dirty
    window.open_file(EXAMPLES / "planetary.gdyn")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "mine.gdyn"), ""))
    assert window.file_save_as()
    assert load(tmp_path / "mine.gdyn").name == "planetary"


def test_opening_a_file_with_several_bad_fields_names_each_in_one_box_and_keeps_the_model(window, qtbot, tmp_path,
                                                                                       monkeypatch):
    """File > Open of a model file with a body's mass a string, an unknown field and a pair's teeth out of range:
    one warning box names each (before, only the first, the next one only after the first was mended), and the
    model open before stays open."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    before = window.doc.model
    bad = tmp_path / "bad.gdyn"
    text = (EXAMPLES / "helical_pair.gdyn").read_text()
    bad.write_text(text.replace('"z1": 20', '"z1": -3').replace('"mass": ', '"mass": "abc", "x": ', 1))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    texts: list = []
    answer_boxes(qtbot, [QMessageBox.Ok], texts)
    window.act_open.trigger()
    qtbot.waitUntil(lambda: bool(texts), timeout=5000)
    lines = texts[0].splitlines()
    assert lines[0].startswith("Cannot open the model: bad.gdyn: bodies[0].x: is not a field of RigidBody")
    assert lines[1:] == ["bad.gdyn: bodies[0].mass: must be a number, got str 'abc'",
                         "bad.gdyn: gear_pairs[0].z1: must be a whole number from 3 to 1000, got -3"]
    assert window.doc.model is before


def _drop(window, path) -> bool:
    """Drag `path` over the window and drop it, with the events a drop from a file manager brings; whether the
    window took the drag."""
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    at = QPointF(window.rect().center())
    enter = QDragEnterEvent(at.toPoint(), Qt.CopyAction, data, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(window, enter)
    if not enter.isAccepted():
        return False
    QApplication.sendEvent(window, QDropEvent(at, Qt.CopyAction, data, Qt.LeftButton, Qt.NoModifier))
    return True


def test_a_model_results_or_mesh_file_dropped_on_the_window_opens_and_another_file_is_refused(window, qtbot,
                                                                                              tmp_path):
    """Dragging a file from a file manager onto the window did nothing. A model file opens (asking about unsaved
    changes first), a results file opens its run to play, an STL or OBJ file opens Import OBJ/STL on it with its
    preview, the part named after the file (it was 'part1'); a file of another kind is not taken."""
    # Qt hands a drop to the widget under it that takes drops, else to its parent: the 3-D view takes none (as
    # pyvistaqt's view, it read a file dropped on it as a mesh to show), so the window gets the drop
    assert window.acceptDrops() and not window.viewport.acceptDrops()
    window.open_file(EXAMPLES / "planetary.gdyn")
    _edit(window)
    texts = []
    answer_boxes(qtbot, [QMessageBox.Discard], texts)
    assert _drop(window, EXAMPLES / "helical_pair.gdyn")
    qtbot.waitUntil(lambda: window.doc.model.name == "helical_pair", timeout=5000)
    assert texts == ["The model has unsaved changes. Save them?"]
    run = tmp_path / "run.gdres"
    save_results(simulate(window.doc.model, t_end=0.002), run)
    window.act_new.trigger()
    assert _drop(window, run)
    qtbot.waitUntil(lambda: window.doc.current is not None and window.doc.model.name == "helical_pair", timeout=5000)
    assert window.doc.current.results.time[-1] == 0.002
    box = tmp_path / "plate.stl"
    trimesh.creation.box((100.0, 50.0, 10.0)).export(box)  # mm, the dialog's unit
    seen = []
    fill_and_ok(qtbot, {}, press=lambda dlg: seen.append(dlg.preview.text()))
    assert _drop(window, box)
    qtbot.waitUntil(lambda: "plate" in window.doc.model.bodies, timeout=5000)  # named after its file
    assert "watertight" in seen[0] and window.doc.model.bodies["plate"].mass == pytest.approx(7850 * 5e-5)
    fill_and_ok(qtbot, {})
    assert _drop(window, box)
    qtbot.waitUntil(lambda: "plate1" in window.doc.model.bodies, timeout=5000)  # the name taken: numbered
    note = tmp_path / "notes.txt"
    note.write_text("not a model")
    assert not _drop(window, note)
