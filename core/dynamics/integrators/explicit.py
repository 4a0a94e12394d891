"""The explicit Runge-Kutta methods: rk4 (fixed step) and the adaptive Dormand-Prince pairs dopri5 and dop853.

Each is its tableau; the step is one for all (`Integrator._explicit_step`, through the kernel's compiled
`step` and `leap`s: core.dynamics.kernels.steps), on the formulation's state space (Munthe-Kaas form on the
bodies' Lie group).
"""

from __future__ import annotations

import math

import numpy as np

from core.dynamics.integrators.base import DenseOutput, Integrator, too_small
from core.dynamics.integrators.control import dop853_ratio, dopri5_ratio, next_step


class RK4(Integrator):
    """Classical Runge-Kutta 4 (Munthe-Kaas: stage rates corrected by dexp^-1)."""

    name, order, evaluations = "rk4", 4, 4
    LEAPS = True
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
        steps = self._whole_steps(t_stop, max_steps)
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
    LEAPS = ADAPTIVE = True
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
            accepted, h_next = next_step(h, ratio, self.ERROR_ORDER, attempt > 0)
            if accepted:
                self.h = h_next
                self.t, self.y = self.t + h, self.space.retract(self.y, d5)
                return True, ""
            self.nfailed += 1
            h = h_next
            if h < self.h_min:
                return False, too_small(self.h_min, self.t, self.atol)
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
        # here, not at import: scipy.integrate loads scipy.optimize with it, 0.3 s of the app's start, which
        # imports every method and runs few of them with dop853
        from scipy.integrate._ivp import dop853_coefficients

        self.tableau = dop853_coefficients
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
