"""Transverse tooth outlines in polar coordinates: involute flanks, root fillets, tip lands.

An outline is one closed curve round the gear, sampled tooth by tooth with the
same points in every tooth (so the gear's z-fold symmetry is exact) and with
strictly increasing polar angle (so every point can be joined radially to a
circle, which is how the meshes are closed; see `gear_mesh`).
"""

from __future__ import annotations

import math

import numpy as np

FLANK_POINTS = 10
FILLET_POINTS = 5
TIP_POINTS = 4
ROOT_POINTS = 3
# Below the base circle the flank is continued almost radially; the slight
# taper keeps the polar angle strictly increasing along the outline.
UNDERCUT_TAPER = 0.02


def involute(angle):
    """inv(a) = tan(a) - a, elementwise."""
    return np.tan(angle) - angle


def external_half_angle(radius, teeth: float, pressure_angle_t: float, base_radius: float,
                        thickening: float = 0.0):
    """Half the angular thickness of an external gear's tooth at `radius` [rad].

    Involute above the base circle: psi(r) = pi / (2 z) + t / z + inv(alpha_t) - inv(acos(rb / r))
    (zero backlash), with t = 2 x tan(alpha_n) the thickening by a profile shift x (ISO 21771:
    s_n = m_n (pi / 2 + 2 x tan(alpha_n))); below the base circle, continued with a slight taper.
    """
    r = np.asarray(radius, dtype=float)
    psi_b = math.pi / (2 * teeth) + thickening / teeth + involute(pressure_angle_t)
    above = np.maximum(r, base_radius)
    psi = psi_b - involute(np.arccos(np.clip(base_radius / above, -1.0, 1.0)))
    below = r < base_radius
    return np.where(below, psi_b + UNDERCUT_TAPER * (base_radius - r) / base_radius, psi)


def _solve_radius(fn, lo: float, hi: float, target: float) -> float:
    """Radius in [lo, hi] where the monotone fn equals target (bisection)."""
    f_lo = fn(lo) - target
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if (fn(mid) - target) * f_lo > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def tooth_outline(
    teeth: int,
    root_radius: float,
    tip_radius: float,
    half_angle,
    fillet_radius: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Polar outline (r, theta) of a whole gear, tooth by tooth.

    Parameters
    ----------
    teeth : int
        Number of teeth z; the angular pitch is 2 pi / z.
    root_radius, tip_radius : float
        Where the tooth stands on the root circle and where its tip land is [m].
        An internal gear's teeth point inwards: ``tip_radius < root_radius``.
    half_angle : callable
        Half the angular thickness of the tooth at a radius [rad], decreasing
        from root to tip.
    fillet_radius : float
        Root fillet radius [m]; reduced when the tooth space is too narrow.

    Returns
    -------
    r, theta : ndarray, shape (z * n,)
        Radii [m] and strictly increasing polar angles [rad] starting in the
        middle of a tooth space at ``-pi / z``.
    """
    pitch = 2 * math.pi / teeth
    sign = 1.0 if tip_radius > root_radius else -1.0
    fn = lambda r: float(half_angle(r))  # noqa: E731
    # Keep a tip land and a tooth space at the root: move the tip and root
    # circles in where the involute would make a pointed tooth or no space.
    min_land = 0.08 * pitch / 2
    if fn(tip_radius) < min_land:
        tip_radius = _solve_radius(fn, root_radius, tip_radius, min_land)
    if fn(root_radius) > pitch / 2 - min_land:
        root_radius = _solve_radius(fn, root_radius, tip_radius, pitch / 2 - min_land)
    space = pitch / 2 - fn(root_radius)
    rho = min(fillet_radius, 0.9 * space * root_radius, 0.3 * abs(tip_radius - root_radius))

    flank_r = np.linspace(root_radius + sign * rho, tip_radius, FLANK_POINTS)
    flank_t = -np.asarray(half_angle(flank_r), dtype=float)
    t = np.linspace(0.0, math.pi / 2, FILLET_POINTS + 1)[:-1]
    fillet_r = root_radius + sign * rho * (1 - np.cos(t))
    fillet_t = flank_t[0] - (rho / root_radius) * (1 - np.sin(t))
    root_t = np.linspace(-pitch / 2, fillet_t[0], ROOT_POINTS + 1)[:-1]
    root_r = np.full_like(root_t, root_radius)
    tip_t = np.linspace(flank_t[-1], -flank_t[-1], TIP_POINTS + 2)[1:-1]
    tip_r = np.full_like(tip_t, tip_radius)

    lead_r = np.concatenate([root_r, fillet_r, flank_r])
    lead_t = np.concatenate([root_t, fillet_t, flank_t])
    # The trailing side is the mirror image of the leading side (without the
    # space-centre point, which belongs to the next tooth).
    r_one = np.concatenate([lead_r, tip_r, lead_r[::-1][:-1]])
    t_one = np.concatenate([lead_t, tip_t, -lead_t[::-1][:-1]])
    k = np.arange(teeth)[:, None]
    r_all = np.broadcast_to(r_one, (teeth, r_one.size)).ravel()
    t_all = (t_one[None, :] + k * pitch).ravel()
    return r_all, t_all
