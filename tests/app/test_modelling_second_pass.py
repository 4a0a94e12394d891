"""The modelling half as a user meets it: poses and speeds edited in place, Move/Rotate, one-click fixes, gears
placed in mesh by the pair dialog, interference and import findings, a view that updates only what changed,
a clean quit."""

import math
import subprocess
import sys

import numpy as np
import pytest
import trimesh
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton

from app.dialogs import body_dialogs
from app.dialogs.gear_sketch import GearSketch
from app.dialogs.mesh_sketch import MeshSketch
from app.viewport import BACKGROUND, rgb
from core.commands import AddItem, replace_fields
from core.geometry.mesh_import import import_mesh
from core.gearing.placement import mesh_turn
from core.geometry.rotations import quat_about
from core.model.builders import body_from_source
from core.model.entities import PrimitiveSource
from core.model.files import save
from tests.app.conftest import fill_and_ok, toolbar_button, torque_and_run
from tests.conftest import EXAMPLES, ROOT, two_stage_reducer

GEAR = {"Normal module": 2, "Normal pressure angle": 20, "Face width": 20}
# a helical gear of transverse module 2 mm at beta = 15 deg, as the gear dialog takes it: m_n = m_t cos(beta)
HELICAL = {**GEAR, "Normal module": 2 * math.cos(math.radians(15)), "Helix angle": 15}


def _type(window, name: str, text) -> None:
    """Type into the property dock's field called `name` and finish the entry."""
    edit = window.props.widget().findChild(QLineEdit, name)
    assert edit is not None, name
    edit.setText(str(text))
    edit.editingFinished.emit()


