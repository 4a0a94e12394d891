"""The adaptive methods' step size control (core.dynamics.integrators.control.next_step)."""

import numpy as np
import pytest

from core.dynamics.integrators import make_integrator
from core.dynamics.state_space import EuclideanSpace

STIFF = 1e4  # 1/s: the decay rate of the stiff component
PUSH, FLIP = 100.0, 300.0  # 1/s and rad/s: a square wave that pushes it, switching sign where sin(FLIP t) does


def _stiff(t, y):
    """A stiff component that follows cos t at rate STIFF under a square wave, and its integral: an explicit
    method's step sits at its stability boundary (about 3.3 / STIFF s for dopri5), where its error estimate swings
    from step to step, and every method's steps are refused where the wave jumps."""
    return np.array([-STIFF * (y[0] - np.cos(t)) + (PUSH if np.sin(FLIP * t) > 0 else -PUSH), y[0]])


@pytest.mark.parametrize("name", ["dopri5", "dop853", "generalized_alpha_adaptive"])
def test_the_step_after_a_rejected_attempt_is_no_larger_than_the_step_then_accepted(name):
    """Hairer, Norsett and Wanner's rule (Solving ODEs I, sec. II.4; scipy's RK45 keeps it too): a step that
    needed a retry is followed by one no larger, so that the controller does not grow straight back into the
    size it has just been refused. On the stiff problem over 0.2 s, every step with a rejection is followed by
    a next step size no larger than it (to the round-off of t + h), and the slow solution is held."""
    solver = make_integrator(name, _stiff, 0.0, np.array([1.0, 0.0]), 0.2, 1e-3, EuclideanSpace(2), rtol=1e-3,
                             atol=1e-9)
    retried = 0
    while solver.status == "running":
        t, failed = solver.t, solver.nfailed
        solver.step()
        if solver.nfailed > failed and solver.status == "running":
            retried += 1
            assert solver.h <= solver.t - t + 4e-16 * solver.t, (t, solver.t - t, solver.h)
    assert solver.status == "finished" and retried > 50
    # y0 is cos t + (its response to the wave: +-PUSH / STIFF once settled) to within 1 / STIFF
    t = 0.2
    assert abs(solver.y[0] - np.cos(t)) <= PUSH / STIFF * (1 + 1e-3) + 1.0 / STIFF
