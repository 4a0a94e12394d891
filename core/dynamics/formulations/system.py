"""An assembled system: a model's elements in one formulation, its state space and its kernel.

The contract of a formulation (a subclass of `System`; core.dynamics.formulations.FORMULATIONS names them), which
the run, the integrators and the checks use and nothing more:

1. ``formulation`` (its name), ``FORM`` (core.dynamics.buffers.layout), ``held_joints(model, index)`` (the
   joints its coordinates hold, with their edges), ``pack_coordinates(pack)`` (its own data in the buffers),
   ``space`` (the state layout and its retraction), ``initial_state()``, ``mass_matrix(y)`` (the kinetic energy's
   metric on its velocities: 2 T = v^T M v; for analyses, which read the train's inertia from it).
2. Everything else is the kernel's (core.dynamics.program.kernel): ``evaluate(t, y)`` the tangent rate, a pure
   function of (t, y) and of the elements' discrete states; ``onto_constraints(t, y)`` after a step;
   ``consistent_velocities(y, t)``; ``sample(t, y)`` every channel and pose; the elements' events.
3. ``channel_records`` lists the result channels without evaluating anything; ``describe()`` gives sizes and
   redundancy for ``geardyn inspect``.

The kernel's program is Python or compiled (core.dynamics.program.linker); the same code either way.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import FORM, HOLONOMIC_REDUNDANT, REDUNDANT, Pack
from core.dynamics.events import Event
from core.dynamics.formulations.assembly import Assembly
from core.dynamics.program.kernel import Kernel
from core.dynamics.results.channels import Channel
from core.errors import ModelError
from core.model.model import Model
from core.ranges import microns, spin

#: rows whose singular values are below this share of the largest are redundant
RANK_TOLERANCE = 1e-9

#: what System.projection_note says was done at the start
START_PROJECTION = "initial speeds were projected onto the constraints (joints, gear pairs, motors)"


def rank(matrix: np.ndarray) -> int:
    """The numerical rank of a matrix (singular values above RANK_TOLERANCE of the largest)."""
    if matrix.size == 0:
        return 0
    sv = np.linalg.svd(matrix, compute_uv=False)
    return int(np.sum(sv > RANK_TOLERANCE * sv.max())) if sv.max() > 0 else 0


class System:
    """A model assembled in one formulation; see the module docstring for the contract."""

    formulation = ""
    FORM = -1
    constant_note = "assembled at every evaluation"  # how the rates are had (the plan's `rates`)

    def __init__(self, model: Model, program):
        # a copy of the containers (entities are frozen): an edit of the caller's model never reaches the system
        self.model = model = model.copy()
        held = self.held_joints(model)
        self.asm = asm = Assembly(model, held)
        self.names, self.n, self.index = asm.names, asm.n, asm.index
        self.elements = asm.elements
        self.channel_records: list[Channel] = asm.channels
        self.rows, self.extra = len(asm.row_bodies), asm.nx
        self.work_index, self.dissipated_index = asm.work_index, asm.dissipated_index
        pack = Pack(asm.slots())
        asm.pack(pack, self.FORM)
        pack.sizes[FORM] = self.FORM
        self.pack_coordinates(pack)
        fb, ib = pack.buffers()
        self.kernel = Kernel(program, fb, ib, np.array(asm.disc_start, float))
        self.space = self.make_space()
        self.rows_changed(0.0, self.initial_state())
        holonomic = asm.holonomic_rows()
        if holonomic:
            ib[HOLONOMIC_REDUNDANT] = len(holonomic) - rank(self.jacobian(0.0, self.initial_state())[holonomic])
        self.settled()

    # ------------------------------------------------------------------ the formulation's part

    def held_joints(self, model: Model) -> dict[str, int]:
        """The joints the coordinates hold, with their edge index (none in Cartesian coordinates)."""
        return {}

    def pack_coordinates(self, pack: Pack) -> None:
        """The formulation's own data in the buffers."""

    def make_space(self):
        raise NotImplementedError

    coordinates = velocities = 0  # how many of each the state holds (per formulation)

    def initial_state(self) -> np.ndarray:
        raise NotImplementedError

    def settled(self) -> None:
        """After assembly: what the formulation decides from the assembled system (joint coordinates: whether
        the constant matrices hold)."""

    # ------------------------------------------------------------------ the kernel's part

    @property
    def compiled(self) -> bool:
        return self.kernel.compiled

    def evaluate(self, t: float, y: np.ndarray) -> np.ndarray:
        """The tangent rate of y at t [SI] (what the integrators call)."""
        return self.kernel.rate(t, y)

    def multipliers(self, t: float, y: np.ndarray) -> np.ndarray:
        """The constraint rows' multipliers at (t, y) (a gear row's is its tangential tooth force Ft [N])."""
        return self.kernel.multipliers(t, y)[1]

    def rows_changed(self, t: float, y: np.ndarray | None) -> None:
        """After a mode switch (a row switched on or off), at (t, y) when given: how many of the rows that hold are
        redundant (a switched-off row's Jacobian is zero and takes no part)."""
        self.kernel.forget()
        if y is None:
            return
        jac, _, off, _ = self.kernel.jacobian(y, self.velocities)
        if not np.isfinite(jac).all():
            raise self.undefined_rows(np.flatnonzero(~np.isfinite(jac).all(axis=1)))
        self.redundant = int(np.count_nonzero(~off)) - rank(jac[~off])
        self.kernel.ib[REDUNDANT] = self.redundant

    def undefined_rows(self, rows: np.ndarray) -> ModelError:
        """The error for constraint `rows` whose Jacobian is not finite: a placement their elements' geometry is
        not defined for (bevel gears whose pitch cones do not meet, for one), named by the items' paths."""
        owners = [e.name for e in self.elements if e.nrows and np.any((rows >= e.row0) & (rows < e.row0 + e.nrows))]
        why = ("its constraint is not defined at these poses (the Jacobian is not finite): check where its bodies "
               "are placed")
        problems = [(self.path_of(name), why) for name in owners]
        return ModelError.of(problems or [("", f"constraint rows {rows.tolist()}: {why}")])

    def path_of(self, name: str) -> str:
        """The model path of the item called `name` ('gear_pairs.sun_planet1'), or the name."""
        return next((f"{coll}.{item.name}" for coll, item in self.model.items() if item.name == name), name)

    def bodies(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The bodies' COM positions (n, 3) [m], rotations (n, 3, 3), COM velocities (n, 3) [m/s] and spins (n, 3)
        [rad/s], world axes, at state y."""
        return self.kernel.bodies(y)

    def accelerations(self, t: float, y: np.ndarray) -> np.ndarray:
        """COM and angular accelerations of the bodies (n, 6) [m/s^2, rad/s^2], world axes."""
        return self.kernel.multipliers(t, y)[2]

    def onto_constraints(self, t: float, y: np.ndarray) -> np.ndarray:
        """y after a step at t [s], moved back onto the constraints: positions, then velocities."""
        return self.kernel.project(t, y)

    def consistent_velocities(self, y: np.ndarray, t: float = 0.0) -> tuple[np.ndarray, float]:
        """y with velocities projected onto the rows at t [s] (least change in kinetic energy; a motor's speed its
        law's at t), and the largest change [m/s, rad/s]."""
        return self.kernel.consistent_velocities(t, y)

    def projection_note(self, given: np.ndarray, y: np.ndarray, what: str = START_PROJECTION) -> str:
        """What making the speeds consistent did (given to y: at the start, or where a motor's law steps), in the
        bodies' terms: the body whose angular velocity [rad/s] (or, where no spin changed, velocity [m/s]) changed
        most, and by how much."""
        (_, _, v0, w0), (_, _, v1, w1) = self.bodies(given), self.bodies(y)
        spins, speeds = np.linalg.norm(w1 - w0, axis=1), np.linalg.norm(v1 - v0, axis=1)
        if spins.max(initial=0.0) > 1e-9:
            k = int(np.argmax(spins))
            changed = f"angular velocity of {self.names[k]!r}: {spin(spins[k])}"
        else:
            k = int(np.argmax(speeds))
            changed = f"velocity of {self.names[k]!r}: {speeds[k]:.5g} m/s"
        return f"{what}: the largest change is to the {changed}"

    def consistent_initial_state(self) -> tuple[np.ndarray, float]:
        """The initial state with speeds made consistent with the constraints, and the largest change."""
        return self.consistent_velocities(self.initial_state())

    def jacobian(self, t: float, y: np.ndarray) -> np.ndarray:
        """J at (t, y) on the formulation's velocities (dense)."""
        return self.rows_at(t, y)[0]

    def rows_at(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """J at (t, y) on the formulation's velocities (dense) and the rows' position errors (the joints')."""
        return self.kernel.jacobian(y, self.velocities)[:2]

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One output sample: the channels' values, body origins (n, 3) [m] and orientations (n, 4), and the
        rows' position errors (the joints': a point's gap [m], an axis' [rad])."""
        return self.kernel.sample(t, y)

    def channels(self, t: float, y: np.ndarray) -> dict[str, float]:
        """Every result channel at (t, y) by its label ``name [unit]`` (for tests and scripts)."""
        values = self.sample(t, y)[0]
        return {c.label: float(v) for c, v in zip(self.channel_records, values)}

    def poses(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Body frame origins (n, 3) [m] and orientations (n, 4) at state y."""
        _, origins, quats, _ = self.sample(0.0, y)
        return origins, quats

    # ------------------------------------------------------------------ modes and events

    def start(self, y: np.ndarray) -> tuple[np.ndarray, list[str]]:
        """Each element with modes chooses its first mode at the initial state; the state and their notes."""
        notes = []
        for e in self.elements:
            if type(e).MODES:
                y, note = e.start(self, y)
                notes += note
        return y, notes

    def events(self) -> list[Event]:
        """The elements' event functions g(t, y) (each positive while its mode holds)."""
        found = []
        for e in self.elements:
            for i, name in enumerate(e.event_names() if type(e).MODES else ()):
                found.append(Event(lambda t, y, k=e.event0 + i: float(self.kernel.events(t, y)[k]), direction=-1.0,
                                   terminal=True, name=name))
        return found

    def on_event(self, i: int, t: float, y: np.ndarray) -> tuple[np.ndarray, str]:
        """The element of event i chooses its new mode at (t, y): the state (speeds made consistent) and a note."""
        for e in self.elements:
            if type(e).MODES and e.event0 <= i < e.event0 + e.nevents:
                y, note = e.on_event(self, i - e.event0, t, y)
                self.kernel.forget()
                return y, note
        raise IndexError(f"no event {i}")

    # ------------------------------------------------------------------ static equilibrium

    def mesh_equilibrium(self, y: np.ndarray) -> tuple[np.ndarray, str]:
        """y with each compliant mesh's deflection set so that its transmission error does not accelerate at the
        start: Newton on the deflection states (finite-difference Jacobian), starting just past the backlash on
        the drive flanks, then on the coast flanks. Returns the new state and a note of what was set."""
        meshes = [e for e in self.elements if hasattr(e, "deflection_state")]
        if not meshes:
            return y, ""
        sp = self.space
        idx = [sp.e.start + e.deflection_state()[0] for e in meshes]
        rate_at = [sp.de.start + e.deflection_state()[0] for e in meshes]

        def residual(yy):
            dt = 1e-7
            r1 = self.evaluate(0.0, yy)
            r2 = self.evaluate(0.0, sp.retract(yy, dt * r1))
            return np.array([(r2[i] - r1[i]) / dt for i in rate_at])

        y0 = y.copy()
        for flank in (1.0, -1.0):
            y = y0.copy()
            for e, i in zip(meshes, idx):
                y[i] = flank * e.deflection_state()[1]
            try:
                for _ in range(30):
                    r = residual(y)
                    jac = np.empty((len(idx), len(idx)))
                    for c, i in enumerate(idx):
                        yp = y.copy()
                        yp[i] += 1e-9
                        jac[:, c] = (residual(yp) - r) / 1e-9
                    dx = np.linalg.solve(jac, -r)
                    y[idx] += dx
                    if np.abs(dx).max() < 1e-15:
                        break
                break
            except np.linalg.LinAlgError:
                continue
        return y, "static equilibrium: transmission error " + ", ".join(
            f"{e.name} {microns(y[i])}" for e, i in zip(meshes, idx))

    # ------------------------------------------------------------------ description

    def describe(self) -> dict:
        """Bodies, joints, pairs, system size and redundancy (for `geardyn inspect`)."""
        model, asm = self.model, self.asm
        bodies = {name: {"mass": float(asm.mass[k]), "com": asm.com_body[k].tolist(),
                         "inertia": asm.inertia[k].tolist()} for k, name in enumerate(self.names)}
        joints = {j.name: {"type": type(j).__name__, "body_i": j.body_i, "body_j": j.body_j,
                           "rows": self.asm.element_of(j.name).nrows} for j in model.joints.values()}
        pairs = {p.name: {"kind": p.kind, "ratio": p.z2 / p.z1, "joint1": p.joint1, "joint2": p.joint2,
                          "carrier": p.carrier, "rigid": getattr(asm.element_of(p.name), "rigid", True)}
                 for p in model.gear_pairs.values()}
        return {"bodies": bodies, "joints": joints, "gear_pairs": pairs,
                "system": {"formulation": self.formulation, "bodies": self.n, "coordinates": self.coordinates,
                           "velocities": self.velocities, "constraint_rows": self.rows,
                           "redundant_constraints": self.redundant,
                           "degrees_of_freedom": self.velocities - (self.rows - self.redundant),
                           "extra_states": self.extra, "rates": self.constant_note}}
