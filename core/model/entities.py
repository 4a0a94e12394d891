"""What the user builds: bodies, joints, gear pairs and force elements (SI units).

Entities are frozen dataclasses: an edit replaces an entity by a new one (see
core.commands), so an undo only has to put the old object back. Entities name
each other by their unique names; `references()` lists the names an entity
depends on and `renamed()` follows a rename.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import ClassVar, Union

import numpy as np

from core.geometry.macro import PAIR_KINDS, GearSpec, PairSpec, pair_field
from core.geometry.mesh_import import FALLBACKS, UNIT_SCALE
from core.model.kinds import KINDS, item_kind
from core.ranges import DEG, MM, N_PER_UM, Range, choice, range_problems, ranged, vector
from core.wording import short_repr

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Mat3 = tuple[Vec3, Vec3, Vec3]

GROUND = "ground"
ZERO3: Vec3 = (0.0, 0.0, 0.0)
IDENTITY_Q: Quat = (1.0, 0.0, 0.0, 0.0)


def _vector_problem(name: str, v, unit_length: bool = False) -> list[tuple[str, str]]:
    arr = np.asarray(v, dtype=float)
    if not np.all(np.isfinite(arr)) or np.abs(arr).max(initial=0.0) > 1e9:
        return [(name, f"must hold finite numbers of magnitude at most 1e9, got {list(v)}")]
    if unit_length and not abs(np.linalg.norm(arr) - 1.0) < 1e-6:
        return [(name, f"must have unit length (within 1e-6), got length {np.linalg.norm(arr):.9g}")]
    return []


def _nonzero_axis(name: str, v) -> list[tuple[str, str]]:
    found = _vector_problem(name, v)
    if not found and np.linalg.norm(v) < 1e-12:
        found.append((name, "must be a non-zero direction"))
    return found


MAX_NAME = 200


def name_problem(name) -> str | None:
    """Why `name` cannot name a model or an item, or None.

    Names become channel names, CSV headers and file contents: printable text
    (no control characters, no lone surrogates) of 1 to MAX_NAME characters.
    """
    if not isinstance(name, str) or not name.strip():
        return "must be a non-empty name"
    if len(name) > MAX_NAME:
        return f"must be at most {MAX_NAME} characters, got {len(name)}"
    if not name.isprintable():
        bad = next(c for c in name if not c.isprintable())
        return f"must be printable text, got the character U+{ord(bad):04X} at position {name.index(bad)}"
    return None


@dataclass(frozen=True)
class Entity:
    """Common behaviour: range checks, references and renaming."""

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {}

    def problems(self) -> list[tuple[str, str]]:
        """(field, message) for every field value that is not allowed."""
        return range_problems(self)

    def references(self) -> tuple[str, ...]:
        """Names of the model items this entity depends on (REFERENCE_FIELDS maps field to kind)."""
        return tuple(getattr(self, f) for f in self.REFERENCE_FIELDS)

    def renamed(self, old: str, new: str):
        """A copy with every reference to `old` (and its own name) changed to `new`."""
        changes = {f: new for f in (*self.REFERENCE_FIELDS, "name") if getattr(self, f, None) == old}
        return dataclasses.replace(self, **changes) if changes else self


# --------------------------------------------------------------------------- visuals


@dataclass(frozen=True)
class GearSource:
    """The body was generated as a gear from these parameters (can be regenerated)."""

    spec: GearSpec


@dataclass(frozen=True)
class PrimitiveSource:
    """The body is a primitive solid centred on its frame (axis z for a cylinder)."""

    shape: str = "cylinder"
    radius: float = ranged(0.05, lo=0.0, hi=10.0, lo_open=True, **MM)
    length: float = ranged(0.02, lo=0.0, hi=10.0, lo_open=True, **MM)
    size: Vec3 = (0.1, 0.1, 0.02)
    density: float = ranged(7850.0, lo=1.0, hi=50000.0, unit="kg/m^3")

    SHAPES: ClassVar[tuple[str, ...]] = ("cylinder", "box")


@dataclass(frozen=True)
class MeshFileSource:
    """The body's shape was imported from an OBJ or STL file."""

    path: str
    unit: str = "mm"
    density: float = ranged(7850.0, lo=1.0, hi=50000.0, unit="kg/m^3")
    fallback: str = "none"

    UNITS: ClassVar[tuple[str, ...]] = tuple(UNIT_SCALE)
    FALLBACKS: ClassVar[tuple[str, ...]] = FALLBACKS  # what made its mass properties where it has holes


Visual = Union[GearSource, PrimitiveSource, MeshFileSource]


# --------------------------------------------------------------------------- bodies


@dataclass(frozen=True)
class Frame:
    """A named frame fixed on a body: origin [m] and orientation in body axes."""

    name: str
    origin: Vec3 = ZERO3
    orientation: Quat = IDENTITY_Q


