"""Natural frequencies and mode shapes of a train at its mean mesh stiffness, each mode classified by its shape,
and the Campbell diagram's data.

Classes after Lin and Parker (J. Vib. Acoust. 121, 1999): in a rotational mode the central members (sun,
ring, carrier, fixed-axis gears) only turn; in a translational mode they only translate; in a planet mode
they do not move at all, only the planets do. With equally spaced planets every mode is one of the three
(rotational modes single, translational modes in pairs, planet modes N - 3 fold); anything else is 'mixed'.
The classes are the gear set's: a mode in which no gear and no carrier moves, only what holds them (a hub on
its arms, a planet pin), is a 'support' mode, and supports of one stiffness-to-inertia ratio share its frequency.

A Campbell crossing of a mesh harmonic with a mode is marked excited or not by that harmonic's modal force:
each mesh's stiffness varies with its own phase, and where the phases make the meshes' forces cancel on the
mode (the planet phasing of Parker, J. Sound Vib. 236, 2000) the crossing excites nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.linalg

from core.chbm.harmonic_balance import sample_count
from core.chbm.train_model import TrainModel
from core.errors import ModelError
from core.geometry.rotations import quat_matrix, quat_mul, rotation_vector_quat

ZERO_SHARE = 1e-8  # a part of the kinetic energy below this share counts as still
SAME_FREQUENCY = 1e-6  # relative: frequencies closer than this are one multiple mode


@dataclass
class Mode:
    """One mode.

    Attributes
    ----------
    frequency : float
        [Hz]
    shape : ndarray, shape (n,)
        On the train's coordinates q, M-normalised.
    kind : str
        'rigid', 'rotational', 'translational', 'planet', 'mixed' or 'support'.
    multiplicity : int
        How many modes share the frequency.
    shares : dict of str to float
        Kinetic energy shares of 'central rotation', 'central translation', 'planets'; strain energy shares of
        'meshes' and 'bearings' (each set sums to 1).
    """

    frequency: float
    shape: np.ndarray
    kind: str
    multiplicity: int
    shares: dict[str, float]

    def body_motion(self, train: TrainModel, body: str) -> tuple[np.ndarray, float]:
        """The body's translation (2,) [m] and rotation [rad] in this shape."""
        return train.translation[body] @ self.shape, float(train.rotation[body] @ self.shape)


def train_modes(train: TrainModel, loaded: np.ndarray | None = None) -> list[Mode]:
    """The modes at the mean mesh stiffness on the flanks the mean torques load (`loaded`, default from the
    static state), lowest first."""
    if loaded is None:
        loaded = train.loaded_flanks()
    k = train.mean_stiffness(loaded)
    lam, vec = scipy.linalg.eigh(k, train.mass)
    top = max(float(np.abs(lam).max()), 1e-300)
    freq = np.sqrt(np.clip(lam, 0.0, None)) / (2 * math.pi)
    freq[lam < 1e-9 * top] = 0.0
    geared = {b for m in train.meshes for b in (m.gear1, m.gear2)} | {b.name for b in train.bodies
                                                                       if b.role == "carrier"}
    modes = []
    for i in range(len(lam)):
        v = vec[:, i]
        shares = _shares(train, v, k)
        kind = "rigid" if freq[i] == 0.0 else "support" if _still(train, v, geared) else _kind(shares)
        if kind == "rigid":  # it strains nothing: its strain energy is round-off
            shares["meshes"] = shares["bearings"] = 0.0
        modes.append(Mode(float(freq[i]), v, kind, 1, shares))
    for m in modes:
        m.multiplicity = sum(1 for o in modes if abs(o.frequency - m.frequency) <= SAME_FREQUENCY * max(m.frequency, 1e-9))
    return modes


def _shares(train: TrainModel, v: np.ndarray, k_mean: np.ndarray) -> dict[str, float]:
    kinetic = {"central rotation": 0.0, "central translation": 0.0, "planets": 0.0}
    for b in train.bodies:
        et, er = _kinetic(train, b, v)
        if b.role == "planet":
            kinetic["planets"] += et + er
        else:
            kinetic["central translation"] += et
            kinetic["central rotation"] += er
    total = sum(kinetic.values()) or 1.0
    out = {key: val / total for key, val in kinetic.items()}
    bearings = float(v @ train.stiffness @ v)
    # a sum of squares: the difference of the two matrices leaves round-off of either sign (-0.0 % in a table)
    meshes = max(0.0, float(v @ (k_mean - train.stiffness) @ v))
    strain = bearings + meshes
    out["meshes"] = meshes / strain if strain > 0 else 0.0
    out["bearings"] = bearings / strain if strain > 0 else 0.0
    return out


def _kinetic(train: TrainModel, body, v: np.ndarray) -> tuple[float, float]:
    """A body's translational and rotational kinetic energy in the shape `v`, over half the frequency squared."""
    t = train.translation[body.name] @ v
    return body.mass * float(t @ t), body.inertia * float(train.rotation[body.name] @ v) ** 2