def test_poses_and_speeds_are_edited_in_the_property_dock_and_undone(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear2")
    before = window.doc.model.bodies["gear2"]
    _type(window, "Position y", 5)
    assert window.doc.model.bodies["gear2"].position == pytest.approx((0.06, 0.005, 0.0))
    _type(window, "Orientation axis x", 0)
    _type(window, "Orientation angle", 30)
    q = window.doc.model.bodies["gear2"].orientation
    assert q == pytest.approx(tuple(quat_about((0, 0, 1), math.radians(30))), abs=1e-12)
    _type(window, "Initial angular velocity (rpm) z", 600)
    assert window.doc.model.bodies["gear2"].angular_velocity[2] == pytest.approx(600 * 2 * math.pi / 60)
    # the rad/s field shows the same speed
    assert float(window.props.widget().findChild(QLineEdit, "Initial angular velocity z").text()) == pytest.approx(
        62.8319, rel=1e-5)
    for _ in range(3):
        window.act_undo.trigger()
    assert window.doc.model.bodies["gear2"] == before
    window.select("gear2_joint")
    _type(window, "Position x", 61)
    assert window.doc.model.joints["gear2_joint"].position == pytest.approx((0.061, 0.0, 0.0))
    assert any("61 mm apart" in f.message for f in window.doc.findings)


def test_move_dialog_moves_the_joints_along_and_a_finding_fixes_itself_with_one_click(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear2")
    fill_and_ok(qtbot, {"Shift x": 5})
    qtbot.mouseClick(window.props.widget().findChild(QPushButton, "move_body"), Qt.LeftButton)
    model = window.doc.model
    assert model.bodies["gear2"].position == pytest.approx((0.065, 0.0, 0.0))
    assert model.joints["gear2_joint"].position == pytest.approx((0.065, 0.0, 0.0))
    row = next(i for i in range(window.messages.list.count()) if "65 mm apart" in window.messages.list.item(i).text())
    item = window.messages.list.item(row)
    assert "double-click: Move gear 2 into mesh" in item.text()
    window.messages.list.itemDoubleClicked.emit(item)
    assert model.bodies["gear2"].position == pytest.approx((0.06, 0.0, 0.0))
    assert not [f for f in window.doc.findings if f.severity == "error"]
    assert abs(mesh_turn(model, model.gear_pairs["pair"])) < 1e-9
    window.act_undo.trigger()
    assert model.bodies["gear2"].position == pytest.approx((0.065, 0.0, 0.0))


def test_the_move_dialog_says_where_the_body_goes_as_the_values_are_typed(window, qtbot):
    """Move / Rotate said nothing of the result until OK. Its Result line now follows each key: gear 2 of the
    helical pair (origin 60, 0, 0 mm, axis +z, on gear2_joint) shifted 10 mm in y, then also turned 90 deg about x
    through its origin (z goes to -y), then snapped onto gear1_joint (origin 0, 0, 0 mm, axis +z)."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear2")
    seen = []

    def type_into(dlg, name, text):
        edit = dlg.findChild(QLineEdit, name)
        edit.selectAll()
        qtbot.keyClicks(edit, text)

    def look(dlg):
        result = dlg.findChild(QLabel, "move_result")
        seen.append(result.text())
        type_into(dlg, "Shift y", "10")
        seen.append(result.text())
        type_into(dlg, "Turn", "90")
        type_into(dlg, "Turn axis x", "1")
        type_into(dlg, "Turn axis z", "0")
        seen.append(result.text())
        dlg.findChild(QComboBox, "snap").setCurrentText("gear1_joint")
        seen.append(result.text())

    fill_and_ok(qtbot, {}, ok=False, press=look)
    window.move_body("gear2")
    assert seen == ["gear2 stays at 60, 0, 0 mm, its axis along 0, 0, 1; gear2_joint moves with it",
                    "gear2 goes to 60, 10, 0 mm, its axis along 0, 0, 1; gear2_joint moves with it",
                    "gear2 goes to 60, 10, 0 mm, its axis along 0, -1, 0; gear2_joint moves with it",
                    "gear2 goes to 0, 0, 0 mm, its axis along 0, 0, 1; gear2_joint moves with it"]
    assert window.doc.model.bodies["gear2"].position == pytest.approx((0.06, 0.0, 0.0))  # cancelled: as it was


def test_snap_a_gear_onto_a_joint_axis(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.doc.apply(replace_fields(window.doc.model, "gear2", position=(0.07, 0.01, 0.02),
                                    orientation=tuple(quat_about((1, 0, 0), 0.4))))
    fill_and_ok(qtbot, {}, {"snap": "gear2_joint"})
    window.move_body("gear2")
    body = window.doc.model.bodies["gear2"]
    assert body.position == pytest.approx((0.06, 0.0, 0.0), abs=1e-12)
    z = np.array(trimesh.transformations.quaternion_matrix(body.orientation))[:3, 2]
    assert z == pytest.approx((0.0, 0.0, 1.0), abs=1e-12)


@pytest.mark.parametrize("kind", ["external", "internal", "bevel"])
def test_pair_dialog_takes_the_generators_values_and_puts_the_gears_in_mesh(window, qtbot, kind):
    window.act_new.trigger()
    if kind == "bevel":
        bevel = {"Module": 3, "Normal pressure angle": 20, "Face width": 20}
        first = {"Name": "a", **bevel, "Number of teeth": 20, "Pitch angle": 26.56505117707799, "Bore diameter": 12,
                 "Position x": -60, "Axis x": 1, "Axis z": 0}
        second = {"Name": "b", **bevel, "Number of teeth": 40, "Pitch angle": 63.43494882292201, "Bore diameter": 20,
                  "Position z": -40}
        tool = ("bevel_gear", "bevel_gear")
    elif kind == "internal":
        first = {"Name": "a", **GEAR, "Number of teeth": 20, "Helix angle": 0, "Bore diameter": 12, "Position x": 25}
        second = {"Name": "b", **GEAR, "Number of teeth": 60, "Helix angle": 0, "Outer rim diameter": 150}
        tool = ("helical_gear", "inner_gear")
    else:
        first = {"Name": "a", **HELICAL, "Number of teeth": 20, "Bore diameter": 12}
        second = {"Name": "b", **HELICAL, "hand": "Left", "Number of teeth": 40, "Bore diameter": 20, "Position x": 70}
        tool = ("helical_gear", "helical_gear")
    for fields, t in zip((first, second), tool):
        fill_and_ok(qtbot, fields)
        qtbot.mouseClick(toolbar_button(window, t), Qt.LeftButton)
    for n in ("a", "b"):
        fill_and_ok(qtbot, {"Name": f"{n}_joint"}, {"body_i": "ground", "body_j": n})
        qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    seen = {}

    def look_and_move(dlg):
        seen["fields"] = (dlg.kind.currentText(), dlg.z1.value(), dlg.z2.value(), dlg.pair().module,
                          dlg.beta.value(), dlg.gamma.value())
        qtbot.mouseClick(dlg.findChild(QPushButton, "move_gear2"), Qt.LeftButton)
        seen["checks"] = (dlg.checks.text(), dlg.checks.styleSheet())

    fill_and_ok(qtbot, {"Name": "p"}, {"joint1": "a_joint", "joint2": "b_joint", "carrier": "ground"}, press=look_and_move)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    kind_, z1, z2, module, beta, gamma = seen["fields"]
    assert kind_ == kind and (z1, z2) == (20, 40 if kind != "internal" else 60)
    assert module == pytest.approx(0.003 if kind == "bevel" else 0.002)  # the transverse module the gears have
    if kind == "external":
        assert beta == pytest.approx(math.radians(15))
    if kind == "bevel":
        assert gamma == pytest.approx(math.atan2(20, 40))
    assert seen["checks"][0] == "All gear rules hold." and "#b00020" not in seen["checks"][1]
    model = window.doc.model
    assert not [f for f in window.doc.findings if f.severity != "info" and not f.message.startswith("nothing loads")]
    assert abs(mesh_turn(model, model.gear_pairs["p"])) < 1e-9


def test_a_box_through_a_gear_is_a_warning_naming_both(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    fill_and_ok(qtbot, {"Name": "bar", "Size x": 200, "Size y": 5, "Size z": 5})
    qtbot.mouseClick(toolbar_button(window, "box"), Qt.LeftButton)
    texts = [window.messages.list.item(i).text() for i in range(window.messages.list.count())]
    assert any(t.startswith("warning: gear1: overlaps 'bar'") for t in texts)
    window.act_undo.trigger()
    assert not any("overlaps" in window.messages.list.item(i).text() for i in range(window.messages.list.count()))


def test_the_box_dialog_gives_the_solids_mass_and_inertia_as_each_key_is_typed(window, qtbot):
    """A 200 x 20 x 20 mm steel bar: m = 7850 * 8e-5 = 0.628 kg, I_x = m (b^2 + c^2) / 12 = 4.187e-05 and I_y = I_z
    = m (a^2 + c^2) / 12 = 0.002114 kg m^2; the note follows the keys, says an entry out of range, and the body
    added has those numbers."""
    window.act_new.trigger()
    seen = {}

    def type_sizes(dlg):
        seen["start"] = dlg.note.text()
        for label, text in (("Size x", "200"), ("Size y", "20"), ("Size z", "20")):
            edit = dlg.findChild(QLineEdit, label)
            edit.clear()
            qtbot.keyClicks(edit, text)
        seen["typed"] = dlg.note.text()
        edit = dlg.findChild(QLineEdit, "Density")
        edit.clear()
        qtbot.keyClicks(edit, "-1")
        seen["bad"] = dlg.note.text()
        edit.clear()
        qtbot.keyClicks(edit, "7850")

    fill_and_ok(qtbot, {"Name": "bar"}, press=type_sizes)
    qtbot.mouseClick(toolbar_button(window, "box"), Qt.LeftButton)
    m = 7850 * 0.2 * 0.02 * 0.02
    assert seen["start"].startswith(f"{7850 * 0.1 * 0.1 * 0.02:.4g} kg (200 cm^3)")
    assert seen["typed"] == (f"{m:.4g} kg (80 cm^3); inertia about its centre {m * 8e-4 / 12:.4g}, "
                             f"{m * 0.0404 / 12:.4g}, {m * 0.0404 / 12:.4g} kg m^2 about its x, y and z (z along Axis)")
    assert seen["typed"].startswith("0.628 kg") and "4.187e-05, 0.002114, 0.002114" in seen["typed"]
    assert seen["bad"].startswith("Density") and "kg/m^3" in seen["bad"]
    bar = window.doc.model.bodies["bar"]
    assert bar.mass == pytest.approx(m, rel=1e-12)
    assert np.allclose(np.diag(bar.inertia), [m * 8e-4 / 12, m * 0.0404 / 12, m * 0.0404 / 12], rtol=1e-12)


def test_import_turns_a_y_up_file_upright_and_checks_hand_entries(window, qtbot, tmp_path):
    window.act_new.trigger()
    tall = trimesh.creation.box(extents=(10.0, 80.0, 20.0))  # 80 mm along the file's y (up)
    path = tmp_path / "tall.obj"
    tall.export(path)
    fill_and_ok(qtbot, {"Name": "part", "File": str(path)}, {"unit": "mm", "up_axis": "Y up (turn it upright)"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    body = window.doc.model.bodies["part"]
    world = tall.copy()
    world.apply_scale(1e-3)
    world.apply_transform(trimesh.transformations.quaternion_matrix(body.orientation))
    assert np.ptp(world.vertices[:, 2]) == pytest.approx(0.080)  # the file's y is now up
    # a file with holes, mass properties by hand: an inertia no 5 g part of this size can have is refused
    holes = tall.copy()
    holes.faces = holes.faces[:-2]
    open_path = tmp_path / "open.stl"
    holes.export(open_path)
    seen = []
    fill_and_ok(qtbot, {"Name": "p2", "File": str(open_path), "Mass (by hand)": 0.005,
                        "Principal inertia (by hand) x": 1, "Principal inertia (by hand) y": 1,
                        "Principal inertia (by hand) z": 1},
                {"unit": "mm", "fallback": "enter mass properties by hand"}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert seen and "is more than a 0.005 kg part" in seen[0]
    fill_and_ok(qtbot, {"Name": "p2", "File": str(open_path), "Mass (by hand)": 0.005, "Centre of mass (by hand) z": 3,
                        "Principal inertia (by hand) x": 1e-6, "Principal inertia (by hand) y": 1e-6,
                        "Principal inertia (by hand) z": 1e-6},
                {"unit": "mm", "fallback": "enter mass properties by hand"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert window.doc.model.bodies["p2"].com == pytest.approx((0.0, 0.0, 0.003))


def test_a_truncated_stl_is_reported_as_truncated(window, qtbot, tmp_path):
    window.act_new.trigger()
    path = tmp_path / "cut.stl"
    text = trimesh.exchange.stl.export_stl_ascii(trimesh.creation.box(extents=(10.0, 10.0, 10.0)))
    path.write_text(text[: len(text) // 2])
    seen = []
    fill_and_ok(qtbot, {"Name": "cut", "File": str(path)}, seen=seen)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    assert seen and "cut.stl: truncated: the ASCII file ends after" in seen[0] and "facet" in seen[0]


def test_the_view_and_the_tree_update_only_what_an_edit_changed(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    actors = dict(window.viewport.body_actors)
    nodes = dict(window.tree.items)
    window.select("planet2")
    _type(window, "Position z", 1)  # a move: the same actor, a new transform
    assert window.viewport.body_actors["planet2"] is actors["planet2"]
    assert window.viewport.actor_matrix("planet2")[2, 3] == pytest.approx(0.001)
    window.select("sun")
    _type(window, "Face width", 25)  # new macro-geometry: a new mesh for the sun only
    assert window.viewport.body_actors["sun"] is not actors["sun"]
    for name in ("carrier", "planet1", "planet3", "ring"):
        assert window.viewport.body_actors[name] is actors[name]
    assert all(window.tree.items[n] is nodes[n] for n in nodes)
    assert window.doc.model.bodies["sun"].mass > 1.2 * window.doc.model.bodies["planet1"].mass  # regenerated


def test_numbers_are_shown_with_units_and_sensible_digits(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.select("planet1")
    labels = " ".join(label.text() for label in window.props.widget().findChildren(QLabel))
    mass = window.doc.model.bodies["planet1"].mass
    assert f"{mass:.6g} kg" in labels and repr(mass) not in labels
    com_z = window.props.widget().findChild(QLineEdit, "Position z").text()
    assert com_z == "0"
    window.select("sun_planet1")  # an external pair: its helix angle, not the bevel pitch angle
    form = window.props.form
    assert form.widgets["helix_angle"].isVisibleTo(window.props) and not form.widgets["pitch_angle"].isVisibleTo(window.props)
    assert "Normal pressure angle" in [form.form.labelForField(w).text() for w in form.widgets.values()
                                        if form.form.labelForField(w) is not None]


QUIT_SCRIPT = r"""
import sys
sys.path.insert(0, {root!r})
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from app.main_window import MainWindow
from core.commands import AddItem, replace_fields
from core.geometry.mesh_import import import_mesh
app = QApplication([])
w = MainWindow()
w.show()
w.open_file({example!r})
w.doc.apply(replace_fields(w.doc.model, "gear1", angular_velocity=(0.0, 0.0, 5.0)))
QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.Discard)
QTimer.singleShot(200, w.act_quit.trigger)
app.exec()
print("closed", flush=True)
"""


def test_quit_and_discard_leaves_no_traceback(tmp_path):
    env = {**__import__("os").environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", QUIT_SCRIPT.format(root=str(ROOT), example=str(EXAMPLES / "helical_pair.gdyn"))],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0 and "closed" in out.stdout
    assert "Traceback" not in out.stderr and "RuntimeError" not in out.stderr, out.stderr


def test_pair_dialog_before_any_joint_says_so_and_creates_the_joints_on_request(window, qtbot):
    window.act_new.trigger()
    first = {"Name": "a", **HELICAL, "Number of teeth": 20, "Bore diameter": 12}
    second = {"Name": "b", **HELICAL, "hand": "Left", "Number of teeth": 40, "Bore diameter": 20, "Position x": 70}
    for fields in (first, second):
        fill_and_ok(qtbot, fields)
        qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    seen = {}

    def create_and_move(dlg):
        seen["before"] = dlg.checks.text()
        width = dlg.geometry().width()  # the dialog as drawn; it may not be made narrower than its minimum
        qtbot.mouseClick(dlg.findChild(QPushButton, "create_joints"), Qt.LeftButton)
        seen["joints"] = (dlg.joint1.currentText(), dlg.joint2.currentText(), dlg.z1.value(), dlg.z2.value())
        qtbot.mouseClick(dlg.findChild(QPushButton, "move_gear2"), Qt.LeftButton)
        seen["after"] = dlg.checks.text()
        seen["grew"] = dlg.minimumSizeHint().width() - width  # the derived line wraps (it pushed 250 px wider)

    fill_and_ok(qtbot, {"Name": "p"}, press=create_and_move)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["before"] == ("A gear pair joins two gears on revolute joints; the model has 0: press 'Create "
                              "revolute joints' below first.")
    assert seen["joints"] == ("a_joint", "b_joint", 20, 40) and seen["after"] == "All gear rules hold."
    assert seen["grew"] <= 0
    model = window.doc.model
    assert set(model.joints) == {"a_joint", "b_joint"} and "p" in model.gear_pairs
    assert model.joints["a_joint"].axis == pytest.approx((0.0, 0.0, 1.0)) and model.joints["b_joint"].body_i == "ground"
    assert not [f for f in window.doc.findings if f.severity == "error"]
    window.act_undo.trigger()  # joints, move and pair are one step
    assert not model.joints and not model.gear_pairs


@pytest.mark.parametrize("kind, fields, ratio", [
    ("external", {"Helix angle gear 1": 15}, -20 / 40),  # the speeds' ratio, closed form: -z1 / z2
    ("internal", {"z2": 72}, 20 / 72),  # a ring turns the pinion's way
    ("bevel", {"Normal module": 3}, 20 / 40),  # gear 2 turns about another axis: the size of the ratio
])
def test_a_pair_typed_on_an_empty_model_generates_its_gears_in_mesh_and_runs(window, qtbot, kind, fields, ratio):
    """File > New, Gear Pair: the dialog offered no way on but the Gears menu. 'Generate both gears' makes them
    from the entries, each on a joint to the ground, gear 2 in mesh; OK adds it all as one undo step. With a
    torque on gear 1 the run turns gear 2 at -z1/z2 of gear 1's speed (external), z1/z2 (internal), and a bevel
    gear 2 at z1/z2 of it about its own axis."""
    window.act_new.trigger()
    seen = {}

    def generate(dlg):
        seen["before"] = dlg.checks.text()
        qtbot.mouseClick(dlg.findChild(QPushButton, "generate_gears"), Qt.LeftButton)
        seen["after"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "p", **fields}, {"kind": kind}, press=generate)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "press 'Generate both gears' below" in seen["before"] and seen["after"] == "All gear rules hold."
    model = window.doc.model
    assert (set(model.bodies), set(model.joints), set(model.gear_pairs)) == (
        {"gear1", "gear2"}, {"gear1_joint", "gear2_joint"}, {"p"})
    assert not [f for f in window.doc.findings if f.severity == "error" or f.item not in ("forces",)], \
        window.doc.findings  # only 'nothing drives the model'
    res = torque_and_run(window, qtbot, "gear1")
    w1, w2 = res["gear1_joint.speed"][-1], res["gear2_joint.speed"][-1]
    assert w1 > 0
    assert (w2 / w1 if kind != "bevel" else abs(w2 / w1)) == pytest.approx(ratio, rel=1e-9)
    for _ in range(3):  # the run's settings, the torque, then the pair with its gears and joints: one step
        window.act_undo.trigger()
    assert model.is_empty()


def test_a_bevel_pair_from_the_dialogs_defaults_takes_a_face_width_its_rules_allow(window, qtbot):
    """File > New, Gear Pair, Kind bevel: the defaults (z 20/40, m 2 mm) have R_e = 1 mm sqrt(20^2 + 40^2) =
    44.721 mm, so a face at most R_e / 3 = 14.907 mm; the 20 mm face width of a cylindrical pair drew a warning
    straight from the defaults. The width now starts at 14 mm and the generated pair holds every rule; a width the
    user types stays as typed, with the rule's warning."""
    window.act_new.trigger()
    seen = {}

    def bevel(dlg):
        dlg.kind.setCurrentText("bevel")
        seen["width"] = dlg.width.edit.text()
        qtbot.mouseClick(dlg.findChild(QPushButton, "generate_gears"), Qt.LeftButton)
        seen["checks"] = dlg.checks.text()
        dlg.width.edit.clear()
        qtbot.keyClicks(dlg.width.edit, "18")
        dlg.kind.setCurrentText("external")
        dlg.kind.setCurrentText("bevel")
        dlg.width.edit.editingFinished.emit()
        seen["typed"] = (dlg.width.edit.text(), dlg.checks.text())

    fill_and_ok(qtbot, {"Name": "p"}, press=bevel, ok=False)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["width"] == "14" and seen["checks"] == "All gear rules hold."
    assert seen["typed"][0] == "18" and "face width 18 mm is over 14.907 mm" in seen["typed"][1]


def test_pair_dialog_of_spur_gears_gives_gear_2_a_helix_angle_of_0_not_minus_0(window, qtbot):
    window.act_new.trigger()
    for fields in ({"Name": "a", "Number of teeth": 20}, {"Name": "b", "Number of teeth": 40, "Position x": 60}):
        fill_and_ok(qtbot, fields)
        qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    seen = []

    def create(dlg):
        qtbot.mouseClick(dlg.findChild(QPushButton, "create_joints"), Qt.LeftButton)
        seen.append(dlg.derived.text())

    fill_and_ok(qtbot, {"Name": "p"}, press=create)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen[0].startswith("m_t 2 mm, m_n 2 mm; helix angle gear 2 0 deg; centre distance 60 mm"), seen


def test_a_new_models_first_gear_is_brought_into_view(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")  # a camera placed for a large set
    window.viewport.renderer.GetActiveCamera().Zoom(40.0)  # and zoomed far into it
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "a", **HELICAL, "Number of teeth": 20, "Bore diameter": 12,
                        "Position x": 300})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    image = window.viewport.frame_image().astype(int)
    h, w, _ = image.shape
    background = np.array([round(255 * c) for c in rgb(BACKGROUND)])
    middle = image[h // 3:2 * h // 3, w // 3:2 * w // 3]
    body = np.abs(middle - background).sum(axis=2) > 30
    assert body.mean() > 0.2  # the gear, 300 mm off the origin, fills much of the middle of the view


def test_import_takes_cm_inch_and_x_up_sketches_it_upright_and_enables_hand_fields_only_when_chosen(window, qtbot, tmp_path):
    window.act_new.trigger()
    box = trimesh.creation.box(extents=(8.0, 1.0, 2.0))  # 8 units along the file's x
    path = tmp_path / "bar.stl"
    box.export(path)
    states = {}

    def look(dlg):
        dlg.show_preview()
        states["front"] = np.ptp(dlg.sketch.outlines["front"], axis=0)  # [m] across and up in the front view
        fallback = dlg.findChild(QComboBox, "fallback")
        states["refuse"] = (dlg.mass.isEnabled(), dlg.density.isEnabled())
        fallback.setCurrentText("enter mass properties by hand")
        states["manual"] = (dlg.mass.isEnabled(), dlg.density.isEnabled())
        fallback.setCurrentText("refuse")

    fill_and_ok(qtbot, {"Name": "bar_cm", "File": str(path), "Density": 1000},
                {"unit": "cm", "up_axis": "X up (turn it upright)"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    front = states.pop("front")
    assert states == {"refuse": (False, True), "manual": (True, False)}
    assert front[1] == pytest.approx(0.08)  # the sketch stands the file's x (8 cm) upright, as the import does
    fill_and_ok(qtbot, {"Name": "bar_in", "File": str(path), "Density": 1000}, {"unit": "inch"})
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    bodies = window.doc.model.bodies
    assert bodies["bar_cm"].mass == pytest.approx(1000 * 16 * 1e-6)  # 16 cm^3 of water
    assert bodies["bar_in"].mass == pytest.approx(1000 * 16 * 0.0254**3)
    world = box.copy()
    world.apply_scale(0.01)
    world.apply_transform(trimesh.transformations.quaternion_matrix(bodies["bar_cm"].orientation))
    assert np.ptp(world.vertices[:, 2]) == pytest.approx(0.08)  # the file's x is now up


@pytest.mark.parametrize("tool, fields, words", [
    # ISO 21771 by hand, from the normal module: m_t = m_n / cos(beta) = 2 / cos 15 deg = 2.07055 mm; d = z m_t =
    # 41.411 mm; d_a = d + 2 m_n; d_f = d - 2.5 m_n; d_b = d cos(alpha_t), alpha_t = atan(tan 20 deg / cos 15 deg)
    ("helical_gear", {**GEAR, "Number of teeth": 20, "Helix angle": 15},
     "m_t 2.07055 mm, m_n 2 mm, d 41.411 mm, d_a 45.411 mm, d_f 36.411 mm, d_b 38.7513 mm"),
    ("helical_gear", {**GEAR, "Number of teeth": 20, "Helix angle": 15, "hand": "Left"},  # the same sizes
     "m_t 2.07055 mm, m_n 2 mm, d 41.411 mm, d_a 45.411 mm, d_f 36.411 mm, d_b 38.7513 mm"),
    ("bevel_gear", {"Module": 3, "Normal pressure angle": 20, "Face width": 20, "Number of teeth": 20,
                    "Pitch angle": 26.56505117707799, "Bore diameter": 12}, "m 3 mm, d 60 mm, d_a 65.3666 mm"),
])
def test_the_gear_dialog_shows_the_diameters_and_modules_live(window, qtbot, tool, fields, words):
    seen = []
    fill_and_ok(qtbot, fields, press=lambda dlg: seen.append(dlg.derived.text()))
    qtbot.mouseClick(toolbar_button(window, tool), Qt.LeftButton)
    assert len(seen) == 1 and seen[0].startswith(words + "; mass ")
    body = window.doc.model.bodies[next(iter(window.doc.model.bodies))]
    assert seen[0].endswith(f"; mass {body.mass:.4g} kg")  # what OK made
    spec = body.visual.spec
    if spec.kind == "helical":  # near a disc of the pitch diameter less the bore (the teeth fill what gaps take)
        r = 0.5 * spec.module * spec.teeth
        disc = 7850 * math.pi * (r**2 - (0.5 * spec.bore_diameter) ** 2) * spec.face_width
        assert body.mass == pytest.approx(disc, rel=0.06)


def test_a_helical_gear_from_its_normal_module_and_hand_and_the_dialog_remembers_it(window, qtbot):
    """m_n 2 mm, z 20, beta 15 deg, left hand: the body's gear has m_t = 2.0706 mm, d = 41.41 mm and a helix angle
    of -15 deg (the spec's sign: positive for right hand); the next Helical Gear dialog opens with those values."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "a", **GEAR, "Number of teeth": 20, "Helix angle": 15, "hand": "Left",
                        "Bore diameter": 12})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    spec = window.doc.model.bodies["a"].visual.spec
    assert spec.module == pytest.approx(2e-3 / math.cos(math.radians(15)), rel=1e-12)
    assert spec.module * 1e3 == pytest.approx(2.0706, abs=5e-5) and 20 * spec.module * 1e3 == pytest.approx(41.41, abs=5e-3)
    assert spec.helix_angle == pytest.approx(math.radians(-15), rel=1e-12) and spec.teeth == 20
    seen = {}

    def look(dlg):
        seen.update({name: dlg.findChild(QLineEdit, name).text() for name in ("Normal module", "Helix angle",
                                                                              "Number of teeth", "Name")})
        seen["hand"] = dlg.findChild(QComboBox, "hand").currentText()

    fill_and_ok(qtbot, {}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert seen["hand"] == "Left" and float(seen["Normal module"]) == 2 and float(seen["Helix angle"]) == 15
    assert float(seen["Number of teeth"]) == 20 and seen["Name"] != "a"  # a new name: the next gear is another


def test_the_hand_is_chosen_for_a_helical_gear_only(window, qtbot):
    """A spur gear (helix angle 0) has no hand: the choice was open and silently did nothing. It opens as the
    helix angle is typed, in the dialog and in the gear's properties."""
    window.act_new.trigger()
    seen = []

    def look(dlg):
        hand, helix = dlg.findChild(QComboBox, "hand"), dlg.findChild(QLineEdit, "Helix angle")
        seen.append((helix.text(), hand.isEnabled()))
        helix.setText("15")
        seen.append((helix.text(), hand.isEnabled()))

    fill_and_ok(qtbot, {"Name": "a", **GEAR, "Number of teeth": 20, "Helix angle": 0, "Bore diameter": 12}, press=look)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert seen == [("0", False), ("15", True)]
    window.select("a")
    assert window.props.widget().findChild(QComboBox, "hand").isEnabled()  # the gear was made at 15 deg
    _type(window, "Helix angle", 0)
    assert not window.props.widget().findChild(QComboBox, "hand").isEnabled()
    planetary = []

    def look_planetary(dlg):  # the sun's hand in the Planetary Gearset dialog, the same way
        hand, helix = dlg.findChild(QComboBox, "sun_hand"), dlg.findChild(QLineEdit, "Helix angle")
        planetary.append((helix.text(), hand.isEnabled()))
        helix.setText("20")
        planetary.append((helix.text(), hand.isEnabled()))

    fill_and_ok(qtbot, {}, ok=False, press=look_planetary)
    qtbot.mouseClick(toolbar_button(window, "planetary"), Qt.LeftButton)
    assert planetary == [("0", False), ("20", True)]


def test_the_properties_of_a_generated_gear_show_its_normal_module_diameters_and_hand(window, qtbot):
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "a", **GEAR, "Number of teeth": 20, "Helix angle": 15, "hand": "Left",
                        "Bore diameter": 12})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    window.select("a")
    derived = window.props.widget().findChild(QLabel, "gear_derived")
    assert derived.text() == ("m_t 2.07055 mm, m_n 2 mm, d 41.411 mm, d_a 45.411 mm, d_f 36.411 mm, d_b 38.7513 mm; "
                              "left hand")


def test_the_properties_of_a_generated_gear_sketch_its_section_and_follow_an_edit_of_its_teeth(window, qtbot):
    """The helical example's gear1 (m_t 2 mm, 20 teeth, 15 deg): the dock sketches its section as the gear dialog
    does, the pitch circle at m_t z / 2 = 20 mm and the tip circle an addendum of m_n = 2 cos 15 deg = 1.93185 mm
    beyond it; 30 teeth typed there make them 30 and 31.93185 mm (the normal module and helix angle stay)."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear1")
    for teeth in (20, 30):
        if teeth != 20:
            _type(window, "Number of teeth", teeth)
        window.select("gear1")
        sketch = window.props.widget().findChild(GearSketch, "gear_sketch")
        tip = float(np.hypot(*sketch.outline.T).max())
        pitch = 0.001 * teeth
        assert (tip, sketch.pitch) == pytest.approx((pitch + 0.002 * math.cos(math.radians(15)), pitch), abs=1e-9)


def test_properties_edit_a_helical_gears_normal_module_and_hand_and_a_new_helix_angle_keeps_the_normal_module(
        window, qtbot):
    """The dock takes a cylindrical gear as the Helical Gear dialog does: normal module, the helix angle's size,
    its hand. The helical example's gear1 has m_t 2 mm at 15 deg (right hand): m_n = 2 cos 15 deg = 1.93185 mm.
    A helix angle of 20 deg keeps m_n (the same hob): m_t = 1.93185 / cos 20 deg = 2.05583 mm."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear1")
    dock = window.props.widget()
    assert dock.findChild(QLineEdit, "Transverse module") is None
    assert dock.findChild(QLineEdit, "Normal module").text() == "1.93185"
    assert dock.findChild(QComboBox, "hand").currentText() == "Right"
    m_n = 2e-3 * math.cos(math.radians(15))
    _type(window, "Helix angle", 20)
    spec = window.doc.model.bodies["gear1"].visual.spec
    assert spec.module == pytest.approx(m_n / math.cos(math.radians(20)), rel=1e-12)
    assert spec.module * 1e3 == pytest.approx(2.05583, abs=5e-6)
    assert spec.helix_angle == pytest.approx(math.radians(20), rel=1e-12)
    _type(window, "Normal module", 2)
    spec = window.doc.model.bodies["gear1"].visual.spec
    assert spec.module == pytest.approx(2e-3 / math.cos(math.radians(20)), rel=1e-12)
    window.props.widget().findChild(QComboBox, "hand").setCurrentText("Left")
    spec = window.doc.model.bodies["gear1"].visual.spec
    assert spec.helix_angle == pytest.approx(math.radians(-20), rel=1e-12)
    assert spec.module == pytest.approx(2e-3 / math.cos(math.radians(20)), rel=1e-12)
    assert window.doc.undo_stack.count() == 3  # one edit each
    _type(window, "Number of teeth", 21)  # the module and helix entries untouched: neither changes
    after = window.doc.model.bodies["gear1"].visual.spec
    assert (after.teeth, after.module, after.helix_angle) == (21, spec.module, spec.helix_angle)
    for _ in range(4):
        window.doc.undo_stack.undo()
    spec = window.doc.model.bodies["gear1"].visual.spec
    assert (spec.module, spec.helix_angle, spec.teeth) == (2e-3, math.radians(15), 20)


