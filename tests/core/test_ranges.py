"""Numbers as the app and the CLI write them (core.ranges)."""

import math

from core.geometry.rotations import quat_about, quat_matrix
from core.ranges import direction


def test_a_turned_axis_reads_without_its_round_off():
    """A gear made on z and turned onto x (as the Bevel Gear dialog's axis (1, 0, 0) does) has a z axis with a
    round-off of 2.2e-16 in z: it reads '1, 0, 0', not '1, 0, 2.22e-16'."""
    axis = quat_matrix(quat_about((0.0, 1.0, 0.0), math.pi / 2))[:, 2]
    assert axis[2] != 0.0
    assert direction(axis) == "1, 0, 0"


def test_a_negative_zero_reads_0_and_other_directions_keep_six_digits():
    assert direction((-0.0, -1.0, 0.0)) == "0, -1, 0"
    assert direction((0.6, -0.8, 0.0)) == "0.6, -0.8, 0"
    assert direction((1 / math.sqrt(3),) * 3) == "0.57735, 0.57735, 0.57735"
