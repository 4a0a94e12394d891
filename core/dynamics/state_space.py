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

from core.geometry import vec3
from core.geometry.rotations import (quat_conj, quat_log, quat_mul, quat_product, rotation_vector_quat)


def dexp_inv(theta, omega):
    """dexp^-1_theta(omega) to fourth order: omega - theta x omega / 2 + theta x (theta x omega) / 12, for
    3-sequences (numbers, or arrays for many at once; the compiled Cartesian steps run it on numbers)."""
    c = vec3.cross(theta, omega)
    return vec3.add(vec3.add(omega, vec3.scale(-0.5, c)), vec3.scale(1.0 / 12.0, vec3.cross(theta, c)))


def turned(q, theta):
    """The unit quaternion q (a 4-sequence) turned by the rotation vector theta [rad] (a 3-sequence) in world
    axes, exp(theta) q, normalised against round-off (numbers, or arrays for many at once)."""
    w, x, y, z = quat_product(*rotation_vector_quat(theta[0], theta[1], theta[2]), q[0], q[1], q[2], q[3])
    norm = np.sqrt(w * w + x * x + y * y + z * z)
    return w / norm, x / norm, y / norm, z / norm


def retract_bodies(y, d, out, n):
    """y moved along the tangent increment d into `out`, for n bodies (n = 0: a vector space): the orientations
    turned by the exponential map (`turned`), the rest added. The loop form of StateSpace.retract that the
    kernels run (core.dynamics.kernels.steps)."""
    for i in range(3 * n):
        out[i] = y[i] + d[i]
    for k in range(n):
        q, th = 3 * n + 4 * k, 3 * n + 3 * k
        out[q], out[q + 1], out[q + 2], out[q + 3] = turned((y[q], y[q + 1], y[q + 2], y[q + 3]),
                                                             (d[th], d[th + 1], d[th + 2]))
    for i in range(y.shape[0] - 7 * n):  # speeds, spins and extra states: after the quaternions in y
        out[7 * n + i] = y[7 * n + i] + d[6 * n + i]


def correct_bodies(inc, rate, n):
    """A stage's rate corrected in place for the stage's rotation increment `inc` (Munthe-Kaas: the spins by
    dexp^-1), for n bodies: the loop form of StateSpace.correct."""
    for k in range(n):
        th = 3 * n + 3 * k
        rate[th], rate[th + 1], rate[th + 2] = dexp_inv((inc[th], inc[th + 1], inc[th + 2]),
                                                        (rate[th], rate[th + 1], rate[th + 2]))


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
        if self.n:
            turn = turned(y[self.q].reshape(-1, 4).T, d[self.dth].reshape(-1, 3).T)
            out[self.q] = np.stack(turn, axis=-1).ravel()
        out[self.v] = y[self.v] + d[self.dv]
        out[self.w] = y[self.w] + d[self.dw]
        out[self.e] = y[self.e] + d[self.de]
        return out

    def correct(self, increment: np.ndarray, rate: np.ndarray) -> np.ndarray:
        """Munthe-Kaas correction of a stage rate for the stage's rotation increment."""
        out = rate.copy()
        if self.n:
            th = increment[self.dth].reshape(-1, 3).T
            out[self.dth] = np.stack(dexp_inv(th, rate[self.dth].reshape(-1, 3).T), axis=-1).ravel()
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