@item_kind("bodies")
@dataclass(frozen=True)
class RigidBody(Entity):
    """A rigid body.

    Parameters
    ----------
    name : str
    mass : float
        [kg]
    com : Vec3
        Centre of mass in body axes [m].
    inertia : Mat3
        Inertia tensor about the centre of mass, body axes [kg m^2].
    position : Vec3
        Initial position of the body frame's origin, world [m].
    orientation : Quat
        Initial orientation (w, x, y, z), unit quaternion, body to world.
    velocity : Vec3
        Initial velocity of the body frame's origin, world [m/s].
    angular_velocity : Vec3
        Initial angular velocity, world [rad/s].
    visual : GearSource, PrimitiveSource, MeshFileSource or None
        Where the shape (and so the mass properties) came from.
    frames : tuple of Frame
        Named frames on the body.
    """

    name: str
    mass: float = ranged(lo=0.0, hi=1e9, lo_open=True, unit="kg")
    com: Vec3 = vector(ZERO3, **MM)
    inertia: Mat3 = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    position: Vec3 = vector(ZERO3, **MM)
    orientation: Quat = IDENTITY_Q
    velocity: Vec3 = vector(ZERO3, unit="m/s")
    angular_velocity: Vec3 = vector(ZERO3, unit="rad/s")
    visual: Visual | None = None
    frames: tuple[Frame, ...] = ()

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems()
        for name in ("com", "position", "velocity", "angular_velocity"):
            found += _vector_problem(name, getattr(self, name))
        found += _vector_problem("orientation", self.orientation, unit_length=True)
        inertia = np.asarray(self.inertia, dtype=float)
        if not np.all(np.isfinite(inertia)):
            found.append(("inertia", "must hold finite numbers"))
        elif not np.allclose(inertia, inertia.T, rtol=1e-9, atol=1e-15 * max(1.0, np.abs(inertia).max())):
            found.append(("inertia", "must be symmetric"))
        else:
            eig = np.linalg.eigvalsh(inertia)
            tol = 1e-9 * max(eig.max(), 0.0)
            if eig.min() <= 0:
                found.append(("inertia", f"must be positive definite (principal moments {', '.join(f'{e:.6g}' for e in eig)} kg m^2)"))
            elif eig[0] + eig[1] < eig[2] - tol:
                found.append(("inertia", "principal moments must satisfy the triangle inequality (I1 + I2 >= I3)"))
        names = [f.name for f in self.frames]
        for i, n in enumerate(names):
            msg = name_problem(n)
            if msg:
                found.append((f"frames[{i}].name", msg))
        if len(set(names)) != len(names):
            found.append(("frames", "frame names must be unique on a body"))
        for i, fr in enumerate(self.frames):
            found += [(f"frames[{i}].{n}", m) for n, m in
                      _vector_problem("origin", fr.origin) + _vector_problem("orientation", fr.orientation, unit_length=True)]
        if isinstance(self.visual, GearSource):
            found += [(f"visual.spec.{n}", m) for n, m in self.visual.spec.problems()]
        elif isinstance(self.visual, PrimitiveSource):
            found += [(f"visual.{n}", m) for n, m in range_problems(self.visual)]
            if self.visual.shape not in PrimitiveSource.SHAPES:
                found.append(("visual.shape", f"must be one of {', '.join(PrimitiveSource.SHAPES)}, got {short_repr(self.visual.shape)}"))
            if any(not (0 < s <= 10 and math.isfinite(s)) for s in self.visual.size):
                found.append(("visual.size", "each side must be above 0 and at most 10000 mm"))
        elif isinstance(self.visual, MeshFileSource):
            found += [(f"visual.{n}", m) for n, m in range_problems(self.visual)]
            if self.visual.unit not in MeshFileSource.UNITS:
                found.append(("visual.unit", f"must be one of {', '.join(MeshFileSource.UNITS)}, got {short_repr(self.visual.unit)}"))
            if self.visual.fallback not in MeshFileSource.FALLBACKS:
                found.append(("visual.fallback", f"must be one of {', '.join(MeshFileSource.FALLBACKS)}, got {short_repr(self.visual.fallback)}"))
        return found


# --------------------------------------------------------------------------- joints


@item_kind("joints", "revolute")
@dataclass(frozen=True)
class RevoluteJoint(Entity):
    """Revolute joint: body_j (the gear) turns about `axis` relative to body_i (the carrier).

    Parameters
    ----------
    position : Vec3
        A point on the joint axis, world, at the initial configuration [m].
    axis : Vec3
        Axis direction, world, at the initial configuration (normalised on use).
    on_bearing : bool
        body_j is carried by a BearingSpringDamper between the same two bodies: the joint holds nothing and
        keeps only its axis, the one its gear pairs, torques and motors act about and its angle and speed are
        measured about; the bearing's springs hold body_j (its gear pairs need compliant meshes then).
    """

    name: str
    body_i: str
    body_j: str
    position: Vec3 = vector(ZERO3, **MM)
    axis: Vec3 = vector((0.0, 0.0, 1.0))
    on_bearing: bool = False

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"body_i": "body", "body_j": "body"}

    def problems(self) -> list[tuple[str, str]]:
        found = _vector_problem("position", self.position) + _nonzero_axis("axis", self.axis)
        if self.body_i == self.body_j:
            found.append(("body_j", f"must differ from body_i ({short_repr(self.body_i)})"))
        return found

    def unit_axis(self) -> np.ndarray:
        a = np.asarray(self.axis, dtype=float)
        return a / np.linalg.norm(a)


