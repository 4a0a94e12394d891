"""The implicit methods for stiff compliant meshes: generalised-alpha (Jansen, Whiting and Hulbert 2000), fixed
step or with its step controlled by an estimate of the local error, on the system's rate (compiled or not).
"""

from __future__ import annotations

import math

import numpy as np

from core.dynamics.integrators.base import NEWTON_FLOOR, NONFINITE_ATTEMPTS, Integrator, too_small
from core.dynamics.integrators.control import least_change, newton_update
from core.wording import counted


def rate_jacobian(rate, space, t: float, y: np.ndarray, f0: np.ndarray) -> np.ndarray:
    """d rate / d y at (t, y) on the state's tangent space by forward differences, f0 = rate(t, y) (dense)."""
    n = space.tangent_size
    jac = np.empty((n, n))
    for i in range(n):
        e = np.zeros(n)
        eps = 1e-7 * max(1.0, float(np.abs(f0[i])) * 1e-3)
        e[i] = eps
        jac[:, i] = (rate(t, space.retract(y, e)) - f0) / eps
    return jac


def local_error_constant(rho_inf: float) -> float:
    """C in a generalised-alpha step's local error C h^3 (d/dt)^3 y, with spectral radius rho_inf at infinity:
    1/12 + ((1 - rho) / (1 + rho))^2 / 4, from the growth factor of its steps on y' = lambda y (the root of the
    two-step recursion near exp(h lambda)) expanded in powers of h lambda; 1/12 at rho_inf 1 (the trapezoidal
    rule), 1/9 at 0.5, 1/3 at 0."""
    return 1.0 / 12.0 + 0.25 * ((1.0 - rho_inf) / (1.0 + rho_inf)) ** 2


#: Relative change of the step size within which the iterations keep their matrix (an adaptive step changes at
#: every step; inverting costs more than the few more iterations a slightly wrong matrix takes)
MATRIX_REUSE = 0.2
#: The smallest piece of a fixed step whose iterations did not converge that the step is taken in (`_in_pieces`)
PIECES_DOWN_TO = 1.0 / 256


