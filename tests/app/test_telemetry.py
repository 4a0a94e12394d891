"""The Telemetry window driven as a user would: channels by double-click and drop, CSV export against the CLI,
spectra with the mesh-frequency marker, A/B cursors, the playhead and the animation, the saved layout,
derived channels, screenshots."""

import csv
import dataclasses
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QContextMenuEvent, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QLineEdit, QMessageBox, QToolBar

from app.plot_axis import prefixed, shown_unit, unit_axes
from app.telemetry.browser import matches
from app.telemetry.derived_dialog import KINDS
from app.telemetry.plots import COLOURS
from app.telemetry.readout import COLUMNS, TIME_ROW, statistics
from core.commands import AddItem, SetSettings, replace_fields
from core.dynamics.results import open_results
from core.dynamics.simulate import simulate
from core.model.entities import SpeedMotor, TimeLaw
from core.model.files import load
from tests.app.conftest import answer_boxes, double_click_channel, fill_and_ok, toolbar_button
from tests.conftest import EXAMPLES, ROOT
from tests.core.dynamics.test_runs import _planetary_alpha

DYNAMIC_FACTOR = KINDS["dynamic_factor"]


def _run(window, qtbot, path, **settings):
    window.open_file(path)
    if settings:
        window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, **settings)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    return window.doc.current.results


def _spectrum_of(window, qtbot, channel: str, x_range=None):
    """The Spectrum window of `channel` of the run in the Telemetry window, opened by its toolbar button."""
    tw = window.show_telemetry()
    tw.add_channels([channel])
    if x_range is not None:
        tw.stack.set_x_range(*x_range)
    tw.browser.tree.clearSelection()
    qtbot.mouseClick(tw.findChild(QToolBar).widgetForAction(tw.act_spectrum), Qt.LeftButton)
    return tw.spectrum_window


def _not_blank(path):
    from PIL import Image

    grey = np.asarray(Image.open(path).convert("L"), dtype=float)
    return grey.std() > 10 and len(np.unique(grey.round())) > 30


def test_a_channel_added_by_double_click_shows_the_solvers_values(window, qtbot):
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    assert tw.isVisible() and "Run 1 (finished)" in tw.windowTitle()
    top = tw.browser.tree.topLevelItem(0)
    assert top.text(0) == "Gear pairs"  # the tooth forces come first
    hint = tw.stack.current.findChild(QLabel, "empty_plot_hint")
    assert hint.isVisible() and "Double-click a channel" in hint.text()  # the empty plot says how to fill it
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    curve = tw.stack.current.curves["sun_joint.speed"]
    assert not hint.isVisible()
    reference = simulate(load(EXAMPLES / "planetary.gdyn"), t_end=0.1)
    assert curve.envelope.values[-1] == res["sun_joint.speed"][-1] == reference["sun_joint.speed"][-1]
    assert np.array_equal(curve.envelope.time, reference.time)
    assert curve.yData[-1] == reference["sun_joint.speed"][-1]  # and it is drawn


def test_adding_a_channel_keeps_the_layout_but_leaves_the_run_current(window, qtbot):
    """The layout is kept with the model (an undoable edit), but it does not enter a simulation: the run's
    results stay current (no 'earlier version of the model' in the telemetry's title or the playback bar)."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    assert window.doc.model.views.telemetry.plots == (("sun_joint.speed",),) and window.doc.dirty
    assert not window.doc.stale
    assert "earlier version" not in tw.windowTitle() and "earlier version" not in window.playback.state.text()
    window.doc.apply(replace_fields(window.doc.model, "sun_torque", law=TimeLaw(value=7.0)))  # this one does
    assert window.doc.stale and "earlier version" in tw.windowTitle()


def _pick(qtbot, combo, text: str) -> None:
    """Choose `combo`'s entry `text` from the keyboard, as a user does with the list closed: Home, then Down."""
    qtbot.keyClick(combo, Qt.Key_Home)
    for _ in range(combo.count()):
        if combo.currentText() == text:
            break
        qtbot.keyClick(combo, Qt.Key_Down)
    assert combo.currentText() == text


def test_a_run_compared_with_is_drawn_dashed_beside_the_run_shown_and_the_two_change_places(window, qtbot):
    """Two runs of the planetary from rest, 1 N m and then 2 N m on the sun: a rigid train's tooth force is
    proportional to the torque, so Run 1's is half Run 2's. Compare with Run 1 draws its samples of each plotted
    channel dashed in the curve's colour and gives its row in the read-out; Run shown set to Run 1 shows Run 1
    (as Simulate > Show Run does), compared with Run 2."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    window.doc.apply(replace_fields(window.doc.model, "sun_torque", law=TimeLaw(value=2.0)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    first, second = window.doc.runs
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_planet1.Ft")
    panel = tw.stack.current
    assert panel.references == {} and tw.runs.compare.currentText() == "none"
    _pick(qtbot, tw.runs.compare, "Run 1")
    qtbot.waitUntil(lambda: "sun_planet1.Ft" in panel.references, timeout=5000)
    dashed = panel.references["sun_planet1.Ft"]
    assert dashed.name() == "sun_planet1.Ft (Run 1)" and dashed.opts["pen"].style() == Qt.DashLine
    assert dashed.opts["pen"].color() == panel.curves["sun_planet1.Ft"].opts["pen"].color()
    assert np.array_equal(dashed.envelope.values, first.results["sun_planet1.Ft"])
    rows = tw.readout.rows
    assert rows["sun_planet1.Ft (Run 1)"]["mean"] / rows["sun_planet1.Ft"]["mean"] == pytest.approx(0.5, rel=1e-9)
    assert tw.runs.changes.text() == "  Run 2 against Run 1: sun_torque.law.value: 1 -> 2 N m"
    _pick(qtbot, tw.runs.shown, "Run 1")
    assert window.doc.current is first and tw.results is first.results
    assert tw.runs.compare.currentText() == "Run 2"
    assert tw.runs.changes.text() == "  Run 1 against Run 2: sun_torque.law.value: 2 -> 1 N m"
    qtbot.waitUntil(lambda: panel.references["sun_planet1.Ft"].name() == "sun_planet1.Ft (Run 2)", timeout=5000)
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert [t for t in texts if t.startswith("Run ")][-1].startswith(f"Run 1: {first.results.summary()}")
    _pick(qtbot, tw.runs.compare, "none")
    qtbot.waitUntil(lambda: list(tw.readout.rows) == ["sun_planet1.Ft"], timeout=5000)
    assert not panel.references and tw.runs.changes.text() == ""
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)  # no other run to show while one starts
    assert window.doc.current.label == "Run 3" and not tw.runs.shown.isEnabled()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    qtbot.waitUntil(tw.runs.shown.isEnabled, timeout=5000)


def test_csv_export_through_the_dialog_equals_geardyn_simulate(window, qtbot, tmp_path):
    model_path = tmp_path / "p.gdyn"
    model_path.write_text((EXAMPLES / "planetary.gdyn").read_text())
    _run(window, qtbot, model_path, t_end=0.05, output_step=2e-3)
    window.doc.save()
    tw = window.show_telemetry()
    out = tmp_path / "gui.csv"
    fill_and_ok(qtbot, {"File": str(out)}, {"scope": "All channels over the whole run"})
    tw.act_csv.trigger()
    cli = tmp_path / "cli.csv"
    done = subprocess.run([sys.executable, "-m", "core.cli", "simulate", str(model_path), "--out", str(cli)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    gui_rows, cli_rows = list(csv.reader(out.open())), list(csv.reader(cli.open()))
    assert gui_rows[0] == cli_rows[0] and gui_rows[0][0] == "time [s]" and gui_rows[0][1] == "sun_planet1.Ft [N]"
    assert len(gui_rows) == len(cli_rows) == 27  # the header and 26 samples
    for k in range(len(gui_rows[0])):  # column by column
        assert [r[k] for r in gui_rows] == [r[k] for r in cli_rows], gui_rows[0][k]
    # the plotted channels over the visible range only
    tw.add_channels(["sun_joint.speed"])
    tw.stack.set_x_range(0.01, 0.03)
    part = tmp_path / "part.csv"
    fill_and_ok(qtbot, {"File": str(part)}, {"scope": "Plotted channels over the visible range"})
    tw.act_csv.trigger()
    rows = list(csv.reader(part.open()))
    assert rows[0] == ["time [s]", "sun_joint.speed [rad/s]"]
    times = [float(r[0]) for r in rows[1:]]
    assert min(times) >= 0.01 - 1e-12 and max(times) <= 0.03 + 1e-12 and len(times) == 11


def test_a_mesh_frequency_the_samples_cannot_resolve_is_said_with_the_output_step_that_would(window, qtbot):
    """The compliant pair at 100 rad/s meshes at 32 x 100 / (2 pi) = 509 Hz; sampled every 1.25 ms the spectrum
    ends below 400 Hz and showed no line and no word of it."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.1, output_step=1.25e-3)
    sw = _spectrum_of(window, qtbot, "mesh.TE")
    f, top = sw.markers["pair"], sw.spectrum.frequency[-1]
    assert 390.0 < top <= 400.0 < f  # 400 Hz = 1 / (2 x 1.25 ms)
    assert (f"pair: {f:.6g} Hz is above the {top:.4g} Hz the output samples resolve: an output step under "
            f"{0.5 / f:.3g} s" in sw.info.text())


