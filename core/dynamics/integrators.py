"""Time integrators in the shape of scipy.integrate.OdeSolver, on a state space with a retraction.

Each method is a subclass with its own `_step_impl`; the public `step()` owns
the status and the counters. `fun(t, y)` returns the tangent rate of y (see
state_space). METHODS maps the names used in model files and on the command line.

- ``rk4``: classical fourth-order Runge-Kutta in Munthe-Kaas form (fixed step).
- ``dopri5``: Dormand-Prince 5(4), adaptive step from rtol/atol.
- ``generalized_alpha``: the first-order generalised-alpha method (Jansen,
  Whiting and Hulbert 2000) with spectral radius rho_inf at infinity; implicit,
  second order, A-stable, damps the unresolved high frequencies of stiff
  compliant meshes. Newton on the rate with a finite-difference Jacobian that
  is kept while it converges (modified Newton).
"""

from __future__ import annotations

import numpy as np


class IntegrationError(RuntimeError):
    """The step failed; `t` is where."""

    def __init__(self, message: str, t: float):
        super().__init__(message)
        self.t = t


class Integrator:
    """Base: advance y from t towards t_bound in steps of about `step`."""

    name = "base"
    order = 0

    def __init__(self, fun, t0: float, y0: np.ndarray, t_bound: float, step: float, space, project=None, **options):
        if not step > 0:
            raise ValueError(f"step: must be above 0 s, got {step}")
        self.fun, self.space = fun, space
        self.t, self.y = float(t0), np.asarray(y0, dtype=float).copy()
        self.t_bound = float(t_bound)
        self.h = float(step)
        self.status = "running"
        self.message = ""
        self.nfev = 0
        self.nsteps = 0
        self.project = project  # optional map back onto the constraint manifold after each step
        self.options = options

    def eval(self, t, y):
        self.nfev += 1
        return self.fun(t, y)

    def step(self, t_stop: float | None = None) -> str:
        """One step (not past t_stop or t_bound). Returns the status."""
        if self.status != "running":
            raise RuntimeError("step() on an integrator that is no longer running")
        t_end = self.t_bound if t_stop is None else min(t_stop, self.t_bound)
        h = min(self.h, t_end - self.t)
        if h <= 0:
            self.status = "finished"
            return self.status
        try:
            t_new, y_new = self._step_impl(h)
        except IntegrationError as exc:
            self.status, self.message = "failed", str(exc)
            return self.status
        except (np.linalg.LinAlgError, FloatingPointError, ValueError) as exc:
            self.status, self.message = "failed", f"{type(exc).__name__} at t = {self.t:.9g} s: {exc}"
            return self.status
        if not np.all(np.isfinite(y_new)):
            self.status, self.message = "failed", f"the state became NaN or infinite at t = {t_new:.9g} s (divergence)"
            return self.status
        if self.project is not None:
            y_new = self.project(y_new)
        self.t, self.y = t_new, y_new
        self.nsteps += 1
        if self.t >= self.t_bound - 1e-12 * max(1.0, abs(self.t_bound)):
            self.status = "finished"
        return self.status

    def _step_impl(self, h: float):
        raise NotImplementedError


class RK4(Integrator):
    """Classical Runge-Kutta 4 (Munthe-Kaas: stage rates corrected by dexp^-1)."""

    name, order = "rk4", 4

    def _step_impl(self, h):
        sp, t, y = self.space, self.t, self.y
        k1 = self.eval(t, y)
        d2 = 0.5 * h * k1
        k2 = sp.correct(d2, self.eval(t + 0.5 * h, sp.retract(y, d2)))
        d3 = 0.5 * h * k2
        k3 = sp.correct(d3, self.eval(t + 0.5 * h, sp.retract(y, d3)))
        d4 = h * k3
        k4 = sp.correct(d4, self.eval(t + h, sp.retract(y, d4)))
        return t + h, sp.retract(y, (h / 6.0) * (k1 + 2 * k2 + 2 * k3 + k4))


