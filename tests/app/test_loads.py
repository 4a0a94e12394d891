"""Loads, fixed joints and simulation settings by point and click: dialogs with range checks, the property dock, undo."""

import dataclasses
import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLabel, QLineEdit, QMessageBox, QPushButton

from app.dialogs.mode_notes import tilt_inertia
from app.dialogs.joint_law_notes import motor_note, torque_note
from core.commands import AddItem, replace_fields
from core.dynamics.simulate import simulate
from core.geometry.rotations import quat_about, quat_matrix
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import mesh_in_model, pair_iso_stiffness
from core.model import entities as E
from core.model.files import load
from core.model.model import Model
from tests.app.conftest import fill_and_ok, toolbar_button, type_in_properties
from tests.conftest import EXAMPLES
from tests.core.test_train_ratio import hub_planetary_sun_inertia


def _open_pair(window):
    window.open_file(EXAMPLES / "helical_pair.gdyn")


def test_torque_with_a_ramp_law_is_added_edited_in_the_properties_and_undone(window, qtbot):
    _open_pair(window)
    seen_plot = []

    def look(dlg):
        editor = dlg.form.widgets["law"]
        x, y = editor.curve.getData()
        seen_plot.append((x[0], x[-1], y[0], y[-1]))

    fill_and_ok(qtbot, {"Name": "drive", "law_value": 0, "law_final": 2, "law_t_start": 0.1, "law_t_end": 0.3},
                {"joint": "gear1_joint", "law_kind": "Ramp"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    law = window.doc.model.forces["drive"].law
    assert (law.kind, law.value, law.final, law.t_start, law.t_end) == ("ramp", 0.0, 2.0, 0.1, 0.3)
    # the plot spans the run (t_end of the settings) and shows the law's ends
    assert seen_plot[0] == pytest.approx((0.0, window.doc.model.settings.t_end, 0.0, 2.0))
    assert window.tree.items["drive"].parent().text(0) == "Forces (1)"
    window.select("drive")
    edit = window.props.form.widgets["law"].fields["final"].edit
    edit.setText("5")
    edit.editingFinished.emit()
    assert window.doc.model.forces["drive"].law.final == 5.0
    window.act_undo.trigger()
    assert window.doc.model.forces["drive"].law.final == 2.0
    window.act_undo.trigger()
    assert "drive" not in window.doc.model.forces


@pytest.mark.parametrize("tool, fields, combos, expect", [
    ("torsional_spring_damper", {"Name": "d", "Damping": -1}, {"joint": "gear2_joint"},
     "Damping: must be a number at least 0 N m s/rad, got -1 N m s/rad"),
    ("bearing", {"Name": "b", "Radial stiffness": -5}, {"body_i": "ground", "body_j": "gear1"},
     "Radial stiffness: must be a number at least 0 N/µm, got -5 N/µm"),
    ("compliant_mesh", {"Name": "m", "Mean mesh stiffness": 0}, {"pair": "pair"},
     "Mean mesh stiffness: must be a number above 0 and at most 1e+07 N/µm, got 0 N/µm"),
    ("spring_damper", {"Name": "s", "Free length": -3}, {"body_i": "gear1", "body_j": "gear2"},
     "Free length: must be a number at least 0 mm, got -3 mm"),
    ("speed_motor", {"Name": "m", "law_frequency": -2}, {"joint": "gear1_joint", "law_kind": "Sine"},
     "Speed frequency: must be a number at least 0 Hz, got -2 Hz"),
])
def test_load_dialogs_refuse_out_of_range_fields_naming_the_range(window, qtbot, tool, fields, combos, expect):
    _open_pair(window)
    before = window.doc.model.copy()
    seen = []
    fill_and_ok(qtbot, fields, combos, seen=seen)
    qtbot.mouseClick(toolbar_button(window, tool), Qt.LeftButton)
    assert seen and expect in seen[0]
    assert window.doc.model == before


def test_every_load_tool_adds_its_item(window, qtbot):
    _open_pair(window)
    tools = [("torque", {"Name": "t"}, {"joint": "gear1_joint"}, E.Torque),
             ("speed_motor", {"Name": "sm"}, {"joint": "gear2_joint"}, E.SpeedMotor),
             ("spring_damper", {"Name": "sd", "Stiffness": 10}, {"body_i": "gear1", "body_j": "gear2"}, E.SpringDamper),
             ("torsional_spring_damper", {"Name": "tsd", "Damping": 0.1}, {"joint": "gear2_joint"},
              E.TorsionalSpringDamper),
             ("bearing", {"Name": "brg", "Position x": 60}, {"body_i": "ground", "body_j": "gear2"},
              E.BearingSpringDamper),
             ("compliant_mesh", {"Name": "mesh"}, {"pair": "pair"}, E.CompliantMesh),
             ("fixed", {"Name": "weld"}, {"body_i": "ground", "body_j": "gear1"}, E.FixedJoint)]
    for tool, fields, combos, cls in tools:
        fill_and_ok(qtbot, fields, combos)
        qtbot.mouseClick(toolbar_button(window, tool), Qt.LeftButton)
        item = window.doc.model.find(fields["Name"])
        assert isinstance(item, cls), tool
    assert window.doc.model.forces["sd"].stiffness == 10.0
    assert window.doc.model.forces["brg"].position == pytest.approx((0.06, 0.0, 0.0))
    assert window.doc.undo_stack.count() == len(tools)


def test_table_law_from_a_csv_file(window, qtbot, tmp_path, monkeypatch):
    _open_pair(window)
    table = tmp_path / "torque.csv"
    table.write_text("time [s],torque [N m]\n0,0\n0.5,2\n1,2\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(table), ""))

    def load_csv(dlg):
        qtbot.mouseClick(dlg.findChild(QPushButton, "law_load_csv"), Qt.LeftButton)

    fill_and_ok(qtbot, {"Name": "tab"}, {"joint": "gear1_joint", "law_kind": "Table (CSV)"}, press=load_csv)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    law = window.doc.model.forces["tab"].law
    assert law.kind == "table" and law.table == ((0.0, 0.0), (0.5, 2.0), (1.0, 2.0))
    assert law(0.25) == pytest.approx(1.0)


def test_deleting_a_joint_asks_before_deleting_the_loads_on_it(window, qtbot, monkeypatch):
    _open_pair(window)
    fill_and_ok(qtbot, {"Name": "drive"}, {"joint": "gear1_joint"})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.No)
    window.tree.select("gear1_joint")
    window.act_delete.trigger()
    assert "drive" in asked[0] and "gear1_joint" in window.doc.model.joints
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    window.tree.select("gear1_joint")
    window.act_delete.trigger()
    assert "drive" not in window.doc.model.forces and "gear1_joint" not in window.doc.model.joints
    window.act_undo.trigger()
    assert "drive" in window.doc.model.forces


def test_settings_dialog_shows_each_integrators_options_and_is_saved_with_the_model(window, qtbot, tmp_path, monkeypatch):
    _open_pair(window)
    shown = {}

    def pick(dlg):
        for name in ("dopri5", "generalized_alpha_adaptive", "rk4", "generalized_alpha"):
            dlg.integrator.setCurrentText(name)
            shown[name] = {o: dlg.form.widgets[o].isVisibleTo(dlg) for o in ("rtol", "atol", "rho_inf")}
            shown[name]["step"] = dlg.form.form.labelForField(dlg.form.widgets["step"]).text()

    fill_and_ok(qtbot, {"End time": 0.25, "Time step": 2e-4, "Output step": 1e-4, "rho_inf (spectral radius at infinity)": 0.8},
                {"formulation": "cartesian"}, press=pick)
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    assert shown["dopri5"] == {"rtol": True, "atol": True, "rho_inf": False, "step": "First step"}
    assert shown["generalized_alpha"] == {"rtol": False, "atol": False, "rho_inf": True, "step": "Time step"}
    assert shown["generalized_alpha_adaptive"]["step"] == "Largest step" and shown["rk4"]["step"] == "Time step"
    st = window.doc.model.settings
    assert (st.t_end, st.step, st.output_step, st.integrator, st.rho_inf, st.formulation) == (
        0.25, 2e-4, 1e-4, "generalized_alpha", 0.8, "cartesian")
    path = tmp_path / "s.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.act_save_as.trigger()
    assert load(path).settings == st
    seen = []
    fill_and_ok(qtbot, {"Time step": 0}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    assert seen and "Time step: must be a number above 0 and at most 10 s, got 0 s" in seen[0]
    assert window.doc.model.settings == st
    window.act_undo.trigger()
    assert window.doc.model.settings.integrator == "rk4"


def test_choosing_an_adaptive_integrator_gives_it_its_own_tolerances_unless_the_user_typed_them(window, qtbot):
    """A model carries one rtol and atol, dopri5's 1e-8 and 1e-10. Choosing generalized_alpha_adaptive kept them,
    and a second-order method's steps shrink as rtol^(1/3): on a pair from File > New the progress bar read
    '27512 s left'. Choosing it now shows its own 1e-4 and 1e-12 (METHODS[...].OPTIONS); tolerances the user
    typed stay as typed."""
    _open_pair(window)
    shown = {}

    def pick(dlg):
        rtol, atol = dlg.form.widgets["rtol"], dlg.form.widgets["atol"]
        for name in ("generalized_alpha_adaptive", "dop853", "rk4", "generalized_alpha_adaptive"):
            dlg.integrator.setCurrentText(name)
            shown.setdefault(name, []).append((rtol.value(), atol.value()))
        rtol.edit.setText("1e-06")
        dlg.integrator.setCurrentText("dopri5")
        shown["typed"] = (rtol.value(), atol.value())

    fill_and_ok(qtbot, {}, press=pick)
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    assert shown["generalized_alpha_adaptive"] == [(1e-4, 1e-12), (1e-4, 1e-12)]
    assert shown["dop853"] == [(1e-8, 1e-10)] and shown["rk4"] == [(1e-8, 1e-10)]
    assert shown["typed"] == (1e-6, 1e-10)  # the typed rtol stays; the atol was dopri5's own
    st = window.doc.model.settings
    assert (st.integrator, st.rtol, st.atol) == ("dopri5", 1e-6, 1e-10)

    def typed_after_choosing(dlg):
        dlg.integrator.setCurrentText("generalized_alpha_adaptive")
        dlg.form.widgets["rtol"].edit.setText("1e-08")

    fill_and_ok(qtbot, {}, press=typed_after_choosing)
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    fill_and_ok(qtbot, {})  # opened and closed: the model's tolerances stay as saved
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    st = window.doc.model.settings
    assert (st.integrator, st.rtol, st.atol) == ("generalized_alpha_adaptive", 1e-8, 1e-12)


def test_law_plot_spans_the_runs_time(window, qtbot):
    _open_pair(window)
    fill_and_ok(qtbot, {"End time": 2})
    qtbot.mouseClick(toolbar_button(window, "simulation_settings"), Qt.LeftButton)
    got = []
    fill_and_ok(qtbot, {"Name": "s", "law_value": 1, "law_amplitude": 0.5, "law_frequency": 3},
                {"joint": "gear1_joint", "law_kind": "Sine"},
                press=lambda dlg: got.append(dlg.form.widgets["law"].curve.getData()))
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    x, y = got[0]
    assert x[-1] == pytest.approx(2.0)
    assert np.allclose(y, 1 + 0.5 * np.sin(2 * np.pi * 3 * x))


def test_law_plot_of_a_zero_torque_labels_its_axis_in_n_m_without_a_scale_factor(window, qtbot):
    """The Torque dialog opens on a constant 0 N m: its plot's axis said 'Torque [N m] (x0.001)', clipped."""
    _open_pair(window)
    got = []

    def read(dlg):
        plot = dlg.form.widgets["law"].plot
        qtbot.waitUntil(lambda: plot.isVisible())
        qtbot.wait(50)
        got.append(plot.getAxis("left").labelString())

    fill_and_ok(qtbot, {"Name": "s"}, {"joint": "gear1_joint"}, ok=False, press=read)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert got and "Torque [N m]" in got[0] and "(x" not in got[0], got


def test_a_bearing_and_a_torque_start_on_the_gear_selected_in_the_tree(window, qtbot):
    """Select gear 2, click Bearing Spring-Damper, OK: a bearing from the ground to gear 2 at gear 2's centre (the
    dialog offered ground to ground, which it then refused). Torque with gear 2 selected acts on gear 2's joint."""
    _open_pair(window)
    window.tree.select("gear2")
    fill_and_ok(qtbot, {"Name": "b"})
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    bearing = window.doc.model.forces["b"]
    assert (bearing.body_i, bearing.body_j) == ("ground", "gear2")
    assert bearing.position == window.doc.model.bodies["gear2"].position != (0.0, 0.0, 0.0)
    window.tree.select("gear2")
    fill_and_ok(qtbot, {"Name": "t"})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert window.doc.model.forces["t"].joint == "gear2_joint"


def test_a_speed_motor_shows_its_speed_in_rpm_beside_rad_per_s(window, qtbot):
    """A body's initial speed shows rad/s and rpm; the speed motor's law took rad/s alone. 100 pi rad/s reads
    '= 3000 rpm' as it is typed; a torque's law has no such line."""
    _open_pair(window)
    seen = {}

    def look(dlg):
        dlg.findChild(QLineEdit, "law_value").setText(str(100 * math.pi))
        seen["rpm"] = dlg.findChild(QLabel, "law_value_rpm").text()

    fill_and_ok(qtbot, {"Name": "m"}, {"joint": "gear1_joint"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "speed_motor"), Qt.LeftButton)
    assert seen["rpm"] == "= 3000 rpm"
    assert window.doc.model.forces["m"].law.value == pytest.approx(100 * math.pi)
    fill_and_ok(qtbot, {"Name": "t"}, {"joint": "gear1_joint"},
                press=lambda dlg: seen.update(torque=dlg.findChild(QLabel, "law_value_rpm")))
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert seen["torque"] is None


def test_a_ramp_speeds_entries_keep_their_width_and_align_as_their_rpm_grows(window, qtbot):
    """The rpm beside each speed took the width its text needed: typing a final speed of 100 rad/s
    ('= 954.93 rpm') narrowed that entry below the start speed's ('= 0 rpm')."""
    _open_pair(window)
    seen = {}

    def look(dlg):
        kind = dlg.findChild(QComboBox, "law_kind")
        kind.setCurrentIndex(kind.findText("Ramp"))
        value, final = dlg.findChild(QLineEdit, "law_value"), dlg.findChild(QLineEdit, "law_final")
        qtbot.waitUntil(lambda: final.isVisible())
        before = final.width()
        final.setText("-12345.6")
        QApplication.processEvents()
        seen.update(before=before, after=final.width(), value=value.width(),
                    text=dlg.findChild(QLabel, "law_final_rpm").text())

    fill_and_ok(qtbot, {"Name": "m"}, {"joint": "gear1_joint"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "speed_motor"), Qt.LeftButton)
    assert seen["text"] == "= -117892 rpm"  # 12345.6 x 60 / 2 pi
    assert seen["before"] == seen["after"] == seen["value"]


def test_a_new_speed_motor_keeps_its_joints_start_speed_until_its_law_is_edited(window, qtbot):
    """The example's gear1 starts at 100 rad/s and gear2 at -50 (its file): a motor's law of 0 held gear1 still
    and the run changed the start by 100 rad/s. The law now starts as the chosen joint's speed, follows the
    joint chosen while it is untouched, and the note says what the law does at t = 0."""
    _open_pair(window)
    seen = []

    def look(dlg):
        editor, note = dlg.form.widgets["law"], dlg.findChild(QLabel, "note")
        seen.append((editor.value().value, note.text()))
        dlg.form.widgets["joint"].setCurrentText("gear2_joint")
        seen.append((editor.value().value, note.text()))
        editor.fields["value"].edit.setText("30")
        editor.fields["value"].edit.editingFinished.emit()
        dlg.form.widgets["joint"].setCurrentText("gear1_joint")
        seen.append((editor.value().value, note.text()))

    fill_and_ok(qtbot, {"Name": "m"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "speed_motor"), Qt.LeftButton)
    assert seen[0] == (100.0, "gear1_joint turns at 100 rad/s (954.93 rpm) at the start; the law keeps that "
                              "speed at t = 0")
    assert seen[1] == (-50.0, "gear2_joint turns at -50 rad/s (-477.465 rpm) at the start; the law keeps that "
                              "speed at t = 0")
    assert seen[2] == (30.0, "gear1_joint turns at 100 rad/s (954.93 rpm) at the start; the law starts at 30 rad/s "
                             "(286.479 rpm): the run changes the start speeds to agree with it (its notes say by "
                             "how much)")
    motor = window.doc.model.forces["m"]
    assert (motor.joint, motor.law.value) == ("gear1_joint", 30.0)
    window.select("m")
    assert window.props.panel.findChild(QLabel, "note").text() == f"Joint speed: {seen[2][1]}"


def test_a_motors_note_on_a_lossy_pair_gives_its_steady_torque_with_the_losses_and_the_run_agrees(window, qtbot):
    """Found by a new user: the helical example's pair at efficiency 0.9, a motor holding gear 1 (20 teeth) at
    100 rad/s against 20 N m on gear 2 (40 teeth). The note said the motor's steady torque was 10 N m; the run's
    is 20 (20 / 40) / 0.9 = 11.11 N m. The note now gives both, typed into Properties as the user did."""
    _open_pair(window)
    window.apply(AddItem(E.SpeedMotor("motor", "gear1_joint", E.TimeLaw(value=100.0))))
    type_in_properties(window, qtbot, "pair", "efficiency", "0.9")
    window.apply(AddItem(E.Torque("load", "gear2_joint", E.TimeLaw(value=20.0))))
    window.select("motor")
    note = window.props.panel.findChild(QLabel, "note").text()
    assert note.endswith("in steady running the motor's torque is 11.11 N m with the losses of pair, 10 N m without "
                         "them"), note
    assert simulate(window.doc.model, t_end=0.01)["motor.torque"][-1] == pytest.approx(20 * 20 / 40 / 0.9, rel=1e-9)


def test_a_driving_motors_note_gives_its_steady_torque_against_the_loads_and_the_run_agrees(window, qtbot):
    """The reducer's motor holds its input at 100 rad/s against 10 N m on the output, 1/5 as fast: the loads come
    to -2 N m at the input, and the run's motor torque is 2 N m."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    window.select("motor")
    note = window.props.panel.findChild(QLabel, "note").text()
    assert note.endswith(". The torques referred to input_joint through the train come to -2 N m (their means over "
                         "the run): in steady running the motor's torque is 2 N m"), note
    assert simulate(window.doc.model, t_end=0.01)["motor.torque"][-1] == pytest.approx(2.0, rel=1e-9)
    window.apply(replace_fields(window.doc.model, "motor", law=E.TimeLaw()))  # a hold: no steady torque to give
    window.select("motor")
    assert "referred" not in window.props.panel.findChild(QLabel, "note").text()


def test_mesh_stiffness_is_typed_in_n_per_um_and_kept_in_n_per_m(window, qtbot):
    """Mesh and bearing stiffnesses are typed as gear data give them (ISO 6336's c' is in N/(mm um)): 400 N/um is
    4e8 N/m in the model; the dialog asked for 4e8 N/m."""
    _open_pair(window)
    units = []

    def look(dlg):
        units.extend(label.text() for label in dlg.findChildren(QLabel) if "N/" in label.text())

    fill_and_ok(qtbot, {"Name": "mesh", "stiffness": "given", "waveform": "cosine", "Mean mesh stiffness": 400,
                        "Stiffness amplitude": 120}, {"pair": "pair"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "compliant_mesh"), Qt.LeftButton)
    mesh = window.doc.model.forces["mesh"]
    assert (mesh.k_mean, mesh.k_amplitude) == (pytest.approx(4e8), pytest.approx(1.2e8))
    assert units.count("N/\u00b5m") == 2 and "N/m" not in units, units
    fill_and_ok(qtbot, {"Name": "b", "Radial stiffness": 250, "Axial stiffness": 80},
                {"body_i": "ground", "body_j": "gear1"})
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    bearing = window.doc.model.forces["b"]
    assert (bearing.radial_stiffness, bearing.axial_stiffness) == (pytest.approx(2.5e8), pytest.approx(8e7))


def test_compliant_mesh_dialog_greys_out_the_entries_its_choices_do_not_use(window, qtbot):
    _open_pair(window)
    seen = {}

    def look(dlg):
        form = dlg.form
        seen["iso"] = {n: form.widgets[n].isEnabled() for n in ("k_mean", "k_amplitude", "damping", "damping_ratio")}
        form.widgets["stiffness"].setCurrentText("given")
        form.widgets["waveform"].setCurrentText("cosine")
        form.widgets["damping_model"].setCurrentText("constant")
        seen["given"] = {n: form.widgets[n].isEnabled() for n in ("k_mean", "k_amplitude", "damping", "damping_ratio")}

    fill_and_ok(qtbot, {"Name": "mesh", "Damping (constant)": 500}, {"pair": "pair"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "compliant_mesh"), Qt.LeftButton)
    assert seen["iso"] == {"k_mean": False, "k_amplitude": False, "damping": False, "damping_ratio": True}
    assert seen["given"] == {"k_mean": True, "k_amplitude": True, "damping": True, "damping_ratio": False}
    mesh = window.doc.model.forces["mesh"]
    assert (mesh.stiffness, mesh.waveform, mesh.damping_model, mesh.damping) == ("given", "cosine", "constant", 500.0)


def test_compliant_mesh_says_the_iso_stiffness_it_will_use_and_the_mesh_mode(window, qtbot):
    """With the stiffness from ISO 6336 the dialog greyed out a 'Mean mesh stiffness' of 200 N/µm that is not the
    one used; it now says what the run will use (c_gamma_alpha b of the pair, as core's ISO 6336-1 method B gives
    it), in N/µm, and the mesh mode's frequency; a given stiffness is said as typed. Properties say the same."""
    _open_pair(window)
    pair = window.doc.model.gear_pairs["pair"]
    iso = pair_iso_stiffness(pair).c_gamma_alpha * pair.face_width * 1e-6  # N/µm
    notes = []

    def look(dlg):
        def note():
            label = dlg.findChild(QLabel, "note")
            return label.text() if label is not None else ""

        notes.append(note())
        dlg.form.widgets["stiffness"].setCurrentText("given")
        notes.append(note())
        dlg.form.widgets["stiffness"].setCurrentText("iso6336")

    fill_and_ok(qtbot, {"Name": "mesh"}, {"pair": "pair"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "compliant_mesh"), Qt.LeftButton)
    assert notes[0].startswith(f"k_mean {iso:.4g} N/µm (ISO 6336-1 method B: c_γα ")
    assert notes[1].startswith("k_mean 200 N/µm (given)")
    f_n = mesh_in_model(window.doc.model, window.doc.model.forces["mesh"])[1]
    assert f"mesh mode {f_n:.0f} Hz" in notes[0] and f_n > 1e3
    window.select("mesh")
    assert window.props.panel.findChild(QLabel, "note").text() == f"As run: {notes[0]}"


def test_a_ramp_chosen_for_a_new_speed_motor_ramps_over_the_run_instead_of_showing_an_error(window, qtbot):
    _open_pair(window)
    seen = []

    def look(dlg):
        editor = dlg.form.widgets["law"]
        seen.append((editor.message.text(), editor.fields["t_end"].value(), editor.curve.getData()[0]))

    fill_and_ok(qtbot, {"Name": "drive", "law_value": 0, "law_final": 100},
                {"joint": "gear1_joint", "law_kind": "Ramp"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "speed_motor"), Qt.LeftButton)
    t_end = window.doc.model.settings.t_end
    message, end, plotted = seen[0]
    assert message == "" and end == t_end and len(plotted) > 0
    law = window.doc.model.forces["drive"].law
    assert (law.kind, law.value, law.final, law.t_start, law.t_end) == ("ramp", 0.0, 100.0, 0.0, t_end)


def test_a_bearing_added_beside_a_gears_joint_carries_the_gear_after_the_double_click_fix(window, qtbot):
    """Helical pair, gear 2 selected, Bearing Spring-Damper, OK: Messages warns that the joint holds gear 2 and
    offers the fix; a double-click marks the joint on_bearing and gives the pair a compliant mesh, in one undo
    step, and the properties show the joint's new field as a ticked box."""
    _open_pair(window)
    window.tree.select("gear2")
    fill_and_ok(qtbot, {"Name": "b2"})
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    listed = window.messages.list
    row = next(i for i in range(listed.count()) if listed.item(i).text().startswith("warning: b2: runs beside joint"))
    assert listed.item(row).text().endswith("[double-click: Let the bearing carry the shaft]")
    at = listed.visualItemRect(listed.item(row)).center()
    qtbot.mouseClick(listed.viewport(), Qt.LeftButton, pos=at)
    qtbot.mouseDClick(listed.viewport(), Qt.LeftButton, pos=at)
    model = window.doc.model
    assert model.joints["gear2_joint"].on_bearing
    assert [(f.name, f.pair) for f in model.forces.values() if isinstance(f, E.CompliantMesh)] == [("pair_mesh", "pair")]
    assert not [f for f in window.doc.findings if f.severity == "error" or f.item == "b2"]
    window.select("gear2_joint")
    box = window.props.form.widgets["on_bearing"]
    label = window.props.form.form.labelForField(box).text()
    assert box.isChecked() and label == "Carried by a bearing (the joint keeps its axis)"
    window.doc.undo_stack.undo()
    assert not model.joints["gear2_joint"].on_bearing and "pair_mesh" not in model.forces


def test_a_torque_says_which_way_it_turns_its_gear(window, qtbot):
    """A torque's sign was said nowhere but in the manual: the dialog and Properties now say it, and the run
    agrees: a positive torque on the helical example's gear1 (axis +z, from rest) turns it the positive way."""
    _open_pair(window)
    model = window.doc.model
    for name in ("gear1", "gear2"):
        window.apply(replace_fields(model, name, angular_velocity=(0.0, 0.0, 0.0)))
    seen = []

    def look(dlg):  # as the dialog opens (0 N m), then as typed
        seen.append(dlg.findChild(QLabel, "note").text())
        dlg.findChild(QLineEdit, "law_value").setText("5")
        dlg.findChild(QLineEdit, "law_value").editingFinished.emit()
        seen.append(dlg.findChild(QLabel, "note").text())

    fill_and_ok(qtbot, {"Name": "drive", "law_value": 0}, {"joint": "gear1_joint"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    way = ("a positive torque turns gear1 about gear1_joint's axis (0, 0, 1) by the right-hand rule; ground takes the "
           "reaction")
    assert seen == [f"{way}; as entered its law is 0 at every time: it loads nothing", way]
    window.select("drive")
    assert window.props.panel.findChild(QLabel, "note").text() == f"Direction: {seen[1]}"
    res = simulate(window.doc.model, t_end=0.01)
    assert res["gear1_joint.speed"][-1] > 0 and res["gear1.wz"][-1] > 0


def test_a_torque_on_a_turned_gear_names_its_axis_without_round_off_or_a_negative_zero(window, qtbot):
    """Found by a new user: a bevel gear made with axis (1, 0, 0) and given a joint by the Gear Pair dialog has the
    axis (1, 0, 2.22e-16), and the Torque dialog printed it so; at 0 N m through a ratio of -2 it read '-0 N m'."""
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    model = window.doc.model
    turned = tuple(float(v) for v in quat_matrix(quat_about((0.0, 1.0, 0.0), math.pi / 2))[:, 2])
    assert turned != (1.0, 0.0, 0.0)
    window.apply(replace_fields(model, "pinion_joint", axis=turned))
    window.apply(AddItem(E.SpeedMotor("motor", "gear_joint", E.TimeLaw(value=100.0))))
    seen = []
    fill_and_ok(qtbot, {"Name": "load", "law_value": 0}, {"joint": "pinion_joint"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert "about pinion_joint's axis (1, 0, 0) by the right-hand rule" in seen[0]
    assert "turns at -2 times gear_joint's speed: 0 N m here is 0 N m at gear_joint" in seen[0]


def test_a_load_says_what_it_is_at_the_drive_through_the_train_and_the_run_bears_it_out(window, qtbot):
    """A load on the driven gear of an external pair turns it the way the drive does when its sign is the drive's
    (the gears turn apart): the note refers it to the drive's joint and says so. The run agrees: from rest, gear 1
    speeds up in proportion to the drive plus the referred load, 10 + 7.5 against 10 - 7.5 N m."""
    _open_pair(window)
    model = window.doc.model
    for name in ("gear1", "gear2"):
        window.apply(replace_fields(model, name, angular_velocity=(0.0, 0.0, 0.0)))
    window.apply(AddItem(E.Torque("drive", "gear1_joint", E.TimeLaw(value=10.0))))
    pair = model.gear_pairs["pair"]
    ratio = -pair.z1 / pair.z2
    seen = []

    def look(dlg):
        for value in ("-15", "15"):
            dlg.findChild(QLineEdit, "law_value").setText(value)
            dlg.findChild(QLineEdit, "law_value").editingFinished.emit()
            seen.append(dlg.findChild(QLabel, "note").text().split(". ", 1)[1])

    fill_and_ok(qtbot, {"Name": "load"}, {"joint": "gear2_joint"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    way = f"Through the train gear2_joint turns at {ratio:.4g} times gear1_joint's speed"
    assert seen == [f"{way}: -15 N m here is {-15 * ratio:.4g} N m at gear1_joint; it turns the train the way drive "
                    "does (a load resisting drive is positive here)",
                    f"{way}: 15 N m here is {15 * ratio:.4g} N m at gear1_joint; it resists drive"]
    gained = []
    for value in (-15.0, 15.0):
        window.apply(replace_fields(model, "load", law=E.TimeLaw(value=value)))
        gained.append(simulate(window.doc.model, t_end=0.01)["gear1_joint.speed"][-1])
    assert gained[0] / gained[1] == pytest.approx((10 - 15 * ratio) / (10 + 15 * ratio), rel=1e-6)


def test_a_spring_damper_says_its_length_and_tension_at_the_start_as_the_run_finds_them(window, qtbot):
    """Ends on the ground at x = 100 mm and on gear2 at 20 mm along its x axis (gear2 at x = 60 mm, turned about z
    by the example's mesh phase), 1000 N/m, free 10 mm: the note's tension is the run's first sample of the
    spring's force channel (the engine's own evaluation), and its length the closed form of the two ends."""
    _open_pair(window)
    seen = []
    fill_and_ok(qtbot, {"Name": "spring", "Point on body I (body axes) x": 100, "Point on body J (body axes) x": 20,
                        "Stiffness": 1000, "Free length": 10}, {"body_i": "ground", "body_j": "gear2"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "spring_damper"), Qt.LeftButton)
    res = simulate(window.doc.model, t_end=0.001)
    tension = float(res["spring.force"][0])
    length = 10 + tension / 1000 * 1e3  # mm
    assert seen[0] == f"its ends are {length:.6g} mm apart at the start (free length 10 mm): a tension of {tension:.6g} N"
    w, _, _, z = window.doc.model.bodies["gear2"].orientation  # a turn about +z
    turn = 2 * math.atan2(z, w)
    assert length == pytest.approx(math.hypot(100 - 60 - 20 * math.cos(turn), 20 * math.sin(turn)), rel=1e-9)


def test_a_bearing_says_the_modes_of_its_shaft_alone_on_it_as_a_run_of_it_rings(window, qtbot):
    """Gear2 of the helical example (0.734 kg) on a bearing of 100 N/µm: radial and axial modes sqrt(k / m) /
    (2 pi) = 1857 Hz. The same gear alone on that bearing, started sideways at 10 mm/s, rings at that frequency in
    a run (its zero crossings, dop853 at rtol 1e-10): the engine's answer, not the note's formula."""
    _open_pair(window)
    gear = window.doc.model.bodies["gear2"]
    seen = []
    fill_and_ok(qtbot, {"Name": "brg"}, {"body_i": "ground", "body_j": "gear2"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    bearing = window.doc.model.forces["brg"]
    alone = Model("alone")
    alone.bodies["gear2"] = dataclasses.replace(gear, velocity=(0.01, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0))
    alone.forces["brg"] = bearing
    res = simulate(alone, t_end=0.005, integrator="dop853", rtol=1e-10, atol=1e-14, step=1e-5, output_step=1e-6,
                   formulation="cartesian")
    x = res["gear2.x"] - gear.position[0]
    k = np.nonzero(np.diff(np.sign(x[1:])))[0] + 1  # crossings between samples k and k + 1
    crossings = res.time[k] - x[k] * (res.time[k + 1] - res.time[k]) / (x[k + 1] - x[k])
    ringing = 1.0 / (2 * np.mean(np.diff(crossings)))
    assert ringing == pytest.approx(math.sqrt(1e8 / gear.mass) / (2 * math.pi), rel=1e-6)
    critical = 2 * math.sqrt(1e8 * gear.mass)
    undamped = f"{ringing:.0f} Hz undamped (5 % of critical is {0.05 * critical:.4g} N s/m)"
    assert seen[0].startswith(f"radial mode {undamped}, axial mode {undamped}, tilt mode ")
    assert seen[0].endswith(f"(gear2 alone on it, {gear.mass:.4g} kg, {tilt_inertia(gear, bearing):.4g} kg m^2 "
                            "about a tilt axis)")


def test_a_bearing_says_the_tilt_mode_of_its_shaft_as_a_run_of_it_tilting_rings(window, qtbot):
    """The bearing's tilt stiffness (1e6 N m/rad by default) said nothing. Gear2 alone on it at its centre: the tilt
    mode sqrt(k_t / J) / (2 pi), J about a diameter, m (3 r^2 + b^2) / 12 for a disc, here the gear's own mesh
    (0.000337 kg m^2: 8669 Hz). Started tilting at 0.01 rad/s about x, it rings at that frequency in a run (the
    zero crossings of its spin about x), and the note says it."""
    _open_pair(window)
    gear = window.doc.model.bodies["gear2"]
    assert gear.position == pytest.approx((0.06, 0.0, 0.0))  # the bearing at its centre: tilt alone
    seen = []
    fill_and_ok(qtbot, {"Name": "brg", "Position x": 60}, {"body_i": "ground", "body_j": "gear2"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    bearing = window.doc.model.forces["brg"]
    j = tilt_inertia(gear, bearing)
    r_pitch, b = 0.5 * gear.visual.spec.module * gear.visual.spec.teeth, gear.visual.spec.face_width
    assert j == pytest.approx(gear.mass * (3 * r_pitch ** 2 + b ** 2) / 12, rel=0.1)  # about a disc's
    alone = Model("alone")
    alone.bodies["gear2"] = dataclasses.replace(gear, velocity=(0.0, 0.0, 0.0), angular_velocity=(0.01, 0.0, 0.0))
    alone.forces["brg"] = bearing
    res = simulate(alone, t_end=0.002, integrator="dop853", rtol=1e-10, atol=1e-14, step=1e-6, output_step=2e-7,
                   formulation="cartesian")
    w = res["gear2.wx"]
    k = np.nonzero(np.diff(np.sign(w[1:])))[0] + 1
    crossings = res.time[k] - w[k] * (res.time[k + 1] - res.time[k]) / (w[k + 1] - w[k])
    ringing = 1.0 / (2 * np.mean(np.diff(crossings)))
    assert ringing == pytest.approx(math.sqrt(1e6 / j) / (2 * math.pi), rel=1e-4)
    assert f"tilt mode {ringing:.0f} Hz undamped (5 % of critical is {0.05 * 2 * math.sqrt(1e6 * j):.4g} N m s/rad)" \
        in seen[0]


def test_a_bearing_says_its_damping_as_a_share_of_critical_as_a_run_of_it_decays(window, qtbot):
    """A damping typed in N s/m said nothing of how fast a knock dies out. The note now gives the damping ratio
    c / (2 sqrt(k m)), and for an undamped bearing the c of 5 %. Gear2 alone on the bearing with that c, started
    sideways, decays in a run by the logarithmic decrement of 5 %: successive peaks in the ratio
    exp(-2 pi zeta / sqrt(1 - zeta^2)) = 0.7301 (the engine's answer, not the note's formula)."""
    _open_pair(window)
    gear = window.doc.model.bodies["gear2"]
    c = 0.05 * 2 * math.sqrt(1e8 * gear.mass)
    seen = []
    fill_and_ok(qtbot, {"Name": "brg", "Radial damping": f"{c:.12g}"}, {"body_i": "ground", "body_j": "gear2"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "bearing"), Qt.LeftButton)
    assert seen[0].startswith("radial mode 1857 Hz at 5 % of critical damping, axial mode 1857 Hz undamped")
    assert ", tilt mode " in seen[0]
    alone = Model("alone")
    alone.bodies["gear2"] = dataclasses.replace(gear, velocity=(0.01, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0))
    alone.forces["brg"] = window.doc.model.forces["brg"]
    res = simulate(alone, t_end=0.004, integrator="dop853", rtol=1e-10, atol=1e-14, step=1e-5, output_step=1e-6,
                   formulation="cartesian")
    x = res["gear2.x"] - gear.position[0]
    peaks = [x[i] for i in range(1, len(x) - 1) if x[i - 1] < x[i] >= x[i + 1] and x[i] > 0]
    zeta = 0.05
    assert len(peaks) >= 5
    assert np.allclose(np.array(peaks[1:]) / peaks[:-1], math.exp(-2 * math.pi * zeta / math.sqrt(1 - zeta ** 2)),
                       rtol=1e-4)


def test_a_torsional_spring_damper_says_its_mode_and_start_torque_as_a_run_of_it_rings(window, qtbot):
    """100 N m/rad on gear2's joint of the helical pair. The note gave the mode of gear2 alone on it (63.66 Hz),
    but gear2 turns gear1 (20 teeth to its 40): the spring turns J2 + J1 (40 / 20)^2, and the model rings at
    56.95 Hz. The note now gives the train's mode, and the torque k theta0 its angle at rest puts on the gear at
    the start; the user's own model rings at that frequency in a run, and its first torque sample is k theta0."""
    _open_pair(window)
    seen = []
    fill_and_ok(qtbot, {"Name": "tsd", "Stiffness": 100, "Angle at rest": 5}, {"joint": "gear2_joint"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "torsional_spring_damper"), Qt.LeftButton)
    model = window.doc.model
    res = simulate(model, t_end=0.05, integrator="dop853", rtol=1e-10, atol=1e-14, step=1e-4, output_step=1e-5)
    w = res["gear2_joint.speed"]
    k = np.nonzero(np.diff(np.sign(w[1:])))[0] + 1
    crossings = res.time[k] - w[k] * (res.time[k + 1] - res.time[k]) / (w[k + 1] - w[k])
    ringing = 1.0 / (2 * np.mean(np.diff(crossings)))
    j = 100.0 / (2 * math.pi * ringing) ** 2  # the inertia the engine turned
    j1, j2 = polar_inertia(model, "gear1_joint"), polar_inertia(model, "gear2_joint")
    assert j == pytest.approx(j2 + j1 * (40 / 20) ** 2, rel=1e-6)
    start = float(res["tsd.torque"][0])
    assert start == pytest.approx(100 * math.radians(5), rel=1e-12)
    assert seen == [f"torsional mode {ringing:.4g} Hz undamped (5 % of critical is {0.1 * math.sqrt(100 * j):.4g} "
                    f"N m s/rad); at the start it puts {start:.6g} N m on gear2 about the axis (its angle at rest is "
                    f"5 deg from the start's) (the gear train on it: {j:.4g} kg m^2 referred to gear2_joint's axis, "
                    "its meshes rigid)"]


def test_a_torsional_springs_note_on_a_train_in_hubs_turns_the_train_with_its_supports_held(window, qtbot):
    """The compliant planetary example floats every member in a hub on a bearing and spring arms (no joint
    coordinates). A torsional spring on sun_joint gave the sun against its hub (5.85e-06 kg m^2); it turns the
    train, its hubs held: the energy method's 0.0003509 kg m^2, and the note says the supports are held."""
    window.open_file(EXAMPLES / "compliant_planetary.gdyn")
    seen = []
    fill_and_ok(qtbot, {"Name": "tsd", "Stiffness": 100}, {"joint": "sun_joint"},
                press=lambda dlg: seen.append(dlg.findChild(QLabel, "note").text()))
    qtbot.mouseClick(toolbar_button(window, "torsional_spring_damper"), Qt.LeftButton)
    j = hub_planetary_sun_inertia(window.doc.model)
    assert seen == [f"torsional mode {math.sqrt(100 / j) / (2 * math.pi):.4g} Hz undamped (5 % of critical is "
                    f"{0.1 * math.sqrt(100 * j):.4g} N m s/rad) (the gear train on it: {j:.4g} kg m^2 referred to "
                    "sun_joint's axis, its meshes rigid, its supports held)"]


def test_an_add_dialogs_note_follows_each_key_typed_into_a_number(window, qtbot):
    """The Torsional Spring-Damper's note said 'no stiffness' while 100 was typed, until the entry was left: the
    notes of the add dialogs follow each key, as the gear dialogs and the law's plot do. A number half typed
    ('1e') leaves the last note."""
    _open_pair(window)
    seen = []

    def type_stiffness(dlg):
        edit = dlg.findChild(QLineEdit, "Stiffness")
        note = dlg.findChild(QLabel, "note")
        seen.append(note.text())
        edit.clear()
        qtbot.keyClicks(edit, "100")
        seen.append(note.text())
        qtbot.keyClicks(edit, "e")
        seen.append(note.text())

    fill_and_ok(qtbot, {"Name": "tsd"}, {"joint": "gear2_joint"}, press=type_stiffness, ok=False)
    qtbot.mouseClick(toolbar_button(window, "torsional_spring_damper"), Qt.LeftButton)
    model = window.doc.model  # gear2 turns gear1 (20 teeth to its 40): J2 + J1 (40 / 20)^2
    j = polar_inertia(model, "gear2_joint") + polar_inertia(model, "gear1_joint") * (40 / 20) ** 2
    assert seen[0].startswith("no stiffness: it holds no angle")
    assert seen[1].startswith(f"torsional mode {math.sqrt(100 / j) / (2 * math.pi):.4g} Hz undamped")
    assert seen[2] == seen[1]


def test_the_notes_of_loads_on_a_fixed_joint_are_empty_and_the_checks_say_why():
    """A file may name a fixed joint as a motor's joint (the model's checks refuse it): the note has no axis to
    measure a speed about, and says nothing rather than fail."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.joints["weld"] = E.FixedJoint("weld", E.GROUND, "gear1")
    motor = E.SpeedMotor("m", "weld", E.TimeLaw())
    assert motor_note(model, motor) == ""
    assert torque_note(model, E.Torque("t", "weld", E.TimeLaw(value=1.0))) == ""
    assert model.item_problems(motor)  # refused, naming the joint field


def test_choosing_a_table_law_in_the_properties_asks_for_the_csv_and_sets_it_in_one_undoable_edit(
        window, qtbot, tmp_path, monkeypatch):
    window.open_file(EXAMPLES / "planetary.gdyn")
    boxes = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: boxes.append(a[2]))
    before = window.doc.model.forces["sun_torque"].law
    window.select("sun_torque")
    # the chooser cancelled: no error box, the model keeps its law, the editor waits for a table
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    editor = window.props.form.widgets["law"]
    editor.kind.setCurrentText("Table (CSV)")
    assert boxes == [] and window.doc.model.forces["sun_torque"].law == before
    editor = window.props.form.widgets["law"]
    assert editor.kind.currentText() == "Table (CSV)" and editor.load.isVisibleTo(editor)
    assert "Load CSV" in editor.message.text()
    # the chooser answered: the table is the law, in one command
    table = tmp_path / "torque.csv"
    table.write_text("time [s],torque [N m]\n0,0\n0.5,2\n1,2\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(table), ""))
    count = window.doc.undo_stack.count()
    qtbot.mouseClick(editor.load, Qt.LeftButton)
    law = window.doc.model.forces["sun_torque"].law
    assert boxes == [] and law.kind == "table" and law.table == ((0.0, 0.0), (0.5, 2.0), (1.0, 2.0))
    assert window.doc.undo_stack.count() == count + 1
    window.act_undo.trigger()
    assert window.doc.model.forces["sun_torque"].law == before
    # chosen again from the kind list, with the chooser answering at once
    window.select("sun_torque")
    window.props.form.widgets["law"].kind.setCurrentText("Table (CSV)")
    assert boxes == [] and window.doc.model.forces["sun_torque"].law.table == law.table


def test_a_laws_plot_follows_each_key_typed_and_a_half_typed_number_leaves_it_as_it_was(window, qtbot):
    """The Speed Motor dialog's rpm line followed each key, its plot and note only Tab or Return: typing 2 then 5
    into the value showed the old law beside '= 238.7 rpm'. The plot and the note now follow each key that leaves
    a number; a '-' half typed leaves the last law drawn and says nothing until the entry is finished."""
    _open_pair(window)
    seen = {}

    def look(dlg):
        edit = dlg.findChild(QLineEdit, "law_value")
        editor = dlg.form.widgets["law"]
        edit.selectAll()
        qtbot.keyClicks(edit, "25")
        seen["typed"] = sorted(set(editor.curve.getData()[1]))
        seen["rpm"] = dlg.findChild(QLabel, "law_value_rpm").text()
        seen["note"] = dlg.note.text()
        edit.selectAll()
        qtbot.keyClicks(edit, "-")
        seen["half"] = sorted(set(editor.curve.getData()[1])), editor.message.text()
        qtbot.keyClicks(edit, "4")

    fill_and_ok(qtbot, {"Name": "m"}, {"joint": "gear1_joint"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "speed_motor"), Qt.LeftButton)
    assert seen["typed"] == [25.0] and seen["rpm"] == "= 238.732 rpm"
    assert "the law starts at 25 rad/s (238.732 rpm)" in seen["note"]
    assert seen["half"] == ([25.0], "")
    assert window.doc.model.forces["m"].law.value == -4.0