def _still(train: TrainModel, v: np.ndarray, bodies: set[str]) -> bool:
    """Whether `bodies` hold less than ZERO_SHARE of the shape's kinetic energy."""
    energy = {b.name: sum(_kinetic(train, b, v)) for b in train.bodies}
    return sum(e for name, e in energy.items() if name in bodies) < ZERO_SHARE * sum(energy.values())


def _kind(shares: dict[str, float]) -> str:
    rot, trans = shares["central rotation"], shares["central translation"]
    if rot + trans < ZERO_SHARE:
        return "planet"
    if trans < ZERO_SHARE:
        return "rotational"
    if rot < ZERO_SHARE:
        return "translational"
    return "mixed"


def displaced_poses(train: TrainModel, shape: np.ndarray, scale: float, model) -> dict[str, tuple]:
    """Each train body's pose (origin [m], unit quaternion) with the mode shape times `scale` added to its
    initial pose in `model`: its centre moved in the plane, the body turned about its axis through the centre."""
    out = {}
    for b in train.bodies:
        e1, e2, axis = train.frames.get(b.name, np.eye(3))
        body = model.bodies[b.name]
        d = train.translation[b.name] @ shape * scale
        angle = float(train.rotation[b.name] @ shape) * scale
        centre = np.array([*b.centre, 0.0]) @ np.array([e1, e2, axis]) + axis * (np.asarray(body.position) @ axis)
        turn = np.array(rotation_vector_quat(*(axis * angle)))
        turned = quat_matrix(turn) @ (np.asarray(body.position, float) - centre)
        out[b.name] = (centre + turned + d[0] * e1 + d[1] * e2, quat_mul(turn, np.asarray(body.orientation, float)))
    return out


def mode_scale(train: TrainModel, shape: np.ndarray, size: float) -> float:
    """The factor that makes the largest displacement of a point of the bodies' rims `size` [m]."""
    largest = 0.0
    for b in train.bodies:
        d = float(np.hypot(*(train.translation[b.name] @ shape)))
        largest = max(largest, d + abs(float(train.rotation[b.name] @ shape)) * b.radius)
    return size / largest if largest > 0 else 0.0


def distinct(modes: list[Mode]) -> list[Mode]:
    """One mode per frequency (the first of each multiple mode)."""
    out: list[Mode] = []
    for m in modes:
        if not out or abs(m.frequency - out[-1].frequency) > SAME_FREQUENCY * max(m.frequency, 1e-9):
            out.append(m)
    return out


class Crossing(NamedTuple):
    """Where a mesh harmonic meets a natural frequency: input speed [rpm], the harmonic, the mode, whether that
    harmonic of the meshes' stiffness drives it (harmonic_excitation above EXCITED) and its order (an index of
    Campbell.orders)."""

    speed: float
    harmonic: int
    mode: Mode
    excited: bool
    order: int


@dataclass
class Campbell:
    """Natural frequencies against the mesh-frequency harmonics over the input speed range.

    Attributes
    ----------
    speeds : ndarray
        Input speeds [rpm].
    harmonics : list of int
    orders : list of (str, float)
        The mesh frequencies, each with the meshes that run at it ('mesh' where all do: a planetary set; their
        names in a multi-stage train), and Hz per rpm of the input.
    crossings : list of Crossing
        Every harmonic of every order meeting a natural frequency inside the range, by speed.
    """

    speeds: np.ndarray
    harmonics: list[int]
    modes: list[Mode]
    orders: list[tuple[str, float]]
    crossings: list[Crossing]

    def harmonic_line(self, h: int, order: int = 0) -> np.ndarray:
        """The h-th harmonic [Hz] of an order's mesh frequency at `speeds`."""
        return h * self.orders[order][1] * self.speeds


def campbell(train: TrainModel, modes: list[Mode], input_body: str, speed_max: float, harmonics=(1, 2, 3),
             points: int = 200) -> Campbell:
    """The Campbell diagram's data from 0 to `speed_max` [rpm] of `input_body` (natural frequencies do not
    change with speed in this model: no gyroscopic terms); a train whose stages mesh at different frequencies has
    an order for each, its harmonics driven by its own meshes."""
    groups: list[tuple[list[str], float]] = []
    for name, per in train.mesh_frequencies_per_speed(input_body).items():
        per_rpm = per * 2 * math.pi / 60.0
        group = next((g for g in groups if abs(g[1] - per_rpm) <= 1e-9 * max(g[1], per_rpm)), None)
        if group is None:
            groups.append(([name], per_rpm))
        else:
            group[0].append(name)
    speeds = np.linspace(0.0, speed_max, points)
    crossings = []
    for k, (names, per_rpm) in enumerate(groups):
        forcing = {h: harmonic_forces(train, h, names) for h in harmonics}
        for m in distinct(modes):
            if m.frequency <= 0.0 or per_rpm <= 0.0:
                continue
            for h in harmonics:
                s = m.frequency / (h * per_rpm)
                if s <= speed_max:
                    crossings.append(Crossing(s, h, m, harmonic_excitation(forcing[h], modes, m.frequency) > EXCITED,
                                              k))
    crossings.sort(key=lambda c: c.speed)
    orders = [(", ".join(names) if len(groups) > 1 else "mesh", per_rpm) for names, per_rpm in groups]
    return Campbell(speeds, list(harmonics), modes, orders, crossings)


