"""A simulation run: prepared from a frozen copy of the model, advanced in chunks, cancellable, results so far.

    run = prepare(model, t_end=0.5)          # validate, copy, assemble, start state
    while run.advance(max_seconds=0.05):     # a chunk of steps at a time
        show(run.take())                     # the samples since the last take
    run.results.status                       # 'finished', 'failed' or 'cancelled'

`prepare` takes a copy of the model's containers (the entities are frozen), so
nothing the caller does to its model afterwards reaches the run. The run checks
its cancel flag before every step (and the integrator before every attempt),
reports progress by solver time at a throttled rate, samples the outputs on
the output grid by interpolating each step's dense output, locates events on
the same interpolant, and keeps every sample computed when it fails or is
cancelled, with the reason and the time in `results.message`.

A sample's channels and poses are worked out as it is recorded (one kernel
call), so `take()` always has them. Where nothing is looked at between steps
(no sample due, no event), the solver takes them in one call (`Integrator.leap`).
"""

from __future__ import annotations

import dataclasses
import math
import time as _clock
import traceback

import numpy as np

from core.dynamics.checks import DriftWatch, Violation, drift_tolerances, idle_settings, step_findings, system_findings
from core.dynamics.elements.base import Element
from core.dynamics.events import crossed, law_breaks, locate
from core.dynamics.formulations import assemble
from core.dynamics.integrators import METHODS, make_integrator
from core.dynamics.mesh_sampling import MeshSampling
from core.dynamics.plan import Plan, step_plan
from core.dynamics.program.choice import choose_program
from core.dynamics.program.linker import CompileError, program
from core.dynamics.results.channels import tooth_forces_first
from core.dynamics.results.results import Results
from core.errors import ModelError, ModesError
from core.model.entities import SimulationSettings
from core.model.files import encode, model_to_dict
from core.model.model import Model
from core.validation import validate
from core.wording import counted

SETTINGS_FIELDS = {f.name for f in dataclasses.fields(SimulationSettings)}
COMPILED = ("auto", "on", "off")
# steps a solver may take in one call between two looks at the cancel flag and the clock (Integrator.leap):
# some 2 ms compiled
LEAP_STEPS = 256
#: Times the same event may fire at the same instant before the run fails (its modes do not settle there)
REPEATS = 8


def effective_settings(model: Model, **overrides) -> tuple[SimulationSettings, dict]:
    """The model's settings with the given overrides (None keeps the model's), and the leftover integrator options.

    Overrides that are settings fields (t_end, step, output_step, integrator,
    rtol, atol, rho_inf, formulation, ...) are checked like a model file's
    settings: a bad value raises ModelError naming ``settings.<field>``.
    Other keywords are passed to the integrator as they are.
    """
    given = {k: v for k, v in overrides.items() if v is not None}
    fields = {k: v for k, v in given.items() if k in SETTINGS_FIELDS}
    extra = {k: v for k, v in given.items() if k not in SETTINGS_FIELDS}
    settings = dataclasses.replace(model.settings, **fields)
    problems = settings.problems()
    if problems:
        name, msg = problems[0]
        raise ModelError(f"settings.{name}", msg)
    return settings, extra


def refuse(errors: list) -> None:
    """A ModelError for validation's errors (core.validation.Finding), if any: each item and its message."""
    if errors:
        raise ModelError.of([(f.item, f.message) for f in errors],
                            f"the model has {counted(len(errors), 'error')}; first: {errors[0].severity}: ")


