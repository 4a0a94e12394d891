"""Runs from the GUI: a model built by clicks runs to the closed form, Stop, failures, edits during a run,
animation poses, video export, results files, screenshots."""

import dataclasses
import gc
import lzma
import math
import os
import re
import sys
import time
import weakref
from pathlib import Path

import imageio.v2 as imageio
import imageio_ffmpeg
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QLineEdit, QMessageBox

from app.run import video, worker
from app.run.animation import FOLLOW_SHARE, FORCE_LENGTH
from app.run.video import frame_times
from app.viewport import FORCE_COLOURS, HIGHLIGHT, SEE_THROUGH, rgb
from core.commands import AddItem, SetSettings, replace_fields
from core.dynamics.plan import plan_line
from core.dynamics.results import save_results
from core.dynamics.simulate import simulate
from core.errors import ModelError
from core.geometry.rotations import pose_matrix
from core.model.entities import GROUND, SpringDamper, TimeLaw
from core.model.files import load, save
from tests.app.conftest import answer_boxes, double_click_channel, fill_and_ok, toolbar_button
from tests.conftest import EXAMPLES

GEAR = {"Normal module": 2, "Normal pressure angle": 20, "Face width": 20, "Helix angle": 0}


def _settings(window, **changes):
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, **changes)))


def _helical_run(window, qtbot) -> None:
    """The helical example run for 10 ms from the toolbar, to its end."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    _settings(window, t_end=0.01)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)


def _wait_for_run(window, qtbot, timeout=60_000):
    qtbot.waitUntil(lambda: not window.runner.running, timeout=timeout)
    return window.doc.current.results


def _not_blank(path):
    from PIL import Image

    grey = np.asarray(Image.open(path).convert("L"), dtype=float)
    return grey.std() > 10 and len(np.unique(grey.round())) > 50


def test_spur_pair_built_by_clicks_runs_to_the_closed_form(window, qtbot):
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "gear1", **GEAR, "Number of teeth": 20, "Bore diameter": 12})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "gear2", **GEAR, "Number of teeth": 40, "Bore diameter": 20, "Position x": 60})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    for g in ("gear1", "gear2"):
        fill_and_ok(qtbot, {"Name": f"{g}_joint"}, {"body_i": "ground", "body_j": g})
        qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "pair", "z1": 20, "z2": 40, "Normal module": 2, "Helix angle gear 1": 0, "Face width": 20},
                {"kind": "external", "joint1": "gear1_joint", "joint2": "gear2_joint", "carrier": "ground"})
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "drive", "law_value": 1}, {"joint": "gear1_joint", "law_kind": "Constant"})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    c = 0.02  # N m s/rad on gear 2
    fill_and_ok(qtbot, {"Name": "damper", "Stiffness": 0, "Damping": c}, {"joint": "gear2_joint"})
    qtbot.mouseClick(toolbar_button(window, "torsional_spring_damper"), Qt.LeftButton)
    fill_and_ok(qtbot, {"End time": 0.4, "Time step": 1e-3, "Output step": 1e-3}, {"integrator": "rk4"})
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    assert not [f for f in window.doc.findings if f.severity == "error"]
    fractions = []
    window.runner.progress.connect(lambda f, t, left: fractions.append(f))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    assert res.status == "finished", res.message
    assert fractions and fractions[-1] == 1.0
    # the 1-DOF reduced model: J w1' = T - c (r1/r2)^2 w1 with J = J1 + J2 (r1/r2)^2, from rest
    m = window.doc.model
    j1, j2 = m.bodies["gear1"].inertia[2][2], m.bodies["gear2"].inertia[2][2]
    k = 20 / 40
    j, ce = j1 + j2 * k * k, c * k * k
    t = res.time[-1]
    w1 = (1.0 / ce) * (1 - math.exp(-ce * t / j))
    assert res["gear1_joint.speed"][-1] == pytest.approx(w1, rel=1e-6)
    assert res["gear2_joint.speed"][-1] == pytest.approx(-k * w1, rel=1e-6)
    assert window.progress.isHidden() and "finished" in window.playback.state.text()


def test_a_run_shows_its_evaluation_plan_in_the_status_bar_and_keeps_it_in_its_notes(window, qtbot):
    window.open_file(EXAMPLES / "lossy_gear_demo1.gdyn")
    _settings(window, t_end=20.0, step=1e-4, output_step=1e-2)  # runs for seconds: the plan is seen while it runs
    shown = []
    window.runner.prepared.connect(lambda record: shown.append(window.statusBar().currentMessage()))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(shown), timeout=60_000)
    window.stop_simulation()
    res = _wait_for_run(window, qtbot)
    plan = res.settings["plan"]
    assert plan["formulation"] == "joint" and plan["rates"] == "constant matrices, made again at each mode change"
    line = f"joint coordinates, {'compiled' if plan['compiled'] else 'Python'} ({plan['compiled_why']}); rates: "
    assert shown[0].startswith(f"{window.doc.current.label}: {line}")
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert any(t.startswith(f"{window.doc.current.label}: plan: {line}constant matrices") for t in texts), texts


def test_simulate_show_run_brings_back_an_earlier_run_with_its_telemetry_and_notes(window, qtbot):
    """Every run of the model was kept but only the last could be seen. Simulate > Show Run lists them, the one
    shown checked and one from an earlier version of the model marked; choosing Run 1 shows its results again:
    Telemetry's, the animation's and its notes. The planetary runs up from rest under 1 N m, then 2 N m: a rigid
    train's sun reaches T t / J, so Run 1's speed at the end is half Run 2's."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.1)
    for torque in (1.0, 2.0):
        window.doc.apply(replace_fields(window.doc.model, "sun_torque", law=TimeLaw(value=torque)))
        qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
        _wait_for_run(window, qtbot)
    first, second = window.doc.runs
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert "Run 2: changed since Run 1: sun_torque.law.value: 1 -> 2 N m" in texts  # what the user changed
    menu = window.runs_menu
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitExposed(menu)
    actions = menu.actions()
    size = [f"{r.results.nbytes / 1e6:.3g} MB" for r in (first, second)]
    assert [a.text() for a in actions] == [
        f"Run 1 (an earlier version of the model): {first.results.summary()} ({size[0]})",
        f"Run 2: {second.results.summary()} ({size[1]})", "", f"Forget the Other Runs ({size[0]})..."]
    assert [a.isChecked() for a in actions[:2]] == [False, True]
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(actions[0]).center())
    assert window.doc.current is first and window.doc.stale
    window.act_telemetry.trigger()
    assert window.telemetry.results is first.results
    assert window.telemetry.windowTitle().endswith("Run 1 (finished) - from an earlier version of the model")
    assert window.animator.results is first.results
    ends = [r.results["sun_joint.speed"][-1] for r in (first, second)]
    assert ends[0] / ends[1] == pytest.approx(0.5, rel=1e-9)
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert [t for t in texts if t.startswith("Run ")][-1] == f"Run 1: {first.results.summary()}" + (
        f"; {first.results.steps:,} steps, {first.results.evaluations:,} evaluations in {first.seconds:.3g} s")
    assert window.statusBar().currentMessage() == (f"Showing Run 1 (an earlier version of the model): "
                                                   f"{first.results.summary()}")


