"""The Parameter Study window in a real window: a study of the open planetary built by typing, run on dask."""

import csv
import json
import math
import sys
import time

import pytest
from PySide6.QtCore import QSettings, Qt

from app.main_window import MainWindow
from app.studies import workers
from app.studies.window import WORKERS_KEY
from core.commands import replace_fields
from core.dynamics.program.linker import loaded
from core.studies.parameters import first_parameter
from core.studies.runner import run_study
from core.studies.study_file import study_from_dict
from tests.conftest import EXAMPLES


def _window(window, qtbot, workers=None):
    """The Parameter Study window on the planetary; `workers` the count a window of an earlier session left
    (0: it starts no cluster, for tests of the form alone)."""
    if workers is not None:
        QSettings("GearDyn", "GearDyn").setValue(WORKERS_KEY, workers)
    assert window.open_file(EXAMPLES / "planetary.gdyn")
    window.act_study.trigger()
    w = window.study
    qtbot.waitExposed(w)
    return w


def _fill(w, qtbot, workers):
    w.params.cellWidget(0, 0).setCurrentText("gears.sun.face_width")
    assert w.params.item(0, 1).text() == "mm"  # the face width typed in mm, as in the gear dialogs
    w.params.item(0, 2).setText("15 25")
    qtbot.mouseClick(w.findChild(type(w.run_button), "add_parameter"), Qt.LeftButton)
    w.params.cellWidget(1, 0).setCurrentText("forces.sun_torque.law.value")
    assert w.params.item(1, 1).text() == "N m"  # a torque's value, in the unit of the torque dialog
    w.params.item(1, 2).setText("1:3:2")
    w.t_end.setText("0.01")
    w.step.setText("0.001")
    w.outputs.cellWidget(0, 0).setCurrentText("sun_joint.speed")
    w.outputs.cellWidget(0, 1).setCurrentText("final")
    w.workers.setValue(workers)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_study_of_the_open_model_runs_and_shows_a_table_and_a_plot(window, qtbot, tmp_path, workers):
    w = _window(window, qtbot)
    _fill(w, qtbot, workers)
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.status in ("finished", "failed"), timeout=120000)
    assert w.status == "finished", w.message.text()
    assert w.table.rowCount() == 4 and w.progress.value() == 4
    assert not w.table.verticalHeader().isVisible()  # the rows are numbered once: by the case column, from 0
    assert [w.table.item(k, 0).text() for k in range(4)] == ["0", "1", "2", "3"]
    # the same study from its file, run by core, gives the same numbers
    w.save_study(tmp_path / "s.json")  # a folder of its own: the base names the example as seen from there
    data = json.loads((tmp_path / "s.json").read_text())
    assert (tmp_path / data["base"]).resolve() == (EXAMPLES / "planetary.gdyn").resolve()
    assert data["parameters"][1]["grid"] == {"start": 1.0, "stop": 3.0, "count": 2}
    assert data["parameters"][0]["values"] == pytest.approx([0.015, 0.025])  # the study file is SI
    assert w.table.horizontalHeaderItem(1).text() == "gears.sun.face_width [mm]"
    assert [float(w.table.item(k, 1).text()) for k in range(4)] == pytest.approx([15, 15, 25, 25])
    rows = run_study(study_from_dict(data, str(tmp_path / "s.json")), workers=0)
    assert [r["results"] for r in rows] == [r["results"] for r in w.rows]
    # the speed in rpm, as Telemetry and the speed motor show it; the exported CSV stays SI
    assert w.table.horizontalHeaderItem(3).text() == "sun_joint.speed final [rpm]"
    assert float(w.table.item(3, 3).text()) == pytest.approx(rows[3]["results"][0] * 30 / math.pi, rel=1e-5)
    assert len(w.plot.getPlotItem().listDataItems()) == 2 and len(w.legend.items) == 2  # one line per torque
    w.export(tmp_path / "r.csv")
    assert next(csv.reader((tmp_path / "r.csv").open()))[3] == "sun_joint.speed final [rad/s]"
    shot = tmp_path / "study.png"
    assert w.grab().save(str(shot))


def _run_cases(w, qtbot, values: str, path: str = "") -> None:
    """The study of the first parameter (`path`, or the one the form starts on) at `values`, 0.01 s each, in
    this process; waits until it ends."""
    if path:
        w.params.cellWidget(0, 0).setCurrentText(path)
    w.params.item(0, 2).setText(values)
    w.t_end.setText("0.01")
    w.step.setText("0.001")
    w.workers.setValue(0)
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.status in ("finished", "failed"), timeout=120000)


