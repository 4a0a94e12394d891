"""Joint coordinates: one angle per revolute joint of a spanning tree from the ground (core.dynamics.formulations.
tree); the tree's joints hold by construction, the bodies follow by the tree's kinematics
(core.dynamics.kernels.bodies), and y = [q (nq), q' (nq), extra].

Constant matrices: on a gear train whose axes are parallel, or fixed in the ground, the joint mass matrix, the
rows and the ports in the coordinates do not change as the train turns, and the velocity terms and gravity do
no work on the coordinates (core.dynamics.kernels.joint). `settled` checks that at random configurations and
speeds, and then packs the matrices: the rate becomes the elements' laws and a few products. Where it does not
hold, the reason is kept (`constant_note`) and the rate takes the general path.
"""

from __future__ import annotations

import functools

import numpy as np

from core.dynamics.buffers.layout import (CONSTANT, CONSTANT_C, CONSTANT_GP, CONSTANT_GS, CONSTANT_J, CONSTANT_MINV,
                                          CONSTANT_OFF, CONSTANT_POSITIONS, CONSTANT_PROJECTOR, COORD_PATH, EDGE_AXES,
                                          EDGE_SIGN, EDGE_TABLE, EDGES, JOINT, NQ, SIZES, SUBTREE, Pack)
from core.dynamics.formulations.system import System
from core.dynamics.formulations.tree import spanning_tree
from core.dynamics.state_space import EuclideanSpace
from core.model import entities as E
from core.model.model import Model

#: what the matrices the check compares are, in words
MEANING = {"mass": "the mass matrix's entries", "rows": "the constraint rows", "g_plus": "the constraint forces",
           "ports": "the force elements' ports", "positions": "the force elements' positions"}
CHECKS = 3  # random configurations the constant matrices are checked at
TOLERANCE = 1e-11  # the change allowed at them, relative (round-off of the general path is about 1e-15)


def largest(a: np.ndarray) -> float:
    """The largest magnitude in a (0 when empty)."""
    return float(np.abs(a).max(initial=0.0))


@functools.cache
def configurations(nq: int) -> tuple[np.ndarray, np.ndarray]:
    """The CHECKS random configurations (angles [rad], uniform in +-pi) and speed directions (normal) the
    constant matrices are checked at, for nq coordinates: the same every time (seeded), made once per size."""
    rng = np.random.default_rng(20261202)
    draws = [(rng.uniform(-np.pi, np.pi, nq), rng.normal(size=nq)) for _ in range(CHECKS)]
    q, qd = (np.array([d[k] for d in draws]).reshape(CHECKS, nq) for k in (0, 1))
    q.flags.writeable = qd.flags.writeable = False
    return q, qd


class JointSpace(EuclideanSpace):
    """y = [q (nq), q' (nq), extra]: joint angles [rad], their rates [rad/s], the extra states."""

    def __init__(self, coordinates: int, extra: int):
        super().__init__(2 * coordinates + extra)
        nq = coordinates
        self.nq, self.extra = nq, extra
        self.q, self.qd = slice(0, nq), slice(nq, 2 * nq)
        self.e = self.de = slice(2 * nq, 2 * nq + extra)


