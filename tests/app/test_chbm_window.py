"""The CHBM study window in a real window under Xvfb: clicks and typing, compared with `geardyn chbm`."""

import csv
import math
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox, QToolButton

from core.chbm.from_model import study_defaults
from core.chbm.harmonic_balance import HarmonicBalance
from core.commands import AddItem, replace_fields
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import pair_iso_stiffness
from core.geometry.macro import GearSpec, pair_geometry
from core.model import builders
from core.model.entities import GROUND, CompliantMesh, GearPair, RevoluteJoint
from core.model.views import PAPER_SOURCE, ChbmStudy
from tests.app.conftest import answer_boxes, axis_unit_suits, toolbar_button
from tests.conftest import EXAMPLES

COARSE = {"Torques": "100", "Lowest mesh frequency": "1000", "Highest mesh frequency": "3000", "Harmonics": "7",
          "Largest frequency step": "100"}


def _open(window, qtbot):
    qtbot.mouseClick(toolbar_button(window, "chbm_study"), Qt.LeftButton)
    chbm = window.chbm
    qtbot.waitExposed(chbm)
    return chbm


def _type(chbm, qtbot, fields):
    for name, text in fields.items():
        edit = chbm.findChild(QLineEdit, name)
        assert edit is not None, name
        edit.selectAll()
        qtbot.keyClicks(edit, text) if not edit.text() else (edit.clear(), qtbot.keyClicks(edit, text))


def _click(chbm, qtbot, action):
    for button in chbm.findChildren(QToolButton):
        if button.defaultAction() is not None and button.defaultAction().objectName() == action:
            qtbot.mouseClick(button, Qt.LeftButton)
            return
    raise LookupError(action)


def _cli(tmp_path, *args):
    out = tmp_path / "cli.csv"
    subprocess.run([sys.executable, "-m", "core.cli", "chbm", *args, "--out", str(out)], check=True,
                   capture_output=True, text=True)
    return list(csv.DictReader(out.open()))


def test_a_coarse_study_matches_the_command_line(window, qtbot, tmp_path):
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, COARSE)
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    assert chbm.progress.value() == 1000
    rows = _cli(tmp_path, "--torque", "100", "--f-min", "1000", "--f-max", "3000", "--harmonics", "7", "--df-max", "100")
    points = chbm.results[0].points
    assert len(points) == len(rows) > 20
    for p, row in zip(points, rows):
        for value, key in ((p.frequency, "frequency [Hz]"), (p.half_p2p, "half peak-to-peak DTE [m]"),
                           (p.mean, "mean DTE [m]"), (p.rms, "RMS fluctuating DTE [m]")):
            assert value == pytest.approx(float(row[key]), rel=1e-9)
        assert int(p.stable) == int(row["stable"])
    assert points[0].frequency == pytest.approx(1000.0, rel=1e-12) and points[-1].frequency == pytest.approx(3000.0, rel=1e-12)
    assert np.diff([p.frequency for p in points]).max() <= 105.0  # the largest step, in the window as in the CLI
    # the study is kept with the model (settings only) and survives a save and reopen
    assert window.doc.model.views.chbm.f_min == 1000.0 and window.doc.model.views.chbm.torques == (100.0,)
    path = tmp_path / "m.gdyn"
    window.doc.save(path)
    window.doc.open(path)
    assert chbm.findChild(QLineEdit, "Harmonics").text() == "7"
    # export: the curve CSV has the CLI's format
    out = tmp_path / "window.csv"
    chbm.export_curve(out)
    assert next(csv.reader(out.open())) == next(csv.reader((tmp_path / "cli.csv").open()))