def test_properties_edit_a_pairs_normal_module_as_its_dialog_and_a_new_helix_angle_keeps_it(window, qtbot):
    """The pair's dock takes the normal module, as the Gear Pair dialog does (the pair keeps m_t = m_n /
    cos(beta)): the helical example's pair (m_t 2 mm at 15 deg) reads m_n 1.93185 mm; 20 deg keeps m_n."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("pair")
    dock = window.props.widget()
    assert dock.findChild(QLineEdit, "Transverse module") is None
    assert dock.findChild(QLineEdit, "Normal module").text() == "1.93185"
    m_n = 2e-3 * math.cos(math.radians(15))
    _type(window, "Helix angle of gear 1", 20)
    pair = window.doc.model.gear_pairs["pair"]
    assert pair.module == pytest.approx(m_n / math.cos(math.radians(20)), rel=1e-12)
    assert pair.helix_angle == pytest.approx(math.radians(20), rel=1e-12)
    assert window.doc.undo_stack.count() == 1  # the angle and the module it implies: one edit
    _type(window, "Normal module", 2)
    assert window.doc.model.gear_pairs["pair"].module == pytest.approx(2e-3 / math.cos(math.radians(20)), rel=1e-12)
    assert window.props.widget().findChild(QLineEdit, "Normal module").text() == "2"
    module = window.doc.model.gear_pairs["pair"].module
    _type(window, "Face width", 25)  # the module untouched: exactly as it was
    assert window.doc.model.gear_pairs["pair"].module == module


def test_a_revolute_joint_starts_on_the_selected_gear_or_the_first_gear_without_a_joint(window, qtbot):
    """The joint dialog always offered the first body: after gear a had its joint, the next joint started on a again.
    It takes the gear selected in the tree, and with nothing selected the first gear no joint carries yet."""
    window.act_new.trigger()
    for name, x in (("a", 0), ("b", 70)):
        fill_and_ok(qtbot, {"Name": name, **GEAR, "Number of teeth": 20, "Helix angle": 0, "Bore diameter": 12,
                            "Position x": x})
        qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    window.tree.select("b")
    fill_and_ok(qtbot, {"Name": "b_joint"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    window.tree.select("")
    fill_and_ok(qtbot, {"Name": "a_joint"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    joints = window.doc.model.joints
    assert (joints["b_joint"].body_j, joints["a_joint"].body_j) == ("b", "a")
    assert joints["b_joint"].position == pytest.approx((0.07, 0.0, 0.0))  # on gear b's axis, as the dialog places it


def test_edit_duplicate_copies_the_selected_gear_selects_it_and_undo_removes_it(window, qtbot):
    """Select gear 2, press Ctrl+D: gear2_copy1, the same gear in the same place, selected in the tree for its
    properties; Undo takes it away. A joint is not copied, and the message says why."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.tree.select("gear2")
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.act_duplicate in edit.actions() and window.act_duplicate.shortcut().toString() == "Ctrl+D"
    window.act_duplicate.trigger()
    model = window.doc.model
    assert "gear2_copy1" in model.bodies and model.bodies["gear2_copy1"].visual == model.bodies["gear2"].visual
    assert window.tree.current() == "gear2_copy1" and window.props.name == "gear2_copy1"
    assert "a copy of gear2" in window.statusBar().currentMessage()
    window.act_undo.trigger()
    assert "gear2_copy1" not in window.doc.model.bodies
    shown = []
    window.report = shown.append  # the message box a refused edit opens, read instead of clicked
    window.tree.select("gear1_joint")
    window.act_duplicate.trigger()
    assert len(window.doc.model.joints) == 2 and "'gear1_joint': only a body or a load" in shown[0]


