"""Import OBJ and STL meshes as rigid-body shapes, with their mass properties.

The file's length unit is stated by the caller (mm, cm, m or in). A mesh that does not
enclose a volume (not watertight) has no well-defined mass properties: the
caller picks a fallback: its holes closed by flat caps, the convex hull, or
mass properties entered by hand, and is told which was used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.errors import GearDynError
from core.geometry.mass_properties import MassProperties, mesh_mass_properties
from core.wording import counted, short_repr

UNIT_SCALE = {"mm": 1e-3, "cm": 1e-2, "m": 1.0, "in": 0.0254}  # the file's length unit to metres
FALLBACKS = ("none", "close_holes", "convex_hull", "manual")
SUFFIXES = (".obj", ".stl")
#: the size a part may have, across its bounding box [m]: beyond it the file's unit is the likelier mistake
SIZE_RANGE = (1e-6, 100.0)


class MeshImportError(GearDynError, ValueError):
    """The file cannot be used; the message says which file and why."""


class NotWatertightError(MeshImportError):
    """The mesh has holes; choose a fallback."""


@dataclass
class ImportedMesh:
    """An imported mesh [m] and what was made of it.

    Attributes
    ----------
    mesh : trimesh.Trimesh
        The mesh as read, scaled to metres (for display).
    mass_properties : MassProperties or None
        From the mesh, or its convex hull; None when they must be entered by hand.
    watertight : bool
        Whether the mesh as read encloses a volume.
    notes : list of str
        What was done, e.g. which fallback was used.
    """

    mesh: object  # trimesh.Trimesh
    mass_properties: MassProperties | None
    watertight: bool
    notes: list[str]


def stl_truncation(path: Path) -> str | None:
    """Why an STL file is cut short, or None: a binary file shorter than its header's facet count says, or an
    ASCII file that ends inside a facet or without 'endsolid'."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(84)
    if len(head) >= 84:
        count = int.from_bytes(head[80:84], "little")
        if size == 84 + 50 * count:
            return None  # a complete binary file (even one whose header starts with 'solid')
        if not head.lstrip().lower().startswith(b"solid"):
            if size < 84 + 50 * count:
                return (f"truncated: its header announces {counted(count, 'facet')}, the file holds "
                        f"{counted((size - 84) // 50, 'whole one')} ({size} bytes of {84 + 50 * count})")
            return None
    text = path.read_bytes()
    if not text.lstrip().lower().startswith(b"solid"):
        return "truncated: shorter than a binary STL header (84 bytes)" if len(head) < 84 else None
    lower = text.lower()
    opened, closed = lower.count(b"facet normal"), lower.count(b"endfacet")
    if opened != closed or b"endsolid" not in lower:
        return (f"truncated: the ASCII file ends after {counted(closed, 'complete facet')}"
                + (" inside a facet" if opened != closed else ", without 'endsolid'"))
    return None


def degeneracy(vertices: np.ndarray, triangles: int) -> str | None:
    """Why a mesh cannot be a solid (a point, a line, a plane, too few triangles), or None."""
    points = np.unique(np.round(vertices, 12), axis=0)
    if len(points) < 4:
        return f"has only {len(points)} distinct vertices (a solid needs at least 4)"
    if triangles < 4:
        return f"has only {counted(triangles, 'triangle')} (a closed solid needs at least 4)"
    centred = points - points.mean(axis=0)
    sv = np.linalg.svd(centred, compute_uv=False)
    if sv[0] == 0:
        return "is a single point"
    if sv[1] <= 1e-9 * sv[0]:
        return "has all its vertices on one line"
    if sv[2] <= 1e-9 * sv[0]:
        return "is flat (all its vertices lie in one plane)"
    return None