def test_a_torque_too_small_to_compute_is_named_with_its_range_and_nothing_runs(window, qtbot):
    """A subnormal torque made the solver's scaling divide by zero ("Singular matrix") after Run."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100 5e-324"})
    _click(chbm, qtbot, "chbm_run")
    assert chbm.message.text() == ("Torques: each torque must be a number from 1e-09 to 1e+06 N m, got "
                                   "4.94066e-324 N m")
    assert not chbm.running and not chbm.results
    assert window.doc.model.views.chbm.torques != (100.0, 5e-324)  # the model keeps its study as it was


def test_stop_keeps_the_points_so_far(window, qtbot):
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100 200 300", "Harmonics": "20", "Largest frequency step": "5"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.progress.value() > 100, timeout=60000)
    _click(chbm, qtbot, "chbm_stop")
    qtbot.waitUntil(lambda: not chbm.running, timeout=60000)
    assert chbm.status == "stopped"
    kept = sum(len(r.points) for r in chbm.results)
    assert kept > 5 and len(chbm.results) < 3
    assert "stopped" in chbm.statusBar().currentMessage() and str(kept) in chbm.statusBar().currentMessage()


def test_clicking_a_point_shows_its_period_as_the_command_line_does(window, qtbot, tmp_path):
    chbm = _open(window, qtbot)
    title = chbm.period_plot.plots[0].titleLabel
    assert "click a point of a curve above" in title.text  # the empty period plot says how to fill it
    _type(chbm, qtbot, COARSE)
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    # click the curve point nearest 2000 Hz on the screen
    points = chbm.results[0].points
    k = int(np.argmin([abs(p.frequency - 2000.0) for p in points]))
    freq, value = points[k].frequency, points[k].half_p2p  # the curve is drawn in m (its axis names the prefix)
    view = chbm.curve.getPlotItem().vb
    scene_pos = view.mapViewToScene(QPointF(freq, value))
    widget_pos = chbm.curve.mapFromScene(scene_pos)
    qtbot.mouseClick(chbm.curve.viewport(), Qt.LeftButton, pos=widget_pos)
    qtbot.waitUntil(lambda: chbm.period is not None, timeout=10000)
    names, data, shown, _ = chbm.period
    assert shown == pytest.approx(freq, rel=1e-12) and title.text.startswith("one period at")
    out = tmp_path / "period.csv"
    subprocess.run([sys.executable, "-m", "core.cli", "chbm", "--torque", "100", "--f-min", "1000", "--f-max", "3000",
                    "--harmonics", "7", "--df-max", "100", "--out", str(tmp_path / "c.csv"), "--period", repr(float(freq)),
                    "--period-out", str(out)], check=True, capture_output=True)
    rows = list(csv.reader(out.open()))
    header, table = rows[0], np.array(rows[1:], dtype=float)
    hbm = [n for n in names if n.startswith("HBM") and n.endswith("x [m]")]
    assert hbm and all(n in header for n in hbm)
    for n in hbm:
        assert np.allclose(data[:, names.index(n)], table[:, header.index(n)], rtol=1e-9, atol=1e-18)
    chbm.export_period(tmp_path / "window_period.csv")
    assert (tmp_path / "window_period.csv").read_text().splitlines()[0].startswith("time [s],HBM")


def test_screenshot_of_a_three_torque_curve(window, qtbot, tmp_path):
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100 200 300", "Harmonics": "10", "Largest frequency step": "50",
                        "DTI sweep points": "2"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=300000)
    assert len(chbm.results) == 3 and all(r.forward and r.backward for r in chbm.results)
    # how the sweeps agree with the curves, a line per torque (core.chbm.study.dti_check), not in the red message
    lines = chbm.checked.text().splitlines()
    assert [line.split(": DTI at 4 runs: half peak-to-peak DTE within ")[0] for line in lines] == [
        "T = 100 N m", "T = 200 N m", "T = 300 N m"], lines
    assert [r.check for r in chbm.results] == [line.split(": ", 1)[1] for line in lines]
    shot = tmp_path / "chbm.png"
    assert chbm.grab().save(str(shot))
    image = chbm.curve.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}
    assert {"#1f77b4", "#d62728", "#2ca02c"} <= colours  # one colour per torque drawn
    for suffix in (".png", ".svg"):
        chbm.save_image(tmp_path / f"curve{suffix}")
        assert (tmp_path / f"curve{suffix}").stat().st_size > 1000
    # the symbols as vector paths: they were 906 pixmaps cut from pyqtgraph's atlas (an 'x' came out as hourglasses)
    assert "<image" not in (tmp_path / "curve.svg").read_text()
    # a bad entry names the field and its range, and nothing runs
    _type(chbm, qtbot, {"Harmonics": "0"})
    _click(chbm, qtbot, "chbm_run")
    assert "Harmonics" in chbm.message.text() and "1 to 100" in chbm.message.text() and not chbm.running


def test_a_model_pair_starts_at_its_own_torque_and_mesh_mode_and_entries_typed_stay(window, qtbot):
    """Stage 2 of the reducer carries 10 N m x 18 / 45 = 4 N m on gear 3 (the paper's 100-300 N m would load its
    2 mm teeth 25-75 times over); its mesh mode on fixed centres, sqrt(k / m_eq) / 2 pi with the ISO 6336 mean
    stiffness and the welded shaft's inertia, sets the range. Entries the user typed are kept."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    chbm = _open(window, qtbot)
    chbm.source.setCurrentIndex(chbm.source.findData("stage2"))
    model, pair = window.doc.model, window.doc.model.gear_pairs["stage2"]
    geo = pair_geometry(pair.pair_spec())
    j1, j2 = polar_inertia(model, "shaft_joint"), polar_inertia(model, "output_joint")
    m_eq = j1 * j2 / (j1 * geo.base_radius_2 ** 2 + j2 * geo.base_radius_1 ** 2)
    k = pair_iso_stiffness(pair).c_gamma_alpha * pair.face_width
    f_n = math.sqrt(k / m_eq) / (2 * math.pi)  # the involute waveform's mean is k
    assert chbm.torques.text() == "2 4 8"
    assert chbm.f_min.value() == pytest.approx(0.2 * f_n, rel=0.03) and chbm.f_max.value() == pytest.approx(1.5 * f_n, rel=0.03)
    assert f"mesh mode {f_n:.4g} Hz" in chbm.derived.text()
    _type(chbm, qtbot, {"Torques": "3"})
    chbm.source.setCurrentIndex(chbm.source.findData("stage1"))
    assert chbm.torques.text() == "3"  # typed: kept


