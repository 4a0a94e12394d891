"""Mass, centre of mass and inertia tensor of a closed triangle mesh."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

STEEL_DENSITY = 7850.0  # kg/m^3


@dataclass(frozen=True)
class MassProperties:
    """Rigid-body mass properties in the mesh's frame.

    Attributes
    ----------
    mass : float
        [kg]
    volume : float
        [m^3]
    com : tuple of 3 floats
        Centre of mass [m].
    inertia : tuple of 3 tuples of 3 floats
        Inertia tensor about the centre of mass [kg m^2].
    """

    mass: float
    volume: float
    com: tuple[float, float, float]
    inertia: tuple[tuple[float, float, float], ...]


def mesh_mass_properties(mesh, density: float = STEEL_DENSITY) -> MassProperties:
    """Mass properties of a watertight trimesh.Trimesh [m] of uniform `density` [kg/m^3]."""
    mp = mesh.mass_properties  # unit density
    volume = float(mp["volume"])
    com = tuple(float(c) for c in mp["center_mass"])
    inertia = np.asarray(mp["inertia"], dtype=float) * density
    return MassProperties(
        mass=volume * density,
        volume=volume,
        com=com,
        inertia=tuple(tuple(float(v) for v in row) for row in inertia),
    )
