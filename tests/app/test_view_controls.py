"""The 3-D view's controls, clicked on the toolbar over the view and in the View menu: fit, standard views,
wireframe, see-through bodies, parallel projection and a picture of the view."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QPushButton, QToolButton

from app.viewport import BACKGROUND, HIGHLIGHT, SEE_THROUGH, rgb
from core.commands import SetSettings, replace_fields
from tests.app.conftest import fill_and_ok, toolbar_button
from tests.conftest import EXAMPLES


def view_button(window, name):
    """The button of the view toolbar (over the 3-D view) that triggers the action called `name`."""
    return next(w for w in window.view_toolbar.findChildren(QToolButton)
                if w.defaultAction() is not None and w.defaultAction().objectName() == name)


def on_screen(window) -> bool:
    """Whether every corner of every body's bounds lands inside the view: the camera's projection matrix applied
    in numpy (normalised device coordinates within -1..1)."""
    ren = window.viewport.renderer
    m = ren.GetActiveCamera().GetCompositeProjectionTransformMatrix(ren.GetTiledAspectRatio(), -1.0, 1.0)
    projection = np.array([[m.GetElement(i, j) for j in range(4)] for i in range(4)])
    for actor in window.viewport.body_actors.values():
        b = actor.GetBounds()
        corners = np.array([[*corner, 1.0] for corner in itertools.product(b[0:2], b[2:4], b[4:6])])
        clip = corners @ projection.T
        if np.abs(clip[:, :2] / clip[:, 3:]).max() > 1.0:
            return False
    return True


def test_a_gear_added_out_of_sight_brings_every_body_into_view_and_one_in_sight_keeps_the_camera(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    cam = window.viewport.renderer.GetActiveCamera()
    window.viewport.render()
    assert on_screen(window)
    where = cam.GetPosition()
    fill_and_ok(qtbot, {"Name": "near", "Normal module": 1, "Number of teeth": 12, "Bore diameter": 3,
                        "Position x": 20})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert "near" in window.doc.model.bodies and cam.GetPosition() == where  # in sight: the camera stays
    fill_and_ok(qtbot, {"Name": "far", "Number of teeth": 40, "Bore diameter": 20, "Position x": 400})
    qtbot.mouseClick(toolbar_button(window, "helical_gear"), Qt.LeftButton)
    assert "far" in window.doc.model.bodies
    window.viewport.render()
    assert on_screen(window)  # the 80 mm gear 400 mm away, and the pair, all in view


def test_a_gear_moved_out_of_sight_brings_every_body_into_view(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    window.viewport.render()
    assert on_screen(window)
    window.select("gear2")
    fill_and_ok(qtbot, {"Shift x": 400})
    qtbot.mouseClick(window.props.widget().findChild(QPushButton, "move_body"), Qt.LeftButton)
    assert window.doc.model.bodies["gear2"].position[0] > 0.4
    window.viewport.render()
    assert on_screen(window)  # the gear 400 mm further, and gear 1, in view


def test_fit_and_the_standard_views_put_every_body_in_view_from_their_side(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    cam = window.viewport.renderer.GetActiveCamera()
    cam.Zoom(40.0)
    window.viewport.render()
    assert not on_screen(window)
    qtbot.mouseClick(view_button(window, "view_fit"), Qt.LeftButton)
    window.viewport.render()
    assert on_screen(window)
    for name, direction, up in (("view_top", (0, 0, -1), (0, 1, 0)), ("view_front", (0, 1, 0), (0, 0, 1)),
                                ("view_side", (-1, 0, 0), (0, 0, 1))):
        cam.Zoom(40.0)
        qtbot.mouseClick(view_button(window, name), Qt.LeftButton)
        window.viewport.render()
        assert np.allclose(cam.GetDirectionOfProjection(), direction) and np.allclose(cam.GetViewUp(), up), name
        assert on_screen(window), name


def test_wireframe_and_see_through_hold_for_every_body_including_new_ones(window, qtbot):
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    qtbot.mouseClick(view_button(window, "view_wireframe"), Qt.LeftButton)
    qtbot.mouseClick(view_button(window, "view_transparent"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "plate", "Radius": 50, "Length": 5})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    actors = window.viewport.body_actors
    assert set(actors) == {"gear1", "gear2", "plate"}
    assert all(a.GetProperty().GetRepresentation() == 1 for a in actors.values())  # VTK_WIREFRAME
    assert all(a.GetProperty().GetOpacity() == pytest.approx(0.3) for a in actors.values())
    window.act_forces.trigger()  # tooth forces on and off again: the chosen see-through stays
    window.act_forces.trigger()
    assert all(a.GetProperty().GetOpacity() == pytest.approx(0.3) for a in actors.values())
    qtbot.mouseClick(view_button(window, "view_wireframe"), Qt.LeftButton)
    qtbot.mouseClick(view_button(window, "view_transparent"), Qt.LeftButton)
    assert all(a.GetProperty().GetRepresentation() == 2 and a.GetProperty().GetOpacity() == 1.0
               for a in actors.values())


def test_parallel_projection_and_the_view_image_from_the_view_menu(window, qtbot, tmp_path, monkeypatch):
    window.open_file(EXAMPLES / "planetary.gdyn")
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    by_name = {a.objectName(): a for a in menu.actions()}
    by_name["view_parallel"].trigger()
    assert window.viewport.renderer.GetActiveCamera().GetParallelProjection()
    path = tmp_path / "view.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    by_name["view_image"].trigger()
    grey = np.asarray(Image.open(path).convert("L"), dtype=float)
    assert grey.shape[0] > 100 and grey.std() > 10
    # the selection's highlight is the editor's: the image of the view with the sun selected is the one without
    window.select("sun")
    selected = tmp_path / "selected.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(selected), ""))
    by_name["view_image"].trigger()
    assert np.array_equal(np.asarray(Image.open(selected)), np.asarray(Image.open(path)))
    assert window.viewport.actor_colour("sun") == pytest.approx(rgb(HIGHLIGHT))  # and it is back on screen


def test_keys_of_a_standalone_pyvista_plotter_do_nothing_in_the_view(window, qtbot):
    """pyvista binds q (close the plotter), C (cell picking, with a text over the view), b, v, S and others for
    its own windows; in the app's view a stray key press must neither add to the scene nor close the view."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    view = window.viewport
    before = set(view.renderer.actors)
    view.setFocus()
    for key in ("C", "b", "v", "S", "q"):
        qtbot.keyClick(view, key)
    qtbot.wait(50)
    assert set(view.renderer.actors) == before
    assert view.ren_win is not None and view.isVisible()
    window.viewport.render()
    assert window.viewport.frame_image().std() > 10  # still drawing the gears