class GeneralizedAlpha(Integrator):
    """First-order generalised-alpha (implicit, second order); rho_inf in [0, 1].

    Options: rho_inf (1 keeps every mode undamped, 0 damps the unresolved ones
    in one step); newton_tol, the root mean square of each rate component's
    change relative to its own size at which Newton's iterations stop
    (relative, so that a state that grows, a planetary at 3000 rad/s, is not
    held to an absolute tolerance below its round-off), and max_newton.
    """

    name, order, evaluations = "generalized_alpha", 2, 3
    LEAPS = True
    OPTIONS = {"rho_inf": 0.5, "newton_tol": 1e-8, "max_newton": 25}

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        r = float(self.options["rho_inf"])
        self.am = 0.5 * (3 - r) / (1 + r)
        self.af = 1.0 / (1 + r)
        self.gamma = 0.5 + self.am - self.af
        self.newton_tol, self.max_newton = float(self.options["newton_tol"]), int(self.options["max_newton"])
        self.pieces = 0  # steps taken in pieces (`_in_pieces`)
        self.coefficients = np.array([self.am, self.af, self.gamma])

    def _reset(self):
        self.rate = None  # the method's own rate variable, carried from step to step
        self.jac = None
        self.jac_h = None

    def _jacobian(self, t, y, f0):
        return rate_jacobian(self.eval, self.space, t, y, f0)

    def _iteration_matrix(self, h):
        """The inverse of the iterations' matrix, am I - af gamma h J, for steps of size h: the states are a few
        dozen numbers, where a product with the inverse costs a microsecond and a solve's call ten."""
        self.inverse = np.linalg.inv(self.am * np.eye(self.space.tangent_size) - self.af * self.gamma * h * self.jac)
        self.jac_h = h

    def _matrix_for(self, h):
        """The iterations' matrix for steps of size h: the one in hand while h is within MATRIX_REUSE of the
        step it was made for."""
        if self.jac_h is None or abs(h - self.jac_h) > MATRIX_REUSE * self.jac_h:
            self._iteration_matrix(h)

    def _implicit(self, h, newton=False):
        """(increment, rate variable) of one generalised-alpha step of size h from the current state, or None
        when the iterations do not converge. They reuse the Jacobian of earlier steps (None asks for one at the
        step's middle); with `newton` they take it afresh at every iterate, Newton's method proper: a mesh
        that comes into contact within the step has no stiffness in a Jacobian taken before it, and the
        iterations on that one can swing between contact and separation without end. Through the kernel's
        iterations (compiled, or its program as Python) when a kernel is set and the Jacobian is held (contract
        item 6)."""
        sp, t, y, r0 = self.space, self.t, self.y, self.rate
        t_af = t + self.af * h
        if self.jac is None:
            y_mid = sp.retract(y, self.af * h * r0)
            self.jac = self._jacobian(t_af, y_mid, self.eval(t_af, y_mid))
            self.jac_h = None
        self._matrix_for(h)
        if self.kernel is not None and not newton:
            done, self.nonfinite, evaluations = self.kernel.implicit(t, y, h, r0, self.inverse, self.coefficients,
                                                                     self.newton_tol, NEWTON_FLOOR, self.max_newton)
            self.nfev += evaluations
            return done
        k, dk = r0.copy(), np.empty_like(r0)
        least = least_change(y, h * self.gamma)
        for _ in range(self.max_newton):
            y_at = sp.retract(y, self.af * h * (r0 + self.gamma * (k - r0)))
            f_at = self.eval(t_af, y_at)
            if newton:
                self.jac = self._jacobian(t_af, y_at, f_at)
                self._iteration_matrix(h)
            change = newton_update(r0, k, f_at, self.inverse, self.am, NEWTON_FLOOR, dk, least)
            if change == math.inf:
                self.nonfinite = True
                return None
            if change <= self.newton_tol:
                return h * (r0 + self.gamma * (k - r0)), k
        return None

    def _step_impl(self):
        t = self.t
        h = self._step_to(self.h)
        if self.rate is None:
            self.rate = self.current_rate()
        for attempt in range(2):
            if attempt and self._stopped():
                return False, f"stopped at t = {t:.9g} s"
            done = self._implicit(h, newton=attempt == 1)  # the second attempt: a fresh Jacobian at each iterate
            if done is not None:
                inc, self.rate = done
                self.t, self.y = t + h, self.space.retract(self.y, inc)
                return True, ""
        return self._in_pieces(h)

    def _in_pieces(self, h):
        """The step of size h whose iterations did not converge, taken in pieces of a quarter of it and smaller
        (down to PIECES_DOWN_TO of it), each from the rate itself as after an event: iterates that swing across a
        stiffness's jump (a mesh's contact count changing) close in on a shorter step. The next step starts from
        the rate as well."""
        t0, end, piece = self.t, self.t + h, 0.25 * h
        while self.t < end - 1e-12 * h:
            if self._stopped():
                return False, f"stopped at t = {self.t:.9g} s"
            piece = min(piece, end - self.t)
            self.rate = self.current_rate()
            done = self._implicit(piece, newton=True)
            if done is None:
                piece *= 0.25
                if piece < PIECES_DOWN_TO * h:
                    self.rate = None
                    return False, (f"Newton iterations did not converge at t = {self.t:.9g} s (step {h:.3g} s from "
                                   f"{t0:.9g} s, nor in pieces down to {PIECES_DOWN_TO:g} of it)")
                continue
            inc = done[0]
            self.t, self.y, self._f = self.t + piece, self.space.retract(self.y, inc), None  # (the rate there: anew)
        self.t, self.rate = end, None
        self.pieces += 1
        return True, ""

    def notes(self) -> list[str]:
        if not self.pieces:
            return []
        return [f"settings.step: {counted(self.pieces, 'step')} of {self.h:g} s were taken in pieces, their Newton "
                f"iterations not converging whole (each piece from the rate itself, and in Python: slower); a smaller "
                f"settings.step, or generalized_alpha_adaptive, takes them whole"]

    def _leap_impl(self, t_stop, max_steps):
        # the kernel's steps on the Jacobian in hand (contract item 7); the first step, which takes the
        # Jacobian, and a step whose iterations do not converge are step()'s
        steps = self._whole_steps(t_stop, max_steps)
        if self.kernel is None or self.jac is None or self.rate is None or steps < 1:
            return 0
        self._matrix_for(self.h)
        taken, t, y, t_old, y_old, rate, evaluations = self.kernel.leap_implicit(
            self.t, self.y, self.h, steps, self.rate, self.inverse, self.coefficients, self.newton_tol, NEWTON_FLOOR,
            self.max_newton)
        self.nfev += evaluations
        if taken:
            self.nsteps += taken
            self._last = (t_old, y_old, None)  # the dense output evaluates f_old if it is asked for
            self.t_old, self.t, self.y, self._f, self.rate = t_old, t, y, None, rate
        return taken