@item_kind("joints", "fixed", "Fixed Joint", "Weld body J to body I", "weld")
@dataclass(frozen=True)
class FixedJoint(Entity):
    """Fixed joint: body_j is welded to body_i at `position` (world, initial) [m]."""

    name: str
    body_i: str
    body_j: str
    position: Vec3 = vector(ZERO3, **MM)

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"body_i": "body", "body_j": "body"}

    def problems(self) -> list[tuple[str, str]]:
        found = _vector_problem("position", self.position)
        if self.body_i == self.body_j:
            found.append(("body_j", f"must differ from body_i ({short_repr(self.body_i)})"))
        return found


Joint = Union[RevoluteJoint, FixedJoint]


# --------------------------------------------------------------------------- gear pairs


@item_kind("gear_pairs")
@dataclass(frozen=True)
class GearPair(Entity):
    """Gear-pair constraint between two revolute joints (Willis equation).

    Parameters
    ----------
    kind : {'external', 'internal', 'bevel'}
        External helical/spur (s2 = +1), internal (s2 = -1, pinion on joint 1)
        or straight bevel (90 deg shafts).
    joint1, joint2 : str
        Revolute joints of gear 1 and gear 2 (body_j of each is the gear).
    carrier : str
        The body relative to which the centres of both gears do not move.
    z1, z2 : int
        Numbers of teeth.
    module : float
        Transverse module m_t [m].
    pressure_angle : float
        Normal pressure angle [rad].
    helix_angle : float
        Helix angle of gear 1 [rad]; gear 2 gets the opposite hand (external).
    pitch_angle : float
        Pitch angle of gear 1 [rad] (bevel); gear 2 gets 90 deg - gamma1.
    face_width : float
        Face width [m] for the overlap ratio, the mesh stiffness and the bevel
        mean cone; 0 when unknown.
    x1, x2 : float
        Profile shift coefficients (ISO 21771; external pairs): they set the
        working pressure angle, the centre distance and the contact ratio.
    stabilise : bool
        Apply Baumgarte stabilisation to the pair's accumulated phase error.
    loss_table : tuple of rows (|w_a| [rad/s], eta_mf1, eta_mf2, tau_bf1 [N m], tau_bf2 [N m])
        Mesh efficiency and bearing friction after Modelica's LossyGear, by
        gear 1's speed relative to the carrier (see core.gearing.losses);
        empty: lossless, or the constant shortcut below.
    efficiency : float
        Constant mesh efficiency (0, 1] for both directions of power flow, for
        a pair without a loss table; 1: lossless.
    bearing_friction : float
        Constant bearing friction referred to gear 1 [N m], with `efficiency`.
    gear1, gear2 : str
        The body that carries each gear's teeth when it is not the joint's
        body_j: a gear welded (fixed joint) to that body, as the second gear
        of a compound shaft. Empty: the joint's body_j. The pitch point lies
        in this body's mid-face plane.
    """

    name: str
    joint1: str
    joint2: str
    carrier: str
    kind: str = choice("external", PAIR_KINDS)
    z1: int = pair_field("z1")
    z2: int = pair_field("z2")
    module: float = pair_field("module")
    pressure_angle: float = pair_field("pressure_angle")
    helix_angle: float = pair_field("helix_angle")
    pitch_angle: float = pair_field("pitch_angle")
    face_width: float = pair_field("face_width")
    x1: float = pair_field("x1")
    x2: float = pair_field("x2")
    stabilise: bool = True
    loss_table: tuple[tuple[float, float, float, float, float], ...] = ()
    efficiency: float = ranged(1.0, lo=0.0, hi=1.0, lo_open=True, unit="")
    bearing_friction: float = ranged(0.0, lo=0.0, hi=1e9, unit="N m")
    gear1: str = ""
    gear2: str = ""

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"joint1": "revolute", "joint2": "revolute", "carrier": "body",
                                                  "gear1": "optional body", "gear2": "optional body"}

    def pair_spec(self) -> PairSpec:
        return PairSpec(kind=self.kind, z1=self.z1, z2=self.z2, module=self.module,
                        pressure_angle=self.pressure_angle, helix_angle=self.helix_angle,
                        pitch_angle=self.pitch_angle, face_width=self.face_width, x1=self.x1, x2=self.x2)

    def pitch_radii(self) -> tuple[float, float]:
        """r1, r2 = m_t z / 2 [m]."""
        return self.module * self.z1 / 2, self.module * self.z2 / 2

    def inactive_fields(self) -> dict[str, str]:
        """{field: why} for the fields this kind of pair, or its loss table, leaves unused (the dialogs hide them)."""
        out = {"helix_angle": "a straight bevel pair's teeth have none"} if self.kind == "bevel" else \
            {"pitch_angle": f"only a bevel pair has one (kind = {self.kind})"}
        if self.kind != "external":
            out.update({x: f"profile shifts are an external pair's (kind = {self.kind})" for x in ("x1", "x2")})
        if self.loss_table:
            out.update({x: "the loss table gives the pair's losses" for x in ("efficiency", "bearing_friction")})
        return out

    @property
    def direction_sign(self) -> float:
        """s2 of the Willis equation: +1 external and bevel, -1 internal."""
        return -1.0 if self.kind == "internal" else 1.0

    def problems(self) -> list[tuple[str, str]]:
        if self.kind not in PAIR_KINDS:
            return [("kind", f"must be one of {', '.join(PAIR_KINDS)}, got {short_repr(self.kind)}")]
        found = super().problems() + [p for p in self.pair_spec().problems() if p[0] == "helix_angle"]
        if self.joint1 == self.joint2:
            found.append(("joint2", f"must differ from joint1 ({short_repr(self.joint1)})"))
        found += loss_table_problems(self.loss_table)
        if self.loss_table and (self.efficiency != 1.0 or self.bearing_friction != 0.0):
            found.append(("efficiency", "give either a loss table or a constant efficiency and bearing friction, "
                                        "not both"))
        return found

    def loss_rows(self) -> tuple:
        """The loss table the solver uses: the pair's table, the constant shortcut as one row, or () if lossless."""
        if self.loss_table:
            return self.loss_table
        if self.efficiency != 1.0 or self.bearing_friction != 0.0:
            return ((0.0, self.efficiency, self.efficiency, self.bearing_friction, self.bearing_friction),)
        return ()