def test_every_mesh_harmonic_the_samples_resolve_is_marked_not_only_the_first_four(window, qtbot):
    """The compliant pair meshes at 509 Hz; sampled every 0.1 ms its mesh force's spectrum runs to 5 kHz and
    peaks at 5x (2.55 kHz) as well as 1x-4x. Only 1x-4x were marked, so the fifth peak looked like a resonance of
    its own. Every harmonic up to the samples' highest frequency is now marked: 1x-9x here."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.1, output_step=1e-4)
    sw = _spectrum_of(window, qtbot, "mesh.force")
    f, top = sw.markers["pair"], sw.spectrum.frequency[-1]
    assert 4990.0 < top <= 5000.0 and 9 * f < top < 10 * f
    positions = [line.value() for line in sw._lines]
    assert positions == pytest.approx([f * h for h in range(1, 10)], rel=1e-9)
    labels = [line.label.toPlainText() for line in sw._lines]
    assert labels == ["pair 1x"] + [f"{h}x" for h in range(2, 10)]
    # the fifth harmonic peaks: the mark names a line the user sees
    spec = sw.spectrum
    near = np.abs(spec.frequency - 5 * f) < 2 * spec.resolution
    quiet = (spec.frequency > 5.5 * f) & (spec.frequency < 5.9 * f)  # between harmonics
    assert spec.amplitude[near].max() > 20 * spec.amplitude[quiet].max()


def test_the_planetarys_meshes_share_one_set_of_marker_lines_with_labels_apart(window, qtbot):
    """The planetary's six meshes turn at one mesh frequency: the spectrum drew six sets of lines on top of each
    other, their 24 labels written over one another. One set now, its first line naming the six meshes and the
    harmonics drawn (the lines are too close for a label each), the info line naming the meshes."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1, output_step=2e-5)
    # the set runs up from rest: over its last 10 ms the mesh frequency moves less than a bin (100 Hz)
    sw = _spectrum_of(window, qtbot, "sun_planet1.Ft", x_range=(0.09, 0.1))
    f = sw.markers["sun_planet1"]
    assert len(sw.markers) == 6 and all(v == pytest.approx(f, rel=1e-6) for v in sw.markers.values())
    positions = [line.value() for line in sw._lines]
    assert positions == pytest.approx([f * h for h in range(1, len(positions) + 1)], rel=1e-6)
    assert len(positions) >= 2 and f < 0.04 * sw.spectrum.frequency[-1]
    labels = [line.label.toPlainText() if getattr(line, "label", None) else "" for line in sw._lines]
    assert labels == [f"6 meshes 1x-{len(positions)}x"] + [""] * (len(positions) - 1)
    # at most 20 lines, so they do not hide the spectrum, and the info line says where they stop
    assert len(positions) == min(20, int(sw.spectrum.frequency[-1] // f))
    assert ("6 meshes: harmonics marked to 20x" in sw.info.text()) == (21 * f <= sw.spectrum.frequency[-1])
    named = sw.info.text().split("mesh frequencies: ")[1]
    assert named.count("Hz (") == 1 and all(name in named for name in sw.markers)


def test_a_run_up_marks_the_band_its_mesh_frequency_swept_not_a_line_at_its_mean(window, qtbot):
    """The planetary runs up from rest under its constant torque: over its first 0.1 s the mesh frequency sweeps
    from 0 to 24 (w_s - w_c) / 2 pi at the end. The spectrum drew dashed lines at the mean and its harmonics, where
    nothing peaks; it now shades the band swept (its harmonics' bands overlap it: none), says so, and points to the
    order map."""
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1, output_step=2e-5)
    sw = _spectrum_of(window, qtbot, "sun_planet1.Ft")
    t1 = sw.spectrum.t1  # the visible range's last sample
    relative = np.interp(t1, res.time, res["sun_joint.speed"] - res["carrier_joint.speed"])
    end = 24 * relative / (2 * math.pi)
    assert sw.spectrum.t0 == 0.0 and end > 10 * sw.spectrum.resolution
    assert len(sw._lines) == 1 and isinstance(sw._lines[0], pg.LinearRegionItem)
    low, high = sw._lines[0].getRegion()
    assert low == pytest.approx(0.0, abs=1e-6 * end) and high == pytest.approx(end, rel=1e-6)
    label = sw._lines[0].lines[0].childItems()[0]
    assert label.toPlainText() == "6 meshes 1x swept"
    info = sw.info.text()
    assert f"0-{high:.6g} Hz, swept (sun_planet1, " in info and "the Order map shows it" in info


def test_a_sweep_from_rest_reads_from_0_hz_not_from_its_round_off(window, qtbot):
    """A speed motor ramps the helical example's gear1 from rest to 300 rad/s in 1 s: its 20 teeth mesh at
    0 to 20 * 300 / 2 pi = 954.93 Hz. The rest left a speed of some 1e-13 rad/s in the samples, and the note read
    'mesh frequencies: 2.71407e-13-954.93 Hz'."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.doc.apply(AddItem(SpeedMotor("ramp", "gear1_joint", TimeLaw("ramp", 0.0, final=300.0, t_end=1.0))))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    info = _spectrum_of(window, qtbot, "pair.Fr").info.text()
    assert f"mesh frequencies: 0-{20 * 300 / (2 * math.pi):.6g} Hz, swept (pair)" in info, info


def test_the_order_maps_mesh_order_lines_stop_at_the_highest_frequency_the_samples_resolve(window, qtbot):
    """The planetary's run-up sampled every 1 ms: the map ends at 500 Hz, and its mesh order line (18 per sun
    revolution) crosses 500 Hz within the run. The line ran on to the end speed, and the plot's range followed it
    up, squeezing the map into a strip at its foot."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1, output_step=1e-3)
    sw = _spectrum_of(window, qtbot, "sun_planet1.Ft")
    sw.segment.setValue(16)
    sw.tabs.setCurrentIndex(1)
    lines = sw.map_plot.getPlotItem().listDataItems()
    assert len(lines) == 1
    x, y = lines[0].getData()
    top = 500.0
    assert y.max() == pytest.approx(top, rel=1e-9) and x[-1] == pytest.approx(top * 60 / 18, rel=1e-6)
    sw.map_plot.getPlotItem().autoRange()
    assert sw.map_plot.getPlotItem().viewRange()[1][1] < 1.1 * top


