"""The example models hold what their names promise and validate clean."""

import math

import pytest

from core.dynamics.simulate import simulate
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES

ALL = sorted(EXAMPLES.glob("*.gdyn"))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_example_loads_and_has_no_error(path):
    model = load(path)
    assert not [f for f in validate(model) if f.severity == "error"]


def test_the_four_examples_exist():
    assert {p.stem for p in ALL} >= {"helical_pair", "inner_pair", "bevel_pair", "planetary"}


def test_helical_pair_definition():
    m = load(EXAMPLES / "helical_pair.gdyn")
    (p,) = m.gear_pairs.values()
    assert (p.kind, p.z1, p.z2, p.module, p.face_width) == ("external", 20, 40, 0.002, 0.020)
    assert p.pressure_angle == pytest.approx(math.radians(20)) and p.helix_angle == pytest.approx(math.radians(15))


def test_inner_pair_definition():
    m = load(EXAMPLES / "inner_pair.gdyn")
    (p,) = m.gear_pairs.values()
    assert (p.kind, p.z1, p.z2, p.module) == ("internal", 20, 60, 0.002)
    assert m.bodies[m.joints[p.joint2].body_j].visual.spec.kind == "inner"


def test_bevel_pair_definition():
    m = load(EXAMPLES / "bevel_pair.gdyn")
    (p,) = m.gear_pairs.values()
    assert (p.kind, p.z1, p.z2, p.module) == ("bevel", 20, 40, 0.003)
    a1, a2 = (m.joints[j].unit_axis() for j in (p.joint1, p.joint2))
    assert abs(a1 @ a2) < 1e-12


def test_planetary_definition():
    m = load(EXAMPLES / "planetary.gdyn")
    assert set(m.bodies) == {"sun", "carrier", "planet1", "planet2", "planet3", "ring"}
    assert set(m.joints) == {"sun_joint", "carrier_joint", "ring_joint", "planet1_joint", "planet2_joint", "planet3_joint"}
    assert set(m.gear_pairs) == {f"sun_planet{k}" for k in (1, 2, 3)} | {f"planet{k}_ring" for k in (1, 2, 3)}
    assert m.joints["carrier_joint"].body_i == "ground"
    for k in (1, 2, 3):
        j = m.joints[f"planet{k}_joint"]
        assert j.body_i == "carrier"
        angle = math.degrees(math.atan2(j.position[1], j.position[0])) % 360
        assert angle == pytest.approx(120 * (k - 1), abs=1e-9)
        assert math.hypot(*j.position[:2]) == pytest.approx(0.002 * (24 + 24) / 2)
    teeth = {b.name: b.visual.spec.teeth for b in m.bodies.values() if hasattr(b.visual, "spec")}
    assert teeth == {"sun": 24, "planet1": 24, "planet2": 24, "planet3": 24, "ring": 72}
    assert m.forces["ring_hold"].joint == "ring_joint" and m.forces["ring_hold"].law.value == 0.0
    assert m.forces["sun_torque"].law.value == 1.0


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_two_stage_reducer_tooth_forces_and_shaft_loads_by_hand(formulation):
    """100 rad/s in, 10 N m out, ratio 40/20 * 45/18 = 5. At the steady speeds gear 4 takes Ft = T / r4 =
    10 / 0.045 N, the compound shaft 4 N m, stage 1 Ft = 4 / 0.04 = 100 N. The weld between gear 3 and its
    shaft carries gear 3's tooth force (Ft and Fr = Ft tan 20 deg, at gear 3's mid-face 12.5 mm from the weld's
    point: moments r x F) and the shaft's 4 N m; the shaft's joint both stages' forces."""
    res = simulate(load(EXAMPLES / "two_stage_reducer.gdyn"), t_end=0.01, formulation=formulation)
    last = {c.name: float(res.channel(c.name)[-1]) for c in res.channels}
    ft2 = 10 / 0.045
    assert (last["input_joint.speed"], last["shaft_joint.speed"], last["output_joint.speed"]) == pytest.approx(
        (100.0, -50.0, 20.0), rel=1e-9)
    assert abs(last["stage2.Ft"]) == pytest.approx(ft2, rel=1e-9) and abs(last["stage1.Ft"]) == pytest.approx(100.0)
    fx, fy = last["shaft_weld.Fx"], last["shaft_weld.Fy"]
    assert abs(fy) == pytest.approx(ft2, rel=1e-9) and abs(fx) == pytest.approx(ft2 * math.tan(math.radians(20)))
    assert abs(last["shaft_weld.Tz"]) == pytest.approx(ft2 * 0.018, rel=1e-9)  # 4 N m through the weld
    assert (last["shaft_weld.Tx"], last["shaft_weld.Ty"]) == pytest.approx((-0.0125 * fy, 0.0125 * fx), rel=1e-9)
    assert abs(last["shaft_joint.Fy"]) == pytest.approx(ft2 + 100.0, rel=1e-9)  # both tangential forces along y
