"""Rotation matrices to quaternions (core.geometry.rotations.matrix_quats) against the axis-angle formula."""

from __future__ import annotations

import numpy as np

from core.geometry.rotations import axis_angle_matrix, matrix_quats, quat_matrices


def test_matrix_quats_against_the_axis_angle_quaternion():
    rng = np.random.default_rng(3)
    axes = rng.normal(size=(400, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    # every branch of the method: small angles (the trace largest), and angles near pi about axes near each
    # coordinate axis (one diagonal entry largest, w near 0)
    angles = np.concatenate([rng.uniform(0.0, 0.5, 100), rng.uniform(np.pi - 1e-3, np.pi, 300)])
    axes[100:200] = np.array([1.0, 1e-3, -2e-3]) + 1e-3 * axes[100:200]
    axes[200:300] = np.array([2e-3, 1.0, 1e-3]) + 1e-3 * axes[200:300]
    axes[300:] = np.array([-1e-3, 2e-3, 1.0]) + 1e-3 * axes[300:]
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    rot = np.array([axis_angle_matrix(a * n) for a, n in zip(angles, axes)])
    want = np.hstack([np.cos(angles / 2)[:, None], np.sin(angles / 2)[:, None] * axes])  # w >= 0 for angle <= pi
    got = matrix_quats(rot)
    assert np.abs(got - want).max() < 1e-13
    assert np.abs(quat_matrices(got) - rot).max() < 1e-14
    assert np.allclose(matrix_quats(np.eye(3)), [1.0, 0.0, 0.0, 0.0], rtol=0, atol=1e-16)
    assert np.allclose(matrix_quats(rot[5]), want[5], rtol=0, atol=1e-13)  # one matrix gives one quaternion


def test_one_quaternion_gives_the_axis_angle_matrix_as_a_stack_of_them_does():
    """quat_matrices of one quaternion (a model's set-up asks for one at a time) against Rodrigues' formula,
    and equal to its row of the stacked call."""
    rng = np.random.default_rng(7)
    axes = rng.normal(size=(50, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    angles = rng.uniform(0.0, np.pi, 50)
    quats = np.hstack([np.cos(angles / 2)[:, None], np.sin(angles / 2)[:, None] * axes])
    stacked = quat_matrices(quats)
    for q, a, n, many in zip(quats, angles, axes, stacked):
        one = quat_matrices(q)
        assert one.shape == (3, 3)
        assert np.abs(one - axis_angle_matrix(a * n)).max() < 1e-14
        assert np.abs(one - many).max() < 1e-15
        assert np.abs(quat_matrices(tuple(q)) - one).max() == 0.0  # a tuple, as entities hold orientations
