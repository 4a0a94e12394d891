"""Whether a model's equations can be trusted: conditioning, locked gear loops, constraint drift during a run.

Three ways a model runs to the end and still gives a wrong answer, each found
here so that validation (before a run) or the run itself (during it) can say
so instead of reporting success:

- an effective mass matrix so ill-conditioned that its solves lose every
  digit (a body with an absurdly small inertia beside normal ones);
- a loop of gear pairs whose ratios cannot close (three external gears in a
  ring): the solver reads the extra row as "redundant" and projects every
  speed to zero;
- constraints that drift apart during the run (gear phase or joint position
  errors growing past a tolerance tied to the module).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.dynamics.constraints import GearConstraint, JointConstraint, SpeedConstraint
from core.dynamics.system import System, dense

#: Condition number of the effective mass matrix above which double precision keeps fewer than ~4 digits.
CONDITION_LIMIT = 1e12
#: Length that scales the drift tolerance when a model has no gear pair [m].
REFERENCE_LENGTH = 1e-3


def _assemble(model, formulation: str) -> System | None:
    from core.dynamics.formulations import assemble  # formulations imports this module's neighbours

    try:
        return assemble(model, formulation)
    except Exception:  # a model that cannot be assembled is reported by the structural checks
        return None


def mass_conditioning(model) -> tuple[float, str] | None:
    """(condition number, body most involved in the softest direction) of the effective mass matrix, or None.

    In joint coordinates this is the joint-space mass matrix T^T M T at the
    initial pose (every coordinate an angle or a length of one tree joint);
    when the model has no joint tree, the block-diagonal matrix of the bodies'
    rotational inertias (translations would mix kg with kg m^2). The body
    named is the one whose coordinate dominates the eigenvector of the
    smallest eigenvalue.
    """
    system = _assemble(model, "joint")
    if system is not None and getattr(system, "nq", 0):
        y = system.initial_state()
        s, t_mat, _ = system._snapshot_and_transform(y)
        mq = dense(system._joint_mass(t_mat, system._cartesian_mass(s)))
        owner = {e.coordinate: system.names[e.child] for e in system.edges if e.coordinate is not None}
        names = [owner[k] for k in range(system.nq)]
    else:
        bodies = list(model.bodies.values())
        if not bodies:
            return None
        mq = np.zeros((3 * len(bodies), 3 * len(bodies)))
        for k, b in enumerate(bodies):
            mq[3 * k:3 * k + 3, 3 * k:3 * k + 3] = np.asarray(b.inertia, float)
        names = [b.name for b in bodies for _ in range(3)]
    mq = 0.5 * (mq + mq.T)
    if not np.all(np.isfinite(mq)):
        return math.inf, names[0]
    ev, vec = np.linalg.eigh(mq)
    cond = math.inf if ev[0] <= 0 else float(ev[-1] / ev[0])
    return cond, names[int(np.argmax(np.abs(vec[:, 0])))]


def locked_loops(model, closing_pairs: list[str]) -> list[str]:
    """The rigid gear pairs of `closing_pairs` that are not implied by the other joints and pairs of their loop.

    In a loop of gears whose ratios close (a planetary set with several
    planets) the closing pair's velocity row is a combination of the others;
    when it is not, the loop adds a constraint the teeth cannot satisfy while
    turning, and the train locks. Motor rows are left out: a motor holding a
    gear does not make a loop consistent. One assembly and Jacobian serve all pairs.
    """
    if not closing_pairs:
        return []
    system = _assemble(model, "cartesian")
    if system is None:
        return []
    jac = dense(system._jacobian(0.0, system.snapshot(system.initial_state()))[0])
    rows_of = {name: list(range(r0, r0 + c.rows)) for name, (r0, c) in system._rows_of().items()
               if not isinstance(c, SpeedConstraint)}
    jac = jac / max(float(np.abs(jac).max(initial=0.0)), 1e-300)
    locked = []
    for pair in closing_pairs:
        own = rows_of.get(pair, [])
        if not own:
            continue
        others = [r for name, rows in rows_of.items() if name != pair for r in rows]
        if _rank(jac[others + own]) > _rank(jac[others]):
            locked.append(pair)
    return locked


def _rank(mat: np.ndarray) -> int:
    if mat.size == 0:
        return 0
    sv = np.linalg.svd(mat, compute_uv=False)
    return int(np.sum(sv > 1e-9 * sv.max())) if sv.max() > 0 else 0


def over(value: float, tolerance: float) -> float:
    """|value| / tolerance; infinite for a NaN or infinite value (a state that blew up)."""
    return abs(value) / tolerance if math.isfinite(value) else math.inf


@dataclass(frozen=True)
class Violation:
    """The worst constraint error at one state, against its tolerance."""

    item: str
    kind: str  # "gear phase drift", "joint position error", "joint axis error", "motor angle error"
    value: float
    unit: str
    tolerance: float

    @property
    def ratio(self) -> float:
        """`over` its tolerance."""
        return over(self.value, self.tolerance)

    def describe(self) -> str:
        return (f"{self.kind} of {self.item!r} is {abs(self.value):.3g} {self.unit}, above the tolerance "
                f"{self.tolerance:.3g} {self.unit}")


def drift_tolerances(model) -> tuple[float, float, str]:
    """(length tolerance [m], angle tolerance [rad], how the length one was set) from settings.drift_tolerance.

    The length tolerance is drift_tolerance times the smallest module of the
    model's gear pairs (1 mm without pairs); the angle tolerance is
    drift_tolerance in radians.
    """
    frac = model.settings.drift_tolerance
    modules = [p.module for p in model.gear_pairs.values()]
    ref = min(modules) if modules else REFERENCE_LENGTH
    why = (f"{frac:g} of the smallest module, {ref * 1e3:.4g} mm" if modules
           else f"{frac:g} of {REFERENCE_LENGTH * 1e3:g} mm (no gear pairs)")
    return frac * ref, frac, why


def worst_violation(system: System, y: np.ndarray, length_tol: float, angle_tol: float) -> Violation | None:
    """The constraint error at state y that is furthest over its tolerance, or None when all hold.

    Rigid gear pairs: the accumulated phase error at the pitch circle [m].
    Joints still held by constraint rows (all in Cartesian coordinates, the
    loop-closing ones in joint coordinates): the point error [m] and the axis
    error [rad]. Speed motors: the angle error [rad]. Compliant meshes deflect
    by design and are not constraints.
    """
    extra = y[system.space.e]  # gear phase errors and motor angle errors are states of their own
    s = None  # the body poses are worked out only when a joint is still held by rows
    # a compiled Cartesian system gives every row's position error in one call (a joint's do not depend on t)
    errors = system.kernel.rows(0.0, y)[2] if hasattr(system.kernel, "rows") else None
    worst: Violation | None = None

    def consider(item: str, kind: str, value: float, unit: str, tolerance: float) -> None:
        # a Violation is made only for an error over its tolerance: a run checks every output sample
        nonlocal worst
        ratio = over(value, tolerance)
        if ratio > 1.0 and (worst is None or ratio > worst.ratio):
            worst = Violation(item, kind, value, unit, tolerance)

    row = 0
    for c in system.constraints:
        row += c.rows
        if isinstance(c, GearConstraint):
            consider(c.name, "gear phase drift", float(extra[c.error_index]), "m", length_tol)
        elif isinstance(c, SpeedConstraint):
            consider(c.name, "motor angle error", float(extra[c.error_index]), "rad", angle_tol)
        elif isinstance(c, JointConstraint):
            if errors is not None:
                phi = errors[row - c.rows:row]
            else:
                s = system.snapshot(y) if s is None else s
                _, _, phi = c.evaluate(s)
            consider(c.name, "joint position error", float(np.linalg.norm(phi[:3])), "m", length_tol)
            if len(phi) > 3:
                consider(c.name, "joint axis error", float(np.abs(phi[3:]).max()), "rad", angle_tol)
    return worst
