"""Triangle meshes of generated gears (helical/spur, inner ring, straight bevel).

Every gear is built the same way: a closed cross-section loop (bore or rim,
tooth outline, layer by layer along the face width) swept once round the axis
through the angles of the tooth outline. Sweeping one closed loop round
another closed loop gives a torus-like quad grid, which is watertight by
construction; the quads are split into triangles with outward normals. The
tooth outline repeats exactly from tooth to tooth, so the mesh keeps the
gear's z-fold symmetry (Ixx = Iyy to rounding for z >= 3).

Body frame: z is the gear axis. Cylindrical gears are centred on the origin
(faces at z = -b/2 and +b/2); a bevel gear has its origin at the centre of the
outer pitch circle, with the pitch apex at ``z = apex_distance``.
"""

from __future__ import annotations

import math

import numpy as np

from core.geometry.macro import (
    FILLET,
    GearSpec,
    bevel_geometry,
    cylindrical_geometry,
)
from core.geometry.tooth_profile import external_half_angle, tooth_outline


def loop_sweep_mesh(points: np.ndarray, shorter: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Mesh of a grid closed in both directions.

    Parameters
    ----------
    points : ndarray, shape (S, N, 3)
        ``points[s, n]``: point ``s`` of the closed cross-section loop at the
        ``n``-th angle round the axis [m].
    shorter : bool
        Split each quad along its shorter diagonal (default: always from
        ``points[s, n]`` to ``points[s + 1, n + 1]``).

    Returns
    -------
    vertices : ndarray (S N, 3), faces : ndarray (2 S N, 3)
        A watertight mesh with outward normals (orientation fixed by the sign
        of the enclosed volume).
    """
    s_count, n_count, _ = points.shape
    idx = np.arange(s_count * n_count).reshape(s_count, n_count)
    a = idx
    b = np.roll(idx, -1, axis=1)
    c = np.roll(b, -1, axis=0)
    d = np.roll(idx, -1, axis=0)
    vertices = points.reshape(-1, 3)
    across = np.ones(a.shape, bool)
    if shorter:
        across = np.sum((vertices[a] - vertices[c]) ** 2, axis=-1) <= np.sum((vertices[b] - vertices[d]) ** 2, axis=-1)
    faces = np.concatenate([np.stack([a, b, c], -1)[across], np.stack([a, c, d], -1)[across],
                            np.stack([a, b, d], -1)[~across], np.stack([b, c, d], -1)[~across]])
    tri = vertices[faces]
    signed = np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum()
    if signed < 0:
        faces = faces[:, ::-1]
    return vertices, faces


def _ring(radius, theta, z, twist=0.0) -> np.ndarray:
    """Points (N, 3) at polar (radius, theta + twist) and height z."""
    angle = theta + twist
    radius = np.broadcast_to(radius, angle.shape)
    return np.stack([radius * np.cos(angle), radius * np.sin(angle), np.full(angle.shape, z)], -1)


def _layered_loop(inner: list[np.ndarray], outer: list[np.ndarray]) -> np.ndarray:
    """Cross-section loop: inner ring bottom, outer rings bottom..top, inner rings top..bottom."""
    return np.stack([inner[0], *outer, *inner[:0:-1]])


def _twist_layers(face_width: float, helix_angle: float, pitch_radius: float, teeth: int):
    """Axial positions [m] and twist angles [rad] of the sections of a helical gear."""
    twist = face_width * math.tan(helix_angle) / pitch_radius
    pitch = 2 * math.pi / teeth
    layers = 1 if helix_angle == 0 else max(2, math.ceil(abs(twist) / (pitch / 8)))
    z = np.linspace(-face_width / 2, face_width / 2, layers + 1)
    return z, z * math.tan(helix_angle) / pitch_radius


def transverse_outline(spec: GearSpec) -> tuple[np.ndarray, np.ndarray, float]:
    """The transverse section of a helical/spur or internal gear: its tooth outline in polar coordinates (r [m],
    theta [rad], tooth by tooth; see core.geometry.tooth_profile) and the radius of its plain side [m] (the bore
    of an external gear, the rim of an internal one)."""
    g = cylindrical_geometry(spec)
    z_count, alpha_t, r_b = g.teeth, g.transverse_pressure_angle, g.base_radius
    if g.internal:
        def half(r):
            return math.pi / z_count - external_half_angle(r, z_count, alpha_t, r_b)
        tip = max(g.tip_radius, r_b * 1.001)
    else:
        thick = 2.0 * g.profile_shift * math.tan(g.normal_pressure_angle)

        def half(r):
            return external_half_angle(r, z_count, alpha_t, r_b, thick)
        tip = g.tip_radius
    r_tooth, theta = tooth_outline(z_count, g.root_radius, tip, half, FILLET * g.normal_module)
    return r_tooth, theta, spec.rim_diameter / 2 if g.internal else spec.bore_diameter / 2


def cylindrical_gear_mesh(spec: GearSpec) -> tuple[np.ndarray, np.ndarray]:
    """Mesh of an external helical/spur gear with a bore, or an internal gear with a rim."""
    g = cylindrical_geometry(spec)
    r_tooth, theta, other = transverse_outline(spec)
    z_count = g.teeth
    heights, twists = _twist_layers(spec.face_width, g.helix_angle, g.pitch_radius, z_count)
    teeth_rings = [_ring(r_tooth, theta, z, t) for z, t in zip(heights, twists)]
    plain_rings = [_ring(other, theta, z, t) for z, t in zip(heights, twists)]
    # the twist shears each quad between two layers out of its plane: split always the same way, one hand's
    # flanks were cut into by the diagonal and the other's much less; along the shorter diagonal either hand is
    # the other's mirror image (the caps are plane: either diagonal keeps their volume)
    loop = _layered_loop(teeth_rings, plain_rings) if g.internal else _layered_loop(plain_rings, teeth_rings)
    return loop_sweep_mesh(loop, shorter=True)


def bevel_section(spec: GearSpec) -> np.ndarray:
    """The axial half-section of a straight bevel gear as its mesh is made, (6, 2) points (r, z) [m] in body axes
    (z towards the apex): the bore at the back face; the root and the tip at the heel, on the back cone; the tip
    and the root at the toe, the heel's scaled towards the apex by (R - b) / R; the bore at the front face."""
    g = bevel_geometry(spec)
    gamma, cg = g.pitch_angle, math.cos(g.pitch_angle)
    heel = np.array([[r, (r - g.pitch_radius) * math.tan(gamma)]
                     for r in ((g.back_cone_radius - g.dedendum) * cg, (g.back_cone_radius + g.addendum) * cg)])
    apex = np.array([0.0, g.apex_distance])
    toe = apex + g.inner_scale * (heel - apex)
    z_back = -g.dedendum * math.sin(gamma)
    z_front = g.apex_distance + g.inner_scale * (z_back - g.apex_distance)
    bore = spec.bore_diameter / 2
    return np.array([[bore, z_back], heel[0], heel[1], toe[1], toe[0], [bore, z_front]])


def bevel_gear_mesh(spec: GearSpec) -> tuple[np.ndarray, np.ndarray]:
    """Mesh of a straight bevel gear whose teeth taper to the pitch apex.

    The outer tooth outline is the involute of the virtual spur gear on the
    back cone (Tredgold), wrapped onto the back cone so that arc lengths are
    kept; every tooth point is joined to the apex by a straight line, and the
    inner end is the outer one scaled towards the apex by (R - b) / R: the
    section `bevel_section` swept round the axis.
    """
    g = bevel_geometry(spec)
    gamma, cg = g.pitch_angle, math.cos(g.pitch_angle)
    z_v = g.virtual_teeth

    def half(r3):
        return external_half_angle(np.asarray(r3) / cg, z_v, g.pressure_angle, g.base_radius_virtual) / cg

    (bore, z_back), (root3, _), (tip3, _), _, _, (_, z_front) = bevel_section(spec)
    r3, theta = tooth_outline(g.teeth, root3, tip3, half, FILLET * g.module * cg)
    outer = _ring(r3, theta, 0.0)
    outer[:, 2] = (r3 - g.pitch_radius) * math.tan(gamma)
    apex = np.array([0.0, 0.0, g.apex_distance])
    inner = apex + g.inner_scale * (outer - apex)
    loop = np.stack([_ring(bore, theta, z_back), outer, inner, _ring(bore, theta, z_front)])
    return loop_sweep_mesh(loop)


def gear_mesh_arrays(spec: GearSpec) -> tuple[np.ndarray, np.ndarray]:
    """Vertices [m] and triangles of the gear `spec` describes; raises ValueError on bad parameters."""
    problems = spec.problems()
    if problems:
        raise ValueError("; ".join(f"{name}: {msg}" for name, msg in problems))
    if spec.kind == "bevel":
        return bevel_gear_mesh(spec)
    return cylindrical_gear_mesh(spec)


def gear_mesh(spec: GearSpec):
    """The gear's mesh as a trimesh.Trimesh (imported here: drawing needs only the arrays)."""
    import trimesh

    vertices, faces = gear_mesh_arrays(spec)
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)