#: a mode is a mesh mode where at least this share of its strain energy is in the meshes
MESH_MODE_SHARE = 0.5


def mesh_mode_ranges(train: TrainModel, modes: list[Mode], input_body: str) -> tuple[float, float, float] | None:
    """Ranges that show a train's mesh modes (whose strain is mostly in the meshes: a mesh frequency drives them):
    the forced response's frequencies of the first mesh from where the slowest mesh runs at 0.2 times the lowest
    to where it runs at 1.2 times the highest [Hz] (every mesh passes every mode; for meshes of one frequency,
    0.2 times the lowest to 1.2 times the highest), and the Campbell diagram's input speed [rpm] at which the
    first mesh reaches that top (nan where the train does not roll one way); None for a train without mesh
    modes. Rounded outward to two digits."""
    found = [m.frequency for m in modes if m.frequency > 0.0 and m.shares["meshes"] >= MESH_MODE_SHARE]
    if not found:
        return None
    ratios = [r for r in train.mesh_frequency_ratios().values() if math.isfinite(r) and r > 0] or [1.0]
    low = _two_digits(0.2 * min(found) / min(ratios), math.floor)
    high = _two_digits(1.2 * max(found) / min(ratios), math.ceil)
    try:
        per_speed = train.mesh_frequencies_per_speed(input_body)
    except ModelError:
        return low, high, math.nan
    per_rpm = per_speed.get(train.meshes[0].name) or max(per_speed.values())
    return low, high, _two_digits(high / (per_rpm * 2 * math.pi / 60.0), math.ceil)


def _two_digits(value: float, direction) -> float:
    """`value` rounded to two significant digits by `direction` (math.floor or math.ceil)."""
    unit = 10.0 ** (math.floor(math.log10(value)) - 1)
    return direction(value / unit) * unit


EXCITED = 1e-6  # a harmonic_excitation below this is the mesh phases' cancellation, round-off above zero


def harmonic_forces(train: TrainModel, harmonic: int, meshes=None) -> np.ndarray:
    """Each mesh flank's force of the meshes' `harmonic`-th stiffness variation on the train's coordinates q,
    complex, (E, n) [N]: the flank the mean torques load carries its static force times its stiffness law's
    harmonic (at the mesh's phase) over its mean; the other flank none, nor the meshes not named in `meshes`
    (those of one mesh frequency; None: all)."""
    lumped = train.lumped
    orders = np.array([c.order for c in lumped.contacts])  # the harmonic of the train's period: harmonic x order
    samples = sample_count(harmonic * int(orders.max()), lumped.switch_fractions())  # every mesh phase on a sample
    stiff = lumped.stiffnesses(np.arange(samples) / samples)  # (E, S), each law at its mesh's phase
    turns = np.exp(-2j * math.pi * harmonic * np.outer(orders, np.arange(samples)) / samples)
    variation = np.sum(stiff * turns, axis=1) / stiff.sum(axis=1)
    force = train.static_flank_forces()
    rows = np.array([train.mesh_rows[m.name][flank] for m in train.meshes for flank in (0, 1)])  # (E, n)
    named = np.array([meshes is None or m.name in meshes for m in train.meshes for _ in (0, 1)])
    return np.where(train.loaded_flanks(force) & named, np.abs(force) * variation, 0.0)[:, None] * rows


def harmonic_excitation(forces: np.ndarray, modes: list[Mode], frequency: float) -> float:
    """How much of a harmonic's flank forces (harmonic_forces) drives the modes at `frequency` [Hz]: the norm of
    their modal forces over the sum of each flank's own, 0 (the mesh phases cancel them) to 1 (all in phase); a
    multiple mode counts as its whole subspace."""
    shapes = np.array([m.shape for m in modes if abs(m.frequency - frequency) <= SAME_FREQUENCY * frequency])
    modal = shapes @ forces.T  # (modes, E)
    own = float(np.linalg.norm(np.abs(modal).sum(axis=1)))
    # a mode the meshes do not strain has modal forces of round-off, whose ratio would read as any phasing:
    # they are measured against the largest a shape of that size could take from these forces
    bound = float(np.abs(shapes).max() * np.abs(forces).sum())
    return float(np.linalg.norm(modal.sum(axis=1))) / own if own > EXCITED * bound else 0.0
