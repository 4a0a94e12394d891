"""The 3-D viewport: a pyvista plotter in the window (pyvistaqt's QtInteractor), one actor per body, built once
from its mesh in body axes and moved by its user matrix.

Meshes are cached by the body's visual source (a generated gear, a primitive,
an imported file read once), so an edit that only moves a body changes one
transform and an animation frame changes only transforms. The view renders on
demand (`auto_update=False`): no timer redraws it while nothing changes.
pyvista gives the camera's standard views, fit, parallel projection, the
orientation axes, text and screenshots; this class adds the model's bodies,
their selection, their axes (View > Body Axes) and the overlays of a run (tooth-force arrows, joint axes,
spring-dampers, pitch circles).
"""

from __future__ import annotations

import itertools
import time
from contextlib import contextmanager

import numpy as np
import pyvista as pv
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from pyvistaqt import QtInteractor
from vtkmodules.vtkRenderingCore import vtkActor, vtkPropPicker

from app.view_meshes import MeshCache
from core.geometry.mesh_import import MeshImportError
from core.geometry.rotations import pose_matrix
from core.model.entities import GearSource, MeshFileSource, PrimitiveSource
from core.model.model import Model

BACKGROUND = "#f4f6f9"
GEAR_COLOUR = "#9fb4cc"
PRIMITIVE_COLOUR = "#c8b48a"
IMPORTED_COLOUR = "#a9c29b"
HIGHLIGHT = "#ffb347"
FORCE_COLOURS = {"Ft": "#d62728", "Fr": "#2ca02c", "Fa": "#8e44ad"}  # red, green, violet
SEE_THROUGH = 0.3  # the bodies' opacity when see-through (View > Transparent Bodies, or overlays shown)
AXIS_COLOUR = "#2e86c1"
SPRING_COLOUR = "#d35400"  # a spring-damper's line between its ends
PITCH_COLOUR = "#0097a7"  # a gear's pitch circle
#: unit overlay shapes along +x, placed by a transform: a tooth-force arrow, a joint axis or a spring-damper's line
ARROW = pv.Arrow(tip_length=0.22, tip_radius=0.09, shaft_radius=0.035)
AXIS_LINE = pv.Line((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
#: the unit circle about +x (in the y-z plane), placed like the shapes above: a pitch circle about its gear's axis
_ANGLES = np.linspace(0.0, 2.0 * np.pi, 120, endpoint=False)
CIRCLE = pv.PolyData(np.column_stack([np.zeros_like(_ANGLES), np.cos(_ANGLES), np.sin(_ANGLES)]),
                     lines=np.hstack([[len(_ANGLES) + 1], np.arange(len(_ANGLES)), [0]]))
#: a body's axes x, y and z from its origin, of unit length, in the orientation axes' colours (View > Body Axes)
TRIAD = pv.PolyData(np.vstack([np.zeros(3), np.eye(3)]), lines=np.array([2, 0, 1, 2, 0, 2, 2, 0, 3]))
TRIAD.cell_data["rgb"] = np.array([pv.Color(getattr(pv.global_theme.axes, f"{a}_color")).int_rgb for a in "xyz"],
                                  dtype=np.uint8)
#: a body's axes are this share of its mesh's farthest reach along an axis, so their tips show outside it
TRIAD_REACH = 1.25
#: a named frame's axes, as a share of its body's
FRAME_SHARE = 0.4


def rgb(colour: str) -> tuple[float, float, float]:
    c = QColor(colour)
    return c.redF(), c.greenF(), c.blueF()


def colour_of(visual) -> str:
    if isinstance(visual, GearSource):
        return GEAR_COLOUR
    return PRIMITIVE_COLOUR if isinstance(visual, PrimitiveSource) else IMPORTED_COLOUR


class ViewportWidget(QtInteractor):
    """Shows every body of a model, lit, with axes; bodies are placed by `set_poses` or at their initial pose.

    Mouse: left drag rotates, middle drag pans, wheel zooms, a left click
    without a drag picks a body. Camera: pyvista's `view_isometric`,
    `view_vector`, `reset_camera`, `enable_parallel_projection`.
    """

    def __init__(self, parent=None, on_pick=None):
        # no multisampling and one headlight: each costs frame rate under software OpenGL
        super().__init__(parent, auto_update=False, multi_samples=0, lighting="none")
        # A native window of its own, so a frame is composed over the view alone instead of the whole main window
        # (about twice the frame rate under Xvfb).
        self.setAttribute(Qt.WA_NativeWindow)
        self.set_background(BACKGROUND)  # a gradient costs a tenth of the frame rate in software GL
        self.add_light(pv.Light(light_type="headlight", intensity=1.0))
        # pyvista's keys for a plotter window of its own (q closes it, C starts cell picking with a text over the
        # view, ...) do not belong in the app's view; VTK's camera keys stay.
        self.iren.clear_key_event_callbacks()
        # pyvistaqt reads a file dropped on the view as a mesh to show; a drop here is the window's (app.file_menu)
        self.setAcceptDrops(False)
        self.add_axes(color="#333333", line_width=3)
        self.enable_trackball_style()
        self.mesh_cache = MeshCache()
        self.body_actors: dict[str, vtkActor] = {}
        self._built_from: dict[str, tuple] = {}  # body -> (visual, base_dir) of its actor
        self.colours: dict[str, str] = {}
        self.problems: list[str] = []
        self.selected = ""
        self.overlay_actors: dict[str, vtkActor] = {}
        self.triad_actors: dict[str, vtkActor] = {}  # each body's and frame's axes (View > Body Axes), when first shown
        self.triad_sizes: dict[str, float] = {}  # the length of each body's axes [m]
        # 'body' or 'body/frame' -> (body, transform of its axes in the body's axes, scaled to their length)
        self.triad_offsets: dict[str, tuple[str, np.ndarray]] = {}
        self.triads_shown = False
        self.caption_text = ""  # the line in the view's lower right ('' none)
        self.empty_hint = ""  # what builds a first model, shown while the view has no body (set by the window)
        self.wireframe = self.transparent = self.forces_see_through = False  # how the bodies are drawn
        self.frames_drawn = 0  # renders done (for frame rates)
        self.render_seconds = 0.0  # wall time of the last render [s]
        self._render_start = 0.0
        self.ren_win.AddObserver("StartEvent", self._drawing)
        self.ren_win.AddObserver("EndEvent", self._drawn)
        self.on_pick = on_pick
        self._press_at = None
        self._picker = vtkPropPicker()

    def _drawing(self, *_) -> None:
        self._render_start = time.perf_counter()

    def _drawn(self, *_) -> None:
        self.frames_drawn += 1
        self.render_seconds = time.perf_counter() - self._render_start

    # A click is seen here in Qt rather than by a VTK observer: the camera style holds the interactor's focus
    # between press and release, so an observer never hears the release.
    def mousePressEvent(self, ev) -> None:
        if ev.button() == Qt.LeftButton:
            self._press_at = ev.position().toPoint()
        super().mousePressEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:
        super().mouseReleaseEvent(ev)
        at, self._press_at = self._press_at, None
        if ev.button() != Qt.LeftButton or at is None or self.on_pick is None:
            return
        if (ev.position().toPoint() - at).manhattanLength() <= 3:  # a click, not the end of a drag
            self.on_pick(self.body_at(at.x(), at.y()))  # on the background: '', nothing selected

    def body_at(self, x: int, y: int) -> str:
        """The body drawn at widget pixel (x, y) from the top left, or ''."""
        ratio = self.devicePixelRatioF()
        if not self._picker.PickProp(x * ratio, (self.height() - y) * ratio, self.renderer):
            return ""
        actor = self._picker.GetViewProp()
        return next((name for name, a in self.body_actors.items() if a is actor), "")

    # ------------------------------------------------------------------ model

    def sync_model(self, model: Model, base_dir=None, names=None) -> None:
        """Bring the actors in line with `model`: build new ones, rebuild changed shapes, drop removed bodies.

        `names` limits the work to those items (None: every body). Each body is
        placed at its initial pose.
        """
        empty = not self.body_actors
        check = model.bodies if names is None else [n for n in names if n in model.bodies or n in self.body_actors]
        added, moved = [], []
        for name in list(check):
            body = model.bodies.get(name)
            if body is None:
                self._drop(name)
                continue
            source = (body.visual, base_dir)
            if self._built_from.get(name) != source:
                if name not in self._built_from:
                    added.append(name)
                self._build(name, body.visual, base_dir)
            actor = self.body_actors.get(name)
            if actor is not None:
                self._set_triads(name, body)
                pose = pose_matrix(body.position, body.orientation)
                if name not in added and not np.array_equal(actor.user_matrix, pose):
                    moved.append(name)
                actor.user_matrix = pose
        if names is None:
            for name in [n for n in self.body_actors if n not in model.bodies]:
                self._drop(name)
        self.problems = [p for p in self.problems if p.split(":")[0] in model.bodies]
        if empty and self.body_actors:  # the first bodies of a model: bring them into view
            self.view_isometric(render=False)
        elif any(name in self.body_actors and not self.in_view(name) for name in added + moved):
            self.reset_camera(render=False)  # a body placed or moved out of sight: every body in view
        self._place_triads()
        self._hint_if_empty()
        self.request_render()

    def _hint_if_empty(self) -> None:
        """`empty_hint` at the top of a view with no body (File > New), gone with the first body."""
        if self.empty_hint and not self.body_actors:  # fixed-size text (a corner annotation grows with the view)
            hint = self.add_text(self.empty_hint, position=(0.5, 0.6), viewport=True, font_size=7, color="#444444",
                                 name="empty_hint", render=False)
            hint.prop.justification_horizontal = "center"
        else:
            self.remove_actor("empty_hint", render=False)

    def in_view(self, name: str) -> bool:
        """Whether every corner of body `name`'s bounding box is inside the view, as the camera looks now."""
        ren = self.renderer
        w, h = self.ren_win.GetSize()
        b = self.body_actors[name].GetBounds()
        for x, y, z in itertools.product(b[0:2], b[2:4], b[4:6]):
            ren.SetWorldPoint(x, y, z, 1.0)
            ren.WorldToDisplay()
            dx, dy, _ = ren.GetDisplayPoint()
            if not (0 <= dx <= w and 0 <= dy <= h):
                return False
        return True

    def _build(self, name: str, visual, base_dir) -> None:
        self._drop(name)
        self._built_from[name] = (visual, base_dir)
        self.problems = [p for p in self.problems if not p.startswith(f"{name}:")]
        if visual is None:
            return
        try:
            poly = self.mesh_cache.get(visual, base_dir)
        except MeshImportError as exc:
            relink = isinstance(visual, MeshFileSource)  # a file that moved: the body's Properties find it again
            self.problems.append(f"{name}: {exc}" + (": Locate File... in its Properties points it at the file"
                                                      if relink else ""))
            return
        self.colours[name] = colour_of(visual)
        actor = self.add_mesh(poly, color=HIGHLIGHT if name == self.selected else self.colours[name],
                              smooth_shading=False, specular=0.15, specular_power=20, ambient=0.3, diffuse=0.7, reset_camera=False,
                              render=False, name=f"body:{name}")
        actor.mapper.SetStatic(True)  # its geometry changes only once, when simplified; then only the transform
        self._apply_style(actor)
        self.body_actors[name] = actor
        self.triad_sizes[name] = TRIAD_REACH * float(np.abs(poly.bounds).max())  # body axes, from its origin
        if self.mesh_cache.pending:
            QTimer.singleShot(0, self._simplify)

    def _simplify(self) -> None:
        done = self.mesh_cache.simplify()
        if not done:
            return
        for name, (visual, base_dir) in self._built_from.items():
            poly = done.get(self.mesh_cache.key(visual, base_dir))
            actor = self.body_actors.get(name)
            if poly is not None and actor is not None:
                mapper = actor.mapper
                mapper.SetStatic(False)
                mapper.SetInputData(poly)
                mapper.Update()
                mapper.SetStatic(True)
        self.request_render()

    def _drop(self, name: str) -> None:
        self._built_from.pop(name, None)
        self.triad_sizes.pop(name, None)
        actor = self.body_actors.pop(name, None)
        if actor is not None:
            self.remove_actor(actor, render=False)
        self._set_triads(name, None)

    def _set_triads(self, name: str, body) -> None:
        """The axes drawn for body `name`: its own, and its named frames' (shorter) at their places; none for None."""
        wanted = {}
        if body is not None:
            size = self.triad_sizes[name]
            wanted[name] = np.diag([size, size, size, 1.0])
            small = np.diag([*[FRAME_SHARE * size] * 3, 1.0])
            for f in body.frames:
                wanted[f"{name}/{f.name}"] = pose_matrix(f.origin, f.orientation) @ small
        for key in [k for k, (owner, _) in self.triad_offsets.items() if owner == name and k not in wanted]:
            del self.triad_offsets[key]
            actor = self.triad_actors.pop(key, None)
            if actor is not None:
                self.remove_actor(actor, render=False)
        self.triad_offsets.update({key: (name, offset) for key, offset in wanted.items()})

    def show_model(self, model: Model, base_dir=None, reset_camera: bool = True) -> None:
        """Show `model` afresh (a file was opened or the model replaced)."""
        self.sync_model(model, base_dir)
        if reset_camera:
            self.view_isometric(render=False)
            self.request_render()

    def highlight(self, name: str) -> None:
        self.selected = name
        for body, actor in self.body_actors.items():
            actor.prop.color = HIGHLIGHT if body == name else self.colours[body]
        self.request_render()

    def actor_matrix(self, name: str) -> np.ndarray:
        """The 4x4 transform [m] placing body `name`'s actor (body axes to world)."""
        return np.array(self.body_actors[name].user_matrix)

    def actor_colour(self, name: str) -> tuple[float, float, float]:
        return tuple(self.body_actors[name].GetProperty().GetColor())

    def triangles_drawn(self) -> int:
        """Triangles of the body meshes on screen (after display simplification)."""
        return sum(a.GetMapper().GetInput().GetNumberOfCells() for a in self.body_actors.values())

    # ------------------------------------------------------------------ camera and drawing style

    def set_parallel(self, on: bool) -> None:
        """Parallel (orthographic) projection, or perspective; every body stays in view."""
        if on:
            self.enable_parallel_projection()
        else:
            self.disable_parallel_projection()
        self.reset_camera(render=False)
        self.request_render()

    def set_style(self, wireframe: bool | None = None, transparent: bool | None = None) -> None:
        """Bodies as wireframes or surfaces, see-through or solid (None leaves a choice as it is)."""
        if wireframe is not None:
            self.wireframe = wireframe
        if transparent is not None:
            self.transparent = transparent
        for actor in self.body_actors.values():
            self._apply_style(actor)
        self.request_render()

    def _apply_style(self, actor) -> None:
        prop = actor.prop
        prop.style = "wireframe" if self.wireframe else "surface"
        opacity = SEE_THROUGH if self.transparent or self.forces_see_through or self.triads_shown else 1.0
        if prop.opacity != opacity:
            prop.opacity = opacity

    def request_render(self) -> None:
        """Draw at the next paint (one render per frame: an explicit render plus Qt's repaint would be two)."""
        self.update()

    # ------------------------------------------------------------------ animation and overlays

    def set_poses(self, bodies, positions, orientations, render: bool = True) -> None:
        """Place the named bodies: origins (b, 3) [m] and unit quaternions (b, 4)."""
        for name, p, q in zip(bodies, positions, orientations):
            actor = self.body_actors.get(name)
            if actor is not None:
                actor.user_matrix = pose_matrix(p, q)
        self._place_triads()
        if render:
            self.request_render()

    def set_body_axes(self, on: bool) -> None:
        """Draw each body's axes at its origin, turning with it (the axes a body's points are typed in), or not; the
        bodies are see-through while they show (an axis runs inside its body, and may run inside another)."""
        self.triads_shown = on
        self._place_triads()
        for actor in self.body_actors.values():
            self._apply_style(actor)
        self.request_render()

    def _place_triads(self) -> None:
        """Each body's and frame's axes where its body's actor is, when they are shown (hidden otherwise)."""
        for key, (name, offset) in self.triad_offsets.items():
            body = self.body_actors.get(name)
            triad = self.triad_actors.get(key)
            if triad is None and self.triads_shown and body is not None:
                triad = self.triad_actors[key] = self.add_mesh(TRIAD, scalars="rgb", rgb=True, line_width=3,
                                                               pickable=False, reset_camera=False, render=False,
                                                               name=f"triad:{key}")
            if triad is None:
                continue
            triad.SetVisibility(self.triads_shown)
            if self.triads_shown:
                triad.user_matrix = np.array(body.user_matrix) @ offset

    def set_overlays(self, arrows: dict | None = None, axes: dict | None = None, springs: dict | None = None,
                     circles: dict | None = None, render: bool = True) -> None:
        """Tooth-force arrows {name: (point, vector, quantity)} (quantity Ft, Fr or Fa: its colour), joint axes
        {joint: (point, direction, length)}, spring-dampers {name: (end i, end j)} and pitch circles {name:
        (centre, axis, radius)} [m], world.

        Each overlay is an actor made once from a unit shape and placed by a
        transform; overlays not named are hidden.
        """
        wanted = {}
        for name, (point, vector, quantity) in (arrows or {}).items():
            length = float(np.linalg.norm(vector))
            if length > 0:
                wanted[f"arrow:{name}"] = (quantity, _placed(point, np.asarray(vector) / length, length))
        for name, (point, direction, length) in (axes or {}).items():
            d = np.asarray(direction, float)
            wanted[f"axis:{name}"] = ("axis", _placed(np.asarray(point) - 0.5 * length * d / np.linalg.norm(d), d, length))
        for name, (start, stop) in (springs or {}).items():
            d = np.asarray(stop, float) - np.asarray(start, float)
            length = float(np.linalg.norm(d))
            if length > 0:
                wanted[f"spring:{name}"] = ("spring", _placed(start, d / length, length))
        for name, (centre, axis, radius) in (circles or {}).items():
            wanted[f"circle:{name}"] = ("circle", _placed(centre, axis, radius))
        for key, actor in self.overlay_actors.items():
            actor.SetVisibility(key in wanted)
        for key, (kind, matrix) in wanted.items():
            actor = self.overlay_actors.get(key)
            if actor is None:
                actor = self.overlay_actors[key] = self._overlay_actor(key, kind)
            actor.user_matrix = matrix
        if render:
            self.request_render()

    def _overlay_actor(self, key: str, kind: str):
        """An arrow of a tooth-force quantity (Ft, Fr, Fa), a joint axis ('axis') or a spring-damper ('spring'), of
        unit length along x, or a pitch circle ('circle', of unit radius about x)."""
        if kind in FORCE_COLOURS:
            return self.add_mesh(ARROW, color=FORCE_COLOURS[kind], pickable=False, reset_camera=False, render=False,
                                 name=key)
        if kind == "circle":
            return self.add_mesh(CIRCLE, color=PITCH_COLOUR, line_width=2, pickable=False, reset_camera=False,
                                 render=False, name=key)
        spring = kind == "spring"
        return self.add_mesh(AXIS_LINE, color=SPRING_COLOUR if spring else AXIS_COLOUR, line_width=3 if spring else 2,
                             pickable=False, reset_camera=False, render=False, name=key)

    def set_caption(self, text: str) -> None:
        """A line of text in the view's lower right (the force scale); '' hides it."""
        if text == self.caption_text:
            return
        self.caption_text = text
        if text:
            self.add_text(text, position="lower_right", font_size=10, color="#222222", name="caption", render=False)
        else:
            self.remove_actor("caption", render=False)

    def set_see_through(self, on: bool) -> None:
        """The bodies see-through while tooth forces show (SEE_THROUGH opacity), so the arrows in them show."""
        if on != self.forces_see_through:
            self.forces_see_through = on
            for actor in self.body_actors.values():
                self._apply_style(actor)

    def clear_overlays(self) -> None:
        """Remove every overlay actor (the model they belonged to is gone)."""
        for actor in self.overlay_actors.values():
            self.remove_actor(actor, render=False)
        self.overlay_actors.clear()
        self.set_caption("")
        self.set_see_through(False)
        self.request_render()

    def frame_image(self) -> np.ndarray:
        """The current view as an RGB array (rows top to bottom, columns, 3), uint8, drawn first: the view draws
        at the next paint, and the screenshot reads what was drawn last."""
        self.render()
        return np.ascontiguousarray(self.screenshot(return_img=True, transparent_background=False)[:, :, :3])

    def save_image(self, path) -> None:
        """Write the current view to a PNG file, drawn first (see `frame_image`), without the selection."""
        with self.unselected():
            self.render()
            self.screenshot(str(path), transparent_background=False)

    @contextmanager
    def unselected(self):
        """The view without the selection's highlight for the time of the block (it is the editor's, not the
        model's: an image or a video of the model leaves it out); the highlight comes back after."""
        selected = self.selected
        self.highlight("")
        try:
            yield
        finally:
            self.highlight(selected)


def _placed(point, direction, length: float) -> np.ndarray:
    """4x4 transform taking the unit x axis to `direction` * length, starting at `point`."""
    d = np.asarray(direction, float)
    d = d / np.linalg.norm(d)
    helper = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    e2 = np.cross(helper, d)
    e2 /= np.linalg.norm(e2)
    out = np.eye(4)
    out[:3, :3] = length * np.column_stack([d, e2, np.cross(d, e2)])
    out[:3, 3] = point
    return out
