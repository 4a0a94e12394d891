"""The 3-D viewport: one actor per body, built once from its mesh in body axes and moved by a transform.

Meshes are cached by the body's visual source (a generated gear, a primitive,
an imported file read once), so an edit that only moves a body changes one
transform and an animation frame changes only transforms. The view renders on
demand: no timer redraws it while nothing changes.
"""

from __future__ import annotations

import numpy as np
import pyvista as pv
from PySide6.QtCore import Qt, QTimer
from pyvistaqt import QtInteractor

from core.geometry.mesh_import import MeshImportError
from core.geometry.rotations import pose_matrix
from core.model.body_shapes import source_arrays
from core.model.entities import GearSource, MeshFileSource, PrimitiveSource
from core.model.model import Model

BACKGROUND = "#f4f6f9"
GEAR_COLOUR = "#9fb4cc"
PRIMITIVE_COLOUR = "#c8b48a"
IMPORTED_COLOUR = "#a9c29b"
HIGHLIGHT = "#ffb347"
FORCE_COLOUR = "#c0392b"
AXIS_COLOUR = "#2e86c1"


DISPLAY_TRIANGLES = 3000  # above this a body's display mesh is simplified (software OpenGL draws by the triangle)
DISPLAY_KEEP = 0.2  # share of the triangles kept: tooth shapes stay, the flat end faces lose their strips


class MeshCache:
    """Body meshes in body axes (pyvista PolyData) by visual source; an imported file is read once.

    The display mesh of a large body is simplified by quadric decimation
    (flat regions first): the planetary example draws in a third of the time
    under software OpenGL and its teeth keep their shape; mass properties
    always come from the full mesh in core. A new mesh is shown full at once
    and simplified afterwards (`simplify`), so decimation never delays a
    first frame.
    """

    def __init__(self):
        self._meshes: dict = {}
        self.pending: set = set()  # keys whose display mesh is still the full one

    @staticmethod
    def key(visual, base_dir):
        return (visual, str(base_dir) if isinstance(visual, MeshFileSource) else None)

    def get(self, visual, base_dir=None) -> pv.PolyData:
        k = self.key(visual, base_dir)
        if k not in self._meshes:
            vertices, triangles = source_arrays(visual, base_dir)
            faces = np.hstack([np.full((len(triangles), 1), 3), triangles]).ravel()
            poly = pv.PolyData(np.array(vertices, float), faces)
            self._meshes[k] = poly
            if poly.n_cells > DISPLAY_TRIANGLES:
                self.pending.add(k)
        return self._meshes[k]

    def simplify(self) -> dict:
        """Decimate the meshes still full; returns {key: simplified mesh} for the actors to take."""
        done = {}
        for k in list(self.pending):
            done[k] = self._meshes[k] = self._meshes[k].decimate(1.0 - DISPLAY_KEEP)
        self.pending.clear()
        return done


def colour_of(visual) -> str:
    if isinstance(visual, GearSource):
        return GEAR_COLOUR
    return PRIMITIVE_COLOUR if isinstance(visual, PrimitiveSource) else IMPORTED_COLOUR


