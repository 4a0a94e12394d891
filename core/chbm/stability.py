"""Stability of harmonic-balance solutions: Floquet multipliers by Hill's determinant or the monodromy matrix.

For one degree of freedom, m x'' + c x' + k(t) x = 0 with k(t) the contact
tangent on the solution, Hill's own form applies: with x = e^(-c t / 2m) y
and z = omega t / 2 it is Hill's equation y'' + theta(z) y = 0 of period pi,
and the trace of its monodromy matrix is 2 - 4 Delta(0) sin^2(pi sqrt(theta_0) / 2)
with Delta(0) the normalised infinite (here (2H + 1)-row) Hill determinant
(Whittaker and Watson, A Course of Modern Analysis, sections 19.41-19.42).

For more coordinates the monodromy matrix of the linearised equations over one period gives them. Hill's
quadratic eigenproblem in the Fourier basis would too, but only after choosing which 2 n of its 2 n (2H + 1)
eigenvalues are the Floquet exponents (those closest to the real axis), and that choice goes wrong: on the
lumped planetary it gave 0.389 for a largest multiplier of 0.544 (the Newmark period map's, to 1e-6), and it
costs a dense eigenproblem that grows as H^3.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg


def hill_determinant_multipliers(hb, z: np.ndarray, omega: float) -> np.ndarray:
    """The two Floquet multipliers of a one-DOF solution from Hill's determinant, truncated at H."""
    omega = omega / hb.model.cycles  # the model's period's
    m, c = float(hb.model.mass[0, 0]), float(hb.model.damping[0, 0])
    x = hb.coordinate_samples(z)
    _, tangent = hb.model.restoring(x, hb.gaps, hb.stiff)
    k = tangent[:, 0, 0] + hb.model.stiffness[0, 0]
    theta = (4.0 / omega**2) * (k / m - c * c / (4 * m * m))
    spec = np.fft.fft(theta) / theta.size  # spec[j]: coefficient of e^(2 i j z)
    h = hb.harmonics
    n = np.arange(-h, h + 1)
    theta0 = spec[0].real
    rows = spec[(n[:, None] - n[None, :]) % theta.size] / (theta0 - 4.0 * n * n)[:, None]
    np.fill_diagonal(rows, 1.0)
    delta0 = np.linalg.det(rows).real
    trace = 2.0 - 4.0 * delta0 * (np.sin(0.5 * math.pi * np.sqrt(complex(theta0))) ** 2).real
    # det = 1 (Hill's equation has no damping term): mu^2 - trace mu + 1 = 0
    root = np.sqrt(complex(0.25 * trace * trace - 1.0))
    multipliers_y = np.array([0.5 * trace + root, 0.5 * trace - root])
    return multipliers_y * math.exp(-c * math.pi / (m * omega))  # x = e^(-c t / 2m) y over T = 2 pi / omega


def monodromy_multipliers(hb, z: np.ndarray, omega: float) -> np.ndarray:
    """The 2 n Floquet multipliers as the eigenvalues of the monodromy matrix of the linearised equations.

    The contact tangent is held over each sample interval of the period at its value at the interval's
    start, as the AFT samples it, so the state transition is the product of one matrix exponential per
    interval: exact for that piecewise-constant stiffness, whatever the ratio of the natural frequencies to
    the mesh frequency. Consecutive intervals with the same tangent share one exponential over their joined
    length (a stepped mesh stiffness changes some 20 times in a period of hundreds of samples); the
    exponentials are taken as one stack and multiplied pairwise.
    """
    n = hb.model.dofs
    m_inv = np.linalg.inv(hb.model.mass)
    _, closed = hb.model.contact_forces(hb.coordinate_samples(z), hb.gaps, hb.stiff)
    weights = closed * hb.stiff
    starts = np.flatnonzero(np.r_[True, np.any(weights[:, 1:] != weights[:, :-1], axis=0)])
    lengths = np.diff(np.r_[starts, hb.samples]) * (hb.model.period(omega / (2 * math.pi)) / hb.samples)  # [s]
    tangent = hb.model.contact_tangent(weights[:, starts])
    a = np.zeros((len(starts), 2 * n, 2 * n))
    a[:, :n, n:] = np.eye(n)
    a[:, n:, n:] = -m_inv @ hb.model.damping
    a[:, n:, :n] = -m_inv @ (hb.model.stiffness + tangent)
    with np.errstate(over="ignore", invalid="ignore"):
        steps = scipy.linalg.expm(a * lengths[:, None, None])
        while len(steps) > 1:  # the later interval of each pair on the left
            if len(steps) % 2:
                steps = np.concatenate([steps, np.eye(2 * n)[None]])
            steps = steps[1::2] @ steps[0::2]
    phi = steps[0]
    if not np.all(np.isfinite(phi)):  # grew past the floating-point range over the period: unstable
        return np.full(2 * n, np.inf)
    return np.linalg.eigvals(phi)


def floquet_multipliers(hb, z: np.ndarray, omega: float) -> np.ndarray:
    """The 2 n Floquet multipliers of the periodic solution z at omega [rad/s]: by Hill's determinant for one
    coordinate, else by the monodromy matrix."""
    if hb.model.dofs == 1:
        return hill_determinant_multipliers(hb, z, omega)
    return monodromy_multipliers(hb, z, omega)


def floquet_stable(hb, z: np.ndarray, omega: float, tol: float = 1e-6) -> bool:
    """Whether the periodic solution z at omega [rad/s] is asymptotically stable (all |multipliers| < 1)."""
    return bool(np.all(np.abs(floquet_multipliers(hb, z, omega)) < 1.0 + tol))
