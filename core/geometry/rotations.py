"""Unit quaternions (w, x, y, z) for body orientations."""

from __future__ import annotations

import math

import numpy as np


def quat_multiply(a, b) -> np.ndarray:
    """Hamilton product a * b."""
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])


def quat_about(axis, angle: float) -> np.ndarray:
    """Rotation by `angle` [rad] about `axis`."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * a])


def quat_matrix(q) -> np.ndarray:
    """Rotation matrix (3, 3) of unit quaternion q (body to world)."""
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def rotate(q, v) -> np.ndarray:
    """Vector v (body axes) in world axes."""
    return quat_matrix(q) @ np.asarray(v, float)


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
    q = quat_multiply(base, quat_about(z, spin))
    q /= np.linalg.norm(q)
    return tuple(float(v) for v in q)