def _pair_on_joints():
    """Gears of 20 and 40 teeth, m 2 mm, at their centre distance on ground joints, a spur pair, 10 N m in."""
    spec = lambda z: GearSpec("helical", 0.002, z, math.radians(20), 0.02, bore_diameter=0.01)  # noqa: E731
    return [builders.gear_body("gear1", spec(20)), builders.gear_body("gear2", spec(40), position=(0.06, 0, 0)),
            RevoluteJoint("gear1_joint", GROUND, "gear1", (0, 0, 0), (0, 0, 1)),
            RevoluteJoint("gear2_joint", GROUND, "gear2", (0.06, 0, 0), (0, 0, 1)),
            GearPair("pair", "gear1_joint", "gear2_joint", GROUND, z1=20, z2=40, module=0.002, face_width=0.02),
            builders.constant_torque("drive", "gear1_joint", 10.0)]


def test_a_pair_built_from_file_new_is_the_pair_the_study_starts_on_and_a_compliant_one_comes_first(window, qtbot):
    """A user who built a pair and clicked CHBM Study got the paper's pair (Saletti et al., 100-300 N m) and had
    to find their own in the list. The window now starts on the model's first pair with a compliant mesh, at its
    own torques (study_defaults, as the CLI's chbm --model), also when the mesh is added with the window open;
    on a model without a mesh, on its first pair (ISO 6336's mesh, as its note says); a pair picked by hand
    stays; a model without pairs starts on the paper's."""
    chbm = _open(window, qtbot)
    assert chbm.source.currentData() == PAPER_SOURCE  # no pair yet
    window.open_file(EXAMPLES / "planetary.gdyn", ask=False)
    assert chbm.source.currentData() == "sun_planet1"  # rigid pairs: the first one
    assert "ISO 6336-1 method B" in chbm.derived.text()
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn", ask=False)
    assert chbm.source.currentData() == "stage1"
    window.doc.apply(AddItem(CompliantMesh("stage2_mesh", "stage2")))
    assert chbm.source.currentData() == "stage2"  # a mesh added with the window open: its pair comes first
    window.doc.undo_stack.setClean()
    window.act_new.trigger()
    assert chbm.source.currentData() == PAPER_SOURCE  # no pair yet
    for item in _pair_on_joints():
        window.doc.apply(AddItem(item))
    assert chbm.source.currentData() == "pair"  # a rigid pair built with the window open
    window.doc.apply(AddItem(CompliantMesh("mesh", "pair")))
    assert chbm.source.currentData() == "pair" and chbm.source.currentText() == "Model pair 'pair'"  # not 'pair pair'
    torques, f_min, f_max, _ = study_defaults(window.doc.model, "pair")
    assert chbm.torques.text() == " ".join(f"{t:g}" for t in torques)
    assert (chbm.f_min.value(), chbm.f_max.value()) == pytest.approx((f_min, f_max), rel=1e-3)
    chbm.source.setCurrentIndex(chbm.source.findData(PAPER_SOURCE))  # picked by hand: kept through edits
    window.doc.apply(replace_fields(window.doc.model, "pair", face_width=0.025))
    assert chbm.source.currentData() == PAPER_SOURCE
    window.doc.undo_stack.setClean()  # no unsaved-changes prompt
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    assert chbm.source.currentData() == "pair"


