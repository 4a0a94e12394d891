"""The bodies' display meshes for the 3-D view: pyvista triangle meshes made from core's arrays, cached by visual
source, and simplified for drawing when large (the mass properties always come from the full mesh in core)."""

from __future__ import annotations

import numpy as np
import pyvista as pv

from core.model.body_shapes import source_arrays
from core.model.entities import MeshFileSource

DISPLAY_TRIANGLES = 3000  # above this a body's display mesh is simplified (software OpenGL draws by the triangle)
DISPLAY_KEEP = 0.2  # share of the triangles kept: tooth shapes stay, the flat end faces lose their strips


def poly_data(vertices, triangles) -> pv.PolyData:
    """A triangle mesh from vertices (n, 3) [m] and triangles (m, 3) of vertex indices."""
    return pv.PolyData.from_regular_faces(np.asarray(vertices, dtype=float), np.asarray(triangles, dtype=np.int64),
                                          deep=True)


class MeshCache:
    """Body meshes in body axes (pyvista PolyData) by visual source; an imported file is read once.

    The display mesh of a large body is simplified by quadric decimation
    (pyvista's `decimate`, flat regions first): the planetary example draws in
    a third of the time under software OpenGL and its teeth keep their shape;
    mass properties always come from the full mesh in core. A new mesh is
    shown full at once and simplified afterwards (`simplify`), so decimation
    never delays a first frame.
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
            poly = poly_data(vertices, triangles)
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
