"""Gear macro-geometry against hand-worked textbook values.

The reference numbers below were worked by hand (calculator arithmetic, not
this code) from the formulas of ISO 21771:2007 (cylindrical gears: d = m_t z,
d_b = d cos(alpha_t), tan(alpha_t) = tan(alpha_n) / cos(beta), h_a = 1.0 m_n,
h_f = 1.25 m_n, transverse contact ratio from the path of contact over the
base pitch, overlap ratio b sin(beta) / (pi m_n)) and of ISO 23509 / Niemann
and Winter, Maschinenelemente II, for straight bevel gears (R = r / sin(gamma),
d_a = d + 2 h_a cos(gamma), z_v = z / cos(gamma), theta = atan(h / R)).
"""

import math

import pytest

from core.geometry.macro import (
    GearSpec,
    PairSpec,
    bevel_geometry,
    cylindrical_geometry,
    mate_pitch_angle,
    pair_geometry,
)

DEG = math.pi / 180
MM = 1e-3


def approx(v, rel=1e-5):
    return pytest.approx(v, rel=rel)


def test_spur_gear_radii():
    # z = 20, m = 2 mm, alpha = 20 deg: d = 40, d_b = 40 cos 20 = 37.58770, d_a = 44, d_f = 35 mm.
    g = cylindrical_geometry(GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, bore_diameter=10 * MM))
    assert g.pitch_radius == approx(20.0 * MM)
    assert g.base_radius == approx(18.79385 * MM)
    assert g.tip_radius == approx(22.0 * MM)
    assert g.root_radius == approx(17.5 * MM)
    assert g.transverse_pressure_angle == approx(20 * DEG)


def test_helical_gear_radii_and_angles():
    # m_t = 2 mm, beta = 15 deg: m_n = 2 cos 15 = 1.931852 mm; alpha_t = atan(tan 20 / cos 15) = 20.64690 deg;
    # r_b = 20 cos(20.64690) = 18.71542 mm; r_a = 20 + 1.931852 = 21.93185 mm; r_f = 20 - 2.414815 = 17.58519 mm.
    g = cylindrical_geometry(GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, helix_angle=15 * DEG, bore_diameter=10 * MM))
    assert g.normal_module == approx(1.931852 * MM)
    assert g.transverse_pressure_angle == approx(20.64690 * DEG)
    assert g.normal_pressure_angle == approx(20 * DEG)
    assert g.base_radius == approx(18.71542 * MM)
    assert g.tip_radius == approx(21.93185 * MM)
    assert g.root_radius == approx(17.58519 * MM)


def test_internal_gear_radii_point_inwards():
    # Ring z = 60, m = 2 mm: d = 120; tip (inner) circle 120 - 4 = 116 mm, root (outer) circle 120 + 5 = 125 mm.
    g = cylindrical_geometry(GearSpec("inner", 2 * MM, 60, 20 * DEG, 20 * MM, rim_diameter=150 * MM))
    assert g.internal
    assert 2 * g.tip_radius == approx(116.0 * MM)
    assert 2 * g.root_radius == approx(125.0 * MM)


def test_external_spur_pair_contact_ratio():
    # z 20/40, m 2, alpha 20: sqrt(22^2 - 18.79385^2) = 11.43637, sqrt(42^2 - 37.58770^2) = 18.73941,
    # a sin(alpha) = 60 sin 20 = 20.52121, p_b = pi 2 cos 20 = 5.904263 -> eps_a = 9.65457 / 5.904263 = 1.635186.
    p = pair_geometry(PairSpec("external", 20, 40, 2 * MM, 20 * DEG))
    assert p.center_distance == approx(60 * MM)
    assert p.transverse_base_pitch == approx(5.904263 * MM)
    assert p.transverse_contact_ratio == approx(1.635186)
    assert p.overlap_ratio == 0.0


def test_helical_pair_contact_and_overlap_ratio():
    # z 20/40, m_t 2, alpha_n 20, beta 15, b 20: eps_a = 1.560933 (radii as above, p_bt = pi 2 cos 20.6469),
    # eps_b = 20 sin 15 / (pi 1.931852) = 5.176381 / 6.069096 = 0.852909.
    p = pair_geometry(PairSpec("external", 20, 40, 2 * MM, 20 * DEG, helix_angle=15 * DEG, face_width=20 * MM))
    assert p.center_distance == approx(60 * MM)
    assert p.transverse_contact_ratio == approx(1.560933)
    assert p.overlap_ratio == approx(0.852909)
    assert p.total_contact_ratio == approx(2.413842)
    assert p.helix_angle_2 == approx(-15 * DEG)


