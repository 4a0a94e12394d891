"""Stability of harmonic-balance solutions by Hill's method.

A perturbation e^(lambda t) p(t) with p periodic, written in the same real
Fourier basis, gives the quadratic eigenproblem
    (lambda^2 M_H + lambda (C_H + 2 M_H Nabla) + J) P = 0,
with J the HB Jacobian, M_H and C_H block-diagonal copies of M and C and
Nabla the time derivative on the coefficients. Of its eigenvalues, the 2 n
with the smallest imaginary parts approximate the Floquet exponents; the
solution is unstable when one of them has a positive real part.
"""

from __future__ import annotations

import numpy as np


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
    """The 2 n Hill eigenvalues closest to the real axis [1/s].

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


def hill_stable(hb, z: np.ndarray, omega: float, tol: float = 1e-6, jacobian: np.ndarray | None = None) -> bool:
    """Whether the periodic solution z at omega [rad/s] is asymptotically stable."""
    return bool(np.all(floquet_exponents(hb, z, omega, jacobian).real < tol * omega))
