"""The Newton systems of harmonic balance, solved through their structure.

The scaled HB Jacobian is J = a (D(omega) + sum_e G_e (x) w_e w_e^T), a = x_scale / f_scale: the linear part D
couples only the cos and sin blocks of one harmonic; the contact part couples every harmonic, but only along
the elements' directions, which span r <= n coordinates (U, n x r, orthonormal). A reference stiffness of the
elements, K_ref = sum_e mean(k_e) a_e a_e^T with a_e = U^T w_e (every element closed at its mean stiffness),
moves from the contact part into the linear one:

    J = B + V G V^T,   B = a (D + I (x) U K_ref U^T),   G = a (sum_e G_e (x) a_e a_e^T - I (x) K_ref),

with V = I (x) U. B has one block per harmonic (n square for the mean, 2n for each harmonic), invertible when
the train at its mean mesh stiffness has no free motion (the lumped model has its rigid motions taken out).
Woodbury's identity then solves J x = b with those blocks and one dense factorisation of size (2H + 1) r, and
the continuation's bordered system [[J, c], [t^T, tau]] with one of size (2H + 1) r + 1, instead of
(2H + 1) n (+ 1). The solution is the dense one's; only the work differs, most where bearings give the
centres coordinates of their own (the compliant planetary: r = 11 of n = 22).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg


class NewtonSystem:
    """dR/dz of the scaled HB residual at one state and frequency, kept in its parts (module docstring).

    Parameters
    ----------
    hb : HarmonicBalance
    omega : float
        Mesh angular frequency [rad/s].
    weights : ndarray, shape (E, N)
        Each contact element's stiffness where it is closed at the samples [N/m], 0 where open.
    """

    def __init__(self, hb, omega: float, weights: np.ndarray):
        self.hb, self.omega, self.weights = hb, omega, weights
        self.scale = hb.x_scale / hb.f_scale
        u, directions, k_ref = hb.contact_basis
        self.u, self.r = u, u.shape[1]
        mean, blocks = hb.harmonic_blocks(omega, hb.model.stiffness + u @ k_ref @ u.T)
        self.inv_mean = np.linalg.inv(self.scale * mean)
        self.inv_blocks = np.linalg.inv(self.scale * blocks)  # (H, 2n, 2n)
        nb, r = 2 * hb.harmonics + 1, self.r
        self.g = hb.contact_jacobian(weights, directions)
        diagonal = np.arange(nb)
        self.g.reshape(nb, r, nb, r)[diagonal, :, diagonal, :] -= k_ref  # minus I (x) K_ref
        self.g *= self.scale
        # G S with S = V^T B^-1 V block-diagonal: r square for the mean, 2r square for each harmonic
        pair = scipy.linalg.block_diag(u, u)
        s_mean = u.T @ self.inv_mean @ u
        s_blocks = pair.T @ self.inv_blocks @ pair
        k = self.g.shape[0]
        gs = np.empty_like(self.g)
        np.matmul(self.g[:, :r], s_mean, out=gs[:, :r])
        by_harmonic = self.g[:, r:].reshape(k, hb.harmonics, 2 * r).transpose(1, 0, 2)
        np.matmul(by_harmonic, s_blocks, out=gs[:, r:].reshape(k, hb.harmonics, 2 * r).transpose(1, 0, 2))
        gs[np.arange(k), np.arange(k)] += 1.0
        self.capacitance = gs  # I + G S

    # ---------------------------------------------------------------- the parts

    def _b_solve(self, x: np.ndarray, transpose: bool = False) -> np.ndarray:
        """B^-1 x (or B^-T x) for x of shape (size,), block by block."""
        n, h = self.hb.model.dofs, self.hb.harmonics
        x = x.reshape(2 * h + 1, n)
        inv_mean = self.inv_mean.T if transpose else self.inv_mean
        inv_blocks = self.inv_blocks.transpose(0, 2, 1) if transpose else self.inv_blocks
        out = np.empty_like(x)
        out[0] = inv_mean @ x[0]
        out[1:] = (inv_blocks @ x[1:].reshape(h, 2 * n, 1)).reshape(2 * h, n)
        return out.ravel()

    def _vt(self, x: np.ndarray) -> np.ndarray:
        """V^T x: each Fourier function's block on the elements' directions, (size,) -> ((2H + 1) r,)."""
        return (x.reshape(-1, self.hb.model.dofs) @ self.u).ravel()

    def _v(self, y: np.ndarray) -> np.ndarray:
        """V y: back from the directions' coordinates to the model's, ((2H + 1) r,) -> (size,)."""
        return (y.reshape(-1, self.r) @ self.u.T).ravel()

    # ---------------------------------------------------------------- solving

    def solve(self, rhs: np.ndarray, column: np.ndarray | None = None, row: np.ndarray | None = None,
              corner: float = 0.0, rhs_last: float = 0.0):
        """x with J x = rhs; or, given a column c, a row t and the corner tau, (x, s) with
        [[J, c], [t^T, tau]] [x; s] = [rhs; rhs_last] (the continuation's bordered system)."""
        if column is None:
            bz = self._b_solve(rhs)
            y = np.linalg.solve(self.capacitance, self.g @ self._vt(bz))
            return bz - self._b_solve(self._v(y))
        return self.bordered(column, row, corner)(rhs, rhs_last)

    def bordered(self, column: np.ndarray, row: np.ndarray, corner: float):
        """The solver of [[J, c], [t^T, tau]] [x; s] = [rhs; rhs_last], factorised once: a function
        (rhs, rhs_last) -> (x, s), for a corrector that solves with one Jacobian more than once."""
        bc = self._b_solve(column)
        k = self.capacitance.shape[0]
        system = np.empty((k + 1, k + 1))
        system[:k, :k] = self.capacitance
        system[:k, k] = self.g @ self._vt(bc)
        system[k, :k] = -self._vt(self._b_solve(row, transpose=True))
        system[k, k] = corner - row @ bc
        factors = scipy.linalg.lu_factor(system, check_finite=False)

        def solve(rhs: np.ndarray, rhs_last: float):
            bz = self._b_solve(rhs)
            ys = scipy.linalg.lu_solve(factors, np.append(self.g @ self._vt(bz), rhs_last - row @ bz),
                                       check_finite=False)
            return bz - self._b_solve(self._v(ys[:k])) - bc * ys[k], ys[k]

        return solve

    def dense(self) -> np.ndarray:
        """J as one matrix (size, size): for checks against finite differences."""
        hb = self.hb
        mean, blocks = hb.harmonic_blocks(self.omega, hb.model.stiffness)
        linear = scipy.linalg.block_diag(mean, *blocks)
        w, _ = hb.model.contact_arrays
        return self.scale * (linear + hb.contact_jacobian(self.weights, w))
