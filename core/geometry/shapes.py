"""The mesh [m] of a body's visual source: a generated gear, a primitive or an imported file."""

from __future__ import annotations

from pathlib import Path

import trimesh

from core.geometry.gear_mesh import gear_mesh
from core.geometry.mesh_import import read_mesh
from core.model.entities import GearSource, PrimitiveSource


def primitive_mesh(shape: str, radius: float, length: float, size) -> trimesh.Trimesh:
    """A cylinder (axis z) or a box centred on the origin [m]."""
    if shape == "cylinder":
        return trimesh.creation.cylinder(radius=radius, height=length, sections=64)
    return trimesh.creation.box(extents=size)


def source_mesh(source, base_dir: str | Path | None = None) -> trimesh.Trimesh:
    """Mesh of a GearSource, PrimitiveSource or MeshFileSource, in body axes [m].

    Relative file paths are taken from `base_dir` (the model file's folder).
    """
    if isinstance(source, GearSource):
        return gear_mesh(source.spec)
    if isinstance(source, PrimitiveSource):
        return primitive_mesh(source.shape, source.radius, source.length, source.size)
    path = Path(source.path)
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    return read_mesh(path, source.unit)
