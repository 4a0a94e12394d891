"""The mesh of a body's visual source in body axes [m]: a generated gear, a primitive or an imported file.

Meshes are cached by their source (an imported file by its path and
modification time), so the view, the mass properties and the interference
checks make each one once; so is a mesh's reach from a point (`source_reach`).
`source_arrays` gives vertices and triangles without loading trimesh (drawing
needs no more); `source_mesh` wraps them in a trimesh.Trimesh for mass
properties and export. Callers must not change the arrays they are given.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import numpy as np

from core.geometry.gear_mesh import gear_mesh_arrays
from core.geometry.mesh_import import read_mesh
from core.geometry.shapes import primitive_arrays
from core.model.entities import GearSource, MeshFileSource, PrimitiveSource

CACHE_SIZE = 256
_cache: OrderedDict = OrderedDict()
_reaches: OrderedDict = OrderedDict()  # (source key, point) -> reach [m]


def resolve(source: MeshFileSource, base_dir=None) -> Path:
    """The file of an imported mesh: relative paths are taken from `base_dir` (the model file's folder)."""
    path = Path(source.path)
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    return path


def _key(source, base_dir) -> object:
    """What a source's mesh is cached under: the source, and an imported file's path and modification time."""
    if not isinstance(source, MeshFileSource):
        return source
    path = resolve(source, base_dir)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = None
    return source, str(path), stamp


def source_arrays(source, base_dir: str | Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) [m, body axes] and triangles (m, 3) of a visual source; raises MeshImportError for files."""
    key = _key(source, base_dir)
    arrays = _cache.get(key)
    if arrays is None:
        if isinstance(source, GearSource):
            arrays = gear_mesh_arrays(source.spec)
        elif isinstance(source, PrimitiveSource):
            arrays = primitive_arrays(source.shape, source.radius, source.length, source.size)
        else:
            mesh = read_mesh(resolve(source, base_dir), source.unit)
            arrays = (np.asarray(mesh.vertices, float), np.asarray(mesh.faces, int))
        for a in arrays:
            a.setflags(write=False)
        _cache[key] = arrays
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return arrays


def source_reach(source, point, base_dir: str | Path | None = None) -> float | None:
    """The largest distance [m] from `point` (body axes) to the source's mesh, None for an empty mesh: worked out
    once per source and point, as the mesh is made once (MeshImportError for a file that cannot be read)."""
    key = (_key(source, base_dir), tuple(float(v) for v in point))
    if key not in _reaches:
        vertices, _ = source_arrays(source, base_dir)
        _reaches[key] = float(np.linalg.norm(vertices - np.asarray(point, float), axis=1).max()) \
            if len(vertices) else None
        while len(_reaches) > CACHE_SIZE:
            _reaches.popitem(last=False)
    return _reaches[key]


def source_mesh(source, base_dir: str | Path | None = None):
    """The source's mesh as a trimesh.Trimesh (a new object each call, on the cached arrays)."""
    import trimesh

    vertices, faces = source_arrays(source, base_dir)
    return trimesh.Trimesh(vertices=vertices.copy(), faces=faces.copy(), process=False)