def test_the_worker_count_chosen_is_the_next_sessions_and_0_starts_no_cluster_when_the_window_opens(window, qtbot):
    """A user who runs studies in the app's process (0 workers) had 2 dask workers spawned at every opening of
    the window, in every session. The count chosen is kept with the app's settings, as its recent files."""
    w = _window(window, qtbot, workers=0)  # as an earlier session left it
    assert w.workers.value() == 0 and not w.starter.running and w.cluster is None
    settings = QSettings("GearDyn", "GearDyn")
    w.workers.setValue(1)
    assert settings.value(WORKERS_KEY, type=int) == 1
    w.workers.setValue(0)  # within the 400 ms the count takes to settle: no cluster of 1 is started
    w.close()
    assert not w.starter.running and w.cluster is None
    later = MainWindow()  # the next session
    try:
        later.show()
        qtbot.waitExposed(later)
        assert later.show_study().workers.value() == 0 and not later.study.starter.running
    finally:
        later.doc.undo_stack.setClean()
        later.close()


def test_a_case_with_model_warnings_is_counted_and_its_whole_message_is_in_the_tool_tip(window, qtbot):
    w = _window(window, qtbot, workers=0)
    _run_cases(w, qtbot, "2 3", "gears.sun.module")
    last = w.table.columnCount() - 1
    assert w.table.horizontalHeaderItem(last).text() == "message" and w.table.item(0, last).text() == ""
    message = w.table.item(1, last)
    assert message.text().startswith("warning: sun_planet1: transverse module m_t 2 mm but gear 'sun' was generated "
                                     "with m_t 3 mm (m_n 3 mm)")
    assert message.toolTip() == message.text()
    assert w.statusBar().currentMessage() == "2 cases: 2 computed, 0 failed; 1 with warnings (see their message)"


def test_the_field_and_channel_lists_show_whole_names(window, qtbot):
    """In the table's narrow column the drop-down list elided paths in the middle ('forces.driv...w.amplitude')."""
    w = _window(window, qtbot, workers=0)
    for combo in (w.params.cellWidget(0, 0), w.outputs.cellWidget(0, 0)):
        view = combo.view()
        longest = max((combo.itemText(i) for i in range(combo.count())), key=view.fontMetrics().horizontalAdvance)
        assert view.minimumWidth() > view.fontMetrics().horizontalAdvance(longest), longest
    params = w.params.cellWidget(0, 0)
    # the path chosen reads whole in its cell too (it showed 'ces.sun_torque.law.value'): the Values column keeps
    # room for '0.5:2:4' and the field takes the rest
    assert params.currentText() == "forces.sun_torque.law.value"
    assert params.lineEdit().width() > params.fontMetrics().horizontalAdvance(params.currentText())
    assert w.params.columnWidth(2) >= w.fontMetrics().horizontalAdvance("0.5:2:40")


def test_bad_values_name_the_parameter(window, qtbot):
    w = _window(window, qtbot, workers=0)
    w.params.cellWidget(0, 0).setCurrentText("gears.sun.face_width")
    w.params.item(0, 2).setText("wide")
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert "gears.sun.face_width: values must be numbers" in w.message.text() and not w.running
    w.params.item(0, 2).setText("15:25:0")  # the study file's parameters[0].grid.count, as the form shows it
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert w.message.text().startswith("Parameter 1, grid.count: must be a whole number from 1 to 100000")
    assert not w.running


def _engine_loaded() -> bool:
    """Run on a dask worker: whether the engine and the compiled kernels are loaded there."""
    return "core.dynamics.run" in sys.modules and loaded().compiled


