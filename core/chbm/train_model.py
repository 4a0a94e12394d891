"""A gear train as a lumped model for harmonic balance: rotations, bearing translations and one element per flank.

For a planetary set this is the translational-rotational model of Lin and Parker (J. Vib. Acoust. 121,
1999, 316-321): every member on a bearing moves in the plane (x, y) and turns (u = rho theta), planets on
bearings to the carrier's pins; each mesh is a spring along its line of action whose deflection mixes the
gears' rotations and the translations of their centres. For a parallel-axis pair on rigid joints it is the
lumped pair of core.chbm.lumped_model. All coordinates are small motions about the nominal rolling, in the
carrier's frame at rest (no gyroscopic or centripetal terms: the carrier speed enters only through the mesh
frequency).

Units: coordinates in metres (translations, and rotations as arc length u = rho theta on the body's
radius rho), masses kg, inertias kg m^2, stiffnesses N/m (bearings) and N m/rad (torsion), torques N m.

The rigid-body motions of the train (the nominal rolling, which no stiffness resists) are taken out:
the coordinates become the M-orthogonal complement of those motions, and a mean torque that accelerates
them acts on the rest as its d'Alembert reaction, as the pair's Eq. (7) does with the torque on gear 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import scipy.linalg

from core.chbm.lumped_model import ContactElement, LumpedModel, mesh_elements
from core.errors import ModelError
from core.model.views import TRAIN_HARMONICS

#: a mesh's periods in a train's period at most: at the most harmonics, each mesh keeps 4 of its own
MAX_ORDER = int(TRAIN_HARMONICS.hi) // 4


@dataclass(frozen=True)
class TrainBody:
    """One body of a train.

    Attributes
    ----------
    name : str
    mass : float
        [kg]
    inertia : float
        About its axis [kg m^2].
    radius : float
        rho [m]: the rotation coordinate is u = rho theta (the base radius of a gear, the planets' centre
        distance for a carrier).
    centre : tuple of float
        Its axis in the plane [m].
    role : str
        'central' (meshes with planets), 'planet', 'carrier', 'gear' (a fixed-axis gear) or 'other'.
    parent : str
        The body it sits on (its bearing's or joint's other body); '' for the ground.
    bearing : tuple of float or None
        (radial stiffness [N/m], radial damping [N s/m]) to the parent; None: its centre moves with the
        parent (a revolute joint).
    torsion : tuple of float
        (stiffness [N m/rad], damping [N m s/rad]) of its rotation relative to the parent.
    held : bool
        Its rotation relative to the parent is prescribed (a speed motor): no rotation coordinate.
    torque : float
        Mean torque on the body about its axis [N m] (its reaction on the parent).
    """

    name: str
    mass: float
    inertia: float
    radius: float
    centre: tuple[float, float]
    role: str = "gear"
    parent: str = ""
    bearing: tuple[float, float] | None = None
    torsion: tuple[float, float] = (0.0, 0.0)
    held: bool = False
    torque: float = 0.0


@dataclass(frozen=True)
class TrainMesh:
    """One mesh: gear 1 and gear 2 with a mesh model (core.gearing.mesh_model.MeshModel).

    Attributes
    ----------
    kind : {'external', 'internal', 'bevel'}
        Internal: gear 2 is the ring, gear 1 the pinion inside it. Bevel: the gears turn about axes of two
        groups, on fixed centres; the mesh couples their rotations alone.
    base_radius_1, base_radius_2 : float
        Each gear's lever from its rotation to the approach along the line of action [m]: the base radius (a
        bevel gear's mean cone radius times cos(alpha): core.gearing.mesh_model.mesh_levers).
    pressure_angle : float
        Working transverse pressure angle [rad].
    phase : float
        The mesh-period fraction of the mesh's stiffness law at the train's phase 0.
    rolling : float
        +1 where the law's phase advances with the train's (the reference gear turns forward on its carrier as
        the train rolls), -1 where it runs back.
    reference, teeth, carrier : str, int, str
        The gear whose teeth count the mesh periods, its number of teeth and the body its centre is fixed
        to ('' the ground): one mesh period per tooth of `reference` turning relative to `carrier`.
    order : int
        The mesh's periods in one period of the train (`common_orders`): 1 where every mesh runs at one
        frequency, as a planetary set's.
    spin_sign : float or None
        `sign`, where the kind does not say it (a bevel pair's, from its axes).
    """

    name: str
    gear1: str
    gear2: str
    kind: str
    base_radius_1: float
    base_radius_2: float
    pressure_angle: float
    law: object
    phase: float = 0.0
    rolling: float = 1.0
    reference: str = ""
    teeth: int = 0
    carrier: str = ""
    order: int = 1
    spin_sign: float | None = None

    @property
    def sign(self) -> float:
        """+1 where positive rotations of both gears (about their bodies' axes) close the drive flank together,
        as an external pair's do; -1 where gear 2's opens it (an internal pair)."""
        if self.spin_sign is not None:
            return self.spin_sign
        return -1.0 if self.kind == "internal" else 1.0

    def frequency_per_speed(self, rotation: dict[str, float]) -> float:
        """Mesh frequency [Hz] at body speeds `rotation` [rad/s]: z |w_ref - w_carrier| / (2 pi) (0 if the
        reference gear or its teeth are not known)."""
        if not self.reference or not self.teeth:
            return 0.0
        return self.teeth * abs(rotation[self.reference] - rotation.get(self.carrier, 0.0)) / (2 * math.pi)


@dataclass(frozen=True)
class TrainSpring:
    """A spring-damper between points of two bodies (plane, world [m]), acting along the line between them.

    stiffness [N/m], damping [N s/m]; body '' is the ground.
    """

    name: str
    body_i: str
    point_i: tuple[float, float]
    body_j: str
    point_j: tuple[float, float]
    stiffness: float
    damping: float = 0.0


@dataclass
class TrainModel:
    """A train's lumped model and the maps between its coordinates and the bodies.

    Attributes
    ----------
    names : list of str
        The coordinates q: 'body.x', 'body.y' [m] (translations), 'body.u' [m] (rotation as arc length).
    mass, damping, stiffness : ndarray, shape (n, n)
        On q, without the meshes.
    mesh_rows : dict of str to (ndarray, ndarray)
        Per mesh the rows a with drive-flank deflection a . q and coast-flank deflection a' . q [m].
    rigid : ndarray, shape (n, r)
        The rigid-body motions (M-orthonormal), which the lumped model leaves out.
    basis : ndarray, shape (n, n - r)
        q = basis y: the lumped model's coordinates y are n - r of the entries of q.
    lumped : LumpedModel
        On y; its contacts are two per mesh (drive, coast), in the order of `meshes`.
    """

    bodies: list[TrainBody]
    meshes: list[TrainMesh]
    names: list[str]
    translation: dict[str, np.ndarray]
    rotation: dict[str, np.ndarray]
    mass: np.ndarray
    damping: np.ndarray
    stiffness: np.ndarray
    force: np.ndarray
    mesh_rows: dict[str, tuple[np.ndarray, np.ndarray]]
    rigid: np.ndarray
    basis: np.ndarray
    lumped: LumpedModel
    notes: list[str] = field(default_factory=list)
    springs: tuple[TrainSpring, ...] = ()
    frames: dict[str, np.ndarray] = field(default_factory=dict)  # per body, rows: its plane's x and y, its axis

    @property
    def dofs(self) -> int:
        return len(self.names)

    def body(self, name: str) -> TrainBody:
        return next(b for b in self.bodies if b.name == name)

    def mean_stiffness(self, loaded: np.ndarray | None = None) -> np.ndarray:
        """K on q with every mesh at its mean stiffness on the flank that carries (drive where `loaded` is None)."""
        k = self.stiffness.copy()
        for i, m in enumerate(self.meshes):
            drive, coast = self.mesh_rows[m.name]
            row = coast if loaded is not None and not loaded[2 * i] and loaded[2 * i + 1] else drive
            km = self.lumped.contacts[2 * i].mean_stiffness
            k += km * np.outer(row, row)
        return k

    def speeds(self, motion: np.ndarray) -> dict[str, float]:
        """Each body's rotation rate [rad/s] in a motion of the coordinates q (rates [m/s])."""
        return {b.name: float(self.rotation[b.name] @ motion) for b in self.bodies}

    def rolling_speeds(self) -> dict[str, float]:
        """Each body's rotation rate [rad/s] in the one way the train rolls, of either sign: its rigid rolling, or
        where a speed motor holds the input and nothing rolls, its kinematic rolling.

        Raises
        ------
        ModelError
            If the train rolls in more or fewer than one way.
        """
        if self.rigid.shape[1] == 1:
            return self.speeds(self.rigid[:, 0])
        rolling = self.kinematic_rolling()[0]
        if self.rigid.shape[1] or rolling.shape[1] != 1:
            raise ModelError("train", f"has {self.rigid.shape[1]} rigid-body motions; the mesh frequency per "
                             "input speed needs exactly one (hold or load the other members)")
        return {b.name: float(w) for b, w in zip(self.bodies, rolling[:, 0])}

    def mesh_frequencies_per_speed(self, body: str) -> dict[str, float]:
        """Each mesh's frequency [Hz] per rad/s of `body` as the train rolls (`rolling_speeds`).

        Raises
        ------
        ModelError
            If the train rolls in more or fewer than one way, or `body` does not turn when it rolls.
        """
        speeds = self.rolling_speeds()
        if abs(speeds[body]) < 1e-12 * max(1e-300, max(abs(v) for v in speeds.values())):
            raise ModelError("input", f"{body!r} does not turn when the train rolls")
        return {m.name: m.frequency_per_speed(speeds) / abs(speeds[body]) for m in self.meshes if m.teeth}

    def kinematic_rolling(self) -> tuple[np.ndarray, np.ndarray]:
        """The ways the train rolls by its kinematics alone (every body free to turn, speed motors too): rotation
        rates of `bodies` [rad/s], a basis (bodies, ways) of those with r_b1 (w_1 - w_c) + r_b2 (w_2 - w_c) = 0
        at each external mesh (- for internal), c its carrier; and each mesh's frequency per rate (meshes,
        bodies) [Hz s/rad]: z (w_ref - w_c) / (2 pi)."""
        index = {b.name: i for i, b in enumerate(self.bodies)}
        rows, per = np.zeros((len(self.meshes), len(index))), np.zeros((len(self.meshes), len(index)))
        for row, turns, m in zip(rows, per, self.meshes):
            sign = m.sign
            row[index[m.gear1]] += m.base_radius_1
            row[index[m.gear2]] += sign * m.base_radius_2
            turns[index[m.reference]] = m.teeth / (2 * math.pi)
            if m.carrier:
                row[index[m.carrier]] -= m.base_radius_1 + sign * m.base_radius_2
                turns[index[m.carrier]] -= m.teeth / (2 * math.pi)
        return scipy.linalg.null_space(rows), per

    def mesh_frequency_ratios(self) -> dict[str, float]:
        """Each mesh's frequency over the first mesh's as the train rolls by its kinematics [-]: 1 for all of a
        planetary set's meshes; nan for a mesh whose ratio depends on how the train rolls (two trains not
        geared together)."""
        rolling, per = self.kinematic_rolling()
        frequency = per @ rolling  # (meshes, ways the train rolls)
        first = frequency[0]
        if not first.any():  # the train does not roll: no mesh runs
            return {m.name: math.nan for m in self.meshes}
        ratios = {}
        for m, f in zip(self.meshes, frequency):
            ratio = float(f @ first / (first @ first))
            ratios[m.name] = abs(ratio) if np.linalg.norm(f - ratio * first) <= 1e-9 * np.linalg.norm(first) else math.nan
        return ratios

    def common_orders(self) -> dict[str, int] | None:
        """Each mesh's periods in the shortest period that holds a whole number of every mesh's periods (its
        `order`), from the mesh frequency ratios: {p1: 20, p2: 9} for a reducer whose second stage meshes at
        9/20 of the first's frequency; None where a ratio is not one of whole numbers up to MAX_ORDER (two
        trains not geared together, or a period too long for the harmonic balance)."""
        ratios = self.mesh_frequency_ratios()
        if not ratios or not all(math.isfinite(r) and r > 0 for r in ratios.values()):
            return None
        exact = {name: Fraction(r).limit_denominator(MAX_ORDER) for name, r in ratios.items()}
        if any(abs(float(q) - r) > 1e-9 * r for q, r in zip(exact.values(), ratios.values())):
            return None
        common = math.lcm(*(q.denominator for q in exact.values()))
        whole = {name: int(q * common) for name, q in exact.items()}
        divisor = math.gcd(*whole.values())
        orders = {name: k // divisor for name, k in whole.items()}
        return orders if max(orders.values()) <= MAX_ORDER else None

    def static_flank_forces(self) -> np.ndarray:
        """Each contact element's (flank's) static force [N] at the mean mesh stiffness under the mean torques."""
        y, _ = self.lumped.static_state()
        return self.lumped.contact_forces(y[None, :], self.lumped.gaps(np.zeros(1)),
                                          np.array([[c.mean_stiffness] for c in self.lumped.contacts]))[0][:, 0]

    def loaded_flanks(self, forces: np.ndarray | None = None) -> np.ndarray:
        """Per contact element whether it is the flank of its mesh that carries the mean torques: of each
        mesh's two flanks the one with the larger static force (both can touch where a centre's radial
        motion closes a backlash-free mesh; the one the torque loads is the mesh's line of action).
        `forces`: the static_flank_forces when the caller has them."""
        pairs = (self.static_flank_forces() if forces is None else forces).reshape(-1, 2)
        drive = pairs[:, 0] >= pairs[:, 1]
        return np.column_stack([drive, ~drive]).ravel()


def _perp(v):
    return np.array([-v[1], v[0]])


def _order(bodies: list[TrainBody]) -> list[TrainBody]:
    """Parents before children."""
    names = {b.name for b in bodies}
    done, out = set(), []
    pending = list(bodies)
    while pending:
        ready = [b for b in pending if not b.parent or b.parent in done or b.parent not in names]
        if not ready:
            raise ModelError("bodies", "the train's bodies sit on each other in a loop: "
                             + ", ".join(b.name for b in pending))
        for b in ready:
            out.append(b)
            done.add(b.name)
            pending.remove(b)
    return out


def build_train(bodies: list[TrainBody], meshes: list[TrainMesh], description: str = "",
                notes: tuple[str, ...] = (), springs: tuple[TrainSpring, ...] = ()) -> TrainModel:
    """The lumped model of a train (see the module docstring)."""
    bodies = _order(bodies)
    by_name = {b.name: b for b in bodies}
    names = []
    for b in bodies:
        if b.bearing is not None:
            names += [f"{b.name}.x", f"{b.name}.y"]
        if not b.held:
            names.append(f"{b.name}.u")
    n = len(names)
    index = {nm: i for i, nm in enumerate(names)}
    trans, rot = {}, {}  # body -> (2, n) displacement of its centre [m], (n,) rotation [rad]

    def point(body: str, at) -> np.ndarray:
        """Displacement (2, n) of the material point at `at` [m] of `body` ('' = ground)."""
        if not body or body not in by_name:
            return np.zeros((2, n))
        c = np.asarray(by_name[body].centre, float)
        return trans[body] + np.outer(_perp(np.asarray(at, float) - c), rot[body])

    for b in bodies:
        parent_at = point(b.parent, b.centre)
        if b.bearing is not None:
            t = np.zeros((2, n))
            t[0, index[f"{b.name}.x"]] = t[1, index[f"{b.name}.y"]] = 1.0
        else:
            t = parent_at
        r = rot[b.parent].copy() if b.parent in rot else np.zeros(n)
        if not b.held:
            r = np.zeros(n)
            r[index[f"{b.name}.u"]] = 1.0 / b.radius
        trans[b.name], rot[b.name] = t, r

    mass, damping, stiffness = (np.zeros((n, n)) for _ in range(3))
    force = np.zeros(n)
    for b in bodies:
        t, r = trans[b.name], rot[b.name]
        mass += b.mass * t.T @ t + b.inertia * np.outer(r, r)
        r_parent = rot.get(b.parent, np.zeros(n))
        if b.bearing is not None:
            d = t - point(b.parent, b.centre)
            stiffness += b.bearing[0] * d.T @ d
            damping += b.bearing[1] * d.T @ d
        if not b.held:
            dr = r - r_parent
            stiffness += b.torsion[0] * np.outer(dr, dr)
            damping += b.torsion[1] * np.outer(dr, dr)
        force += b.torque * (r - r_parent)

    for sp in springs:
        line = np.subtract(sp.point_j, sp.point_i)
        if not np.hypot(*line) > 0:
            raise ModelError(sp.name, "its two points coincide in the plane: no line for the spring to act along")
        line = line / np.hypot(*line)
        d = line @ (point(sp.body_j, sp.point_j) - point(sp.body_i, sp.point_i))
        stiffness += sp.stiffness * np.outer(d, d)
        damping += sp.damping * np.outer(d, d)

    rows, contacts = {}, []
    for m in meshes:
        g1, g2 = by_name[m.gear1], by_name[m.gear2]
        spin = m.base_radius_1 * rot[g1.name] + m.sign * m.base_radius_2 * rot[g2.name]
        if m.kind == "bevel":  # across two groups' planes: the rotations alone
            if trans[g1.name].any() or trans[g2.name].any():
                raise ModelError(m.name, "is a bevel pair whose gears' centres move: the lumped train takes a bevel "
                                 "pair on fixed centres")
            rows[m.name] = (spin, -spin)
            damping += m.law.damping * np.outer(spin, spin)
            contacts.append((spin, -spin, m))
            continue
        c1, c2 = np.asarray(g1.centre, float), np.asarray(g2.centre, float)
        # e: the unit vector from gear 1 to gear 2 (external) or from the ring to the pinion (internal)
        e = c2 - c1 if m.kind == "external" else c1 - c2
        length = float(np.hypot(*e))
        if length == 0.0:
            raise ModelError(m.name, "its two gears share an axis: no line of centres to mesh along")
        e = e / length
        t = _perp(e)
        ca, sa = math.cos(m.pressure_angle), math.sin(m.pressure_angle)
        rel = trans[g1.name] - trans[g2.name]
        # drive flank: gear 1 pushes gear 2 along n = t cos a + e sin a; the coast flank's line is mirrored
        drive = spin + (ca * t + sa * e) @ rel
        coast = -spin + (-ca * t + sa * e) @ rel
        rows[m.name] = (drive, coast)
        damping += m.law.damping * np.outer(drive, drive)
        contacts.append((drive, coast, m))

    closed = sum(m.law.k_mean * (np.outer(d, d) + np.outer(c, c)) for d, c, m in contacts)
    rigid = _rigid_motions(mass, stiffness + closed)
    force_flex = force - mass @ rigid @ (rigid.T @ force)  # the d'Alembert reaction of the rigid acceleration
    basis = _complement(mass, rigid)
    bt = basis.T
    elements: list[ContactElement] = []
    for drive, coast, m in contacts:
        elements += mesh_elements(m.law, -(bt @ drive), -(bt @ coast), phase=m.phase, rolling=m.rolling,
                                  order=m.order)
    first = rows[meshes[0].name][0] if meshes else np.zeros(n)  # the output: the first mesh's deflection [m]
    lumped = LumpedModel(mass=bt @ mass @ basis, damping=bt @ damping @ basis, stiffness=bt @ stiffness @ basis,
                         contacts=tuple(elements), force=bt @ force_flex, output=bt @ first,
                         description=description, notes=tuple(notes), cycles=meshes[0].order if meshes else 1)
    return TrainModel(bodies, list(meshes), names, trans, rot, mass, damping, stiffness, force, rows, rigid, basis,
                      lumped, list(notes), tuple(springs))


def _rigid_motions(mass: np.ndarray, stiffness: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """M-orthonormal basis of the motions no stiffness resists (null space of K, every mesh closed)."""
    if mass.shape[0] == 0:
        return np.zeros((0, 0))
    lam, vec = scipy.linalg.eigh(stiffness, mass)
    scale = max(float(np.abs(lam).max()), 1e-300)
    return vec[:, lam < rtol * scale]


def _complement(mass: np.ndarray, rigid: np.ndarray) -> np.ndarray:
    """B with q = B y, y some entries of q, and q M-orthogonal to the rigid motions.

    The coordinates dropped are those the rigid motions move most (pivoted QR), so the rest stay physical
    (metres) and the reduction is well conditioned.
    """
    n, r = rigid.shape
    if r == 0:
        return np.eye(n)
    _, _, piv = scipy.linalg.qr(rigid.T, pivoting=True)
    dropped = sorted(piv[:r])
    kept = [i for i in range(n) if i not in dropped]
    # M-orthogonality: rigid.T M q = 0 fixes the dropped entries from the kept ones
    a = rigid.T @ mass
    basis = np.zeros((n, n - r))
    basis[kept, np.arange(n - r)] = 1.0
    basis[dropped, :] = -np.linalg.solve(a[:, dropped], a[:, kept])
    return basis