def test_file_new_after_a_study_drops_its_curves_and_period(window, qtbot):
    """A study's curves and the period shown stayed after File > New (the changed study discarded in the real
    box), under a form back on the paper's pair and its range: Export Curve CSV still wrote them."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, COARSE)
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    point = chbm.results[0].points[5]
    view = chbm.curve.getPlotItem().vb
    pos = chbm.curve.mapFromScene(view.mapViewToScene(QPointF(point.frequency, point.half_p2p)))
    qtbot.mouseClick(chbm.curve.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: chbm.period is not None, timeout=10000)
    texts = []
    answer_boxes(qtbot, [QMessageBox.Discard], texts)
    window.act_new.trigger()  # File > New
    assert texts == ["The model has unsaved changes. Save them?"]
    assert chbm.results == [] and chbm.period is None and not chbm.curve.listDataItems()
    assert not chbm.curve.marker.isVisible() and all(not p.listDataItems() for p in chbm.period_plot.plots)
    assert "click a point of a curve above" in chbm.period_plot.plots[0].titleLabel.text
    assert chbm.curve.getPlotItem().vb.viewRange() == [[0.0, 1.0], [0.0, 1.0]]  # not the old curves' axes
    assert chbm.statusBar().currentMessage() == "" and chbm.progress.value() == 0
    _click(chbm, qtbot, "chbm_export_curve")
    assert chbm.message.text() == "Export Curve CSV: run a study first"


def test_an_edit_of_the_studied_pairs_mesh_drops_its_curves_and_one_of_another_pair_keeps_them(window, qtbot):
    """The curves of a model pair are of the pair as it was: an edit of its compliant mesh makes them another
    pair's, so they go; an edit of the other stage leaves them."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn", ask=False)
    for pair in ("stage1", "stage2"):
        window.doc.apply(AddItem(CompliantMesh(f"{pair}_mesh", pair)))
    chbm = _open(window, qtbot)
    assert chbm.source.currentData() == "stage1"
    _type(chbm, qtbot, {"Torques": "4", "Harmonics": "7", "Largest frequency step": "500"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    assert len(chbm.results) == 1 and chbm.curve.listDataItems()
    window.doc.apply(replace_fields(window.doc.model, "stage2_mesh", damping_ratio=0.1))
    assert len(chbm.results) == 1 and chbm.curve.listDataItems()
    window.doc.apply(replace_fields(window.doc.model, "stage1_mesh", damping_ratio=0.1))
    assert chbm.results == [] and not chbm.curve.listDataItems() and chbm.statusBar().currentMessage() == ""


def test_file_new_while_a_study_runs_stops_it_and_shows_nothing_of_it(window, qtbot):
    """A study running when File > New replaced the model went on, and its curves then drew over the new model's
    empty window. It now stops, and what it still reports is dropped; Run is offered again."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100 200 300", "Harmonics": "20", "Largest frequency step": "5"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.progress.value() > 50, timeout=60000)
    texts = []
    answer_boxes(qtbot, [QMessageBox.Discard], texts)
    window.act_new.trigger()  # File > New
    assert texts == ["The model has unsaved changes. Save them?"]
    qtbot.waitUntil(lambda: not chbm.running, timeout=60000)
    qtbot.wait(200)  # any signal the worker queued before it ended
    assert chbm.results == [] and not chbm.curve.listDataItems() and chbm.status == ""
    assert chbm.statusBar().currentMessage() == "stopped: the model changed while it ran, so its results are not shown"
    assert chbm.act_run.isEnabled() and not chbm.act_stop.isEnabled() and chbm.progress.value() == 0
    _type(chbm, qtbot, COARSE)
    _click(chbm, qtbot, "chbm_run")  # the next study shows as before
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    assert len(chbm.results) == 1 and chbm.curve.listDataItems()
    view = chbm.curve.getPlotItem().vb  # the new curve's 1000-3000 Hz, fitted again after the empty square once
    qtbot.waitUntil(lambda: view.viewRange()[0][1] > 2900, timeout=5000)  # drawn (pyqtgraph fits lazily)
    assert view.viewRange()[0][0] < 1100 and view.viewRange()[0][1] < 3500


def test_a_curve_is_drawn_as_it_grows_while_the_study_runs(window, qtbot):
    """A curve showed only once it was finished: the plot stayed empty for as long as it ran. It is now drawn as
    it grows, and ends as the curve kept."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100", "Lowest mesh frequency": "500", "Highest mesh frequency": "4000",
                        "Harmonics": "14", "Largest frequency step": "5"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.running and bool(chbm.curve.listDataItems()), timeout=60000)
    drawn = max(len(i.getData()[0]) for i in chbm.curve.listDataItems())
    assert drawn < 700  # some 700 points at steps of at most 5 Hz: the curve is not done
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    points = chbm.results[0].points
    assert drawn < len(points) and max(len(i.getData()[0]) for i in chbm.curve.listDataItems()) == len(points)


def test_a_curve_that_stalls_keeps_the_points_it_reached_and_shows_them(window, qtbot):
    """A curve that cannot go on said how many points it kept, yet kept none and showed none. The compliant pair
    with 2 N s/m of mesh damping and 10 um of backlash stalls near 316 Hz, where its teeth part (as
    test_convergence_and_inputs.py's paper pair with light damping does): the points it reached are kept, drawn and
    named in the status bar, each a solution of the balance at its frequency."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    window.doc.apply(replace_fields(window.doc.model, "mesh", damping=2.0, backlash=1e-5))
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100", "Lowest mesh frequency": "300", "Highest mesh frequency": "4000",
                        "Harmonics": "14", "Largest frequency step": "0"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "failed", timeout=120000)
    (result,) = chbm.results
    reached = len(result.points)
    assert reached > 20 and 300.0 < result.points[-1].frequency < 330.0
    assert chbm.message.text().startswith("continuation stalled near 31") and "a tooth contact opens or closes" in \
        chbm.message.text() and chbm.message.text().endswith(f"({reached} points kept)"), chbm.message.text()
    assert chbm.statusBar().currentMessage().endswith(f"({reached} points kept)")
    assert max(len(i.getData()[0]) for i in chbm.curve.listDataItems()) == reached
    hb = HarmonicBalance(chbm.builder("pair")(100.0), 14)
    assert max(np.linalg.norm(hb.residual(p.z, 2 * math.pi * p.frequency, jacobian=False)) for p in result.points) \
        < 1e-9  # the corrector's tolerance on the scaled residual


def test_a_step_too_small_for_the_range_is_refused_naming_the_field_before_anything_runs(window, qtbot):
    """400 Hz in steps of at most 0.019 Hz needs 21,053 points: the window ran for a minute and stopped at the
    20,000 a curve holds, where `geardyn chbm` and a study file refuse the step at once. It is refused here too."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100", "Lowest mesh frequency": "1000", "Highest mesh frequency": "1400",
                        "Harmonics": "3", "Largest frequency step": "0.019"})
    _click(chbm, qtbot, "chbm_run")
    assert chbm.message.text() == ("Largest frequency step: must be at least 0.02 Hz for this range: a curve holds "
                                   "at most 20000 points, got 0.019")
    assert not chbm.running and not chbm.results


