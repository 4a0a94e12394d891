"""Stability of harmonic-balance solutions by Hill's method (and, for larger models, the monodromy matrix).

A perturbation e^(lambda t) p(t) with p periodic, written in the same real
Fourier basis, gives the quadratic eigenproblem
    (lambda^2 M_H + lambda (C_H + 2 M_H Nabla) + J) P = 0,
with J the HB Jacobian, M_H and C_H block-diagonal copies of M and C and
Nabla the time derivative on the coefficients. Of its eigenvalues, the 2 n
with the smallest imaginary parts approximate the Floquet exponents.

For one degree of freedom, m x'' + c x' + k(t) x = 0 with k(t) the contact
tangent on the solution, Hill's own form applies: with x = e^(-c t / 2m) y
and z = omega t / 2 it is Hill's equation y'' + theta(z) y = 0 of period pi,
and the trace of its monodromy matrix is 2 - 4 Delta(0) sin^2(pi sqrt(theta_0) / 2)
with Delta(0) the normalised infinite (here (2H + 1)-row) Hill determinant
(Whittaker and Watson, A Course of Modern Analysis, sections 19.41-19.42).
One small determinant replaces the 2(2H + 1) eigenproblem, and there is no
choice of which eigenvalues are the Floquet exponents to get wrong: on the
paper's curve the eigenvalue sorting picks the wrong pair at a few points,
where the determinant agrees with the time integration's monodromy matrix.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg

HILL_EIGEN_DOFS = 4  # above this many coordinates the monodromy matrix is cheaper than Hill's eigenproblem


def derivative_operator(harmonics: int, dofs: int, omega: float) -> np.ndarray:
    """Nabla: coefficients of x' from those of x (blocks of n per Fourier function)."""
    size = dofs * (2 * harmonics + 1)
    d = np.zeros((size, size))
    eye = np.eye(dofs)
    for h in range(1, harmonics + 1):
        i = dofs * (2 * h - 1)
        d[i:i + dofs, i + dofs:i + 2 * dofs] = h * omega * eye  # cos coefficient of x' = h w s
        d[i + dofs:i + 2 * dofs, i:i + dofs] = -h * omega * eye  # sin coefficient of x' = -h w c
    return d


def _hill_parts(hb):
    """M_H^-1, C_H and the derivative operator at omega = 1, kept on the HB object (they depend on H and n only)."""
    parts = getattr(hb, "_hill_parts", None)
    if parts is None:
        n, h = hb.model.dofs, hb.harmonics
        eye = np.eye(2 * h + 1)
        m_h = np.kron(eye, hb.model.mass)
        parts = (np.linalg.inv(m_h), np.kron(eye, hb.model.damping), 2 * m_h @ derivative_operator(h, n, 1.0))
        hb._hill_parts = parts
    return parts


def floquet_exponents(hb, z: np.ndarray, omega: float, jacobian: np.ndarray | None = None) -> np.ndarray:
    """The 2 n eigenvalues of Hill's quadratic eigenproblem closest to the real axis [1/s].

    `jacobian` is the scaled HB Jacobian at (z, omega) when the caller has it already.
    """
    m_inv, c_h, two_m_nabla = _hill_parts(hb)
    if jacobian is None:
        _, jacobian, _ = hb.residual(z, omega)
    j_phys = jacobian * (hb.f_scale / hb.x_scale)
    size = hb.size
    companion = np.block([[np.zeros((size, size)), np.eye(size)],
                          [-m_inv @ j_phys, -m_inv @ (c_h + omega * two_m_nabla)]])
    lam = np.linalg.eigvals(companion)
    return lam[np.argsort(np.abs(lam.imag))[: 2 * hb.model.dofs]]


def hill_determinant_multipliers(hb, z: np.ndarray, omega: float) -> np.ndarray:
    """The two Floquet multipliers of a one-DOF solution from Hill's determinant, truncated at H."""
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


def monodromy_multipliers(hb, z: np.ndarray, omega: float, intervals: int = 64) -> np.ndarray:
    """The 2 n Floquet multipliers as the eigenvalues of the monodromy matrix of the linearised equations.

    The period is cut into `intervals` equal parts (of whole sample intervals); over each the contact
    tangent is held at its mean over the part's samples, so the state transition is the product of
    matrix exponentials (exact for that piecewise-constant stiffness, whatever the ratio of the natural
    frequencies to the mesh frequency).
    """
    n = hb.model.dofs
    m_inv = np.linalg.inv(hb.model.mass)
    x = hb.coordinate_samples(z)
    _, tangent = hb.model.restoring(x, hb.gaps, hb.stiff)
    parts = math.gcd(hb.samples, intervals)
    tangent = tangent.reshape(parts, hb.samples // parts, n, n).mean(axis=1)
    h = 2 * math.pi / omega / parts
    a = np.zeros((2 * n, 2 * n))
    a[:n, n:] = np.eye(n)
    a[n:, n:] = -m_inv @ hb.model.damping
    phi = np.eye(2 * n)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(parts):
            a[n:, :n] = -m_inv @ (hb.model.stiffness + tangent[k])
            phi = scipy.linalg.expm(a * h) @ phi
    if not np.all(np.isfinite(phi)):  # grew past the floating-point range over the period: unstable
        return np.full(2 * n, np.inf)
    return np.linalg.eigvals(phi)


def floquet_multipliers(hb, z: np.ndarray, omega: float, jacobian: np.ndarray | None = None) -> np.ndarray:
    """The 2 n Floquet multipliers of the periodic solution z at omega [rad/s]: by Hill's method (its
    determinant for one coordinate, its eigenproblem up to HILL_EIGEN_DOFS), else by the monodromy matrix."""
    if hb.model.dofs == 1:
        return hill_determinant_multipliers(hb, z, omega)
    if hb.model.dofs > HILL_EIGEN_DOFS:
        return monodromy_multipliers(hb, z, omega)
    return np.exp(floquet_exponents(hb, z, omega, jacobian) * (2 * math.pi / omega))


def hill_stable(hb, z: np.ndarray, omega: float, tol: float = 1e-6, jacobian: np.ndarray | None = None) -> bool:
    """Whether the periodic solution z at omega [rad/s] is asymptotically stable (all |multipliers| < 1)."""
    return bool(np.all(np.abs(floquet_multipliers(hb, z, omega, jacobian)) < 1.0 + tol))