def test_the_gear_dialog_says_in_red_when_the_rack_undercuts_the_teeth(window, qtbot):
    """Ten teeth at 20 deg without shift are undercut (z_min 17.1): a red line under the derived sizes says so,
    with the shift that avoids it, shown whole (the dialog grows); twenty teeth have no such line."""
    seen = {}

    def look(dlg):
        for z in (10, 20):
            dlg.findChild(QLineEdit, "Number of teeth").setText(str(z))
            dlg.show_derived()
            check = dlg.findChild(QLabel, "teeth_check")
            qtbot.wait(20)
            seen[z] = (check.text().replace("\n", " "), check.isVisible(), check.height() >= check.sizeHint().height())

    fill_and_ok(qtbot, {"Name": "g", **GEAR, "Helix angle": 0, "Bore diameter": 5}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert "10 teeth are undercut" in seen[10][0] and "z_min = 17.1" in seen[10][0] and seen[10][1:] == (True, True)
    assert seen[20][:2] == ("", False)


def test_the_gear_dialog_sketches_the_section_the_mesh_is_made_of(window, qtbot):
    """m 2 mm, 20 teeth, bore 5 mm: the section reaches the tip circle (22 mm) and the root circle (17.5 mm), has
    20 teeth (tip lands), a bore of 2.5 mm radius and the pitch circle at 20 mm, all worked by hand; an inner gear
    of 60 teeth points its teeth inwards (tip 58 mm inside root 62.5 mm) inside its rim. A bevel gear (m 3 mm, 20
    teeth, pitch angle atan(1/2) to six digits, face 20 mm, bore 12 mm) shows its axial section: on the back cone at the heel the
    tip stands m along the back cone's line from the pitch point (r + m cos g, m sin g) and the root 1.25 m the
    other way; the toe is the heel scaled towards the apex (0, r / tan g) by (R - b) / R, R = r / sin g; the bore
    runs from the back face (the heel root's height) to the front face (the toe root's)."""
    seen = {}

    def look(dlg):
        sketch = dlg.findChild(GearSketch, "gear_sketch")
        seen[dlg.objectName()] = (sketch.outline.copy(), sketch.plain, sketch.pitch, sketch.isVisible(),
                                  sketch.section.copy(), sketch.apex, dlg.spec().pitch_angle)

    fill_and_ok(qtbot, {"Name": "g", **GEAR, "Number of teeth": 20, "Helix angle": 0, "Bore diameter": 5}, ok=False,
                press=look)
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "r", **GEAR, "Number of teeth": 60, "Helix angle": 0}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "inner_gear"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "b"}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "bevel_gear"), Qt.LeftButton)
    outline, plain, pitch, shown, _, _, _ = seen["helical_gear_dialog"]
    r = np.hypot(*outline.T)
    assert shown and (r.max(), r.min(), plain, pitch) == pytest.approx((0.022, 0.0175, 0.0025, 0.020), abs=1e-9)
    on_tip = r > 0.022 - 1e-9  # the tip lands, one run of points per tooth round the closed outline
    assert int(np.sum(on_tip & ~np.roll(on_tip, 1))) == 20
    outline, plain, pitch, shown, _, _, _ = seen["inner_gear_dialog"]
    r = np.hypot(*outline.T)
    assert (r.min(), r.max(), pitch) == pytest.approx((0.058, 0.0625, 0.060), abs=1e-9) and plain > r.max()
    outline, _, pitch, shown, section, apex, g = seen["bevel_gear_dialog"]
    assert g == pytest.approx(math.atan(0.5), abs=1e-6)  # as the entry shows it, 26.5651 deg
    m, r, b = 0.003, 0.030, 0.020
    top = np.array([0.0, r / math.tan(g)])
    heel = np.array([[r - 1.25 * m * math.cos(g), -1.25 * m * math.sin(g)], [r + m * math.cos(g), m * math.sin(g)]])
    toe = top + (r / math.sin(g) - b) / (r / math.sin(g)) * (heel[::-1] - top)
    ends = [[0.006, heel[0, 1]], [0.006, toe[1, 1]]]
    assert shown and not len(outline) and (pitch, apex) == pytest.approx((r, top[1]), abs=1e-12)
    assert section == pytest.approx(np.array([ends[0], *heel, *toe, ends[1]]), abs=1e-12)