def test_internal_pair_centre_distance_and_contact_ratio():
    # pinion 20 in ring 60, m 2: a = 2 (60 - 20) / 2 = 40 mm;
    # eps_a = (11.43637 - sqrt(58^2 - 56.38156^2) + 40 sin 20) / 5.904263 = (11.43637 - 13.60598 + 13.68081) / 5.904263 = 1.949662.
    p = pair_geometry(PairSpec("internal", 20, 60, 2 * MM, 20 * DEG))
    assert p.center_distance == approx(40 * MM)
    assert p.transverse_contact_ratio == approx(1.949662)


def test_straight_bevel_gear_geometry():
    # z 20 mating z 40, m 3 mm, 90 deg shafts: gamma1 = atan(20/40) = 26.56505 deg; R = 30 / sin(gamma1) = 67.08204 mm;
    # d_a = 60 + 2 3 cos(gamma1) = 65.36656 mm; z_v = 20 / cos(gamma1) = 22.36068;
    # theta_a = atan(3 / 67.08204) = 2.560639 deg; theta_f = atan(3.75 / 67.08204) = 3.199601 deg.
    g1 = 26.56505 * DEG
    g = bevel_geometry(GearSpec("bevel", 3 * MM, 20, 20 * DEG, 20 * MM, pitch_angle=g1, bore_diameter=12 * MM))
    assert g.cone_distance == approx(67.08204 * MM)
    assert 2 * g.outer_tip_radius == approx(65.36656 * MM)
    assert g.virtual_teeth == approx(22.36068)
    assert g.addendum_angle == approx(2.560639 * DEG)
    assert g.dedendum_angle == approx(3.199601 * DEG)
    assert g.tip_angle == approx((26.56505 + 2.560639) * DEG)
    assert g.apex_distance == approx(60.0 * MM)  # r1 / tan(gamma1) = 30 / 0.5
    # The mate: gamma2 = 90 - 26.56505 = 63.43495 deg; d_a2 = 120 + 6 cos(63.43495) = 122.6833 mm.
    mate = bevel_geometry(GearSpec("bevel", 3 * MM, 40, 20 * DEG, 20 * MM, pitch_angle=mate_pitch_angle(g1), bore_diameter=20 * MM))
    assert mate.pitch_angle == approx(63.43495 * DEG)
    assert 2 * mate.outer_tip_radius == approx(122.6833 * MM)
    assert mate.cone_distance == approx(g.cone_distance)


@pytest.mark.parametrize(
    "spec, field",
    [
        (GearSpec("helical", 2 * MM, 2, 20 * DEG, 20 * MM, bore_diameter=1 * MM), "teeth"),
        (GearSpec("helical", -1 * MM, 20, 20 * DEG, 20 * MM, bore_diameter=1 * MM), "module"),
        (GearSpec("helical", 2 * MM, 20, 50 * DEG, 20 * MM, bore_diameter=1 * MM), "pressure_angle"),
        (GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, helix_angle=60 * DEG, bore_diameter=1 * MM), "helix_angle"),
        (GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, bore_diameter=40 * MM), "bore_diameter"),
        (GearSpec("inner", 2 * MM, 60, 20 * DEG, 20 * MM, rim_diameter=120 * MM), "rim_diameter"),
        (GearSpec("bevel", 3 * MM, 20, 20 * DEG, 50 * MM, pitch_angle=26 * DEG, bore_diameter=10 * MM), "face_width"),
        (GearSpec("bevel", 3 * MM, 20, 20 * DEG, 20 * MM, pitch_angle=89 * DEG, bore_diameter=10 * MM), "pitch_angle"),
    ],
)
def test_out_of_range_parameters_name_the_field_and_the_range(spec, field):
    problems = spec.problems()
    assert problems and problems[0][0] == field
    assert "must be" in problems[0][1]


@pytest.mark.parametrize("spec", [GearSpec(kind="1" * 5000), PairSpec(kind="1" * 5000, z1=20, z2=40, module=0.002)])
def test_a_kind_that_is_no_kind_is_named_in_a_message_of_readable_length(spec):
    """A file whose gear kind is a 5,000-character string (the fuzz test's mutation) was refused with all of it
    in the message; the message now shows its start, as every other field's does."""
    (field, message), = spec.problems()
    assert field == "kind" and message.startswith("must be one of") and len(message) < 120 and "..." in message