def test_forgetting_the_other_runs_lets_their_results_go_and_the_next_run_takes_a_new_number(window, qtbot):
    """Every run stays in memory until the model closes. Show Run ends with Forget the Other Runs, which says the
    memory they take: agreed to, the run shown stays, Telemetry's run compared with goes, the results of the
    others are freed (no reference is left to them), and the next run is Run 4, not a second Run 2. A run that
    has ended keeps no room for samples to come: its memory is its samples'."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.1)
    for _ in range(3):
        qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
        _wait_for_run(window, qtbot)
    first, second, third = window.doc.runs
    for record in (first, second, third):
        res = record.results
        assert res.nbytes == len(res) * 8 * (1 + len(res.channels) + 7 * len(res.bodies))  # time, channels, poses
    window.act_telemetry.trigger()
    bar = window.telemetry.runs
    bar.compare.setCurrentIndex(bar.compare.findText("Run 1"))
    assert bar.reference is first
    gone = [weakref.ref(r.results) for r in (first, second)]
    size = f"{(first.results.nbytes + second.results.nbytes) / 1e6:.3g} MB"
    menu = window.runs_menu
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitExposed(menu)
    forget = menu.actions()[-1]
    assert forget.text() == f"Forget the Other Runs ({size})..." and forget.isEnabled()
    said = []
    answer_boxes(qtbot, [QMessageBox.Discard], said)
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(forget).center())
    qtbot.waitUntil(lambda: len(window.doc.runs) == 1, timeout=5000)
    assert said[0].startswith(f"Forget Run 1, Run 2 ({size})? Their results leave memory; Run 3, the run shown, stays")
    assert window.doc.runs == [third] and window.doc.current is third
    assert bar.reference is None and [bar.compare.itemText(i) for i in range(bar.compare.count())] == ["none"]
    assert window.statusBar().currentMessage() == f"Forgot 2 runs: {size}"
    del first, second
    gc.collect()
    assert [ref() for ref in gone] == [None, None]
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    assert [r.label for r in window.doc.runs] == ["Run 3", "Run 4"]


def test_a_run_refused_before_it_started_gives_its_number_back_and_a_forgotten_one_does_not(window, qtbot):
    """The document numbers runs: one the worker refused (the controller takes it back) leaves no gap, while the
    numbers of runs forgotten are not given again."""
    doc = window.doc
    window.open_file(EXAMPLES / "planetary.gdyn")
    first = doc.add_run(doc.model.copy())
    refused = doc.add_run(doc.model.copy())
    doc.take_back_run(refused)
    assert doc.runs == [first] and doc.current is first
    second = doc.add_run(doc.model.copy())
    assert second.label == "Run 2"
    doc.forget_runs(second)
    assert [r.label for r in doc.runs] == ["Run 2"] and doc.add_run(doc.model.copy()).label == "Run 3"


def test_file_new_frees_the_runs_of_the_model_before(window, qtbot):
    """File > New drops the model's runs; the run controller (its last run) and Telemetry (the model of the run it
    showed) still held the last one. With Telemetry open on a channel and a run compared with, no run's results
    are left after File > New."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.1)
    for _ in range(2):
        qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
        _wait_for_run(window, qtbot)
    tw = window.show_telemetry()
    tw.add_channels(["sun_planet1.Ft"])
    tw.runs.compare.setCurrentIndex(tw.runs.compare.findText("Run 1"))
    assert tw.model_of_results().name == "planetary"
    gone = [weakref.ref(r.results) for r in window.doc.runs]
    answer_boxes(qtbot, [QMessageBox.Discard], [])  # the settings changed: save them?
    window.act_new.trigger()
    qtbot.waitUntil(lambda: not window.doc.runs, timeout=5000)
    gc.collect()
    assert [ref() for ref in gone] == [None, None]