def test_the_spectrum_of_a_rigid_stages_steady_tooth_force_says_it_is_round_off(window, qtbot):
    """The reducer at the motor's constant speed: stage 1's Ft is 100 N (2 N m on a 20 mm pitch radius) to its
    last digits, and its spectrum a few femtonewtons of round-off that the plot scaled to peaks; the line above
    it says so. The compliant pair's transmission error is a signal, and its line does not."""
    _run(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn", t_end=0.05)
    info = _spectrum_of(window, qtbot, "stage1.Ft").info.text()
    assert "every amplitude is below 1e-09 of the channel's largest value" in info, info
    window.show_telemetry().spectrum_window.close()
    answer_boxes(qtbot, [QMessageBox.Discard], [])  # the shorter end time changed the model: not kept
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.05)
    assert "round-off" not in _spectrum_of(window, qtbot, "mesh.TE").info.text()


def test_spectrum_peak_is_at_the_mesh_frequency_marker(window, qtbot):
    res = _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.1)
    sw = _spectrum_of(window, qtbot, "mesh.TE", x_range=(0.02, 0.1))  # past the start
    spec = sw.spectrum
    peak = spec.frequency[1 + int(np.argmax(spec.amplitude[1:]))]
    marker = sw.markers["pair"]
    assert marker == pytest.approx(32 * 100 / (2 * math.pi), rel=1e-3)  # z1 w1 / 2 pi at the steady 100 rad/s
    assert abs(peak - marker) <= spec.resolution
    assert res.status == "finished"


def _drawn(curve) -> bool:
    return curve.getData()[0] is not None and len(curve.getData()[0]) > 0


def test_the_spectrum_of_the_run_compared_with_is_drawn_dashed_and_scales_with_the_load(window, qtbot):
    """The compliant pair at its loads (100 N m in, 250 N m out), then at half of both: its mesh force is linear in
    the load (a time-varying stiffness, no backlash), so Run 1's amplitude spectrum is twice Run 2's at every
    frequency, up to the tooth angles' microradians of difference (about 1e-4 of the largest amplitude, in the
    lowest bins). Compare with
    Run 1 draws it dashed in the Spectrum window, over the same span, with a legend; none takes it away."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.05)
    window.doc.apply(replace_fields(window.doc.model, "drive", law=TimeLaw(value=50.0)))
    window.doc.apply(replace_fields(window.doc.model, "load", law=TimeLaw(value=125.0)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    sw = _spectrum_of(window, qtbot, "mesh.force")
    tw = window.telemetry
    assert not _drawn(sw.reference_curve) and not sw.legend.isVisible()
    _pick(qtbot, tw.runs.compare, "Run 1")
    qtbot.waitUntil(lambda: _drawn(sw.reference_curve), timeout=5000)
    f, full = sw.reference_curve.getData()
    half = sw.spectrum.amplitude
    np.testing.assert_array_equal(f, sw.spectrum.frequency)
    assert np.abs(full - 2 * half).max() < 3e-4 * full.max()
    peak = int(np.argmax(full))
    assert full[peak] / half[peak] == pytest.approx(2.0, rel=1e-4)
    assert sw.reference_curve.opts["pen"].style() == Qt.DashLine and sw.legend.isVisible()
    assert [label.text for _, label in sw.legend.items] == ["Run 2", "Run 1"]
    assert "; dashed: Run 1, " in sw.info.text()
    _pick(qtbot, tw.runs.compare, "none")
    assert not _drawn(sw.reference_curve) and not sw.legend.isVisible()
    assert "dashed" not in sw.info.text()


def test_a_channels_row_in_the_run_compared_with_reads_in_the_prefix_of_its_own_row(window, qtbot):
    """The compliant pair's mesh force at half its loads (mean 831 N) compared with it at its loads (1663 N): the
    two rows read in kN, side by side, not 831 N above 1.66 kN; the means are T1 / r_b1 of each run."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.02)
    window.doc.apply(replace_fields(window.doc.model, "drive", law=TimeLaw(value=50.0)))
    window.doc.apply(replace_fields(window.doc.model, "load", law=TimeLaw(value=125.0)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    tw = window.show_telemetry()
    tw.add_channels(["mesh.force"])
    _pick(qtbot, tw.runs.compare, "Run 1")
    tw._refresh()
    cells = {tw.readout.item(r, 0).text(): [tw.readout.item(r, c).text() for c in range(1, len(COLUMNS))]
             for r in range(tw.readout.rowCount())}
    pair = window.doc.model.gear_pairs["pair"]  # a spur pair: r_b1 = m z1 cos(alpha) / 2
    rb1 = pair.module * pair.z1 * math.cos(pair.pressure_angle) / 2
    for row, torque in (("mesh.force", 50.0), ("mesh.force (Run 1)", 100.0)):
        unit, mean = cells[row][0], float(cells[row][COLUMNS.index("mean") - 1])
        assert unit == "kN" and mean == pytest.approx(torque / rb1 / 1e3, rel=1e-3), (row, cells[row])


def test_ab_cursors_read_the_values_and_their_difference(window, qtbot):
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
    tw = window.show_telemetry()
    tw.add_channels(["sun_joint.speed", "carrier_joint.speed"])
    tw.act_cursors.trigger()
    tw.stack.set_cursor("A", 0.02)
    tw.stack.set_cursor("B", 0.07)
    tw._refresh()
    for name in ("sun_joint.speed", "carrier_joint.speed"):
        a, b = res[name][20], res[name][70]
        row = tw.readout.rows[name]
        assert (row["at A"], row["at B"]) == pytest.approx((a, b), rel=1e-12)
        assert row["B - A"] == pytest.approx(b - a, rel=1e-12)
    # the cursors' own times, first in the table (in ms, as the time axis reads under 1 s)
    assert tw.readout.item(0, 0).text() == TIME_ROW and tw.readout.item(0, 1).text() == "ms"
    assert [float(tw.readout.item(0, c).text()) for c in (2, 3, 4)] == pytest.approx([20, 70, 50])
    # statistics over the visible range
    tw.stack.set_x_range(0.0, 0.05)
    tw._refresh()
    v = res["sun_joint.speed"][:51]
    row = tw.readout.rows["sun_joint.speed"]
    assert (row["min"], row["max"], row["mean"]) == pytest.approx((v.min(), v.max(), v.mean()))
    assert row["RMS"] == pytest.approx(math.sqrt(np.mean(v * v))) and row["peak-to-peak"] == pytest.approx(np.ptp(v))
    # shown in rpm, as the speed motor and the bodies' speeds are typed: the browser, the axis and the row
    assert tw.browser.items["sun_joint.speed"].text(1) == "rpm"
    panel = next(p for p in tw.stack.panels if "sun_joint.speed" in p.curves)
    assert "[rpm]" in panel.getPlotItem().getAxis("left").labelString()
    shown = next(r for r in range(tw.readout.rowCount()) if tw.readout.item(r, 0).text() == "sun_joint.speed")
    assert tw.readout.item(shown, 1).text() == "rpm"
    assert float(tw.readout.item(shown, 6).text()) == pytest.approx(v.max() * 30 / math.pi, rel=1e-5)


def test_a_plots_axis_names_the_quantity_its_curves_share(window, qtbot):
    """The axis read only '[kN]' under a torque's power: it now names the quantity where every curve on the plot
    is the same one (two meshes' Ft: 'Ft [N]'), and only the unit where they differ (Ft and Fr)."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.01)
    tw = window.show_telemetry()
    tw.add_channels(["sun_planet1.Ft", "sun_planet2.Ft"])
    axis = tw.stack.current.getPlotItem().getAxis("left")
    assert "Ft [" in axis.labelString() and "N]" in axis.labelString(), axis.labelString()
    tw.add_channels(["sun_planet1.Fr"])
    assert "Ft" not in axis.labelString() and "N]" in axis.labelString(), axis.labelString()


def test_a_transmission_error_reads_in_micrometres_and_a_mesh_stiffness_in_n_per_um(window, qtbot):
    """The compliant pair's TE is some 1e-5 m: its axis read '[m]' with ticks 6e-06 to 1.4e-05 and the read-out
    5.84403e-06, where the CHBM windows show the same quantity in um. The axis and the row now take the SI
    prefix that suits them; the values read back are the results' own, times 1e6."""
    res = _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    tw.add_channels(["mesh.TE"])
    tw._refresh()
    te = res["mesh.TE"]
    assert 1e-6 < np.abs(te).max() < 1e-3  # the case this test is about: micrometres
    axis = tw.stack.current.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: axis.autoSIPrefixScale != 1.0, timeout=5000)  # set when the view takes its range
    assert "[\u00b5m]" in axis.labelString() or "[\u03bcm]" in axis.labelString(), axis.labelString()
    assert axis.autoSIPrefixScale == 1e6
    bottom = tw.stack.current.getPlotItem().getAxis("bottom")
    assert "t [ms]" in bottom.labelString() and bottom.autoSIPrefixScale == 1e3  # a 50 ms run, in ms
    row = [tw.readout.item(1 if tw.readout.item(0, 0).text() == TIME_ROW else 0, c).text() for c in range(10)]
    assert row[0] == "mesh.TE" and row[1] in ("\u00b5m", "\u03bcm")
    shown = [float(row[c]) for c in (5, 6, 7)]  # min, max, mean over the visible range
    visible = te[(res.time >= tw.stack.x_range()[0]) & (res.time <= tw.stack.x_range()[1])]
    assert shown == pytest.approx([visible.min() * 1e6, visible.max() * 1e6, visible.mean() * 1e6], rel=1e-5)
    # the mesh's stiffness in N/um, as the compliant mesh dialog takes it (pyqtgraph alone would say MN/m)
    tw.add_channels(["mesh.stiffness"])
    panel = next(p for p in tw.stack.panels if "mesh.stiffness" in p.curves)
    axis = panel.getPlotItem().getAxis("left")
    assert "[N/\u00b5m]" in axis.labelString() and axis.scale == 1e-6 and axis.autoSIPrefixScale == 1.0
    tw._refresh()
    row = next(r for r in range(tw.readout.rowCount()) if tw.readout.item(r, 0).text() == "mesh.stiffness")
    k = res["mesh.stiffness"][(res.time >= tw.stack.x_range()[0]) & (res.time <= tw.stack.x_range()[1])]
    assert tw.readout.item(row, 1).text() == "N/\u00b5m"
    assert float(tw.readout.item(row, 6).text()) == pytest.approx(k.max() * 1e-6, rel=1e-5)


def test_a_zero_that_is_minus_zero_reads_0(window, qtbot):
    """A spur pair's axial force Fa = Ft tan(0) is -0.0 N while Ft < 0; the read-out showed its min as '-0'."""
    res = _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.01)
    assert np.signbit(res["pair.Fa"].min()) and res["pair.Fa"].min() == 0.0  # the case: -0.0
    tw = window.show_telemetry()
    tw.add_channels(["pair.Fa"])
    tw._refresh()
    row = next(r for r in range(tw.readout.rowCount()) if tw.readout.item(r, 0).text() == "pair.Fa")
    cells = [tw.readout.item(row, c).text() for c in range(2, 10)]
    assert "-0" not in cells and "0" in cells, cells


