"""Generated gear meshes: closed, outward, symmetric, with the right mass properties and flank shape."""

import dataclasses
import math

import numpy as np
import pytest

from core.geometry.gear_mesh import gear_mesh
from core.geometry.macro import GearSpec, bevel_geometry, cylindrical_geometry
from core.geometry.mass_properties import STEEL_DENSITY, mesh_mass_properties
from core.geometry.tooth_profile import involute

DEG = math.pi / 180
MM = 1e-3

SPECS = [
    GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, bore_diameter=10 * MM),
    GearSpec("helical", 2 * MM, 50, 20 * DEG, 20 * MM, helix_angle=15 * DEG, bore_diameter=20 * MM),
    GearSpec("helical", 2 * MM, 3, 20 * DEG, 10 * MM, bore_diameter=0.2 * MM),
    GearSpec("helical", 1 * MM, 7, 25 * DEG, 8 * MM, helix_angle=-30 * DEG, bore_diameter=1 * MM),
    GearSpec("helical", 5 * MM, 120, 20 * DEG, 40 * MM, helix_angle=20 * DEG, bore_diameter=100 * MM),
    GearSpec("inner", 2 * MM, 60, 20 * DEG, 20 * MM, rim_diameter=150 * MM),
    GearSpec("inner", 2 * MM, 72, 20 * DEG, 20 * MM, helix_angle=-15 * DEG, rim_diameter=170 * MM),
    GearSpec("inner", 1 * MM, 13, 20 * DEG, 5 * MM, rim_diameter=25 * MM),
    GearSpec("bevel", 3 * MM, 20, 20 * DEG, 20 * MM, pitch_angle=math.atan(0.5), bore_diameter=12 * MM),
    GearSpec("bevel", 3 * MM, 40, 20 * DEG, 20 * MM, pitch_angle=math.atan(2.0), bore_diameter=20 * MM),
    GearSpec("bevel", 2 * MM, 3, 20 * DEG, 1 * MM, pitch_angle=45 * DEG, bore_diameter=0.1 * MM),
]
IDS = [f"{s.kind}-z{s.teeth}-b{round(s.helix_angle / DEG)}" for s in SPECS]


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_mesh_is_watertight_with_outward_normals(spec):
    mesh = gear_mesh(spec)
    assert mesh.is_watertight
    assert mesh.is_winding_consistent
    assert mesh.volume > 0  # outward normals give a positive enclosed volume
    # The outermost faces (tooth tips) face away from the axis.
    centres = mesh.triangles_center
    radial = centres[:, :2] / np.linalg.norm(centres[:, :2], axis=1, keepdims=True)
    outer = np.linalg.norm(centres[:, :2], axis=1) > 0.99 * np.linalg.norm(centres[:, :2], axis=1).max()
    assert np.mean(np.einsum("ij,ij->i", mesh.face_normals[outer, :2], radial[outer])) > 0.1


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_transverse_inertias_equal_and_com_on_axis(spec):
    mp = mesh_mass_properties(gear_mesh(spec), spec.density)
    inertia = np.array(mp.inertia)
    assert abs(inertia[0, 0] - inertia[1, 1]) <= 1e-6 * inertia[0, 0]
    assert abs(inertia[0, 1]) <= 1e-6 * inertia[0, 0]
    scale = spec.module * spec.teeth
    assert math.hypot(mp.com[0], mp.com[1]) < 1e-9 * scale
    assert mp.mass == pytest.approx(mp.volume * STEEL_DENSITY)


@pytest.mark.parametrize("spec", [s for s in SPECS if s.kind == "helical"], ids=lambda s: f"z{s.teeth}")
def test_external_volume_between_root_and_tip_annulus(spec):
    g = cylindrical_geometry(spec)
    rb = spec.bore_diameter / 2
    vol = gear_mesh(spec).volume
    assert math.pi * (g.root_radius**2 - rb**2) * spec.face_width < vol < math.pi * (g.tip_radius**2 - rb**2) * spec.face_width


