"""Gear mesh stiffness from the geometry: ISO 6336-1:2019 method B, and its waveform over a mesh period.

Units: stiffness per unit face width in N/m per m (SI); 1 N/(mm um) = 1e9 N/m^2.

Method B (ISO 6336-1:2019, 9.3), for solid steel gears:

- flexibility of one tooth pair q' = C1 + C2/zn1 + C3/zn2 + C4 x1 + C5 x1/zn1 + C6 x2 + C7 x2/zn2
  + C8 x1^2 + C9 x2^2 [mm um/N], zn = z / (cos^2(beta_b) cos(beta)) the virtual numbers of teeth
  (an internal gear: 1/zn2 = 0), C1..C9 from the standard's Table 10;
- theoretical single stiffness c'_th = 1 / q';
- single stiffness c' = c'_th C_M C_R C_B cos(beta), with C_M = 0.8 (measured against theory),
  C_R = 1 for solid blanks and the basic rack factor
  C_B = [1 + 0.5 (1.2 - h_fP / m_n)] [1 - 0.02 (20 deg - alpha_n)];
- mean mesh stiffness in the transverse plane c_gamma_alpha = c' (0.75 eps_alpha + 0.25).

The stiffness acts along the transverse line of action. Its variation over a
mesh period follows from the involute geometry: along a contact line at face
position y the number of tooth pairs in contact is ceil(eps_alpha - frac(u))
at mesh position u (in base pitches), and a helical gear shifts u by
eps_beta y / b across the face; the waveform is that count averaged over the
face, scaled to mean 1 (a spur pair with eps_alpha = 1.6 alternates 2/1.6 and
1/1.6; a helical pair with an integer overlap ratio is flat). It is sampled
WAVEFORM_SAMPLES times a period and read between samples by a monotone cubic
(`node_slopes`), whose slope has no jump.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.geometry.macro import DEDENDUM

N_PER_MM_UM = 1e9  # 1 N/(mm um) in N/m per m of face width
ISO_Q_COEFFICIENTS = (0.04723, 0.15551, 0.25791, -0.00635, -0.11654, -0.00193, -0.24188, 0.00529, 0.00182)
C_M_SOLID = 0.8
WAVEFORM_SAMPLES = 1024


@dataclass(frozen=True)
class IsoMeshStiffness:
    """Single and mesh stiffness per unit face width [N/m per m] (ISO 6336-1 method B)."""

    c_th: float  # theoretical single stiffness c'_th
    c_single: float  # single stiffness c'
    c_gamma_alpha: float  # mean mesh stiffness c_gamma_alpha
    factors: dict  # C_M, C_R, C_B, cos(beta), zn1, zn2, eps_alpha

    def in_n_per_mm_um(self) -> dict[str, float]:
        return {"c_th": self.c_th / N_PER_MM_UM, "c_prime": self.c_single / N_PER_MM_UM,
                "c_gamma_alpha": self.c_gamma_alpha / N_PER_MM_UM}


def iso6336_stiffness(z1: int, z2: int, normal_pressure_angle: float, helix_angle: float,
                      transverse_contact_ratio: float, x1: float = 0.0, x2: float = 0.0, internal: bool = False,
                      dedendum: float = DEDENDUM, blank_factor: float = 1.0) -> IsoMeshStiffness:
    """c'_th, c' and c_gamma_alpha of a cylindrical pair by ISO 6336-1:2019 method B.

    Parameters
    ----------
    normal_pressure_angle, helix_angle : float
        alpha_n and beta [rad].
    transverse_contact_ratio : float
        eps_alpha of the pair.
    dedendum : float
        Basic rack dedendum h_fP / m_n (1.25 for the ISO 53 rack our gears are cut by).
    blank_factor : float
        C_R: 1 for solid blanks (ISO 6336-1 gives it for rimmed gears from b_s / b).
    """
    beta = abs(helix_angle)
    alpha_t = math.atan(math.tan(normal_pressure_angle) / math.cos(beta))
    beta_b = math.atan(math.tan(beta) * math.cos(alpha_t))
    virtual = math.cos(beta_b) ** 2 * math.cos(beta)
    zn1 = z1 / virtual
    inv_zn2 = 0.0 if internal else virtual / z2
    c1, c2, c3, c4, c5, c6, c7, c8, c9 = ISO_Q_COEFFICIENTS
    q = (c1 + c2 / zn1 + c3 * inv_zn2 + c4 * x1 + c5 * x1 / zn1 + c6 * x2 + c7 * x2 * inv_zn2
         + c8 * x1 * x1 + c9 * x2 * x2)  # mm um / N
    c_th = 1.0 / q
    c_b = (1.0 + 0.5 * (1.2 - dedendum)) * (1.0 - 0.02 * (20.0 - math.degrees(normal_pressure_angle)))
    c_single = c_th * C_M_SOLID * blank_factor * c_b * math.cos(beta)
    c_gamma = c_single * (0.75 * transverse_contact_ratio + 0.25)
    factors = {"C_M": C_M_SOLID, "C_R": blank_factor, "C_B": c_b, "cos_beta": math.cos(beta), "zn1": zn1,
               "zn2": math.inf if internal else 1.0 / inv_zn2, "eps_alpha": transverse_contact_ratio}
    return IsoMeshStiffness(c_th * N_PER_MM_UM, c_single * N_PER_MM_UM, c_gamma * N_PER_MM_UM, factors)


def involute_waveform(eps_alpha: float, eps_beta: float = 0.0, samples: int = WAVEFORM_SAMPLES) -> np.ndarray:
    """Relative mesh stiffness over one mesh period (samples at fractions k / samples), mean 1.

    Pairs in contact at mesh position u: ceil(eps_alpha - frac(u)) = n + [frac(u) < r] (n and r the whole and
    the fractional part of eps_alpha); averaged over the face width, where the helix shifts u by up to
    eps_beta, exactly: n + (G(s + eps_beta) - G(s)) / eps_beta with G(x) = floor(x) r + min(frac(x), r), the
    integral of [frac(u) < r]. Piecewise linear with a few kinks a period, so an adaptive integrator's steps
    are not cut at every sample, as a sum over points across the face (a staircase) made them; between the
    samples a run reads the monotone cubic of `node_slopes`, which rounds those kinks and a spur pair's steps.
    """
    s = np.arange(samples) / samples
    n = math.floor(eps_alpha)
    r = eps_alpha - n
    if eps_beta <= 0.0:
        count = n + (s < r)
    else:
        def covered(x):
            return np.floor(x) * r + np.minimum(x - np.floor(x), r)

        count = n + (covered(s + eps_beta) - covered(s)) / eps_beta
    return count / count.mean()


def node_slopes(profile: np.ndarray) -> np.ndarray:
    """The slope [per sample] of the periodic samples' monotone cubic interpolant at each sample: the harmonic mean
    of the two secants beside it, 0 where they differ in sign or one is flat (Fritsch and Butland's rule, as
    scipy's PchipInterpolator takes it at equal spacing). The interpolant then keeps within each pair of samples,
    and its slope is continuous: a step in the samples (the count of tooth pairs) becomes a smooth ramp with flat
    ends, not a linear one whose slope (and with it the mesh's potential torque) jumps at both."""
    before, after = profile - np.roll(profile, 1), np.roll(profile, -1) - profile
    same = before * after > 0.0
    return np.where(same, 2.0 * before * after / np.where(same, before + after, 1.0), 0.0)


def waveform_table(profile: np.ndarray) -> np.ndarray:
    """The samples and their `node_slopes` as the columns of one table (n, 2): what the interpolant reads."""
    return np.column_stack([profile, node_slopes(profile)])


def hermite(a, b, slope_a, slope_b, t):
    """The cubic from a to b with the given end slopes [per unit t] at t in [0, 1], and its slope (floats or arrays)."""
    c2, c3 = 3.0 * (b - a) - 2.0 * slope_a - slope_b, 2.0 * (a - b) + slope_a + slope_b  # of t^2 and t^3
    return a + t * (slope_a + t * (c2 + t * c3)), slope_a + t * (2.0 * c2 + 3.0 * t * c3)


def periodic_interp(table: np.ndarray, fraction) -> tuple[np.ndarray, np.ndarray]:
    """Value and slope (per unit fraction) of the periodic monotone cubic interpolant of a `waveform_table` at
    `fraction`."""
    n = len(table)
    if isinstance(fraction, float):  # one phase per evaluation of a run: plain floats, no 0-d arrays
        return periodic_value(table, fraction)
    f = (np.asarray(fraction, float) % 1.0) * n
    i = np.floor(f).astype(int) % n
    value, slope = hermite(table[i, 0], table[(i + 1) % n, 0], table[i, 1], table[(i + 1) % n, 1], f - np.floor(f))
    return value, slope * n


def fractional(x: float) -> float:
    """x % 1.0, the same number, without a call of the library's fmod (a compliant mesh's kernel takes it at
    every evaluation); NaN where x is not finite (a diverged run, which its NaN check then names: floor raises
    OverflowError on infinity in Python and is undefined compiled)."""
    if not math.isfinite(x):
        return math.nan
    return x - math.floor(x)


def periodic_value(table: np.ndarray, fraction: float) -> tuple[float, float]:
    """periodic_interp at one fraction, on plain numbers (the compliant mesh's kernel code runs it too)."""
    n = table.shape[0]
    f = fractional(fraction) * n
    i = int(f) % n
    j = (i + 1) % n
    value, slope = hermite(float(table[i, 0]), float(table[j, 0]), float(table[i, 1]), float(table[j, 1]), f - int(f))
    return value, slope * n