class AdaptiveGeneralizedAlpha(GeneralizedAlpha):
    """Generalised-alpha with its step size controlled by an estimate of the local error.

    The estimate is Milne's device: the difference between the implicit step
    and an explicit second-order (Adams-Bashforth) step from the same state,
    both O(h^3) away from the exact solution with different constants
    (`local_error_constant`; at rho_inf = 1, the trapezoidal rule, the
    implicit step's error is 1/6 of the difference at a constant step). The
    error is measured against the step's own increment (atol + rtol |dy|),
    as dopri5 does; the step grows or shrinks by 0.9 (1 / ratio)^(1/3),
    between 0.2 and 2 times (not grown after a retry at a smaller size), and
    never beyond the settings' step (the first step, which has no history,
    takes the settings' step / 10).

    The rate variable stands for the rate at t + (af - am) h, which depends
    on the step h (the method's second-order condition): for a step of
    another size than the last it is moved along the rate's slope, else the
    step carries an O(h^2) error that the estimate sees. A rejected step is
    tried again from the rate at its start, moved the same way. The estimate
    follows the motion it resolves: a mode faster than a few steps a period
    (a compliant mesh's) goes unseen, so the largest step resolves the
    fastest mode (core.dynamics.checks.step_findings). `error` holds the
    last step's estimated local error (None for a step without history).

    Options: rho_inf, rtol, atol, newton_tol, max_newton, max_rejections.
    """

    name, order, evaluations = "generalized_alpha_adaptive", 2, 3
    LEAPS = False  # its steps are controlled in Python, each through the kernel's iterations
    OPTIONS = {"rho_inf": 1.0, "rtol": 1e-4, "atol": 1e-12, "newton_tol": 1e-8, "max_newton": 25,
               "max_rejections": 40}

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rtol, self.atol = float(self.options["rtol"]), float(self.options["atol"])
        self.max_rejections = int(self.options["max_rejections"])
        self.h_max = self.h
        self.h = 0.1 * self.h_max
        self.h_min = 1e-14 * max(1.0, abs(self.t_bound))
        self.shift = self.af - self.am  # the rate variable's time shift per unit step
        self.constant = local_error_constant(float(self.options["rho_inf"]))

    def _leap_impl(self, t_stop, max_steps):
        return 0  # each step's size is chosen in Python

    def _reset(self):
        super()._reset()
        self.history = None  # (f at the previous step's start, that step's size)
        self.error = None
        if hasattr(self, "h_max"):  # a restart (after an event) starts small again
            self.h = 0.1 * self.h_max

    def _step_impl(self):
        if self.rate is None:
            self.rate = self.current_rate()
        f_now = self.current_rate()
        if not np.all(np.isfinite(f_now)):
            return False, f"the rate is NaN or infinite at t = {self.t:.9g} s"
        h = h_first = self._step_to(min(self.h, self.h_max))
        # the rate variable and the step size it was made for; the rate's slope over the last step
        base, made_for = self.rate, 0.0 if self.history is None else self.history[1]
        slope = None if self.history is None else (f_now - self.history[0]) / self.history[1]
        nonfinite = 0
        for attempt in range(self.max_rejections + 1):
            if attempt and self._stopped():
                return False, f"stopped at t = {self.t:.9g} s"
            self.nonfinite = False
            self.rate = base if slope is None else base + self.shift * (h - made_for) * slope
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
                err, ratio = None, 0.0
                if self.history is not None:
                    f_prev, h_prev = self.history
                    w = h / (2.0 * h_prev)
                    explicit = h * ((1.0 + w) * f_now - w * f_prev)
                    # the explicit step's error constant at this step ratio is -(1/6 + h_prev / (4 h))
                    err = (inc - explicit) * self.constant / (self.constant + 1.0 / 6.0 + h_prev / (4.0 * h))
                    ratio = float(np.sqrt(np.mean((err / (self.atol + self.rtol * np.abs(inc))) ** 2)))
                    if not np.isfinite(ratio):
                        return False, f"the error estimate is not finite at t = {self.t:.9g} s (step {h:.3g} s)"
                if ratio <= 1.0:
                    # grown by at most 2, and not at all after a smaller retry (as control.next_step)
                    factor = 2.0 if ratio == 0.0 else min(2.0, max(0.2, 0.9 * ratio ** (-1.0 / 3.0)))
                    if h < h_first:
                        factor = min(factor, 1.0)
                    self.history, self.error = (f_now, h), err
                    self.rate = k
                    self.t, self.y = self.t + h, self.space.retract(self.y, inc)
                    self.h = min(self.h_max, h * factor)
                    return True, ""
                self.nfailed += 1
                h *= max(0.2, 0.9 * ratio ** (-1.0 / 3.0))
                # start the retry from the rate itself (the rate variable of a step of size 0), as after an
                # event: where the rate jumps (teeth meet across the backlash) the rate variable lags it, and below
                # rho_inf 1 the estimate of that lag does not shrink with the step
                base, made_for = f_now, 0.0
            if h < self.h_min:
                return False, too_small(self.h_min, self.t, self.atol)
        return False, f"{self.max_rejections} rejected steps in a row at t = {self.t:.9g} s (last step {h:.3g} s)"
