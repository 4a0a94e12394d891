"""The state of a multibody system and how it moves along a tangent (a Lie-group update).

State y: COM positions (3 n), unit quaternions (4 n), COM velocities (3 n),
angular velocities in world axes (3 n), then extra scalar states (joint
angles, gear phase errors, energy integrals). A tangent (rate or increment)
has 3 n + 3 n + 3 n + 3 n + extra entries: the orientation part is a rotation
vector in world axes. Orientations are advanced with the exponential map,
q <- exp(theta) q, so they stay unit by construction and a spin about a fixed
axis is integrated exactly.
"""

from __future__ import annotations

import numpy as np

from core.geometry.rotations import quat_conj, quat_exp, quat_log, quat_matrices, quat_mul
from core.geometry.vec3 import cross_rows

rotation_matrices = quat_matrices  # the name the engine reads best with


def dexp_inv(theta: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """dexp^-1_theta(omega) to fourth order: omega - theta x omega / 2 + theta x (theta x omega) / 12."""
    c = cross_rows(theta, omega)
    return omega - 0.5 * c + cross_rows(theta, c) / 12.0


class StateSpace:
    """Layout of y and of its tangents for `bodies` rigid bodies and `extra` scalars."""

    def __init__(self, bodies: int, extra: int):
        self.n, self.extra = bodies, extra
        n = bodies
        self.size = 13 * n + extra
        self.tangent_size = 12 * n + extra
        self.x = slice(0, 3 * n)
        self.q = slice(3 * n, 7 * n)
        self.v = slice(7 * n, 10 * n)
        self.w = slice(10 * n, 13 * n)
        self.e = slice(13 * n, 13 * n + extra)
        # tangent layout
        self.dx = slice(0, 3 * n)
        self.dth = slice(3 * n, 6 * n)
        self.dv = slice(6 * n, 9 * n)
        self.dw = slice(9 * n, 12 * n)
        self.de = slice(12 * n, 12 * n + extra)

    def retract(self, y: np.ndarray, d: np.ndarray) -> np.ndarray:
        """y moved along tangent increment d."""
        out = np.empty_like(y)
        out[self.x] = y[self.x] + d[self.dx]
        q = y[self.q].reshape(-1, 4)
        if self.n:
            qn = quat_mul(quat_exp(d[self.dth].reshape(-1, 3)), q)
            out[self.q] = (qn / np.linalg.norm(qn, axis=1, keepdims=True)).ravel()
        out[self.v] = y[self.v] + d[self.dv]
        out[self.w] = y[self.w] + d[self.dw]
        out[self.e] = y[self.e] + d[self.de]
        return out

    def correct(self, increment: np.ndarray, rate: np.ndarray) -> np.ndarray:
        """Munthe-Kaas correction of a stage rate for the stage's rotation increment."""
        out = rate.copy()
        if self.n:
            th = increment[self.dth].reshape(-1, 3)
            out[self.dth] = dexp_inv(th, rate[self.dth].reshape(-1, 3)).ravel()
        return out

    def difference(self, y1: np.ndarray, y0: np.ndarray) -> np.ndarray:
        """The tangent d with retract(y0, d) = y1 (rotations by the logarithm, the short way round)."""
        d = np.empty(self.tangent_size)
        d[self.dx] = y1[self.x] - y0[self.x]
        if self.n:
            q0 = y0[self.q].reshape(-1, 4)
            q1 = y1[self.q].reshape(-1, 4)
            d[self.dth] = quat_log(quat_mul(q1, quat_conj(q0))).ravel()
        d[self.dv] = y1[self.v] - y0[self.v]
        d[self.dw] = y1[self.w] - y0[self.w]
        d[self.de] = y1[self.e] - y0[self.e]
        return d


class EuclideanSpace:
    """Plain vectors: retract is addition (for integrator tests on ordinary ODEs)."""

    def __init__(self, size: int):
        self.size = self.tangent_size = size

    def retract(self, y, d):
        return y + d

    def correct(self, increment, rate):
        return rate

    def difference(self, y1, y0):
        return y1 - y0