class Run:
    """One simulation of a frozen copy of a model. See the module docstring.

    Parameters
    ----------
    model : Model
        Copied at once; later edits of it do not reach the run.
    settings : SimulationSettings
        Effective settings (see `effective_settings`).
    options : dict
        Extra integrator options (e.g. ``adaptive=False`` for dopri5).
    check : bool
        Refuse a model with validation errors.
    keep : bool
        Keep the samples in `results` (True), or only hand them out by `take()`
        (a GUI grows its own copy on its own thread).
    progress : callable(fraction, message), optional
        Called at most every `progress_interval` seconds of wall time, and at the end.
    compiled : {'auto', 'on', 'off'}
        Run the kernels compiled (numba) or as Python (see core.dynamics.program.choice): the same code, each
        step the same to round-off (an adaptive method's steps can part where a step's error is within round-off
        of its bound; the results then agree to the tolerance). `plan` (core.dynamics.plan.Plan) says what was
        chosen and why; it goes into the results' settings.
    """

    progress_interval = 0.1  # s of wall time

    def __init__(self, model: Model, settings: SimulationSettings, options: dict | None = None, check: bool = True,
                 keep: bool = True, progress=None, compiled: str = "auto"):
        if compiled not in COMPILED:  # before any work
            raise ValueError(f"compiled: must be one of {', '.join(COMPILED)}, got {compiled!r}")
        self.model = model.copy()
        self.model.settings = settings
        self.settings = settings
        self.keep, self.progress = keep, progress
        self._cancel = False
        self._cancel_check = None
        self.traceback = ""
        findings = []
        if check:
            refuse(validate(self.model, errors_only=True))
        code, why = choose_program(settings, compiled)
        try:
            system = self.system = assemble(self.model, compiled=code)
        except CompileError:
            raise
        except Exception as exc:  # compiling failed (numba's errors): 'on' says so, 'auto' runs in Python
            if not code.compiled or type(exc).__module__.split(".")[0] != "numba":
                raise
            if compiled == "on":
                raise CompileError(f"compiled: {code.culprit(exc)}") from None
            why = f"compiling failed: {code.culprit(exc)}"
            system = self.system = assemble(self.model, compiled=program(False))
        system.kernel.program.ready = True  # assembling ran its entry points: checks may take it without waiting
        if check:
            refuse([f for f in system_findings(system) if f.severity == "error"])
        given = system.initial_state()
        y0, change = system.consistent_velocities(given)
        if change > 1e-9:
            findings.append(system.projection_note(given, y0))
        if settings.static_equilibrium:
            y0, note = system.mesh_equilibrium(y0)
            if note:
                findings.append(note)
        try:
            y0, notes = system.start(y0)  # the first mode of each element with modes
        except ModesError as exc:  # at the start there is no run to fail: the model cannot run as it stands
            where = [(system.path_of(name), str(exc)) for name in exc.items[:1]]
            raise ModelError.of(where or [("", str(exc))]) from None
        findings += notes
        unused = settings.unused_options()
        if unused:
            findings.append(f"not used by {settings.integrator}: {', '.join(f'settings.{u}' for u in unused)}")
        findings += idle_settings(system, settings)
        opts = {**settings.integrator_options(), **(options or {})}
        self.events = system.events()
        if self.events and "max_step" in METHODS[settings.integrator].OPTIONS:
            # an event is seen only where its function changes sign between two steps' ends
            opts.setdefault("max_step", settings.step)
        self.solver = make_integrator(settings.integrator, system.evaluate, 0.0, y0, settings.t_end, settings.step,
                                      system.space, project=system.onto_constraints,
                                      **opts)
        self.solver.stop_requested = self.cancel_requested
        self.solver.kernel = system.kernel
        # the next one last: a table's thousand rows are popped in O(1) each
        self._law_breaks = law_breaks(self.model, settings.t_end)[::-1]
        self._bound()
        self._order = tooth_forces_first(system.channel_records)
        self.plan = Plan(system.formulation, self.formulation_why(settings.formulation), code.compiled, why,
                         system.constant_note,
                         step_plan(settings.integrator, code.compiled, bool(self.events),
                                   bool(self.solver.options.get("adaptive", True))),
                         "compiled" if code.compiled else "Python")
        effective = encode(settings)
        effective.update(formulation=system.formulation, integrator_options=self.solver.options,
                         plan=self.plan.as_dict())
        self.results = Results([system.channel_records[i] for i in self._order], system.names,
                               lambda model=self.model: model_to_dict(model), effective)
        self.results.findings = findings
        self._pending: list = []  # samples recorded, not yet taken
        self._tolerances = drift_tolerances(self.model)
        self._watch = DriftWatch(system, *self._tolerances[:2])
        self._violation: tuple[float, Violation] | None = None
        self._guarded = [e for e in system.elements if type(e).guard is not Element.guard]
        self._broken: tuple[float, str, str] | None = None  # the first sample an element's guard refused
        self._meshes = MeshSampling(self.model, [c.name for c in system.channel_records], settings.output_step)
        self._record(0.0, y0)
        self.n_grid = int(math.floor(settings.t_end / settings.output_step * (1 + 1e-12) + 1e-9)) + 1
        self._k = 1  # next output sample on the grid
        self._g = [ev.fun(0.0, y0) for ev in self.events]
        self._last_event = (math.nan, {})  # the time of the last terminal event, and how often each fired then
        self._last_report = -math.inf
        self.wall_time = 0.0
        if self.keep:
            self._flush()

    # ------------------------------------------------------------------ control

    def formulation_why(self, setting: str) -> str:
        """Why the run has its formulation: the setting, or what 'auto' found."""
        if setting != "auto":
            return "the model's setting"
        if self.system.formulation == "joint":
            return "auto: every body hangs from the ground on revolute and fixed joints"
        return "auto: a body is not joined to the ground by revolute and fixed joints"

    def cancel(self) -> None:
        """Ask the run to stop; it stops before its next step (thread-safe: it only sets a flag)."""
        self._cancel = True

    def cancel_requested(self) -> bool:
        if not self._cancel and self._cancel_check is not None and self._cancel_check():
            self._cancel = True
        return self._cancel

    @property
    def status(self) -> str:
        return self.results.status

    @property
    def running(self) -> bool:
        return self.results.status == "running"

    @property
    def t(self) -> float:
        """Solver time [s]."""
        return self.solver.t

    @property
    def fraction(self) -> float:
        return min(1.0, self.solver.t / self.settings.t_end)

    # ------------------------------------------------------------------ samples

    def _record(self, t: float, y: np.ndarray, within: tuple[float, float] | None = None) -> None:
        """Record the output sample at (t, y): its channels and poses, and the worst constraint drift there.
        `within`: the step (its start and end [s]) whose interpolant gave y, when t is not one of its ends."""
        values, origins, quats, phi = self.system.sample(t, y)
        self._pending.append((t, values[self._order], origins, quats))
        self._meshes.see(t, values)
        if t > 0 and self._violation is None:
            worst = self._watch.worst(y, phi)
            if worst is not None:
                self._violation = (t, worst)
        for e in self._guarded if self._broken is None else ():
            broken = e.guard(values)
            if broken:  # the events look at a step's ends only: say so for a sample between them
                where = (f", inside a step (from {within[0]:.9g} s to {within[1]:.9g} s): a mode that changes and "
                         f"comes back within a step is not seen, a smaller settings.step resolves it" if within else "")
                self._broken = (t, f"{e.name}: {broken}", where)

    def _check_drift(self) -> bool:
        """Finish as failed when a recorded sample broke a constraint tolerance or an element's guard; True then."""
        if self._broken is not None:
            t, what, where = self._broken
            self._finish("failed", f"{what} at t = {t:.9g} s{where} ({self._kept()})")
            return True
        if self._violation is None:
            return False
        t, worst = self._violation
        # the drift is the integration's error along the constraints: a closer integration is the remedy
        self._finish("failed", f"constraint drift at t = {t:.6g} s: {worst.describe()} (settings.drift_tolerance: "
                               f"{self._tolerances[2]}); a smaller settings.step, or an adaptive integrator (dop853) "
                               f"with its rtol, integrates closer to the constraints ({self._kept()})")
        return True

    def take(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """The samples recorded since the last take: time (m,), data (m, c), positions (m, b, 3), orientations
        (m, b, 4)."""
        if not self._pending:
            return None
        t, data, pos, quat = zip(*self._pending)
        self._pending = []
        return np.array(t), np.array(data), np.array(pos), np.array(quat)

    def _flush(self) -> None:
        chunk = self.take()
        if chunk is not None:
            self.results.append(*chunk)

    def _grid_time(self, k: int) -> float:
        return self.settings.t_end if k >= self.n_grid else min(k * self.settings.output_step, self.settings.t_end)

    def _sample_through(self, t_stop: float, sol) -> None:
        """Record the output samples up to and including t_stop."""
        tol = 1e-9 * self.settings.step
        last = self.n_grid + (1 if self._grid_time(self.n_grid - 1) < self.settings.t_end - tol else 0)
        while self._k < last:
            tk = self._grid_time(self._k)
            if tk > t_stop + tol:
                break
            if abs(tk - self.solver.t) <= tol:
                self._record(tk, self.solver.y)
            else:
                self._record(tk, sol(tk), (self.solver.t_old, self.solver.t))
            self._k += 1

    # ------------------------------------------------------------------ advancing

    def _finish(self, status: str, message: str = "") -> None:
        res = self.results
        if status == "failed":  # a step RK4 cannot hold is the likeliest cause of a drift or a blow-up: say so
            message += "".join(f"; {f.message}" for f in step_findings(self.system, self.settings))
        res.status, res.message = status, message
        aliased = self._meshes.note() if status != "failed" else ""  # a failed run's last samples may have diverged
        if aliased:
            res.findings.append(aliased)
        res.findings += self.solver.notes()
        res.steps, res.evaluations = self.solver.nsteps, self.solver.nfev

    def _kept(self) -> str:
        last = self._pending[-1][0] if self._pending else (self.results.time[-1] if len(self.results) else 0.0)
        return f"results kept up to t = {last:.6g} s"

    def advance(self, max_seconds: float | None = None, max_steps: int | None = None) -> bool:
        """Take steps until the run ends, `max_seconds` of wall time or `max_steps` steps; True while it goes on."""
        if not self.running:
            return False
        start = _clock.perf_counter()
        try:
            with np.errstate(over="ignore", invalid="ignore"):  # a diverging step is caught by the finite check
                self._steps(start, max_seconds, max_steps)
        except np.linalg.LinAlgError as exc:
            self._finish("failed", f"singular system at t = {self.solver.t:.9g} s: {exc} ({self._kept()})")
        except ModesError as exc:
            self._finish("failed", f"{exc} ({self._kept()})")
        except Exception as exc:  # a defect must not lose the run: say what and where, keep the samples
            self.traceback = traceback.format_exc()
            self._finish("failed", f"internal error at t = {self.solver.t:.9g} s: {type(exc).__name__}: {exc} "
                                   f"({self._kept()})")
        self.wall_time += _clock.perf_counter() - start
        if not self.running and self.progress:
            self.progress(self.fraction, self.results.summary())
        if self.keep:
            self._flush()
        return self.running

    def _steps(self, start: float, max_seconds: float | None, max_steps: int | None) -> None:
        """advance()'s loop, inside one floating-point error state (entering one costs 2 us: once per step it
        was a tenth of a compiled step)."""
        steps = 0
        while self.running:
            if self.cancel_requested():
                self._finish("cancelled", f"cancelled at t = {self.solver.t:.6g} s ({self._kept()})")
                break
            if not self.events:  # the steps before the next sample, in one call where the solver can
                budget = LEAP_STEPS if max_steps is None else min(LEAP_STEPS, max_steps - steps - 1)
                steps += self.solver.leap(self._grid_time(self._k), budget)
            if self._one_step():
                break
            steps += 1
            now = _clock.perf_counter()
            self._report(now)
            if ((max_steps is not None and steps >= max_steps)
                    or (max_seconds is not None and now - start >= max_seconds)):
                break

    def _report(self, now: float) -> None:
        if self.progress and now - self._last_report >= self.progress_interval:
            self._last_report = now
            self.progress(self.fraction, f"t = {self.solver.t:.4g} s")

    def _one_step(self) -> bool:
        """One integrator step with its samples and events; True when the run ended."""
        solver = self.solver
        message = solver.step()
        if message is not None:
            if self.cancel_requested():
                self._finish("cancelled", f"cancelled at t = {solver.t:.6g} s ({self._kept()})")
            else:
                self._finish("failed", f"{message} ({self._kept()})")
            return True
        sol = None
        if self.events:
            sol = solver.dense_output()
            g_new = [ev.fun(solver.t, solver.y) for ev in self.events]
            t0, fired = self._last_event
            again = fired if abs(solver.t_old - t0) <= 1e-9 * self.settings.step else ()
            found = locate(self.events, self._g, g_new, sol, solver.t_old, solver.t, again=again)
            terminal = found and self.events[found[-1][1]].terminal
            for te, i in found[:-1] if terminal else found:
                self.results.events.append((te, self.events[i].name, ""))
            if terminal:
                te, i = found[-1]
                self._sample_through(te, sol)
                if self._check_drift():
                    return True
                y = sol(te)
                te = self._after_repeats(te, i)
                if te is None:
                    return True
                y_new, note = self.system.on_event(i, te, y)
                self.results.events.append((te, self.events[i].name, note))
                solver.restart(te, y_new)
                # one that went past zero before te (cut off by this one) or at the switch fires there next
                self._g = [0.0 if old >= 0.0 > g and ev.direction < 0 else g
                           for ev, old, g in zip(self.events, self._g, (ev.fun(te, y_new) for ev in self.events))]
                if solver.status == "finished":  # the event fell on the stretch's end: its new state is the last one
                    return self._stretch_end(_Lazy(solver))
                return False
            self._g = g_new
        if self._grid_time(self._k) <= solver.t + 1e-9 * self.settings.step:
            self._sample_through(solver.t, sol if sol is not None else _Lazy(solver))
        if self._check_drift():
            return True
        if solver.status == "finished":
            return self._stretch_end(_Lazy(solver))
        return False

    def _bound(self) -> None:
        """End the solver's stretch just before the next time a law jumps or bends (its last stage must see the
        law before it: at a step's t_start it has stepped), or at the end time. The gap is above the samples'
        tolerance, so a sample at that time is taken after it."""
        if not self._law_breaks:
            self.solver.t_bound = self.settings.t_end
            return
        t = self._law_breaks[-1][0]
        self.solver.t_bound = t - max(1e-8 * self.settings.step, 8 * math.ulp(t))

    def _stretch_end(self, sol) -> bool:
        """The solver reached its stretch's end: the run's end, or where a law jumps or bends. There the run starts
        again from the state it reached, its speeds projected onto the constraints at the new law (a motor's speed
        that steps is an impulse; a step and what it changed are an event), and an event whose function the step
        takes across zero is handled there; True when the run ended."""
        if not self._law_breaks:
            return self._end(sol)
        t, name, how = self._law_breaks.pop()
        solver = self.solver  # carried over the gap with the rate before it: an error of the gap squared
        given = solver.space.retract(solver.y, (t - solver.t) * solver.current_rate())
        y, change = self.system.consistent_velocities(given, t)
        if change > 1e-9:
            how += ("; " if how else "") + self.system.projection_note(given, y, "the speeds were projected onto it")
        if how:
            self.results.events.append((t, name or "laws", how))
        g = [ev.fun(t, y) for ev in self.events]
        for i, ev in enumerate(self.events):
            if crossed(self._g[i], g[i], ev.direction):
                note = ""
                if ev.terminal:
                    y, note = self.system.on_event(i, t, y)
                    self._last_event = (t, {i: 0})
                self.results.events.append((t, ev.name, note))
                if ev.terminal:
                    break
        self._bound()
        self.solver.restart(t, y)
        self._g = [ev.fun(t, y) for ev in self.events]
        return False

    def _after_repeats(self, te: float, i: int) -> float | None:
        """The time to handle event i found at te: te, or just after it when the same event fired at the same
        instant before (a load that steps there: its mode is decided by the load after the step); None when
        it has fired REPEATS times at that instant (alone or in turn with others), the run then failed."""
        t0, fired = self._last_event
        if not abs(te - t0) <= 1e-9 * self.settings.step:  # (none before: t0 is NaN)
            t0, fired = te, {}
        repeats = fired.get(i, -1) + 1
        fired[i] = repeats
        self._last_event = (t0, fired)
        if not repeats:
            return te
        if repeats + 1 >= REPEATS:
            others = [self.events[k].name for k in fired if k != i]
            turns = f" in turn with {', '.join(others)}" if others else ""
            self._finish("failed", f"{self.events[i].name} at t = {te:.9g} s repeats {REPEATS} times at the "
                                   f"same instant{turns}: the modes do not settle there ({self._kept()})")
            return None
        return t0 + 1e-10 * self.settings.step * repeats

    def _end(self, sol) -> bool:
        """The last samples and the finish at t_end; True (the run ended)."""
        self._sample_through(self.settings.t_end, sol)
        if not self._check_drift():
            self._finish("finished")
        return True

    def run(self) -> Results:
        """Advance to the end (or failure, or cancel); the results."""
        while self.advance(max_seconds=1.0):
            pass
        self.results.compact()
        return self.results


class _Lazy:
    """The solver's dense output, made only if a sample falls inside the step."""

    def __init__(self, solver):
        self.solver, self.sol = solver, None

    def __call__(self, t):
        if self.sol is None:
            self.sol = self.solver.dense_output()
        return self.sol(t)


def prepare(model: Model, t_end: float | None = None, step: float | None = None, integrator: str | None = None,
            output_step: float | None = None, formulation: str | None = None, check: bool = True, keep: bool = True,
            progress=None, compiled: str = "auto", **options) -> Run:
    """A run of `model` from 0 to t_end [s]; settings default to the model's (see `effective_settings`)."""
    settings, extra = effective_settings(model, t_end=t_end, step=step, integrator=integrator,
                                         output_step=output_step, formulation=formulation, **options)
    return Run(model, settings, extra, check=check, keep=keep, progress=progress, compiled=compiled)
