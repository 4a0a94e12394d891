"""Whether an assembled system's equations can be trusted: conditioning, locked gear loops, drift during a run.

Three ways a model runs to the end and still gives a wrong answer, each found on the assembly a run uses, so
that preparing the run (core.dynamics.run) or the run itself can say so instead of reporting success:

- an effective mass matrix so ill-conditioned that its solves lose every digit (a body with an absurdly small
  inertia beside normal ones);
- a loop of gear pairs whose ratios cannot close (three external gears in a ring): the solver would read the
  extra row as redundant and hold every speed at zero;
- motors that prescribe speeds the joints and gear pairs tie to each other, and prescribe ones they cannot all
  meet: the solver would meet them in the least-squares sense and drift;
- constraints that drift apart during the run (a gear's phase, a joint's point or axis, a motor's angle
  growing past a tolerance tied to the module).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from core.dynamics.buffers.layout import WORK_POWER
from core.dynamics.formulations import assemble
from core.dynamics.formulations.system import RANK_TOLERANCE, System
from core.dynamics.integrators.implicit import rate_jacobian
from core.dynamics.program.linker import loaded, program
from core.errors import ModelError
from core.model.entities import (BearingSpringDamper, CompliantMesh, SimulationSettings, SpeedMotor, SpringDamper,
                                 TorsionalSpringDamper)
from core.model.model import Model
from core.ranges import hertz
from core.wording import counted
from core.validation import SEVERITIES, Finding, closing_pairs, validate

#: Condition number of the effective mass matrix above which double precision keeps fewer than ~4 digits.
CONDITION_LIMIT = 1e12
#: Length that scales the drift tolerance when a model has no gear pair [m].
REFERENCE_LENGTH = 1e-3


def mass_conditioning(system: System) -> tuple[float, str] | None:
    """(condition number, body most involved in the softest direction) of the effective mass matrix, or None.

    In joint coordinates the joint mass matrix T^T M T at the start (every coordinate an angle of one tree
    joint); else the block-diagonal matrix of the bodies' rotational inertias (translations would mix kg with
    kg m^2). The body named is the one whose coordinate dominates the eigenvector of the smallest eigenvalue.
    """
    if getattr(system, "nq", 0):
        mq = system.rest_matrices()["mass"]
        owner = {e.coordinate: system.names[e.child] for e in system.edges if e.coordinate is not None}
        names = [owner[k] for k in range(system.nq)]
    elif system.n:
        mq = np.zeros((3 * system.n, 3 * system.n))
        for k in range(system.n):
            mq[3 * k:3 * k + 3, 3 * k:3 * k + 3] = system.asm.inertia[k]
        names = [name for name in system.names for _ in range(3)]
    else:
        return None
    mq = 0.5 * (mq + mq.T)
    if not np.all(np.isfinite(mq)):
        return math.inf, names[0]
    ev, vec = np.linalg.eigh(mq)
    cond = math.inf if ev[0] <= 0 else float(ev[-1] / ev[0])
    return cond, names[int(np.argmax(np.abs(vec[:, 0])))]


def locked_loops(system: System, pairs: list[str], jac: np.ndarray) -> list[str]:
    """The gear pairs of `pairs` whose rows are not implied by the other rows (motors left out: a motor holding
    a gear does not make a loop consistent). In a loop of gears whose ratios close (a planetary set with
    several planets) the closing pair's row is a combination of the others; when it is not, the loop adds a
    constraint the teeth cannot meet while turning, and the train locks.

    One decomposition serves every pair: a row is implied by the others exactly when some combination of the
    rows that vanishes (a left null vector of J) uses it. The left null space comes from a QR decomposition of J
    with column pivoting (rank-revealing; a fifth of the cost of the SVD for a thousand pairs). `jac`: J at the
    start (System.kernel.jacobian).
    """
    if not pairs or not system.rows:
        return []
    flags = system.asm.row_flags
    keep = [r for r in range(system.rows) if flags[r][2] != WORK_POWER]
    null = left_null_space(jac[keep])
    where = {r: i for i, r in enumerate(keep)}
    locked = []
    for name in pairs:
        element = system.asm.element_of(name)
        if element.nrows and np.abs(null[where[element.row0]]).max(initial=0.0) < 1e-8:
            locked.append(name)
    return locked


def left_null_space(jac: np.ndarray) -> np.ndarray:
    """The combinations of J's rows that vanish, as columns (m, m - rank), from one QR decomposition with column
    pivoting (rank-revealing; a fifth of the cost of the SVD for a thousand pairs)."""
    jac = jac / max(float(np.abs(jac).max(initial=0.0)), 1e-300)
    q, r, _ = scipy.linalg.qr(jac, mode="full", pivoting=True)
    diag = np.abs(np.diag(r))
    rank = int(np.sum(diag > RANK_TOLERANCE * diag[0])) if diag.size and diag[0] > 0 else 0
    return q[:, rank:]


#: weight of a motor's row in a left null vector (of unit length) below which the motor takes no part in it
MOTOR_WEIGHT = 1e-8
#: relative residual of the prescribed speeds on a left null vector above which the motors disagree
MOTOR_AGREEMENT = 1e-9


def motor_findings(system: System, jac: np.ndarray, off: np.ndarray) -> list[Finding]:
    """Motors whose rows the joints, gear pairs and other motors already imply (a left null vector of J at the
    start uses them; the other rows prescribe no speed): their speeds must agree through the ratios at every
    time, checked at 201 times over the run and at every corner of their laws. Disagreeing, an error naming one
    of them with the speed the others leave it; agreeing, a note that their torques are shared by the solver's
    minimum-norm multipliers, which the model does not determine. `jac` and `off`: J at the start and the rows
    switched off there (System.kernel.jacobian)."""
    on = [r for r in range(system.rows) if not off[r]]
    at = {r: i for i, r in enumerate(on)}
    motors = [(f, system.asm.element_of(f.name).row0) for f in system.model.forces.values()
              if isinstance(f, SpeedMotor) and system.asm.element_of(f.name).row0 in at]
    if not motors:
        return []
    weights = left_null_space(jac[on])[[at[row] for _, row in motors]]  # (motors, redundancies)
    used = np.abs(weights).max(axis=1, initial=0.0) >= MOTOR_WEIGHT  # the null vectors are of unit length
    if not used.any():
        return []
    motors, weights = [m for m, u in zip(motors, used) if u], weights[used]
    names = ", ".join(repr(f.name) for f, _ in motors)
    what = (f"the motors {names} prescribe speeds the joints and gear pairs tie to each other" if len(motors) > 1
            else f"the motor {names} prescribes a speed the joints and gear pairs already hold")
    t_end = system.model.settings.t_end
    corners = [t for f, _ in motors for t in (f.law.t_start, f.law.t_end, *(row[0] for row in f.law.table))]
    for t in sorted(set(np.linspace(0.0, t_end, 201)) | {t for t in corners if 0.0 <= t <= t_end}):
        speeds = np.array([f.law(t) for f, _ in motors])
        residual, scale = weights.T @ speeds, np.abs(weights).T @ np.abs(speeds)
        bad = np.flatnonzero(np.abs(residual) > MOTOR_AGREEMENT * np.maximum(scale, 1e-300))
        if bad.size:  # named: the last motor (in the model's order) that a broken agreement takes in
            i = max(range(len(motors)), key=lambda i: (np.abs(weights[i, bad]).max() >= MOTOR_WEIGHT, i))
            j = bad[int(np.argmax(np.abs(weights[i, bad])))]
            implied, name = speeds[i] - residual[j] / weights[i, j], motors[i][0].name
            return [Finding("error", name, f"{what}, and at t = {t:.6g} s they disagree: with the rest, {name!r} "
                            f"would turn at {implied:.6g} rad/s ({implied * 30 / math.pi:.6g} rpm), not "
                            f"{speeds[i]:.6g} rad/s. Remove the motor (a torque drives a joint without holding its "
                            "speed), or set its speed to the one the ratios give")]
    return [Finding("info", motors[-1][0].name, f"{what}; they agree, and the solver shares the torque among them by "
                    "minimum-norm multipliers (the model does not determine each one's part)")]


@dataclass(frozen=True)
class Freedom:
    """How the model's motion is counted: its formulation's velocity coordinates, the constraint rows that hold
    at the start (joints in Cartesian coordinates, gear pairs, motors), how many of them are redundant (implied
    by the others: a planetary set's loops), how many prescribe a motion (motors), and the gear pairs that mesh
    through a compliant mesh (a spring in place of the pair's row)."""

    formulation: str
    coordinates: int
    rows: int
    redundant: int
    motors: int
    sprung: tuple[str, ...] = ()

    @property
    def degrees(self) -> int:
        """Degrees of freedom left when every row holds (motors included): coordinates less independent rows."""
        return self.coordinates - (self.rows - self.redundant)

    def describe(self) -> str:
        """The count in words: '1 degree of freedom: 6 joint angles less 5 independent constraint rows (7 rows,
        2 redundant; 1 of them prescribes a motor's motion)'."""
        what = (counted(self.coordinates, "joint angle") if self.formulation == "joint"
                else counted(self.coordinates, "body velocity", "body velocities") + " (6 per body)")
        motors = ("" if not self.motors else "; 1 of them prescribes a motor's motion" if self.motors == 1
                  else f"; {self.motors} of them prescribe motors' motions")
        return (f"{counted(self.degrees, 'degree')} of freedom: {what} less "
                f"{counted(self.rows - self.redundant, 'independent constraint row')} ({counted(self.rows, 'row')}, "
                f"{self.redundant} redundant{motors})" + self._sprung())

    def _sprung(self) -> str:
        if not self.sprung:
            return ""
        pairs = ", ".join(repr(p) for p in self.sprung)
        if len(self.sprung) == 1:
            return f"; the gear pair {pairs} meshes through a compliant mesh: a spring, not a row"
        return f"; the gear pairs {pairs} mesh through compliant meshes: springs, not rows"


def freedom(system: System) -> Freedom:
    """The count of `system`'s motion at its start (a row switched off there, a rolling lossy pair's lock, is
    not counted); the rank of the rows from one pivoted QR, as in `locked_loops`."""
    jac, _, off, _ = system.kernel.jacobian(system.initial_state(), system.velocities)
    on = [r for r in range(system.rows) if not off[r]]
    jac = jac[on]
    rank = 0
    if jac.size:
        r = scipy.linalg.qr(jac / max(float(np.abs(jac).max()), 1e-300), mode="r", pivoting=True)[0]
        diag = np.abs(np.diag(r))
        rank = int(np.sum(diag > RANK_TOLERANCE * diag[0])) if diag.size and diag[0] > 0 else 0
    motors = sum(system.asm.row_flags[r][2] == WORK_POWER for r in on)
    sprung = tuple(dict.fromkeys(f.pair for f in system.model.forces.values() if isinstance(f, CompliantMesh)))
    return Freedom(system.formulation, system.velocities, len(on), len(on) - rank, motors, sprung)


def model_freedom(model: Model) -> Freedom | str:
    """`freedom` of the model as its runs assemble it, or why it cannot be counted."""
    if not model.bodies:
        return "the model has no bodies"
    if model.structural_problems():
        return "the model has structural errors (see the findings)"
    try:
        return freedom(assemble(model, compiled=loaded()))
    except ModelError as exc:
        return str(exc)


def system_findings(system: System) -> list[Finding]:
    """The checks that need the assembled equations: locked loops, motors that disagree, and the mass matrix's
    conditioning."""
    found = []
    jac, _, off, _ = system.kernel.jacobian(system.initial_state(), system.velocities)
    closing = closing_pairs(system.model)
    locked = set(locked_loops(system, [name for name, _ in closing], jac))
    for name, path in closing:
        if name in locked:
            pairs = [pn for _, pn in path] + [name]
            found.append(Finding("error", name, f"the gear pairs {', '.join(repr(pn) for pn in pairs)} close a loop "
                                 "whose ratios cannot agree: the loop locks the train (every speed would be held at "
                                 "zero). Remove one pair of the loop, or mount one of its gears on a moving carrier"))
    found += motor_findings(system, jac, off)
    conditioning = mass_conditioning(system)
    if conditioning is not None and not conditioning[0] <= CONDITION_LIMIT:
        cond, body = conditioning
        found.append(Finding("error", body, f"the effective mass matrix has a condition number of {cond:.3g} (at most "
                             f"{CONDITION_LIMIT:.0e} can be integrated in double precision); its softest direction is "
                             f"mostly {body!r}: check that body's mass and inertia"))
    return found


#: h |lambda| up to which the step advice holds RK4 stable (its region reaches 2.83 on the imaginary axis, 2.79 on
#: the real one)
RK4_REACH = 2.5
#: steps a period of the fastest mode that generalized_alpha_adaptive's largest step gives at least: its error
#: estimate sees only the motion its steps resolve
ADAPTIVE_STEPS_PER_PERIOD = 10
#: the elements whose springs and dampers make a model's fastest mode (a rigid model's is Baumgarte's, slow)
SPRINGS = (CompliantMesh, BearingSpringDamper, SpringDamper, TorsionalSpringDamper)


def fastest_rate(system: System) -> float:
    """The largest |lambda| [1/s] of the rates' Jacobian at the consistent initial state: the fastest mode of the
    assembled equations (its angular frequency where it oscillates), all couplings in (a planetary's sun on three
    compliant meshes is faster than any one mesh's mode); nan where the rates are not finite there."""
    y0 = system.consistent_initial_state()[0]
    jac = rate_jacobian(system.evaluate, system.space, 0.0, y0, system.evaluate(0.0, y0))
    if not np.isfinite(jac).all():  # rates undefined at the start (NaN geometry): no mode to speak of
        return math.nan
    return float(np.abs(np.linalg.eigvals(jac)).max(initial=0.0))


def step_findings(system: System, settings) -> list[Finding]:
    """Whether the step of `settings` suits the fastest mode of `system`, for a model with springs or dampers
    (SPRINGS): RK4 stable at it, generalized_alpha_adaptive's largest step resolving it ([] for another
    integrator, or a model without them: its equations are not stiff)."""
    if settings.integrator not in ("rk4", "generalized_alpha_adaptive") or not any(
            isinstance(f, SPRINGS) for f in system.model.forces.values()):
        return []
    rate = fastest_rate(system)
    if settings.integrator == "generalized_alpha_adaptive":
        bound = 2 * math.pi / (ADAPTIVE_STEPS_PER_PERIOD * rate)
        if not settings.step > bound:  # resolved, or no rate (nan)
            return []
        return [Finding("warning", "settings.step", f"generalized_alpha_adaptive's largest step {settings.step:.3g} s "
                        f"is more than 1/{ADAPTIVE_STEPS_PER_PERIOD} of a period of the model's fastest mode "
                        f"({hertz(rate / (2 * math.pi))} at the start, of its compliant meshes, bearings and springs): "
                        "its error estimate does not see a mode its steps do not resolve, and the run can be far "
                        f"off where that mode rings (a tooth pair's contact changes); use a largest step under "
                        f"{bound:.3g} s")]
    if not settings.step * rate > RK4_REACH:  # within reach, or no rate (nan)
        return []
    # a step just under the limit is stable, not accurate (a percent or more in the tooth forces of a compliant
    # planetary): the fix hands the step to an adaptive method, which holds settings.rtol
    return [Finding("warning", "settings.step", f"RK4 is unstable at {settings.step:.3g} s on the model's fastest mode "
                    f"({hertz(rate / (2 * math.pi))} at the start, of its compliant meshes, bearings and springs): use "
                    f"a step under {RK4_REACH / rate:.3g} s (stable; several times less resolves the mode), or "
                    "dop853, whose steps hold its tolerance rtol", fix="adaptive_steps")]


def idle_settings(system: System, settings: SimulationSettings) -> list[str]:
    """The note (a list of one, or none) of the constraint settings set away from their defaults that `system`
    gives nothing to do: the Baumgarte gains without constraint rows, the drift tolerance without a constraint
    that can drift."""
    default = SimulationSettings()
    idle = [n for n in ("baumgarte_alpha", "baumgarte_beta") if not system.rows]
    idle += ["drift_tolerance"] if not system.asm.drifts else []
    idle = [n for n in idle if getattr(settings, n) != getattr(default, n)]
    if not idle:
        return []
    tree = " (in joint coordinates every joint here is a coordinate of the tree)" * (system.formulation == "joint")
    return [f"not used: {', '.join(f'settings.{n}' for n in idle)}: the assembled equations hold no constraint{tree}"]


def check(model: Model, code=None) -> list[Finding]:
    """Every finding on `model`, errors first: the model's rules (core.validation) and, when it can be assembled,
    the checks of its equations (`system_findings`), on the program `code` (default: the compiled program when
    this process has it ready, linker.loaded; the findings are the same either way)."""
    found = validate(model)
    if model.structural_problems():  # a model that cannot be assembled: its structural errors are the findings
        return found
    try:
        system = assemble(model, compiled=code or loaded())
    except ModelError as exc:  # named as validation names items ('p', not 'gear_pairs.p'): a click selects it
        ruled = {f.item for f in found if f.severity == "error"}  # a broken rule says what to do about the item
        return [Finding("error", _item(model, path), detail) for path, detail in exc.problems
                if _item(model, path) not in ruled] + found
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(system_findings(system) + step_findings(system, model.settings) + found,
                  key=lambda f: order[f.severity])


def _item(model: Model, path: str) -> str:
    """The model item a ModelError's path names ('gear_pairs.p' -> 'p'), or the path ('model' for none)."""
    parts = path.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in model.names() else path or "model"


def load_compiled(model: Model) -> bool:
    """Load the compiled program when its kernels are in the cache (not compiling them), check `model` on it so
    that the machine code `check` calls is read, and mark it ready: from then on `check` runs compiled, several
    times faster on a large train. Whether it did. For an application that checks its model after each edit, on a
    thread of its own (a cache that does not match this machine compiles here, not in the checks)."""
    if not program(False).cached():
        return False
    try:
        code = program(True)
    except ImportError:  # numba cannot be imported: the checks stay in Python
        return False
    check(model, code)
    code.ready = True
    return True


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


def drift_tolerances(model: Model) -> tuple[float, float, str]:
    """(length tolerance [m], angle tolerance [rad], how the length one was set) from settings.drift_tolerance:
    drift_tolerance times the smallest module of the model's gear pairs (1 mm without pairs), and drift_tolerance
    in radians."""
    frac = model.settings.drift_tolerance
    modules = [p.module for p in model.gear_pairs.values()]
    ref = min(modules) if modules else REFERENCE_LENGTH
    why = (f"{frac:g} of the smallest module, {ref * 1e3:.4g} mm" if modules
           else f"{frac:g} of {REFERENCE_LENGTH * 1e3:g} mm (no gear pairs)")
    return frac * ref, frac, why


class DriftWatch:
    """The constraint errors the elements of `system` declared (core.dynamics.formulations.assembly.Assembly.drift),
    held to a length tolerance [m] and an angle tolerance [rad] at a state in a few array operations, whatever
    the number of elements (a run checks every output sample)."""

    def __init__(self, system: System, length_tol: float, angle_tol: float):
        self.system = system
        drifts = self.drifts = system.asm.drifts
        self.tolerance = np.array([length_tol if d.unit == "m" else angle_tol for d in drifts], float)
        self.extras = [k for k, d in enumerate(drifts) if d.extra >= 0]
        self.extra_index = np.array([drifts[k].extra for k in self.extras], np.int64)
        self.groups = []  # (declarations, the rows in a row, the first of each declaration's) by norm, then max
        for norm in (True, False):
            mine = [k for k, d in enumerate(drifts) if d.extra < 0 and d.norm == norm and d.rows[1] > 0]
            rows = [r for k in mine for r in range(drifts[k].rows[0], drifts[k].rows[0] + drifts[k].rows[1])]
            starts = np.cumsum([0] + [drifts[k].rows[1] for k in mine[:-1]]).astype(np.int64)
            self.groups.append((mine, np.array(rows, np.int64), starts))
        self.needs_rows = any(len(mine) for mine, _, _ in self.groups)

    def worst(self, y: np.ndarray, phi: np.ndarray | None = None) -> Violation | None:
        """The constraint error at state y furthest over its tolerance (the first declared among equals), or None
        when all hold; `phi` the rows' position errors at y when known (an output sample has them), else they
        are worked out."""
        if not self.drifts:
            return None
        value = np.zeros(len(self.drifts))
        value[self.extras] = np.abs(y[self.system.space.e][self.extra_index])
        if self.needs_rows:
            phi = self.system.rows_at(0.0, y)[1] if phi is None else phi
            for (mine, rows, starts), norm in zip(self.groups, (True, False)):
                if mine:
                    part = phi[rows]
                    value[mine] = (np.sqrt(np.add.reduceat(part * part, starts)) if norm
                                   else np.maximum.reduceat(np.abs(part), starts))
        ratio = value / self.tolerance
        ratio[~np.isfinite(ratio)] = math.inf  # a state that blew up
        k = int(np.argmax(ratio))
        if not ratio[k] > 1.0:
            return None
        d = self.drifts[k]
        return Violation(d.item, d.kind, float(value[k]), d.unit, float(self.tolerance[k]))


def worst_violation(system: System, y: np.ndarray, length_tol: float, angle_tol: float) -> Violation | None:
    """The constraint error at state y furthest over its tolerance, or None when all hold (`DriftWatch`: a rigid
    pair's phase error [m], a joint's point [m] and axis [rad] errors, a motor's angle [rad]; a compliant mesh
    deflects by design)."""
    return DriftWatch(system, length_tol, angle_tol).worst(y)
