"""Tooth form of an external cylindrical gear cut by the basic rack: undercut and a thin or pointed tip; the
undercut of a straight bevel gear.

A gear's macro-geometry (core.geometry.macro) holds for any number of teeth, but a pinion with few teeth is
undercut by the rack that generates it, and a large profile shift thins its tips to a point; the contact ratio
and the mesh stiffness then describe a tooth the gear does not have. Both are warnings, with the numbers.

- Undercut: the rack's straight flank reaches h_a0 = 1.0 m_n below the pitch line; shifted out by x m_n, it cuts
  no undercut while (1 - x) m_n <= r sin^2(alpha_t), i.e. z >= z_min = 2 cos(beta) (1 - x) / sin^2(alpha_t)
  (17.1 for a spur gear at 20 deg without shift).
- Tip: the transverse tooth thickness at the tip circle s_at = 2 r_a (psi + inv alpha_t - inv alpha_at), psi =
  (pi / 2 + 2 x tan alpha_n) / z the half tooth angle at the pitch circle, cos alpha_at = r_b / r_a; normal to
  the helix at the tip s_an = s_at cos(beta_a), tan(beta_a) = tan(beta) r_a / r. A tip under 0.2 m_n is the
  common limit for a tooth that does not chip (ISO 21771 leaves it to the designer; DIN 3960 practice).
- A straight bevel gear's teeth are those of its virtual spur gear on the back cone (Tredgold), z_v = z / cos(gamma)
  teeth, which the tool undercuts below the spur gear's z_min: z >= z_min cos(gamma) (14.5 at 20 deg and gamma =
  30 deg). Bevel gears here carry no profile shift, so their tips are those of an unshifted gear.
- A straight bevel gear's face is at most a third of its outer cone distance R_e and 10 outer modules
  (core.geometry.macro.bevel_face_width_limit): wider teeth run to small ends too fine to carry load or be cut.
"""

from __future__ import annotations

import dataclasses
import math

from core.geometry.macro import (ADDENDUM, GearSpec, PairSpec, bevel_face_width_limit, cylindrical_geometry,
                                 mate_pitch_angle, pair_gear_spec)
from core.geometry.tooth_profile import external_half_angle

#: the least normal tip thickness, in normal modules, before a tip is called nearly pointed
THIN_TIP = 0.2


def undercut_limit(spec: GearSpec) -> float:
    """z_min, the fewest teeth the basic rack cuts without undercut at this gear's shift and angles (a straight
    bevel gear: those whose virtual back-cone gear, z / cos(gamma) teeth, reaches the spur gear's z_min)."""
    if spec.kind == "bevel":
        return 2.0 * ADDENDUM / math.sin(spec.pressure_angle) ** 2 * math.cos(spec.pitch_angle)
    g = cylindrical_geometry(spec)
    return 2.0 * math.cos(g.helix_angle) * (ADDENDUM - g.profile_shift) / math.sin(g.transverse_pressure_angle) ** 2


def tip_thickness(spec: GearSpec) -> float:
    """The normal tooth thickness at the tip circle s_an [m]; zero or less where the flanks meet below it."""
    g = cylindrical_geometry(spec)
    thickening = 2 * g.profile_shift * math.tan(g.normal_pressure_angle)  # the generated tooth's own half angle
    s_at = 2 * g.tip_radius * float(external_half_angle(g.tip_radius, g.teeth, g.transverse_pressure_angle,
                                                        g.base_radius, thickening))
    beta_a = math.atan(math.tan(g.helix_angle) * g.tip_radius / g.pitch_radius)
    return s_at * math.cos(beta_a)


def tooth_warnings(spec: GearSpec) -> list[str]:
    """What is wrong with the teeth of an external helical/spur gear, or the undercut of a straight bevel gear, in
    words ([] for an inner gear)."""
    if spec.kind == "bevel":
        z_min, back = undercut_limit(spec), math.cos(spec.pitch_angle)  # the virtual gear has z / cos(gamma) teeth
        out = [] if spec.teeth >= z_min else [
            f"{spec.teeth} teeth are undercut by the generating tool: fewer than {z_min:.3g} at pitch angle "
            f"{math.degrees(spec.pitch_angle):.4g} deg (the virtual back-cone gear has {spec.teeth / back:.3g} "
            f"teeth, under z_min = {z_min / back:.3g}): give more teeth"]
        limit, cone = bevel_face_width_limit(spec.module, spec.teeth, spec.pitch_angle)
        if spec.face_width > limit * (1 + 1e-9):
            out.append(f"face width {spec.face_width * 1e3:.5g} mm is over {limit * 1e3:.5g} mm, the smaller of "
                       f"R_e / 3 (outer cone distance {cone * 1e3:.5g} mm) and 10 m ({10 * spec.module * 1e3:.5g} mm) "
                       "that straight bevel gears are made to: narrow the face")
        return out
    if spec.kind != "helical":
        return []
    out = []
    z_min = undercut_limit(spec)
    if spec.teeth < z_min:
        out.append(f"{spec.teeth} teeth are undercut by the generating rack (fewer than z_min = {z_min:.3g} at "
                   f"profile shift {spec.profile_shift:g}): give more teeth or a profile shift of at least "
                   f"{ADDENDUM - spec.teeth / z_min * (ADDENDUM - spec.profile_shift):.2g}")
    s_an, m_n = tip_thickness(spec), spec.module * math.cos(spec.helix_angle)
    if s_an <= 0.0:
        out.append("the teeth are pointed: their flanks meet below the tip circle; reduce the profile shift")
    elif s_an < THIN_TIP * m_n:
        out.append(f"the tooth tips are {s_an * 1e3:.3g} mm thick, under {THIN_TIP:g} m_n = {THIN_TIP * m_n * 1e3:.3g} "
                   f"mm: nearly pointed; reduce the profile shift")
    return out


def pair_tooth_warnings(p: PairSpec) -> list[str]:
    """`tooth_warnings` of a pair's gears (gear 1, and gear 2 but for a ring), each named; what both gears are
    told alike (a bevel pair's face width) once."""
    if p.kind == "bevel":
        gears = [(k, dataclasses.replace(pair_gear_spec("bevel", z, p), pitch_angle=cone))
                 for k, z, cone in ((1, p.z1, p.pitch_angle), (2, p.z2, mate_pitch_angle(p.pitch_angle)))]
    else:
        gears = [(1, pair_gear_spec("helical", p.z1, p, p.x1))]
    if p.kind == "external":
        gears.append((2, pair_gear_spec("helical", p.z2, p, p.x2)))
    said = [(k, text) for k, spec in gears for text in tooth_warnings(spec)]
    both = {text for k, text in said if k == 1} & {text for k, text in said if k == 2}  # a bevel pair's face
    return ([f"gear {k}: {text}" for k, text in said if text not in both] +
            [f"gears 1 and 2: {text}" for text in sorted(both)])
