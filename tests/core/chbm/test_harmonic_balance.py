"""The HB equations: transforms, analytic Jacobian against finite differences, static limit, scaling."""

import math

import numpy as np
import pytest

from core.chbm.continuation import follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.train_from_model import train_from_model
from core.chbm.lumped_model import (
    PAPER_CONTACT_STIFFNESS,
    paper_model,
    torsional_two_dof_model,
)
from core.model.files import load
from tests.conftest import EXAMPLES


def _planetary_train():
    """The planetary example's lumped train: six meshes (twelve flank elements) on four coordinates."""
    return train_from_model(load(EXAMPLES / "planetary.gdyn")).lumped


def _two_dof():
    return torsional_two_dof_model(0.0158, 0.03, 0.0705, 0.09, 4038.2, 100.0, 1.75, 2.6e8, shaft_stiffness=5e7, shaft_damping=2000.0)


@pytest.mark.parametrize("harmonics", [9, 80], ids=["matrix", "fft"])  # either side of FFT_FROM
@pytest.mark.parametrize("make", [lambda: paper_model(100.0), _two_dof], ids=["1dof", "2dof"])
def test_fft_transforms_are_inverse(make, harmonics):
    hb = HarmonicBalance(make(), harmonics)
    z = np.random.default_rng(1).standard_normal(hb.size)
    samples = hb.coordinate_samples(z)
    assert np.allclose(hb.to_frequency(samples).ravel(), hb.unpack(z).ravel() / 1.0, rtol=0, atol=1e-12 * hb.x_scale)
    # the samples are the explicit Fourier sums x0 + sum_h c_h cos(h tau) + s_h sin(h tau)
    coeffs = hb.unpack(z)
    tau = 2 * np.pi * np.arange(hb.samples) / hb.samples
    h = np.arange(1, harmonics + 1)
    x_direct = coeffs[0] + np.cos(np.outer(tau, h)) @ coeffs[1::2] + np.sin(np.outer(tau, h)) @ coeffs[2::2]
    assert np.allclose(samples, x_direct, rtol=0, atol=1e-12 * np.abs(x_direct).max())


@pytest.mark.parametrize("make", [lambda: paper_model(100.0), _two_dof, _planetary_train],
                         ids=["1dof", "2dof", "planetary"])
@pytest.mark.parametrize("freq", [700.0, 1900.0, 3250.0])
def test_analytic_jacobian_matches_central_differences(make, freq):
    hb = HarmonicBalance(make(), 14)
    rng = np.random.default_rng(7)
    z = hb.static_guess() + 0.3 * rng.standard_normal(hb.size)  # some samples separated, some in contact
    omega = 2 * math.pi * freq
    r, system, dr_dw = hb.residual(z, omega)
    jac = system.dense()
    eps = 1e-7
    fd = np.column_stack([(hb.residual(z + eps * e, omega, False) - hb.residual(z - eps * e, omega, False)) / (2 * eps)
                          for e in np.eye(hb.size)])
    # The contact force is piecewise linear: central differences are exact unless a sample crosses a kink.
    assert np.abs(jac - fd).max() <= 1e-6 * np.abs(jac).max()
    fd_w = (hb.residual(z, omega + 1e-2, False) - hb.residual(z, omega - 1e-2, False)) / 2e-2
    assert np.abs(dr_dw - fd_w).max() <= 1e-7 * max(1e-300, np.abs(dr_dw).max())


def test_static_limit_mean_tends_to_the_static_deflection():
    # Quasi-static: k(t) x(t) = -T / r at every instant, so mean(x) = -(T / r) mean(1 / k(t)) with
    # k = kc for 1/4 of the period and 2 kc for 3/4: mean(1/k) = (0.25 + 0.75 / 2) / kc.
    model = paper_model(100.0)
    force = 100.0 / 0.0705
    static = -force * (0.25 + 0.375) / PAPER_CONTACT_STIFFNESS  # -3.40971e-6 m
    assert model.static_deflection() == pytest.approx(static, rel=1e-12)
    errors = {}
    for harmonics in (14, 56):
        hb = HarmonicBalance(model, harmonics)
        z, _, ok = hb.solve(2 * math.pi * 10.0, hb.static_guess())  # 10 Hz: far below every resonance
        assert ok
        errors[harmonics] = abs(hb.summary(z)[0] / static - 1)
    # The quasi-static x(t) jumps with k(t); truncating it at H harmonics leaves an error that falls with H.
    assert errors[14] < 5e-3
    assert errors[56] < errors[14] / 2