def test_round_off_beside_a_value_of_its_unit_reads_0_not_femto_or_atto(window, qtbot):
    """The two-stage reducer runs steady: its tooth force's peak-to-peak is round-off (1e-13 N of 222 N), so is
    the input shaft's moment about its own axis (1e-16 N m) beside the countershaft's tilting moment of 5.6 N m.
    They read 0, in N and N m; the tilting moment reads its value. Alone, round-off keeps its digits."""
    res = _run(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn", t_end=0.1)
    names = ["stage2.Ft", "input_joint.Tz", "shaft_joint.Tx"]
    assert 0 < np.ptp(res["stage2.Ft"]) < 1e-14 * abs(res["stage2.Ft"]).max()  # the case: round-off
    assert 0 < abs(res["input_joint.Tz"]).max() < 1e-14
    tw = window.show_telemetry()
    tw.add_channels(names)
    tw._refresh()

    def cells(name):
        row = next(r for r in range(tw.readout.rowCount()) if tw.readout.item(r, 0).text() == name)
        return {c: tw.readout.item(row, k).text() for k, c in enumerate(COLUMNS) if k}

    force, axial, tilting = (cells(n) for n in names)
    assert force["peak-to-peak"] == "0" and force["Unit"] == "N"
    assert float(force["mean"]) == pytest.approx(res["stage2.Ft"].mean(), rel=1e-5)
    assert axial["Unit"] == "N m" and {axial[c] for c in ("min", "max", "mean", "RMS", "peak-to-peak")} == {"0"}
    assert float(tilting["max"]) == pytest.approx(abs(res["shaft_joint.Tx"]).max(), rel=1e-5)
    assert tilting["peak-to-peak"] == "0"
    for panel in tw.stack.panels:
        panel.clear_curves()
    tw.add_channels(["input_joint.Tz"])
    tw._refresh()
    alone = cells("input_joint.Tz")
    assert alone["Unit"] != "N m" and float(alone["max"]) != 0.0  # nothing to be round-off of: its digits


def test_dragging_the_playhead_seeks_the_animation_and_playing_moves_the_playhead(window, qtbot):
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
    tw = window.show_telemetry()
    tw.add_channels(["sun_joint.angle"])
    tw.stack.set_x_range(0.0, 0.1)
    window.clock.seek(0.08)
    panel = tw.stack.current
    qtbot.waitExposed(tw)
    vb = panel.getPlotItem().vb
    y = sum(vb.viewRange()[1]) / 2

    def at(t):
        p = panel.mapFromScene(vb.mapViewToScene(QPointF(t, y)))
        return QPoint(int(p.x()), int(p.y()))

    start, end = at(0.08), at(0.03)
    qtbot.mousePress(panel.viewport(), Qt.LeftButton, pos=start)
    for k in range(1, 11):
        qtbot.mouseMove(panel.viewport(), pos=start + (end - start) * (k / 10))
    qtbot.mouseRelease(panel.viewport(), Qt.LeftButton, pos=end)
    assert window.clock.time == pytest.approx(0.03, abs=0.003)
    pos, quat = res.pose_at(window.clock.time)
    sun = res.bodies.index("sun")
    assert np.allclose(window.viewport.actor_matrix("sun")[:3, 3], pos[sun])
    before = panel.playhead.value()
    window.clock.set_speed(0.1)
    window.clock.play()
    qtbot.waitUntil(lambda: panel.playhead.value() > before + 0.005, timeout=5000)
    window.clock.pause()
    assert panel.playhead.value() == pytest.approx(window.clock.time)


def test_the_layout_survives_save_and_reopen(window, qtbot, tmp_path, monkeypatch):
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.02)
    tw = window.show_telemetry()
    tw.add_channels(["sun_planet1.Ft", "sun_planet1.Fr"])
    tw.add_plot()
    tw.add_channels(["sun_joint.speed"])
    layout = (("sun_planet1.Ft", "sun_planet1.Fr"), ("sun_joint.speed",))
    assert window.doc.model.views.telemetry.plots == layout
    path = tmp_path / "with_layout.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.act_save_as.trigger()
    assert load(path).views.telemetry.plots == layout
    window.act_new.trigger()
    assert tw.stack.layout_names() == ((),)
    _run(window, qtbot, path)
    assert tw.stack.layout_names() == layout
    window.act_undo.trigger() if window.doc.undo_stack.count() else None