class ViewportWidget(QtInteractor):
    """Shows every body of a model, lit, with axes; bodies are placed by `set_poses` or at their initial pose."""

    def __init__(self, parent=None, on_pick=None):
        # No auto-update timer (it redrew five times a second forever), no multisampling and one headlight (each
        # costs a frame rate under software OpenGL), and a native window of its own, so a frame is composed over
        # the view alone instead of the whole main window (about twice the frame rate under Xvfb).
        super().__init__(parent, auto_update=False, multi_samples=1, lighting=None)
        self.setAttribute(Qt.WA_NativeWindow)
        self.ren_win.SetMultiSamples(0)
        self.add_light(pv.Light(light_type="headlight", intensity=1.0))
        self.set_background(BACKGROUND)  # a gradient costs a tenth of the frame rate in software OpenGL
        self.add_axes()
        self.meshes = MeshCache()
        self.body_actors: dict[str, object] = {}
        self._built_from: dict[str, tuple] = {}  # body -> (visual, base_dir) of its actor
        self.colours: dict[str, str] = {}
        self.problems: list[str] = []
        self.selected = ""
        self.overlay_actors: dict[str, object] = {}
        self.frames_drawn = 0  # renders done (for frame rates)
        self.ren_win.AddObserver("EndEvent", self._drawn)
        self.on_pick = on_pick
        if on_pick is not None:
            self.enable_mesh_picking(self._picked, use_actor=True, show=False, show_message=False, left_clicking=True)

    def _drawn(self, *_) -> None:
        self.frames_drawn += 1

    def _picked(self, actor) -> None:
        for name, a in self.body_actors.items():
            if a is actor:
                self.on_pick(name)
                return

    # ------------------------------------------------------------------ model

    def sync_model(self, model: Model, base_dir=None, names=None) -> None:
        """Bring the actors in line with `model`: build new ones, rebuild changed shapes, drop removed bodies.

        `names` limits the work to those items (None: every body). Each body is
        placed at its initial pose.
        """
        check = model.bodies if names is None else [n for n in names if n in model.bodies or n in self.body_actors]
        for name in list(check):
            body = model.bodies.get(name)
            if body is None:
                self._drop(name)
                continue
            source = (body.visual, base_dir)
            if self._built_from.get(name) != source:
                self._build(name, body.visual, base_dir)
            actor = self.body_actors.get(name)
            if actor is not None:
                actor.user_matrix = pose_matrix(body.position, body.orientation)
        if names is None:
            for name in [n for n in self.body_actors if n not in model.bodies]:
                self._drop(name)
        self.problems = [p for p in self.problems if p.split(":")[0] in model.bodies]
        self.request_render()

    def _build(self, name: str, visual, base_dir) -> None:
        self._drop(name)
        self._built_from[name] = (visual, base_dir)
        self.problems = [p for p in self.problems if not p.startswith(f"{name}:")]
        if visual is None:
            return
        try:
            poly = self.meshes.get(visual, base_dir)
        except MeshImportError as exc:
            self.problems.append(f"{name}: {exc}")
            return
        self.colours[name] = colour_of(visual)
        actor = self.add_mesh(poly, color=HIGHLIGHT if name == self.selected else self.colours[name],
                              smooth_shading=False, specular=0.4, ambient=0.25, diffuse=0.8, name=f"body:{name}", reset_camera=False, render=False)
        actor.mapper.SetStatic(True)  # its geometry changes only once, when simplified; then only the transform
        self.body_actors[name] = actor
        if self.meshes.pending:
            QTimer.singleShot(0, self._simplify)

    def _simplify(self) -> None:
        done = self.meshes.simplify()
        if not done:
            return
        for name, (visual, base_dir) in self._built_from.items():
            poly = done.get(self.meshes.key(visual, base_dir))
            actor = self.body_actors.get(name)
            if poly is not None and actor is not None:
                actor.mapper.SetStatic(False)
                actor.mapper.dataset = poly
                actor.mapper.SetStatic(True)
        self.request_render()

    def _drop(self, name: str) -> None:
        actor = self.body_actors.pop(name, None)
        self._built_from.pop(name, None)
        if actor is not None:
            self.remove_actor(actor, render=False)

    def show_model(self, model: Model, base_dir=None, reset_camera: bool = True) -> None:
        """Show `model` afresh (a file was opened or the model replaced)."""
        self.sync_model(model, base_dir)
        if reset_camera:
            self.view_isometric(render=False)
            self.reset_camera(render=False)

    def clear_actors(self) -> None:
        for name in list(self.body_actors):
            self._drop(name)

    def highlight(self, name: str) -> None:
        self.selected = name
        for body, actor in self.body_actors.items():
            actor.prop.color = HIGHLIGHT if body == name else self.colours[body]
        self.request_render()

    # ------------------------------------------------------------------ drawing

    def request_render(self) -> None:
        """Draw at the next paint (one render per frame: an explicit render plus Qt's repaint would be two)."""
        self.update()

    # ------------------------------------------------------------------ animation

    def set_poses(self, bodies, positions, orientations, render: bool = True) -> None:
        """Place the named bodies: origins (b, 3) [m] and unit quaternions (b, 4)."""
        for name, p, q in zip(bodies, positions, orientations):
            actor = self.body_actors.get(name)
            if actor is not None:
                actor.user_matrix = pose_matrix(p, q)
        if render:
            self.request_render()

    def set_overlays(self, arrows: dict | None = None, axes: dict | None = None, render: bool = True) -> None:
        """Tooth-force arrows {pair: (point, vector)} and joint axes {joint: (point, direction, length)} [m], world.

        Each overlay is an actor made once from a unit shape and placed by a
        transform; overlays not named are hidden.
        """
        wanted = {}
        for name, (point, vector) in (arrows or {}).items():
            length = float(np.linalg.norm(vector))
            if length > 0:
                wanted[f"arrow:{name}"] = ("arrow", _placed(point, np.asarray(vector) / length, length))
        for name, (point, direction, length) in (axes or {}).items():
            d = np.asarray(direction, float)
            wanted[f"axis:{name}"] = ("axis", _placed(np.asarray(point) - 0.5 * length * d / np.linalg.norm(d), d, length))
        for key, actor in self.overlay_actors.items():
            actor.SetVisibility(key in wanted)
        for key, (kind, matrix) in wanted.items():
            actor = self.overlay_actors.get(key)
            if actor is None:
                shape = (pv.Arrow(tip_length=0.25, tip_radius=0.06, shaft_radius=0.02) if kind == "arrow"
                         else pv.Line((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
                actor = self.add_mesh(shape, color=FORCE_COLOUR if kind == "arrow" else AXIS_COLOUR, line_width=2,
                                      reset_camera=False, render=False, pickable=False, name=key)
                self.overlay_actors[key] = actor
            actor.user_matrix = matrix
        if render:
            self.request_render()

    def frame_image(self) -> np.ndarray:
        """The current view as an RGB array (rows, columns, 3)."""
        self.render()
        return np.asarray(self.screenshot(return_img=True))[:, :, :3]


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
