"""Pitch circles as Show Pitch Circles draws them (core.dynamics.scene.Scene.pitch_circles), against the gears'
sizes worked by hand: r = m_t z / 2; a bevel gear's mean cone radius r_m = r_e - (b / 2) sin(gamma)."""

import math

import numpy as np
import pytest

from core.commands import replace_fields
from core.dynamics.scene import Scene
from core.dynamics.simulate import simulate
from core.model.files import load
from tests.conftest import EXAMPLES


def _circles(model, positions=None, orientations=None):
    names = list(model.bodies)
    if positions is None:
        positions = np.array([model.bodies[n].position for n in names], float)
        orientations = np.array([model.bodies[n].orientation for n in names], float)
    return Scene(model, names).pitch_circles(positions, orientations)


def test_a_helical_pairs_circles_touch_at_the_centre_distance_and_a_misplaced_gear_leaves_a_gap():
    model = load(EXAMPLES / "helical_pair.gdyn")  # m_t 2 mm, z 20 / 40: r 20 and 40 mm, 60 mm apart
    (c1, a1, r1), (c2, a2, r2) = _circles(model)["pair"]
    assert (r1, r2) == pytest.approx((0.020, 0.040), rel=1e-12)
    assert np.linalg.norm(c2 - c1) == pytest.approx(r1 + r2, rel=1e-12)
    for a, joint in ((a1, "gear1_joint"), (a2, "gear2_joint")):
        assert a == pytest.approx(np.asarray(model.joints[joint].axis) / np.linalg.norm(model.joints[joint].axis))
    for name in ("gear2", "gear2_joint"):  # gear 2 and its joint 1 mm further out
        replace_fields(model, name, position=tuple(np.add(model.find(name).position, (0.001, 0.0, 0.0)))).do(model)
    (c1, _, r1), (c2, _, r2) = _circles(model)["pair"]
    assert np.linalg.norm(c2 - c1) - (r1 + r2) == pytest.approx(0.001, rel=1e-9)


def test_a_planets_circles_go_round_with_it_and_touch_the_sun_outside_and_the_ring_inside():
    """The planetary example (m_t 2 mm; sun, planets 24, ring 72: r 24, 24, 72 mm) after a run has turned the
    carrier: each planet's circle is at the planet's place at that time."""
    model = load(EXAMPLES / "planetary.gdyn")
    res = simulate(model, t_end=0.2)
    pos, quat = res.positions[-1], res.orientations[-1]
    circles = Scene(model, res.bodies).pitch_circles(pos, quat)
    planet = pos[res.bodies.index("planet1")]
    (cs, _, rs), (cp, _, rp) = circles["sun_planet1"]
    assert (rs, rp) == pytest.approx((0.024, 0.024), rel=1e-12)
    assert np.linalg.norm(cp[:2] - cs[:2]) == pytest.approx(rs + rp, rel=1e-9)
    assert np.linalg.norm(cp[:2] - planet[:2]) == pytest.approx(0.0, abs=1e-12)
    assert np.linalg.norm(planet[:2] - model.bodies["planet1"].position[:2]) > 1e-3  # it has moved
    (cp2, _, rp2), (cr, _, rr) = circles["planet1_ring"]
    assert (rp2, rr) == pytest.approx((0.024, 0.072), rel=1e-12)
    assert np.linalg.norm(cp2[:2] - cr[:2]) == pytest.approx(rr - rp2, rel=1e-9)


def test_a_bevel_pairs_circles_are_its_mean_cone_circles():
    """m 3 mm at the outer end, z 20 / 40, b 20 mm: gamma1 = atan(1/2); r_m1 = 30 - 10 sin(gamma1) mm and
    r_m2 = 60 - 10 cos(gamma1) mm, each about its own axis."""
    model = load(EXAMPLES / "bevel_pair.gdyn")
    gamma1 = math.atan(0.5)
    (c1, a1, r1), (c2, a2, r2) = _circles(model)["pair"]
    assert (r1, r2) == pytest.approx((0.030 - 0.010 * math.sin(gamma1), 0.060 - 0.010 * math.cos(gamma1)), rel=1e-9)
    assert abs(float(a1 @ a2)) < 1e-12  # square shafts
