"""The linear algebra of the kernels: the multipliers' solve, of least norm where rows are redundant.

The multipliers solve (J M^-1 G^T) lambda = rhs. Redundant rows (a planetary set's extra ring meshes) make the
matrix singular, and the least-squares solution of least norm is taken, so symmetric sets share the load
equally. numpy's lstsq (an SVD) gives it at 170 us for 37 rows; here an LU with rook pivoting stopped at the
rank and the two null spaces it gives (`minimum_norm`) give the same solution at a fraction of that. Plain
Python on arrays that numba compiles unchanged (core.dynamics.program.linker).
"""

from __future__ import annotations

import numpy as np


def solve_rows(a, rhs, redundant):
    """x with a x = rhs; of least norm when `redundant` rows (the rank deficiency of a) are known to be there. A
    symmetric a (J M^-1 J^T: every projection onto the rows, and the multipliers where each row's force acts
    along its own J) is solved by its Cholesky factor, in half the arithmetic of LAPACK's LU and without its
    copies; one that is not positive definite goes to the LU."""
    if redundant:
        return minimum_norm(a, rhs, redundant)
    if symmetric(a):
        lower = np.empty_like(a)
        if cholesky(a, lower):
            x = rhs.copy()
            cholesky_solve(lower, x)
            return x
    return np.linalg.solve(a, rhs)


def symmetric(a):
    """Whether the square a equals its transpose to round-off (1e-12 of its largest entry)."""
    n = a.shape[0]
    largest = 0.0
    for i in range(n):
        for j in range(n):
            largest = max(largest, abs(a[i, j]))
    for i in range(n):
        for j in range(i):
            if abs(a[i, j] - a[j, i]) > 1e-12 * largest:
                return False
    return True


def cholesky(a, lower):
    """The Cholesky factor of the symmetric positive definite a (a = L L^T, from a's lower triangle) into the lower
    triangle of `lower`; False when a pivot is not positive (a is not positive definite). A mass matrix's solves
    in loops: at the sizes of a kernel, LAPACK's call costs more than the arithmetic."""
    n = a.shape[0]
    positive = True
    for j in range(n):
        total = a[j, j]
        for k in range(j):
            total -= lower[j, k] * lower[j, k]
        positive = positive and total > 0.0
        d = np.sqrt(total) if total > 0.0 else np.nan  # NaN past such a pivot: a caller that does not ask sees it
        lower[j, j] = d
        for i in range(j + 1, n):
            total = a[i, j]
            for k in range(j):
                total -= lower[i, k] * lower[j, k]
            lower[i, j] = total / d
    return positive


def cholesky_solve(lower, x):
    """x = A^-1 x in place, from A's Cholesky factor (`cholesky`)."""
    n = x.shape[0]
    for i in range(n):
        total = x[i]
        for k in range(i):
            total -= lower[i, k] * x[k]
        x[i] = total / lower[i, i]
    for i in range(n - 1, -1, -1):
        total = x[i]
        for k in range(i + 1, n):
            total -= lower[k, i] * x[k]
        x[i] = total / lower[i, i]


def inverse_rows(a, redundant):
    """a's inverse, or its pseudo-inverse when `redundant` rows make it singular (for matrices that do not change:
    the constant matrices of joint coordinates)."""
    if redundant:
        return np.linalg.pinv(a, rcond=1e-10)
    return np.linalg.inv(a)


def minimum_norm(a, b, d):
    """The least-squares solution of minimum norm of a x = b for a square a of rank m - d, as
    ``np.linalg.lstsq(a, b, rcond=1e-10)`` gives it (the solve of the multipliers) at a fraction of its cost.

    LU with rook pivoting (each pivot the largest of its row and of its column), stopped after m - d pivots:
    P a Q = L U with U = [U11 U12; 0 0] (`eliminate`); then `solve_factored`. When the pivots do not show
    rank m - d (a pivot at or below 1e-10 of the first, or a remainder above it) it takes lstsq itself.
    """
    m = a.shape[0]
    lu, rows, cols = a.copy(), np.arange(m), np.arange(m)
    first = eliminate(lu, rows, cols, 0, m - d, m, 0.0)
    if first < 0.0:
        return np.linalg.lstsq(a, b, rcond=1e-10)[0]
    return solve_factored(a, b, d, lu, rows, cols, first)


