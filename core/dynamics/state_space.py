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


def quat_exp(theta: np.ndarray) -> np.ndarray:
    """Unit quaternions (k, 4) of rotation vectors (k, 3)."""
    angle = np.linalg.norm(theta, axis=1)
    half = 0.5 * angle
    small = angle < 1e-8
    s = np.where(small, 0.5 - angle**2 / 48.0, np.sin(half) / np.where(small, 1.0, angle))
    return np.column_stack([np.cos(half), s[:, None] * theta])


def quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise Hamilton products (k, 4)."""
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    return np.column_stack([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])


def rotation_matrices(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (k, 3, 3) of unit quaternions (k, 4)."""
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], 1)


def dexp_inv(theta: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """dexp^-1_theta(omega) to fourth order: omega - theta x omega / 2 + theta x (theta x omega) / 12."""
    c = np.cross(theta, omega)
    return omega - 0.5 * c + np.cross(theta, c) / 12.0


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
        """A tangent d with retract(y0, d) close to y1 (exact for small rotations), for error norms."""
        d = np.empty(self.tangent_size)
        d[self.dx] = y1[self.x] - y0[self.x]
        if self.n:
            q0 = y0[self.q].reshape(-1, 4)
            q1 = y1[self.q].reshape(-1, 4)
            rel = quat_mul(q1, q0 * np.array([1.0, -1.0, -1.0, -1.0]))
            rel *= np.sign(rel[:, :1] + 1e-300)
            d[self.dth] = (2.0 * rel[:, 1:]).ravel()
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