LOSS_COLUMNS = ("|w_a| [rad/s]", "eta_mf1", "eta_mf2", "tau_bf1 [N m]", "tau_bf2 [N m]")


def loss_table_problems(table) -> list[tuple[str, str]]:
    """(field, message) for each bad cell of a loss table, naming its row (from 1) and column."""
    found = []
    prev = None
    for k, row in enumerate(table):
        where = f"loss_table[{k}]"
        if len(row) != len(LOSS_COLUMNS):
            found.append((where, f"row {k + 1} has {len(row)} values; a row holds {len(LOSS_COLUMNS)}: "
                                 f"{', '.join(LOSS_COLUMNS)}"))
            continue
        for c, (value, column) in enumerate(zip(row, LOSS_COLUMNS)):
            cell = f"{where}[{c}]"
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                found.append((cell, f"row {k + 1}, {column}: must be a finite number, got {short_repr(value)}"))
            elif c == 0 and (value < 0 or (prev is not None and value <= prev)):
                after = "" if prev is None else f" and above the row before ({prev:g} rad/s)"
                found.append((cell, f"row {k + 1}, {column}: speeds must be at least 0{after}: rows are ordered by "
                                    f"speed, got {value:g}"))
            elif c in (1, 2) and not 0 < value <= 1:
                found.append((cell, f"row {k + 1}, {column}: an efficiency must be above 0 and at most 1, got {value:g}"))
            elif c in (3, 4) and value < 0:
                found.append((cell, f"row {k + 1}, {column}: a bearing friction torque must be at least 0 N m, "
                                    f"got {value:g}"))
        if isinstance(row[0], (int, float)) and math.isfinite(row[0]):
            prev = row[0]
    return found


# --------------------------------------------------------------------------- force elements