def test_the_local_cluster_starts_when_the_window_opens_and_serves_every_study(window, qtbot):
    """The workers spawn while the user sets the study up, every study of the window runs on the same ones,
    a new worker count starts a new cluster, and closing the window closes it."""
    w = _window(window, qtbot)
    assert w.starter.running or w.cluster is not None  # started by opening the window
    _fill(w, qtbot, 2)
    qtbot.waitUntil(lambda: w.cluster is not None and w.cluster.workers == 2, timeout=120000)
    first = w.cluster
    assert len(first.client.scheduler_info()["workers"]) == 2
    # each worker ran the open model two steps: the engine and the compiled kernels are loaded before Run
    assert set(first.client.run(_engine_loaded).values()) == {True}
    results = []
    for _ in range(2):
        qtbot.mouseClick(w.run_button, Qt.LeftButton)
        qtbot.waitUntil(lambda: w.status in ("finished", "failed") and not w.running, timeout=120000)
        assert w.status == "finished", w.message.text()
        results.append([r["results"] for r in w.rows])
        assert w.cluster is first and first.client.status == "running"
    assert results[0] == results[1] and len(results[0]) == 4
    w.workers.setValue(1)
    qtbot.waitUntil(lambda: w.cluster is not first and w.cluster is not None, timeout=120000)
    assert first.client.status == "closed" and len(w.cluster.client.scheduler_info()["workers"]) == 1
    second = w.cluster
    w.close()
    assert w.cluster is None and second.client.status == "closed"


def test_a_window_closed_while_its_cluster_starts_closes_the_cluster_when_it_is_up(window, qtbot):
    """Closed just as its workers came up (their 'ready' not yet delivered), the window took the cluster after it
    had closed and kept it: its worker processes lived on, and when the process ended they printed 'Failed to
    communicate with scheduler during heartbeat' tracebacks on the terminal. A cluster that comes up for a
    closed window is now closed at once."""
    w = _window(window, qtbot)
    assert w.starter.running
    started = []
    w.starter.worker.ready.connect(started.append)  # in the worker's thread, as it emits
    deadline = time.monotonic() + 120
    while not started and time.monotonic() < deadline:  # no event processed: 'ready' stays queued, undelivered
        time.sleep(0.05)
    assert len(started) == 1 and w.cluster is None
    w.close()
    qtbot.wait(200)  # the queued 'ready' delivered to the closed window
    assert w.cluster is None
    assert started[0].client.status == "closed" and started[0].cluster.status.name == "closed"


def test_closing_the_window_while_its_cluster_starts_does_not_wait_for_it_and_a_reopened_window_gets_one(window,
                                                                                                       qtbot):
    """Closed while its dask workers started, the window waited for them to come up (about 3 s with the whole
    app frozen) to close them. It now closes at once; the starting cluster is closed by its worker when it is up,
    and the window opened again meanwhile starts a cluster of its own once that one is gone."""
    w = _window(window, qtbot)
    assert w.starter.running
    worker = w.starter.worker
    made = []
    worker.ready.connect(made.append)
    w.close()
    assert not w.isVisible() and w.starter.running and worker.cancelled  # closed without waiting
    window.act_study.trigger()  # opened again while the first cluster still starts, and a study run at once
    qtbot.waitExposed(w)
    _fill(w, qtbot, 2)
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.background.running, timeout=120000)
    assert w.background.worker.cluster is w.cluster is not None  # it waited for the window's own workers
    qtbot.waitUntil(lambda: w.status in ("finished", "failed") and not w.running, timeout=120000)
    assert w.status == "finished" and len(w.rows) == 4 and all(r["status"] == "ok" for r in w.rows)
    assert w.cluster.client.status == "running" and not made  # the first was closed, not handed over


def test_run_before_the_workers_are_up_waits_for_them_then_runs(window, qtbot):
    w = _window(window, qtbot)
    _fill(w, qtbot, 2)
    if w.cluster is not None:  # already up: start over, so that Run finds it starting
        w.workers.setValue(1)
        qtbot.waitUntil(lambda: w.cluster is not None and w.cluster.workers == 1, timeout=120000)
        w.workers.setValue(2)
        w.prepare_cluster()
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert w.running and (w.pending is not None or w.background.running)
    qtbot.waitUntil(lambda: w.status in ("finished", "failed") and not w.running, timeout=120000)
    assert w.status == "finished", w.message.text()
    assert w.cluster.workers == 2 and len(w.rows) == 4 and all(r["status"] == "ok" for r in w.rows)


def test_workers_that_cannot_start_leave_the_study_to_this_process_and_say_so(window, qtbot, monkeypatch):
    def refuse(n):
        raise OSError("no processes may be started here")

    monkeypatch.setattr(workers, "local_cluster", refuse)
    w = _window(window, qtbot)
    _fill(w, qtbot, 2)
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.status in ("finished", "failed") and not w.running, timeout=120000)
    assert w.status == "finished" and len(w.rows) == 4 and all(r["status"] == "ok" for r in w.rows)
    assert "did not start (OSError: no processes may be started here); the cases run in this process" in \
        w.message.text()