def eliminate(lu, rows, cols, start, stop, last_column, first):
    """Steps start .. stop - 1 of an LU with rook pivoting on lu in place (rows and cols: the orders so far),
    each pivot's column taken from positions k .. last_column - 1, and only those columns eliminated (the
    later ones are left for `_finish`). Returns the first pivot's size (given as `first` when start > 0), or
    -1 when a pivot is at or below 1e-10 of it."""
    m = lu.shape[0]
    for k in range(start, stop):
        p, q = k, k
        big = abs(lu[k, k])
        for i in range(k, m):  # the largest of column k to start, then alternately along rows and columns
            if abs(lu[i, k]) > big:
                p, big = i, abs(lu[i, k])
        moved = True
        while moved:
            moved = False
            for j in range(k, last_column):
                if abs(lu[p, j]) > big:
                    q, big, moved = j, abs(lu[p, j]), True
            if moved:
                moved = False
                for i in range(k, m):
                    if abs(lu[i, q]) > big:
                        p, big, moved = i, abs(lu[i, q]), True
        if k == 0:
            first = big
        if big <= 1e-10 * first or big == 0.0:
            return -1.0
        if p != k:
            for j in range(m):
                lu[k, j], lu[p, j] = lu[p, j], lu[k, j]
            rows[k], rows[p] = rows[p], rows[k]
        if q != k:
            for i in range(m):
                lu[i, k], lu[i, q] = lu[i, q], lu[i, k]
            cols[k], cols[q] = cols[q], cols[k]
        for i in range(k + 1, m):
            lu[i, k] /= lu[k, k]
            f = lu[i, k]
            if f != 0.0:  # J M^-1 G^T is sparse: most rows below a pivot have nothing to eliminate
                for j in range(k + 1, last_column):
                    lu[i, j] -= f * lu[k, j]
    return first


def solve_factored(a, b, d, lu, rows, cols, first):
    """The least-squares solution of least norm from an LU stopped at rank r = m - d (P a Q = L U, U = [U11 U12;
    0 0]; rows and cols: P and Q as orders). It gives a's left null space N_l and right null space N_r (d
    vectors each, made orthonormal); b less its part along N_l is in a's range, a particular solution follows
    by the two triangular solves, and less its part along N_r it is the solution of least norm. lstsq itself
    when the remainder is above 1e-10 of the first pivot."""
    m = a.shape[0]
    r = m - d
    for i in range(r, m):
        for j in range(r, m):
            if abs(lu[i, j]) > 1e-10 * first:
                return np.linalg.lstsq(a, b, rcond=1e-10)[0]
    right, left = np.zeros((m, d)), np.zeros((m, d))
    x = np.empty(m)
    for e in range(d):
        # right: U11 x1 = -U12 e (back substitution), x2 = e, in a's column order
        for i in range(r - 1, -1, -1):
            s = -lu[i, r + e]
            for j in range(i + 1, r):
                s -= lu[i, j] * x[j]
            x[i] = s / lu[i, i]
        for i in range(r, m):
            x[i] = 1.0 if i == r + e else 0.0
        for i in range(m):
            right[cols[i], e] = x[i]
        # left: L11^T w1 = -L21^T e (L unit lower), w2 = e, in a's row order
        for i in range(r - 1, -1, -1):
            s = -lu[r + e, i]
            for j in range(i + 1, r):
                s -= lu[j, i] * x[j]
            x[i] = s
        for i in range(r, m):
            x[i] = 1.0 if i == r + e else 0.0
        for i in range(m):
            left[rows[i], e] = x[i]
    orthonormal(right)
    orthonormal(left)
    reach = b.copy()  # b in a's range: less its parts along the left null space
    remove(left, reach)
    z = np.empty(r)  # L11 z = (P reach)[:r], then U11 x1 = z
    for i in range(r):
        s = reach[rows[i]]
        for j in range(i):
            s -= lu[i, j] * z[j]
        z[i] = s
    for i in range(r - 1, -1, -1):
        s = z[i]
        for j in range(i + 1, r):
            s -= lu[i, j] * x[j]
        x[i] = s / lu[i, i]
    out = np.zeros(m)
    for i in range(r):
        out[cols[i]] = x[i]
    remove(right, out)  # the least norm: less its parts along the right null space
    return out


def remove(basis, x):
    """x less its parts along the orthonormal columns of basis, in place."""
    for e in range(basis.shape[1]):
        s = 0.0
        for i in range(x.shape[0]):
            s += basis[i, e] * x[i]
        for i in range(x.shape[0]):
            x[i] -= s * basis[i, e]


def orthonormal(basis):
    """The columns of basis made orthonormal in place (modified Gram-Schmidt)."""
    for e in range(basis.shape[1]):
        for f in range(e):
            s = 0.0
            for i in range(basis.shape[0]):
                s += basis[i, f] * basis[i, e]
            for i in range(basis.shape[0]):
                basis[i, e] -= s * basis[i, f]
        s = 0.0
        for i in range(basis.shape[0]):
            s += basis[i, e] * basis[i, e]
        s = np.sqrt(s)
        for i in range(basis.shape[0]):
            basis[i, e] /= s
