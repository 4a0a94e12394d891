"""The contract of a formulation of the equations of motion (Cartesian, joint coordinates, or a new one).

A formulation turns a model into a state space and a rate function. The run
(core.dynamics.run), the integrators and the checks use only what is listed
here, so the Cartesian formulation (core.dynamics.system.System) and the joint
formulation (core.dynamics.joint_coordinates.JointCoordinateSystem) are
interchangeable; core.dynamics.formulations.FORMULATIONS maps their names.

1. ``formulation`` (its name), ``space`` (core.dynamics.state_space: the state
   layout and its retraction), ``names`` (the bodies), ``constraints`` and
   ``rows``, ``lossy`` (the lossy gear pairs by name).
2. ``evaluate(t, y)`` returns the tangent rate of y at time t [s], always and
   only the rate; it is a pure function of (t, y) and of the discrete state
   the events set (lossy gear modes). ``evaluate_details(t, y, channels)``
   returns ``(rate, details)`` with the multipliers ``lambda``, ``loads``,
   ``kinetic`` energy, ``snapshot`` and, with channels, the elements'
   outputs ``out``.
3. ``initial_state()``, ``consistent_initial_state()`` and
   ``consistent_velocities(y, t)`` (speeds projected onto the constraints at
   time t: state and largest change), ``project(y)`` (positions back onto
   the holonomic constraints), ``onto_constraints(t, y)`` (both, after each
   step of a run: the state only), ``mesh_equilibrium(y)`` (compliant meshes
   at their static deflection).
4. ``outputs(t, y)`` every result channel at (t, y) in a fixed order (only at
   output samples), ``channels(t, y)`` the same by label, ``poses(y)`` the
   bodies' frames for the animation, ``sample(t, y)`` both at once (the
   channels' values as an array, origins, quaternions: what a run records),
   ``snapshot(y)`` the bodies' poses and velocities, ``accelerations(t, y)``.
5. ``start(y)``, ``events()`` and ``on_event(i, t, y)``: the discrete state
   (lossy gear modes) chosen at the start, the event functions g(t, y) that
   watch it, and what happens at event i (the new state and a note).
6. ``describe()``: sizes and redundancy for ``geardyn inspect``.
7. ``ready()``: sets up what the rates need once per run (the joint fast
   path's constant matrices); a run calls it after assembly. A system made
   only for checks need not call it, and evaluate() works without it.
8. ``compile()``: take the rates from compiled code from now on (the same
   rates to round-off); None when done, else why not, in words (the model
   has an element the kernel does not cover, numba is missing). With it,
   ``compiled_form`` names what is compiled and ``compile_pays_from`` the
   evaluations from which a run's ``compiled='auto'`` compiles (numba's
   first use in a process costs about 0.7 s). ``kernel``, when not None, is
   the compiled rate with the state space's update, which the integrators may
   take whole steps through (core.dynamics.integrators, contract item 6).
   It may compile the output samples too (``sample``: the same values to
   round-off; compiled_form says whether it did).
"""

from __future__ import annotations

import numpy as np


class Equations:
    """Base of a formulation: see the module docstring for the contract."""

    formulation = ""

    def evaluate(self, t: float, y: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def evaluate_details(self, t: float, y: np.ndarray, channels: bool = True) -> tuple[np.ndarray, dict]:
        raise NotImplementedError

    def outputs(self, t: float, y: np.ndarray):
        raise NotImplementedError

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Channel values, body origins (n, 3) [m] and quaternions (n, 4) at (t, y); a formulation may share work."""
        return (self.outputs(t, y).array(), *self.poses(y))

    kernel = None
    compiled_form = ""
    compile_pays_from = 0

    def ready(self) -> None:
        """Set up what the rates need once per run (nothing here)."""

    def compile(self) -> str | None:
        """Take the rates from compiled code; None when done, else why not."""
        return "no compiled form"

    def onto_constraints(self, t: float, y: np.ndarray) -> np.ndarray:
        """y after a step at time t [s], moved back onto the constraints: positions, then speeds."""
        return self.consistent_velocities(self.project(y), t)[0]
