"""The kernels' linear algebra (core.dynamics.kernels.linear) against numpy's, on the matrices the kernels solve:
J M^-1 J^T (symmetric positive definite: the Cholesky path), J M^-1 G^T of a gear row (not symmetric: LU), a
symmetric indefinite matrix (the Cholesky factor fails: LU) and a rank-deficient one (least norm)."""

import numpy as np
import pytest

from core.dynamics.kernels.linear import cholesky, solve_rows, symmetric


def _rows_and_masses(rng, rows=12, dofs=30):
    jac = rng.standard_normal((rows, dofs))
    minv = np.diag(1.0 / rng.uniform(0.1, 10.0, dofs))
    return jac, minv


def test_a_projection_matrix_takes_the_cholesky_path_and_solves_as_numpy():
    rng = np.random.default_rng(7)
    jac, minv = _rows_and_masses(rng)
    a = jac @ minv @ jac.T
    a = 0.5 * (a + a.T) + rng.standard_normal(a.shape) * 1e-14 * np.abs(a).max()  # symmetric to round-off
    rhs = rng.standard_normal(a.shape[0])
    assert symmetric(a) and cholesky(a, np.empty_like(a))
    assert np.allclose(solve_rows(a, rhs, 0), np.linalg.solve(a, rhs), rtol=1e-10, atol=0.0)


def test_a_gear_rows_matrix_is_not_symmetric_and_solves_by_lu():
    rng = np.random.default_rng(8)
    jac, minv = _rows_and_masses(rng)
    g = jac.copy()
    g[0] += 0.36 * rng.standard_normal(jac.shape[1])  # a tooth force's separating part: G differs from J
    a = jac @ minv @ g.T
    rhs = rng.standard_normal(a.shape[0])
    assert not symmetric(a)
    assert np.array_equal(solve_rows(a, rhs, 0), np.linalg.solve(a, rhs))


def test_a_symmetric_indefinite_matrix_fails_the_cholesky_factor_and_still_solves():
    a = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0], [0.0, 2.0, 1.0]])
    rhs = np.array([1.0, -2.0, 3.0])
    assert symmetric(a) and not cholesky(a, np.empty_like(a))
    x = solve_rows(a, rhs, 0)
    assert np.allclose(a @ x, rhs, rtol=0.0, atol=1e-14)


def test_redundant_rows_get_the_least_norm_solution_as_lstsq():
    rng = np.random.default_rng(9)
    jac, minv = _rows_and_masses(rng, rows=8)
    jac[7] = jac[2] - 0.5 * jac[4]  # a row the others imply: rank 7
    a = jac @ minv @ jac.T
    rhs = a @ rng.standard_normal(8)  # consistent
    expected = np.linalg.lstsq(a, rhs, rcond=1e-10)[0]
    assert solve_rows(a, rhs, 1) == pytest.approx(expected, rel=1e-9, abs=1e-12)