def test_dti_sweep_points_take_the_command_lines_range_and_one_point_is_refused(window, qtbot):
    """The window took 0 to 500 sweep points where `geardyn chbm --dti-points` takes 2 to 2000; a sweep of one
    frequency is no sweep. One range now holds in both."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {"Torques": "100", "Harmonics": "3", "DTI sweep points": "1"})
    _click(chbm, qtbot, "chbm_run")
    assert chbm.message.text() == "DTI sweep points: must be 0 (none) or a whole number from 2 to 2000, got 1"
    assert not chbm.running and not chbm.results
    _type(chbm, qtbot, {"DTI sweep points": "2001"})
    _click(chbm, qtbot, "chbm_run")
    assert chbm.message.text() == "DTI sweep points: must be a whole number from 0 to 2000, got 2001"
    assert not chbm.running and not chbm.results


def test_the_curve_axis_takes_the_si_prefix_of_its_values(window, qtbot):
    """A small torque's DTE of some nanometres read '[µm] (x0.001)' with ticks of 0 to 30: the axis now names the
    prefix that puts the largest value between 1 and 1000 ('nm' here), as Telemetry's axes do."""
    chbm = _open(window, qtbot)
    _type(chbm, qtbot, {**COARSE, "Torques": "0.5"})
    _click(chbm, qtbot, "chbm_run")
    qtbot.waitUntil(lambda: chbm.status == "finished", timeout=120000)
    axis = chbm.curve.getAxis("left")
    largest = max(p.half_p2p for p in chbm.results[0].points)  # [m]
    assert axis_unit_suits(axis, "half peak-to-peak DTE", largest) == "nm"  # a few nanometres at 0.5 N m
    # the period at the curve's peak: its DTE in nm, its time in µs (a period of 0.3 to 1 ms), one time axis
    point = max(chbm.results[0].points, key=lambda p: p.half_p2p)
    view = chbm.curve.getPlotItem().vb
    pos = chbm.curve.mapFromScene(view.mapViewToScene(QPointF(point.frequency, point.half_p2p)))
    qtbot.mouseClick(chbm.curve.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: chbm.period is not None, timeout=10000)
    names, data, _, _ = chbm.period
    plots = chbm.period_plot.plots
    qtbot.wait(200)  # the plots fit their new curves on the next pass of the event loop
    x = np.abs(data[:, [k for k, n in enumerate(names) if n.endswith(" x [m]")]]).max()
    assert axis_unit_suits(plots[0].getAxis("left"), "x", x) == "nm"
    assert axis_unit_suits(plots[-1].getAxis("bottom"), "time in the period", data[-1, 0]) == "µs"
    assert [p.getAxis("bottom").style["showValues"] for p in plots] == [False, False, True]



