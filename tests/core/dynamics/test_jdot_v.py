"""The gear rows' (dJ/dt) v, written out for cylindrical pairs, against central differences of the frame.

The central difference (step 1e-7, round-off near 1e-9 relative) is the plain reference path; the written-out
derivative must agree with it on random states of every example, to that noise.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.dynamics.formulations import assemble
from core.model.files import load
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gdyn")), ids=lambda p: p.stem)
def test_written_out_jdot_v_agrees_with_central_differences(path):
    system = assemble(load(path), "cartesian")
    sp = system.space
    rng = np.random.default_rng(7)
    compared = 0
    for _ in range(20):
        y = system.initial_state()
        y[sp.x] += rng.normal(size=y[sp.x].shape) * 1e-4  # off the assembled pose too
        y[sp.v] = rng.normal(size=y[sp.v].shape) * 0.5
        y[sp.w] = rng.normal(size=y[sp.w].shape) * 100.0
        s = system.snapshot(y)
        for gc in system.gears.values():
            f, (_, v1, w1), (_, v2, w2) = gc.frame(s)
            written = gc._jdot_v(s, f, v1, w1, v2, w2)
            numeric = gc._jdot_v_numeric(s, v1, w1, v2, w2)
            assert written == pytest.approx(numeric, rel=1e-7, abs=1e-9 * abs(numeric) + 1e-9)
            compared += 1
    assert compared >= 20


def test_bevel_jdot_v_is_the_limit_of_central_differences_of_the_frame():
    # the bevel apex construction, differentiated by hand: a central difference of the frame along the motion
    # (written here, independent of the constraint's own) converges on it as eps^2
    from core.dynamics.constraints import cross
    from core.geometry.rotations import axis_angle_matrix
    from core.gearing.pitch_point import contact_frame

    system = assemble(load(EXAMPLES / "bevel_pair.gdyn"), "cartesian")
    sp = system.space
    rng = np.random.default_rng(11)
    gc = next(iter(system.gears.values()))
    assert gc.pair.kind == "bevel"
    for _ in range(5):
        y = system.initial_state()
        y[sp.x] += rng.normal(size=y[sp.x].shape) * 1e-4
        y[sp.v] = rng.normal(size=y[sp.v].shape) * 0.5
        y[sp.w] = rng.normal(size=y[sp.w].shape) * 100.0
        s = system.snapshot(y)
        f, (x1, v1, w1), (x2, v2, w2) = gc.frame(s)
        r1, r2 = s.rot[gc.j1.bj], s.rot[gc.j2.bj]

        def slip(dt):  # t . (v1(P) - v2(P)) with both gears moved rigidly by dt along their velocities
            y1, q1 = x1 + dt * v1, axis_angle_matrix(dt * w1) @ r1
            y2, q2 = x2 + dt * v2, axis_angle_matrix(dt * w2) @ r2
            fe = contact_frame(gc.pair, y1 + q1 @ gc.c1, q1 @ gc.j1.aj, y2 + q2 @ gc.c2, q2 @ gc.j2.aj)
            return fe.t @ ((v1 + cross(w1, fe.point - y1)) - (v2 + cross(w2, fe.point - y2)))

        written = gc._jdot_v(s, f, v1, w1, v2, w2)
        errors = [abs((slip(eps) - slip(-eps)) / (2 * eps) - written) for eps in (1e-4, 1e-5)]
        assert errors[1] < 1e-5 * abs(written)
        assert errors[0] / errors[1] == pytest.approx(100.0, rel=0.1)  # second order in eps


def test_a_bevel_frame_without_a_radial_direction_gives_nan_not_an_exception():
    # gear 2's centre on gear 1's axis: contact_frame's u is 0/0 (NaN), so the rate is NaN too and a run fails
    # as divergent with its samples kept (a fuzzed model found a ZeroDivisionError, an internal error, here)
    import warnings

    from core.gearing.pitch_point import contact_frame, contact_frame_rate

    pair = next(iter(assemble(load(EXAMPLES / "bevel_pair.gdyn"), "cartesian").gears.values())).pair
    c1, a1, c2, a2 = np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([0.05, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        f = contact_frame(pair, c1, a1, c2, a2)
    point_d, t_d = contact_frame_rate(pair, f, c1, c2, (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0), a2,
                                      (0.0, 0.0, 0.0))
    assert np.isnan(f.u).all() and np.isnan(point_d).any() and np.isnan(t_d).any()