def test_derived_channels_are_kept_in_the_results_and_the_file(window, qtbot, tmp_path, monkeypatch):
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    fill_and_ok(qtbot, {}, {"derived_kind": "Derivative d/dt", "derived_a": "sun_joint.speed"})
    tw.act_derived.trigger()
    acc = res["sun_joint.d(speed)/dt"]
    assert res.record("sun_joint.d(speed)/dt").unit == "rad/s/s"
    assert np.allclose(acc, acc[25], rtol=1e-6)  # constant torque: a constant acceleration
    fill_and_ok(qtbot, {}, {"derived_kind": DYNAMIC_FACTOR, "derived_pair": "sun_planet1"})
    tw.act_derived.trigger()
    # each of the three meshes carries a third of the torque left after accelerating the sun itself, against
    # its third of T / r_sun
    model = load(EXAMPLES / "planetary.gdyn")
    alpha = _planetary_alpha(model)
    expected = 1.0 - model.bodies["sun"].inertia[2][2] * alpha
    assert res["sun_planet1.dynamic_factor"] == pytest.approx(np.full(len(res), expected), rel=1e-9)
    path = tmp_path / "derived.gdres"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.act_save_results.trigger()
    back = open_results(path)
    assert np.array_equal(back["sun_joint.d(speed)/dt"], acc)
    assert "sun_planet1.dynamic_factor" in [c.name for c in back.channels]


def test_a_motor_driven_reducers_dynamic_factor_takes_the_static_torque_its_mesh_passes(window, qtbot):
    """The reducer's input is held by a speed motor, so no torque element drives stage 2's gear 1: the dialog
    offers the torque its mesh passes under the model's mean loads, 10 N m x 18/45 = 4 N m, and says where it
    comes from; at constant speed the rigid mesh carries exactly that, a factor of 1. The planetary's sun
    meshes take the sun's torque element, sample by sample: no torque is asked."""
    res = _run(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn", t_end=0.02)
    seen = {}

    def look(dlg):
        torque, note = dlg.findChild(QLineEdit, "derived_torque"), dlg.findChild(QLabel, "derived_torque_note")
        qtbot.wait(50)  # the dialog grows for the note, shown whole
        seen["torque"] = (torque.text(), torque.isVisibleTo(dlg), note.text(),
                          note.height() >= note.heightForWidth(note.width()))

    fill_and_ok(qtbot, {}, {"derived_kind": DYNAMIC_FACTOR, "derived_pair": "stage2"}, press=look)
    window.show_telemetry().act_derived.trigger()
    text, visible, note, whole = seen["torque"]
    assert float(text) == pytest.approx(4.0, rel=1e-9) and visible and "static solution" in note and whole
    assert res["stage2.dynamic_factor"] == pytest.approx(np.ones(len(res)), rel=1e-9)
    answer_boxes(qtbot, [QMessageBox.Discard], [])  # the shorter end time changed the model: not kept
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.01)
    fill_and_ok(qtbot, {}, {"derived_kind": DYNAMIC_FACTOR, "derived_pair": "sun_planet1"}, press=look)
    window.show_telemetry().act_derived.trigger()
    assert not seen["torque"][1] and "sun_torque" in seen["torque"][2]
    assert "sun_planet1.dynamic_factor" in res.names[-1]
    # the helical pair spins free of loads: nothing to offer, and the note asks for the torque
    answer_boxes(qtbot, [QMessageBox.Discard], [])
    _run(window, qtbot, EXAMPLES / "helical_pair.gdyn", t_end=0.01)
    fill_and_ok(qtbot, {}, {"derived_kind": DYNAMIC_FACTOR, "derived_pair": "pair"}, press=look, ok=False)
    window.show_telemetry().act_derived.trigger()
    assert seen["torque"][1] and seen["torque"][2] == ("No torque element drives its gear 1, and its mean loads "
                                                       "leave pair unloaded: give the torque on it")


def test_a_ratio_of_the_output_speed_to_the_input_speed_is_the_reducers_ratio(window, qtbot):
    """The two-stage reducer: 40/20 then 45/18, two external meshes: the output turns at 1/5 of the input's speed,
    the same way round. The ratio's unit is 1; its second channel's row reads 'Divided by'."""
    res = _run(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    seen = []
    fill_and_ok(qtbot, {}, {"derived_kind": "Ratio of two channels (a speed ratio, an efficiency)",
                            "derived_a": "output_joint.speed", "derived_b": "input_joint.speed"},
                press=lambda dlg: seen.append(dlg.form.labelForField(dlg.b).text()))
    tw.act_derived.trigger()
    name = "output_joint.speed/input_joint.speed"
    assert seen == ["Divided by"] and res.record(name).unit == "1"
    assert res[name] == pytest.approx(np.full(len(res), (20 / 40) * (18 / 45)), rel=1e-9)


def test_the_telemetry_follows_a_run_live(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    # 1e7 compiled steps take minutes: the run outlasts adding the channel however fast the machine (5 s of the
    # example's steps ended first on a machine with a core to spare); it is stopped below once the plot has grown
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=1e3,
                                                                       step=1e-4)))
    tw = window.show_telemetry()
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tw.results is not None and len(tw.results) > 5, timeout=30_000)
    tw.add_channels(["sun_joint.speed"])
    first = len(tw.stack.current.curves["sun_joint.speed"].envelope.time)
    qtbot.waitUntil(lambda: len(tw.stack.current.curves["sun_joint.speed"].envelope.time) > first + 10, timeout=30_000)
    assert window.runner.running
    window.stop_simulation()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=5000)


def test_screenshot_of_two_stacked_plots_and_a_spectrum(window, qtbot, tmp_path):
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    tw.add_channels(["pair.Ft", "pair.Fc"])
    tw.add_plot()
    tw.add_channels(["mesh.TE"])
    tw.open_spectrum()
    qtbot.wait(200)
    shots = {name: tmp_path / f"{name}.png" for name in ("telemetry", "spectrum")}
    assert tw.grab().save(str(shots["telemetry"])) and tw.spectrum_window.grab().save(str(shots["spectrum"]))
    assert all(_not_blank(p) for p in shots.values())
    svg = tmp_path / "plots.svg"
    tw.save_image(svg)
    assert svg.read_text().count("<polyline") > 10  # curves and axes as vector lines