def test_run_of_a_model_in_error_is_refused_naming_the_item_and_why(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.doc.apply(replace_fields(window.doc.model, "pair", module=0.003))  # 90 mm apart at 3 mm, the axes 60
    said = []
    answer_boxes(qtbot, [QMessageBox.Ok], said)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    assert said == ["Cannot run: pair: the joint axes are 60 mm apart; the centre distance m_t (z1 + z2) / 2 is 90 mm: "
                    "move 'gear2_joint' (and gear 'gear2')"]
    assert not window.runner.running and window.doc.current is None


def test_a_run_the_engine_refuses_at_its_start_gives_run_back(window, qtbot, monkeypatch):
    """A run that prepare() refuses (a ModelError the model's checks did not foresee): the box says so, and Run, Stop
    and the progress bar come back. Before, Run stayed greyed, Stop lit and the progress bar at 'Run 1: starting' for
    good: only a run that ended gave them back. No model that passes the checks is refused at its start today (the
    lossy planetary that was, whose set's break-away the least-squares split could not decide, now runs), so the
    worker's prepare() stands in here with the refusal it raises."""
    def refuse(model, **options):
        raise ModelError.of([("gear_pairs.sun_planet1", "the set's start is not decided")])

    monkeypatch.setattr(worker, "prepare", refuse)
    window.open_file(EXAMPLES / "planetary.gdyn")
    assert not [f for f in window.doc.findings if f.severity == "error"]
    for _ in range(2):  # and again: Run works a second time
        said = []
        answer_boxes(qtbot, [QMessageBox.Ok], said)
        qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
        qtbot.waitUntil(lambda: bool(said) and not window.runner.running, timeout=60_000)
        assert said == ["Cannot run: gear_pairs.sun_planet1: the set's start is not decided"]
        assert window.act_run.isEnabled() and not window.act_stop.isEnabled() and not window.progress.isVisible()
        assert window.doc.runs == []


def test_stop_keeps_partial_results_and_says_when(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    # 1e7 compiled steps take minutes: the run is still going when Stop is clicked, however fast the machine
    _settings(window, t_end=1e4, output_step=1e-2)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: window.doc.current.results is not None and len(window.doc.current.results) > 20, timeout=30_000)
    start = time.perf_counter()
    qtbot.mouseClick(toolbar_button(window, "stop"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot, timeout=5000)
    assert time.perf_counter() - start < 1.0
    assert res.status == "cancelled" and res.message.startswith("cancelled at t = ")
    assert len(res) > 20 and np.all(np.isfinite(res.data))
    assert "cancelled" in window.playback.state.text()


def test_a_failing_run_shows_when_and_keeps_what_it_computed(window, qtbot):
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    # a mesh 100 times stiffer, integrated explicitly at 1e-4 s: its mode (17 kHz) is far beyond RK4's stability
    window.doc.apply(replace_fields(window.doc.model, "mesh", k_mean=2e10, k_amplitude=6e9, damping=0.0))
    _settings(window, t_end=0.05, step=1e-4, output_step=1e-4, integrator="rk4")
    texts = []
    answer_boxes(qtbot, [QMessageBox.Ignore], texts)  # Run asks first: 'Run anyway'
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    assert len(texts) == 1 and texts[0].startswith("RK4 is unstable at 0.0001 s")
    assert res.status == "failed" and "t = " in res.message and "NaN or infinite" in res.message
    assert 1 < len(res) < 500
    assert "failed" in window.playback.state.text() and "t = " in window.playback.state.text()
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert any("failed" in t and "t = " in t for t in texts)


def test_the_window_stays_responsive_and_an_edit_during_a_run_does_not_reach_it(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    # 1e8 compiled steps take many minutes: the run outlasts the clicks below however fast the machine is
    _settings(window, t_end=1e4, step=1e-4, output_step=1e-2)
    original = window.doc.model.copy()  # the document's model is edited in place
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: window.doc.current.results is not None and len(window.doc.current.results) > 1, timeout=30_000)
    assert window.runner.running
    # click in the tree, edit, open a dialog and cancel it, all while the run goes on
    node = window.tree.items["sun_torque"]
    window.tree.tree.scrollToItem(node)
    rect = window.tree.tree.visualItemRect(node)
    assert rect.height() > 0
    qtbot.mouseClick(window.tree.tree.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.props.name == "sun_torque"
    window.doc.apply(replace_fields(window.doc.model, "sun_torque", law=TimeLaw(value=7.0)))
    fill_and_ok(qtbot, {}, ok=False)
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    assert window.runner.running  # still running after all that
    # every sample from here on was computed after the edit: a second of them, then Stop
    seen = window.doc.current.results.time[-1]
    until = math.floor(seen) + 2.0
    qtbot.waitUntil(lambda: window.doc.current.results.time[-1] >= until, timeout=60_000)
    qtbot.mouseClick(toolbar_button(window, "stop"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    assert res.status == "cancelled"
    # the model as it was when Run was clicked; its last sample is left out (the end time's sample is taken at
    # the run's last step, which a longer run does not end at)
    reference = simulate(dataclasses.replace(original, settings=dataclasses.replace(original.settings, t_end=until)))
    n = len(reference) - 1
    assert len(res) > n and res.time[n - 1] > seen
    assert np.array_equal(res.time[:n], reference.time[:n]) and np.array_equal(res.data[:n], reference.data[:n])
    assert window.doc.stale and "earlier version of the model" in window.playback.state.text()
    window.act_undo.trigger()
    assert not window.doc.stale and "earlier version" not in window.playback.state.text()


def test_the_slider_puts_each_actor_at_the_pose_of_the_results_and_playing_moves_it(window, qtbot, tmp_path):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.1, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    slider = window.playback.slider
    slider.setValue(slider.maximum() // 2)  # t = 0.05 s, output sample 50
    assert window.clock.time == pytest.approx(0.05, abs=1e-12)
    k = int(np.argmin(np.abs(res.time - 0.05)))
    for b, name in enumerate(res.bodies):
        assert np.allclose(window.viewport.actor_matrix(name), pose_matrix(res.positions[k, b], res.orientations[k, b]), atol=1e-9)
    sun = res.bodies.index("sun")
    assert not np.allclose(res.orientations[k, sun], res.orientations[0, sun])  # it did turn
    # playing moves the clock and the actors
    window.playback.speed.setCurrentText("0.1x")
    before = np.array(window.viewport.actor_matrix("sun"))
    qtbot.mouseClick(window.playback.play, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.clock.time > 0.055, timeout=5000)
    window.clock.pause()
    assert not np.allclose(window.viewport.actor_matrix("sun"), before)
    window.act_forces.trigger()
    window.act_axes.trigger()
    qtbot.wait(100)
    shot = tmp_path / "animation.png"
    assert window.grab().save(str(shot)) and _not_blank(shot)
    view = tmp_path / "view.png"
    window.viewport.save_image(view)
    assert _not_blank(view)
    assert any(k.startswith("arrow:") and a.GetVisibility() for k, a in window.viewport.overlay_actors.items())


def test_video_export_writes_the_expected_frames(window, qtbot, tmp_path):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.05, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    path = tmp_path / "anim.mp4"
    fill_and_ok(qtbot, {"File": str(path), "Frames per second": 20, "Speed": 0.1})
    window.act_video.trigger()
    expected = len(frame_times(0.0, 0.05, 20, 0.1))
    assert expected == 11
    reader = imageio.get_reader(str(path))
    w, h = window.viewport.ren_win.GetSize()
    assert reader.count_frames() == expected
    assert reader.get_meta_data()["size"] == (w // 2 * 2, h // 2 * 2)
    frame = reader.get_data(5)
    assert frame.std() > 10
    gif = tmp_path / "anim.gif"
    fill_and_ok(qtbot, {"File": str(gif), "Frames per second": 10, "Speed": 0.1})
    window.act_video.trigger()
    assert len(imageio.mimread(str(gif))) == len(frame_times(0.0, 0.05, 10, 0.1))


def test_the_video_dialog_starts_at_a_speed_the_teeth_read_true_at_and_says_how_far_a_frame_moves_them(window, qtbot,
                                                                                                      tmp_path):
    """The helical example's pinion (20 teeth, 100 rad/s) passes 318.3 teeth a second. The dialog started at 1x:
    at 30 frames a second a frame moved them 10.6 pitches, and the video showed the gears standing or turning
    back. It now starts at 0.02x (the 1-2-5 step under 0.25 x 30 / 318.3 = 0.0236x: 0.21 of a pitch a frame)
    and says so; a speed typed in is measured the same way."""
    _helical_run(window, qtbot)
    seen = []

    def look(dlg):
        speed = dlg.findChild(QLineEdit, "Speed")
        seen.append((speed.text(), dlg.findChild(QLabel, "video_note").text()))
        speed.setText("1")
        seen.append((speed.text(), dlg.findChild(QLabel, "video_note").text()))
        speed.setText("0.02")  # and OK writes the slow one

    path = tmp_path / "pair.gif"
    fill_and_ok(qtbot, {"File": str(path), "Frames per second": 30}, press=look)
    window.act_video.trigger()
    rate = 2000 / (2 * math.pi)
    assert seen[0][1].startswith("0.01 s of the run: a video of 0.5333 s, 16 frames\n")  # 15 steps and both ends
    assert seen[1][1].startswith("0.01 s of the run: a video of 0.03333 s, 1 frame\n")
    seen = [(speed, note.split("\n")[1]) for speed, note in seen]
    assert seen[0] == ("0.02", f"gear1: up to {rate:.0f} teeth pass a second of the run; a frame moves them "
                               f"{rate * 0.02 / 30:.3g} tooth pitches")
    assert seen[1] == ("1", f"gear1: up to {rate:.0f} teeth pass a second of the run; a frame moves them "
                            f"{rate / 30:.3g} tooth pitches, so they will look still or turning backwards; at "
                            f"{7.5 / rate:.3g}x or slower a frame moves them 0.25 of a pitch at most")
    assert len(imageio.mimread(str(path))) == len(frame_times(0.0, 0.01, 30, 0.02))


def test_the_video_dialog_grows_to_show_every_line_of_a_longer_note(window, qtbot):
    """Speed 0.1x on the helical example makes the note a line longer (the teeth would look still, and the speed
    that shows them true). The shown dialog kept its height and squeezed the note: its first and last lines were
    cut. It now grows: the note has the height its lines need."""
    _helical_run(window, qtbot)
    heights = []

    def look(dlg):
        note = dlg.findChild(QLabel, "video_note")
        before = note.heightForWidth(note.width())
        dlg.findChild(QLineEdit, "Speed").setText("0.1")
        qtbot.wait(300)  # its events: the label's new size, the dialog's
        heights.append((before, note.height(), note.heightForWidth(note.width())))

    fill_and_ok(qtbot, {}, press=look, ok=False)
    window.act_video.trigger()
    (before, height, needed), = heights
    assert needed > before and height >= needed


def test_a_run_up_no_speed_shows_true_keeps_1x_and_says_so(window, qtbot):
    """The planetary's sun runs up to some 3,250 rad/s (24 teeth: over 12,000 a second): even the least speed,
    0.01x, moves them 4 pitches a frame, and would make a video of 100 s. The dialog keeps 1x and says so."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    seen = []
    fill_and_ok(qtbot, {}, press=lambda dlg: seen.append((dlg.findChild(QLineEdit, "Speed").text(),
                                                          dlg.findChild(QLabel, "video_note").text())), ok=False)
    window.act_video.trigger()
    speed, note = seen[0]
    assert speed == "1" and note.startswith("1 s of the run: a video of 1.033 s, 31 frames\nsun: up to ")
    least = float(note.split("(0.01x: ")[1].split(" ")[0])
    assert note.endswith("pitches a frame)") and least > 4  # more than 4 pitches a frame at 0.01x


def _view_at(window, t: float) -> np.ndarray:
    """The 3-D view drawn at time t [s] of the run, as RGB."""
    window.clock.seek(t)
    window.viewport.render()
    return window.viewport.frame_image().astype(float)


def test_each_video_frame_shows_its_own_time(window, qtbot, tmp_path):
    """Frame k is the view at the k-th frame time (GIF: the palette keeps it to a mean of 0.002 of 255 a pixel,
    against 1 to 2.6 between frame times): the frames lagged one behind (the first showed the view as it
    stood before the export), since a frame was read before the view was drawn for it."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.3, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    times = frame_times(0.0, 0.3, 10, 1.0)
    views = [_view_at(window, t) for t in times]
    path = tmp_path / "frames.gif"
    fill_and_ok(qtbot, {"File": str(path), "Frames per second": 10, "Speed": 1})
    window.act_video.trigger()
    frames = [f.astype(float) for f in imageio.mimread(str(path))]
    assert len(frames) == len(views) == 4
    for k, frame in enumerate(frames):
        off = [np.abs(frame - v).mean() for v in views]  # mean error against the view at each frame time
        assert int(np.argmin(off)) == k, off
        assert off[k] < 0.05 * min(o for i, o in enumerate(off) if i != k), off


def test_a_selected_body_looks_in_the_video_as_it_does_unselected(window, qtbot, tmp_path):
    """The selection's highlight is the editor's, not the model's: it stays out of the frames and comes back
    after the export."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.02, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    frames = {}
    for selected in ("", "sun"):
        window.select(selected)
        path = tmp_path / f"selected_{selected or 'none'}.gif"
        fill_and_ok(qtbot, {"File": str(path), "Frames per second": 10, "Speed": 0.1})
        window.act_video.trigger()
        frames[selected] = imageio.mimread(str(path))
    assert len(frames["sun"]) == len(frames[""]) == 3
    for with_selection, without in zip(frames["sun"], frames[""]):
        assert np.array_equal(with_selection, without)
    assert window.viewport.actor_colour("sun") == pytest.approx(rgb(HIGHLIGHT))


def test_results_file_round_trip_through_the_menus(window, qtbot, tmp_path, monkeypatch):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    _settings(window, t_end=0.02)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    path = tmp_path / "run.gdres"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.act_save_results.trigger()
    ran = window.doc.model.copy()
    window.doc.undo_stack.setClean()
    window.act_new.trigger()
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a[2]) or (str(path), ""))
    window.act_open_results.trigger()
    # the dialog opens where Save Results As suggests (the documents folder), not in the examples folder
    assert Path(asked[0]) == window.doc.suggested_path(".gdres", "run").parent != EXAMPLES
    back = window.doc.current.results
    assert back is not res and back.channels == res.channels and back.bodies == res.bodies
    for k in range(len(res.channels)):
        assert np.array_equal(back.data[:, k], res.data[:, k])
    assert np.array_equal(back.positions, res.positions) and np.array_equal(back.orientations, res.orientations)
    # the model snapshot came with it, so the bodies are there to animate
    assert set(window.viewport.body_actors) == {"gear1", "gear2"}
    assert window.doc.model == ran
    window.playback.slider.setValue(window.playback.slider.maximum())
    assert window.clock.time == pytest.approx(res.time[-1])
    # Messages shows the opened run's notes as the run showed them when it ended: its plan, its summary and its
    # cost (the file keeps the steps and evaluations, not the wall time of the machine that ran it)
    listed = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert res.steps == 20 and res.evaluations == 80  # rk4 at the helical example's 1 ms step
    assert f"run.gdres: plan: {plan_line(res.settings)}" in listed
    assert f"run.gdres: {res.summary()}; 20 steps, 80 evaluations" in listed, listed


def _reducer_results(tmp_path):
    """A results file of the two-stage reducer (4 gears), 0.01 s, written as `geardyn simulate --results` writes
    it."""
    path = tmp_path / "reducer.gdres"
    save_results(simulate(load(EXAMPLES / "two_stage_reducer.gdyn"), t_end=0.01), path)
    return path


def test_results_of_another_model_open_with_their_model_not_on_the_open_models_bodies(window, qtbot, tmp_path,
                                                                                       monkeypatch):
    """The reducer's results opened over the helical pair moved the pair's gear1 and gear2 by the reducer's poses
    of its own gear1 and gear2 (another shape, 60 mm away), and left its gear3 and gear4 undrawn. Opening results of
    another model now asks to open their model with them, asking to save the open one first; Cancel changes
    nothing."""
    path = _reducer_results(tmp_path)
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    pair = window.doc.model.copy()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    texts: list[str] = []
    answer_boxes(qtbot, [QMessageBox.Cancel], texts)
    window.act_open_results.trigger()
    assert window.doc.model == pair and window.doc.current is None
    assert "reducer.gdres holds the results of model 'two_stage_reducer'" in texts[0], texts
    window.doc.apply(replace_fields(window.doc.model, "gear1", mass=1.0))  # unsaved: asked about, and kept
    texts.clear()
    answer_boxes(qtbot, [QMessageBox.Open, QMessageBox.Discard], texts)
    window.act_open_results.trigger()
    assert "unsaved changes" in texts[1]
    assert set(window.doc.model.bodies) == {"gear1", "gear2", "gear3", "gear4"}
    assert set(window.viewport.body_actors) == {"gear1", "gear2", "gear3", "gear4"}
    assert window.doc.current.model.simulates_like(window.doc.model) and not window.doc.stale
    assert [r.label for r in window.doc.runs] == ["reducer.gdres"] and not window.doc.dirty


def test_results_of_an_earlier_version_of_the_open_model_open_on_it_as_results_of_an_earlier_version(
        window, qtbot, tmp_path, monkeypatch):
    """The reducer edited after its run (a load changed, the same gears): its results open on it without a
    question, marked as from an earlier version, the edit kept."""
    path = _reducer_results(tmp_path)
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    window.doc.apply(replace_fields(window.doc.model, "load", law=TimeLaw("constant", -20.0)))
    edited = window.doc.model.copy()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.act_open_results.trigger()
    assert window.doc.model == edited and window.doc.current.label == "reducer.gdres" and window.doc.stale


def test_screenshot_mid_animation_is_not_blank(window, qtbot, tmp_path):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.2, step=1e-3, output_step=2e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: window.doc.current.results is not None and len(window.doc.current.results) > 5, timeout=30_000)
    shot = tmp_path / "running.png"
    QApplication.processEvents()
    assert window.grab().save(str(shot)) and _not_blank(shot)
    _wait_for_run(window, qtbot)
    window.clock.seek(0.1)
    shot2 = tmp_path / "mid_animation.png"
    qtbot.wait(50)
    assert window.grab().save(str(shot2)) and _not_blank(shot2)


def test_a_cancelled_video_leaves_no_file(tmp_path):
    frames = (np.full((40, 60, 3), 20 * k, np.uint8) for k in range(10))
    path = tmp_path / "cancelled.mp4"
    assert video.write_video(path, frames, 10, progress=lambda k: k < 3) is False
    assert list(tmp_path.iterdir()) == []


def test_the_app_starts_without_importing_numba_and_a_short_run_without_the_kernels_cached_runs_in_python(tmp_path):
    """numba is imported by a run that takes the compiled kernels (from their cache, or long enough to repay
    compiling them: core.dynamics.program.choice.choose_program), never by the app's start; a short run with nothing
    cached runs in Python and its plan says why."""
    import os
    import subprocess
    import sys

    from tests.conftest import EXAMPLES, ROOT

    code = ("import sys; import app.main_window, core.dynamics.run as r, core.model.files as f; "
            "print('numba' in sys.modules); "
            f"run = r.prepare(f.load({str(EXAMPLES / 'planetary.gdyn')!r}), t_end=0.05); run.run(); "
            "print(run.plan.compiled_why); print('numba' in sys.modules)")
    env = {**os.environ, "GEARDYN_KERNEL_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    started, why, after = out.stdout.strip().splitlines()[-3:]
    assert started == "False" and after == "False"
    assert why.startswith("the compiled kernels are not in the cache yet") and "does not repay compiling" in why


@pytest.mark.parametrize("how", ["new", "open"])
def test_results_belong_to_their_model_new_and_open_leave_no_arrow_no_curve_no_cursor(window, qtbot, how):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.02, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    window.act_forces.trigger()
    window.playback.slider.setValue(window.playback.slider.maximum() // 2)
    assert any(k.startswith("arrow:") and a.GetVisibility() for k, a in window.viewport.overlay_actors.items())
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    tw.act_cursors.trigger()
    assert tw.stack.current.curves and tw.stack.cursors_on
    window.doc.undo_stack.setClean()
    if how == "new":
        qtbot.mouseClick(toolbar_button(window, "new"), Qt.LeftButton)
    else:
        assert window.open_file(EXAMPLES / "helical_pair.gdyn")
    assert window.doc.runs == [] and window.doc.current is None
    assert window.viewport.overlay_actors == {}
    messages = [window.messages.list.item(k).text() for k in range(window.messages.list.count())]
    assert not [m for m in messages if m.startswith("Run 1")]  # the dropped run's plan and summary go with it
    assert not tw.stack.current.curves and not tw.stack.cursors_on and not tw.act_cursors.isChecked()
    assert tw.browser.tree.topLevelItemCount() == 0
    (x0, x1), (y0, y1) = tw.stack.current.getPlotItem().viewRange()
    assert (x0, x1, y0, y1) == pytest.approx((0.0, 1.0, 0.0, 1.0))  # not the last run's axes
    assert not window.playback.isEnabled() and window.playback.time_label.text() == "t = 0 s"
    assert window.playback.slider.value() == 0


def test_playback_goes_to_start_and_end_plays_again_from_the_end_and_its_slider_takes_the_bar(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.1, step=1e-3, output_step=1e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    bar = window.playback
    qtbot.mouseClick(bar.first, Qt.LeftButton)
    assert window.clock.time == res.time[0] and bar.slider.value() == 0
    qtbot.mouseClick(bar.last, Qt.LeftButton)
    assert window.clock.time == res.time[-1] and bar.slider.value() == bar.slider.maximum()
    bar.speed.setCurrentText("0.1x")
    qtbot.mouseClick(bar.play, Qt.LeftButton)  # at the end: Play starts again from the start
    qtbot.waitUntil(lambda: 0.0 < window.clock.time < 0.05, timeout=5000)
    assert window.clock.playing
    window.clock.pause()
    # slow enough for fast teeth: at 0.02x a second of wall time plays 0.02 s of the run at most
    bar.speed.setCurrentText("0.02x")
    qtbot.mouseClick(bar.first, Qt.LeftButton)
    began = time.perf_counter()
    qtbot.mouseClick(bar.play, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.clock.time > 0.0, timeout=5000)
    window.clock.pause()
    assert window.clock.speed == 0.02 and window.clock.time <= 0.02 * (time.perf_counter() - began)
    assert bar.slider.width() >= 0.3 * bar.width()


def test_the_frozen_apps_packed_ffmpeg_is_unpacked_once_and_writes_the_mp4(tmp_path, monkeypatch):
    """The frozen app ships ffmpeg xz-compressed (packaging/geardyn.spec): the first MP4 export unpacks it into
    the user's cache and runs it; the second runs the unpacked one. A stand-in that records its calls and hands
    them to the real ffmpeg plays the packed program."""
    calls = tmp_path / "calls.txt"
    stand_in = f'#!/bin/sh\necho run >> "{calls}"\nexec "{imageio_ffmpeg.get_ffmpeg_exe()}" "$@"\n'
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / video.PACKED_ENCODER).write_bytes(lzma.compress(stand_in.encode()))
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("IMAGEIO_FFMPEG_EXE", raising=False)
    packed = video.packed_encoder()
    assert packed == bundle / video.PACKED_ENCODER and not video.unpacked_encoder(packed).exists()
    for k in (1, 2):
        path = tmp_path / f"clip{k}.mp4"
        frames = (np.full((40, 60, 3), 20 * j, np.uint8) for j in range(6))
        assert video.write_video(path, frames, 10) is True
        unpacked = video.unpacked_encoder(packed)
        assert unpacked.read_text() == stand_in and os.access(unpacked, os.X_OK)
        assert os.environ["IMAGEIO_FFMPEG_EXE"] == str(unpacked)
        assert imageio.get_reader(str(path)).count_frames() == 6
        monkeypatch.delenv("IMAGEIO_FFMPEG_EXE")  # as a new start of the app would be
    assert calls.read_text().count("run") >= 2  # the unpacked program ran for both files
    assert not [p for p in unpacked.parent.iterdir() if p.suffix == ".part"]


def test_show_tooth_forces_draws_ft_fr_fa_in_their_colours_on_one_scale_over_see_through_gears(window, qtbot):
    """The helical pair driven by 10 N m: Show Tooth Forces draws three arrows at the pitch point, coloured by
    quantity and visible (the gears turn see-through, and the arrows' pixels are in the picture); the caption's
    scale is the run's largest Fc over 30 % of the model's size; turned off, the gears are solid again."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    fill_and_ok(qtbot, {"Name": "drive", "law_value": 10}, {"joint": "gear1_joint"})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert "drive" in window.doc.model.forces
    _settings(window, t_end=0.02)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    view = window.viewport
    plain = view.frame_image().astype(int)
    window.act_forces.trigger()
    qtbot.wait(100)
    shown = {k: a for k, a in view.overlay_actors.items() if a.GetVisibility()}
    assert set(shown) == {"arrow:pair.Ft", "arrow:pair.Fr", "arrow:pair.Fa"}
    for key, actor in shown.items():
        assert actor.GetProperty().GetColor() == pytest.approx(rgb(FORCE_COLOURS[key.rsplit(".", 1)[1]]))
    assert all(a.GetProperty().GetOpacity() == SEE_THROUGH for a in view.body_actors.values())
    image = view.frame_image().astype(int)

    def reddish(picture):  # Ft's colour, also as seen through a pale gear; the corner axes' x is red in both
        r, g, b = picture[..., 0], picture[..., 1], picture[..., 2]
        return int(((r > 150) & (r - g > 60) & (r - b > 60)).sum())

    assert reddish(image) - reddish(plain) > 100  # Ft's arrow, seen
    per_newton = FORCE_LENGTH * window.animator._size() / np.abs(res["pair.Fc"]).max()  # [m/N]
    caption = view.renderer.actors["caption"]  # lower right: a corner annotation's corner 1
    assert caption.GetVisibility() and f"10 mm = {10e-3 / per_newton:.4g} N" in caption.GetText(1)
    window.act_forces.trigger()
    qtbot.wait(50)
    assert all(a.GetProperty().GetOpacity() == 1.0 for a in view.body_actors.values())
    assert "caption" not in view.renderer.actors


def test_show_tooth_forces_of_an_unloaded_run_says_there_are_none(window, qtbot):
    """The bevel example turns freely at constant speed: its tooth forces are round-off (some 1e-31 N), and the
    caption gave that as a scale ('10 mm = 8.132e-32 N') over no visible arrow. It says there are none."""
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    _settings(window, t_end=0.02)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    assert np.abs(res["pair.Fc"]).max() < 1e-20  # the case: no load on the teeth
    window.act_forces.trigger()
    qtbot.wait(100)
    caption = window.viewport.renderer.actors["caption"]
    assert caption.GetText(1) == "Tooth forces: none in this run (nothing loads the teeth)"
    assert not [k for k, a in window.viewport.overlay_actors.items() if a.GetVisibility()]


def test_show_joint_axes_draws_every_revolute_axis_through_see_through_bodies(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.01)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    _wait_for_run(window, qtbot)
    view = window.viewport
    window.act_axes.trigger()
    qtbot.wait(50)
    shown = {k for k, a in view.overlay_actors.items() if a.GetVisibility()}
    assert shown == {f"axis:{j}" for j in window.doc.model.joints}  # the six revolute joints
    assert all(a.GetProperty().GetOpacity() == SEE_THROUGH for a in view.body_actors.values())
    window.act_axes.trigger()
    qtbot.wait(50)
    assert all(a.GetProperty().GetOpacity() == 1.0 for a in view.body_actors.values())


def test_joint_axes_show_before_a_run_where_the_model_puts_them_and_tooth_forces_say_they_need_one(window, qtbot):
    """Checking where the joints sit is done before running: Show Joint Axes drew nothing until a run existed.
    Before a run the axes stand at the model's joints (their point the axis' middle), and Show Tooth Forces says
    it needs a run instead of drawing nothing without a word."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    view, model = window.viewport, window.doc.model
    window.act_axes.trigger()
    qtbot.wait(50)
    shown = {k: a for k, a in view.overlay_actors.items() if a.GetVisibility()}
    assert set(shown) == {"axis:gear1_joint", "axis:gear2_joint"}
    for name in ("gear1_joint", "gear2_joint"):
        matrix = np.array(shown[f"axis:{name}"].user_matrix)
        length = np.linalg.norm(matrix[:3, 0])
        middle = matrix[:3, 3] + 0.5 * matrix[:3, 0]  # the unit line along x, placed and scaled
        assert np.allclose(middle, model.joints[name].position, atol=1e-12 * length)
        assert np.allclose(matrix[:3, 0] / length, model.joints[name].unit_axis(), atol=1e-12)
    window.act_forces.trigger()
    qtbot.wait(50)
    assert view.caption_text == "Tooth forces: run the model to see them"
    window.act_forces.trigger()
    window.apply(replace_fields(model, "gear2_joint", position=(0.07, 0.0, 0.0)))  # an edit moves its axis
    qtbot.wait(50)
    matrix = np.array(view.overlay_actors["axis:gear2_joint"].user_matrix)
    assert np.allclose(matrix[:3, 3] + 0.5 * matrix[:3, 0], (0.07, 0.0, 0.0), atol=1e-12)
    window.doc.undo_stack.setClean()  # File > New without the unsaved-changes prompt
    window.act_new.trigger()  # no joints, no axes
    qtbot.wait(50)
    assert not any(a.GetVisibility() for a in view.overlay_actors.values())


def test_a_spring_damper_is_drawn_between_its_ends_before_and_during_a_run(window, qtbot, tmp_path):
    """A spring-damper was not drawn at all. It is a line from its end on body I to its end on body J (points in
    body axes from the body's origin; the ground's in world axes), on the model before a run and on the run's
    poses after."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    _settings(window, t_end=0.01)
    window.apply(AddItem(SpringDamper("spring", GROUND, "gear2", point_i=(0.1, 0.0, 0.0), point_j=(0.02, 0.0, 0.0))))
    qtbot.wait(50)

    def ends():
        actor = window.viewport.overlay_actors["spring:spring"]
        assert actor.GetVisibility()
        m = np.array(actor.user_matrix)
        return m[:3, 3], m[:3, 3] + m[:3, 0]  # the unit line along x, placed from the first end to the second

    gear2 = window.doc.model.bodies["gear2"]
    start, end = ends()
    assert np.allclose(start, (0.1, 0.0, 0.0), atol=1e-12)
    assert np.allclose(end, pose_matrix(gear2.position, gear2.orientation)[:3] @ (0.02, 0.0, 0.0, 1.0), atol=1e-12)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    k = res.bodies.index("gear2")
    pose = pose_matrix(res.positions[-1, k], res.orientations[-1, k])
    assert not np.allclose(res.orientations[-1, k], res.orientations[0, k])  # gear 2 turned
    start, end = ends()
    assert np.allclose(start, (0.1, 0.0, 0.0), atol=1e-12)
    assert np.allclose(end, pose[:3] @ (0.02, 0.0, 0.0, 1.0), atol=1e-12)
    save(window.doc.model, tmp_path / "spring.gdyn")  # opened again: drawn at once, with no run and no edit
    window.doc.undo_stack.setClean()
    window.act_new.trigger()
    assert not any(a.GetVisibility() for a in window.viewport.overlay_actors.values())
    window.open_file(tmp_path / "spring.gdyn")
    qtbot.wait(50)
    start, end = ends()
    assert np.allclose(start, (0.1, 0.0, 0.0), atol=1e-12)


def test_a_runs_note_on_a_setting_opens_the_settings_at_its_entry_on_a_double_click(window, qtbot):
    """The compliant pair sampled every 2 ms (its mesh at 509 Hz, 1.02 periods a sample): the run's note says the
    output step aliases the mesh and a double-click on it opens Simulation Settings at the Output step entry, as a
    finding on a setting does; the step typed there is the model's."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    _settings(window, t_end=0.02, output_step=2e-3)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    assert _wait_for_run(window, qtbot).status == "finished"
    listed = window.messages.list
    row = next(i for i in range(listed.count()) if "settings.output_step 0.002 s samples the mesh frequency of "
               "'pair'" in listed.item(i).text())
    assert listed.item(row).text().endswith("[double-click: Simulation Settings]")
    focused = []
    fill_and_ok(qtbot, {"Output step": 1e-4}, press=lambda dlg: focused.append(dlg.focusWidget().objectName()))
    at = listed.visualItemRect(listed.item(row)).center()
    qtbot.mouseClick(listed.viewport(), Qt.LeftButton, pos=at)
    qtbot.mouseDClick(listed.viewport(), Qt.LeftButton, pos=at)
    assert focused == ["Output step"] and window.doc.model.settings.output_step == 1e-4


def _compliant_pair_on_rk4(window):
    """The compliant pair example with RK4 at 1 ms, which its mesh mode (1885 Hz) makes diverge."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn", ask=False)
    _settings(window, integrator="rk4", step=1e-3, output_step=1e-3, t_end=0.05)
    (step,) = [f for f in window.doc.findings if f.fix == "adaptive_steps"]
    assert step.item == "settings.step" and step.message.startswith("RK4 is unstable at 0.001 s")
    return step


def test_run_with_a_step_that_diverges_asks_first_and_integrates_with_dop853_when_told(window, qtbot):
    """Run with RK4 at a step the model check knows is unstable started a run bound to diverge: the warning was
    only in Messages. Run now asks; 'Integrate with dop853' applies the warning's fix (one undo step) and runs, and
    the run finishes where RK4 failed."""
    step = _compliant_pair_on_rk4(window)
    texts = []
    answer_boxes(qtbot, [QMessageBox.Yes], texts)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    assert texts == [f"{step.message}.\n\nThe run would diverge. Integrate with dop853 (adaptive steps) and run?"]
    res = _wait_for_run(window, qtbot)
    assert res.status == "finished", res.message
    assert window.doc.model.settings.integrator == "dop853" and res.settings["integrator"] == "dop853"
    window.doc.undo_stack.undo()
    assert window.doc.model.settings.integrator == "rk4"


def test_run_anyway_runs_the_step_as_it_is_and_cancel_runs_nothing(window, qtbot):
    _compliant_pair_on_rk4(window)
    texts = []
    answer_boxes(qtbot, [QMessageBox.Cancel], texts)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    assert len(texts) == 1 and not window.runner.running and window.doc.current is None
    again = []
    answer_boxes(qtbot, [QMessageBox.Ignore], again)
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    assert again == texts and window.doc.model.settings.integrator == "rk4"
    assert res.status == "failed" and "divergence" in res.message


def test_the_view_follows_a_running_run_within_its_drawing_share_and_always_shows_its_end(window, qtbot):
    """Frames made slow for real (an observer sleeps 60 ms in each render): while the run computes the view draws its
    newest sample only so often that drawing takes FOLLOW_SHARE of the wall time; the finished run's last sample is
    drawn, whatever the budget says."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, t_end=0.3, step=5e-7, output_step=1e-3)
    slow = 0.06
    tag = window.viewport.ren_win.AddObserver("StartEvent", lambda *_: time.sleep(slow))
    followed = []  # (frames drawn so far, wall time [s]) at each chunk of the run while it computes
    window.doc.run_updated.connect(lambda record: record.results is not None and record.results.status == "running"
                                   and followed.append((window.animator.frames, time.perf_counter())))
    try:
        qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
        res = _wait_for_run(window, qtbot)
    finally:
        window.viewport.ren_win.RemoveObserver(tag)
    assert res.status == "finished"
    frames = [(n, t) for (n, t), (m, _) in zip(followed[1:], followed) if n > m]  # the chunks that drew a frame
    chunks = len(followed)
    assert chunks >= 8, chunks  # the run lasted long enough to see the budget at work
    assert 2 <= len(frames) < chunks / 2, (len(frames), chunks)  # it follows, but not at every chunk
    gaps = np.diff([t for _, t in frames])
    assert gaps.min() >= slow / FOLLOW_SHARE * 0.9, gaps
    assert window.clock.time == res.time[-1]  # the end is shown
    sun = res.bodies.index("sun")
    assert np.allclose(window.viewport.actor_matrix("sun"), pose_matrix(res.positions[-1, sun],
                                                                        res.orientations[-1, sun]), atol=1e-9)


def test_a_finished_runs_note_gives_its_steps_evaluations_and_wall_time(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    _settings(window, integrator="rk4", t_end=0.1, step=1e-3, output_step=1e-3)
    t0 = time.perf_counter()
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    res = _wait_for_run(window, qtbot)
    waited = time.perf_counter() - t0
    assert res.steps == 100  # 0.1 s in fixed steps of 1 ms
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    last = [t for t in texts if t.startswith(f"{window.doc.current.label}: finished")]
    assert len(last) == 1, texts
    head, _, cost = last[0].partition("; ")
    assert head == f"{window.doc.current.label}: {res.summary()}"
    found = re.fullmatch(r"([\d,]+) steps, ([\d,]+) evaluations in ([\d.]+) s", cost)
    assert found, cost
    steps, evaluations, seconds = found.groups()
    assert (int(steps.replace(",", "")), int(evaluations.replace(",", ""))) == (res.steps, res.evaluations), cost
    assert 0 < float(seconds) <= waited
