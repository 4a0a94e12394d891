"""Gear macro-geometry: radii, angles and contact ratios from a gear's parameters.

All values are SI (m, rad). The module entered is the transverse module m_t
(the plane of rotation), as the gear documentation prescribes; the pressure
angle is the normal pressure angle of the standard rack (ISO 53 basic rack:
addendum 1.0 m_n, dedendum 1.25 m_n, root fillet 0.38 m_n, m_n = m_t cos beta).
Formulas follow ISO 21771 (cylindrical gears) and the Tredgold back-cone
approximation for straight bevel gears (ISO 23509 notation).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

from core.ranges import DEG, MM, Range, range_problems, ranged
from core.wording import short_repr

ADDENDUM = 1.0  # in normal modules
DEDENDUM = 1.25  # in normal modules
FILLET = 0.38  # basic rack tip radius in normal modules

GEAR_KINDS = ("helical", "inner", "bevel")


@dataclass(frozen=True)
class GearSpec:
    """Parameters of one generated gear (SI).

    Parameters
    ----------
    kind : {'helical', 'inner', 'bevel'}
        External helical/spur gear, internal (ring) gear or straight bevel gear.
    module : float
        Transverse module m_t [m] (bevel: module at the outer end).
    teeth : int
        Number of teeth z.
    pressure_angle : float
        Normal pressure angle alpha_n [rad].
    face_width : float
        Face width b [m] (bevel: along the cone generatrix).
    helix_angle : float
        Helix angle beta [rad]; positive is right hand, 0 a spur gear.
    pitch_angle : float
        Pitch-cone angle gamma [rad] (bevel only).
    bore_diameter : float
        Bore diameter [m] (helical and bevel).
    rim_diameter : float
        Outer rim diameter [m] (inner gear only).
    density : float
        Material density [kg/m^3].
    profile_shift : float
        Profile shift coefficient x (ISO 21771), external helical/spur gears:
        the rack moved out by x m_n thickens the tooth and moves the tip and
        root circles out by x m_n.
    """

    kind: str = "helical"
    module: float = ranged(0.002, lo=1e-4, hi=0.1, **MM)
    teeth: int = ranged(20, lo=3, hi=1000, integer=True)
    pressure_angle: float = ranged(math.radians(20.0), lo=math.radians(10.0), hi=math.radians(35.0), **DEG)
    face_width: float = ranged(0.02, lo=0.0, hi=2.0, lo_open=True, **MM)
    helix_angle: float = ranged(0.0, lo=math.radians(-45.0), hi=math.radians(45.0), **DEG)
    pitch_angle: float = ranged(math.radians(45.0), lo=math.radians(5.0), hi=math.radians(85.0), **DEG)
    bore_diameter: float = ranged(0.0, lo=0.0, hi=10.0, lo_open=True, **MM)
    rim_diameter: float = ranged(0.0, lo=0.0, hi=20.0, lo_open=True, **MM)
    density: float = ranged(7850.0, lo=1.0, hi=50000.0, unit="kg/m^3")
    profile_shift: float = ranged(0.0, lo=-0.6, hi=1.0)

    def relevant_fields(self) -> tuple[str, ...]:
        """Fields that matter for this kind (the GUI shows only these)."""
        common = ("module", "teeth", "pressure_angle", "face_width")
        if self.kind == "helical":
            return common + ("helix_angle", "profile_shift", "bore_diameter", "density")
        if self.kind == "inner":
            return common + ("helix_angle", "rim_diameter", "density")
        return common + ("pitch_angle", "bore_diameter", "density")

    def largest_bore(self) -> float:
        """The largest bore diameter [m] the teeth leave: 0.9 of the root circle's diameter (a bevel gear's at its
        inner end). External and bevel gears only."""
        if self.kind == "bevel":
            b = bevel_geometry(self)
            return 0.9 * 2 * b.inner_scale * (b.pitch_radius - b.dedendum * math.cos(b.pitch_angle))
        return 0.9 * 2 * cylindrical_geometry(self).root_radius

    def problems(self) -> list[tuple[str, str]]:
        """(field, message) for every parameter out of its allowed range.

        Checks the fixed ranges first and then the ranges that depend on the
        other parameters (bore inside the root circle, rim outside the ring's
        root circle, bevel face width below half the cone distance).
        """
        if self.kind not in GEAR_KINDS:
            return [("kind", f"must be one of {', '.join(GEAR_KINDS)}, got {short_repr(self.kind)}")]
        found = [p for p in range_problems(self) if p[0] in self.relevant_fields()]
        if found:
            return found
        if self.kind != "helical" and self.profile_shift != 0.0:
            return [("profile_shift", f"must be 0 for {self.kind} gears (profile shift is supported on external "
                                      f"helical/spur gears), got {self.profile_shift:g}")]
        if self.kind == "inner" and self.teeth < 12:
            return [("teeth", f"must be {Range(lo=12, hi=1000, integer=True).describe()} for an inner gear, got {self.teeth}")]
        if self.kind == "helical":
            rng = Range(lo=0.0, hi=self.largest_bore(), lo_open=True, **MM)
            msg = rng.problem(self.bore_diameter)
            return [("bore_diameter", msg + " (it must stay inside the root circle)")] if msg else []
        if self.kind == "inner":
            g = cylindrical_geometry(self)
            rng = Range(lo=2 * g.root_radius * 1.02, hi=20.0, lo_open=True, **MM)
            msg = rng.problem(self.rim_diameter)
            return [("rim_diameter", msg + " (it must enclose the ring's root circle)")] if msg else []
        b = bevel_geometry(self)
        out = []
        msg = Range(lo=0.0, hi=0.5 * b.cone_distance, lo_open=True, **MM).problem(self.face_width)
        if msg:
            out.append(("face_width", msg + " (half the cone distance at most)"))
        else:
            msg = Range(lo=0.0, hi=self.largest_bore(), lo_open=True, **MM).problem(self.bore_diameter)
            if msg:
                out.append(("bore_diameter", msg + " (it must stay inside the root cone at the inner end)"))
        return out


def involute(angle: float) -> float:
    """Involute function inv(a) = tan(a) - a."""
    return math.tan(angle) - angle


@dataclass(frozen=True)
class CylindricalGeometry:
    """Macro-geometry of an external or internal cylindrical gear [m, rad].

    For an internal gear the tip radius is the inner (tooth tip) circle and
    the root radius the outer (tooth root) circle.
    """

    teeth: int
    transverse_module: float
    normal_module: float
    helix_angle: float
    normal_pressure_angle: float
    transverse_pressure_angle: float
    pitch_radius: float
    base_radius: float
    tip_radius: float
    root_radius: float
    internal: bool
    base_helix_angle: float
    transverse_base_pitch: float
    lead: float
    profile_shift: float = 0.0

    @property
    def addendum(self) -> float:
        return (ADDENDUM + self.profile_shift) * self.normal_module

    @property
    def dedendum(self) -> float:
        return (DEDENDUM - self.profile_shift) * self.normal_module


def transverse_pressure_angle(normal_pressure_angle: float, helix_angle: float) -> float:
    """alpha_t = atan(tan(alpha_n) / cos(beta)) [rad]."""
    return math.atan(math.tan(normal_pressure_angle) / math.cos(helix_angle))


@functools.lru_cache(maxsize=4096)  # a pure function of a frozen spec: the checks and the assembly ask for it often
def cylindrical_geometry(spec: GearSpec) -> CylindricalGeometry:
    """Macro-geometry of a helical/spur ('helical') or internal ('inner') gear."""
    m_t, z, beta = spec.module, spec.teeth, spec.helix_angle
    m_n = m_t * math.cos(beta)
    alpha_t = transverse_pressure_angle(spec.pressure_angle, beta)
    r = m_t * z / 2.0
    internal = spec.kind == "inner"
    sign = -1.0 if internal else 1.0
    r_b = r * math.cos(alpha_t)
    x = spec.profile_shift if not internal else 0.0
    return CylindricalGeometry(
        teeth=z,
        transverse_module=m_t,
        normal_module=m_n,
        helix_angle=beta,
        normal_pressure_angle=spec.pressure_angle,
        transverse_pressure_angle=alpha_t,
        pitch_radius=r,
        base_radius=r_b,
        tip_radius=r + sign * (ADDENDUM + x) * m_n,
        root_radius=r - sign * (DEDENDUM - x) * m_n,
        internal=internal,
        base_helix_angle=math.atan(math.tan(beta) * math.cos(alpha_t)),
        transverse_base_pitch=math.pi * m_t * math.cos(alpha_t),
        lead=(2 * math.pi * r / math.tan(beta)) if beta else math.inf,
        profile_shift=x,
    )


@dataclass(frozen=True)
class BevelGeometry:
    """Macro-geometry of a straight bevel gear at its outer (heel) end [m, rad].

    The body frame has its origin at the centre of the outer pitch circle and
    its z axis pointing towards the pitch apex, at ``z = apex_distance``.
    """

    teeth: int
    module: float
    pressure_angle: float
    pitch_angle: float
    pitch_radius: float
    cone_distance: float
    face_width: float
    back_cone_radius: float
    virtual_teeth: float
    addendum: float
    dedendum: float
    addendum_angle: float
    dedendum_angle: float
    tip_angle: float
    root_angle: float
    outer_tip_radius: float
    apex_distance: float
    base_radius_virtual: float

    @property
    def inner_scale(self) -> float:
        """Ratio of the inner to the outer cone distance, (R - b) / R."""
        return (self.cone_distance - self.face_width) / self.cone_distance


def bevel_geometry(spec: GearSpec) -> BevelGeometry:
    """Macro-geometry of a straight bevel gear (Tredgold back cone)."""
    m, z, gamma = spec.module, spec.teeth, spec.pitch_angle
    r = m * z / 2.0
    h_a, h_f = ADDENDUM * m, DEDENDUM * m
    cone = r / math.sin(gamma)
    r_v = r / math.cos(gamma)
    th_a, th_f = math.atan(h_a / cone), math.atan(h_f / cone)
    return BevelGeometry(
        teeth=z,
        module=m,
        pressure_angle=spec.pressure_angle,
        pitch_angle=gamma,
        pitch_radius=r,
        cone_distance=cone,
        face_width=spec.face_width,
        back_cone_radius=r_v,
        virtual_teeth=z / math.cos(gamma),
        addendum=h_a,
        dedendum=h_f,
        addendum_angle=th_a,
        dedendum_angle=th_f,
        tip_angle=gamma + th_a,
        root_angle=gamma - th_f,
        outer_tip_radius=r + h_a * math.cos(gamma),
        apex_distance=r / math.tan(gamma),
        base_radius_virtual=r_v * math.cos(spec.pressure_angle),
    )


def mate_helix_angle(helix_angle_1: float) -> float:
    """Helix angle of the mating gear of an external pair: same size, opposite hand."""
    return -helix_angle_1


def mate_pitch_angle(pitch_angle_1: float, shaft_angle: float = math.pi / 2) -> float:
    """gamma2 = Sigma - gamma1 [rad]; the solver supports Sigma = 90 deg."""
    return shaft_angle - pitch_angle_1


def bevel_pitch_angle(z1: int, z2: int) -> float:
    """Pitch angle of gear 1 of a 90 deg bevel pair, gamma1 = atan(z1 / z2) [rad]."""
    return math.atan2(z1, z2)


def bevel_face_width_limit(module: float, teeth: int, pitch_angle: float) -> tuple[float, float]:
    """The widest face [m] a straight bevel gear is made with, the smaller of R_e / 3 and 10 m (Mott, Machine
    Elements in Mechanical Design, sec. 8-8; Gleason's cutting rule), and the outer cone distance
    R_e = m z / (2 sin gamma) [m]; from the outer module [m] and the gear's teeth and pitch angle [rad] (either
    gear of a pair gives its R_e)."""
    cone = 0.5 * module * teeth / math.sin(pitch_angle)
    return min(cone / 3.0, 10.0 * module), cone


PAIR_KINDS = ("external", "internal", "bevel")


@dataclass(frozen=True)
class PairGeometry:
    """Geometry of a gear pair [m, rad]; contact ratios are dimensionless."""

    kind: str
    ratio: float
    center_distance: float
    working_pressure_angle: float
    transverse_base_pitch: float
    path_of_contact: float
    transverse_contact_ratio: float
    overlap_ratio: float
    pitch_angle_1: float = 0.0
    pitch_angle_2: float = 0.0
    helix_angle_2: float = 0.0
    working_radius_1: float = 0.0
    working_radius_2: float = 0.0
    base_radius_1: float = 0.0
    base_radius_2: float = 0.0

    @property
    def total_contact_ratio(self) -> float:
        return self.transverse_contact_ratio + self.overlap_ratio


@dataclass(frozen=True)
class PairSpec:
    """Parameters of a gear pair as entered on the gear-pair constraint (SI)."""

    kind: str = "external"
    z1: int = ranged(20, lo=3, hi=1000, integer=True)
    z2: int = ranged(40, lo=3, hi=1000, integer=True)
    module: float = ranged(0.002, lo=1e-4, hi=0.1, **MM)
    pressure_angle: float = ranged(math.radians(20.0), lo=math.radians(10.0), hi=math.radians(35.0), **DEG)
    helix_angle: float = ranged(0.0, lo=math.radians(-45.0), hi=math.radians(45.0), **DEG)
    pitch_angle: float = ranged(math.radians(45.0), lo=math.radians(5.0), hi=math.radians(85.0), **DEG)
    face_width: float = ranged(0.0, lo=0.0, hi=2.0, **MM)
    x1: float = ranged(0.0, lo=-0.6, hi=1.0)
    x2: float = ranged(0.0, lo=-0.6, hi=1.0)

    def problems(self) -> list[tuple[str, str]]:
        if self.kind not in PAIR_KINDS:
            return [("kind", f"must be one of {', '.join(PAIR_KINDS)}, got {short_repr(self.kind)}")]
        found = range_problems(self)
        if not found and self.kind != "external":
            found += [(f, f"must be 0 for {self.kind} pairs (profile shift is supported on external pairs), "
                          f"got {getattr(self, f):g}") for f in ("x1", "x2") if getattr(self, f) != 0.0]
        if not found and self.kind == "internal" and self.z2 - self.z1 < 6:
            found.append(("z2", f"must exceed z1 by at least 6 for an internal pair (pinion z1 = {self.z1} on joint 1), got {self.z2}"))
        if not found and self.kind == "bevel" and self.helix_angle != 0.0:
            found.append(("helix_angle", "must be 0 deg: only straight bevel gears are supported"))
        return found


def pair_field(name: str):
    """A field with the same default and range as PairSpec's `name` (for the model's GearPair)."""
    f = PairSpec.__dataclass_fields__[name]
    return dataclasses.field(default=f.default, metadata=f.metadata)


def pair_gear_spec(kind: str, z: int, p: PairSpec, x: float = 0.0) -> GearSpec:
    """The GearSpec of one gear of pair `p`: its kind, teeth and profile shift; the pair's module, angles and face
    width."""
    return GearSpec(kind=kind, module=p.module, teeth=z, pressure_angle=p.pressure_angle, helix_angle=p.helix_angle,
                    face_width=p.face_width, profile_shift=x)


def working_pressure_angle(p: PairSpec, alpha_t: float) -> float:
    """alpha_wt [rad] from inv(alpha_wt) = inv(alpha_t) + 2 tan(alpha_n) (x1 + x2) / (z1 + z2) (ISO 21771, no backlash)."""
    if p.x1 + p.x2 == 0.0:
        return alpha_t
    target = involute(alpha_t) + 2.0 * math.tan(p.pressure_angle) * (p.x1 + p.x2) / (p.z1 + p.z2)
    a = alpha_t
    for _ in range(60):  # Newton on inv(a) = target; inv'(a) = tan(a)^2
        step = (involute(a) - target) / math.tan(a) ** 2
        a -= step
        if abs(step) < 1e-15:
            break
    return a


def center_distance(p: PairSpec) -> float:
    """Working centre distance a_w [m]: m_t (z1 + z2) / 2 (external; z2 - z1 internal) times cos(alpha_t) / cos(alpha_wt)."""
    return pair_geometry(p).center_distance


@functools.lru_cache(maxsize=4096)  # a pure function of a frozen spec, as cylindrical_geometry
def pair_geometry(p: PairSpec) -> PairGeometry:
    """Centre distance and contact ratios of a gear pair.

    Transverse contact ratio (ISO 21771):
    external  eps_a = (sqrt(ra1^2 - rb1^2) + sqrt(ra2^2 - rb2^2) - a sin(alpha_t)) / p_bt,
    internal  eps_a = (sqrt(ra1^2 - rb1^2) - sqrt(ra2^2 - rb2^2) + a sin(alpha_t)) / p_bt,
    with p_bt = pi m_t cos(alpha_t); overlap ratio eps_b = b sin(beta) / (pi m_n).
    A straight bevel pair uses its virtual (back-cone) spur pair.
    """
    if p.kind == "bevel":
        g1 = p.pitch_angle
        g2 = mate_pitch_angle(g1)
        r1, r2 = p.module * p.z1 / 2, p.module * p.z2 / 2
        rv1, rv2 = r1 / math.cos(g1), r2 / math.cos(g2)
        alpha = p.pressure_angle
        ra1, ra2 = rv1 + p.module, rv2 + p.module
        rb1, rb2 = rv1 * math.cos(alpha), rv2 * math.cos(alpha)
        a_v = rv1 + rv2
        p_b = math.pi * p.module * math.cos(alpha)
        path = math.sqrt(ra1**2 - rb1**2) + math.sqrt(ra2**2 - rb2**2) - a_v * math.sin(alpha)
        return PairGeometry("bevel", p.z2 / p.z1, 0.0, alpha, p_b, path, path / p_b, 0.0, g1, g2, 0.0,
                            working_radius_1=r1, working_radius_2=r2, base_radius_1=rb1, base_radius_2=rb2)
    internal = p.kind == "internal"
    s1 = cylindrical_geometry(pair_gear_spec("helical", p.z1, p, p.x1))
    s2 = cylindrical_geometry(pair_gear_spec("inner" if internal else "helical", p.z2, p, 0.0 if internal else p.x2))
    alpha_t = s1.transverse_pressure_angle
    alpha_w = working_pressure_angle(p, alpha_t)
    if internal:
        a = p.module * (p.z2 - p.z1) / 2
        path = (math.sqrt(s1.tip_radius**2 - s1.base_radius**2)
                - math.sqrt(max(s2.tip_radius**2 - s2.base_radius**2, 0.0))
                + a * math.sin(alpha_w))
    else:
        a = p.module * (p.z1 + p.z2) / 2 * math.cos(alpha_t) / math.cos(alpha_w)
        path = (math.sqrt(s1.tip_radius**2 - s1.base_radius**2)
                + math.sqrt(s2.tip_radius**2 - s2.base_radius**2)
                - a * math.sin(alpha_w))
    p_bt = s1.transverse_base_pitch
    overlap = p.face_width * abs(math.sin(p.helix_angle)) / (math.pi * s1.normal_module)
    scale = math.cos(alpha_t) / math.cos(alpha_w)  # working over reference pitch radius
    return PairGeometry(
        p.kind, p.z2 / p.z1, a, alpha_w, p_bt, path, path / p_bt, overlap,
        helix_angle_2=p.helix_angle if internal else mate_helix_angle(p.helix_angle),
        working_radius_1=s1.pitch_radius * scale, working_radius_2=s2.pitch_radius * scale,
        base_radius_1=s1.base_radius, base_radius_2=s2.base_radius,
    )