def _curve_rows(image: np.ndarray, colour: str) -> np.ndarray:
    """The mean row of the pixels of `colour` in each column of an RGB image (NaN where there are none)."""
    c = pg.mkColor(colour)
    near = np.abs(image[:, :, :3].astype(int) - (c.red(), c.green(), c.blue())).sum(axis=2) < 60
    rows = np.arange(image.shape[0])[:, None]
    with np.errstate(invalid="ignore"):
        return (near * rows).sum(axis=0) / near.sum(axis=0)


def test_the_svg_of_a_ripple_on_a_large_mean_draws_the_curve_where_the_screen_does(window, qtbot, tmp_path):
    """The kinetic energy of the compliant pair is 136.0000 to 136.0074 J: written with the SVG's six digits in
    data units, the curve fell onto 7 levels (and the plot's axes were scaled by 72/96, the SVG's resolution
    against the screen's). Test: the SVG drawn by Qt's SVG renderer against the plot on screen: the curve's row in
    each column, and where the ink of the axes and grid lies."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    tw.add_channels(["energy.kinetic"])
    qtbot.wait(200)
    panel = tw.stack.current
    screen = panel.grab().toImage().convertToFormat(QImage.Format_RGB888)
    svg = tmp_path / "ripple.svg"
    tw.save_image(svg)
    drawn = QImage(screen.size(), QImage.Format_RGB888)
    drawn.fill(QColor("white"))
    painter = QPainter(drawn)
    QSvgRenderer(str(svg)).render(painter, QRectF(0, 0, screen.width(), screen.height()))
    painter.end()
    pixels = [np.array(im.constBits()).reshape(im.height(), im.bytesPerLine())[:, :3 * im.width()]
              .reshape(im.height(), im.width(), 3).astype(float) for im in (screen, drawn)]
    # the axes, grid and labels where the screen has them: the ink by column and by row, 0.70 and 0.74 at 72 dpi
    dark = [255 - p.mean(axis=2) for p in pixels]
    assert min(np.corrcoef(dark[0].sum(axis=k), dark[1].sum(axis=k))[0, 1] for k in (0, 1)) > 0.9
    on_screen, in_svg = (_curve_rows(p, COLOURS[0]) for p in pixels)
    both = np.isfinite(on_screen) & np.isfinite(in_svg)
    assert both.sum() > 0.8 * np.isfinite(on_screen).sum() > 300  # the curve is there, across the plot
    off = np.abs(on_screen - in_svg)[both]  # rows [px]: on 7 levels the median was 8.5
    assert np.median(off) < 1.0 and np.quantile(off, 0.9) < 2.5  # steep runs differ more (the SVG is smoothed)


def _context_menu_of(plot, qtbot) -> list[str]:
    """A right-click in the middle of `plot`: the entries of the menu it opens (closed again)."""
    qtbot.mouseClick(plot.viewport(), Qt.RightButton, pos=plot.viewport().rect().center())
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=3000)
    menu = QApplication.activePopupWidget()
    entries = [a.text() for a in menu.actions() if a.text()]
    menu.close()
    return entries


def test_a_plots_menu_exports_its_image_and_offers_nothing_that_fails(window, qtbot, tmp_path, monkeypatch):
    """pyqtgraph's 'Export...' (its SVG stopped on a traceback) and 'Plot Options' (its power spectrum raised
    AttributeError on a telemetry curve) are gone from every plot of every window; 'Export Image...' writes the
    plot clicked, here its SVG with the curve's samples as one path."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.01)
    tw = window.show_telemetry()
    tw.add_channels(["sun_joint.speed"])
    tw.add_plot()
    tw.open_spectrum()
    for show in (window.show_chbm, window.show_train, window.show_study):
        show()
    plots = [p for w in QApplication.topLevelWidgets() if w.isVisible() for p in w.findChildren(pg.GraphicsView)]
    assert len(plots) >= 10 and tw.stack.panels[1] in plots  # the telemetry's second plot, added later, too
    for plot in plots:
        assert [a.text() for a in plot.scene().contextMenu] == ["Export Image..."], plot.objectName()
        assert not any(i.menuEnabled() for i in plot.scene().items() if isinstance(i, pg.PlotItem))
    panel = tw.stack.panels[0]
    entries = _context_menu_of(panel, qtbot)
    assert "Export Image..." in entries and "View All" in entries
    assert "Export..." not in entries and "Plot Options" not in entries
    path = tmp_path / "speed.svg"
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a[2]) or (str(path), ""))
    panel.scene().contextMenu[0].trigger()
    assert Path(asked[0]).name == "planetary_telemetry.png"  # named after the model and the plot
    assert path.read_text().count("<path") >= 1 and "sun_joint.speed" in path.read_text()


def test_the_filter_matches_the_beginnings_of_name_parts(window, qtbot):
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.01)
    tw = window.show_telemetry()
    qtbot.keyClicks(tw.browser.filter, "Ft")
    shown = [n for n, leaf in tw.browser.items.items() if not leaf.isHidden()]
    assert shown and all(n.endswith(".Ft") for n in shown)  # not the pairs' drift
    assert "sun_planet1.Ft" in shown
    assert matches("planet1_ring.drift", ["planet"]) and not matches("sun_planet1.drift", ["ft"])
    # an item's name as the model tree shows it (it found nothing: 'sun_joint' began no part of the name)
    tw.browser.filter.clear()
    qtbot.keyClicks(tw.browser.filter, "sun_joint")
    shown = [n for n, leaf in tw.browser.items.items() if not leaf.isHidden()]
    assert shown and all(n.startswith("sun_joint.") for n in shown) and "sun_joint.speed" in shown
    assert matches("sun_joint.speed", ["joint.sp"]) and not matches("carrier_joint.speed", ["sun_joint"])


def test_the_filter_finds_a_channel_by_the_words_of_its_description(window, qtbot):
    """A gear engineer types 'transmission error' or 'DTE', not 'TE': the compliant pair's mesh.TE was not found by
    either. A word now also matches the beginning of a word of the channel's description (its tooltip)."""
    _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.002)
    tw = window.show_telemetry()
    for typed in ("transmission error", "dte"):
        tw.browser.filter.clear()
        qtbot.keyClicks(tw.browser.filter, typed)
        assert [n for n, leaf in tw.browser.items.items() if not leaf.isHidden()] == ["mesh.TE"], typed
    assert matches("mesh.TE", ["transmission"], "transmission error at the working pitch circle")
    assert not matches("mesh.TE", ["mission"], "transmission error at the working pitch circle")


