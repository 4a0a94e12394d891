"""A compliant mesh's kinematics when the centres move: involute gears rolling at the ratio of their base radii
do not approach along the line of action, whatever their centre distance (the line of action stays tangent to
both base circles), so a gear whose centre sits displaced on a bearing must not see its mesh deflect while the
pair turns."""

from __future__ import annotations

import numpy as np
import pytest

from core.dynamics.formulations import assemble
from core.model.files import load
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("example", ["compliant_mesh_pair", "compliant_planetary"])
@pytest.mark.parametrize("shift", [0.0, 2e-5, -2e-5])  # [m] along the line of centres
def test_gears_rolling_at_the_base_radius_ratio_do_not_approach_at_any_centre_distance(example, shift):
    model = load(EXAMPLES / f"{example}.gdyn")
    pair = next(iter(model.gear_pairs.values()))
    system = assemble(model, "cartesian")
    space = system.space
    y = system.initial_state()
    asm = system.asm
    g1, g2 = asm.element_of(pair.joint1).frame.bj, asm.element_of(pair.joint2).frame.bj
    x = y[space.x].reshape(-1, 3)
    line = x[g2] - x[g1]
    line[2] = 0.0
    x[g2] += shift * line / np.linalg.norm(line)  # gear 2's centre moved along the line of centres
    y[space.x] = x.ravel()
    # both gears turn about their centres at the ratio of their base radii, nothing else moves
    v, w = np.zeros_like(y[space.v]).reshape(-1, 3), np.zeros_like(y[space.w]).reshape(-1, 3)
    w[g1, 2] = 100.0
    w[g2, 2] = -100.0 * pair.z1 / pair.z2 * (1.0 if pair.kind == "external" else -1.0)
    y[space.v], y[space.w] = v.ravel(), w.ravel()
    rates = system.evaluate(0.0, y)[space.de]
    element = asm.element_of(pair.name)
    approach = rates[element.x0:element.x0 + 2]  # along the tooth force's base and separating parts [m/s]
    assert np.abs(approach).max() < 1e-12 * 100.0 * 0.1, approach
