"""Building models in the real window with the toolbar and its dialogs (clicks and typing, no calls on the model)."""

import dataclasses
import math

import numpy as np
import pytest
import trimesh
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QFileDialog, QLabel, QLineEdit, QMessageBox,
                               QPushButton)

from app.dialogs.planetary_sketch import PlanetarySketch
from core.commands import AddItem, RemoveItem, SetSettings
from core.dynamics.simulate import simulate
from core.gearing.gear_bodies import own_axis_joint
from core.geometry.macro import GearSpec
from core.geometry.mesh_import import import_mesh
from core.model import builders
from core.model.entities import BearingSpringDamper, CompliantMesh
from core.model.files import load
from tests.app.conftest import answer_boxes, fill_and_ok, toolbar_button
from tests.conftest import EXAMPLES
from tests.core.test_mesh_import import _gear_without_its_face

GEAR = {"Normal module": 2, "Normal pressure angle": 20, "Face width": 20}
# a helical gear of transverse module 2 mm at beta = 15 deg, as the gear dialog takes it: m_n = m_t cos(beta)
HELICAL = {**GEAR, "Normal module": 2 * math.cos(math.radians(15)), "Helix angle": 15}


def _build_helical_pair(window, qtbot):
    fill_and_ok(qtbot, {"Name": "gear1", **HELICAL, "Number of teeth": 20, "Bore diameter": 12})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "gear2", **HELICAL, "hand": "Left", "Number of teeth": 40, "Bore diameter": 20,
                        "Position x": 60})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "gear1_joint"}, {"body_i": "ground", "body_j": "gear1"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "gear2_joint"}, {"body_i": "ground", "body_j": "gear2"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "pair", "z1": 20, "z2": 40, "Normal module": HELICAL["Normal module"],
                        "Normal pressure angle": 20, "Helix angle gear 1": 15, "Face width": 20},
                {"kind": "external", "joint1": "gear1_joint", "joint2": "gear2_joint", "carrier": "ground"})
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)


def _two_gears_on_joints(window, qtbot, tool: str, first: dict, second: dict) -> None:
    for fields in (first, second):
        fill_and_ok(qtbot, fields)
        qtbot.mouseClick(toolbar_button(window, tool), Qt.LeftButton)
    for n in (first["Name"], second["Name"]):
        fill_and_ok(qtbot, {"Name": f"{n}_joint"}, {"body_i": "ground", "body_j": n})
        qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)


def _check_move_check(qtbot, messages):
    """A dialog action: note the rule checks, press 'move gear 2', note them again and the derived values."""

    def act(dlg):
        messages.append(dlg.checks.text())
        qtbot.mouseClick(dlg.findChild(QPushButton, "move_gear2"), Qt.LeftButton)
        messages.append(dlg.checks.text())
        messages.append(dlg.derived.text())

    return act


def _bevel_pair_checked(window, qtbot, wheel: dict) -> list[str]:
    """A 20/40 bevel pinion and wheel (m 3 mm) from the Bevel Gear dialog, the wheel with the `wheel` fields on
    top, each on a revolute joint to the ground; then Gear Pair with `_check_move_check`: its messages."""
    bevel = {"Module": 3, "Normal pressure angle": 20, "Face width": 20}
    _two_gears_on_joints(window, qtbot, "bevel_gear",
                         {"Name": "pinion", **bevel, "Number of teeth": 20, "Pitch angle": 26.56505117707799,
                          "Bore diameter": 12},
                         {"Name": "wheel", **bevel, "Number of teeth": 40, "Pitch angle": 63.43494882292201,
                          "Bore diameter": 20, **wheel})
    messages = []
    fill_and_ok(qtbot, {"Name": "p", "z1": 20, "z2": 40, "Normal module": 3,
                        "Pitch angle gear 1": 26.56505117707799},
                {"kind": "bevel", "joint1": "pinion_joint", "joint2": "wheel_joint", "carrier": "ground"},
                press=_check_move_check(qtbot, messages))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    return messages


def test_build_the_helical_pair_save_reopen_and_compare_to_the_example(window, qtbot, tmp_path, monkeypatch):
    _build_helical_pair(window, qtbot)
    model = window.doc.model
    assert list(model.bodies) == ["gear1", "gear2"] and list(model.joints) == ["gear1_joint", "gear2_joint"]
    assert [f for f in window.doc.findings if f.severity != "info" and not f.message.startswith("nothing loads")] == []
    target = tmp_path / "built.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.act_save_as.trigger()
    assert window.windowTitle() == "GearDyn - built.gdyn"
    window.doc.new()
    assert window.open_file(target)
    built, example = load(target), load(EXAMPLES / "helical_pair.gdyn")
    assert built.gear_pairs["pair"] == example.gear_pairs["pair"]
    for name in ("gear1", "gear2"):
        a, b = built.bodies[name], example.bodies[name]
        assert a.visual == b.visual and a.mass == pytest.approx(b.mass, rel=1e-12)
        assert np.allclose(a.inertia, b.inertia, rtol=1e-9, atol=1e-15)
        assert np.allclose(a.position, b.position, atol=1e-15)
    for name in ("gear1_joint", "gear2_joint"):
        a, b = built.joints[name], example.joints[name]
        assert (a.body_i, a.body_j) == (b.body_i, b.body_j)
        assert np.allclose(a.position, b.position, atol=1e-15) and np.allclose(a.axis, b.axis)


def test_gear_mass_properties_come_from_the_mesh_and_show_in_the_properties(window, qtbot):
    fill_and_ok(qtbot, {"Name": "g", **GEAR, "Number of teeth": 30, "Helix angle": 0, "Bore diameter": 10})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    body = window.doc.model.bodies["g"]
    # a spur gear is close to a disc of its pitch radius (30 mm): m ~ rho pi (r^2 - r_bore^2) b
    assert body.mass == pytest.approx(7850 * math.pi * (0.03**2 - 0.005**2) * 0.02, rel=0.05)
    window.select("g")
    texts = " ".join(label.text() for label in window.props.widget().findChildren(QLabel))
    assert f"{body.mass:.6g}" in texts


