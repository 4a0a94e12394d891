"""The 3-D viewport: the model's bodies drawn with pyvista in a Qt widget."""

from __future__ import annotations

import numpy as np
import pyvista as pv
from pyvistaqt import QtInteractor

from core.geometry.mesh_import import MeshImportError
from core.geometry.rotations import quat_matrix
from core.geometry.shapes import source_mesh
from core.model.entities import GearSource, PrimitiveSource
from core.model.model import Model

GEAR_COLOUR = "#9fb4cc"
PRIMITIVE_COLOUR = "#c8b48a"
IMPORTED_COLOUR = "#a9c29b"


def body_polydata(body, base_dir=None) -> pv.PolyData | None:
    """The body's mesh placed at its initial pose (world, m), or None if it has no shape."""
    if body.visual is None:
        return None
    mesh = source_mesh(body.visual, base_dir)
    points = mesh.vertices @ quat_matrix(body.orientation).T + np.asarray(body.position)
    faces = np.hstack([np.full((len(mesh.faces), 1), 3), mesh.faces]).ravel()
    return pv.PolyData(points, faces)


class ViewportWidget(QtInteractor):
    """Shows every body of a model, lit, with axes; `show_model` redraws, `highlight` marks the selection."""

    def __init__(self, parent=None, on_pick=None):
        super().__init__(parent)
        self.set_background("white", top="#dde6f0")
        self.add_axes()
        self.body_actors: dict[str, object] = {}
        self.colours: dict[str, str] = {}
        self.problems: list[str] = []
        self.on_pick = on_pick
        if on_pick is not None:
            self.enable_mesh_picking(self._picked, use_actor=True, show=False, show_message=False, left_clicking=True)

    def _picked(self, actor) -> None:
        for name, a in self.body_actors.items():
            if a is actor:
                self.on_pick(name)
                return

    def highlight(self, name: str) -> None:
        for body, actor in self.body_actors.items():
            actor.prop.color = "#ffb347" if body == name else self.colours[body]
        self.render()

    def show_model(self, model: Model, base_dir=None, reset_camera: bool = True) -> None:
        self.clear_actors()
        self.problems = []
        for body in model.bodies.values():
            try:
                poly = body_polydata(body, base_dir)
            except MeshImportError as exc:
                self.problems.append(f"{body.name}: {exc}")
                continue
            if poly is None:
                continue
            colour = (GEAR_COLOUR if isinstance(body.visual, GearSource)
                      else PRIMITIVE_COLOUR if isinstance(body.visual, PrimitiveSource) else IMPORTED_COLOUR)
            self.colours[body.name] = colour
            self.body_actors[body.name] = self.add_mesh(poly, color=colour, smooth_shading=False,
                                                        specular=0.4, name=body.name)
        if reset_camera:
            self.reset_camera()
            self.view_isometric()

    def clear_actors(self) -> None:
        for name in list(self.body_actors):
            self.remove_actor(self.body_actors.pop(name))