def test_opening_another_model_drops_the_results_and_starts_the_form_on_it(window, qtbot):
    """After a study of the planetary, File > Open of the helical pair left the planetary's table, plot, fields
    and channels in the window; its values were then read in the new model's units, and Run failed on fields the
    new model does not have. The window now drops them and starts on the open model."""
    w = _window(window, qtbot, workers=0)
    _fill(w, qtbot, 0)
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.status in ("finished", "failed"), timeout=120000)
    assert w.status == "finished" and w.table.rowCount() == 4
    assert window.open_file(EXAMPLES / "helical_pair.gdyn", ask=False)
    model = window.doc.model
    assert w.rows == [] and w.table.rowCount() == 0 and not w.plot.getPlotItem().listDataItems()
    assert w.plot.getPlotItem().titleLabel.text.startswith("Run the study")  # the empty plot says how to fill it
    assert w.status == "" and w.y_choice.count() == 0 and w.statusBar().currentMessage() == ""
    plot = w.plot.getPlotItem()
    assert plot.getAxis("left").labelText == "" and plot.vb.viewRange() == [[0.0, 1.0], [0.0, 1.0]]
    assert w.params.rowCount() == 1 and w.params.cellWidget(0, 0).currentText() == first_parameter(model)
    assert w.outputs.rowCount() == 1 and w.outputs.cellWidget(0, 0).currentText() == "pair.Ft"
    assert (w.t_end.text(), w.step.text()) == (f"{model.settings.t_end:g}", f"{model.settings.step:g}")
    assert w.integrator.currentText() == model.settings.integrator


def test_opening_another_model_while_a_study_runs_stops_it_and_shows_nothing_of_it(window, qtbot):
    w = _window(window, qtbot, workers=0)
    _fill(w, qtbot, 0)
    w.t_end.setText("0.5")  # long enough to be replaced while it runs
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: w.background.running, timeout=10000)
    assert window.open_file(EXAMPLES / "helical_pair.gdyn", ask=False)
    qtbot.waitUntil(lambda: not w.running, timeout=120000)
    qtbot.wait(200)  # any signal the worker queued before it ended
    assert w.rows == [] and w.table.rowCount() == 0 and w.status == ""
    assert w.statusBar().currentMessage() == "stopped: the model changed while it ran, so its results are not shown"
    assert w.run_button.isEnabled() and not w.stop_button.isEnabled()


def test_a_result_zero_but_for_round_off_plots_as_a_flat_line_at_zero(window, qtbot):
    """The helical example spins free: each case's largest tooth force is round-off (about 1e-15 N), and the plot
    autoranged to it, drawing the noise as a trend from 6e-16 to 2.6e-15 N. It spans at least 1e-9 N around zero
    now, as Telemetry's plots do, so the line lies flat at zero."""
    QSettings("GearDyn", "GearDyn").setValue(WORKERS_KEY, 0)  # cases in this process: no cluster
    assert window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.act_study.trigger()
    w = window.study
    qtbot.waitExposed(w)
    assert w.params.cellWidget(0, 0).currentText() == "gears.gear1.face_width"
    _run_cases(w, qtbot, "20 25 30")  # no narrower than the pair's 20 mm face: no case warns
    assert w.status == "finished" and w.statusBar().currentMessage() == "3 cases: 3 computed, 0 failed"
    forces = [r["results"][0] for r in w.rows]
    assert 0 < max(abs(f) for f in forces) < 1e-12  # zero but for round-off
    qtbot.wait(100)
    lo, hi = w.plot.getPlotItem().viewRange()[1]
    assert lo < 0 < hi and hi - lo >= 1e-9
    assert hi - lo < 1e-6  # still around zero, not the unit square