def test_out_of_range_field_says_the_range_and_leaves_the_model(window, qtbot):
    seen = []
    fill_and_ok(qtbot, {"Name": "bad", **GEAR, "Normal module": -1, "Number of teeth": 20, "Bore diameter": 10}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert seen and "Normal module: must be a number from 0.1 to 100 mm, got -1 mm" in seen[0]
    assert window.doc.model.is_empty()
    seen.clear()
    fill_and_ok(qtbot, {"Name": "bad", **GEAR, "Number of teeth": 20, "Bore diameter": 50}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert seen and "Bore diameter" in seen[0] and "mm" in seen[0]
    assert window.doc.model.is_empty() and not window.doc.undo_stack.count()


def test_pair_dialog_reports_the_rules_and_moves_gear_2(window, qtbot):
    _two_gears_on_joints(window, qtbot, "helical_gear", {"Name": "a", **GEAR, "Number of teeth": 20, "Bore diameter": 10},
                         {"Name": "b", **GEAR, "Number of teeth": 40, "Bore diameter": 10, "Position x": 75})
    messages = []
    check_then_move = _check_move_check(qtbot, messages)

    fill_and_ok(qtbot, {"Name": "p", "z1": 20, "z2": 40, "Normal module": 2, "Helix angle gear 1": 0},
                {"joint1": "a_joint", "joint2": "b_joint", "carrier": "ground"}, press=check_then_move)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "75 mm apart" in messages[0] and "60 mm" in messages[0]
    assert messages[1] == "All gear rules hold."
    model = window.doc.model
    assert model.joints["b_joint"].position[0] == pytest.approx(0.060)
    assert model.bodies["b"].position[0] == pytest.approx(0.060)
    assert not [f for f in window.doc.findings if f.severity == "error"]
    window.act_undo.trigger()  # the pair and the move are one step
    assert "p" not in model.gear_pairs and model.joints["b_joint"].position[0] == pytest.approx(0.075)


def test_undo_to_empty_and_redo_to_full(window, qtbot):
    _build_helical_pair(window, qtbot)
    full = window.doc.model.copy()
    assert window.act_undo.text() == "&Undo Add gear pair pair"
    count = window.doc.undo_stack.count()
    for _ in range(count):
        window.act_undo.trigger()
    assert window.doc.model.is_empty()
    for _ in range(count):
        window.act_redo.trigger()
    assert window.doc.model == full


def test_ctrl_shift_z_and_ctrl_y_both_redo_from_the_keyboard(window, qtbot):
    """Ctrl+Y redid nothing (only Ctrl+Shift+Z did); a user from other desktop tools reaches for either."""
    _build_helical_pair(window, qtbot)
    full = window.doc.model.copy()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    for keys in ((Qt.Key_Y, Qt.ControlModifier), (Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)):
        window.act_undo.trigger()
        assert window.doc.model != full
        qtbot.keyClick(QApplication.focusWidget() or window, keys[0], keys[1])
        assert window.doc.model == full


def test_delete_says_what_depends_on_it(window, qtbot, monkeypatch):
    window.open_file(EXAMPLES / "planetary.gdyn")
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    window.select("planet2")
    window.act_delete.trigger()
    assert "planet2_joint" in asked[0] and "sun_planet2" in asked[0] and "planet2_ring" in asked[0]
    assert "planet2" not in window.doc.model.bodies
    window.act_undo.trigger()
    assert "planet2" in window.doc.model.bodies and "sun_planet2" in window.doc.model.gear_pairs


def test_planetary_wizard_builds_a_set_that_validates_clean(window, qtbot):
    seen = []
    fill_and_ok(qtbot, {"Sun teeth": 24, "Planet teeth": 24, "Ring teeth": 70, "Number of planets": 3}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert seen and "Ring teeth: must be z_s + 2 z_p = 72" in seen[0] and window.doc.model.is_empty()
    seen.clear()
    fill_and_ok(qtbot, {"Sun teeth": 24, "Planet teeth": 24, "Ring teeth": 72, "Number of planets": 5}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert seen and "(z_s + z_r) / N must be a whole number" in seen[0] and window.doc.model.is_empty()
    fill_and_ok(qtbot, {"Sun teeth": 24, "Planet teeth": 24, "Ring teeth": 72, "Number of planets": 3,
                        "Input torque on the sun": 0})
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    model = window.doc.model
    assert set(model.bodies) == {"sun", "carrier", "planet1", "planet2", "planet3", "ring"}
    assert len(model.gear_pairs) == 6
    # asked for no input torque, the wizard places the gears only: the one warning says nothing drives them
    assert [(f.severity, f.item) for f in window.doc.findings if f.severity != "info"] == [("warning", "forces")]
    assert any(f.message.startswith("nothing loads or drives the model") for f in window.doc.findings)
    assert window.doc.undo_stack.count() == 1  # one undoable step


def test_planetary_wizard_makes_compliant_meshes_and_the_step_warnings_fix_runs_them_accurately(window, qtbot):
    """A compliant planetary took six Compliant Mesh dialogs after the wizard; one box makes them. The model check
    then finds RK4's default 1 ms step unstable on their modes (a run failed on constraint drift at 4 ms); its
    advice alone (a step just under the stable one) gave tooth forces a few percent off. A double-click on the
    warning integrates with dop853 at the model's rtol: the tooth forces then agree with dop853 at rtol 1e-12 to
    5e-6 of their largest value (over these 10 ms 3.6e-6, in 5,135 evaluations; dopri5, the fix before, 3.0e-7
    in 7,400; over 50 ms dop853's error stays between 3e-7 and 3e-6 of the largest force in every 5 ms)."""
    def tick(dlg):
        box = dlg.findChild(QCheckBox, "compliant_meshes")
        qtbot.mouseClick(box, Qt.LeftButton, pos=box.rect().topLeft() + QPoint(8, box.height() // 2))
        assert box.isChecked()

    fill_and_ok(qtbot, {"Sun teeth": 24, "Planet teeth": 24, "Ring teeth": 72, "Number of planets": 3}, press=tick)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    model = window.doc.model
    meshes = {f.pair: f.name for f in model.forces.values() if isinstance(f, CompliantMesh)}
    assert meshes == {p: f"{p}_mesh" for p in model.gear_pairs} and len(meshes) == 6
    step = [f for f in window.doc.findings if f.item == "settings.step"]
    assert len(step) == 1 and "RK4 is unstable at 0.001 s on the model's fastest mode" in step[0].message
    listed = window.messages.list
    row = next(i for i in range(listed.count()) if "RK4 is unstable" in listed.item(i).text())
    assert listed.item(row).text().endswith("[double-click: Integrate with dop853 (adaptive steps)]")
    at = listed.visualItemRect(listed.item(row)).center()
    qtbot.mouseClick(listed.viewport(), Qt.LeftButton, pos=at)
    qtbot.mouseDClick(listed.viewport(), Qt.LeftButton, pos=at)
    assert (model.settings.integrator, model.settings.rtol) == ("dop853", 1e-8)
    assert not [f for f in window.doc.findings if f.item == "settings.step"]
    assert window.statusBar().currentMessage() == ("Integrate with dop853 (adaptive steps): done (Edit > Undo takes "
                                                   "it back)")
    window.doc.apply(SetSettings(model, dataclasses.replace(model.settings, t_end=0.01, output_step=1e-4)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    res = window.doc.current.results
    assert res.status == "finished", res.message
    ref = simulate(model, integrator="dop853", rtol=1e-12, atol=1e-14, step=1e-6)
    forces = [f"{pair}.Ft" for pair in meshes]
    got, want = np.array([res[c] for c in forces]), np.array([ref[c] for c in forces])
    assert np.abs(got - want).max() <= 5e-6 * np.abs(want).max(), np.abs(got - want).max() / np.abs(want).max()
    window.doc.undo_stack.undo()  # the end time, then the fix: one undoable step
    window.doc.undo_stack.undo()
    assert (model.settings.integrator, model.settings.t_end) == ("rk4", 1.0)


def test_planetary_wizard_shows_ratio_and_centre_distance_and_refuses_planets_that_touch(window, qtbot):
    """24/24/72 at m 2 mm: ratio 1 + 72 / 24 = 4, a = 48 mm. Six planets are whole by assembly ((24 + 72) / 6 = 16)
    but 2 a sin(30 deg) = 48 mm between centres is less than a planet's tip circle d_a = 2 (24 + 2) = 52 mm."""
    seen, derived = [], []
    fill_and_ok(qtbot, {"Number of planets": 6}, seen=seen,
                press=lambda dlg: derived.append(dlg.findChild(QLabel, "derived").text()))
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert derived[0].startswith("Number of planets: 6 planets touch each other: their centres are 2 a sin(pi / N) = "
                                 "48 mm apart, their tip circles d_a = 52 mm")
    assert seen and seen[0] == derived[0] and window.doc.model.is_empty()
    fill_and_ok(qtbot, {"Number of planets": 4}, ok=False,
                press=lambda dlg: derived.append(dlg.findChild(QLabel, "derived").text()))
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert derived[1] == ("ratio sun to carrier with the ring held 1 + z_r / z_s = 4; centre distance a = 48 mm; "
                          "every condition holds")


def test_planetary_wizard_says_a_load_out_of_range_as_it_is_typed_not_every_condition_holds(window, qtbot):
    """A carrier load of -4 N m (the field takes the load against the input, 0 or more) was refused on OK, under a
    green 'every condition holds'. The live line now names the field and its range as soon as it is typed, and
    the set's line comes back with a load in range."""
    seen, derived = [], []

    def look(dlg):
        load = dlg.findChild(QLineEdit, "Load torque on the carrier")
        load.selectAll()
        qtbot.keyClicks(load, "-4")  # typed, not yet left
        derived.append(dlg.findChild(QLabel, "derived").text())
        derived.append(len(dlg.sketch.gears))  # the set is still drawn: sun, ring and 3 planets
        load.selectAll()
        qtbot.keyClicks(load, "4")
        derived.append(dlg.findChild(QLabel, "derived").text())

    fill_and_ok(qtbot, {}, ok=False, seen=seen, press=look)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert derived[0] == "Load torque on the carrier: must be a number from 0 to 1e+06 N m, got -4 N m"
    assert derived[1] == 5
    assert derived[2].endswith("every condition holds")


def test_planetary_wizard_gives_every_mesh_its_efficiency_and_shows_the_sets_by_willis(window, qtbot):
    """A lossy planetary took an efficiency typed into six pairs' properties after the wizard; its Mesh efficiency
    entry sets them all, and the live line gives the set's efficiency with the ring held (24/72 at 0.95 per mesh:
    eta0 = 0.9025, (1 + 3 eta0) / 4 = 0.9269 sun to carrier, 4 / (1 + 3 / eta0) = 0.925 back). An efficiency out
    of (0, 1] is named with its range as it is typed."""
    derived = []

    def look(dlg):
        eta = dlg.findChild(QLineEdit, "Mesh efficiency")
        eta.selectAll()
        qtbot.keyClicks(eta, "1.5")
        derived.append(dlg.findChild(QLabel, "derived").text())
        eta.selectAll()
        qtbot.keyClicks(eta, "0.95")
        derived.append(dlg.findChild(QLabel, "derived").text())

    fill_and_ok(qtbot, {}, press=look)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert derived[0].startswith("Mesh efficiency: must be a number ") and "got 1.5" in derived[0]
    assert derived[1] == ("ratio sun to carrier with the ring held 1 + z_r / z_s = 4; centre distance a = 48 mm; "
                          "efficiency with the ring held (Willis, eta0 = 0.9025) 0.9269 sun to carrier, 0.925 carrier "
                          "to sun; every condition holds")
    assert {pair.efficiency for pair in window.doc.model.gear_pairs.values()} == {0.95}
    assert window.doc.undo_stack.count() == 1


def test_planetary_wizard_sketches_the_set_with_touching_planets_in_red(window, qtbot):
    """The sketch under the entries, in the numbers worked by hand for 24/24/72 at m 2 mm: sun and planets of
    pitch radius 24 mm and tip 26 mm, the ring's pitch 72 mm and tip 70 mm (an inner gear's tip is inside), the
    planets 48 mm out at 0, 120 and 240 deg (planet 1 on +x, as the set is made). With six planets 48 mm apart
    their 52 mm tip circles overlap: every planet is marked; with four (67.9 mm apart) none is."""
    sketches = []

    def look(dlg):
        sketches.append(list(dlg.findChild(PlanetarySketch, "planetary_sketch").gears))

    for planets in (3, 6, 4):
        fill_and_ok(qtbot, {"Number of planets": planets}, ok=False, press=look)
        qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    three, six, four = ({c.name: c for c in s} for s in sketches)
    assert (three["sun"].pitch, three["sun"].tip) == pytest.approx((0.024, 0.026), abs=1e-12)
    assert (three["ring"].pitch, three["ring"].tip) == pytest.approx((0.072, 0.070), abs=1e-12)
    for k, angle in enumerate((0, 120, 240)):
        planet = three[f"planet{k + 1}"]
        assert (planet.x, planet.y) == pytest.approx((0.048 * math.cos(math.radians(angle)),
                                                      0.048 * math.sin(math.radians(angle))), abs=1e-12)
        assert planet.pitch == pytest.approx(0.024, abs=1e-12) and not planet.clash
    assert len(six) == 8 and all(six[f"planet{k}"].clash for k in range(1, 7))
    assert len(four) == 6 and not any(four[f"planet{k}"].clash for k in range(1, 5))
    assert window.doc.model.is_empty()  # cancelled each time


def test_planetary_wizard_makes_a_helical_set_with_its_input_torque_and_carrier_load(window, qtbot):
    """m_n 2 mm at beta 20 deg, sun right hand: every gear has m_t = 2 / cos 20 deg, the planets and the ring the
    left hand; 3 N m on the sun and 6 N m of load on the carrier are one torque each, and the set runs."""
    fill_and_ok(qtbot, {"Sun teeth": 24, "Planet teeth": 24, "Ring teeth": 72, "Number of planets": 3,
                        "Normal module": 2, "Helix angle": 20, "sun_hand": "Right", "Input torque on the sun": 3,
                        "Load torque on the carrier": 6})
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    model = window.doc.model
    m_t = 2e-3 / math.cos(math.radians(20))
    for name, sign in (("sun", 1), ("planet1", -1), ("planet3", -1), ("ring", -1)):
        spec = model.bodies[name].visual.spec
        assert spec.module == pytest.approx(m_t, rel=1e-12) and spec.helix_angle == pytest.approx(sign * math.radians(20))
    assert model.forces["sun_torque"].joint == "sun_joint" and model.forces["sun_torque"].law.value == 3.0
    assert model.forces["carrier_load"].joint == "carrier_joint" and model.forces["carrier_load"].law.value == -6.0
    assert not [f for f in window.doc.findings if f.severity in ("warning", "error")]
    # with the ring held the carrier turns at w_s / 4, so the 6 N m load on it weighs 6 / 4 = 1.5 N m at the sun:
    # from rest the set speeds up as under 3 - 1.5 N m, half as fast as the same set with no load
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: window.doc.current is not None and not window.runner.running, timeout=60000)
    res = window.doc.current.results
    assert res.status == "finished", res.message
    w_sun, w_carrier = res.channel("sun_joint.speed")[-1], res.channel("carrier_joint.speed")[-1]
    unloaded = model.copy()
    RemoveItem(unloaded, "carrier_load").do(unloaded)
    assert w_sun == pytest.approx(simulate(unloaded).channel("sun_joint.speed")[-1] / 2, rel=1e-9)
    assert w_sun > 0 and w_carrier == pytest.approx(w_sun / 4, rel=1e-9)


def test_import_mesh_and_primitives(window, qtbot, tmp_path):
    good = tmp_path / "housing.stl"
    trimesh.creation.box(extents=(100.0, 50.0, 20.0)).export(good)
    fill_and_ok(qtbot, {"Name": "housing", "File": str(good)}, {"unit": "mm"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    housing = window.doc.model.bodies["housing"]
    assert housing.mass == pytest.approx(0.1 * 0.05 * 0.02 * 7850, rel=1e-9)
    holey = trimesh.creation.box(extents=(10.0, 10.0, 10.0))
    holey.update_faces(np.arange(len(holey.faces)) > 1)
    bad = tmp_path / "open.stl"
    holey.export(bad)
    seen = []
    fill_and_ok(qtbot, {"Name": "shell", "File": str(bad)}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert seen and "not watertight" in seen[0] and "convex hull" in seen[0]
    assert "shell" not in window.doc.model.bodies
    fill_and_ok(qtbot, {"Name": "shell", "File": str(bad)}, {"fallback": "use its convex hull"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert window.doc.model.bodies["shell"].mass == pytest.approx(1e-6 * 7850, rel=1e-9)
    empty = tmp_path / "empty.stl"
    empty.write_bytes(b"")
    seen.clear()
    fill_and_ok(qtbot, {"Name": "nothing", "File": str(empty)}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert seen and "empty" in seen[0] and "nothing" not in window.doc.model.bodies
    fill_and_ok(qtbot, {"Name": "plate", "Radius": 50, "Length": 5})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    plate = window.doc.model.bodies["plate"]  # the solid disc's, not its drawn prism's
    assert plate.mass == pytest.approx(7850 * math.pi * 0.05**2 * 0.005, rel=1e-12)
    assert plate.inertia[2][2] == pytest.approx(0.5 * plate.mass * 0.05**2, rel=1e-12)


def test_bevel_pair_dialog_names_a_wheel_centred_on_the_pinions_axis_and_moves_it_into_mesh(window, qtbot):
    """The wheel made square to the pinion but at the origin (its Bevel Gear dialog with axis x): its centre is on
    the pinion's axis, where the pair has no pitch point. The dialog says so and what fixes it (before: 'the
    Jacobian is not finite'); Move gear 2 into mesh puts it there."""
    messages = _bevel_pair_checked(window, qtbot, {"Axis x": 1, "Axis z": 0})
    assert "the centre of gear 2 (on joint 'wheel_joint') lies on gear 1's axis" in messages[0]
    assert "Move gear 2 into mesh" in messages[0] and "not finite" not in messages[0]
    assert messages[1] == "All gear rules hold."
    assert "p" in window.doc.model.gear_pairs
    assert not [f for f in window.doc.findings if f.severity == "error"]


def test_frames_on_bodies_place_a_joint(window, qtbot):
    fill_and_ok(qtbot, {"Name": "arm", "Radius": 50, "Length": 5})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    window.select("arm")
    fill_and_ok(qtbot, {"Name": "pin", "Origin x": 40})
    qtbot.mouseClick(window.props.widget().findChild(QPushButton, "add_frame"), Qt.LeftButton)
    assert [f.name for f in window.doc.model.bodies["arm"].frames] == ["pin"]
    fill_and_ok(qtbot, {"Name": "arm_joint"}, {"body_i": "ground", "body_j": "arm", "frame": "pin"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    assert window.doc.model.joints["arm_joint"].position == pytest.approx((0.04, 0.0, 0.0))
    window.act_undo.trigger()
    window.act_undo.trigger()
    assert window.doc.model.bodies["arm"].frames == ()


def test_bevel_pair_dialog_moves_gear_2_to_the_apex(window, qtbot):
    bevel = {"Module": 3, "Normal pressure angle": 20, "Face width": 20}
    _two_gears_on_joints(window, qtbot, "bevel_gear",
                         {"Name": "pinion", **bevel, "Number of teeth": 20, "Pitch angle": 26.56505117707799,
                          "Bore diameter": 12, "Position x": -60, "Axis x": 1, "Axis z": 0},
                         {"Name": "wheel", **bevel, "Number of teeth": 40, "Pitch angle": 63.43494882292201,
                          "Bore diameter": 20, "Position z": -50})
    messages = []
    check_then_move = _check_move_check(qtbot, messages)

    fill_and_ok(qtbot, {"Name": "p", "z1": 20, "z2": 40, "Normal module": 3, "Pitch angle gear 1": 26.56505117707799},
                {"kind": "bevel", "joint1": "pinion_joint", "joint2": "wheel_joint", "carrier": "ground"}, press=check_then_move)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "pitch apexes of the two bevel gears are 20 mm apart" in messages[0]
    assert messages[1] == "All gear rules hold."
    assert "gamma2 = 90 - gamma1 = 63.4349 deg" in messages[2]
    assert window.doc.model.joints["wheel_joint"].position == pytest.approx((0.0, 0.0, -0.030))


def test_bevel_pair_dialog_turns_a_wheel_made_on_the_pinions_axis_square_and_into_mesh(window, qtbot):
    """Both gears as the Bevel Gear dialog makes them (on the z axis at the origin): Move gear 2 into mesh turns
    the wheel to 90 deg and puts it on the apex, in mesh (it said to turn the axis by hand before)."""
    messages = _bevel_pair_checked(window, qtbot, {})
    assert "bevel joint axes must be at 90 deg; they are at 0 deg" in messages[0]
    assert messages[1] == "All gear rules hold."
    model = window.doc.model
    assert "p" in model.gear_pairs
    assert abs(model.joints["wheel_joint"].unit_axis()[2]) < 1e-12
    assert not [f for f in window.doc.findings if f.severity == "error"]
    window.doc.undo_stack.undo()  # one step takes the pair, the turn and the move back
    model = window.doc.model
    assert "p" not in model.gear_pairs and model.joints["wheel_joint"].axis == (0.0, 0.0, 1.0)
    assert model.bodies["wheel"].position == (0.0, 0.0, 0.0)
    assert np.allclose(model.bodies["wheel"].orientation, (1.0, 0.0, 0.0, 0.0))


def test_pair_dialog_puts_a_ring_made_first_on_joint_2_and_the_pair_is_internal(window, qtbot):
    """File > New, Inner Gear, then a Helical Gear, Gear Pair, Create revolute joints: the ring came first, so it
    was gear 1 of an 'external' pair and the dialog said an inner gear belongs on joint 2. The dialog puts it
    there and makes the pair internal; Move gear 2 into mesh then leaves every rule holding."""
    fill_and_ok(qtbot, {"Name": "ring", "Normal module": 2, "Number of teeth": 60})
    qtbot.mouseClick(toolbar_button(window, "inner_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "pinion", **GEAR, "Number of teeth": 20, "Bore diameter": 10})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    seen = {}

    def joints_then_move(dlg):
        qtbot.mouseClick(dlg.findChild(QPushButton, "create_joints"), Qt.LeftButton)
        seen.update(kind=dlg.kind.currentText(), joint1=dlg.joint1.currentText(), joint2=dlg.joint2.currentText(),
                    z=(dlg.z1.value(), dlg.z2.value()))
        qtbot.mouseClick(dlg.findChild(QPushButton, "move_gear2"), Qt.LeftButton)
        seen["checks"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "p"}, press=joints_then_move)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["kind"] == "internal" and seen["joint1"] == "pinion_joint" and seen["joint2"] == "ring_joint"
    assert seen["z"] == (20, 60)
    assert seen["checks"] == "All gear rules hold."
    pair = window.doc.model.gear_pairs["p"]
    assert (pair.kind, pair.joint1, pair.joint2) == ("internal", "pinion_joint", "ring_joint")


def test_profile_shifted_gears_pair_at_the_working_centre_distance(window, qtbot):
    """Profile shift typed in the gear dialogs travels into the pair, and 'move gear 2' uses a_w."""
    from core.geometry.macro import center_distance

    _two_gears_on_joints(window, qtbot, "helical_gear",
                         {"Name": "a", **GEAR, "Number of teeth": 17, "Profile shift x": 0.5, "Bore diameter": 10},
                         {"Name": "b", **GEAR, "Number of teeth": 40, "Profile shift x": 0.2, "Bore diameter": 10,
                          "Position x": 75})
    assert window.doc.model.bodies["a"].visual.spec.profile_shift == 0.5
    messages = []
    fill_and_ok(qtbot, {"Name": "p"}, {"joint1": "a_joint", "joint2": "b_joint", "carrier": "ground"},
                press=_check_move_check(qtbot, messages))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    pair = window.doc.model.gear_pairs["p"]
    assert (pair.z1, pair.z2, pair.x1, pair.x2) == (17, 40, 0.5, 0.2)
    a_w = center_distance(pair.pair_spec())
    assert a_w > 0.002 * 57 / 2 + 0.0005 * 2  # the shift pushes the gears apart (0.7 m_n less a little)
    assert window.doc.model.joints["b_joint"].position[0] == pytest.approx(a_w, rel=1e-9)
    assert not [f for f in window.doc.findings if f.severity == "error"]


def test_a_gear_file_without_its_face_imported_with_its_holes_closed_weighs_as_the_whole_gear(window, qtbot, tmp_path):
    """The helical gear's STL with its top face gone (2,340 triangles): 'close its holes (flat caps)' gives the
    mass of the same gear's watertight file, says so in the preview and keeps it on the body. A watertight file
    imported with a fallback chosen keeps 'none': the note said 'not watertight ... convex hull' for a body whose
    mass came from its closed mesh."""
    whole, holed = _gear_without_its_face(tmp_path)
    ref = import_mesh(whole, "mm", 7850.0).mass_properties
    seen, refused = [], []
    fill_and_ok(qtbot, {"Name": "g", "File": str(holed)}, seen=refused)  # 'refuse', the default: nothing added
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert refused and refused[0].endswith("Choose 'close its holes (flat caps)', 'use its convex hull' or "
                                           "'enter mass properties by hand'.")
    assert "g" not in window.doc.model.bodies
    fill_and_ok(qtbot, {"Name": "g", "File": str(holed)}, {"fallback": "close its holes (flat caps)"},
                press=lambda dlg: seen.append(dlg.preview.text()))
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    moments = ", ".join(f"{v:.4g}" for v in np.linalg.eigvalsh(np.asarray(ref.inertia)))
    assert seen[0].startswith(f"not watertight (it has holes); volume {ref.mass / 7850 * 1e6:.4g} cm^3, mass "
                              f"{ref.mass:.4g} kg from its mesh with its holes capped flat, principal moments of "
                              f"inertia about its centre of mass {moments} kg m^2; ")
    body = window.doc.model.bodies["g"]
    assert body.mass == pytest.approx(ref.mass, rel=1e-9) and body.visual.fallback == "close_holes"
    assert np.asarray(body.inertia) == pytest.approx(np.asarray(ref.inertia), rel=1e-9, abs=1e-15)
    window.select("g")
    note = window.props.widget().findChild(QLabel, "mesh_note")
    assert note.text().endswith("which is not watertight: mass and inertia are those of its mesh with its holes "
                                "closed by flat caps.")
    fill_and_ok(qtbot, {"Name": "w", "File": str(whole)}, {"fallback": "use its convex hull"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert window.doc.model.bodies["w"].visual.fallback == "none"
    window.select("w")
    note = window.props.widget().findChild(QLabel, "mesh_note")
    assert note.text().endswith("mass and inertia from its closed mesh.")


def test_the_import_dialog_previews_the_file_and_the_body_keeps_its_hull_note(window, qtbot, tmp_path):
    """A 100 x 50 x 20 mm box written Y-up: the preview says watertight, 100 cm^3, 0.785 kg at 7850 kg/m^3, the
    principal moments of inertia of the box, m (b^2 + c^2) / 12 and the like, and, Y up turned upright,
    100 x 20 x 50 mm; an open box imported by its convex hull keeps that on the body."""
    box = tmp_path / "box.stl"
    trimesh.creation.box(extents=(100.0, 50.0, 20.0)).export(box)
    seen = []
    fill_and_ok(qtbot, {"Name": "b", "File": str(box)}, {"unit": "mm", "up_axis": "Y up (turn it upright)"}, ok=False,
                press=lambda dlg: seen.append(dlg.preview.text()))
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    m, (a, b, c) = 0.785, (0.1, 0.05, 0.02)
    moments = ", ".join(f"{v:.4g}" for v in sorted(m * (p * p + q * q) / 12 for p, q in ((b, c), (a, c), (a, b))))
    assert seen == [f"watertight; volume 100 cm^3, mass 0.785 kg from its mesh, principal moments of inertia about "
                    f"its centre of mass {moments} kg m^2; size x, y, z 100 x 20 x 50 mm, its middle at 0, 0, 0 mm "
                    "in the model"]
    holey = trimesh.creation.box(extents=(10.0, 10.0, 10.0))
    holey.update_faces(np.arange(len(holey.faces)) > 1)
    open_box = tmp_path / "open.stl"
    holey.export(open_box)
    seen.clear()
    fill_and_ok(qtbot, {"Name": "shell", "File": str(open_box)}, ok=False, press=lambda dlg: seen.append(dlg.preview.text()))
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert seen[0].startswith("not watertight (it has holes); no volume: choose to close its holes, the convex hull")
    fill_and_ok(qtbot, {"Name": "shell", "File": str(open_box)}, {"fallback": "use its convex hull"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    window.select("shell")
    note = window.props.widget().findChild(QLabel, "mesh_note")
    assert "open.stl" in note.text() and "convex hull" in note.text() and "upper bound" in note.text()


def test_the_import_preview_says_a_file_in_metres_read_in_mm_would_weigh_what_read_in_m(window, qtbot, tmp_path):
    """A disc 100 mm across and 20 mm thick written in metres, read as mm: 1.2e-9 kg. The preview says so
    before the import, with the mass it has in m: the 64-sided prism's area (64/2) sin(2 pi/64) r^2 times
    0.02 m and 7850 kg/m^3."""
    disc = tmp_path / "disc.stl"
    trimesh.creation.cylinder(radius=0.05, height=0.02, sections=64).export(disc)
    seen, whole = [], []

    def look(dlg):
        seen.append(dlg.preview.text())
        qtbot.wait(50)  # the dialog grows for the longer preview: the sketch below it is not squeezed
        whole.append((dlg.preview.height() >= dlg.preview.heightForWidth(dlg.preview.width()),
                      dlg.sketch.height() >= dlg.sketch.minimumHeight()))

    fill_and_ok(qtbot, {"Name": "d", "File": str(disc)}, {"unit": "mm"}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert whole == [(True, True)]
    in_metres = 64 / 2 * math.sin(2 * math.pi / 64) * 0.05**2 * 0.02 * 7850
    assert "far outside what a gear-train part weighs" in seen[0]
    assert f"read in m the part would weigh {in_metres:.4g} kg" in seen[0] and "import it with unit m" in seen[0]
    seen.clear()
    fill_and_ok(qtbot, {"Name": "d", "File": str(disc)}, {"unit": "m"}, ok=False,
                press=lambda dlg: seen.append(dlg.preview.text()))
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert "far outside" not in seen[0] and "size x, y, z 100 x 100 x 20 mm" in seen[0]


def test_planetary_wizard_names_a_sun_the_rack_undercuts_and_the_model_check_agrees(window, qtbot):
    """A 12-tooth sun (z_min 17.1 at 20 deg) with 18-tooth planets and a 48-tooth ring: every condition holds, and
    a red line says the sun is undercut; built, the Messages panel says it of the sun's body."""
    seen = {}

    def look(dlg):
        dlg.show_derived()
        check = dlg.findChild(QLabel, "teeth_check")
        seen["lines"] = (check.text().replace("\n", " "), check.isVisible())

    fill_and_ok(qtbot, {"Sun teeth": 12, "Planet teeth": 18, "Ring teeth": 48, "Number of planets": 3}, press=look)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    text, visible = seen["lines"]
    assert visible and text.startswith("sun: 12 teeth are undercut") and "planet" not in text
    assert [f.item for f in window.doc.findings if "undercut" in f.message] == ["sun"]


def test_the_gear_dialog_says_as_you_type_why_it_cannot_derive_the_gear(window, qtbot):
    """Six teeth with the default 10 mm bore: the Derived line went blank and nothing said why until OK. The
    dialog now says at once which field breaks which bound, and says nothing once the entries are good again;
    the undercut warning of the good entries goes when they turn bad."""
    seen = {}

    def look(dlg):
        seen["bad"] = (dlg.derived.text(), dlg.message.text())
        edit = dlg.findChild(QLineEdit, "Bore diameter")
        edit.setText("5")
        edit.editingFinished.emit()
        seen["good"] = (dlg.derived.text(), dlg.message.text())
        seen["undercut"] = dlg.teeth_check.text()
        edit.setText("10")
        edit.editingFinished.emit()
        seen["bad again"] = dlg.teeth_check.text()
        edit.setText("5")
        edit.editingFinished.emit()

    fill_and_ok(qtbot, {"Number of teeth": 6}, press=look)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    derived, message = seen["bad"]
    assert derived == "" and message == ("Bore diameter: must be a number above 0 and at most 6.3 mm, got 10 mm (it "
                                         "must stay inside the root circle)")
    derived, message = seen["good"]
    assert derived.startswith("m_t 2 mm") and message == ""
    assert seen["undercut"].startswith("6 teeth are undercut") and seen["bad again"] == ""
    assert list(window.doc.model.bodies) == ["gear1"]


def test_the_bevel_gear_dialog_derives_the_gear_as_each_key_is_typed(window, qtbot):
    """With 40 typed over the 20 teeth, the Bevel Gear dialog still read 'd 60 mm; mass 0.2783 kg' and drew the
    pinion until the entry was left. Its Derived line and section now follow each key that leaves every entry a
    number in its range: d = m z = 3 mm x 40 = 120 mm. A half-typed entry ('40e') leaves them as they were and
    says nothing until it is finished, when the dialog names the field and its range."""
    seen = {}

    def look(dlg):
        teeth = dlg.findChild(QLineEdit, "Number of teeth")
        teeth.selectAll()
        qtbot.keyClicks(teeth, "40")
        seen["typed"] = (dlg.derived.text(), dlg.sketch.pitch, dlg.message.text())
        qtbot.keyClicks(teeth, "e")
        seen["half"] = (dlg.derived.text(), dlg.message.text())
        teeth.editingFinished.emit()
        seen["finished"] = dlg.message.text()

    fill_and_ok(qtbot, {}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "bevel_gear"), Qt.LeftButton)
    derived, pitch_radius, message = seen["typed"]
    assert derived.startswith("m 3 mm, d 120 mm,") and pitch_radius == pytest.approx(0.060) and message == ""
    assert seen["half"] == (derived, "")
    assert seen["finished"].startswith("Number of teeth: must be") and "got '40e'" in seen["finished"]


def test_the_planetary_wizard_derives_the_set_as_each_key_is_typed(window, qtbot):
    """The wizard's live line followed an entry only when it was left. It now follows each key that leaves the
    entries good: 30 sun teeth with 24-tooth planets need z_r = 30 + 2 x 24 = 78, and (30 + 78) / 3 = 36 is
    whole, so with the ring typed as 78 the line gives the ratio 1 + 78 / 30 = 3.6."""
    seen = []

    def look(dlg):
        for name, text in (("Sun teeth", "30"), ("Ring teeth", "78")):
            edit = dlg.findChild(QLineEdit, name)
            edit.selectAll()
            qtbot.keyClicks(edit, text)
        seen.append(dlg.findChild(QLabel, "derived").text())

    fill_and_ok(qtbot, {}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert seen[0].startswith("ratio sun to carrier with the ring held 1 + z_r / z_s = 3.6;"), seen


def test_the_pair_dialog_derives_the_pair_and_a_bevel_pitch_angle_as_each_key_is_typed(window, qtbot):
    """The Gear Pair dialog's derived line, and a bevel pair's pitch angle ('it follows the teeth as they are
    typed', its tooltip says), waited for the entry to be left. With the two gears of the pair generated, z2
    typed as 45 gives the ratio 45 / 20 = 2.25 and the centre distance m (z1 + z2) / 2 = 65 mm at once; as a
    bevel pair with z2 typed as 50, gamma1 = atan(20 / 50) = 21.8014 deg."""
    seen = []

    def look(dlg):
        dlg.generate_button.click()
        z2 = dlg.findChild(QLineEdit, "z2")
        z2.selectAll()
        qtbot.keyClicks(z2, "45")
        seen.append(dlg.derived.text())
        dlg.findChild(QComboBox, "kind").setCurrentText("bevel")
        z2.selectAll()
        qtbot.keyClicks(z2, "50")
        seen.append(dlg.findChild(QLineEdit, "Pitch angle gear 1").text())

    window.act_new.trigger()
    fill_and_ok(qtbot, {}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "centre distance 65 mm" in seen[0] and "ratio z2/z1 2.25" in seen[0], seen
    assert seen[1] == "21.8014"


def test_the_pair_dialog_gives_the_pair_its_efficiency_and_names_the_range_of_a_bad_one(window, qtbot):
    """A lossy pair took its efficiency typed into the pair's properties after the dialog (the Planetary Gearset
    dialog had the entry). From File > New with both gears generated: 0 is refused with the range (0, 1] as it is
    typed, 0.95 reads in the derived line and reaches the pair, in the one undo step that adds it."""
    seen = []

    def look(dlg):
        dlg.generate_button.click()
        eta = dlg.findChild(QLineEdit, "Efficiency")
        eta.selectAll()
        qtbot.keyClicks(eta, "0")
        seen.append(dlg.checks.text())
        eta.selectAll()
        qtbot.keyClicks(eta, "0.95")
        seen.append(dlg.derived.text())

    window.act_new.trigger()
    fill_and_ok(qtbot, {}, press=look)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen[0] == "Efficiency: must be a number above 0 and at most 1, got 0", seen
    assert seen[1].endswith("ratio z2/z1 2; efficiency 0.95 both ways (it sticks at rest while its losses hold)")
    (pair,) = window.doc.model.gear_pairs.values()
    assert pair.efficiency == 0.95 and pair.loss_rows()
    assert window.doc.undo_stack.count() == 1


def test_pair_dialog_takes_the_normal_module_and_keeps_the_transverse_one(window, qtbot):
    """ISO 21771: a helical gear's catalogue module is the normal one, m_n; the pair keeps m_t = m_n / cos(beta).
    The helical example's gears (m_t 2 mm, beta 15 deg) fill in m_n = 2 cos 15 deg = 1.93185 mm and give the pair
    back m_t = 2 mm; typed by hand, m_n 2 mm at 15 deg is m_t = 2.070552 mm and a = m_n (z1 + z2) / (2 cos beta) =
    62.1166 mm."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.doc.apply(RemoveItem(window.doc.model, "pair"))
    seen = []

    def note(dlg):
        seen.append((dlg.form.labelForField(dlg.module).text(), dlg.module.edit.text(), dlg.derived.text()))

    fill_and_ok(qtbot, {"Name": "p"}, press=note)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    label, shown, derived = seen[0]
    assert (label, shown) == ("Normal module", "1.93185"), seen
    assert "m_t 2 mm" in derived and "centre distance 60 mm" in derived, derived
    assert window.doc.model.gear_pairs["p"].module == pytest.approx(0.002, rel=1e-12)
    window.doc.apply(RemoveItem(window.doc.model, "p"))
    seen.clear()
    fill_and_ok(qtbot, {"Name": "q", "Normal module": 2, "Helix angle gear 1": 15}, press=note)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "m_t 2.07055 mm, m_n 2 mm" in seen[0][2] and "centre distance 62.1166 mm" in seen[0][2], seen
    assert window.doc.model.gear_pairs["q"].module == pytest.approx(0.002 / math.cos(math.radians(15)), rel=1e-12)


def test_a_body_whose_mesh_file_moved_says_so_and_locate_file_points_it_there_again(window, qtbot, tmp_path,
                                                                                   monkeypatch):
    """A model saved with an imported 100 x 50 x 20 mm box whose STL then moved where no relative path finds it:
    the Messages line and the body's Properties say the file is missing and how to find it; Locate File...
    points the body at the file in one undoable edit, the view draws it again and the Messages line goes."""
    stl = tmp_path / "parts" / "housing.stl"
    stl.parent.mkdir()
    trimesh.creation.box(extents=(100.0, 50.0, 20.0)).export(stl)
    fill_and_ok(qtbot, {"Name": "housing", "File": str(stl)}, {"unit": "mm"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    model = tmp_path / "model" / "m.gdyn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(model), ""))
    model.parent.mkdir()
    window.act_save_as.trigger()
    moved = tmp_path / "archive" / "housing.stl"
    moved.parent.mkdir()
    stl.rename(moved)
    window.open_file(model)
    lines = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert any(t.startswith("housing:") and "no such file" in t and "Locate File..." in t for t in lines), lines
    # the title counts every line it lists: the body's findings (it floats free) and the missing file's note
    assert window.messages.windowTitle() == "Messages: 2 findings, 1 note"  # it floats free; nothing loads it
    window.select("housing")
    note = window.props.widget().findChild(QLabel, "mesh_missing")
    assert note is not None and "is not at" in note.text() and "Locate File..." in note.text()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(moved), ""))
    qtbot.mouseClick(window.props.widget().findChild(QPushButton, "relink_mesh"), Qt.LeftButton)
    assert window.doc.model.bodies["housing"].visual.path == str(moved.resolve())
    assert window.doc.model.bodies["housing"].mass == pytest.approx(0.1 * 0.05 * 0.02 * 7850, rel=1e-9)
    assert window.viewport is None or "housing" in window.viewport.body_actors
    lines = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert not any("no such file" in t for t in lines), lines
    assert window.messages.windowTitle() == "Messages: 2 findings"
    assert window.props.widget().findChild(QLabel, "mesh_missing") is None
    window.act_undo.trigger()
    assert window.doc.model.bodies["housing"].visual.path == str(stl.resolve())


def test_the_pair_dialog_takes_the_one_generated_gears_values_where_its_mate_was_imported(window, qtbot, tmp_path):
    """A 30-tooth wheel read from an STL (on its joint by the fix of its 'fly freely' warning) and a generated
    pinion beside it (18 teeth, m_n 1.5 mm, 20 deg right hand, 15 mm wide, x 0.2): the Gear Pair dialog kept its
    defaults (z 20/40, m_n 2 mm, no helix), so the pair contradicted the pinion it was made on ('z2 = 40 but gear
    ... was generated with 20 teeth'). It now takes the pinion's teeth on the pinion's side, its normal module, its
    face width, and its helix as gear 1's (the other hand where the pinion is gear 2); the wheel's teeth are
    typed."""
    spec = GearSpec("helical", 0.0015 / math.cos(math.radians(20)), 18, math.radians(20), 0.015,
                    helix_angle=math.radians(20), bore_diameter=0.008, profile_shift=0.2)
    wheel = trimesh.creation.cylinder(radius=24.0, height=15.0, sections=60)  # stands for the wheel's file
    wheel.export(tmp_path / "wheel.stl")
    fill_and_ok(qtbot, {"Name": "wheel", "File": str(tmp_path / "wheel.stl")}, {"unit": "mm"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    window.doc.apply(AddItem(own_axis_joint(window.doc.model, "wheel")))
    window.doc.apply(AddItem(builders.gear_body("pinion", spec, position=(0.04, 0.0, 0.0))))
    window.doc.apply(AddItem(own_axis_joint(window.doc.model, "pinion")))
    seen = {}

    def note(dlg):
        k = 1 if dlg.joint1.currentText() == "pinion_joint" else 2
        seen.update(k=k, z=(dlg.z1 if k == 1 else dlg.z2).edit.text(), module=dlg.module.edit.text(),
                    helix=dlg.beta.edit.text(), width=dlg.width.edit.text(), shifts=dlg.shifts)

    fill_and_ok(qtbot, {"Name": "p"}, press=note, ok=False)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    qtbot.waitUntil(lambda: "z" in seen)
    assert (seen["z"], seen["module"], seen["width"]) == ("18", "1.5", "15"), seen
    assert seen["helix"] == ("20" if seen["k"] == 1 else "-20"), seen
    assert seen["shifts"][seen["k"] - 1] == pytest.approx(0.2, abs=1e-15)


def test_the_revolute_joint_dialog_starts_on_an_imported_gears_axis_of_symmetry(window, qtbot, tmp_path):
    """A gear read from a file written with its axis along y (a CAD part left Y-up), 30 mm off its origin: the
    Revolute Joint dialog started on the body's origin and z axis, across the gear. It now starts where the
    'fly freely' fix puts the joint: through the centre of mass, about the axis of symmetry, (0, 1, 0); the
    first entry of 'At frame of body J' says so."""
    mesh = trimesh.creation.cylinder(radius=24.0, height=15.0, sections=60)
    mesh.apply_transform(trimesh.transformations.rotation_matrix(-math.pi / 2, (1, 0, 0)))
    mesh.apply_translation((30.0, 0.0, 0.0))
    mesh.export(tmp_path / "wheel.stl")
    fill_and_ok(qtbot, {"Name": "wheel", "File": str(tmp_path / "wheel.stl")}, {"unit": "mm"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    window.select("wheel")
    fill_and_ok(qtbot, {"Name": "hub"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    joint = window.doc.model.joints["hub"]
    assert joint.position == pytest.approx((0.03, 0.0, 0.0), abs=1e-9)
    assert joint.axis == pytest.approx((0.0, 1.0, 0.0), abs=1e-9)


def test_a_revolute_joint_on_a_shaft_a_bearing_holds_starts_carried_by_the_bearing(window, qtbot):
    """From File > New: a gear, a Bearing Spring-Damper holding it, then Torque. The Torque was refused with 'add
    a revolute joint first', and the Revolute Joint dialog then made a rigid joint beside the bearing (a warning:
    its springs carry no load). The refusal now names the way ('Carried by a bearing'), and the dialog starts
    ticked on the bearing's point and axis: no finding on the joint or the bearing, and the Torque goes on it."""
    window.act_new.trigger()
    spec = GearSpec("helical", 0.002, 20, math.radians(20.0), 0.02, bore_diameter=0.01)
    window.doc.apply(AddItem(builders.gear_body("gear1", spec)))
    window.doc.apply(AddItem(BearingSpringDamper("bearing1", "ground", "gear1", (0.0, 0.0, 0.01), (0.0, 0.0, 1.0),
                                                 radial_damping=400.0, axial_damping=400.0, tilt_damping=0.5)))
    texts: list[str] = []
    answer_boxes(qtbot, [QMessageBox.Ok], texts)
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(texts))
    assert "Torque: add a revolute joint first" in texts[0] and "'Carried by a bearing'" in texts[0], texts
    seen = {}
    fill_and_ok(qtbot, {"Name": "shaft"}, press=lambda dlg: seen.update(
        ticked=dlg.findChild(QCheckBox, "on_bearing").isChecked()))
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    joint = window.doc.model.joints["shaft"]
    assert seen["ticked"] and joint.on_bearing
    assert joint.position == pytest.approx((0.0, 0.0, 0.01)) and joint.axis == pytest.approx((0.0, 0.0, 1.0))
    # nothing about the joint, the bearing or the gear (the step's warning on the bearing's modes stays)
    assert not [f for f in window.doc.findings if f.item in ("shaft", "bearing1", "gear1")
                or f.severity == "error"], window.doc.findings
    fill_and_ok(qtbot, {"Name": "drive", "law_value": 0.001})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    assert window.doc.model.forces["drive"].joint == "shaft"


def test_a_revolute_joint_where_no_bearing_holds_the_gear_starts_rigid(window, qtbot):
    """The same dialog on a gear no bearing holds starts unticked: the joint holds the gear."""
    window.act_new.trigger()
    spec = GearSpec("helical", 0.002, 20, math.radians(20.0), 0.02, bore_diameter=0.01)
    window.doc.apply(AddItem(builders.gear_body("gear1", spec)))
    fill_and_ok(qtbot, {"Name": "shaft"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    assert window.doc.model.joints["shaft"].on_bearing is False


def test_a_gear_pair_on_a_gear_its_bearing_carries_is_added_with_its_compliant_mesh(window, qtbot):
    """From File > New: gear1 carried by its bearing, gear2 beside it, then Gear Pair. The dialog said 'error: ...
    the pair needs a Compliant Mesh', OK added the rigid pair anyway, and Messages kept the error with no fix. The
    dialog now says OK adds the pair's Compliant Mesh, OK adds both as one edit (one undo), and no error stays."""
    window.act_new.trigger()
    spec = GearSpec("helical", 0.002, 20, math.radians(20.0), 0.02, bore_diameter=0.01)
    window.doc.apply(AddItem(builders.gear_body("gear1", spec)))
    window.doc.apply(AddItem(BearingSpringDamper("bearing1", "ground", "gear1", radial_damping=400.0)))
    fill_and_ok(qtbot, {"Name": "shaft"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    window.doc.apply(AddItem(builders.gear_body("gear2", spec, position=(0.04, 0.0, 0.0))))
    window.doc.apply(AddItem(own_axis_joint(window.doc.model, "gear2")))
    seen = {}
    fill_and_ok(qtbot, {"Name": "p", "joint1": "shaft", "joint2": "gear2_joint"},
                press=lambda dlg: seen.update(checks=dlg.checks.text()))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "error" not in seen["checks"], seen
    assert "OK adds the Compliant Mesh 'p_mesh' (ISO 6336 stiffness) with the pair" in seen["checks"], seen
    model = window.doc.model
    assert "p" in model.gear_pairs and model.forces["p_mesh"] == CompliantMesh("p_mesh", "p")
    assert not [f for f in window.doc.findings if f.severity == "error"], window.doc.findings
    window.act_undo.trigger()
    assert "p" not in window.doc.model.gear_pairs and "p_mesh" not in window.doc.model.forces