def test_a_gear_seen_face_on_from_the_top_stands_out_from_the_background(window, qtbot):
    """The headlight falls square on a face seen from the top: the face was lit near white, the colour of the
    background, and the gear's outline was lost. A point of gear2's face, between bore and teeth, now differs
    from the background by more than a sixth of full scale and is not near white."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    qtbot.mouseClick(view_button(window, "view_top"), Qt.LeftButton)
    view = window.viewport
    picture = view.frame_image().astype(int)
    ren = view.renderer
    ren.SetWorldPoint(0.06 + 0.025, 0.0, 0.011, 1.0)  # gear2 (d 80 mm, bore 20 mm) centred at x 60 mm, its face
    ren.WorldToDisplay()
    x, y, _ = ren.GetDisplayPoint()
    h = picture.shape[0]
    face = picture[h - 1 - round(y), round(x)]
    background = np.array([int(BACKGROUND[k:k + 2], 16) for k in (1, 3, 5)])
    assert np.abs(face - background).max() > 42 and face.min() < 215, (face, background)


def test_body_axes_from_the_view_menu_turn_with_a_cylinder_by_the_angle_its_torque_gives(window, qtbot):
    """From File > New: a cylinder of 50 mm by 20 mm on a joint to the ground, 5 N m about z. A plain cylinder
    turning looks still; its axes show the turn. After 0.1 s its x axis stands at theta = T t^2 / (2 J),
    J = m r^2 / 2 (closed form), and reaches past the cylinder's rim, which turns
    see-through while the axes show."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "disc", "Radius": 50, "Length": 20})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "disc_joint"}, {"body_i": "ground", "body_j": "disc"})
    qtbot.mouseClick(toolbar_button(window, "revolute_joint"), Qt.LeftButton)
    fill_and_ok(qtbot, {"Name": "drive", "law_value": 5}, {"joint": "disc_joint"})
    qtbot.mouseClick(toolbar_button(window, "torque"), Qt.LeftButton)
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    act = next(a for a in menu.actions() if a.objectName() == "view_body_axes")
    view = window.viewport
    assert not view.triad_actors  # none made until asked for
    act.trigger()
    triad = view.triad_actors["disc"]
    m = np.array(triad.user_matrix)
    length = np.linalg.norm(m[:3, 0])
    assert triad.GetVisibility() and np.allclose(m[:3, :3] / length, np.eye(3), atol=1e-12)
    assert length > 0.05  # beyond the cylinder's rim: the tips of x and y show
    assert view.body_actors["disc"].GetProperty().GetOpacity() == SEE_THROUGH  # and what runs inside
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=0.1)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=60_000)
    window.act_end.trigger()
    qtbot.wait(50)
    disc = window.doc.model.bodies["disc"]
    theta = 5.0 * 0.1 ** 2 / (2 * disc.inertia[2][2])
    assert disc.inertia[2][2] == pytest.approx(0.5 * disc.mass * 0.05 ** 2, rel=0.01)  # the mesh's J, as a disc
    x_axis = np.array(triad.user_matrix)[:3, 0] / length
    assert np.allclose(x_axis, (np.cos(theta), np.sin(theta), 0.0), atol=1e-6)
    act.trigger()
    assert not triad.GetVisibility() and view.body_actors["disc"].GetProperty().GetOpacity() == 1.0