def test_a_plot_without_curves_spans_the_runs_time(window, qtbot):
    """Telemetry opened on a 0.01 s run showed an empty plot from 0 to 1 s, the playhead at a hundredth of it. A
    plot with no curve now spans the run, on opening and after Auto Range, and the unit square without a run."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.01)
    tw = window.show_telemetry()
    assert tw.stack.x_range() == pytest.approx((0.0, 0.01))
    tw.add_channels(["sun_joint.speed"])
    tw.stack.panels[0].clear_curves()
    tw.act_auto.trigger()
    assert tw.stack.x_range() == pytest.approx((0.0, 0.01))
    answer_boxes(qtbot, [QMessageBox.Discard], [])
    window.act_new.trigger()
    qtbot.waitUntil(lambda: tw.results is None, timeout=5000)
    assert tw.stack.x_range() == pytest.approx((0.0, 1.0))


def test_clear_plot_leaves_no_axis_of_the_curves_it_took_away_and_keeps_the_time_shown(window, qtbot):
    """The two-stage reducer's stage 2 tooth force (222 N) plotted, zoomed to 20-60 ms, then Clear Plot: the
    empty plot's value axis is the unit square again, not 222 N, and the time shown stays 20-60 ms."""
    force = _run(window, qtbot, EXAMPLES / "two_stage_reducer.gdyn", t_end=0.1)["stage2.Ft"].mean()
    tw = window.show_telemetry()
    tw.add_channels(["stage2.Ft"])
    tw.stack.set_x_range(0.02, 0.06)
    qtbot.wait(100)
    lo, hi = tw.stack.current.getPlotItem().viewRange()[1]
    assert 200 < lo < force < hi  # around the force, about 222 N
    qtbot.mouseClick(tw.findChild(QToolBar).widgetForAction(tw.act_clear_plot), Qt.LeftButton)
    qtbot.wait(100)
    assert tw.stack.current.getPlotItem().viewRange()[1] == pytest.approx([0.0, 1.0])
    assert tw.stack.x_range() == pytest.approx((0.02, 0.06))


def test_a_constant_channel_autoranges_to_a_flat_line_not_to_its_round_off(window, qtbot):
    """The planetary's sun-planet Ft is constant under its constant torque up to round-off (1e-13 N of 10 N):
    the autoranged plot spans at least a millionth of the value around it, so the curve is a flat line."""
    res = _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_planet1.Ft")
    values = res["sun_planet1.Ft"]
    assert 0 < np.ptp(values) < 1e-9 * abs(values).max()  # constant but for round-off
    tw.stack.auto_range()
    qtbot.wait(100)
    lo, hi = tw.stack.current.getPlotItem().viewRange()[1]
    assert lo < values.min() and values.max() < hi and hi - lo >= 1e-6 * abs(values).max()
    assert hi - lo < 1e-3 * abs(values).max()  # still around the value, not the unit square


def test_a_channel_zero_but_for_round_off_autoranges_to_a_flat_line_at_zero(window, qtbot):
    """The helical example spins free: its tooth force is zero up to round-off (about 1e-15 N). The autoranged
    plot spans at least 1e-9 N around it, so the curve is a flat line at zero, not noise filling the plot."""
    res = _run(window, qtbot, EXAMPLES / "helical_pair.gdyn", t_end=0.1)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "pair.Ft")
    values = res["pair.Ft"]
    assert 0 < abs(values).max() < 1e-12  # zero but for round-off
    tw.stack.auto_range()
    qtbot.wait(100)
    lo, hi = tw.stack.current.getPlotItem().viewRange()[1]
    assert lo < 0 < hi and hi - lo >= 1e-9
    assert hi - lo < 1e-6  # still around zero, not the unit square


def test_export_csv_suggests_a_file_beside_the_model_or_in_the_documents_folder(window, qtbot, tmp_path):
    mine = tmp_path / "gears.gdyn"
    mine.write_bytes((EXAMPLES / "planetary.gdyn").read_bytes())
    _run(window, qtbot, mine, t_end=0.01)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    suggested = []

    def read_and_cancel(dlg):
        suggested.append(Path(dlg.findChild(QLineEdit, "File").text()))

    fill_and_ok(qtbot, {}, ok=False, press=read_and_cancel)
    tw.act_csv.trigger()
    window.doc.path = None  # as a model never saved (its name kept: a new model the user named)
    fill_and_ok(qtbot, {}, ok=False, press=read_and_cancel)
    tw.act_csv.trigger()
    window.doc.path = EXAMPLES / "planetary.gdyn"  # as the example opened
    fill_and_ok(qtbot, {}, ok=False, press=read_and_cancel)
    tw.act_csv.trigger()
    assert suggested[0] == tmp_path / "gears.csv"
    assert suggested[1].is_absolute() and suggested[1].parent.is_dir() and suggested[1].name == "planetary.csv"
    assert suggested[1].parent != Path.cwd() or Path.cwd() == Path.home()  # not wherever the program started
    assert suggested[2] == suggested[1]  # the example: named after it, in the documents folder, not in its own