def test_the_pair_dialog_warns_of_a_pinion_the_rack_undercuts(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    seen = {}

    def look(dlg):
        edit = dlg.findChild(QLineEdit, "z1")
        edit.setText("10")
        edit.editingFinished.emit()
        seen["checks"] = dlg.checks.text()

    fill_and_ok(qtbot, {"Name": "p"}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert "warning: gear 1: 10 teeth are undercut by the generating rack" in seen["checks"]


def test_a_second_pair_starts_on_the_joints_no_pair_has_and_the_dialog_grows_for_its_findings(window, qtbot, tmp_path):
    save(two_stage_reducer(own_joint=True, second_pair=False), tmp_path / "two_stage.gdyn")
    window.open_file(tmp_path / "two_stage.gdyn")
    seen = {}

    def look(dlg):
        seen["start"] = (dlg.joint1.currentText(), dlg.joint2.currentText(), dlg.z1.value(), dlg.z2.value(),
                         dlg.checks.text())
        dlg.joint1.setCurrentText("g1_j")  # 123 mm from g4's axis, its mid-face 25 mm away: lines of findings
        qtbot.wait(50)
        seen["findings"] = dlg.checks.text().count("\n") + 1
        fields = [w for w in dlg.findChildren(QLineEdit) if w.isVisible()]
        seen["squeezed"] = [w.objectName() for w in fields if w.height() < w.sizeHint().height()]
        seen["label"] = dlg.checks.height() >= dlg.checks.heightForWidth(dlg.checks.width())

    fill_and_ok(qtbot, {"Name": "p2"}, ok=False, press=look)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["start"] == ("g3_j", "g4_j", 18, 45, "All gear rules hold.")
    assert seen["findings"] >= 2 and seen["squeezed"] == [] and seen["label"], seen


def test_a_pair_on_a_compound_shaft_takes_the_welded_gear_that_meets_its_mate(window, qtbot, tmp_path):
    save(two_stage_reducer(own_joint=False, second_pair=False), tmp_path / "compound.gdyn")  # g3 only welded
    window.open_file(tmp_path / "compound.gdyn")
    seen = {}

    def look(dlg):
        seen["start"] = (dlg.joint1.currentText(), dlg.joint2.currentText(), dlg.z1.value(), dlg.z2.value(),
                         dlg.checks.text())
        teeth = dlg.findChild(QComboBox, "gear1_body")
        seen["teeth"] = (teeth.isVisible(), [teeth.itemText(i) for i in range(teeth.count())], teeth.currentText(),
                         dlg.findChild(QComboBox, "gear2_body").isVisible())

    fill_and_ok(qtbot, {"Name": "p2"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert seen["start"] == ("g2_j", "g4_j", 18, 45, "All gear rules hold.")
    assert seen["teeth"] == (True, ["g2", "g3"], "g3", False)  # gear 4 has nothing welded to it: no row
    pair = window.doc.model.gear_pairs["p2"]
    assert (pair.joint1, pair.gear1, pair.gear2) == ("g2_j", "g3", "")
    assert not [f for f in window.doc.findings if f.severity != "info" and f.item != "forces"], window.doc.findings


def test_create_revolute_joints_gives_none_to_a_gear_welded_to_a_shaft(window, qtbot, tmp_path):
    model = two_stage_reducer(own_joint=False, second_pair=False)
    model.gear_pairs.clear()
    for name in ("g1_j", "g2_j", "g4_j"):
        del model.joints[name]  # the gears with only the weld g2-g3 left
    save(model, tmp_path / "welded.gdyn")
    window.open_file(tmp_path / "welded.gdyn")

    def create(dlg):
        qtbot.mouseClick(dlg.findChild(QPushButton, "create_joints"), Qt.LeftButton)

    fill_and_ok(qtbot, {"Name": "p1"}, press=create)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert set(window.doc.model.joints) == {"shaft", "g1_joint", "g2_joint", "g4_joint"}  # g3 turns on g2's
    assert not [f for f in window.doc.findings if "loop of joints" in f.message]


def test_a_shaft_held_twice_is_held_once_by_double_clicking_its_finding(window, qtbot, tmp_path):
    save(two_stage_reducer(own_joint=True), tmp_path / "looped.gdyn")
    window.open_file(tmp_path / "looped.gdyn")
    items = [window.messages.list.item(i) for i in range(window.messages.list.count())]
    item = next(it for it in items if "loop of joints" in it.text())
    assert item.text().startswith("warning: shaft: closes a loop") and "[double-click: Hold the shaft by one joint]" in item.text()
    window.messages.list.itemDoubleClicked.emit(item)
    model = window.doc.model
    assert "g3_j" not in model.joints and model.gear_pairs["p2"].gear1 == "g3"
    assert not [f for f in window.doc.findings if "loop of joints" in f.message]
    window.act_undo.trigger()
    assert "g3_j" in model.joints and model.gear_pairs["p2"].joint1 == "g3_j"


def test_undo_and_redo_select_the_item_they_change_and_say_which_step(window, qtbot):
    """Teeth of gear1 edited in its Properties, then gear2 selected: Ctrl+Z undid the edit while Properties went on
    showing gear2, so nothing on screen said what had changed back. Undo and Redo now select the item they change
    or bring back (gear1: 20 teeth again; a deleted pair comes back selected) and the status bar names the step."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("gear1")
    _type(window, "Number of teeth", 22)
    assert window.doc.model.bodies["gear1"].visual.spec.teeth == 22
    window.select("gear2")
    window.act_undo.trigger()  # Edit > Undo (Ctrl+Z)
    assert window.doc.model.bodies["gear1"].visual.spec.teeth == 20
    assert window.tree.current() == "gear1"
    assert window.props.widget().findChild(QLineEdit, "Number of teeth").text() == "20"
    assert window.statusBar().currentMessage() == "Undo: Edit gear1"
    window.select("gear2")
    window.act_redo.trigger()
    assert window.tree.current() == "gear1" and window.statusBar().currentMessage() == "Redo: Edit gear1"
    assert window.props.widget().findChild(QLineEdit, "Number of teeth").text() == "22"
    window.select("pair")
    window.act_delete.trigger()
    assert "pair" not in window.doc.model.gear_pairs
    window.select("gear2")
    window.act_undo.trigger()
    assert window.tree.current() == "pair" and window.statusBar().currentMessage().startswith("Undo: Delete")
    window.select("gear2")
    window.act_undo.trigger()  # an edit of gear1 undone while gear1 is not shown: it is selected
    assert window.tree.current() == "gear1"


def test_a_pairs_teeth_typed_in_the_property_dock_regenerate_its_gear_and_gear_2_moves_into_mesh(window, qtbot):
    """Teeth of gear 1 (z1) typed on the helical example's pair: gear 1 is generated again with 25 teeth, gear 2
    moves to the new centre distance m_t (z1 + z2) / 2 = 65 mm, no finding is left, and one undo takes it all
    back."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("pair")
    before = dict(window.doc.model.bodies)
    _type(window, "Teeth of gear 1 (z1)", 25)
    model = window.doc.model
    assert model.gear_pairs["pair"].z1 == 25 and model.bodies["gear1"].visual.spec.teeth == 25
    assert np.linalg.norm(np.subtract(model.joints["gear2_joint"].position, model.joints["gear1_joint"].position)) \
        == pytest.approx(0.065, rel=1e-12)
    assert not [f for f in window.doc.findings if f.item == "pair"]
    window.act_undo.trigger()
    assert window.doc.model.gear_pairs["pair"].z1 == 20 and dict(window.doc.model.bodies) == before


def test_a_bevel_pairs_teeth_typed_in_the_dock_show_the_pitch_angle_that_came_along(window, qtbot):
    """z1 typed on the bevel example's pair: the pitch angle atan(25 / 40) = 32.0054 deg comes with it, and the
    dock's pitch-angle field shows it (it kept 26.5651 while the model had the new one)."""
    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    window.select("pair")
    _type(window, "Teeth of gear 1 (z1)", 25)
    assert math.degrees(window.doc.model.gear_pairs["pair"].pitch_angle) == pytest.approx(32.0054, abs=1e-4)
    shown = window.props.widget().findChild(QLineEdit, "Pitch angle of gear 1").text()
    assert float(shown) == pytest.approx(32.0054, abs=1e-4), shown


def test_a_bevel_pairs_module_is_called_its_outer_module_in_the_dock_and_the_pair_dialog(window, qtbot):
    """A straight bevel pair's module is its outer (heel) module; the Properties dock and the Gear Pair dialog
    called it the normal module, the name of a cylindrical pair's. The dock shows the bevel example's 'Outer
    module' (3 mm), the dialog's label follows its kind, and the helical example's stays 'Normal module'."""

    def dock_label():
        form = window.props.form
        return form.form.labelForField(form.widgets["module"]).text()

    window.open_file(EXAMPLES / "bevel_pair.gdyn")
    window.select("pair")
    assert dock_label() == "Outer module"
    assert float(window.props.widget().findChild(QLineEdit, "Normal module").text()) == pytest.approx(3.0)
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.select("pair")
    assert dock_label() == "Normal module"
    labels = []

    def look(dlg):
        labels.append(dlg.form.labelForField(dlg.module).text())
        dlg.findChild(QComboBox, "kind").setCurrentText("bevel")
        labels.append(dlg.form.labelForField(dlg.module).text())

    fill_and_ok(qtbot, {}, press=look, ok=False)
    qtbot.mouseClick(toolbar_button(window, "gear_pair"), Qt.LeftButton)
    assert labels == ["Normal module", "Outer module"]


def test_the_import_sketch_and_preview_show_where_a_part_off_the_origin_lands(window, qtbot, tmp_path, monkeypatch):
    """A 60 mm disc that its file puts 100 mm along x was sketched centred on the world's axes, as if at the
    origin; the import put it 100 mm away. The sketch now draws it where it lands (the file's place, turned, plus
    the Position typed), the axes from the world's origin, and the preview says where its middle is. Both follow
    each key typed into the Position, and the file is read once for them all, not once a key."""
    window.act_new.trigger()
    reads = []
    monkeypatch.setattr(body_dialogs, "import_mesh", lambda *a: reads.append(a) or import_mesh(*a))
    disc = trimesh.creation.cylinder(radius=30.0, height=20.0)  # mm, its middle at the file's (100, 0, 10)
    disc.apply_translation((100.0, 0.0, 10.0))
    path = tmp_path / "disc.stl"
    disc.export(path)
    seen = {}

    def look(dlg):
        dlg.show_preview()
        seen["file"] = (dlg.sketch.outlines["top"].min(axis=0), dlg.sketch.outlines["top"].max(axis=0),
                        dlg.preview.text())
        read = len(reads)
        for part, value in zip(dlg.position.parts, (0, -100, 5)):
            part.edit.selectAll()
            qtbot.keyClicks(part.edit, str(value))  # typed, not left
        seen["moved"] = (dlg.sketch.outlines["front"].min(axis=0), dlg.sketch.outlines["front"].max(axis=0),
                         dlg.preview.text())
        seen["reads"] = len(reads) - read

    fill_and_ok(qtbot, {"Name": "disc", "File": str(path)}, press=look)
    qtbot.mouseClick(toolbar_button(window, "import_mesh"), Qt.LeftButton)
    low, high, text = seen["file"]
    assert low == pytest.approx((0.070, -0.030), abs=2e-4) and high == pytest.approx((0.130, 0.030), abs=2e-4)
    assert "its middle at 100, 0, 10 mm in the model" in text
    low, high, text = seen["moved"]  # front view: x across, z up; the Position (0, -100, 5) mm added
    assert low == pytest.approx((0.070, 0.005)) and high == pytest.approx((0.130, 0.025))
    assert "its middle at 100, -100, 15 mm in the model" in text
    assert seen["reads"] == 0  # the file as read for the first preview
    body = window.doc.model.bodies["disc"]
    placed = np.asarray(disc.vertices) * 1e-3 + body.position  # the body as imported: the file's place + Position
    assert placed.min(axis=0) == pytest.approx(np.r_[seen["moved"][0][0], -0.130, seen["moved"][0][1]], abs=2e-4)


def test_the_import_sketch_frames_a_part_far_from_the_origin_alone_and_beside_it_when_near(qtbot):
    """Framed with the origin, a 60 mm disc 2 m away would be a dot 3 % of the sketch across, its up axis
    unreadable: it is framed alone (the axes through its middle, the origin's distance written); 100 mm away it is
    framed with the origin."""
    sketch = MeshSketch()
    disc = trimesh.creation.cylinder(radius=0.03, height=0.02)
    sketch.show_points(np.asarray(disc.vertices) + (2.0, 0.0, 0.0))
    middle, size, at_origin = sketch.frame()
    assert not at_origin and middle == pytest.approx((2.0, 0.0, 0.0)) and size == pytest.approx(0.06, rel=1e-3)
    sketch.show_points(np.asarray(disc.vertices) + (0.1, 0.0, 0.0))
    middle, size, at_origin = sketch.frame()
    assert at_origin and middle == pytest.approx((0.065, 0.0, 0.0)) and size == pytest.approx(0.13, rel=1e-3)


def test_a_weld_left_as_it_came_follows_the_body_chosen_and_keeps_what_was_typed(window, qtbot):
    """Found by a new user: with gear2's joint selected, the Fixed Joint dialog started at gear2's origin, and
    choosing shaft (on gear1's axis) as body J left the weld at gear2's origin, 60 mm off the shaft. An entry left
    as it came now follows the body chosen (core.model.builders.selection_defaults): the weld goes to the shaft's
    origin, onto gear1, the gear whose axis runs through it; a point typed in stays as body J changes."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    shaft = body_from_source("shaft", PrimitiveSource(shape="cylinder", radius=0.01, length=0.2), (0.0, 0.0, 0.05))
    window.apply(AddItem(shaft))
    window.select("gear2_joint")
    seen = []

    def look(dlg):
        form = dlg.form
        seen.append((form.field_value("body_i"), form.field_value("position")))
        form.widgets["body_j"].setCurrentText("shaft")
        seen.append((form.field_value("body_i"), form.field_value("position")))
        form.widgets["position"].set_si((0.0, 0.0, 0.08))
        form.widgets["position"].parts[2].edit.editingFinished.emit()
        form.widgets["body_j"].setCurrentText("gear2")
        form.widgets["body_j"].setCurrentText("shaft")
        seen.append((form.field_value("body_i"), form.field_value("position")))

    fill_and_ok(qtbot, {"Name": "weld"}, press=look)
    qtbot.mouseClick(toolbar_button(window, "fixed"), Qt.LeftButton)
    assert seen == [("ground", (0.06, 0.0, 0.0)), ("gear1", (0.0, 0.0, 0.05)), ("gear1", (0.0, 0.0, 0.08))]
    weld = window.doc.model.joints["weld"]
    assert (weld.body_i, weld.body_j, weld.position) == ("gear1", "shaft", (0.0, 0.0, 0.08))
