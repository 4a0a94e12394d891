"""Every row's velocity term gamma = -(dJ/dt) v as the elements write it out (revolute and fixed joints, gear
pairs of every kind, motors, a lossy pair's rows), against central differences of J v along the bodies' own
rigid motion at their velocities.

J and gamma are the kernel's (core.dynamics.formulations.System.kernel.jacobian, Cartesian coordinates: J on
the bodies' velocities); the reference moves the state along its velocities by +-eps (positions by eps v,
orientations by exp(eps w), the velocities held) and differentiates J v, which is the plain definition
d(J v)/dt at v held. The central difference's round-off is near 1e-9 relative at eps 1e-7.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from core.dynamics.formulations import assemble
from core.gearing.pitch_point import PairGeometryData, contact_frame, contact_frame_rate
from core.model.files import load
from tests.conftest import EXAMPLES


def moved(system, y, dt):
    """y with the bodies moved rigidly for dt [s] at their velocities (the velocities held)."""
    sp = system.space
    d = np.zeros(sp.tangent_size)
    d[sp.dx], d[sp.dth] = dt * y[sp.v], dt * y[sp.w]
    return sp.retract(y, d)


def random_states(system, count, seed):
    sp = system.space
    rng = np.random.default_rng(seed)
    for _ in range(count):
        y = system.initial_state()
        y[sp.x] += rng.normal(size=y[sp.x].shape) * 1e-4  # off the assembled pose too
        y[sp.v] = rng.normal(size=y[sp.v].shape) * 0.5
        y[sp.w] = rng.normal(size=y[sp.w].shape) * 100.0
        yield y


def central(system, y, eps):
    """(d/dt) (J v) along the motion, v held, by a central difference of step eps [s]."""
    sp = system.space
    vel = np.hstack([y[sp.v].reshape(-1, 3), y[sp.w].reshape(-1, 3)]).ravel()
    ahead, back = (system.kernel.jacobian(moved(system, y, s), 6 * system.n)[0] @ vel for s in (eps, -eps))
    return (ahead - back) / (2 * eps)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gdyn")), ids=lambda p: p.stem)
def test_every_rows_gamma_is_minus_the_derivative_of_j_v(path):
    system = assemble(load(path), "cartesian")
    compared = 0
    for y in random_states(system, 10, 7):
        jac, _, off, gamma = system.kernel.jacobian(y, 6 * system.n)
        numeric = central(system, y, 1e-7)
        scale = np.abs(numeric).max() + 1e-9
        np.testing.assert_allclose(-gamma[~off], numeric[~off], rtol=0, atol=2e-7 * scale)
        compared += int(np.count_nonzero(~off))
    assert compared >= 10 * 10  # ten rows at least: two revolute joints


def test_bevel_gamma_is_the_limit_of_central_differences_as_eps_squared():
    # the bevel apex construction, differentiated by hand: the central difference converges on it as eps^2
    system = assemble(load(EXAMPLES / "bevel_pair.gdyn"), "cartesian")
    row = system.asm.element_of("pair").row0
    for y in random_states(system, 5, 11):
        written = -system.kernel.jacobian(y, 6 * system.n)[3][row]
        errors = [abs(central(system, y, eps)[row] - written) for eps in (1e-4, 1e-5)]
        assert errors[1] < 1e-5 * abs(written)
        assert errors[0] / errors[1] == pytest.approx(100.0, rel=0.1)  # second order in eps


def test_a_bevel_frame_without_a_radial_direction_gives_nan_not_an_exception():
    # gear 2's centre on gear 1's axis: contact_frame's u is 0/0 (NaN), so the rate is NaN too and a run fails
    # as divergent with its samples kept (a fuzzed model found a ZeroDivisionError, an internal error, here)
    pair = PairGeometryData.of(load(EXAMPLES / "bevel_pair.gdyn").gear_pairs["pair"])
    c1, a1, c2, a2 = np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([0.05, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        f = contact_frame(pair, c1, a1, c2, a2)
    point_d, t_d = contact_frame_rate(pair, f, c1, c2, (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0), a2,
                                      (0.0, 0.0, 0.0))
    assert np.isnan(f.u).all() and np.isnan(point_d).any() and np.isnan(t_d).any()
