"""The drift a run watches at each output sample (core.dynamics.checks.DriftWatch), on constraint errors made by
hand in the planetary's start state: a planet moved off its pin, a planet tilted on it, a gear pair's phase
error set, each of a known size."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.dynamics.checks import DriftWatch, drift_tolerances
from core.dynamics.formulations import assemble
from core.model.files import load
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def cartesian():
    model = load(EXAMPLES / "planetary.gdyn")
    system = assemble(model, "cartesian", compiled=False)
    return system, DriftWatch(system, *drift_tolerances(model)[:2])


def _planet2(system, y):
    """planet2's COM position (3,) and orientation quaternion (4,) in y, as views."""
    k = system.index["planet2"]
    return y[system.space.x][3 * k:3 * k + 3], y[system.space.q][4 * k:4 * k + 4]


def test_the_start_state_holds(cartesian):
    system, watch = cartesian
    assert watch.worst(system.initial_state()) is None


def test_a_planet_moved_off_its_pin_is_its_joints_position_error(cartesian):
    system, watch = cartesian
    y = system.initial_state()
    _planet2(system, y)[0][:] += (3e-5, -4e-5, 0.0)  # 50 um in the gears' plane
    worst = watch.worst(y)
    assert (worst.item, worst.kind, worst.unit) == ("planet2_joint", "joint position error", "m")
    assert worst.value == pytest.approx(5e-5, rel=1e-9)
    assert worst.tolerance == pytest.approx(1e-3 * 2e-3)  # drift_tolerance of the 2 mm module


def test_a_planet_tilted_on_its_pin_is_its_joints_axis_error(cartesian):
    system, watch = cartesian
    y = system.initial_state()
    eps = 0.01  # rad, about the world x axis: q' = (cos eps/2, sin eps/2, 0, 0) q
    q = _planet2(system, y)[1]
    w, x, yq, z = q.copy()
    c, s = math.cos(eps / 2), math.sin(eps / 2)
    q[:] = (c * w - s * x, c * x + s * w, c * yq - s * z, c * z + s * yq)
    worst = watch.worst(y)
    assert (worst.item, worst.kind, worst.unit) == ("planet2_joint", "joint axis error", "rad")
    assert worst.value == pytest.approx(math.sin(eps), rel=1e-6)


def test_the_largest_error_against_its_tolerance_is_reported(cartesian):
    system, watch = cartesian
    y = system.initial_state()
    pair = system.asm.element_of("sun_planet3")
    y[system.space.e][pair.x0] = -5e-5  # 25 times the 2 um tolerance
    _planet2(system, y)[0][:] += (1e-5, 0.0, 0.0)  # 5 times
    worst = watch.worst(y)
    assert (worst.item, worst.kind, worst.value) == ("sun_planet3", "gear phase drift", pytest.approx(5e-5))
    y[system.space.e][pair.x0] = np.nan  # a state that blew up is the worst there is
    assert watch.worst(y).item == "sun_planet3" and math.isnan(watch.worst(y).value)


def test_joint_coordinates_hold_their_joints_and_watch_the_gear_phases_and_the_motor():
    model = load(EXAMPLES / "planetary.gdyn")
    system = assemble(model, "joint", compiled=False)
    watch = DriftWatch(system, *drift_tolerances(model)[:2])
    assert not watch.needs_rows  # the coordinates hold every joint: no rows to measure
    # the rigid pairs' phase errors, and the angle by which the motor holding the ring lags its law
    assert {(d.item, d.kind) for d in watch.drifts} == ({(p, "gear phase drift") for p in model.gear_pairs}
                                                         | {("ring_hold", "motor angle error")})
    y = system.initial_state()
    y[system.space.e][system.asm.element_of("planet1_ring").x0] = 3e-6
    assert watch.worst(y).item == "planet1_ring"
    y[system.space.e][system.asm.element_of("planet1_ring").x0] = 1e-6
    assert watch.worst(y) is None


def test_an_output_samples_position_errors_are_the_jacobian_passes(cartesian):
    """The run's watch reads the rows' position errors from the output sample's evaluation, not from another
    pass over the rows: both give the same errors at a state off the constraints."""
    system, watch = cartesian
    y = system.initial_state()
    _planet2(system, y)[0][:] += (2e-5, 0.0, 1e-5)
    phi = system.sample(0.0, y)[3]
    assert np.array_equal(phi, system.rows_at(0.0, y)[1])
    assert watch.worst(y, phi) == watch.worst(y)
