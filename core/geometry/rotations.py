"""Rotations in one place: unit quaternions (w, x, y, z), rotation vectors and rotation matrices.

Every function that takes quaternions or rotation vectors accepts one (shape
(4,) or (3,)) or a stack of them (shape (k, 4) or (k, 3)) and returns the same
kind. Quaternions rotate body axes into world axes.
"""

from __future__ import annotations

import math

import numpy as np


def quat_product(w1, x1, y1, z1, w2, x2, y2, z2):
    """The Hamilton product's components (w, x, y, z) of the quaternions (w1, x1, y1, z1) * (w2, x2, y2, z2)
    (numbers, or arrays for many at once; the compiled Cartesian steps run it on numbers)."""
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def quat_mul(a, b) -> np.ndarray:
    """Hamilton product a * b of quaternions (4,) or row-wise of stacks (k, 4)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.stack(quat_product(*np.moveaxis(a, -1, 0), *np.moveaxis(b, -1, 0)), axis=-1)


def rotation_vector_quat(tx, ty, tz):
    """The components (w, x, y, z) of the unit quaternion of the rotation vector (tx, ty, tz) [rad]: the
    exponential map (numbers, or arrays for many at once; the compiled Cartesian steps run it on numbers)."""
    angle = np.sqrt(tx * tx + ty * ty + tz * tz)
    s = 0.5 * np.sinc(0.5 * angle / np.pi)  # sin(angle / 2) / angle, 1/2 at 0 without a division by 0
    return np.cos(0.5 * angle), s * tx, s * ty, s * tz


def quat_log(q) -> np.ndarray:
    """Rotation vector(s) [rad] of unit quaternion(s), angle in [0, pi] (the inverse of the exponential map, rotation_vector_quat)."""
    q = np.asarray(q, float)
    q = q * np.where(q[..., :1] < 0, -1.0, 1.0)  # the short way round
    v = q[..., 1:]
    s = np.linalg.norm(v, axis=-1)
    angle = 2.0 * np.arctan2(s, q[..., 0])
    small = s < 1e-12
    factor = np.where(small, 2.0 / np.where(small, q[..., 0], 1.0), angle / np.where(small, 1.0, s))
    return factor[..., None] * v


def quat_conj(q) -> np.ndarray:
    """Conjugate (the inverse of a unit quaternion)."""
    return np.asarray(q, float) * np.array([1.0, -1.0, -1.0, -1.0])


def quat_matrices(q) -> np.ndarray:
    """Rotation matrix (3, 3) of a unit quaternion, or matrices (k, 3, 3) of a stack (k, 4)."""
    q = np.asarray(q, float)
    if q.ndim == 1:  # one quaternion, the common call in a model's set-up: plain numbers, no stacking
        return np.array(quat_rotation(*q.tolist())).reshape(3, 3)
    rows = quat_rotation(*np.moveaxis(q, -1, 0))
    return np.stack([np.stack(rows[0:3], -1), np.stack(rows[3:6], -1), np.stack(rows[6:9], -1)], -2)


def quat_rotation(w, x, y, z):
    """The rotation matrix's entries r00, r01, .. r22 of the unit quaternion (w, x, y, z) (numbers, or arrays
    for many at once; the compiled Cartesian evaluation runs it on numbers)."""
    return (1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))


quat_matrix = quat_matrices  # one quaternion gives one matrix


def _quat_products() -> tuple[np.ndarray, np.ndarray]:
    """P = 4 q q^T of a rotation matrix R as one affine map of R's entries: P.ravel() = c + R.ravel() @ m."""
    c, m = np.zeros(16), np.zeros((9, 16))
    c[[0, 5, 10, 15]] = 1.0
    for col, signs in zip((0, 5, 10, 15), ((1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1))):
        m[[0, 4, 8], col] = signs  # the diagonal: 4 w^2, 4 x^2, 4 y^2, 4 z^2 from r00, r11, r22
    for (a, b), (plus, minus) in {(0, 1): (7, 5), (0, 2): (2, 6), (0, 3): (3, 1),  # 4 w x, 4 w y, 4 w z
                                  (1, 2): (3, 1), (1, 3): (2, 6), (2, 3): (7, 5)}.items():  # 4 x y, x z, y z
        sign = -1.0 if a == 0 else 1.0
        for col in (4 * a + b, 4 * b + a):
            m[plus, col], m[minus, col] = 1.0, sign
    return c, m


_P_CONST, _P_MAP = _quat_products()


def matrix_quats(rot) -> np.ndarray:
    """Unit quaternion(s) with w >= 0 of rotation matrix (3, 3) or matrices (k, 3, 3).

    Shepperd's method: the largest of the four squared components is taken
    from the trace or a diagonal entry, so no division by a small number. All
    matrices at once: P = 4 q q^T from R's entries (one affine map), then q =
    P's row of the largest diagonal entry over twice that entry's square root.
    """
    rot = np.asarray(rot, float)
    single = rot.ndim == 2
    r = rot.reshape(-1, 9)
    p = (r @ _P_MAP + _P_CONST).reshape(-1, 4, 4)
    rows = np.arange(len(r))
    pick = np.argmax(p[:, [0, 1, 2, 3], [0, 1, 2, 3]], axis=1)
    q = p[rows, pick] / (2.0 * np.sqrt(np.maximum(p[rows, pick, pick], 1e-300)))[:, None]
    q *= np.where(q[:, :1] < 0, -1.0, 1.0)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q[0] if single else q


def skew(r) -> np.ndarray:
    """Cross-product matrix [r]x of a 3-vector (3, 3), or of each row of r (k, 3) -> (k, 3, 3), so that
    skew(r) @ v = r x v."""
    r = np.asarray(r, float)
    out = np.zeros(r.shape + (3,))
    out[..., 0, 1], out[..., 0, 2], out[..., 1, 2] = -r[..., 2], r[..., 1], -r[..., 0]
    out[..., 1, 0], out[..., 2, 0], out[..., 2, 1] = r[..., 2], -r[..., 1], r[..., 0]
    return out


def axis_angle_matrix(theta) -> np.ndarray:
    """Rotation matrix of a rotation vector theta [rad] (Rodrigues' formula)."""
    theta = np.asarray(theta, float)
    angle = float(np.sqrt(theta @ theta))
    if angle == 0.0:
        return np.eye(3)
    k = skew(theta / angle)
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)


def quat_about(axis, angle: float) -> np.ndarray:
    """Rotation by `angle` [rad] about `axis`."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * a])


def rotate(q, v) -> np.ndarray:
    """Vector v (body axes) in world axes."""
    return quat_matrices(q) @ np.asarray(v, float)


def orientation_for_axis(axis, spin: float = 0.0) -> tuple[float, float, float, float]:
    """Orientation whose body z axis points along `axis`, turned by `spin` [rad] about it."""
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    z = np.array([0.0, 0.0, 1.0])
    c = float(np.dot(z, a))
    if c > 1 - 1e-15:
        base = np.array([1.0, 0.0, 0.0, 0.0])
    elif c < -1 + 1e-15:
        base = np.array([0.0, 1.0, 0.0, 0.0])
    else:
        base = quat_about(np.cross(z, a), math.acos(c))
    q = quat_mul(base, quat_about(z, spin))
    q /= np.linalg.norm(q)
    return tuple(float(v) for v in q)


def pose_matrix(position, q) -> np.ndarray:
    """4x4 homogeneous transform of a body pose (origin position [m], orientation quaternion)."""
    out = np.eye(4)
    out[:3, :3] = quat_matrices(q)
    out[:3, 3] = position
    return out
