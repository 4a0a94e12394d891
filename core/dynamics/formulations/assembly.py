"""What the elements are built on: the bodies and their start, and the allocation of everything an element owns.

An `Assembly` builds one element per model item (joints, then gear pairs, then forces: each may read what the
earlier ones set up), gives each its rows, ports, positions, extra states, discrete states, events and output
channels as it asks for them (core.dynamics.elements.base, contract item 2), and packs it all into the kernel's
buffers with the formulation's own data (core.dynamics.buffers.layout). Assembly-time Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import core.dynamics.elements  # noqa: F401  (the built-in element kinds register when imported)
from core.dynamics.buffers.layout import (BODY_ROWS, BODY_ROWS_START, COM, DISCRETE, DISSIPATED, EVENTS, EXTRA,
                                          GEAR_ROW_INDEX, GEAR_ROWS, GRAVITY_BAUMGARTE, HOLONOMIC_ROWS, INERTIA,
                                          INERTIA_INV, KIND_SLOTS, MASS, NO_POWER, OUTPUT_BODIES, OUTPUTS, PORT_BODIES,
                                          PORTS, POSITIONS, QUAT0, ROT0, ROW_BODIES, ROW_FLAGS, ROWS, WORK, X0, N, Pack)
from core.dynamics.buffers.tables import Tables
from core.dynamics.elements.base import COMMON, REGISTRY, kind_of
from core.dynamics.results.channels import Channel
from core.geometry.rotations import quat_matrices
from core.model import entities as E
from core.model.model import Model


@dataclass(frozen=True)
class Drift:
    """One constraint error an element declared (`Assembly.drift`)."""

    item: str
    kind: str  # what it is, in words: "gear phase drift", "joint axis error", ...
    unit: str
    extra: int  # its extra state, or -1
    rows: tuple[int, int]  # (first row, count) of its rows' position errors, when extra is -1
    norm: bool  # the rows' Euclidean norm; else their largest magnitude


class Assembly:
    """The elements of `model` on its bodies; `held` names the joints the formulation holds by its coordinates
    (they get no rows) and `edges` each one's edge index."""

    def __init__(self, model: Model, held: dict[str, int] | None = None):
        self.model = model
        self.held_joints = held or {}
        self.names = list(model.bodies)
        n = self.n = len(self.names)
        self.index = {name: k for k, name in enumerate(self.names)}
        self.index[E.GROUND] = n
        bodies = list(model.bodies.values())
        self.mass = np.array([b.mass for b in bodies], float)
        self.inertia = np.array([b.inertia for b in bodies], float).reshape(n, 3, 3)
        self.com_body = np.array([b.com for b in bodies], float).reshape(n, 3)
        self.q0 = np.array([b.orientation for b in bodies], float).reshape(n, 4)
        self.rot0 = quat_matrices(self.q0) if n else np.zeros((0, 3, 3))
        origin = np.array([b.position for b in bodies], float).reshape(n, 3)
        self.x0 = origin + np.einsum("kab,kb->ka", self.rot0, self.com_body)
        self.w0 = np.array([b.angular_velocity for b in bodies], float).reshape(n, 3)
        self.v0 = np.array([b.velocity for b in bodies], float).reshape(n, 3) + np.cross(self.w0, self.x0 - origin)
        self.tables = Tables()
        self.row_bodies, self.row_flags, self.holonomic, self.port_bodies = [], [], [], []
        self.gear_rows: list[int] = []
        self.npos = self.nx = self.ndisc = self.nevents = 0
        self.disc_start: list[float] = []
        self.drifts: list[Drift] = []
        self.elements, self.by_name = [], {}
        for item in (*model.joints.values(), *model.gear_pairs.values(), *model.forces.values()):
            element = kind_of(item)(item, self)
            element.edge = self.held_joints.get(item.name, -1)
            self.elements.append(element)
            self.by_name[item.name] = element
        for element in self.elements:
            element.link(self)
        self.work_index, self.dissipated_index = self.nx, self.nx + 1
        self.nx += 2
        self._lay_out_outputs()

    # ------------------------------------------------------------------ what elements ask for

    def pose0(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        """COM position [m] and rotation of body b at the start (the ground: the origin, the identity)."""
        if b == self.n:
            return np.zeros(3), np.eye(3)
        return self.x0[b], self.rot0[b]

    def com(self, b: int) -> np.ndarray:
        """Body b's COM in its axes [m] (the ground: the origin)."""
        return np.zeros(3) if b == self.n else self.com_body[b]

    def held(self, joint: str) -> bool:
        """Whether the formulation's coordinates hold this joint (no rows for it)."""
        return joint in self.held_joints

    def element_of(self, name: str):
        """The element built from the model item `name` (built already)."""
        return self.by_name[name]

    def _table(self, bodies) -> list[int]:
        ids = [-1 if b == self.n else int(b) for b in bodies]
        return ids + [-1] * (3 - len(ids))

    def rows(self, element, count: int, bodies, stabilised: bool = True, gear: bool = False, power: int = NO_POWER,
             holonomic: bool = False) -> int:
        """`count` constraint rows acting on `bodies` (up to three body indices, the slots of its blocks)."""
        first = len(self.row_bodies)
        if element.row0 < 0:
            element.row0 = first
        element.nrows += count
        for _ in range(count):
            r = len(self.row_bodies)
            self.row_bodies.append(self._table(bodies))
            gear_index = -1
            if gear:
                gear_index = len(self.gear_rows)
                self.gear_rows.append(r)
            self.row_flags.append([int(stabilised), gear_index, power])
            if holonomic:
                self.holonomic.append(r)
        return first

    def ports(self, element, count: int, bodies) -> int:
        """`count` ports acting on `bodies` (one tuple for all, or a list of one per port)."""
        first = len(self.port_bodies)
        if element.port0 < 0:
            element.port0 = first
        element.nports += count
        each = bodies if isinstance(bodies, list) else [bodies] * count
        self.port_bodies += [self._table(b) for b in each]
        return first

    def positions(self, element, count: int) -> int:
        element.pos0, element.npos = self.npos, element.npos + count
        self.npos += count
        return element.pos0

    def extras(self, element, count: int) -> int:
        element.x0, element.nx = self.nx, count
        self.nx += count
        return element.x0

    def discrete(self, element, start: list[float]) -> int:
        """Discrete states (modes: numbers that hold between events) with their values at the start."""
        element.disc0, element.ndisc = self.ndisc, len(start)
        self.ndisc += len(start)
        self.disc_start += list(start)
        return element.disc0

    def events(self, element, count: int) -> int:
        element.event0, element.nevents = self.nevents, count
        self.nevents += count
        return element.event0

    def drift(self, element, kind: str, unit: str, extra: int = -1, rows: tuple[int, int] = (0, 0),
              norm: bool = False) -> None:
        """A constraint error of `element` that a run watches at its output samples (core.dynamics.checks): the
        magnitude of its extra state `extra`, or of its rows' position errors rows = (first, count), their
        Euclidean norm (`norm`) or their largest; `unit` "m" is held to the length tolerance, any other to the
        angle one."""
        self.drifts.append(Drift(element.name, kind, unit, extra, rows, norm))

    # ------------------------------------------------------------------ outputs

    def _lay_out_outputs(self) -> None:
        """Each element's first output channel, in the order the results list them: the force elements', the gear
        pairs', the bodies' (origin and spin), the joints', the energies."""
        by_collection = {coll: [e for e in self.elements if e.name in self.model.collection(coll)]
                         for coll in ("forces", "gear_pairs", "joints")}
        self.channels: list[Channel] = []

        def place(elements):
            for e in elements:
                e.out0 = len(self.channels)
                self.channels += e.channels()

        place(by_collection["forces"])
        place(by_collection["gear_pairs"])
        self.bodies_out = len(self.channels)
        for name in self.names:
            self.channels += [Channel(name, a, "m", "body", "position of the body frame's origin, world")
                              for a in "xyz"]
            self.channels += [Channel(name, f"w{a}", "rad/s", "body", "angular velocity, world") for a in "xyz"]
        place(by_collection["joints"])
        self.energy_out = len(self.channels)
        self.channels += [Channel("energy", "kinetic", "J", "energy"), Channel("energy", "potential", "J", "energy"),
                          Channel("energy", "work", "J", "energy", "work of the loads and motors"),
                          Channel("energy", "dissipated", "J", "energy", "energy taken by the dampers")]

    # ------------------------------------------------------------------ packing

    def pack(self, pack: Pack, form: int) -> None:
        """The element kinds' parameter rows, the bodies, the row tables and the sizes into `pack`."""
        n, s = self.n, pack.sizes
        m, p = len(self.row_bodies), len(self.port_bodies)
        s[N], s[EXTRA], s[ROWS], s[PORTS], s[POSITIONS] = n, self.nx, m, p, self.npos
        s[DISCRETE], s[EVENTS], s[OUTPUTS] = self.ndisc, self.nevents, len(self.channels)
        s[WORK], s[DISSIPATED], s[GEAR_ROWS] = self.work_index, self.dissipated_index, len(self.gear_rows)
        st = self.model.settings
        pack.put(GRAVITY_BAUMGARTE, [*st.gravity, st.baumgarte_alpha, st.baumgarte_beta])
        pack.put(MASS, self.mass)
        pack.put(INERTIA, self.inertia.reshape(n, 9))
        pack.put(INERTIA_INV, (np.linalg.inv(self.inertia) if n else np.zeros((0, 3, 3))).reshape(n, 9))
        pack.put(COM, self.com_body)
        pack.put(ROT0, self.rot0.reshape(n, 9))
        pack.put(QUAT0, self.q0)
        pack.put(X0, self.x0)
        pack.put(ROW_BODIES, np.array(self.row_bodies, np.int64).reshape(m, 3), integer=True)
        pack.put(ROW_FLAGS, np.array(self.row_flags, np.int64).reshape(m, 3), integer=True)
        pack.put(GEAR_ROW_INDEX, np.array(self.gear_rows, np.int64), integer=True)
        pack.put(PORT_BODIES, np.array(self.port_bodies, np.int64).reshape(p, 3), integer=True)
        pack.put(HOLONOMIC_ROWS, np.array(self.holonomic_rows(), np.int64), integer=True)
        # every block on a body, by body: (row, slot)
        entries = sorted((b, r, slot) for r, bodies in enumerate(self.row_bodies) for slot, b in enumerate(bodies)
                         if b >= 0)
        pack.put(BODY_ROWS, np.array([(r, slot) for _, r, slot in entries], np.int64).reshape(-1, 2), integer=True)
        pack.put(BODY_ROWS_START, np.searchsorted([b for b, _, _ in entries], np.arange(n + 1)), integer=True)
        pack.put(OUTPUT_BODIES, [self.bodies_out, self.energy_out], integer=True)
        self.tables.pack(pack)
        for k, cls in enumerate(REGISTRY):
            mine = [e for e in self.elements if type(e) is cls]
            floats, ints = [], []
            for e in mine:
                f, i = e.params()
                if len(f) != cls.FLOATS or len(i) != cls.INTS:
                    raise ValueError(f"{e.name}: a {cls.__name__} gave {len(f)} floats and {len(i)} ints, not "
                                     f"{cls.FLOATS} and {cls.INTS}")
                floats.append(f)
                ints.append(e.common() + list(i))
            pack.put(KIND_SLOTS + 2 * k, np.array(floats, float).reshape(len(mine), cls.FLOATS))
            pack.put(KIND_SLOTS + 2 * k + 1, np.array(ints, np.int64).reshape(len(mine), COMMON + cls.INTS),
                     integer=True)

    def holonomic_rows(self) -> list[int]:
        """The rows the positions are moved back onto after a step (the joints' the coordinates do not hold)."""
        return list(self.holonomic)

    @staticmethod
    def slots() -> int:
        """How many slots the buffers' header needs for the registry as it stands."""
        return KIND_SLOTS + 2 * len(REGISTRY)