def test_body_axes_show_a_bodys_named_frames_at_their_places_and_follow_their_edits(window, qtbot):
    """A frame 'pin' on a cylinder, 40 mm out along x with its z axis along the body's x (where a joint is placed
    'at frame of body J'): Properties list it at once, with its z axis; with Body Axes on, its axes stand there,
    0.4 of the body's long, its z along x; moved to 30 mm by an edit, they follow; the frame removed by Undo,
    they go."""
    window.act_new.trigger()
    fill_and_ok(qtbot, {"Name": "arm", "Radius": 50, "Length": 5})
    qtbot.mouseClick(toolbar_button(window, "cylinder"), Qt.LeftButton)
    window.select("arm")
    fill_and_ok(qtbot, {"Name": "pin", "Origin x": 40, "Axis x": 1, "Axis z": 0})
    qtbot.mouseClick(window.props.widget().findChild(QPushButton, "add_frame"), Qt.LeftButton)
    frame = window.doc.model.bodies["arm"].frames[0]
    assert frame.origin == pytest.approx((0.04, 0.0, 0.0))
    texts = [w.text() for w in window.props.widget().findChildren(QLabel)]
    assert "40, 0, 0 mm; z axis (1, 0, 0)" in texts, [t for t in texts if "axis" in t]  # Properties say where it stands and which way its axis goes
    view = window.viewport
    next(a for a in window.view_controls.menu_actions if a is not None and a.objectName() == "view_body_axes").trigger()
    body, pin = np.array(view.triad_actors["arm"].user_matrix), np.array(view.triad_actors["arm/pin"].user_matrix)
    length = np.linalg.norm(body[:3, 0])
    assert pin[:3, 3] == pytest.approx((0.04, 0.0, 0.0), abs=1e-12)
    assert pin[:3, 2] / (0.4 * length) == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)
    assert np.linalg.norm(pin[:3, 0]) == pytest.approx(0.4 * length, rel=1e-12)
    window.apply(replace_fields(window.doc.model, "arm", frames=(dataclasses.replace(frame, origin=(0.03, 0.0, 0.0)),)))
    assert np.array(view.triad_actors["arm/pin"].user_matrix)[:3, 3] == pytest.approx((0.03, 0.0, 0.0), abs=1e-12)
    window.act_undo.trigger()
    window.act_undo.trigger()  # the frame's edit, then its adding
    assert window.doc.model.bodies["arm"].frames == () and "arm/pin" not in view.triad_actors
    assert view.triad_actors["arm"].GetVisibility()
