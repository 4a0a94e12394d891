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
