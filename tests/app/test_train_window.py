"""Analysis > Train Dynamics in a real window under Xvfb: modes, Campbell, forced response, mode animation."""

import csv
import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLineEdit, QMenu, QMessageBox, QPushButton, QToolButton

from core.chbm.train_commands import SHARES, run_train_chbm
from core.commands import replace_fields
from core.model.entities import TimeLaw
from core.model.views import TrainStudy
from tests.app.conftest import answer_boxes, axis_unit_suits, fill_and_ok, headers_read_whole, toolbar_button
from tests.conftest import EXAMPLES


def _open(window, qtbot, path=EXAMPLES / "compliant_planetary.gdyn"):
    if path is not None:
        assert window.open_file(str(path), ask=False)
    analysis = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Analysis")
    next(a for a in analysis.actions() if a.text() == "&Train Dynamics").trigger()
    train = window.train
    qtbot.waitExposed(train)
    return train


def _click(train, qtbot, action):
    button = next(b for b in train.findChildren(QToolButton)
                  if b.defaultAction() is not None and b.defaultAction().objectName() == action)
    qtbot.mouseClick(button, Qt.LeftButton)


def _run(train, qtbot, fields):
    """Type `fields` (name: text) into the form, press Run and wait for the one curve."""
    for name, text in fields.items():
        edit = train.findChild(QLineEdit, name)
        edit.clear()
        qtbot.keyClicks(edit, text)
    _click(train, qtbot, "train_run")
    qtbot.waitUntil(lambda: len(train.curves) == 1 and not train.background.running, timeout=120000)


def test_the_modes_table_lists_the_planetary_families_and_a_mode_animates_in_the_3d_view(window, qtbot):
    train = _open(window, qtbot)
    kinds = [train.table.item(r, 1).text() for r in range(train.table.rowCount())]
    assert kinds[0] == "rigid" and {"rotational", "translational"} <= set(kinds)
    row = kinds.index("translational")
    assert train.table.item(row, 2).text() == "2"  # a translational mode comes in pairs
    rect = train.table.visualItemRect(train.table.item(row, 0))
    qtbot.mouseClick(train.table.viewport(), Qt.LeftButton, pos=rect.center())
    before = window.viewport.actor_matrix("sun").copy()
    qtbot.mouseClick(train.animate_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not np.allclose(window.viewport.actor_matrix("sun"), before), timeout=3000)
    moved = window.viewport.actor_matrix("sun")
    assert abs(moved[2, 3] - before[2, 3]) < 1e-12  # in the plane: a translational mode moves the sun sideways
    qtbot.mouseClick(train.animate_button, Qt.LeftButton)
    assert np.allclose(window.viewport.actor_matrix("sun"), before)  # stopping puts the bodies back


def test_a_right_angle_trains_modes_turn_the_bevel_wheel_about_its_own_axis(window, qtbot):
    """The reducer example with a 20/30 bevel stage on its output shaft, made in the Gear Pair dialog: Train Dynamics
    refused it ("is a bevel pair; the lumped train takes parallel-axis pairs"). It lists three torsional modes (the
    motor holds the input), each column's header says what it counts, and Animate Mode turns the bevel wheel
    about its own joint's axis, across the others'."""
    window.open_file(str(EXAMPLES / "two_stage_reducer.gdyn"), ask=False)
    fill_and_ok(qtbot, {"Name": "bevel", "kind": "bevel", "z1": 20, "z2": 30, "Face width": 12},
                press=lambda dlg: qtbot.mouseClick(dlg.findChild(QPushButton, "generate_stage"), Qt.LeftButton))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    joint = window.doc.model.joints[window.doc.model.gear_pairs["bevel"].joint2]
    train = _open(window, qtbot, path=None)
    table = train.table
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == ["rotational"] * 3
    tips = [table.horizontalHeaderItem(c).toolTip() for c in range(table.columnCount())]
    assert all(tips) and "fixed-axis train" in tips[3 + SHARES.index("central rotation")]
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualItemRect(table.item(2, 0)).center())
    before = window.viewport.actor_matrix(joint.body_j).copy()
    qtbot.mouseClick(train.animate_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not np.allclose(window.viewport.actor_matrix(joint.body_j), before), timeout=3000)
    turn = window.viewport.actor_matrix(joint.body_j)[:3, :3] @ before[:3, :3].T
    axis = np.array([turn[2, 1] - turn[1, 2], turn[0, 2] - turn[2, 0], turn[1, 0] - turn[0, 1]])
    assert abs(abs(axis @ joint.unit_axis()) / np.linalg.norm(axis) - 1.0) < 1e-9 and abs(joint.unit_axis()[2]) < 1e-12
    qtbot.mouseClick(train.animate_button, Qt.LeftButton)


