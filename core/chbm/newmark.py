"""Direct time integration of a lumped model by Newmark (gamma = 1/2, beta = 1/4): the reference.

Each period of the model (a mesh period, or a train's common period of its
meshes: LumpedModel.cycles) is cut into a whole number of steps that puts every
gap jump and mesh period's start on a step boundary. A run goes period by period until the periodic steady
state is reached: the DTE over the last period differs from the one before by
less than `rtol` times its half peak-to-peak value (plus `atol`) at every step.
A sweep carries the state (x, x') from one frequency to the next, forward or
backward, so each branch of a multi-valued response is followed as a
physical run-up or run-down would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.chbm.harmonic_balance import HarmonicBalance, sample_count
from core.chbm.lumped_model import LumpedModel

GAMMA, BETA = 0.5, 0.25


@dataclass
class PeriodicResponse:
    """Steady state of one DTI run at one mesh frequency.

    Attributes
    ----------
    frequency : float
        Mesh frequency [Hz].
    x : ndarray, shape (steps, n)
        Coordinates over the model's last period [m], at the step instants.
    velocity : ndarray, shape (steps, n)
    contact_force : ndarray, shape (steps,)
        The teeth's force along the DTE [N] (a coast flank's negative: LumpedModel.contact_sides).
    periods : int
        Periods integrated.
    converged : bool
        Whether the steady-state criterion was met.
    state : tuple of ndarray
        (x, x') at the end, to start the next frequency from.
    """

    frequency: float
    x: np.ndarray
    velocity: np.ndarray
    dte: np.ndarray
    contact_force: np.ndarray
    periods: int
    converged: bool
    state: tuple[np.ndarray, np.ndarray]

    def summary(self) -> tuple[float, float, float]:
        """Mean DTE, half peak-to-peak DTE and RMS of the fluctuating DTE [m]."""
        mean = float(self.dte.mean())
        return mean, 0.5 * float(self.dte.max() - self.dte.min()), float(np.sqrt(np.mean((self.dte - mean) ** 2)))


class NewmarkIntegrator:
    """Average-acceleration Newmark for M x'' + C x' + K x - sum_e w_e F_e(x, t) = f_ext."""

    def __init__(self, model: LumpedModel, steps_per_period: int | None = None, min_steps_per_natural: int = 64):
        self.model = model
        self.min_steps_per_natural = min_steps_per_natural
        self.fixed_steps = steps_per_period
        self.w, self.k = model.contact_arrays  # (E, n), (E,)
        self.sides = model.contact_sides
        peak = np.array([c.peak_stiffness for c in model.contacts])
        kmax = model.stiffness + np.einsum("e,ea,eb->ab", peak, self.w, self.w)
        eig = np.linalg.eigvals(np.linalg.solve(model.mass, kmax))
        self.natural_frequency = float(np.sqrt(np.abs(eig).max())) / (2 * math.pi)  # Hz, all contacts closed

    def steps_for(self, frequency: float) -> int:
        if self.fixed_steps:
            return self.fixed_steps
        need = max(256, self.min_steps_per_natural * self.natural_frequency * self.model.period(frequency))
        return sample_count(0, self.model.switch_fractions(), minimum=int(math.ceil(need)))

    def _setup(self, frequency: float):
        steps = self.steps_for(frequency)
        h = self.model.period(frequency) / steps
        fractions = (np.arange(1, steps + 1) % steps) / steps  # phase at the end of each step
        gaps = self.model.gaps(fractions).T  # (steps, E)
        stiff = self.model.stiffnesses(fractions).T  # (steps, E)
        return steps, h, np.stack([gaps, stiff], axis=1)  # (steps, 2, E): gap and stiffness per step

    def _period(self, h: float, gaps: np.ndarray, x: np.ndarray, v: np.ndarray, a: np.ndarray):
        """One period of the model from (x, v, a); returns the step histories and the final (x, v, a)."""
        m_, c_, k_, f_ = self.model.mass, self.model.damping, self.model.stiffness, self.model.force
        steps, n = gaps.shape[0], self.model.dofs
        a0 = 1.0 / (BETA * h * h)
        k_lin = a0 * m_ + (GAMMA / (BETA * h)) * c_ + k_
        xs, vs, fc = np.empty((steps, n)), np.empty((steps, n)), np.empty(steps)
        # the step's matrix inverted, per set of contact stiffnesses acting: the waveform is stepped, so a few
        # dozen sets serve the period's thousands of steps
        inverses = {}
        for i in range(steps):
            g = gaps[i]  # (2, E): gap and stiffness
            # Newmark predictor, then Newton on the displacement at the end of the step. The contact force is
            # linear in x while the same teeth touch: a Newton step that ends with the contacts it started from
            # has solved the step (to round-off), and a further iteration would only confirm it.
            xp = x + h * v + h * h * (0.5 - BETA) * a
            vp = v + h * (1 - GAMMA) * a
            xn = x
            fnl, teeth, k_on = self._contact(xn, g)
            for _ in range(30):
                key = k_on.tobytes()
                inverse = inverses.get(key)
                if inverse is None:
                    inverse = inverses[key] = np.linalg.inv(k_lin + (self.w.T * k_on) @ self.w)
                an = a0 * (xn - xp)
                r = m_ @ an + c_ @ (vp + GAMMA * h * an) + k_ @ xn + fnl - f_
                dx = -(inverse @ r)
                xn = xn + dx
                was = k_on
                fnl, teeth, k_on = self._contact(xn, g)
                if np.array_equal(k_on, was) or np.abs(dx).max() <= 1e-13 * (np.abs(xn).max() + 1e-300):
                    break
            a = a0 * (xn - xp)
            v = vp + GAMMA * h * a
            x = xn
            xs[i], vs[i], fc[i] = x, v, teeth
        return xs, vs, fc, (x, v, a)

    def _acceleration(self, x, v, gap_end):
        m_, c_, k_, f_ = self.model.mass, self.model.damping, self.model.stiffness, self.model.force
        return np.linalg.solve(m_, f_ - c_ @ v - k_ @ x - self._contact(x, gap_end)[0])

    def advance(self, frequency: float, state, periods: int = 1):
        """State (x, x') after `periods` periods of the model from `state` at phase 0."""
        steps, h, gaps = self._setup(frequency)
        x, v = (np.array(s, dtype=float) for s in state)
        a = self._acceleration(x, v, gaps[-1])
        for _ in range(periods):
            _, _, _, (x, v, a) = self._period(h, gaps, x, v, a)
        return x, v

    def run(self, frequency: float, state=None, rtol: float = 1e-7, atol: float = 1e-15,
            max_periods: int = 3000, min_periods: int = 3, cancel=None) -> PeriodicResponse | None:
        """Integrate period by period at mesh `frequency` [Hz] until steady; None when `cancel()` returned True
        before a period (a run can take thousands of periods: Ctrl-C waited for it)."""
        steps, h, gaps = self._setup(frequency)
        if state is None:
            hb_guess = HarmonicBalance(self.model, 0, samples=max(64, gaps.shape[0]))
            x, v = hb_guess.unpack(hb_guess.static_guess())[0], np.zeros(self.model.dofs)
        else:
            x, v = (np.array(s, dtype=float) for s in state)
        a = self._acceleration(x, v, gaps[-1])
        prev = None
        for period in range(1, max_periods + 1):
            if cancel and cancel():
                return None
            xs, vs, fc, (x, v, a) = self._period(h, gaps, x, v, a)
            dte = xs @ self.model.output
            if prev is not None and period >= min_periods:
                span = 0.5 * (dte.max() - dte.min())
                if np.abs(dte - prev).max() <= rtol * max(span, 1e-3 * abs(dte.mean())) + atol:
                    return PeriodicResponse(frequency, xs, vs, dte, fc, period, True, (x, v))
            prev = dte
        return PeriodicResponse(frequency, xs, vs, dte, fc, max_periods, False, (x, v))

    def _contact(self, x: np.ndarray, gap: np.ndarray):
        """Generalised contact force -sum w F, the teeth's force along the DTE (a coast flank's negative:
        LumpedModel.contact_sides) and the contact stiffnesses acting (0 where a contact is open; the force's
        tangent is w^T diag(them) w); gap is (gaps, stiffnesses)."""
        gap, k = gap
        pen = -(self.w @ x + gap)
        k_on = k * (pen > 0)
        fe = k_on * pen
        return -(self.w.T @ fe), float(self.sides @ fe), k_on

    def sweep(self, frequencies, direction: str = "forward", progress=None, cancel=None,
              **kwargs) -> list[PeriodicResponse]:
        """Steady states at `frequencies` [Hz], visited upwards ('forward') or downwards ('backward').

        `cancel()` returning True ends the sweep, within the run of a state; the states finished are returned.
        """
        order = sorted(frequencies, reverse=(direction == "backward"))
        out, state = [], None
        for i, f in enumerate(order):
            res = self.run(f, state, cancel=cancel, **kwargs)
            if res is None:
                break
            out.append(res)
            state = res.state
            if progress:
                progress((i + 1) / len(order), f"DTI {direction} {f:.0f} Hz")
        return out
