"""Cartesian coordinates: every body's COM position, orientation (a unit quaternion), velocity and spin.

The joints are rows like every other constraint (core.dynamics.kernels.cartesian); the state is
y = [x (3 n), q (4 n), v (3 n), w (3 n), extra] on the bodies' Lie group (core.dynamics.state_space).
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import CARTESIAN
from core.dynamics.formulations.system import System
from core.dynamics.kernels.bodies import world_inertia
from core.dynamics.state_space import StateSpace


class CartesianSystem(System):
    """A model in Cartesian coordinates."""

    formulation, FORM = "cartesian", CARTESIAN

    def make_space(self) -> StateSpace:
        return StateSpace(self.n, self.extra)

    @property
    def coordinates(self) -> int:
        return 7 * self.n

    @property
    def velocities(self) -> int:
        return 6 * self.n

    def mass_matrix(self, y: np.ndarray) -> np.ndarray:
        """The bodies' mass matrix on the velocities at y (6 n: each body's COM velocity and spin, world axes):
        m I and R I_com R^T (the kernel's `world_inertia`) on the diagonal."""
        _, rot, _, _ = self.kernel.bodies(y)
        tensors = self.asm.inertia.reshape(self.n, 9)
        out = np.zeros((self.velocities, self.velocities))
        for k in range(self.n):
            out[6 * k:6 * k + 3, 6 * k:6 * k + 3] = self.asm.mass[k] * np.eye(3)
            world_inertia(rot[k], tensors, k, out[6 * k + 3:6 * k + 6, 6 * k + 3:6 * k + 6])
        return out

    def initial_state(self) -> np.ndarray:
        sp, asm = self.space, self.asm
        y = np.zeros(sp.size)
        y[sp.x], y[sp.q], y[sp.v], y[sp.w] = asm.x0.ravel(), asm.q0.ravel(), asm.v0.ravel(), asm.w0.ravel()
        return y