def test_the_campbell_diagram_marks_where_mesh_harmonics_meet_natural_frequencies(window, qtbot):
    train = _open(window, qtbot)
    train.tabs.setCurrentIndex(1)
    items = train.campbell_plot.listDataItems()
    crossings = next(i for i in items if i.name() == "crossings")
    x, y = crossings.getData()
    per_rpm = 25 * 71 / 96 / 60  # Hz of mesh per rpm of the sun, the ring held
    ratios = y / (x * per_rpm)  # each crossing sits on a whole harmonic
    assert len(x) > 0 and np.allclose(ratios, np.round(ratios), atol=1e-9)
    # the crossings the planet phasing cancels are drawn hollow, under their own name
    cancelled = next(i for i in items if i.name() == "crossings the meshes do not drive")
    assert len(cancelled.getData()[0]) > 0 and cancelled.opts["symbolBrush"] is None


def test_a_two_stage_reducers_campbell_diagram_draws_each_stages_mesh_harmonics(window, qtbot):
    train = _open(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn")
    train.speed_max.edit.setText("20000")
    train.speed_max.edit.editingFinished.emit()
    train.tabs.setCurrentIndex(1)
    items = {i.name(): i for i in train.campbell_plot.listDataItems()}
    for name, per_rpm in (("1x stage1", 20 / 60), ("3x stage2", 3 * 9 / 60)):  # z1 n / 60, z3 (z1 / z2) n / 60
        x, y = items[name].xData, items[name].yData  # the data as given (getData: as drawn)
        assert x[-1] == 20000.0 and np.allclose(y, per_rpm * x, rtol=1e-12), name
    assert len(items["crossings"].xData) == 10  # every harmonic of both stages meets a mode by 20000 rpm
    assert train.message.text() == ""


def test_forced_responses_at_two_torques_from_the_window_match_the_command_line(window, qtbot, tmp_path):
    train = _open(window, qtbot)
    for name, text in {"Lowest mesh frequency": "500", "Highest mesh frequency": "700",
                       "Largest frequency step": "20", "Torque scales": "0.5, 1"}.items():
        edit = train.findChild(QLineEdit, name)
        edit.clear()
        qtbot.keyClicks(edit, text)
    _click(train, qtbot, "train_run")
    qtbot.waitUntil(lambda: len(train.curves) == 2 and not train.background.running, timeout=120000)
    kept = window.doc.model.views.train  # the settings go with the model, as the CHBM study's
    assert (kept.f_min, kept.f_max, kept.df_max, kept.torque_scales) == (500.0, 700.0, 20.0, (0.5, 1.0))
    out = tmp_path / "cli.csv"
    assert run_train_chbm(str(EXAMPLES / "compliant_planetary.gdyn"), str(out), 500.0, 700.0, scales=(0.5, 1.0),
                          df_max=20.0) == 0
    rows = list(csv.DictReader(out.open()))
    ours = [(c, p, loads, bodies) for c in train.curves for p, loads, bodies in zip(c.points, c.loads, c.bodies)]
    assert len(rows) == len(ours)
    for (c, p, loads, bodies), row in zip(ours, rows):
        assert c.scale == float(row["torque scale"])
        assert p.frequency == pytest.approx(float(row["mesh frequency [Hz]"]), rel=1e-9)
        assert loads[0].factor == pytest.approx(float(row["sun_planet1 dynamic factor"]), rel=1e-9)
        assert bodies[-1].translation == pytest.approx(
            float(row[f"{c.train.bodies[-1].name} translation amplitude [m]"]), rel=1e-9)
    # half the torque: half the static mesh loads
    half, full = train.curves
    assert half.static == pytest.approx(0.5 * full.static, rel=1e-9)
    plot = train.response_plot
    assert {i.name() for i in plot.listDataItems() if i.name()} >= {"x0.5 (6 meshes)", "x1 (6 meshes)"}
    # 500-700 Hz lies below where the 32 harmonics resolve the train: greyed, and said under the form
    assert plot.unresolved.isVisible() and plot.unresolved.getRegion() == pytest.approx((500.0, 700.0))
    assert "resolved from 1027 Hz (H = 32)" in plot.unresolved_label.format
    assert "x1: below 1027 Hz the 32 harmonics do not reach 2x the train's highest" in train.message.text()
    assert "not resolved" in train.statusBar().currentMessage()
    # every body's centre translation, in m on an axis that names its prefix: a line per body on a bearing and torque
    train.quantity.setCurrentText("Body centre translation")
    moving = [b.name for b, r in zip(full.train.bodies, full.bodies[0]) if r.translation > 0]
    lines = [i for i in plot.listDataItems() if i.yData is not None and np.isfinite(i.yData).any()]
    assert len(lines) == 2 * len(moving) > 2
    largest = max(r.translation for c in train.curves for p in c.bodies for r in p)
    assert axis_unit_suits(plot.plotItem.getAxis("left"), "centre translation amplitude", largest).endswith("m")
    train.only.setCurrentText(moving[0])  # one body of them, named per torque
    lines = {i.name(): i for i in plot.listDataItems() if i.name() and i.name() != "folds"}
    assert set(lines) == {f"{moving[0]} x0.5", f"{moving[0]} x1"}
    k = [b.name for b in full.train.bodies].index(moving[0])
    assert lines[f"{moving[0]} x1"].getData()[1][0] == pytest.approx(full.bodies[0][k].translation)
    # a click on the curve shows one period of the mesh forces of the chosen torque there
    train.period_scale.setCurrentIndex(1)
    assert "click a point of a curve above" in train.period_plot.plotItem.titleLabel.text  # how to fill it
    view = plot.plotItem.vb
    pos = plot.mapFromScene(view.mapViewToScene(QPointF(600.0, 0.0)))
    qtbot.mouseClick(plot.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: "Hz" in train.period_plot.plotItem.titleLabel.text, timeout=5000)
    assert "stable, not resolved" in train.period_plot.plotItem.titleLabel.text
    assert len(train.period_plot.listDataItems()) == 6  # one line per mesh


def test_a_step_too_small_for_the_range_is_refused_naming_the_field_and_nothing_runs(window, qtbot):
    """2900 Hz in steps of at most 0.1 Hz needs 29,000 points, more than the 20,000 a curve holds: the curve ran
    until it stopped there; `geardyn train-chbm` refuses the step, and so does the window now."""
    train = _open(window, qtbot)
    for name, text in (("Lowest mesh frequency", "100"), ("Highest mesh frequency", "3000"),
                       ("Largest frequency step", "0.1")):
        edit = train.findChild(QLineEdit, name)
        edit.clear()
        qtbot.keyClicks(edit, text)
    _click(train, qtbot, "train_run")
    assert train.message.text() == ("Largest frequency step: must be at least 0.145 Hz for this range: a curve holds "
                                    "at most 20000 points, got 0.1")
    assert not train.background.running and not train.curves


def test_a_torque_scale_out_of_range_is_named_and_nothing_runs(window, qtbot):
    train = _open(window, qtbot)
    edit = train.findChild(QLineEdit, "Torque scales")
    edit.clear()
    qtbot.keyClicks(edit, "1, -2")
    _click(train, qtbot, "train_run")
    assert "Torque scales" in train.message.text() and "-2" in train.message.text()
    assert "from 1e-09 to 1000" in train.message.text()  # the range the command line holds scales to as well
    assert not train.background.running and not train.curves


def test_from_file_new_the_window_says_there_is_no_train_and_offers_no_run(window, qtbot):
    window.act_new.trigger()  # File > New
    train = _open(window, qtbot, path=None)
    assert "has no gear pair" in train.message.text() and not train.act_run.isEnabled()
    headers_read_whole(train.table.horizontalHeader())  # before any run fills the table


def test_the_settings_saved_with_the_model_fill_the_form_when_it_is_opened_again(window, qtbot, tmp_path):
    train = _open(window, qtbot)
    typed = {"Lowest mesh frequency": "100", "Highest mesh frequency": "800", "Harmonics": "6", "Torque scales": "0.5, 2"}
    for name, text in typed.items():
        edit = train.findChild(QLineEdit, name)
        edit.clear()
        qtbot.keyClicks(edit, text)
    _click(train, qtbot, "train_run")
    _click(train, qtbot, "train_stop")
    qtbot.waitUntil(lambda: not train.background.running, timeout=120000)
    path = tmp_path / "kept.gdyn"
    window.doc.save(path)
    window.act_new.trigger()  # File > New: the form shows the defaults again
    assert train.findChild(QLineEdit, "Torque scales").text() == "1"
    assert window.open_file(str(path), ask=False)
    assert {name: train.findChild(QLineEdit, name).text() for name in typed} == typed


def test_a_model_without_torques_shows_its_modes_and_says_why_it_has_no_forced_response(window, qtbot):
    """The helical pair example runs free: Run showed numpy's LinAlgError with its traceback under the form."""
    train = _open(window, qtbot, EXAMPLES / "helical_pair.gdyn")
    assert train.table.rowCount() == 2  # the rigid rolling and the mesh mode need no load
    assert train.summary.text().startswith("1 mesh, 2 coordinates;")  # it said "1 meshes"
    _click(train, qtbot, "train_run")
    qtbot.waitUntil(lambda: not train.background.running and bool(train.message.text()), timeout=60000)
    assert train.message.text() == ("torques: the model's mean torques are all zero over the run, so no mesh "
                                    "carries a load: the forced response needs one (a Torque on a gear's joint)")
    assert not train.curves and train.act_run.isEnabled()


def test_a_model_without_train_settings_opens_on_the_range_of_its_mesh_modes(window, qtbot):
    """The window started every model at 100-3000 Hz and 3000 rpm, below the compliant planetary's mesh modes
    (10.5-16.4 kHz): it now starts around them (core.chbm.train_commands.suggested_study, checked against the
    modes and the hand-worked mesh frequency per rpm in tests/core/chbm/test_train_cli.py); a model's own
    settings still win (test_the_settings_saved_with_the_model_fill_the_form_when_it_is_opened_again)."""
    train = _open(window, qtbot)
    share = 3 + SHARES.index("meshes")  # the table's column of the meshes' strain share
    shown = {name: train.findChild(QLineEdit, name).text()
             for name in ("Lowest mesh frequency", "Highest mesh frequency", "Highest input speed")}
    assert shown == {"Lowest mesh frequency": "2100", "Highest mesh frequency": "20000", "Highest input speed": "65000"}
    meshy = [float(train.table.item(r, 0).text()) for r in range(train.table.rowCount())
             if float(train.table.item(r, share).text()) >= 50.0 and float(train.table.item(r, 0).text()) > 0]
    assert 2100 <= 0.2 * min(meshy) and max(meshy) * 1.2 <= 20000


def test_a_two_stage_reducers_forced_response_runs_on_its_common_period_from_the_window(window, qtbot):
    """Run on the reducer example said that its meshes run at different frequencies and drew nothing. It now
    runs on the train's period of 20 mesh periods of stage 1 and 9 of stage 2: the form and the curves' axis
    name stage 1's frequency, the window opens on the range and harmonics that let stage 2 pass both mesh modes
    (tests/core/chbm/test_train_cli.py works them out by hand), and a click on a curve shows both mesh forces
    over that period."""
    train = _open(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn")
    assert "20 mesh periods of stage1, 9 mesh periods of stage2" in train.summary.text()
    assert train.form.labelForField(train.f_min).text() == "Lowest mesh frequency of stage1"
    assert {name: train.findChild(QLineEdit, name).text() for name in ("Lowest mesh frequency", "Harmonics")} == {
        "Lowest mesh frequency": "1500", "Harmonics": "147"}
    _run(train, qtbot, {"Lowest mesh frequency": "3000", "Highest mesh frequency": "3300", "Harmonics": "80",
                        "Largest frequency step": "50"})
    assert train.message.text() == "" and train.curves[0].points[-1].frequency == 3300.0
    plot = train.response_plot
    assert plot.plotItem.getAxis("bottom").labelText == "mesh frequency of stage1 [Hz]"
    view = plot.plotItem.vb
    pos = plot.mapFromScene(view.mapViewToScene(QPointF(3150.0, 0.0)))
    qtbot.mouseClick(plot.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: "Hz" in train.period_plot.plotItem.titleLabel.text, timeout=5000)
    assert "of stage1 (the train's period holds 20)" in train.period_plot.plotItem.titleLabel.text
    lines = train.period_plot.listDataItems()
    assert [i.name() for i in lines] == ["stage1", "stage2"] and lines[0].xData[-1] == pytest.approx(20.0, abs=0.01)
    # gear 3, turning backwards, drives gear 4 against the load: stage 2's loaded flank is the one the pair's own
    # sign calls its coast flank, and its force read negative under '+ drive flank'. Each mesh's force is now
    # plotted positive on the flank the mean torques load. Its mean over the period is the normal force of the
    # torques, Ft / cos(20 deg) with Ft 100 N (4 N m on r2 = 40 mm) and 222 N (4 N m on r3 = 18 mm), to the
    # truncation of 80 harmonics over 20 mesh periods (0.7 % here; 300 harmonics give 0.05 %)
    assert train.period_plot.plotItem.getAxis("left").labelText == "mesh force [N] (+ loaded flank, - other)"
    normal = [ft / math.cos(math.radians(20.0)) for ft in (4.0 / 0.04, 4.0 / 0.018)]
    assert [float(np.mean(i.yData)) for i in lines] == pytest.approx(normal, rel=1e-2)


def test_file_new_after_a_reducer_curve_leaves_nothing_of_it_in_the_window(window, qtbot):
    """After a curve of the reducer, File > New (its changed settings discarded in the real box) emptied the curves
    but left the rest: the status bar's summary of the old curve, the form and both axes naming stage 1, and the
    marker of the point chosen."""
    train = _open(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn")
    _run(train, qtbot, {"Lowest mesh frequency": "3000", "Highest mesh frequency": "3100", "Harmonics": "40",
                        "Largest frequency step": "50"})
    plot = train.response_plot
    view = plot.plotItem.vb
    qtbot.mouseClick(plot.viewport(), Qt.LeftButton, pos=plot.mapFromScene(view.mapViewToScene(QPointF(3050.0, 0.0))))
    qtbot.waitUntil(lambda: "Hz" in train.period_plot.plotItem.titleLabel.text, timeout=5000)
    assert train.statusBar().currentMessage().startswith("finished: x1: ")
    texts = []
    answer_boxes(qtbot, [QMessageBox.Discard], texts)
    window.act_new.trigger()  # File > New
    assert texts == ["The model has unsaved changes. Save them?"]
    assert "has no gear pair" in train.message.text() and not train.act_run.isEnabled()
    assert train.statusBar().currentMessage() == "" and train.progress.value() == 0
    assert train.form.labelForField(train.f_min).text() == "Lowest mesh frequency"
    assert plot.plotItem.getAxis("bottom").labelText == "mesh frequency [Hz]" and not plot.marker.isVisible()
    assert train.period_plot.plotItem.getAxis("bottom").labelText == "mesh period [-]"
    assert not plot.listDataItems() and not train.period_plot.listDataItems()
    (x0, x1), (y0, y1) = plot.plotItem.vb.viewRange()  # not the old curve's 3000-3100 Hz
    assert (x0, x1, y0, y1) == pytest.approx((0.0, 1.0, 0.0, 1.0))


def test_an_edit_while_a_curve_runs_stops_it_and_shows_nothing_of_it(window, qtbot):
    """The reducer's curve runs on a copy of the train. An edit of its load while it ran left it going, and its
    curve then showed under the edited train. It now stops, and nothing of it is shown; Run is offered."""
    train = _open(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn")
    _click(train, qtbot, "train_run")  # the default curve: some 40 s
    qtbot.waitUntil(lambda: train.progress.value() > 20, timeout=60000)
    window.doc.apply(replace_fields(window.doc.model, "load", law=TimeLaw(kind="constant", value=-20.0)))
    qtbot.waitUntil(lambda: not train.background.running, timeout=60000)
    qtbot.wait(200)  # any signal the worker queued before it ended
    assert train.curves == [] and not train.response_plot.listDataItems()
    assert train.statusBar().currentMessage() == "stopped: the model changed while it ran, so its results are not shown"
    assert train.act_run.isEnabled() and train.progress.value() == 0


def test_the_forced_response_is_drawn_as_it_grows_and_keeps_the_mesh_chosen(window, qtbot):
    """The reducer's curve took some 40 s with an empty plot until its end. It is now drawn as it grows; the mesh
    chosen under 'of' while it runs stays chosen, and the last curve drawn is the whole one."""
    train = _open(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn")
    for name, text in {"Lowest mesh frequency": "3000", "Highest mesh frequency": "4500", "Harmonics": "80",
                       "Largest frequency step": "5"}.items():
        edit = train.findChild(QLineEdit, name)
        edit.clear()
        qtbot.keyClicks(edit, text)
    _click(train, qtbot, "train_run")
    plot = train.response_plot
    qtbot.waitUntil(lambda: train.background.running and bool(plot.listDataItems()), timeout=60000)
    train.only.setCurrentText("stage2")
    first = max(len(i.xData) for i in plot.listDataItems())
    qtbot.waitUntil(lambda: not train.background.running
                    or max(len(i.xData) for i in plot.listDataItems()) > first, timeout=60000)
    assert train.only.currentText() == "stage2"
    assert {i.name() for i in plot.listDataItems() if i.name()} == {"stage2"}
    qtbot.waitUntil(lambda: not train.background.running, timeout=120000)
    assert first < len(train.curves[0].points) and train.curves[0].points[-1].frequency == 4500.0
    assert train.only.currentText() == "stage2"
    drawn = np.concatenate([i.xData for i in plot.listDataItems()])
    assert drawn.max() == 4500.0


def test_a_run_of_the_suggested_settings_asks_for_no_save_and_settings_typed_are_kept(window, qtbot):
    """Opening an example, running Train Dynamics as it opened and choosing File > New asked to save changes the
    user never made: the run kept the window's suggestion with the model. That suggestion is what the file opens
    on again, so a run of it now leaves the model unchanged; settings the user typed still go with the model."""
    train = _open(window, qtbot)
    _click(train, qtbot, "train_run")
    _click(train, qtbot, "train_stop")
    qtbot.waitUntil(lambda: not train.background.running, timeout=60000)
    assert not window.doc.dirty and window.doc.model.views.train == TrainStudy()
    edit = train.findChild(QLineEdit, "Harmonics")
    edit.clear()
    qtbot.keyClicks(edit, "9")
    _click(train, qtbot, "train_run")
    _click(train, qtbot, "train_stop")
    qtbot.waitUntil(lambda: not train.background.running, timeout=60000)
    assert window.doc.dirty and window.doc.model.views.train == train.settings()
    assert window.doc.model.views.train.harmonics == 9


def test_newmark_checks_the_curve_from_the_window_at_the_points_asked_for_and_agrees_with_it(window, qtbot, tmp_path):
    """Newmark check points: time integration of the same lumped model at frequencies evenly spaced over the range,
    drawn as triangles on the curve and exported as 'Newmark' rows. On the compliant pair away from its peak (330,
    1165 and 2000 Hz; the peak is at 1636 Hz) Newmark's dynamic factor is the balance's to 0.1 %."""
    train = _open(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn")
    low, high = train.f_min.value(), train.f_max.value()
    _run(train, qtbot, {"Newmark check points": "3"})
    assert window.doc.model.views.train.newmark_points == 3  # kept with the model, as the other settings
    (curve,) = train.curves
    assert [run.frequency for run in curve.reference] == pytest.approx([low, (low + high) / 2, high])
    assert all(run.converged for run in curve.reference)
    (check,) = [i for i in train.response_plot.listDataItems() if i.objectName() == "train_newmark_check"]
    assert check.name() == "Newmark check"
    f, factor = check.getData()
    on_curve = np.interp(f, [p.frequency for p in curve.points], [loads[0].factor for loads in curve.loads])
    assert np.abs(factor / on_curve - 1).max() < 1e-3, (factor, on_curve)
    assert train.checked.text() == curve.check  # the agreement in numbers (core.chbm.train_study.check_note)
    assert curve.check.startswith("Newmark check at 3 frequencies: dynamic factors within ")
    train.export(tmp_path / "curve.csv")
    rows = [r for r in csv.DictReader((tmp_path / "curve.csv").open()) if r["method"] == "Newmark"]
    assert [float(r["pair dynamic factor"]) for r in rows] == pytest.approx(list(factor), rel=1e-9)
    # out of range: named with its range, and nothing runs
    entry = train.findChild(QLineEdit, "Newmark check points")
    entry.clear()
    qtbot.keyClicks(entry, "201")
    _click(train, qtbot, "train_run")
    assert "Newmark check points" in train.message.text() and "200" in train.message.text()
    assert not train.background.running
