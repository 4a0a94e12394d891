"""What an element is: one model item in the equations of motion, written once for every formulation and path.

An element kind is one class and its physics in one module, registered with ``@element(EntityClass)``. The
registration is all the engine needs: the element loops of the kernels are generated from the registry
(core.dynamics.program.dispatch), so a new kind runs in both formulations, compiled or not, the day it is
added. With ``kind=ItemKind(...)`` it also registers a new entity with the model (collection, file tag, the
app's tool entry; core.model.kinds).

The contract, after scipy's OdeSolver:

1. The class: ``FLOATS`` and ``INTS``, the widths of its parameter rows (the ints after the COMMON ones
   below); ``LAW_ORDER`` (laws run in that order: an element that reads another's forces comes after it);
   ``MODES`` (it has discrete states that events change; see 4).
2. ``__init__(entity, asm)`` builds it on an assembly (core.dynamics.formulations.assembly.Assembly): it asks
   ``asm`` for its constraint rows (``asm.rows``), ports (``asm.ports``), positions, extra states, discrete
   states and events, each of which it then owns, and declares the constraint errors a run watches for drift
   (``asm.drift``: an extra state such as a rigid pair's accumulated phase error, or its rows' position
   errors). ``params()`` returns its kind-specific floats and ints.
   ``channels()`` lists its result channels (core.dynamics.results.channels.Channel) without evaluating
   anything, in the order its ``outputs`` writes them. ``link(asm)`` runs after every element is built. A
   support (a bearing, a spring) gives in ``support_rows(ports)`` the rows, made from its ports' rows, whose
   rates are its deflection: the train's ratios hold them still (core.analysis.train_ratio).
3. The physics, as module-level functions of its module, plain Python on numbers and arrays that numba
   compiles unchanged (every function of ours they call is compiled from its source too), without reference
   counts (core.dynamics.program.linker): they write into the arrays they are given and make none (no
   np.empty, no lists: tuples and views only):

   ``geometry(fb, ib, fp, ip, disc, bodies, rows, ports)``
       From the bodies' state ``bodies = (pos, rot, vel, spin)`` (arrays of n + 1 bodies, the ground last;
       COM position [m], rotation, COM velocity [m/s], spin [rad/s], world axes), writes its constraint rows
       into ``rows = (rj, rgp, rgs, gam, phi, off)``: per row and body slot (the bodies it gave ``asm.rows``)
       the Jacobian block rj [.., 6] (linear, angular velocity), the blocks of the directions its multiplier
       acts in for a positive one, rgp, and their separating part rgs (a gear row: the force of a negative
       multiplier acts along rgp - 2 rgs), gam = -(dJ/dt) v, phi the position error, and off 1 for a row
       that does not hold now (a lossy pair's lock while it rolls: its multiplier is then 0); and its ports
       into ``ports = (pr, ppos)``: per port and body slot a row pr [.., 6] (the port's rate is pr . v, and
       a force u along it puts pr^T u on the bodies: a force and a moment about the COM), and its positions
       ppos (scalars the law reads: a spring's length).
   ``law(t, fb, ib, fp, ip, disc, state, forces)``
       From ``state = (jv, pv, ppos, extra)`` (row rates J v, port rates, positions, extra states), writes
       ``forces = (u, tgt, tgtr, phi, xdot, acc)``: its ports' forces u, its rows' velocity targets tgt
       and their rates tgtr (a motor's s(t), s'(t)), phi += the position error it keeps as an extra state,
       xdot the rates of its extra states, and adds to acc its potential energy [J], the power fed in from
       outside [W] and the power it dissipates [W] (acc[0], acc[1], acc[2]). A pure function of its inputs.
   ``outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out)``
       Its channels' values into out[ip[OUT0]:], at an output sample only; lam the multipliers, react the
       joint reactions the formulation works out for tree joints ((edges, 6): force on body j [N], moment
       about the joint point [N m]).
   ``events(t, fb, ib, fp, ip, disc, state, forces, lam, g)`` (MODES kinds)
       Its event functions' values into g[ip[EVENT0]:], each positive while its mode holds.

   fp and ip are its parameter rows; ip starts with the COMMON ints. Bodies in ip are indices into the
   body arrays (the ground is n); in the row and port tables the ground is -1 (no velocity, no load).
4. Modes (MODES kinds): its discrete states are numbers (floats: a mode, a flag, a ratio) that hold between
   events. ``states()`` (every value they take that its rows differ by, as tuples: joint coordinates check
   their constant matrices in each), ``event_names()``, ``start(system, y)`` (the first mode at the
   start: the state and notes) and ``on_event(system, i, t, y)`` (its event i found at (t, y): the new mode,
   the state with speeds made consistent and a note; it calls ``system.rows_changed`` after changing its
   discrete states): Python, between steps.
5. Guards: ``guard(values)`` sees each output sample's channel values (its own from ``out0``) and returns
   what is wrong when the sample breaks its physics (a lossy pair whose losses give power back), or "";
   the run then fails at that sample, as it does on constraint drift. Python, at output samples.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from core.model.kinds import register_kind, registered_kind, unregister_kind

# the ints every element row starts with
ROW0, NROWS, PORT0, NPORTS, POS0, X0, OUT0, DISC0, EVENT0, EDGE = range(10)
COMMON = 10

#: the element kinds in registration order; an element kind's index here is its kind index in the buffers
REGISTRY: list[type] = []
#: entity class -> the element kinds that can be built from it, tried in order (see Element.accepts)
BUILDERS: dict[type, list[type]] = {}


class Element:
    """Base of an element kind; see the module docstring for the contract."""

    ENTITY: ClassVar[type | None] = None
    FLOATS: ClassVar[int] = 0
    INTS: ClassVar[int] = 0
    LAW_ORDER: ClassVar[int] = 0
    MODES: ClassVar[bool] = False
    OWN_KIND: ClassVar[bool] = False  # whether its registration registered its entity with the model

    def __init__(self, entity, asm):
        self.name = entity.name
        self.entity = entity
        self.row0 = self.port0 = self.pos0 = self.x0 = self.disc0 = self.event0 = self.edge = -1
        self.nrows = self.nports = self.npos = self.nx = self.ndisc = self.nevents = 0
        self.out0 = 0

    @classmethod
    def accepts(cls, entity) -> bool:
        """Whether this kind is the one to build from `entity` (several kinds may share an entity class)."""
        return True

    def link(self, asm) -> None:
        """After every element is built: references to other elements."""

    def params(self) -> tuple[list[float], list[int]]:
        """The kind-specific parameters: FLOATS floats and INTS ints."""
        return [], []

    def common(self) -> list[int]:
        """The COMMON ints of its parameter row."""
        return [self.row0, self.nrows, self.port0, self.nports, self.pos0, self.x0, self.out0, self.disc0,
                self.event0, self.edge]

    def channels(self) -> list:
        """Its result channels, in the order `outputs` writes them."""
        return []

    def support_rows(self, ports: np.ndarray) -> np.ndarray:
        """The rows whose rates are its deflection as a support, from its ports' rows (its ports x velocities):
        none for an element that supports nothing."""
        return ports[:0]

    def guard(self, values) -> str:
        """What is wrong with an output sample's values of its channels (from values[self.out0]), or ""."""
        return ""

    @property
    def kind(self) -> int:
        """Its kind index (the registry order)."""
        return REGISTRY.index(type(self))


