"""A reducer built stage by stage in the Gear Pair dialog, from File > New, and its compound shafts moved whole."""

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QPushButton

from tests.app.conftest import fill_and_ok, toolbar_button, torque_and_run
from tests.conftest import EXAMPLES


def test_a_stage_on_gear_2s_shaft_welds_its_pinion_there_and_the_reducer_runs_at_the_product_of_its_ratios(
        window, qtbot):
    """Stage 1 (20/40) from 'Generate both gears'; then Gear Pair, which starts on gear 2's joint (the last pair's
    gear 2), with 18/45 and 'Generate a stage on gear2's shaft': gear 3 welded to gear 2, gear 4 on a joint of its own, the pair's teeth on gear 3.
    Under a torque on gear 1 the output turns at (20 / 40) (18 / 45) = 0.2 of the input's speed, the same way
    (two external meshes). OK added the stage as one undo step."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "stage1"},
                press=lambda dlg: qtbot.mouseClick(dlg.findChild(QPushButton, "generate_gears"), Qt.LeftButton))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    seen = {}

    def stage(dlg):
        button = dlg.findChild(QPushButton, "generate_stage")
        seen["button"] = (button.isVisible(), button.text(), dlg.checks.text())
        qtbot.mouseClick(button, Qt.LeftButton)
        seen["after"] = (dlg.joint2.currentText(), dlg.teeth1.currentText(), dlg.checks.text(), button.isVisible())

    fill_and_ok(qtbot, {"Name": "stage2", "z1": 18, "z2": 45}, press=stage)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["button"] == (True, "Generate a stage on gear2's shaft", (
        "gear2_joint and gear1_joint are joined by 'stage1' already: choose other joints, or press 'Generate a stage "
        "on gear2's shaft' for the next stage of the train"))
    assert seen["after"] == ("gear4_joint", "gear3", "All gear rules hold.", False)
    model = window.doc.model
    assert set(model.bodies) == {"gear1", "gear2", "gear3", "gear4"}
    assert (model.joints["gear3_weld"].body_i, model.joints["gear3_weld"].body_j) == ("gear2", "gear3")
    pair = model.gear_pairs["stage2"]
    assert (pair.joint1, pair.joint2, pair.gear1, pair.z1, pair.z2) == ("gear2_joint", "gear4_joint", "gear3", 18, 45)
    assert not [f for f in window.doc.findings if f.severity == "error" or f.item not in ("forces",)], \
        window.doc.findings  # only 'nothing drives the model'
    res = torque_and_run(window, qtbot, "gear1")
    w1, w4 = res["gear1_joint.speed"][-1], res["gear4_joint.speed"][-1]
    assert w1 > 0 and w4 / w1 == pytest.approx(0.2, rel=1e-9)
    for _ in range(3):  # the run's settings, the torque, then the stage
        window.act_undo.trigger()
    assert set(model.bodies) == {"gear1", "gear2"} and set(model.gear_pairs) == {"stage1"}


def test_a_motor_shaft_on_its_joint_gets_a_pinion_and_its_wheel_from_the_pair_dialog(window, qtbot):
    """File > New, a cylinder (radius 10 mm, 60 mm long) on a revolute joint to the ground: the pair dialog had one
    joint and said only to make gears and joints. It now offers 'Generate a stage on shaft's shaft': an 18-tooth
    pinion welded to the shaft 60 / 2 + 5 + 10 = 45 mm up its axis (past its end, a quarter face clear) and a
    54-tooth wheel on a joint of its own, in mesh. Under a torque on the shaft the wheel turns at -18 / 54 of its
    speed."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "shaft", "Radius": 10, "Length": 60})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "shaft_joint"}, {"body_i": "ground", "body_j": "shaft"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    seen = {}

    def stage(dlg):
        seen["before"] = dlg.checks.text()
        qtbot.mouseClick(dlg.findChild(QPushButton, "generate_stage"), Qt.LeftButton)
        seen["after"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "p", "z1": 18, "z2": 54}, press=stage)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["before"].endswith("first; or press 'Generate a stage on shaft's shaft' for a pinion on that shaft "
                                   "and its wheel.") and seen["after"] == "All gear rules hold."
    model = window.doc.model
    pair = model.gear_pairs["p"]
    assert (pair.joint1, pair.gear1, model.joints["gear1_weld"].body_i) == ("shaft_joint", "gear1", "shaft")
    assert model.bodies["gear1"].position == pytest.approx((0.0, 0.0, 0.045), abs=1e-12)
    res = torque_and_run(window, qtbot, "shaft")
    w1, w2 = res["shaft_joint.speed"][-1], res[f"{pair.joint2}.speed"][-1]
    assert w1 > 0 and w2 / w1 == pytest.approx(-18 / 54, rel=1e-9)