@dataclass(frozen=True)
class TimeLaw:
    """A value as a function of time; no code is ever evaluated.

    kind 'constant': value; 'step': value before t_start, final after;
    'ramp': value to final linearly over [t_start, t_end]; 'sine':
    value + amplitude sin(2 pi frequency t + phase); 'table': linear
    interpolation in `table` rows (t [s], value), held at the ends.
    """

    kind: str = choice("constant", ("constant", "step", "ramp", "sine", "table"))
    value: float = 0.0
    final: float = 0.0
    t_start: float = ranged(0.0, lo=0.0, unit="s")
    t_end: float = ranged(0.0, lo=0.0, unit="s")
    amplitude: float = 0.0
    frequency: float = ranged(0.0, lo=0.0, unit="Hz")
    phase: float = ranged(0.0, **DEG)
    table: tuple[tuple[float, float], ...] = ()

    KINDS: ClassVar[tuple[str, ...]] = ("constant", "step", "ramp", "sine", "table")
    #: the fields each kind uses; the others are kept (a law switched back finds them) but have no effect
    FIELDS_OF: ClassVar[dict[str, tuple[str, ...]]] = {
        "constant": ("value",), "step": ("value", "final", "t_start"), "ramp": ("value", "final", "t_start", "t_end"),
        "sine": ("value", "amplitude", "frequency", "phase"), "table": ("table",)}

    def problems(self) -> list[tuple[str, str]]:
        if self.kind not in self.KINDS:
            return [("kind", f"must be one of {', '.join(self.KINDS)}, got {short_repr(self.kind)}")]
        found = range_problems(self)
        for name in ("value", "final", "amplitude", "phase"):
            if not math.isfinite(getattr(self, name)):
                found.append((name, "must be a finite number"))
        if self.kind == "ramp" and not self.t_end > self.t_start:
            found.append(("t_end", f"must be after t_start ({self.t_start} s) for a ramp"))
        if self.kind == "table":
            times = [row[0] for row in self.table]
            if len(self.table) < 1 or any(len(r) != 2 or not all(math.isfinite(v) for v in r) for r in self.table):
                found.append(("table", "must hold at least one row of 2 finite numbers (t [s], value)"))
            elif any(b <= a for a, b in zip(times, times[1:])):
                found.append(("table", "times must be strictly increasing"))
        return found

    def is_zero(self) -> bool:
        """Whether the law is zero at every time."""
        if self.kind == "table":
            return all(v == 0.0 for _, v in self.table)
        if self.kind == "sine":
            return self.value == 0.0 and self.amplitude == 0.0
        return self.value == 0.0 and (self.kind == "constant" or self.final == 0.0)

    def __call__(self, t: float) -> float:
        """The value at time t [s]."""
        times, values = self.columns
        return law_value(LAW_CODES[self.kind], self.value, self.final, self.t_start, self.t_end, self.amplitude,
                         self.frequency, self.phase, times, values, t)

    def derivative(self, t: float) -> float:
        """d value / dt at time t [1/s]: from the right at a ramp's or a table's corners (0 at a step's jump)."""
        times, values = self.columns
        return law_rate(LAW_CODES[self.kind], self.value, self.final, self.t_start, self.t_end, self.amplitude,
                        self.frequency, self.phase, times, values, t)

    @functools.cached_property
    def columns(self) -> tuple[np.ndarray, np.ndarray]:
        """The table's times [s] and values as arrays (made once: a law is frozen)."""
        table = np.array(self.table, dtype=float).reshape(-1, 2)
        return table[:, 0].copy(), table[:, 1].copy()


LAW_CODES = {kind: code for code, kind in enumerate(TimeLaw.KINDS)}  # the kind as law_value and law_rate take it


# The formulas of a TimeLaw on plain numbers and arrays (kind: its index in TimeLaw.KINDS; times and values: the
# table's columns), so that the kernels (core.dynamics.buffers.tables) run the same code, compiled or not.

def law_value(kind, value, final, t_start, t_end, amplitude, frequency, phase, times, values, t):
    """A TimeLaw's value at time t [s]."""
    if kind == 0:  # constant
        return value
    if kind == 1:  # step
        return value if t < t_start else final
    if kind == 2:  # ramp
        s = min(max((t - t_start) / (t_end - t_start), 0.0), 1.0)
        return value + s * (final - value)
    if kind == 3:  # sine
        return value + amplitude * math.sin(2 * math.pi * frequency * t + phase)
    # the table: linear between its rows, held at the ends (numpy's interp; written out, as the kernels compile
    # it without reference counts, which numba's interp needs)
    i = table_row(times, t)
    if i < 0:
        return values[0]
    if i >= times.shape[0] - 1:
        return values[times.shape[0] - 1]
    return values[i] + (t - times[i]) * (values[i + 1] - values[i]) / (times[i + 1] - times[i])


def table_row(times, t):
    """The last row i of a table's `times` with times[i] <= t (-1 before the first)."""
    return int(np.searchsorted(times, t, side="right")) - 1


def law_rate(kind, value, final, t_start, t_end, amplitude, frequency, phase, times, values, t):
    """A TimeLaw's d value / dt at time t [1/s]: from the right at a ramp's or a table's corners, 0 at a step's jump."""
    if kind == 2 and t_start <= t < t_end:  # the step from t on sees the slope: a ramp from t = 0 starts at once
        return (final - value) / (t_end - t_start)
    if kind == 3:
        w = 2 * math.pi * frequency
        return amplitude * w * math.cos(w * t + phase)
    if kind == 4 and times.shape[0] > 1:
        i = table_row(times, t)
        if 0 <= i < times.shape[0] - 1:
            return (values[i + 1] - values[i]) / (times[i + 1] - times[i])
    return 0.0


def _law_problems(law: TimeLaw, name: str = "law") -> list[tuple[str, str]]:
    return [(f"{name}.{n}", m) for n, m in law.problems()]


@dataclass(frozen=True)
class _JointLaw(Entity):
    """A time law acting on a revolute joint."""

    name: str
    joint: str
    law: TimeLaw = TimeLaw()

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"joint": "revolute"}
    #: the SI unit of the law's value, final value and amplitude
    LAW_UNIT: ClassVar[str] = ""

    def problems(self) -> list[tuple[str, str]]:
        return _law_problems(self.law)