def test_a_bevel_pair_of_the_model_is_offered_and_its_note_names_its_levers(window, qtbot):
    """The window offered only external pairs and named the bevel example's pair as not offered. The lumped pair
    takes every kind on its levers: the bevel pair is listed, and its note gives the mean cone's r_m cos(alpha),
    (30 - 10 sin(atan(1/2))) cos(20 deg) = 23.99 mm and twice that."""
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    chbm = _open(window, qtbot)
    assert [chbm.source.itemData(i) for i in range(chbm.source.count())] == [PAPER_SOURCE, "pair"]
    chbm.source.setCurrentIndex(chbm.source.findData("pair"))
    qtbot.waitUntil(lambda: "levers r_m cos(alpha) 23.99 and 47.98 mm" in chbm.derived.text())


def test_a_pair_without_a_face_width_is_named_once_with_the_windows_own_remedies(window, qtbot):
    """The lossy gear demo's pair has no face width. The panel told the user to 'give --contact-stiffness', a
    flag of the command line the window has no field for, and then said the same lack a second time in the
    study's note."""
    assert window.open_file(str(EXAMPLES / "lossy_gear_demo1.gdyn"), ask=False)
    chbm = _open(window, qtbot)
    chbm.source.setCurrentIndex(chbm.source.findData("gear"))
    assert chbm.derived.text() == (
        "cannot build the lumped pair: gear.face_width: is 0; the ISO 6336 mesh stiffness needs it: give the pair "
        "a face width, or add a Compliant Mesh on it with a given stiffness")


