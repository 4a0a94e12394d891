"""Time integrators in the shape of scipy.integrate.OdeSolver, on a state space with a retraction.

`fun(t, y)` returns the tangent rate of y (see state_space): on a vector space
that is dy/dt; on the bodies' Lie group the orientation part is an angular
velocity and the state is moved by `space.retract`. METHODS maps the names used
in model files and on the command line to the classes.

- ``rk4``: classical fourth-order Runge-Kutta in Munthe-Kaas form (fixed step).
- ``dopri5``: Dormand-Prince 5(4), adaptive step from rtol/atol.
- ``generalized_alpha``: the first-order generalised-alpha method (Jansen,
  Whiting and Hulbert 2000) with spectral radius rho_inf at infinity; implicit,
  second order, A-stable, damps the unresolved high frequencies of stiff
  compliant meshes. Newton on the rate with a finite-difference Jacobian that
  is kept while it converges (modified Newton).

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
   `correct` (core.dynamics.fast_path_kernel.CompiledFastPath on a vector
   space, core.dynamics.cartesian_kernel.CompiledCartesian on the bodies'
   Lie group): an explicit method may take its stages through it for its
   tableau (`kernel.stages` for stages alone, `kernel.step` for the stages,
   the increment and the error norms) instead of calling `fun` stage by
   stage, giving the same states to round-off; it counts them in `nfev` and
   keeps the first stage as the cached `current_rate()`. A method that does
   not use it keeps calling `fun`. The kernel's `project` is the same map as
   `project`.
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


#: Share of the largest rate component below which a component's Newton tolerance stops shrinking.
NEWTON_FLOOR = 1e-3
#: Attempts in a row whose Newton iterations met NaN or infinite values before an adaptive method gives up.
NONFINITE_ATTEMPTS = 4


class IntegrationError(RuntimeError):
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


def reaches(h: float, remaining: float) -> bool:
    """Whether a step of h [s] reaches a point `remaining` [s] ahead, to round-off (a step that does is ended
    there; the kernels' adaptive leaps compile it)."""
    return h >= remaining * (1.0 - 1e-9)


class Integrator:
    """Base: advance y from t0 towards t_bound. See the module docstring for the contract."""

    name = "base"
    order = 0
    evaluations = 1
    OPTIONS: dict = {}

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


def next_step(h: float, ratio: float, order: int) -> tuple[bool, float]:
    """The step controller of the adaptive methods: whether a step of size h [s] whose error is `ratio` times
    its tolerance is accepted, and the size to take next (after it, or for its retry): grown or shrunk by
    0.9 ratio^(-1 / order), by a factor of at most 5 and at least 0.2 (the kernels' leaps compile it)."""
    factor = 0.9 * ratio ** (-1.0 / order) if ratio > 0 else 5.0
    if ratio <= 1.0:
        return True, h * min(5.0, max(0.2, factor))
    return False, h * max(0.2, factor)


def dopri5_ratio(h: float, norms, size: int) -> float:
    """Dormand-Prince 5(4)'s error as a ratio to the tolerance: the RMS of its one estimate (norms: the squared
    norms of the error rows, as `Integrator._explicit_step` gives them; h unused)."""
    return math.sqrt(norms[0] / size)


def dop853_ratio(h: float, norms, size: int) -> float:
    """DOP853's error as a ratio to the tolerance, from the squared norms of its fifth- and third-order
    estimates combined as Hairer's DOP853 combines them."""
    e5, e3 = norms[0] / (h * h), norms[1] / (h * h)  # of E k, as Hairer's formula takes them
    if e5 == 0.0 and e3 == 0.0:
        return 0.0
    return abs(h) * e5 / math.sqrt((e5 + 0.01 * e3) * size)


class RK4(Integrator):
    """Classical Runge-Kutta 4 (Munthe-Kaas: stage rates corrected by dexp^-1)."""

    name, order, evaluations = "rk4", 4, 4
    OPTIONS: dict = {}
    A = np.array([[0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
    C = np.array([0.0, 0.5, 0.5, 1.0])
    B = np.array([1.0, 2.0, 2.0, 1.0]) / 6.0
    NO_ERRORS = np.zeros((0, 4))  # no error estimate

    def _step_impl(self):
        t, y = self.t, self.y
        h = self._step_to(self.h)
        d, _, _ = self._explicit_step(h, self.A, self.C, self.B, self.NO_ERRORS, 4)
        self.t, self.y = t + h, self.space.retract(y, d)
        return True, ""

    def _leap_impl(self, t_stop, max_steps):
        # the kernel's steps are the space's (retract(y, d)) with the kernel's projection (contract item 6)
        if self.kernel is None:
            return 0
        # the whole steps of h that end before t_stop by more than round-off: step() takes the one that reaches
        # or passes it (a sample there, the last step shortened to t_bound)
        steps = min(max_steps, math.ceil((t_stop - self.t) / self.h - 1e-6) - 1)
        if steps < 1:
            return 0
        k = np.empty((4, self.space.tangent_size))
        first = self._cached_first_stage(k)
        taken, t, y, t_old, y_old = self.kernel.leap(self.t, self.y, self.h, steps, self.A, self.C, self.B, k,
                                                     first)
        if taken:
            self.nfev += 4 * taken - first
            self.nsteps += taken
            self._last = (t_old, y_old, None)  # the dense output evaluates f_old if it is asked for
            self.t_old, self.t, self.y, self._f = t_old, t, y, None
        return taken


class DormandPrince(Integrator):
    """Dormand-Prince 5(4) with step control on the tangent error (rtol, atol).

    Options: rtol, atol (the error of a step relative to its own increment);
    adaptive=False takes fixed steps (for convergence studies); max_rejections
    at one time before it fails; max_step [s] caps the step (a run with events
    sets it, as an event function that crosses zero and back within one step
    is not seen).
    """

    name, order, evaluations = "dopri5", 5, 6
    OPTIONS = {"rtol": 1e-8, "atol": 1e-10, "adaptive": True, "max_rejections": 60, "max_step": np.inf}
    C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    A = np.array([
        [0, 0, 0, 0, 0, 0, 0],
        [1 / 5, 0, 0, 0, 0, 0, 0],
        [3 / 40, 9 / 40, 0, 0, 0, 0, 0],
        [44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
    ])
    B = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
    E = np.array([[71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40]])  # one estimate

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rtol, self.atol = float(self.options["rtol"]), float(self.options["atol"])
        self.adaptive = bool(self.options["adaptive"])
        self.max_rejections = int(self.options["max_rejections"])
        self.max_step = float(self.options["max_step"])
        self.h_min = 1e-14 * max(1.0, abs(self.t_bound))

    #: The error estimate is O(h^ERROR_ORDER): a step grows or shrinks by 0.9 ratio^(-1 / ERROR_ORDER).
    ERROR_ORDER = 5

    ratio = staticmethod(dopri5_ratio)  # the error's ratio to the tolerance from the error rows' norms
    KERNEL_METHOD = 0  # which ratio a kernel's adaptive leap takes (0 dopri5_ratio, 1 dop853_ratio)

    def _tableau(self):
        """(a, c, b, error rows, stages per attempt) of a step."""
        return self.A, self.C, self.B, self.E, 7

    def _leap_impl(self, t_stop, max_steps):
        # accepted steps in one compiled call, each as _step_impl takes it (contract item 7)
        leap = getattr(self.kernel, "leap_adaptive", None)
        if leap is None or not self.adaptive:
            return 0
        a, c, b, errors, stop = self._tableau()
        k = np.empty((len(a), self.space.tangent_size))
        first = self._cached_first_stage(k)
        taken, t, y, h, t_old, y_old, h_last, d_last, k_last, evaluations, failed = leap(
            self.t, self.y, self.h, t_stop, max_steps, a, c, b, errors, k, stop, first, self.KERNEL_METHOD,
            self.ERROR_ORDER, self.rtol, self.atol, self.max_step, self.h_min, self.max_rejections)
        self.nfev += evaluations
        self.nfailed += failed
        if taken:
            self.nsteps += taken
            self._last = (t_old, y_old, k_last[0].copy())
            self.t_old, self.t, self.y, self.h, self._f = t_old, t, y, h, None
            self._remember(h_last, d_last, k_last)
        return taken

    def _remember(self, h, d, k) -> None:
        """A method's memory of the last step it tried (size h [s], increment d, stages k)."""

    def _try(self, h):
        """A step of size h from (t, y): its tangent increment and the error's ratio to the tolerance (the
        error relative to the step's own increment, atol + rtol |d|)."""
        a, c, b, errors, stop = self._tableau()
        d, norms, k = self._explicit_step(h, a, c, b, errors, stop, self.rtol, self.atol)
        self._remember(h, d, k)
        return d, (self.ratio(h, norms, d.size) if self.adaptive else 0.0)

    def _step_impl(self):
        h = self._step_to(min(self.h, self.max_step))
        for attempt in range(self.max_rejections + 1):
            if attempt and self._stopped():
                return False, f"stopped at t = {self.t:.9g} s"
            d5, ratio = self._try(h)
            if not self.adaptive:
                self.t, self.y = self.t + h, self.space.retract(self.y, d5)
                return True, ""
            if not math.isfinite(ratio):
                return False, (f"the error estimate is not finite at t = {self.t:.9g} s (step {h:.3g} s): "
                               "the state or its rate became NaN or infinite")
            accepted, h_next = next_step(h, ratio, self.ERROR_ORDER)
            if accepted:
                self.h = h_next
                self.t, self.y = self.t + h, self.space.retract(self.y, d5)
                return True, ""
            self.nfailed += 1
            h = h_next
            if h < self.h_min:
                return False, f"step size fell below {self.h_min:.3g} s at t = {self.t:.9g} s"
        return False, f"{self.max_rejections} rejected steps in a row at t = {self.t:.9g} s (last step {h:.3g} s)"


class DormandPrince853(DormandPrince):
    """Dormand-Prince 8(5,3): eighth order, 12 stages and one more at the step's end, with the step controlled
    by its fifth- and third-order error estimates combined, and a seventh-order dense output (three more
    stages, taken only for a step that holds an output sample or an event). Hairer, Norsett and Wanner,
    Solving Ordinary Differential Equations I, 2nd ed., sec. II.5 and II.10 (their DOP853).

    For long runs at tight tolerances (a compliant mesh resolved to 1e-6 of its transmission error): per
    unit of accuracy it needs several times fewer evaluations than dopri5 there. The coefficients are the
    published ones as scipy ships them (scipy.integrate._ivp.dop853_coefficients: scipy is a dependency
    already, and a hand-typed copy of some 200 long rationals would be the likelier source of a defect).

    Options as dopri5: rtol, atol (the error of a step relative to its own increment), adaptive=False for
    fixed steps, max_rejections, max_step [s].
    """

    name, order, evaluations = "dop853", 8, 12
    ERROR_ORDER = 8

    def __init__(self, *args, **kw):
        from scipy.integrate._ivp import dop853_coefficients as tableau

        self.tableau = tableau
        super().__init__(*args, **kw)

    def _reset(self):
        self._last_stages = None  # (h, tangent increment, stages) of the last step tried, for the dense output
        self._poly = None  # the interpolant's coefficients over the last step, once asked for

    ratio = staticmethod(dop853_ratio)
    KERNEL_METHOD = 1

    def _tableau(self):
        # stages 0 .. 12; the last is the rate at the step's end (A[12, :12] = B, C[12] = 1)
        tb = self.tableau
        if self._errors is None:
            self._errors = np.ascontiguousarray(np.vstack([tb.E5, tb.E3]))
        return tb.A, tb.C, tb.B, self._errors, tb.N_STAGES + 1

    def _remember(self, h, d, k) -> None:
        self._last_stages, self._poly = (h, d, k), None

    _errors = None  # E5 and E3 as the rows of one array

    def _dense_output_impl(self):
        t_old, y_old, _ = self._last
        if self._poly is None:  # the three extra stages of the interpolant, once per step
            tb = self.tableau
            h, d, k = self._last_stages
            self._stages(t_old, y_old, h, tb.A, tb.C, k, tb.N_STAGES + 1, tb.N_STAGES_EXTENDED)
            f_old, f_new = k[0], k[tb.N_STAGES]
            poly = np.empty((tb.INTERPOLATOR_POWER, k.shape[1]))
            poly[0] = d
            poly[1] = h * f_old - d
            poly[2] = 2.0 * d - h * (f_new + f_old)
            poly[3:] = h * (tb.D @ k)
            self._poly = poly
        return PolynomialOutput(t_old, self.t, y_old, self._poly, self.space)


class PolynomialOutput(DenseOutput):
    """DOP853's dense output: y(t) = retract(y_old, p(x)), x = (t - t_old) / h, with p in the nested form
    p = x (F0 + (1 - x) (F1 + x (F2 + (1 - x) (F3 + ...)))) of Hairer's CONTD8."""

    def __init__(self, t_old, t, y_old, poly, space):
        super().__init__(t_old, t)
        self.y_old, self.poly, self.space = y_old, poly, space

    def _call_impl(self, t):
        x = (t - self.t_old) / (self.t - self.t_old)
        d = np.zeros(self.poly.shape[1])
        for i, f in enumerate(self.poly[::-1]):
            d += f
            d *= x if i % 2 == 0 else 1.0 - x
        return self.space.retract(self.y_old, d)


class GeneralizedAlpha(Integrator):
    """First-order generalised-alpha (implicit, second order); rho_inf in [0, 1].

    Options: rho_inf (1 keeps every mode undamped, 0 damps the unresolved ones
    in one step); newton_tol, the change of each rate component relative to
    its own size at which Newton's iterations stop (relative, so that a state
    that grows, a planetary at 3000 rad/s, is not held to an absolute
    tolerance below its round-off), and max_newton.
    """

    name, order, evaluations = "generalized_alpha", 2, 3
    OPTIONS = {"rho_inf": 0.5, "newton_tol": 1e-8, "max_newton": 25}

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        r = float(self.options["rho_inf"])
        self.am = 0.5 * (3 - r) / (1 + r)
        self.af = 1.0 / (1 + r)
        self.gamma = 0.5 + self.am - self.af
        self.newton_tol, self.max_newton = float(self.options["newton_tol"]), int(self.options["max_newton"])

    def _reset(self):
        self.rate = None  # the method's own rate variable, carried from step to step
        self.jac = None
        self.jac_h = None

    def _jacobian(self, t, y, f0):
        sp = self.space
        n = sp.tangent_size
        jac = np.empty((n, n))
        for i in range(n):
            e = np.zeros(n)
            eps = 1e-7 * max(1.0, float(np.abs(f0[i])) * 1e-3)
            e[i] = eps
            jac[:, i] = (self.eval(t, sp.retract(y, e)) - f0) / eps
        return jac

    def _implicit(self, h):
        """(increment, rate variable) of one generalised-alpha step of size h from the current state, or None
        when Newton does not converge (the Jacobian is reused from earlier steps; None asks for a fresh one)."""
        sp, t, y, r0 = self.space, self.t, self.y, self.rate
        t_af = t + self.af * h
        if self.jac is None:
            y_mid = sp.retract(y, self.af * h * r0)
            self.jac = self._jacobian(t_af, y_mid, self.eval(t_af, y_mid))
            self.jac_h = None
        if self.jac_h != h:
            self.lu_matrix = self.am * np.eye(sp.tangent_size) - self.af * self.gamma * h * self.jac
            self.jac_h = h
        k = r0.copy()
        for _ in range(self.max_newton):
            inc = h * (r0 + self.gamma * (k - r0))
            res = r0 + self.am * (k - r0) - self.eval(t_af, sp.retract(y, self.af * inc))
            dk = np.linalg.solve(self.lu_matrix, -res)
            k += dk
            if not np.all(np.isfinite(dk)):
                self.nonfinite = True
                return None
            # converged when every component's change is newton_tol of its own size (a floor of 1e-3 of the
            # largest keeps resting components from asking for more than round-off can give)
            scale = np.abs(k) + NEWTON_FLOOR * float(np.abs(k).max()) + 1e-12
            if np.all(np.abs(dk) <= self.newton_tol * scale):
                return h * (r0 + self.gamma * (k - r0)), k
        return None

    def _step_impl(self):
        t = self.t
        h = self._step_to(self.h)
        if self.rate is None:
            self.rate = self.current_rate()
        for attempt in range(2):
            if attempt:
                if self._stopped():
                    return False, f"stopped at t = {t:.9g} s"
                self.jac = None  # the second attempt takes a fresh Jacobian
            done = self._implicit(h)
            if done is not None:
                inc, self.rate = done
                self.t, self.y = t + h, self.space.retract(self.y, inc)
                return True, ""
        return False, f"Newton iterations did not converge at t = {t:.9g} s (step {h:.3g} s)"


class AdaptiveGeneralizedAlpha(GeneralizedAlpha):
    """Generalised-alpha with its step size controlled by an estimate of the local error.

    The estimate is Milne's device: the difference between the implicit step
    and an explicit second-order (Adams-Bashforth) step from the same state,
    both O(h^3) away from the exact solution with different constants; for
    the trapezoidal limit (rho_inf = 1) the error of the implicit step is
    1/6 of that difference, which is the factor used for every rho_inf. The
    error is measured against the step's own increment (atol + rtol |dy|),
    as dopri5 does; the step grows or shrinks by 0.9 (1 / ratio)^(1/3),
    between 0.2 and 2 times, and never beyond the settings' step (the first
    step, which has no history, takes the settings' step / 10).

    Options: rho_inf, rtol, atol, newton_tol, max_newton, max_rejections.
    """

    name, order, evaluations = "generalized_alpha_adaptive", 2, 3
    OPTIONS = {"rho_inf": 1.0, "rtol": 1e-4, "atol": 1e-12, "newton_tol": 1e-8, "max_newton": 25,
               "max_rejections": 40}

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rtol, self.atol = float(self.options["rtol"]), float(self.options["atol"])
        self.max_rejections = int(self.options["max_rejections"])
        self.h_max = self.h
        self.h = 0.1 * self.h_max
        self.h_min = 1e-14 * max(1.0, abs(self.t_bound))

    def _reset(self):
        super()._reset()
        self.history = None  # (f at the previous step's start, that step's size)
        if hasattr(self, "h_max"):  # a restart (after an event) starts small again
            self.h = 0.1 * self.h_max

    def _step_impl(self):
        if self.rate is None:
            self.rate = self.current_rate()
        f_now = self.current_rate()
        if not np.all(np.isfinite(f_now)):
            return False, f"the rate is NaN or infinite at t = {self.t:.9g} s"
        h = self._step_to(min(self.h, self.h_max))
        nonfinite = 0
        for attempt in range(self.max_rejections + 1):
            if attempt and self._stopped():
                return False, f"stopped at t = {self.t:.9g} s"
            self.nonfinite = False
            done = self._implicit(h)
            nonfinite = nonfinite + 1 if self.nonfinite else 0
            if nonfinite >= NONFINITE_ATTEMPTS:
                return False, (f"the rate became NaN or infinite in Newton's iterations at {nonfinite} step sizes in "
                               f"a row, down to {h:.3g} s, at t = {self.t:.9g} s")
            if done is None:  # Newton failed: a fresh Jacobian, then a smaller step
                self.nfailed += 1
                if self.jac is not None and attempt % 2 == 0:
                    self.jac = None
                    continue
                h *= 0.25
            else:
                inc, k = done
                if self.history is None:
                    ratio = 0.0
                else:
                    f_prev, h_prev = self.history
                    w = h / (2.0 * h_prev)
                    explicit = h * ((1.0 + w) * f_now - w * f_prev)
                    err = (inc - explicit) / 6.0
                    ratio = float(np.sqrt(np.mean((err / (self.atol + self.rtol * np.abs(inc))) ** 2)))
                    if not np.isfinite(ratio):
                        return False, f"the error estimate is not finite at t = {self.t:.9g} s (step {h:.3g} s)"
                if ratio <= 1.0:
                    factor = 2.0 if ratio == 0.0 else min(2.0, max(0.2, 0.9 * ratio ** (-1.0 / 3.0)))
                    self.history = (f_now, h)
                    self.rate = k
                    self.t, self.y = self.t + h, self.space.retract(self.y, inc)
                    self.h = min(self.h_max, h * factor)
                    return True, ""
                self.nfailed += 1
                h *= max(0.2, 0.9 * ratio ** (-1.0 / 3.0))
            if h < self.h_min:
                return False, f"step size fell below {self.h_min:.3g} s at t = {self.t:.9g} s"
        return False, f"{self.max_rejections} rejected steps in a row at t = {self.t:.9g} s (last step {h:.3g} s)"


METHODS = {cls.name: cls for cls in (RK4, DormandPrince, DormandPrince853, GeneralizedAlpha, AdaptiveGeneralizedAlpha)}


def make_integrator(name: str, *args, **kw) -> Integrator:
    """An integrator by its METHODS name; unknown names raise ValueError listing the choices."""
    try:
        cls = METHODS[name]
    except KeyError:
        raise ValueError(f"integrator: must be one of {', '.join(METHODS)}, got {name!r}") from None
    return cls(*args, **kw)