@item_kind("forces", "torque", "Torque", "A torque about a revolute joint, as a function of time")
@dataclass(frozen=True)
class Torque(_JointLaw):
    """Torque [N m] about a revolute joint's axis on body_j, reaction on body_i."""

    LAW_UNIT: ClassVar[str] = "N m"


@item_kind("forces", "speed_motor", "Speed Motor", "Prescribe a revolute joint's speed as a function of time (0 holds it)")
@dataclass(frozen=True)
class SpeedMotor(_JointLaw):
    """Prescribes the relative speed [rad/s] of a revolute joint (0 holds it still)."""

    LAW_UNIT: ClassVar[str] = "rad/s"


@item_kind("forces", "spring_damper", "Spring-Damper", "A linear spring-damper between points of two bodies")
@dataclass(frozen=True)
class SpringDamper(Entity):
    """Linear spring-damper between a point on body_i and a point on body_j (body axes) [m]."""

    name: str
    body_i: str
    body_j: str
    point_i: Vec3 = vector(ZERO3, **MM)
    point_j: Vec3 = vector(ZERO3, **MM)
    stiffness: float = ranged(0.0, lo=0.0, unit="N/m")
    damping: float = ranged(0.0, lo=0.0, unit="N s/m")
    free_length: float = ranged(0.0, lo=0.0, **MM)

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"body_i": "body", "body_j": "body"}

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems() + _vector_problem("point_i", self.point_i) + _vector_problem("point_j", self.point_j)
        if self.body_i == self.body_j:
            found.append(("body_j", f"must differ from body_i ({short_repr(self.body_i)})"))
        return found


@item_kind("forces", "torsional_spring_damper", "Torsional Spring-Damper",
           "A torsional spring-damper on a revolute joint's angle")
@dataclass(frozen=True)
class TorsionalSpringDamper(Entity):
    """Torsional spring-damper acting on a revolute joint's relative angle."""

    name: str
    joint: str
    stiffness: float = ranged(0.0, lo=0.0, unit="N m/rad")
    damping: float = ranged(0.0, lo=0.0, unit="N m s/rad")
    angle0: float = ranged(0.0, lo=-1e6, hi=1e6, **DEG)

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"joint": "revolute"}


@item_kind("forces", "bearing", "Bearing Spring-Damper",
           "Radial, axial and tilt spring-dampers between a housing and a shaft", "bearing")
@dataclass(frozen=True)
class BearingSpringDamper(Entity):
    """Bearing between body_i (housing) and body_j (shaft) at `position` (world) [m].

    Radial and axial spring-dampers; rotation about `axis` stays free, so it
    takes the place of a revolute joint where bearing compliance matters.
    """

    name: str
    body_i: str
    body_j: str
    position: Vec3 = vector(ZERO3, **MM)
    axis: Vec3 = vector((0.0, 0.0, 1.0))
    radial_stiffness: float = ranged(1e8, lo=0.0, **N_PER_UM)
    radial_damping: float = ranged(0.0, lo=0.0, unit="N s/m")
    axial_stiffness: float = ranged(1e8, lo=0.0, **N_PER_UM)
    axial_damping: float = ranged(0.0, lo=0.0, unit="N s/m")
    tilt_stiffness: float = ranged(1e6, lo=0.0, unit="N m/rad")
    tilt_damping: float = ranged(0.0, lo=0.0, unit="N m s/rad")

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"body_i": "body", "body_j": "body"}

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems() + _vector_problem("position", self.position) + _nonzero_axis("axis", self.axis)
        if self.body_i == self.body_j:
            found.append(("body_j", f"must differ from body_i ({short_repr(self.body_i)})"))
        return found


@item_kind("forces", "compliant_mesh", "Compliant Mesh", "Make a gear pair soft: mesh stiffness and damping",
           "mesh")