@pytest.mark.parametrize("spec", [s for s in SPECS if s.kind == "inner"], ids=lambda s: f"z{s.teeth}")
def test_internal_volume_between_root_and_tip_annulus(spec):
    g = cylindrical_geometry(spec)
    ro = spec.rim_diameter / 2
    vol = gear_mesh(spec).volume
    assert math.pi * (ro**2 - g.root_radius**2) * spec.face_width < vol < math.pi * (ro**2 - g.tip_radius**2) * spec.face_width


def test_spur_polar_inertia_close_to_pitch_annulus_estimate():
    # A gear is close to a disc of its pitch radius: J = rho pi b (r^4 - r_bore^4) / 2.
    spec = GearSpec("helical", 2 * MM, 40, 20 * DEG, 20 * MM, bore_diameter=20 * MM)
    r, rb = 40 * MM, 10 * MM
    estimate = STEEL_DENSITY * math.pi * spec.face_width * (r**4 - rb**4) / 2
    izz = mesh_mass_properties(gear_mesh(spec)).inertia[2][2]
    assert izz == pytest.approx(estimate, rel=0.04)


def _cap_points(mesh, z, r_min):
    v = mesh.vertices
    sel = (np.abs(v[:, 2] - z) < 1e-12) & (np.hypot(v[:, 0], v[:, 1]) > r_min)
    return v[sel, :2]


def test_helical_twist_over_the_face_width_is_b_tan_beta_over_r():
    spec = GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, helix_angle=15 * DEG, bore_diameter=10 * MM)
    g = cylindrical_geometry(spec)
    mesh = gear_mesh(spec)
    bottom = _cap_points(mesh, -spec.face_width / 2, g.root_radius * 0.99)
    top = _cap_points(mesh, spec.face_width / 2, g.root_radius * 0.99)
    twist = spec.face_width * math.tan(spec.helix_angle) / g.pitch_radius  # 0.0268 rad, right hand: counter-clockwise
    c, s = math.cos(-twist), math.sin(-twist)
    back = top @ np.array([[c, s], [-s, c]])
    dist = np.min(np.linalg.norm(back[:, None, :] - bottom[None, :, :], axis=2), axis=1)
    assert dist.max() < 1e-12
    # and a wrong twist does not match
    assert np.min(np.linalg.norm(top[:, None, :] - bottom[None, :, :], axis=2), axis=1).max() > 1e-5


def test_spur_flanks_are_involutes():
    # Above the base circle and below the tip, each flank point's half-angle from its tooth centre
    # obeys psi(r) = pi / (2 z) + inv(alpha) - inv(acos(r_b / r)) (ISO 21771 tooth thickness, zero backlash).
    spec = GearSpec("helical", 2 * MM, 30, 20 * DEG, 10 * MM, bore_diameter=10 * MM)
    g = cylindrical_geometry(spec)
    pts = _cap_points(gear_mesh(spec), -spec.face_width / 2, 0.0)
    r = np.hypot(pts[:, 0], pts[:, 1])
    flank = (r > g.base_radius * 1.0005) & (r > g.root_radius + 0.4 * g.normal_module) & (r < g.tip_radius * 0.9995)
    assert flank.sum() >= 2 * 30 * 5
    theta = np.arctan2(pts[flank, 1], pts[flank, 0])
    pitch = 2 * math.pi / 30
    local = np.abs((theta + pitch / 2) % pitch - pitch / 2)
    expected = math.pi / 60 + involute(20 * DEG) - involute(np.arccos(g.base_radius / r[flank]))
    assert np.max(np.abs(local - expected)) < 1e-12