def test_a_run_of_the_study_the_window_suggested_asks_for_no_save_and_entries_typed_are_kept(window, qtbot):
    """The compliant pair opens on its own pair, torques and range (study_defaults). A run of that suggestion kept
    it with the model, so File > New asked to save changes the user never made; it is what the file opens on
    again, so the model now stays unchanged. A study the user typed still goes with the model."""
    assert window.open_file(str(EXAMPLES / "compliant_mesh_pair.gdyn"), ask=False)
    chbm = _open(window, qtbot)
    assert chbm.source.currentData() != PAPER_SOURCE  # the model's own pair, not the paper's defaults
    _click(chbm, qtbot, "chbm_run")
    _click(chbm, qtbot, "chbm_stop")
    qtbot.waitUntil(lambda: not chbm.running, timeout=60000)
    assert not window.doc.dirty and window.doc.model.views.chbm == ChbmStudy()
    _type(chbm, qtbot, {"Harmonics": "9"})
    _click(chbm, qtbot, "chbm_run")
    _click(chbm, qtbot, "chbm_stop")
    qtbot.waitUntil(lambda: not chbm.running, timeout=60000)
    assert window.doc.dirty and window.doc.model.views.chbm == chbm.study()
    assert window.doc.model.views.chbm.harmonics == 9


def test_the_entries_where_0_is_not_zero_say_what_it_means_in_their_row_labels(window, qtbot):
    """A largest frequency step of 0 Hz takes 1 % of the range, and 0 DTI sweep points runs no sweep: the panel
    showed a bare 0 in both, and only the tooltip said so. Their labels say it, in the CHBM Study and in Train
    Dynamics; the entries keep their names."""
    window.open_file(EXAMPLES / "compliant_mesh_pair.gdyn")
    chbm = _open(window, qtbot)
    for form, name, label in ((chbm.df_max, "Largest frequency step", "Largest frequency step (0: auto)"),
                              (chbm.dti_points, "DTI sweep points", "DTI sweep points (0: none)")):
        layout = form.parentWidget().layout()
        assert layout.labelForField(form).text() == label and form.edit.objectName() == name
        assert "0:" in form.edit.toolTip()
    train = window.show_train()
    layout = train.df_max.parentWidget().layout()
    assert layout.labelForField(train.df_max).text() == "Largest frequency step (0: auto)"
