"""Time integrators in the shape of scipy.integrate.OdeSolver, on a state space with a retraction: the contract.

`fun(t, y)` returns the tangent rate of y (see state_space): on a vector space
that is dy/dt; on the bodies' Lie group the orientation part is an angular
velocity and the state is moved by `space.retract`. METHODS maps the names used
in model files and on the command line to the classes.

The methods: core.dynamics.integrators.explicit (rk4, dopri5, dop853: one
compiled step for every tableau, core.dynamics.kernels.steps) and
core.dynamics.integrators.implicit (generalised-alpha on the same rate).

The contract of a method (a subclass of `Integrator`), after scipy's OdeSolver:

1. Class attributes: `name` (the registry key), `order` (of the global error),
   `evaluations` (the typical calls of `fun` per step, for cost estimates)
   and `OPTIONS`, a dict of the keyword options it takes with their defaults.
   Any other keyword gives a warning naming it, as scipy does.
2. `_step_impl(self)` advances `self.t`, `self.y` by one step towards
   `self.t_bound` (never past it) and returns ``(success, message)``; it does
   not raise for a numerical failure (a step that cannot be taken returns
   False and says why, at what time). It may call `self.current_rate()` for
   f(t, y) at the start of the step, which is cached and shared with the
   dense output.
3. `_dense_output_impl(self)` returns a `DenseOutput` over the last step,
   [t_old, t]. The default is a cubic Hermite interpolant in the tangent
   space from the rates at both ends (third order: enough for output samples
   and event location at the orders used here).
4. The public `step()` owns `status`, `message`, `t_old`, the counters, the
   projection back onto the constraints and the check for non-finite states;
   `restart(t, y)` starts again from a new state (after an event changed the
   equations, e.g. a lossy gear switching mode): nothing from before is kept
   but the step size.
5. `stop_requested`, when set, is a callable checked before every attempt of
   a step (also inside a method's rejection loop), so a cancel is seen within
   one attempt.
6. `kernel`, when set, is `fun` compiled with the space's `retract` and
   `correct` (core.dynamics.program.kernel.Kernel: the system's program, compiled
   or not): an explicit method may take its stages through it for its
   tableau (`kernel.stages` for stages alone, `kernel.step` for the stages,
   the increment and the error norms) instead of calling `fun` stage by
   stage, giving the same states to round-off; it counts them in `nfev` and
   keeps the first stage as the cached `current_rate()`. An implicit method
   may iterate a step through it (`kernel.implicit`: generalised-alpha's
   Newton iterations on a given matrix), counting the evaluations alike. A
   method that does not use it keeps calling `fun`. The kernel's `project`
   is the same map as `project`.
7. `leap(t_stop, max_steps)` takes whole steps that end before t_stop, where
   nothing between them is looked at (no output sample, no event), in one
   call: the same states as as many `step()` calls, the counters and the
   dense output over the last one as after them. It never takes the step
   that reaches t_stop or t_bound, and returns how many it took. The default
   `_leap_impl` takes none; with a kernel, RK4 takes them compiled
   (`kernel.leap`), and dopri5 and dop853, when adaptive, their accepted
   steps with the rejected attempts between them (`kernel.leap_adaptive`,
   where the kernel has it: the controller `next_step` and the error ratios
   are compiled from this module's source), without a return to Python per
   step. An adaptive leap leaves to `step()` a step that would need more
   retries than max_rejections or fall below the least step size, so that
   step() fails it and says why.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from core.errors import GearDynError
from core.dynamics.integrators.control import reaches

#: Share of the largest rate component below which a component's Newton tolerance stops shrinking.
NEWTON_FLOOR = 1e-3
#: Attempts in a row whose Newton iterations met NaN or infinite values before an adaptive method gives up.
NONFINITE_ATTEMPTS = 4


def too_small(h_min: float, t: float, atol: float) -> str:
    """Why an adaptive method stopped when its step fell below h_min [s] at t [s], with the likeliest cause and
    the remedy: where the rate jumps, a step across the jump errs by its size times the jump whatever its size,
    and the error relative to the increment does not fall with the step; only atol lets it through."""
    return (f"step size fell below {h_min:.3g} s at t = {t:.9g} s: the error estimate did not fall with the step, "
            f"as where the rate jumps (a compliant mesh's teeth meet across its backlash, and its damping force "
            f"starts at once: a step across the jump errs by its size times the jump, which only atol lets "
            f"through); a larger atol (now {atol:g}) passes it")


class IntegrationError(GearDynError, RuntimeError):
    """A step cannot be taken; `t` is where. Raised inside methods and turned into a failed status by `step()`."""

    def __init__(self, message: str, t: float):
        super().__init__(message)
        self.t = t


class DenseOutput:
    """The solution over one step [t_old, t]; calling it with a time in that interval gives the state there."""

    def __init__(self, t_old: float, t: float):
        self.t_old, self.t = t_old, t
        self.t_min, self.t_max = min(t_old, t), max(t_old, t)

    def __call__(self, t: float) -> np.ndarray:
        return self._call_impl(float(t))

    def _call_impl(self, t: float) -> np.ndarray:
        raise NotImplementedError


class HermiteOutput(DenseOutput):
    """Cubic Hermite interpolation in the tangent space: y(t) = retract(y_old, d(t)).

    d(t_old) = 0, d(t) = the step's increment, and its slopes are the rates at
    both ends (at the end corrected by dexp^-1 for the rotation of the step),
    so the states and the rates of the interpolant agree with the solver's at
    both ends.
    """

    def __init__(self, t_old, t, y_old, y, f_old, f, space):
        super().__init__(t_old, t)
        self.h = t - t_old
        self.y_old, self.y_new, self.space = y_old, y, space
        self.delta = space.difference(y, y_old)
        self.m0 = self.h * f_old
        self.m1 = self.h * space.correct(self.delta, f)

    def _call_impl(self, t):
        if t == self.t:
            return self.y_new
        s = (t - self.t_old) / self.h if self.h else 0.0
        s2, s3 = s * s, s * s * s
        d = (s3 - 2 * s2 + s) * self.m0 + (3 * s2 - 2 * s3) * self.delta + (s3 - s2) * self.m1
        return self.space.retract(self.y_old, d)


class Integrator:
    """Base: advance y from t0 towards t_bound. See the module docstring for the contract."""

    name = "base"
    order = 0
    evaluations = 1
    OPTIONS: dict = {}
    LEAPS = False  # whether `leap` takes steps in one kernel call (contract item 7)
    ADAPTIVE = False  # whether it controls its step size (then it leaps only when adaptive)

    def __init__(self, fun, t0: float, y0: np.ndarray, t_bound: float, step: float, space, project=None, **options):
        if not step > 0:
            raise ValueError(f"step: must be above 0 s, got {step}")
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            warnings.warn(f"The following arguments have no effect for the {self.name} integrator: "
                          f"{', '.join(unknown)}", stacklevel=3)
        self.options = {**self.OPTIONS, **{k: v for k, v in options.items() if k in self.OPTIONS}}
        self.fun, self.space = fun, space
        self.t_bound = float(t_bound)
        self.h = float(step)
        self.project = project  # optional map (t, y) -> y back onto the constraint manifold after each step
        self.stop_requested = None
        self.kernel = None
        self.nfev = 0
        self.nsteps = 0
        self.nfailed = 0
        self.restart(t0, y0)

    # ------------------------------------------------------------------ state

    def restart(self, t: float, y: np.ndarray) -> None:
        """Start again from (t, y); keeps the step size and the counters, forgets everything else."""
        self.t, self.y = float(t), np.asarray(y, dtype=float).copy()
        self.t_old = None
        self._f = None
        self._last = None  # (t_old, y_old, f_old) of the last step, for the dense output
        self.status = "running" if self.t < self.t_bound else "finished"
        self.message = ""
        self._reset()

    def _reset(self) -> None:
        """A method's own memory of earlier steps, dropped on restart."""

    def notes(self) -> list[str]:
        """What the run says of how the steps went where it matters to the user (a slower way some were taken),
        each a finding in words; none here."""
        return []

    def eval(self, t, y):
        self.nfev += 1
        return self.fun(t, y)

    def current_rate(self) -> np.ndarray:
        """f(t, y) at the current state (evaluated once, then cached)."""
        if self._f is None:
            self._f = self.eval(self.t, self.y)
        return self._f

    def _stopped(self) -> bool:
        return self.stop_requested is not None and bool(self.stop_requested())

    def _step_to(self, h: float) -> float:
        """The step actually taken from t: at most h, ending exactly on t_bound near the end."""
        remaining = self.t_bound - self.t
        return remaining if reaches(h, remaining) else h

    # ------------------------------------------------------------------ public

    def step(self) -> str | None:
        """One step. Returns None, or the message when the integrator failed."""
        if self.status != "running":
            raise RuntimeError("step() on an integrator that is no longer running")
        if self._stopped():
            self.status, self.message = "failed", f"stopped at t = {self.t:.9g} s"
            return self.message
        t_old, y_old = self.t, self.y
        try:
            success, message = self._step_impl()
        except IntegrationError as exc:
            success, message = False, str(exc)
        except (np.linalg.LinAlgError, FloatingPointError) as exc:
            success, message = False, f"{type(exc).__name__} at t = {t_old:.9g} s: {exc}"
        if not success:
            self.t, self.y = t_old, y_old
            self.status, self.message = "failed", message
            return message
        if not math.isfinite(float(np.add.reduce(self.y))):  # NaN or inf anywhere (6 us less than isfinite-all)
            self.t, self.y = t_old, y_old
            self.status = "failed"
            self.message = f"the state became NaN or infinite in the step from t = {t_old:.9g} s (divergence)"
            return self.message
        if self.project is not None:
            self.y = self.project(self.t, self.y)
        self._last = (t_old, y_old, self._f)
        self._f = None
        self.t_old = t_old
        self.nsteps += 1
        if self.t >= self.t_bound:
            self.t = self.t_bound
            self.status = "finished"
        return None

    def leap(self, t_stop: float, max_steps: int) -> int:
        """At most max_steps whole steps that end before t_stop [s], in one call where the method can (contract
        item 7); the number taken (0 where it cannot)."""
        if self.status != "running" or max_steps < 1 or self._stopped():
            return 0
        return self._leap_impl(min(float(t_stop), self.t_bound), int(max_steps))

    def _leap_impl(self, t_stop: float, max_steps: int) -> int:
        return 0

    def _whole_steps(self, t_stop: float, max_steps: int) -> int:
        """How many fixed steps of h a leap takes: at most max_steps, those that end before t_stop by more than
        round-off (step() takes the one that reaches or passes it: a sample there, the last step shortened to
        t_bound)."""
        return min(max_steps, math.ceil((t_stop - self.t) / self.h - 1e-6) - 1)

    def dense_output(self) -> DenseOutput:
        """The interpolant over the last step [t_old, t]."""
        if self.t_old is None:
            raise RuntimeError("dense_output() needs at least one step since the start or the last restart")
        return self._dense_output_impl()

    def _dense_output_impl(self) -> DenseOutput:
        t_old, y_old, f_old = self._last
        if f_old is None:
            f_old = self.eval(t_old, y_old)
            self._last = (t_old, y_old, f_old)
        return HermiteOutput(t_old, self.t, y_old, self.y, f_old, self.current_rate(), self.space)

    def _step_impl(self) -> tuple[bool, str]:
        raise NotImplementedError

    def _cached_first_stage(self, k: np.ndarray) -> int:
        """k[0] from the cached rate at the start when there is one: how many stages are given (1 or 0)."""
        if self._f is None:
            return 0
        k[0] = self._f
        return 1

    def _stages(self, t, y, h, a, c, k, first, stop) -> None:
        """Stages first .. stop - 1 of the explicit Runge-Kutta tableau (a, c) from (t, y) with step h into the
        rows of k (the earlier rows given), in the tangent space (Munthe-Kaas: k_i = dexp^-1 correction of f at
        retract(y, h sum_j a_ij k_j)); through the compiled kernel when one is set (contract item 6)."""
        if self.kernel is not None:
            self.kernel.stages(t, y, h, a, c, k, first, stop)
            self.nfev += stop - first
            return
        sp = self.space
        for i in range(first, stop):
            di = h * (a[i, :i] @ k[:i])
            k[i] = sp.correct(di, self.eval(t + c[i] * h, sp.retract(y, di)))

    def _explicit_step(self, h, a, c, b, errors, stop, rtol=0.0, atol=1.0):
        """Stages 0 .. stop - 1 of the explicit Runge-Kutta tableau (a, c) from (t, y) with step h, in the
        tangent space (Munthe-Kaas: k_i = dexp^-1 correction of f at retract(y, h sum_j a_ij k_j)); the first is
        the cached `current_rate()`. Returns the increment d = h sum_j b_j k_j, per row E of `errors` the
        squared norm sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2, and the stages k (rows of a).
        Through the compiled kernel when one is set (contract item 6)."""
        t, y = self.t, self.y
        k = np.empty((len(a), self.space.tangent_size))
        if self.kernel is not None:
            first = self._cached_first_stage(k)
            d, norms = self.kernel.step(t, y, h, a, c, b, errors, k, first, stop, rtol, atol)
            self.nfev += stop - first
            self._f = k[0]
            return d, norms, k
        k[0] = self.current_rate()
        self._stages(t, y, h, a, c, k, 1, stop)
        d = h * (b @ k[:len(b)])
        scale = atol + rtol * np.abs(d)
        norms = np.array([float(np.sum((h * (e @ k[:len(e)]) / scale) ** 2)) for e in errors])
        return d, norms, k