def test_a_channel_of_another_unit_gets_a_plot_of_its_own(window, qtbot):
    """Ft [N] in the current plot, then the sun's speed [rad/s] by double-click and a dimensionless dynamic factor
    from Derived Channel: each lands on a plot of its unit, a second Ft-like channel joins the newtons."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    double_click_channel(qtbot, tw.browser, "sun_planet1.Ft")
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    fill_and_ok(qtbot, {}, {"derived_kind": DYNAMIC_FACTOR, "derived_pair": "sun_planet1"})
    tw.act_derived.trigger()
    tw.add_channels(["sun_planet2.Ft"], tw.stack.panels[0])
    plotted = [sorted(p.curves) for p in tw.stack.panels if p.curves]
    units = [set(p.units.values()) for p in tw.stack.panels if p.curves]
    assert plotted == [["sun_planet1.Ft", "sun_planet2.Ft"], ["sun_joint.speed"], ["sun_planet1.dynamic_factor"]]
    assert units == [{"N"}, {"rad/s"}, {"1"}]


def test_the_legend_moves_to_the_corner_the_curves_leave_free(window, qtbot):
    """The sun's speed rises in a straight line (constant torque) from the bottom left to the top right: the top
    left, the legend's first place, is free and it stays. Under the opposite torque it falls from the top left:
    the legend moves to the top right, which the curve leaves free."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    panel = tw.stack.current

    def last_speed():
        drawn = panel.curves["sun_joint.speed"].getData()[1]
        return drawn[-1] if drawn is not None and len(drawn) else 0.0

    qtbot.waitUntil(lambda: last_speed() > 0, timeout=5000)
    qtbot.wait(100)
    assert panel.legend_corner == (0, 0)
    window.doc.apply(replace_fields(window.doc.model, "sun_torque", law=TimeLaw(kind="constant", value=-1.0)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    qtbot.waitUntil(lambda: last_speed() < 0, timeout=5000)  # falling
    qtbot.waitUntil(lambda: panel.legend_corner == (1, 0), timeout=5000)


def test_angles_read_in_degrees_and_speeds_in_rpm_as_the_dialogs_take_them(qtbot):
    """Angles and speeds of rotation read in degrees and rpm, the units every entry of the app takes (a shaft
    turned through 3000 rad read '3 [krad]', then '3000 [rad]'; a speed motor's 100 pi rad/s is typed as 3000
    rpm); an angular acceleration keeps rad/s^2 with a prefix only below 1, a force its SI prefix."""
    plot = pg.PlotWidget(axisItems=unit_axes("left"))
    qtbot.addWidget(plot)
    axis = plot.getAxis("left")
    seen = {}
    for unit, top in (("rad", 3000.0), ("rad", 2e-3), ("rad/s", 100 * math.pi), ("rad/s^2", 3000.0),
                      ("rad/s^2", 2e-3), ("N", 3000.0)):
        axis.set_quantity("", unit)
        axis.setRange(0.0, top)
        label = axis.labelString().split(">")[1].split("<")[0]
        seen[(unit, top)] = (axis.scale * axis.autoSIPrefixScale, label)
        factor, shown = prefixed(top, unit)  # the read-out's numbers, as the axis shows them
        assert factor == pytest.approx(seen[(unit, top)][0]) and shown == label.strip("[]")
    assert seen == {("rad", 3000.0): (pytest.approx(180 / math.pi), "[deg]"),
                    ("rad", 2e-3): (pytest.approx(180 / math.pi), "[deg]"),
                    ("rad/s", 100 * math.pi): (pytest.approx(30 / math.pi), "[rpm]"),
                    ("rad/s^2", 3000.0): (1.0, "[rad/s^2]"), ("rad/s^2", 2e-3): (1e3, "[mrad/s^2]"),
                    ("N", 3000.0): (1e-3, "[kN]")}
    assert shown_unit("rad/s") == "rpm" and shown_unit("rad") == "deg" and shown_unit("N") == "N"


def test_a_telemetry_window_opened_after_a_run_puts_its_playhead_at_the_animations_time(window, qtbot):
    """After a run the animation stands at its end; the Telemetry window opened then showed its playhead at 0 s
    until the clock next moved."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
    window.clock.seek(0.07)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_joint.angle")
    assert tw.stack.current.playhead.value() == pytest.approx(0.07)
    tw.add_plot()
    assert [p.playhead.value() for p in tw.stack.panels] == pytest.approx([0.07, 0.07])


def test_the_statistics_of_a_diverged_channel_read_without_overflow():
    """A run that diverged leaves samples near 1e154; squaring them for the RMS overflowed to inf with a
    RuntimeWarning in the terminal. The RMS scales by the largest value first."""
    values = np.array([3e200, -4e200, 0.0, 1e-300])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lo, hi, mean, rms, ptp = statistics(values)
    assert rms == pytest.approx(math.sqrt((9 + 16) / 4) * 1e200, rel=1e-12)
    assert (lo, hi, mean, ptp) == pytest.approx((-4e200, 3e200, -0.25e200, 7e200), rel=1e-12)
    assert statistics(np.zeros(3))[3] == 0.0


def test_the_statistics_leave_out_the_samples_where_a_channel_has_no_value():
    """A ratio has no value where its divisor is 0 (NaN at a start from rest): the statistics are of the others,
    not NaN for the whole channel."""
    lo, hi, mean, rms, ptp = statistics(np.array([math.nan, 1.0, 2.0, 3.0]))
    assert (lo, hi, mean, ptp) == (1.0, 3.0, 2.0, 2.0) and rms == pytest.approx(math.sqrt(14 / 3), rel=1e-15)
    assert all(math.isnan(v) for v in statistics(np.array([math.nan, math.nan])))


def test_the_spectrum_follows_a_new_run_and_empties_when_the_model_is_replaced(window, qtbot):
    """The Spectrum window kept the spectrum of the run it was opened on: after a longer run it still ended at
    the first run's end, and after File > New it still showed the planetary's force. It now takes the same
    channel of the new run, and shows nothing when there is no run."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    sw = _spectrum_of(window, qtbot, "sun_planet1.Ft")
    sw.range.setCurrentText("Whole run")
    assert sw.spectrum.t1 == pytest.approx(0.05)
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=0.1)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    qtbot.waitUntil(lambda: sw.spectrum.t1 == pytest.approx(0.1), timeout=5000)
    assert sw.channel.currentText() == "sun_planet1.Ft"
    texts = []
    answer_boxes(qtbot, [QMessageBox.Discard], texts)
    window.act_new.trigger()  # File > New
    assert sw.spectrum is None and sw.markers == {} and sw.channel.count() == 0
    assert len(sw.curve.getData()[0] or []) == 0 and sw._lines == [] and "no run" in sw.info.text()
    assert sw.reference.count() == 0 and sw.plot.getPlotItem().vb.viewRange() == [[0.0, 1.0], [0.0, 1.0]]


def test_f5_in_the_telemetry_window_runs_the_model_and_shift_f5_stops_it(window, qtbot):
    """The Telemetry window's title says 'no results yet: run the model (F5)', but F5 there did nothing: the
    shortcut lived in the main window only. The main window's Run and Stop now answer in Telemetry as well."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    # minutes of steps: still going when Shift+F5 is pressed
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=1e4,
                                                                       output_step=1e-2)))
    tw = window.show_telemetry()
    tw.activateWindow()
    qtbot.waitUntil(tw.isActiveWindow, timeout=5000)
    assert "run the model (F5)" in tw.windowTitle()
    qtbot.keyClick(tw, Qt.Key_F5)
    assert window.runner.running
    qtbot.waitUntil(lambda: tw.results is not None and len(tw.results) > 1, timeout=30_000)
    qtbot.keyClick(tw, Qt.Key_F5, Qt.ShiftModifier)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=5000)
    assert window.doc.current.status == "cancelled"


@pytest.mark.parametrize("show", ["show_telemetry", "show_chbm", "show_train", "show_study", "spectrum"])
def test_ctrl_w_closes_a_tool_window(window, qtbot, show):
    """Telemetry, its Spectrum, CHBM Study, Train Dynamics and Parameter Study each opened in a window of its own
    that only the title bar's button closed; Ctrl+W (the platform's Close key) now closes the one that is
    active."""
    if show == "spectrum":
        _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.1)
        tool = _spectrum_of(window, qtbot, "sun_planet1.Ft")
    else:
        window.open_file(EXAMPLES / "planetary.gdyn")
        tool = getattr(window, show)()
    tool.activateWindow()
    qtbot.waitUntil(tool.isActiveWindow, timeout=5000)
    qtbot.keyClick(tool, Qt.Key_W, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not tool.isVisible(), timeout=5000)
    assert window.isVisible()


def test_a_right_click_on_selected_channels_plots_them_in_a_new_plot_or_opens_their_spectrum(window, qtbot):
    """The channel list had no right-click menu: a channel went to a plot by a double-click or a drag only. The
    menu puts the channels selected into the current plot or a new one, and opens the Spectrum on them."""
    _run(window, qtbot, EXAMPLES / "planetary.gdyn", t_end=0.05)
    tw = window.show_telemetry()
    qtbot.waitExposed(tw)
    tree = tw.browser.tree

    def menu_on(name: str):
        node = tw.browser.items[name]
        tree.scrollToItem(node)
        qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(node).center())  # selects it
        at = tree.visualItemRect(node).center()  # the event Qt makes of a right-click there
        QApplication.sendEvent(tree.viewport(), QContextMenuEvent(QContextMenuEvent.Mouse, at,
                                                                  tree.viewport().mapToGlobal(at)))
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=3000)
        return QApplication.activePopupWidget()

    def choose(menu, text: str) -> None:
        action = next(a for a in menu.actions() if a.text() == text)
        qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())

    menu = menu_on("sun_joint.speed")
    assert [a.text() for a in menu.actions() if a.text()] == ["Plot", "Plot in a New Plot", "Spectrum",
                                                             "Derived Channel"]
    choose(menu, "Plot")
    choose(menu_on("carrier_joint.speed"), "Plot in a New Plot")
    assert tw.stack.layout_names() == (("sun_joint.speed",), ("carrier_joint.speed",))
    choose(menu_on("planet1_joint.speed"), "Spectrum")  # a channel not plotted: the one clicked, not a plotted one
    qtbot.waitUntil(lambda: tw.spectrum_window is not None and tw.spectrum_window.isVisible(), timeout=5000)
    assert tw.spectrum_window.channel.currentText() == "planet1_joint.speed"