class DormandPrince(Integrator):
    """Dormand-Prince 5(4) with step control on the tangent error (rtol, atol)."""

    name, order = "dopri5", 5
    C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    A = [
        [],
        [1 / 5],
        [3 / 40, 9 / 40],
        [44 / 45, -56 / 15, 32 / 9],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
    ]
    B = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
    E = np.array([71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40])

    def __init__(self, *args, rtol: float = 1e-8, atol: float = 1e-10, adaptive: bool = True, **kw):
        super().__init__(*args, **kw)
        self.rtol, self.atol, self.adaptive = rtol, atol, adaptive
        self.h_min = 1e-14 * max(1.0, abs(self.t_bound))

    def _try(self, h):
        sp, t, y = self.space, self.t, self.y
        ks = []
        for i in range(7):
            d = h * sum(a * k for a, k in zip(self.A[i], ks)) if i else np.zeros(sp.tangent_size)
            rate = self.eval(t + self.C[i] * h, sp.retract(y, d))
            ks.append(sp.correct(d, rate) if i else rate)
        d5 = h * sum(b * k for b, k in zip(self.B, ks))
        err = h * sum(e * k for e, k in zip(self.E, ks))
        return d5, err

    def _step_impl(self, h):
        while True:
            d5, err = self._try(h)
            if not self.adaptive:
                return self.t + h, self.space.retract(self.y, d5)
            scale = self.atol + self.rtol * np.abs(d5)  # error relative to the step's own increment
            ratio = float(np.sqrt(np.mean((err / scale) ** 2)))
            factor = 0.9 * ratio ** (-0.2) if ratio > 0 else 5.0
            if ratio <= 1.0:
                self.h = h * min(5.0, max(0.2, factor))
                return self.t + h, self.space.retract(self.y, d5)
            h *= max(0.2, factor)
            if h < self.h_min:
                raise IntegrationError(f"step size fell below {self.h_min:.3g} s at t = {self.t:.9g} s", self.t)


class GeneralizedAlpha(Integrator):
    """First-order generalised-alpha (implicit, second order); rho_inf in [0, 1]."""

    name, order = "generalized_alpha", 2

    def __init__(self, *args, rho_inf: float = 0.5, newton_tol: float = 1e-10, max_newton: int = 25, **kw):
        super().__init__(*args, **kw)
        r = float(rho_inf)
        self.am = 0.5 * (3 - r) / (1 + r)
        self.af = 1.0 / (1 + r)
        self.gamma = 0.5 + self.am - self.af
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self.rate = None
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

    def _step_impl(self, h):
        sp, t, y = self.space, self.t, self.y
        if self.rate is None:
            self.rate = self.eval(t, y)
        r0 = self.rate
        k = r0.copy()
        t_af = t + self.af * h
        for attempt in range(2):
            if self.jac is None or attempt == 1:
                y_mid = sp.retract(y, self.af * h * r0)
                self.jac = self._jacobian(t_af, y_mid, self.eval(t_af, y_mid))
                self.jac_h = None
            if self.jac_h != h:
                self.lu_matrix = self.am * np.eye(sp.tangent_size) - self.af * self.gamma * h * self.jac
                self.jac_h = h
            k = r0.copy()
            for _ in range(self.max_newton):
                inc = h * (r0 + self.gamma * (k - r0))
                f = self.eval(t_af, sp.retract(y, self.af * inc))
                res = r0 + self.am * (k - r0) - f
                dk = np.linalg.solve(self.lu_matrix, -res)
                k += dk
                if np.linalg.norm(dk) <= self.newton_tol * (1.0 + np.linalg.norm(k)):
                    inc = h * (r0 + self.gamma * (k - r0))
                    self.rate = k
                    return t + h, sp.retract(y, inc)
        raise IntegrationError(f"Newton iterations did not converge at t = {t:.9g} s (step {h:.3g} s)", t)


METHODS = {cls.name: cls for cls in (RK4, DormandPrince, GeneralizedAlpha)}


def make_integrator(name: str, *args, **kw) -> Integrator:
    """An integrator by its METHODS name; unknown names raise ValueError listing the choices."""
    try:
        cls = METHODS[name]
    except KeyError:
        raise ValueError(f"integrator: must be one of {', '.join(METHODS)}, got {name!r}") from None
    return cls(*args, **kw)