def test_root_fillet_joins_flank_to_root_circle():
    spec = GearSpec("helical", 2 * MM, 30, 20 * DEG, 10 * MM, bore_diameter=10 * MM)
    g = cylindrical_geometry(spec)
    pts = _cap_points(gear_mesh(spec), -spec.face_width / 2, g.root_radius * 0.999)
    r = np.hypot(pts[:, 0], pts[:, 1])
    # points strictly between the root circle and the start of the flank exist: the fillet
    fillet = (r > g.root_radius * 1.0001) & (r < g.root_radius + 0.38 * g.normal_module * 0.999)
    assert fillet.sum() >= 2 * 30 * 3
    assert r.min() == pytest.approx(g.root_radius, rel=1e-12)


def test_bevel_teeth_are_straight_lines_to_the_apex():
    spec = GearSpec("bevel", 3 * MM, 20, 20 * DEG, 20 * MM, pitch_angle=math.atan(0.5), bore_diameter=12 * MM)
    g = bevel_geometry(spec)
    mesh = gear_mesh(spec)
    v = mesh.vertices
    apex = np.array([0.0, 0.0, g.apex_distance])
    r = np.hypot(v[:, 0], v[:, 1])
    teeth = v[r > spec.bore_diameter / 2 * 1.01]
    # every tooth vertex seen from the apex: directions come in pairs (outer end, inner end)
    d = teeth - apex
    dist = np.linalg.norm(d, axis=1)
    u = d / dist[:, None]
    outer = dist > g.cone_distance * 0.9
    inner = ~outer
    for ui, di in zip(u[inner], dist[inner]):
        k = np.argmin(np.linalg.norm(u[outer] - ui, axis=1))
        assert np.linalg.norm(u[outer][k] - ui) < 1e-12
        assert di / dist[outer][k] == pytest.approx(g.inner_scale, rel=1e-12)
    # the tip of the outer end lies on the tip circle d_a = d + 2 h_a cos(gamma)
    assert r.max() == pytest.approx(g.outer_tip_radius, rel=1e-9)


def test_bad_parameters_raise_naming_the_field():
    with pytest.raises(ValueError, match="bore_diameter"):
        gear_mesh(GearSpec("helical", 2 * MM, 20, 20 * DEG, 20 * MM, bore_diameter=50 * MM))


@pytest.mark.parametrize("spec", [s for s in SPECS if s.kind != "bevel" and s.helix_angle], ids=lambda s: f"{s.kind}-z{s.teeth}")
def test_a_helical_gears_volume_is_its_section_times_its_width_and_either_hand_weighs_the_same(spec):
    """Twisting a section along the axis keeps its area, so a helical gear's volume is the transverse section's
    area times the face width, whichever its hand. The mesh's layers join by straight edges, and each of its
    quads, bent by the twist, was split along the same diagonal for either hand: a right-hand z 20 pinion
    (m_n 2 mm, 15 deg) came out 4.6e-4 light and its left-hand twin 9e-6 heavy, their polar moments 9e-4 apart;
    the 7-tooth pinion at 30 deg, 3.7e-3 light. Split along the shorter diagonal, the hands are mirror images;
    what is left is the straight edges' chord across the twist, 3.4e-4 on that pinion, 2e-6 on the others."""
    from core.geometry.gear_mesh import transverse_outline

    r, theta, plain = transverse_outline(spec)
    x, y = r * np.cos(theta), r * np.sin(theta)  # the section's outline as the mesh samples it, and its plain side
    teeth = 0.5 * abs(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    side = 0.5 * plain**2 * np.sum(np.sin(np.diff(theta, append=theta[0] + 2 * math.pi)))
    area = abs(teeth - side)
    right, left = (gear_mesh(dataclasses.replace(spec, helix_angle=s * abs(spec.helix_angle))) for s in (1, -1))
    for mesh in (right, left):
        assert mesh.volume == pytest.approx(area * spec.face_width, rel=5e-4 if spec.teeth < 10 else 5e-5)
    one, other = (mesh_mass_properties(m, spec.density) for m in (right, left))
    assert one.mass == pytest.approx(other.mass, rel=1e-12)
    assert np.diag(one.inertia) == pytest.approx(np.diag(other.inertia), rel=1e-12)
