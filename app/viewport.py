"""The 3-D viewport: one actor per body, built once from its mesh in body axes and moved by a transform.

Meshes are cached by the body's visual source (a generated gear, a primitive,
an imported file read once), so an edit that only moves a body changes one
transform and an animation frame changes only transforms. The view renders on
demand: no timer redraws it while nothing changes.

Built on VTK's own modules and its Qt widget rather than pyvista/pyvistaqt:
pyvista imports matplotlib whole (about 1.6 s of the cold start on this
machine, against 0.5 s for the VTK modules drawn here).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from vtkmodules.qt.QVTKRenderWindowInteractor import QVTKRenderWindowInteractor
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersSources import vtkArrowSource, vtkLineSource
from vtkmodules.vtkInteractionStyle import vtkInteractorStyleTrackballCamera
from vtkmodules.vtkRenderingAnnotation import vtkAxesActor
from vtkmodules.vtkRenderingCore import (vtkActor, vtkLight, vtkPolyDataMapper, vtkPropPicker, vtkRenderer,
                                         vtkTextActor, vtkWindowToImageFilter)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL render window)

from app.view_meshes import MeshCache

from core.geometry.mesh_import import MeshImportError
from core.geometry.rotations import pose_matrix
from core.model.entities import GearSource, PrimitiveSource
from core.model.model import Model

BACKGROUND = "#f4f6f9"
GEAR_COLOUR = "#9fb4cc"
PRIMITIVE_COLOUR = "#c8b48a"
IMPORTED_COLOUR = "#a9c29b"
HIGHLIGHT = "#ffb347"
FORCE_COLOURS = {"Ft": "#d62728", "Fr": "#2ca02c", "Fa": "#8e44ad"}  # red, green, violet
SEE_THROUGH = 0.3  # the bodies' opacity when see-through (View > Transparent Bodies, or tooth forces shown)
AXIS_COLOUR = "#2e86c1"


def rgb(colour: str) -> tuple[float, float, float]:
    c = QColor(colour)
    return c.redF(), c.greenF(), c.blueF()


def vtk_matrix(m: np.ndarray) -> vtkMatrix4x4:
    out = vtkMatrix4x4()
    out.DeepCopy(np.asarray(m, float).ravel())
    return out


def colour_of(visual) -> str:
    if isinstance(visual, GearSource):
        return GEAR_COLOUR
    return PRIMITIVE_COLOUR if isinstance(visual, PrimitiveSource) else IMPORTED_COLOUR


class ViewportWidget(QVTKRenderWindowInteractor):
    """Shows every body of a model, lit, with axes; bodies are placed by `set_poses` or at their initial pose.

    Mouse: left drag rotates, middle drag pans, wheel zooms, a left click
    without a drag picks a body.
    """

    def __init__(self, parent=None, on_pick=None):
        super().__init__(parent)
        # A native window of its own, so a frame is composed over the view alone instead of the whole main window
        # (about twice the frame rate under Xvfb); no multisampling (it costs frame rate under software OpenGL).
        self.setAttribute(Qt.WA_NativeWindow)
        self.ren_win = self.GetRenderWindow()
        self.ren_win.SetMultiSamples(0)
        self.renderer = vtkRenderer()
        self.renderer.SetBackground(*rgb(BACKGROUND))  # a gradient costs a tenth of the frame rate in software GL
        self.renderer.AutomaticLightCreationOff()
        light = vtkLight()  # one headlight: each light costs frame rate under software OpenGL
        light.SetLightTypeToHeadlight()
        light.SetIntensity(1.0)
        self.renderer.AddLight(light)
        self.ren_win.AddRenderer(self.renderer)
        self._add_corner_axes()
        self.interactor = self.ren_win.GetInteractor()
        self.interactor.SetInteractorStyle(vtkInteractorStyleTrackballCamera())
        self.meshes = MeshCache()
        self.body_actors: dict[str, vtkActor] = {}
        self._built_from: dict[str, tuple] = {}  # body -> (visual, base_dir) of its actor
        self.colours: dict[str, str] = {}
        self.problems: list[str] = []
        self.selected = ""
        self.overlay_actors: dict[str, vtkActor] = {}
        self.caption: vtkTextActor | None = None
        self.wireframe = self.transparent = self.forces_see_through = False  # how the bodies are drawn
        self.frames_drawn = 0  # renders done (for frame rates)
        self.ren_win.AddObserver("EndEvent", self._drawn)
        self.on_pick = on_pick
        self._press_at = None
        self._picker = vtkPropPicker()
        self.Initialize()

    def _add_corner_axes(self) -> None:
        """x, y, z arrows in the lower-left corner, turned with the main camera (a second renderer on top)."""
        self.corner = vtkRenderer()
        self.corner.SetViewport(0.0, 0.0, 0.16, 0.22)
        self.corner.SetLayer(1)
        self.corner.InteractiveOff()
        axes = vtkAxesActor()
        axes.SetShaftTypeToCylinder()
        axes.SetTotalLength(1.0, 1.0, 1.0)
        for caption in (axes.GetXAxisCaptionActor2D(), axes.GetYAxisCaptionActor2D(), axes.GetZAxisCaptionActor2D()):
            caption.GetCaptionTextProperty().SetColor(0.2, 0.2, 0.2)
            caption.GetCaptionTextProperty().ShadowOff()
        self.corner.AddActor(axes)
        self.ren_win.SetNumberOfLayers(2)
        self.ren_win.AddRenderer(self.corner)
        self.renderer.AddObserver("StartEvent", self._turn_corner)

    def _turn_corner(self, *_) -> None:
        main = self.renderer.GetActiveCamera()
        cam = self.corner.GetActiveCamera()
        d = np.subtract(main.GetPosition(), main.GetFocalPoint())
        d = d / (np.linalg.norm(d) or 1.0)
        cam.SetFocalPoint(0.0, 0.0, 0.0)
        cam.SetPosition(*(4.0 * d))
        cam.SetViewUp(main.GetViewUp())
        self.corner.ResetCameraClippingRange()

    def _drawn(self, *_) -> None:
        self.frames_drawn += 1

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
            name = self.body_at(at.x(), at.y())
            if name:
                self.on_pick(name)

    def body_at(self, x: int, y: int) -> str:
        """The body drawn at widget pixel (x, y) from the top left, or ''."""
        ratio = self.devicePixelRatioF()
        if not self._picker.PickProp(x * ratio, (self.height() - y) * ratio, self.renderer):
            return ""
        actor = self._picker.GetViewProp()
        return next((name for name, a in self.body_actors.items() if a is actor), "")

    def closeEvent(self, event) -> None:
        self.Finalize()
        super().closeEvent(event)

    # ------------------------------------------------------------------ model

    def sync_model(self, model: Model, base_dir=None, names=None) -> None:
        """Bring the actors in line with `model`: build new ones, rebuild changed shapes, drop removed bodies.

        `names` limits the work to those items (None: every body). Each body is
        placed at its initial pose.
        """
        empty = not self.body_actors
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
                actor.SetUserMatrix(vtk_matrix(pose_matrix(body.position, body.orientation)))
        if names is None:
            for name in [n for n in self.body_actors if n not in model.bodies]:
                self._drop(name)
        self.problems = [p for p in self.problems if p.split(":")[0] in model.bodies]
        if empty and self.body_actors:  # the first bodies of a model: bring them into view
            self.view_isometric()
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
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(poly)
        mapper.ScalarVisibilityOff()
        mapper.SetStatic(True)  # its geometry changes only once, when simplified; then only the transform
        actor = vtkActor()
        actor.SetMapper(mapper)
        prop = actor.GetProperty()
        prop.SetColor(*rgb(HIGHLIGHT if name == self.selected else self.colours[name]))
        prop.SetInterpolationToFlat()
        prop.SetSpecular(0.4)
        prop.SetAmbient(0.25)
        prop.SetDiffuse(0.8)
        self._apply_style(actor)
        self.renderer.AddActor(actor)
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
                mapper = actor.GetMapper()
                mapper.SetStatic(False)
                mapper.SetInputData(poly)
                mapper.Update()
                mapper.SetStatic(True)
        self.request_render()

    def _drop(self, name: str) -> None:
        actor = self.body_actors.pop(name, None)
        self._built_from.pop(name, None)
        if actor is not None:
            self.renderer.RemoveActor(actor)

    def show_model(self, model: Model, base_dir=None, reset_camera: bool = True) -> None:
        """Show `model` afresh (a file was opened or the model replaced)."""
        self.sync_model(model, base_dir)
        if reset_camera:
            self.view_isometric()

    def clear_actors(self) -> None:
        for name in list(self.body_actors):
            self._drop(name)

    def highlight(self, name: str) -> None:
        self.selected = name
        for body, actor in self.body_actors.items():
            actor.GetProperty().SetColor(*rgb(HIGHLIGHT if body == name else self.colours[body]))
        self.request_render()

    def actor_matrix(self, name: str) -> np.ndarray:
        """The 4x4 transform [m] placing body `name`'s actor (body axes to world)."""
        m = self.body_actors[name].GetUserMatrix()
        return np.array([[m.GetElement(i, j) for j in range(4)] for i in range(4)])

    def actor_colour(self, name: str) -> tuple[float, float, float]:
        return tuple(self.body_actors[name].GetProperty().GetColor())

    def triangles_drawn(self) -> int:
        """Triangles of the body meshes on screen (after display simplification)."""
        return sum(a.GetMapper().GetInput().GetNumberOfCells() for a in self.body_actors.values())

    # ------------------------------------------------------------------ camera

    def view_isometric(self) -> None:
        """Look at every body from (1, 1, 1) with z up, all of them in view."""
        self.look_from((1.0, 1.0, 1.0), (0.0, 0.0, 1.0))

    def look_from(self, direction, up) -> None:
        """Look at every body from `direction` (world axes), `up` the screen's up, all of them in view."""
        cam = self.renderer.GetActiveCamera()
        cam.SetFocalPoint(0.0, 0.0, 0.0)
        cam.SetPosition(*direction)
        cam.SetViewUp(*up)
        self.renderer.ResetCamera()
        self.request_render()

    def fit(self) -> None:
        """Every body in view, seen from where the camera looks now."""
        self.renderer.ResetCamera()
        self.request_render()

    def set_parallel(self, on: bool) -> None:
        """Parallel (orthographic) projection, or perspective."""
        self.renderer.GetActiveCamera().SetParallelProjection(on)
        self.renderer.ResetCamera()
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
        prop = actor.GetProperty()
        if self.wireframe:
            prop.SetRepresentationToWireframe()
        else:
            prop.SetRepresentationToSurface()
        opacity = SEE_THROUGH if self.transparent or self.forces_see_through else 1.0
        if prop.GetOpacity() != opacity:
            prop.SetOpacity(opacity)

    # ------------------------------------------------------------------ drawing

    def request_render(self) -> None:
        """Draw at the next paint (one render per frame: an explicit render plus Qt's repaint would be two)."""
        self.update()

    def render(self) -> None:
        """Draw now."""
        self.ren_win.Render()

    # ------------------------------------------------------------------ animation

    def set_poses(self, bodies, positions, orientations, render: bool = True) -> None:
        """Place the named bodies: origins (b, 3) [m] and unit quaternions (b, 4)."""
        for name, p, q in zip(bodies, positions, orientations):
            actor = self.body_actors.get(name)
            if actor is not None:
                actor.SetUserMatrix(vtk_matrix(pose_matrix(p, q)))
        if render:
            self.request_render()

    def set_overlays(self, arrows: dict | None = None, axes: dict | None = None, render: bool = True) -> None:
        """Tooth-force arrows {name: (point, vector, quantity)} (quantity Ft, Fr or Fa: its colour) and joint axes
        {joint: (point, direction, length)} [m], world.

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
        for key, actor in self.overlay_actors.items():
            actor.SetVisibility(key in wanted)
        for key, (kind, matrix) in wanted.items():
            actor = self.overlay_actors.get(key)
            if actor is None:
                actor = _overlay_actor(kind)
                self.renderer.AddActor(actor)
                self.overlay_actors[key] = actor
            actor.SetUserMatrix(vtk_matrix(matrix))
        if render:
            self.request_render()

    def set_caption(self, text: str) -> None:
        """A line of text in the view's lower right (the force scale); '' hides it."""
        if self.caption is None:
            if not text:
                return
            self.caption = vtkTextActor()
            self.caption.GetTextProperty().SetFontSize(14)
            self.caption.GetTextProperty().SetColor(*rgb("#222222"))
            self.caption.GetTextProperty().SetJustificationToRight()
            self.caption.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
            self.caption.SetPosition(0.98, 0.02)
            self.renderer.AddViewProp(self.caption)
        self.caption.SetInput(text)
        self.caption.SetVisibility(bool(text))

    def set_see_through(self, on: bool) -> None:
        """The bodies see-through while tooth forces show (SEE_THROUGH opacity), so the arrows in them show."""
        if on != self.forces_see_through:
            self.forces_see_through = on
            for actor in self.body_actors.values():
                self._apply_style(actor)

    def clear_overlays(self) -> None:
        """Remove every overlay actor (the model they belonged to is gone)."""
        for actor in self.overlay_actors.values():
            self.renderer.RemoveActor(actor)
        self.overlay_actors.clear()
        self.set_caption("")
        self.set_see_through(False)
        self.request_render()

    def frame_image(self) -> np.ndarray:
        """The current view as an RGB array (rows top to bottom, columns, 3), uint8."""
        self.render()
        grab = vtkWindowToImageFilter()
        grab.SetInput(self.ren_win)
        grab.SetInputBufferTypeToRGB()
        grab.ReadFrontBufferOff()
        grab.Update()
        image = grab.GetOutput()
        w, h, _ = image.GetDimensions()
        pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(h, w, -1)
        return np.ascontiguousarray(pixels[::-1, :, :3])

    def save_image(self, path) -> None:
        """Write the current view to a PNG file."""
        from PySide6.QtGui import QImage

        pixels = self.frame_image()
        h, w, _ = pixels.shape
        QImage(pixels.data, w, h, 3 * w, QImage.Format_RGB888).save(str(path))


def _overlay_actor(kind: str) -> vtkActor:
    """An arrow of a tooth-force quantity (Ft, Fr, Fa) or a joint axis ('axis'), of unit length along x."""
    if kind in FORCE_COLOURS:
        source = vtkArrowSource()
        source.SetTipLength(0.22)
        source.SetTipRadius(0.09)
        source.SetShaftRadius(0.035)
    else:
        source = vtkLineSource()
        source.SetPoint1(0.0, 0.0, 0.0)
        source.SetPoint2(1.0, 0.0, 0.0)
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(source.GetOutputPort())
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.PickableOff()
    prop = actor.GetProperty()
    prop.SetColor(*rgb(FORCE_COLOURS.get(kind, AXIS_COLOUR)))
    prop.SetLineWidth(2)
    return actor


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