def element(entity: type, kind=None):
    """Register the decorated Element subclass as an element kind built from `entity`.

    `kind` (core.model.kinds.ItemKind) registers `entity` with the model too (its collection, file tag and
    the app's tool entry) when the model does not know it yet.
    """

    def register(cls: type) -> type:
        cls.OWN_KIND = kind is not None and registered_kind(entity) is None
        if cls.OWN_KIND:
            register_kind(kind)
        if cls in REGISTRY:
            raise ValueError(f"{cls.__name__} is registered already")
        cls.ENTITY = entity
        REGISTRY.append(cls)
        BUILDERS.setdefault(entity, []).append(cls)
        return cls

    return register


def unregister(cls: type) -> None:
    """Take an element kind out of the registry (and its entity's model kind, if it registered one)."""
    REGISTRY.remove(cls)
    BUILDERS[cls.ENTITY].remove(cls)
    if not BUILDERS[cls.ENTITY]:
        del BUILDERS[cls.ENTITY]
    if cls.OWN_KIND:
        unregister_kind(cls.ENTITY)


def kind_of(entity) -> type:
    """The element kind to build from `entity`; TypeError naming it when none is registered."""
    for cls in BUILDERS.get(type(entity), ()):
        if cls.accepts(entity):
            return cls
    raise TypeError(f"{entity.name}: no element is registered for a {type(entity).__name__}")