def test_response_is_positively_homogeneous_in_the_torque():
    # The step-gap contact has no back-flank backlash, so x(T) = T x(1): the 300 N m response is exactly 3 times 100's.
    hb1, hb3 = HarmonicBalance(paper_model(100.0), 14), HarmonicBalance(paper_model(300.0), 14)
    for f in (800.0, 1900.0, 3000.0):
        z1, _, _ = hb1.solve(2 * math.pi * f, hb1.static_guess())
        z3, _, _ = hb3.solve(2 * math.pi * f, hb3.static_guess())
        assert np.allclose(hb3.unpack(z3), 3 * hb1.unpack(z1), rtol=1e-9, atol=1e-18)


def _compliant_planetary_train():
    """Bearings give the centres coordinates of their own: the elements span 11 of 22 coordinates."""
    return train_from_model(load(EXAMPLES / "compliant_planetary.gdyn")).lumped


@pytest.mark.parametrize("make", [lambda: paper_model(100.0), _planetary_train, _compliant_planetary_train],
                         ids=["1dof", "planetary", "compliant planetary"])
def test_the_newton_system_solved_through_its_parts_equals_the_dense_solve(make):
    """Woodbury's identity on the blocks and the contact's span (core.chbm.newton_system) against numpy's
    dense solve of the same matrix: J x = b, and the continuation's bordered system."""
    hb = HarmonicBalance(make(), 10)
    rng = np.random.default_rng(3)
    z = hb.static_guess() + 0.3 * rng.standard_normal(hb.size)
    _, system, dr_dw = hb.residual(z, 2 * math.pi * 1900.0)
    assert system.r <= hb.model.dofs
    dense = system.dense()
    b = rng.standard_normal(hb.size)
    expected = np.linalg.solve(dense, b)
    np.testing.assert_allclose(system.solve(b), expected, rtol=0, atol=1e-9 * np.abs(expected).max())
    row, corner = rng.standard_normal(hb.size), 0.7
    bordered = np.block([[dense, dr_dw[:, None]], [row[None, :], np.array([[corner]])]])
    expected = np.linalg.solve(bordered, np.append(b, 0.4))
    x, s = system.solve(b, dr_dw, row, corner, 0.4)
    np.testing.assert_allclose(np.append(x, s), expected, rtol=0, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("make, harmonics, f_min, f_max", [
    (lambda: paper_model(100.0), 14, 1500.0, 3500.0),  # across the pair's primary resonance and its folds
    (_planetary_train, 16, 800.0, 1400.0),  # through the planetary's first resonance (twelve flank elements)
], ids=["pair", "planetary"])
def test_every_point_of_a_followed_curve_solves_the_harmonic_balance_equations(make, harmonics, f_min, f_max):
    """The corrector reuses one Jacobian over several steps: whatever it stops on must make the residual of
    the HB equations (the scaled dynamic force balance of every harmonic) vanish, at the pair's folds too."""
    hb = HarmonicBalance(make(), harmonics)
    points = follow(hb, f_min, f_max, df_max=10.0)
    assert points[-1].frequency == f_max
    worst = max(np.linalg.norm(hb.residual(p.z, 2 * math.pi * p.frequency, jacobian=False)) for p in points)
    scale = max(np.linalg.norm(hb.external()) / hb.f_scale, 1.0)
    assert worst < 1e-10 * scale, worst
    if make is not _planetary_train:
        assert len({p.segment for p in points}) >= 3  # the range holds two folds at least