def test_move_rotate_of_a_shaft_moves_the_gear_welded_to_it_and_says_which(window, qtbot):
    """Model > Move / Rotate on the reducer's gear 2: the dialog names gear 3 as welded to it and moves it along
    by the same 10 mm shift; unchecked, gear 2 moves alone."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    before = window.doc.model.copy()
    seen = {}

    def look(dlg):
        box = dlg.findChild(QCheckBox, "welded_follow")
        seen["box"] = (box.text(), box.isChecked(), box.isEnabled())

    fill_and_ok(qtbot, {"Shift y": 10}, press=look)
    window.move_body("gear2")
    assert seen["box"] == ("Bodies welded to it move with it (gear3)", True, True)
    after = window.doc.model
    for name in ("gear2", "gear3", "shaft_weld"):
        assert after.find(name).position[1] - before.find(name).position[1] == pytest.approx(0.01, abs=1e-15), name
    window.act_undo.trigger()
    fill_and_ok(qtbot, {"Shift y": 10}, press=lambda dlg: dlg.findChild(QCheckBox, "welded_follow").setChecked(False))
    window.move_body("gear2")
    assert window.doc.model.bodies["gear3"] == before.bodies["gear3"]


def test_gears_generated_in_a_model_with_a_body_stand_clear_of_it(window, qtbot):
    """'Generate both gears' made them about the origin, inside a 60 mm cylinder standing there. They now go up
    the z axis past it: its top at 30 mm, a quarter of the 20 mm face clear, their faces' lower side 10 mm below
    their centres: centres at 30 + 5 + 10 = 45 mm. No body overlaps another."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "shaft", "Radius": 10, "Length": 60})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "p"},
                press=lambda dlg: qtbot.mouseClick(dlg.findChild(QPushButton, "generate_gears"), Qt.LeftButton))
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    model = window.doc.model
    assert set(model.bodies) == {"shaft", "gear1", "gear2"}
    assert model.bodies["gear1"].position == pytest.approx((0.0, 0.0, 0.045), abs=1e-12)
    assert model.bodies["gear2"].position[2] == pytest.approx(0.045, abs=1e-12)
    assert not [f for f in window.doc.findings if "overlaps" in f.message]


def test_a_right_angle_bevel_stage_on_the_reducers_output_from_the_pair_dialog(window, qtbot):
    """The reducer example: the pair dialog starts on its output (every joint paired, input and output not in
    mesh: it had started on those two, a pair that locks the train), offers the stage there, and makes a bevel
    stage 18/27 on gear 4's shaft whose rules all hold."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    seen = {}

    def stage(dlg):
        seen["start"] = (dlg.joint1.currentText(), dlg.stage_button.text())
        qtbot.mouseClick(dlg.findChild(QPushButton, "generate_stage"), Qt.LeftButton)
        seen["after"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "bevel", "kind": "bevel", "z1": 18, "z2": 27,
                        "Pitch angle gear 1": math.degrees(math.atan2(18, 27)), "Face width": 10}, press=stage)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen == {"start": ("output_joint", "Generate a stage on gear4's shaft"), "after": "All gear rules hold."}
    pair = window.doc.model.gear_pairs["bevel"]
    assert (pair.kind, pair.joint1, pair.gear1, pair.joint2) == ("bevel", "output_joint", "gear5", "gear6_joint")
    assert not [f for f in window.doc.findings if f.severity == "error"]


def test_a_bevel_stage_typed_as_20_30_takes_its_pitch_angle_from_the_teeth(window, qtbot):
    """The reducer example's Gear Pair dialog turned to bevel with 20/30 typed kept the pitch angle of a 20/40 pair,
    26.5651 deg, so the stage was refused until atan(20/30) = 33.6901 deg was typed by hand (the only angle a
    90 deg shaft angle allows). The angle follows the teeth now, and the stage on the output shaft is made with
    it: all gear rules hold and the pair has the exact atan(20/30)."""
    window.open_file(EXAMPLES / "two_stage_reducer.gdyn")
    seen = {}

    def stage(dlg):
        seen["gamma"] = dlg.gamma.edit.text()
        qtbot.mouseClick(dlg.findChild(QPushButton, "generate_stage"), Qt.LeftButton)
        seen["checks"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "bevel", "kind": "bevel", "z1": 20, "z2": 30, "Face width": 12}, press=stage)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen == {"gamma": "33.6901", "checks": "All gear rules hold."}
    pair = window.doc.model.gear_pairs["bevel"]
    assert pair.kind == "bevel" and pair.pitch_angle == math.atan2(20, 30) and pair.joint1 == "output_joint"