@dataclass(frozen=True)
class CompliantMesh(Entity):
    """Makes a gear pair soft: a spring-damper along the transverse line of action (core.gearing.mesh_model).

    Parameters
    ----------
    stiffness : {'iso6336', 'given'}
        'iso6336' (default): mean mesh stiffness c_gamma_alpha b from the pair's
        geometry (ISO 6336-1 method B; the pair needs its face width);
        'given': `k_mean`.
    k_mean : float
        Mean mesh stiffness [N/m] ('given'; for the 'rectangular' waveform the single-pair stiffness).
    k_amplitude : float
        Amplitude of the 'cosine' waveform [N/m] ('given').
    waveform : {'involute', 'cosine', 'rectangular'}
        Variation over a mesh period: from the involute geometry (contact
        ratio and overlap ratio; default), k_mean + k_amplitude cos(phi), or
        single/double contact.
    damping_model : {'ratio', 'constant'}
        'ratio' (default): `damping_ratio` of critical for the mean stiffness
        and the pair's equivalent mass; 'constant': `damping`.
    damping_ratio : float
        zeta [-].
    damping : float
        Constant viscous damping [N s/m] along the line of action.
    backlash : float
        Total backlash along the line of action [m]; 0: both flanks in contact.
    """

    name: str
    pair: str
    stiffness: str = choice("iso6336", ("iso6336", "given"))
    k_mean: float = ranged(2e8, lo=0.0, hi=1e13, lo_open=True, **N_PER_UM)
    k_amplitude: float = ranged(0.0, lo=0.0, hi=1e13, **N_PER_UM)
    waveform: str = choice("involute", ("involute", "cosine", "rectangular"))
    damping_model: str = choice("ratio", ("ratio", "constant"))
    damping_ratio: float = ranged(0.07, lo=0.0, hi=2.0)
    damping: float = ranged(0.0, lo=0.0, hi=1e9, unit="N s/m")
    backlash: float = ranged(0.0, lo=0.0, hi=0.01, **MM)

    REFERENCE_FIELDS: ClassVar[dict[str, str]] = {"pair": "gear pair"}
    WAVEFORMS: ClassVar[tuple[str, ...]] = ("involute", "cosine", "rectangular")

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems()
        for field, allowed in (("waveform", self.WAVEFORMS), ("stiffness", ("iso6336", "given")),
                               ("damping_model", ("ratio", "constant"))):
            if getattr(self, field) not in allowed:
                found.append((field, f"must be one of {', '.join(allowed)}, got {short_repr(getattr(self, field))}"))
        if not found and self.waveform == "cosine" and self.k_amplitude >= self.k_mean:
            shown = Range(**N_PER_UM)
            found.append(("k_amplitude", f"must be below k_mean ({shown.to_display(self.k_mean):.6g} "
                                         f"{shown.shown_unit}) so the stiffness stays positive"))
        return found

    def inactive_fields(self) -> dict[str, str]:
        """{field: why} for the fields this configuration does not use, whatever their values (a dialog greys
        them out)."""
        out = {}
        if self.stiffness == "iso6336":
            out["k_mean"] = "the stiffness comes from ISO 6336 (stiffness = iso6336)"
        if self.waveform != "cosine":
            out["k_amplitude"] = f"only the cosine waveform uses it (waveform = {self.waveform})"
        if self.damping_model == "ratio":
            out["damping"] = "the damping is a ratio of critical (damping_model = ratio)"
        if self.damping_model == "constant":
            out["damping_ratio"] = "the damping is a constant (damping_model = constant)"
        return out

    def unused_fields(self) -> list[tuple[str, str]]:
        """(field, why) for fields set away from their default that this configuration does not use."""
        d = {f.name: f.default for f in dataclasses.fields(self)}
        return [(field, why) for field, why in self.inactive_fields().items() if getattr(self, field) != d[field]]


Force = Union[Torque, SpeedMotor, SpringDamper, TorsionalSpringDamper, BearingSpringDamper, CompliantMesh]


# --------------------------------------------------------------------------- settings


# The integrators of core.dynamics.integrators.METHODS and the options each takes from the settings
# (a test holds the two in step). The model layer names them so a file is checked at load.
INTEGRATOR_OPTIONS: dict[str, tuple[str, ...]] = {
    "rk4": (),
    "dopri5": ("rtol", "atol"),
    "dop853": ("rtol", "atol"),
    "generalized_alpha": ("rho_inf",),
    "generalized_alpha_adaptive": ("rho_inf", "rtol", "atol"),
}


def option_users(field: str) -> list[str]:
    """The integrators that take the settings field `field` (rtol, atol, rho_inf) as an option; [] for a field
    that is no integrator's option."""
    return [name for name, options in INTEGRATOR_OPTIONS.items() if field in options]


# The adaptive methods for which the settings' step is only the first step (no upper bound on later ones)
STEP_IS_FIRST_ONLY = ("dopri5", "dop853")
# What the settings' step is to each integrator: its name in the settings dialog
STEP_LABELS = {"rk4": "Time step", "dopri5": "First step", "dop853": "First step", "generalized_alpha": "Time step",
               "generalized_alpha_adaptive": "Largest step"}
FORMULATIONS = ("auto", "joint", "cartesian")
MAX_OUTPUT_SAMPLES = 2_000_000  # a run's output grid; each sample holds every channel and pose
MAX_FIXED_STEPS = 1_000_000_000  # a fixed-step run of more steps would take days: a mistyped step, not a plan


