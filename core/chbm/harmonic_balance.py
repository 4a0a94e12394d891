"""Harmonic balance with the alternating frequency-time (AFT) scheme, and Newton at one frequency.

Unknowns are real Fourier coefficients per degree of freedom, ordered by
harmonic: X = [x0, c1, s1, ..., cH, sH], each block of length n, with
x(tau) = x0 + sum_h c_h cos(h tau) + s_h sin(h tau), tau = omega t / cycles
(omega the first mesh's angular frequency; cycles its periods in the model's
period, core.chbm.lumped_model).
Coefficients are scaled by `x_scale` [m] and residuals by `f_scale` [N] so
the unknowns and equations are of order one.

The contact forces go through the time domain: inverse real DFT to N samples
per period, element forces there, forward real DFT back. The Jacobian goes
through the same path analytically (the contact tangent is diagonal in time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from core.chbm.lumped_model import LumpedModel
from core.chbm.newton_system import NewtonSystem


#: harmonics above which the transforms take the FFT (below, one matrix product is cheaper: at 32 harmonics on
#: 768 samples the two are level)
FFT_FROM = 50

#: the shortest fraction of a Newton step `HarmonicBalance.solve` takes (where the residual's norm falls by no
#: shorter one, as at round-off, it takes that)
SHORTEST_STEP = 1.0 / 1024


def sample_count(harmonics: int, switch_fractions: list[float], minimum: int = 256) -> int:
    """N samples per period: well above 2H + 1 and a multiple that puts every gap jump and mesh phase on a sample.

    The fractions' common denominator (a power of two for the step-gap model, 3 for three phased planets)
    times the smallest power of two that reaches the minimum.
    """
    n = max(minimum, 8 * (2 * harmonics + 1))
    grid = 1
    for s in switch_fractions:
        q = Fraction(s).limit_denominator(1 << 16)
        if abs(float(q) - s) > 1e-12:
            raise ValueError(f"the gap jumps and mesh phases at {switch_fractions} of the period do not fall on a "
                             "grid of up to 65536 samples")
        grid = math.lcm(grid, q.denominator)
    if grid > 1 << 16:
        raise ValueError(f"the gap jumps and mesh phases at {switch_fractions} of the period need {grid} samples")
    return grid * (1 << max(0, math.ceil(math.log2(n / grid))))


def _product_indices(harmonics: int):
    """How each product of the real Fourier functions i and j (1, cos, sin, cos 2, ...), weighted, follows from
    the weights' means against cos(m tau) and sin(m tau), m = 0..2H (A_m, then S_m, in one row): two indices
    into that row and their signs, (2H + 1, 2H + 1) each, the forward transform's row weight included.

    With d and t the difference and sum of the two orders: cos cos = (A_|d| + A_t) / 2, cos sin =
    (S_t - sgn(d) S_|d|) / 2, sin cos = (S_t + sgn(d) S_|d|) / 2, sin sin = (A_|d| - A_t) / 2; the mean's
    row weighs 1 and the others 2.
    """
    nb = 2 * harmonics + 1
    order = np.concatenate([[0], np.repeat(np.arange(1, harmonics + 1), 2)])
    sine = np.zeros(nb, dtype=bool)
    sine[2::2] = True
    d, t = order[:, None] - order[None, :], order[:, None] + order[None, :]
    row_sine, col_sine = sine[:, None], sine[None, :]
    mixed = row_sine != col_sine  # cos sin or sin cos: the S terms
    first = np.abs(d) + nb * mixed
    second = t + nb * mixed
    weight = np.where(order == 0, 0.5, 1.0)[:, None]
    first_sign = weight * np.where(mixed, np.where(row_sine, 1.0, -1.0) * np.sign(d), 1.0)
    second_sign = weight * np.where(row_sine & col_sine, -1.0, 1.0)
    return first, first_sign, second, second_sign


@dataclass
class HarmonicBalance:
    """The HB equations of a lumped model with H harmonics on N time samples."""

    model: LumpedModel
    harmonics: int
    samples: int = 0
    x_scale: float = 0.0
    f_scale: float = 0.0

    def __post_init__(self):
        n, h = self.model.dofs, self.harmonics
        if self.samples == 0:
            self.samples = sample_count(h, self.model.switch_fractions())
        if self.samples < 2 * h + 1:
            raise ValueError(f"samples: must be at least 2H + 1 = {2 * h + 1}, got {self.samples}")
        if self.f_scale == 0.0:
            self.f_scale = float(np.abs(self.model.force).max()) or 1.0
        if self.x_scale == 0.0:
            k = max(c.peak_stiffness for c in self.model.contacts)
            self.x_scale = self.f_scale / k
        self.size = n * (2 * h + 1)
        N = self.samples
        self.fractions = np.arange(N) / N
        tau = 2 * math.pi * self.fractions
        orders = np.arange(1, h + 1)
        self.basis = self.projection = None  # the transforms as matrices, up to FFT_FROM harmonics
        if h <= FFT_FROM:
            # basis[k, j]: value at sample k of the j-th real Fourier function (1, cos, sin, cos 2, ...)
            self.basis = np.ones((N, 2 * h + 1))
            self.basis[:, 1::2] = np.cos(np.outer(tau, orders))
            self.basis[:, 2::2] = np.sin(np.outer(tau, orders))
            weights = np.full(2 * h + 1, 2.0 / N)
            weights[0] = 1.0 / N
            self.projection = weights[:, None] * self.basis.T
        self.orders = orders
        self.rates = orders / self.model.cycles  # each harmonic's frequency per unit of omega
        self._products = _product_indices(h)
        self._gathers: dict = {}  # `_gather`'s, by the directions' count
        self.gaps = self.model.gaps(self.fractions)
        self.stiff = self.model.stiffnesses(self.fractions)
        self.contact_basis = self._contact_basis()

    # ---------------------------------------------------------------- transforms

    def to_frequency(self, samples: np.ndarray) -> np.ndarray:
        """Coefficients (2H + 1, n) of samples (N, n), truncated at H.

        The truncated real DFT: as one (2H + 1) x N product up to FFT_FROM harmonics, where it is cheaper than an
        FFT, and by the FFT above (a train's common period: 147 harmonics on 2880 samples, 28 us against 250).
        """
        if self.harmonics <= FFT_FROM:
            return self.projection @ samples
        n, h = samples.shape[0], self.harmonics
        spec = np.fft.rfft(samples, axis=0)[:h + 1]
        out = np.empty((2 * h + 1, samples.shape[1]))
        out[0] = spec[0].real / n
        out[1::2] = (2.0 / n) * spec[1:].real
        out[2::2] = (-2.0 / n) * spec[1:].imag
        return out

    # ---------------------------------------------------------------- residual

    def unpack(self, z: np.ndarray) -> np.ndarray:
        """Scaled unknowns (size,) to physical coefficients (2H + 1, n) [m]."""
        return self.x_scale * z.reshape(2 * self.harmonics + 1, self.model.dofs)

    def pack(self, coeffs: np.ndarray) -> np.ndarray:
        return (coeffs / self.x_scale).ravel()

    def harmonic_blocks(self, omega: float, stiffness: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The dynamic stiffness D(omega) block by block, with `stiffness` [N/m] for K: the mean's (n, n) and
        each harmonic h's (H, 2n, 2n) on its (cos, sin) coefficients, [[K - h^2 w^2 M, h w C], [-h w C, same]]."""
        m, c, n = self.model.mass, self.model.damping, self.model.dofs
        h = self.rates[:, None, None]
        diagonal = stiffness - (h * omega) ** 2 * m
        blocks = np.empty((self.harmonics, 2 * n, 2 * n))
        blocks[:, :n, :n] = blocks[:, n:, n:] = diagonal
        blocks[:, :n, n:] = h * omega * c
        blocks[:, n:, :n] = -h * omega * c
        return stiffness, blocks

    def _linear(self, coeffs: np.ndarray, omega: float, derivative: bool = False) -> np.ndarray:
        """D(omega) X, or dD/domega X, on physical coefficients (2H + 1, n), without forming D."""
        m, c, k = self.model.mass, self.model.damping, self.model.stiffness
        h = self.rates[:, None]
        cos, sin = coeffs[1::2], coeffs[2::2]
        out = np.empty_like(coeffs)
        if derivative:
            out[0] = 0.0
            out[1::2] = -2 * omega * h * h * cos @ m.T + h * sin @ c.T
            out[2::2] = -2 * omega * h * h * sin @ m.T - h * cos @ c.T
        else:
            out[0] = coeffs[0] @ k.T
            out[1::2] = cos @ k.T - (h * omega) ** 2 * cos @ m.T + h * omega * sin @ c.T
            out[2::2] = sin @ k.T - (h * omega) ** 2 * sin @ m.T - h * omega * cos @ c.T
        return out.ravel()

    def _contact_basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The elements' directions' span: U (n, r) orthonormal, the directions on it (E, r) and the
        elements' stiffness closed at their mean on it, K_ref (r, r) [N/m] (core.chbm.newton_system)."""
        w, _ = self.model.contact_arrays
        _, sv, vt = np.linalg.svd(w, full_matrices=False)
        u = vt[: int(np.sum(sv > 1e-12 * sv.max()))].T
        directions = w @ u
        return u, directions, directions.T @ (self.stiff.mean(axis=1)[:, None] * directions)

    def external(self) -> np.ndarray:
        """Coefficients of the (constant) external force, (size,)."""
        f = np.zeros((2 * self.harmonics + 1, self.model.dofs))
        f[0] = self.model.force
        return f.ravel()

    def residual(self, z: np.ndarray, omega: float, jacobian: bool = True):
        """Scaled residual R(z, omega) and, if asked, dR/dz (a core.chbm.newton_system.NewtonSystem) and dR/domega.

        R = [D(omega) X + F_c(X) - F_ext] / f_scale with X = x_scale z.
        """
        coeffs = self.unpack(z)
        x = self.coordinate_samples(z)
        forces, active = self.model.contact_forces(x, self.gaps, self.stiff)
        w, _ = self.model.contact_arrays
        fc = self.to_frequency(-forces.T @ w).ravel()
        r = (self._linear(coeffs, omega) + fc - self.external()) / self.f_scale
        if not jacobian:
            return r
        dr_domega = self._linear(coeffs, omega, derivative=True) / self.f_scale
        return r, NewtonSystem(self, omega, active * self.stiff), dr_domega

    def contact_jacobian(self, weights: np.ndarray, directions: np.ndarray) -> np.ndarray:
        """d F_c / d X through the AFT on physical coefficients, with the elements' directions w_e (E, n), or
        on the coordinates of a basis of their span (E, r): ((2H + 1) n) or ((2H + 1) r) square.

        The contact tangent at sample k is sum_e weights[e, k] w_e w_e^T (weights: each element's stiffness
        where it is closed, (E, N)), so P diag(K_t(tau_k)) E = sum_e (P diag(weights_e) E) (x) w_e w_e^T:
        one (2H + 1)-square matrix per element instead of one per pair of coordinates. That matrix holds
        the products of the Fourier functions weighted by weights_e, which are sums and differences of
        weights_e's own DFT coefficients of orders up to 2H (cos a cos b = (cos(a - b) + cos(a + b)) / 2 and
        the like; exact on the N samples, as 2H < N / 2): one FFT per element instead of a product over N.
        The elements are summed first, on those means (M = means^T (w_e w_e^T), one row per mean), and each entry
        of the Jacobian then takes its two terms from M where `_gather` says: no square matrix per element, and no
        transposed copy.
        """
        w, n, nb = directions, directions.shape[1], 2 * self.harmonics + 1
        spec = np.fft.rfft(weights, axis=-1)[:, :nb] / self.samples  # W_m, m = 0..2H
        means = np.concatenate([spec.real, -spec.imag], axis=1)  # A_m and S_m: weights' means with cos, sin
        outer = (w[:, :, None] * w[:, None, :]).reshape(len(w), n * n)
        m = (means.T @ outer).ravel()
        first, first_sign, second, second_sign = self._gather(n)
        return (m[first] * first_sign + m[second] * second_sign).reshape(nb * n, nb * n)

    def _gather(self, n: int):
        """`_product_indices` in the order of the contact Jacobian's entries (Fourier function i, direction a;
        Fourier function j, direction b): indices into M = means^T (w w^T) flattened, (2 (2H + 1), n n), and
        their signs, shaped (2H + 1, n, 2H + 1, n); made once for each count n of directions."""
        if n not in self._gathers:
            first, first_sign, second, second_sign = self._products
            a = np.arange(n)
            within = a[None, :, None, None] * n + a[None, None, None, :]  # a n + b
            self._gathers[n] = (first[:, None, :, None] * (n * n) + within, first_sign[:, None, :, None],
                                second[:, None, :, None] * (n * n) + within, second_sign[:, None, :, None])
        return self._gathers[n]

    # ---------------------------------------------------------------- solving

    def solve(self, omega: float, z0: np.ndarray, tol: float = 1e-10, max_iter: int = 100):
        """Newton-Raphson at fixed omega [rad/s], each step halved (down to SHORTEST_STEP of it) until the
        residual's norm falls. Returns (z, iterations, converged).

        Full steps from a poor start wander: from the static deflection where the flanks part over the period
        (the two-stage reducer with backlash at 1500 Hz) they had not converged after 50, the shortened ones do
        in 33.
        """
        z = z0.copy()
        r, system, _ = self.residual(z, omega)
        norm = np.linalg.norm(r)
        for it in range(1, max_iter + 1):
            step = system.solve(-r)
            scale = 1.0
            while True:
                trial = z + scale * step
                r_trial = self.residual(trial, omega, jacobian=False)
                norm_trial = np.linalg.norm(r_trial)
                if norm_trial < (1.0 - 1e-4 * scale) * norm or scale <= SHORTEST_STEP:
                    break
                scale *= 0.5
            z, norm = trial, norm_trial
            if scale * np.linalg.norm(step) < tol * max(1.0, np.linalg.norm(z)) and norm < 1e-6:
                return z, it, True
            r, system, _ = self.residual(z, omega)
        return z, max_iter, False

    def static_guess(self) -> np.ndarray:
        """Start: the static deflection at the mean mesh stiffness, no vibration.

        A mesh-model contact (drive and coast flank, core.gearing.mesh_model)
        starts on the flank the load presses (LumpedModel.static_state), its
        deflection moved out of the backlash.
        """
        coeffs = np.zeros((2 * self.harmonics + 1, self.model.dofs))
        if any(c.law is not None for c in self.model.contacts):
            coeffs[0] = self.model.static_state()[0]
            return self.pack(coeffs)
        kk = self.model.stiffness.copy()
        for c, k, g in zip(self.model.contacts, self.stiff, self.gaps):
            kk += float(np.mean(k * (g == 0.0))) * np.outer(c.direction, c.direction)
        coeffs[0] = np.linalg.solve(kk, self.model.force)
        return self.pack(coeffs)

    # ---------------------------------------------------------------- outputs

    def coordinate_samples(self, z: np.ndarray, samples: int | None = None) -> np.ndarray:
        """Coordinates x (samples, n) [m] at equally spaced instants of one period (default N)."""
        coeffs = self.unpack(z)
        samples = samples or self.samples
        if samples == self.samples and self.harmonics <= FFT_FROM:
            return self.basis @ coeffs
        spec = np.zeros((samples // 2 + 1, self.model.dofs), dtype=complex)
        spec[0] = samples * coeffs[0]
        spec[1:self.harmonics + 1] = 0.5 * samples * (coeffs[1::2] - 1j * coeffs[2::2])
        return np.fft.irfft(spec, n=samples, axis=0)

    def velocity_samples(self, z: np.ndarray, omega: float, samples: int | None = None) -> np.ndarray:
        """Rates x' (samples, n) [m/s] at equally spaced instants of one period at omega [rad/s] (default N)."""
        c = self.unpack(z)
        d = np.zeros_like(c)
        h = self.rates[:, None] * omega
        d[1::2], d[2::2] = h * c[2::2], -h * c[1::2]  # (c cos + s sin)' = h w (s cos - c sin)
        return self.coordinate_samples(self.pack(d), samples)

    def state_at_start(self, z: np.ndarray, omega: float) -> tuple[np.ndarray, np.ndarray]:
        """(x, x') at phase 0 [m, m/s]: where a time integration on this solution starts."""
        c = self.unpack(z)
        return c[0] + c[1::2].sum(axis=0), omega * (self.rates[:, None] * c[2::2]).sum(axis=0)

    def output_samples(self, z: np.ndarray, samples: int | None = None) -> np.ndarray:
        """DTE [m] at `samples` equally spaced instants of one period (default N)."""
        return self.coordinate_samples(z, samples) @ self.model.output

    def summary(self, z: np.ndarray) -> tuple[float, float, float]:
        """Mean DTE, half peak-to-peak DTE and RMS of the fluctuating DTE [m]."""
        coeffs = self.unpack(z) @ self.model.output
        x = self.output_samples(z, max(1024, 8 * self.samples))
        rms = math.sqrt(0.5 * float(np.sum(coeffs[1:] ** 2)))
        return float(coeffs[0]), 0.5 * float(x.max() - x.min()), rms