def test_a_parameter_starts_at_its_value_now_and_values_typed_stay_when_the_field_changes(window, qtbot):
    """The Values cell started empty, so Run said 'give at least one value' and the user had to look the value
    up. It now shows the field's value in the model (the sun's 1 N m; its face width in mm when that field is
    chosen), so a range is built around it; values typed stay when another field is chosen."""
    w = _window(window, qtbot, workers=0)
    sun = window.doc.model.bodies["sun"].visual.spec
    assert w.params.cellWidget(0, 0).currentText() == "forces.sun_torque.law.value"
    assert w.params.item(0, 2).text() == "1"  # the example's 1 N m on the sun
    w.params.cellWidget(0, 0).setCurrentText("gears.sun.face_width")
    assert w.params.item(0, 2).text() == f"{sun.face_width * 1e3:g}" and w.params.item(0, 1).text() == "mm"
    w.params.item(0, 2).setText("15 25")
    w.params.cellWidget(0, 0).setCurrentText("gears.sun.teeth")
    assert w.params.item(0, 2).text() == "15 25"  # typed: kept
    qtbot.mouseClick(w.findChild(type(w.run_button), "add_parameter"), Qt.LeftButton)
    assert w.params.item(1, 2).text() == "1"  # a new row, on the first parameter, at its value now


def test_a_result_with_no_channel_or_an_unknown_one_is_refused_before_the_study_runs(window, qtbot):
    """A study started with an empty Channel cell (File > New has no channels to offer) or a misspelt one ran
    every case and failed each with 'analysis.outputs: the results have no channel ...'. Now Run refuses it at
    once, naming the result's row as the form shows it (the study file's analysis.outputs[0].channel), and
    nothing runs."""
    w = _window(window, qtbot, workers=0)
    for typed, says in (("", "Result 1, channel: choose one of the model's channels, such as sun_planet1.Ft"),
                        ("sun_joint.speeed", "Result 1, channel: the model has no channel 'sun_joint.speeed'")):
        w.outputs.cellWidget(0, 0).setCurrentText(typed)
        qtbot.mouseClick(w.run_button, Qt.LeftButton)
        assert w.message.text() == says and not w.running and w.rows == []


def test_an_empty_channel_is_refused_with_an_example_of_the_models_own_channels_or_why_it_has_none(window, qtbot):
    """The empty Channel cell was refused with 'must name a channel (such as sun_planet1.Ft)' whatever the model:
    after File > New that is another model's channel (an empty model gives its energies). The example is now one
    of the open model's channels; a model that cannot run (a planet moved off its mesh) gives none, and the
    message says so."""
    QSettings("GearDyn", "GearDyn").setValue(WORKERS_KEY, 0)  # cases in this process: no cluster
    window.act_new.trigger()
    window.act_study.trigger()
    w = window.study
    qtbot.waitExposed(w)
    w.outputs.cellWidget(0, 0).setCurrentText("")
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert w.message.text() == "Result 1, channel: choose one of the model's channels, such as energy.kinetic"
    assert not w.running and w.rows == []
    assert window.open_file(EXAMPLES / "planetary.gdyn")
    window.doc.apply(replace_fields(window.doc.model, "sun_planet1", z1=30))  # the centre distance no longer fits
    w.outputs.cellWidget(0, 0).setCurrentText("")
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert w.message.text() == ("Result 1, channel: the model gives no channels yet: it cannot run (Messages says "
                                "why); choose one once it can")
    assert not w.running and w.rows == []


def test_a_study_whose_every_case_failed_says_so_in_its_plot_and_counts_one_case_in_the_singular(window, qtbot):
    """One case that cannot run (an output step of 0.5 s beyond the 0.01 s end time): the status read
    '1 cases: ...', the plot drew points of NaN (pyqtgraph warned 'All-NaN slice encountered' in the terminal)
    and said nothing. Now the plot says that no case gave the result and draws nothing."""
    w = _window(window, qtbot, workers=0)
    _run_cases(w, qtbot, "0.5", "settings.output_step")
    assert w.statusBar().currentMessage() == "1 case: 0 computed, 1 failed"
    assert "output_step: must be at most the end time" in w.table.item(0, w.table.columnCount() - 1).text()
    assert w.plot.getPlotItem().listDataItems() == []
    assert "no case gave" in w.plot.getPlotItem().titleLabel.text


def test_a_value_outside_its_fields_range_is_refused_before_the_study_runs(window, qtbot):
    """A sun module of 200 mm ran its case, which failed as it started; the study is now refused at Run, naming
    the parameter's row and the field's range, and nothing runs."""
    w = _window(window, qtbot, workers=0)
    w.params.cellWidget(0, 0).setCurrentText("gears.sun.module")
    w.params.item(0, 2).setText("2 200")
    qtbot.mouseClick(w.run_button, Qt.LeftButton)
    assert w.message.text() == ("Parameter 1, values: gears.sun.module must be a number from 0.1 to 100 mm, "
                                "got 200 mm")
    assert not w.running and w.rows == []