def read_mesh(path: str | Path, unit: str = "mm"):
    """Read an OBJ/STL file into one trimesh.Trimesh in metres; raises MeshImportError."""
    import trimesh

    path = Path(path)
    if unit not in UNIT_SCALE:
        raise MeshImportError(f"unit: must be one of {', '.join(UNIT_SCALE)}, got {short_repr(unit)}")
    if path.suffix.lower() not in SUFFIXES:
        raise MeshImportError(f"{path.name}: must be an .obj or .stl file")
    if not path.exists():
        raise MeshImportError(f"{path}: no such file")
    if not path.is_file():  # a folder, a device (/dev/zero never ends) or a pipe (would wait for a writer)
        raise MeshImportError(f"{path}: is not a regular file")
    if path.stat().st_size == 0:
        raise MeshImportError(f"{path.name}: the file is empty")
    if path.suffix.lower() == ".stl":
        cut = stl_truncation(path)
        if cut:
            raise MeshImportError(f"{path.name}: {cut}")
    try:
        # Unprocessed first: trimesh's processing drops faces on non-finite vertices, which would then
        # look like holes instead of the broken numbers they are.
        mesh = trimesh.load(path, force="mesh", process=False)
    except Exception as exc:  # trimesh raises many kinds on corrupt files
        raise MeshImportError(f"{path.name}: cannot be read as {path.suffix[1:].upper()} ({exc})") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshImportError(f"{path.name}: holds no triangles")
    vertices = np.asarray(mesh.vertices, dtype=float)
    if not np.all(np.isfinite(vertices)):
        bad = int(np.sum(~np.all(np.isfinite(vertices), axis=1)))
        raise MeshImportError(f"{path.name}: {bad} of its {len(vertices)} vertices are not finite numbers (NaN or "
                              "infinite): export the part again")
    why = degeneracy(vertices, len(mesh.faces))
    if why:
        raise MeshImportError(f"{path.name}: {why}, so it has no volume, mass or inertia")
    size = float(np.ptp(vertices, axis=0).max()) * UNIT_SCALE[unit]
    lo, hi = SIZE_RANGE
    if not lo <= size <= hi:
        raise MeshImportError(f"unit: the part is {size:.3g} m across in {unit}, outside {lo:g} to {hi:g} m: choose the "
                              "unit the file was written in, or scale the part")
    mesh.process()
    if len(mesh.faces) == 0:
        raise MeshImportError(f"{path.name}: holds no triangles with an area")
    mesh.apply_scale(UNIT_SCALE[unit])
    return mesh


def _solid(mesh, name: str):
    """A watertight mesh wound outwards (its volume positive); MeshImportError when it encloses none."""
    if not mesh.is_winding_consistent:
        mesh.fix_normals()
    if mesh.volume < 0:
        mesh.invert()
    if mesh.volume <= 0:
        raise MeshImportError(f"{name}: encloses no volume")
    return mesh


def import_mesh(path: str | Path, unit: str = "mm", density: float = 7850.0, fallback: str = "none") -> ImportedMesh:
    """Read a mesh and compute its mass properties at `density` [kg/m^3].

    Parameters
    ----------
    fallback : {'none', 'close_holes', 'convex_hull', 'manual'}
        What to do when the mesh is not watertight: 'none' raises
        NotWatertightError, 'close_holes' caps each hole flat and uses the
        capped mesh's mass properties (NotWatertightError where caps cannot
        close it), 'convex_hull' uses the hull's, 'manual' leaves them to be
        entered by hand.
    """
    if fallback not in FALLBACKS:
        raise MeshImportError(f"fallback: must be one of {', '.join(FALLBACKS)}, got {short_repr(fallback)}")
    if not (density > 0 and np.isfinite(density)):
        raise MeshImportError(f"density: must be a number above 0 kg/m^3, got {density!r}")
    mesh = read_mesh(path, unit)
    name = Path(path).name
    if mesh.is_watertight:
        return ImportedMesh(mesh, mesh_mass_properties(_solid(mesh, name), density), True, [])
    warning = f"{name} is not watertight (it has holes), so its volume and inertia are not defined"
    if fallback == "none":
        raise NotWatertightError(warning + ": import it with its holes closed (flat caps), its convex hull, or enter "
                                 "the mass properties by hand")
    if fallback == "close_holes":
        from trimesh.repair import fill_holes  # trimesh loads with the first file read (read_mesh), not before

        capped = mesh.copy()
        # a fan of triangles over each boundary loop: where a loop is not convex its triangles overlap, but their
        # signed volumes cancel, so the integrals are those of the solid capped by the loop's (flat) surface
        if not fill_holes(capped, use_fan=True):
            raise NotWatertightError(f"{warning}, and flat caps do not close it (an edge with more than two faces, "
                                     "or loose triangles): import it with its convex hull, or enter the mass "
                                     "properties by hand")
        added = len(capped.faces) - len(mesh.faces)
        return ImportedMesh(mesh, mesh_mass_properties(_solid(capped, name), density), False,
                            [f"{name} is not watertight (it has holes); its holes were closed with flat caps "
                             f"({counted(added, 'triangle')} added) for its mass properties"])
    if fallback == "manual":
        return ImportedMesh(mesh, None, False, [warning + "; enter mass, centre of mass and inertia by hand"])
    try:
        hull = mesh.convex_hull
    except Exception as exc:  # qhull refuses degenerate input; degeneracy() should have caught it first
        raise MeshImportError(f"{name}: its convex hull cannot be built ({str(exc).splitlines()[0]})") from None
    if hull.volume <= 0:
        raise MeshImportError(f"{name}: its convex hull encloses no volume (the mesh is flat)")
    return ImportedMesh(mesh, mesh_mass_properties(hull, density), False,
                        [warning + "; the mass properties are those of its convex hull (an upper bound)"])