class JointSystem(System):
    """A model in joint coordinates; TreeError when a body does not hang from the ground on revolute and fixed
    joints."""

    formulation, FORM = "joint", JOINT
    constant_note = "not checked"

    def __init__(self, model: Model, program, constant: bool = True):
        """`constant`: take the constant matrices where they hold (False keeps the general path: the reference
        they are tested against)."""
        self.constant = constant
        self._at_rest: dict[bytes, dict] = {}  # rest_matrices by discrete state
        super().__init__(model, program)

    def held_joints(self, model: Model) -> dict[str, int]:
        index = {name: k for k, name in enumerate(model.bodies)}
        index[E.GROUND] = -1
        self.edges = spanning_tree(model, index)
        self.nq = sum(e.coordinate is not None for e in self.edges)
        return {e.joint: k for k, e in enumerate(self.edges)}

    @property
    def coordinates(self) -> int:
        return self.nq

    @property
    def tree_joints(self) -> set[str]:
        """The joints the coordinates hold."""
        return {e.joint for e in self.edges}

    velocities = coordinates

    def make_space(self) -> JointSpace:
        return JointSpace(self.nq, self.extra)

    def pack_coordinates(self, pack: Pack) -> None:
        n, edges = self.n, self.edges
        pack.sizes[NQ], pack.sizes[EDGES] = self.nq, len(edges)
        pack.put(EDGE_TABLE, np.array([(e.parent, e.child, -1 if e.coordinate is None else e.coordinate)
                                       for e in edges], np.int64).reshape(-1, 3), integer=True)
        axes = []
        for e in edges:
            frame = self.asm.element_of(e.joint).frame
            axes.append([*e.axis0, *e.point0, *(frame.sj if e.child == frame.bj else frame.si)])
        pack.put(EDGE_AXES, np.array(axes, float).reshape(-1, 9))
        pack.put(EDGE_SIGN, np.array([e.sign for e in edges], float))
        subtree = np.zeros((len(edges), n), np.int64)
        for k, e in enumerate(edges):
            subtree[k, e.subtree] = 1
        pack.put(SUBTREE, subtree, integer=True)
        paths = [[e.coordinate for k, e in enumerate(edges) if e.coordinate is not None and subtree[k, b]]
                 for b in range(n)]
        width = max((len(p) for p in paths), default=0)
        pack.put(COORD_PATH, np.array([p + [-1] * (width - len(p)) for p in paths], np.int64).reshape(n, width),
                 integer=True)
        self._pack = pack

    _start: np.ndarray | None = None

    def initial_state(self) -> np.ndarray:
        """Zero angles; rates that best reproduce the bodies' given velocities (in the mass metric). A new array
        each call (worked out once: assembly, its checks and the run's start all ask)."""
        if self._start is None:
            y = np.zeros(self.space.size)
            if self.nq:
                mq, rhs = self.kernel.initial_rates(y, np.hstack([self.asm.v0, self.asm.w0]))
                y[self.space.qd] = np.linalg.solve(mq, rhs)
            self._start = y
        return self._start.copy()

    def mass_matrix(self, y: np.ndarray) -> np.ndarray:
        """The joint-coordinate mass matrix at y (the kernel's)."""
        return self.kernel.initial_rates(y, np.zeros((self.n, 6)))[0]

    # ------------------------------------------------------------------ constant matrices

    def describe(self) -> dict:
        out = super().describe()
        out["system"].update(tree_joints=[e.joint for e in self.edges])
        return out

    def matrices(self, q: np.ndarray, qd: np.ndarray) -> dict:
        """The matrices the constant-matrix argument says do not change, and the velocity terms it says vanish."""
        y = np.zeros(self.space.size)
        y[:self.nq], y[self.nq:2 * self.nq] = q, qd
        return self.kernel.matrices(y, len(self.asm.port_bodies), self.asm.npos)

    def rest_matrices(self) -> dict:
        """`matrices` at zero coordinates and speeds in the elements' discrete states as they are (made once per
        discrete state; the caller does not change them)."""
        key = self.kernel.disc.tobytes()
        found = self._at_rest.get(key)
        if found is None:
            found = self._at_rest[key] = self.matrices(np.zeros(self.nq), np.zeros(self.nq))
        return found

    def why_not_constant(self) -> str | None:
        """Why the constant matrices do not hold for this system, or None when they do: in every discrete state
        of its elements with modes (each element's states in turn, the others' at the start)."""
        if self.asm.holonomic_rows():
            loop = next(e for e in self.elements if e.nrows and e.name in self.model.joints)
            return f"joint {loop.name!r} closes a loop"
        if not self.nq:
            return "no joint coordinates"
        disc = self.kernel.disc
        start = disc.copy()
        try:
            why = self.why_not_constant_now()
            if why:
                return why
            for e in (e for e in self.elements if type(e).MODES):
                for state in e.states():
                    disc[:] = start
                    disc[e.disc0:e.disc0 + len(state)] = state
                    why = self.why_not_constant_now()
                    if why:
                        return f"{why} (in a mode of {e.name!r})"
        finally:
            disc[:] = start
        return None

    def why_not_constant_now(self) -> str | None:
        """Why the constant matrices do not hold in the elements' discrete states as they are, or None."""
        base = self.rest_matrices()
        rows = largest(base["g_plus"])
        if self.rows and largest(base["g_sep"]) > TOLERANCE * rows:
            return "a tooth force's separating part acts on the coordinates (gears on a swinging arm)"
        scale = max(1.0, largest(self.initial_state()[self.space.qd]))
        weight = float(np.abs(self.asm.mass).max(initial=0.0)) * float(np.linalg.norm(self.model.settings.gravity))
        lever = max(float(np.abs(self.asm.x0).max(initial=0.0)), 1e-3)
        sizes = {key: largest(base[key]) for key in MEANING}
        for key in ("rows", "g_plus"):
            sizes[key] = max(sizes[key], rows)
        for q, unit_qd in zip(*configurations(self.nq)):
            qd = scale * unit_qd
            other = self.matrices(q, qd)
            for key, meaning in MEANING.items():
                if largest(other[key] - base[key]) > TOLERANCE * max(sizes[key], largest(other[key]), 1e-300):
                    return f"{meaning} change with the state"
            work = max(largest(other["inertial"]), largest(other["gamma"]))
            if work > TOLERANCE * (largest(base["mass"]) + largest(other["rows"])) * float(qd @ qd):
                return "the velocity terms act on the coordinates (a mass centre off its axis)"
            if weight > 0 and largest(other["gravity"]) > TOLERANCE * max(weight * lever, 1e-300):
                return "gravity acts on the coordinates (across the axes of a moving mass centre)"
        return None

    _constants: dict | None = None  # the constant matrices' buffers by discrete state (None: the general path)

    def settled(self) -> None:
        """Take the constant matrices when they hold."""
        why = self.why_not_constant() if self.constant else "not asked for"
        modal = any(type(e).MODES for e in self.elements)
        self.constant_note = (f"{System.constant_note}: {why}" if why is not None else
                              "constant matrices, made again at each mode change" if modal else "constant matrices")
        if why is None:
            self._constants = {}
            self.take_constants()

    def take_constants(self) -> None:
        """The kernel onto the constant matrices of the elements' discrete states as they are (packed once per
        state: a lossy pair's rows differ by mode, and its mesh factor by the driving side)."""
        key = self.kernel.disc.tobytes()
        found = self._constants.get(key)
        if found is None:
            found = self._constants[key] = self.constant_buffers()
        fb, ib = found
        ib[:SIZES] = self.kernel.ib[:SIZES]
        ib[CONSTANT] = 1
        self.kernel.fb, self.kernel.ib = fb, ib

    def constant_buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """The buffers with the constant matrices of the discrete states as they are."""
        base = self.rest_matrices()
        off = self.kernel.jacobian(np.zeros(self.space.size), self.nq)[2]
        pack = self._pack
        minv = np.linalg.inv(base["mass"])
        jq = base["rows"]
        pack.put(CONSTANT_J, jq)
        pack.put(CONSTANT_GP, base["g_plus"])
        pack.put(CONSTANT_GS, base["g_sep"])
        pack.put(CONSTANT_C, base["ports"].reshape(-1, self.nq))
        pack.put(CONSTANT_POSITIONS, base["positions"])
        pack.put(CONSTANT_MINV, minv)
        pack.put(CONSTANT_OFF, off.astype(np.int64), integer=True)
        on = jq * ~off[:, None]  # a switched-off row takes no part in the projection
        projector = (minv @ on.T @ np.linalg.pinv(on @ minv @ on.T, rcond=1e-12) if self.rows
                     else np.zeros((self.nq, 0)))
        pack.put(CONSTANT_PROJECTOR, projector.reshape(self.nq, -1))
        return pack.buffers()

    def rows_changed(self, t: float, y: np.ndarray | None) -> None:
        if self._constants is not None:
            self.take_constants()
        super().rows_changed(t, y)