@dataclass(frozen=True)
class SimulationSettings:
    """How the model is simulated by default.

    Parameters
    ----------
    t_end : float
        End time [s].
    step : float
        Time step [s] of the fixed-step methods (rk4, generalized_alpha); the first step of dopri5 and dop853
        (and their largest with a lossy pair's events); the largest of generalized_alpha_adaptive.
    output_step : float
        Spacing of the output samples [s]; finer than `step` is fine (the
        samples are interpolated on each step's dense output).
    integrator : str
        A key of INTEGRATOR_OPTIONS.
    rtol, atol : float
        Relative and absolute error tolerances per step (dopri5, dop853 and generalized_alpha_adaptive: each
        integrator's options are in INTEGRATOR_OPTIONS).
    rho_inf : float
        Spectral radius at infinity (generalized_alpha and generalized_alpha_adaptive): 1 keeps every
        mode undamped, 0 damps the unresolved ones in one step.
    baumgarte_alpha, baumgarte_beta : float
        Baumgarte stabilisation of the constraints [1/s].
    gravity : Vec3
        [m/s^2], world.
    static_equilibrium : bool
        Start compliant meshes at their static deflection under the loads.
    formulation : {'auto', 'joint', 'cartesian'}
        "joint": angles of a spanning tree of revolute/fixed joints; "cartesian":
        6 per body; "auto": joint when every body hangs from the ground on such joints.
    drift_tolerance : float
        Largest constraint error a run accepts, as a fraction of the smallest
        module of the gear pairs (of 1 mm without pairs) for gear phase drift
        and joint position errors, and in rad for joint axis and motor angle
        errors. A run whose error grows past it stops as failed, keeping its
        results (core.dynamics.checks). From 1e-12: below, the round-off of
        positions in double precision alone (2e-16 of them) would fail a run.
    """

    t_end: float = ranged(1.0, lo=0.0, hi=1e6, lo_open=True, unit="s")
    step: float = ranged(1e-3, lo=0.0, hi=10.0, lo_open=True, unit="s")
    output_step: float = ranged(1e-3, lo=0.0, hi=10.0, lo_open=True, unit="s")
    integrator: str = choice("rk4", tuple(INTEGRATOR_OPTIONS))
    rtol: float = ranged(1e-8, lo=1e-14, hi=1e-1, unit="")
    atol: float = ranged(1e-10, lo=1e-16, hi=1.0, unit="")
    rho_inf: float = ranged(0.5, lo=0.0, hi=1.0, unit="")
    baumgarte_alpha: float = ranged(10.0, lo=0.0, hi=1e6, unit="1/s")
    baumgarte_beta: float = ranged(10.0, lo=0.0, hi=1e6, unit="1/s")
    gravity: Vec3 = vector(ZERO3, unit="m/s^2")
    static_equilibrium: bool = False
    formulation: str = choice("auto", FORMULATIONS)
    drift_tolerance: float = ranged(1e-3, lo=1e-12, hi=1.0, unit="")

    def problems(self) -> list[tuple[str, str]]:
        out = range_problems(self) + _vector_problem("gravity", self.gravity)
        if self.integrator not in INTEGRATOR_OPTIONS:
            out.append(("integrator", f"must be one of {', '.join(INTEGRATOR_OPTIONS)}, got {short_repr(self.integrator)}"))
        if self.formulation not in FORMULATIONS:
            out.append(("formulation", f"must be one of {', '.join(FORMULATIONS)}, got {short_repr(self.formulation)}"))
        if out:
            return out
        if self.step > self.t_end:
            out.append(("step", f"must be at most the end time ({self.t_end:.6g} s), got {self.step:.6g} s"))
        if self.output_step > self.t_end:
            out.append(("output_step", f"must be at most the end time ({self.t_end:.6g} s), got {self.output_step:.6g} s"))
        fixed = self.integrator in ("rk4", "generalized_alpha")
        if fixed and self.t_end / self.step > MAX_FIXED_STEPS:
            out.append(("step", f"gives {self.t_end / self.step:.4g} steps of {self.integrator} over t_end = "
                        f"{self.t_end:.6g} s; at most {MAX_FIXED_STEPS:.0e} are allowed: make it at least "
                        f"{self.t_end / MAX_FIXED_STEPS:.3g} s"))
        samples = self.t_end / self.output_step + 1
        if samples > MAX_OUTPUT_SAMPLES:
            out.append(("output_step", f"gives {samples:.4g} output samples over t_end = {self.t_end:.6g} s; at most "
                        f"{MAX_OUTPUT_SAMPLES:,} are kept: make it at least {self.t_end / (MAX_OUTPUT_SAMPLES - 1):.3g} s"))
        return out

    def integrator_options(self) -> dict[str, float]:
        """The options of the chosen integrator, from these settings."""
        return {name: getattr(self, name) for name in INTEGRATOR_OPTIONS.get(self.integrator, ())}

    def unused_options(self) -> list[str]:
        """Integrator options set away from their defaults that the chosen integrator does not use."""
        used = set(INTEGRATOR_OPTIONS.get(self.integrator, ()))
        default = SimulationSettings()
        names = dict.fromkeys(name for opts in INTEGRATOR_OPTIONS.values() for name in opts)
        return [name for name in names if name not in used and getattr(self, name) != getattr(default, name)]


def shown_key(key: str) -> str:
    """A JSON key as it may appear in a message path: itself when it reads as a name, else quoted and cut."""
    return key if isinstance(key, str) and key.isidentifier() else short_repr(key, 40)


def collection_of(item) -> str:
    """Name of the model collection an entity belongs in (core.model.kinds)."""
    kind = KINDS.get(type(item))
    if kind is None:
        raise TypeError(f"not a model item: {type(item).__name__}")
    return kind.collection

