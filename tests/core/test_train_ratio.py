"""How fast one joint turns per rad/s of another through a model's gear train (core.analysis.train_ratio), against
the Willis equations worked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from core.analysis.train_ratio import speed_ratio
from core.model.entities import SpeedMotor, TimeLaw
from core.model.files import load
from tests.conftest import EXAMPLES, two_stage_reducer
from tests.core.dynamics.test_generalized_alpha import pair_from_file_new


def test_an_external_pair_turns_its_gears_apart_by_the_teeth_ratio_rigid_or_through_a_compliant_mesh():
    model = pair_from_file_new()  # 20 and 40 teeth, a compliant mesh, a speed motor on gear 1
    assert speed_ratio(model, "gear2_joint", "gear1_joint") == pytest.approx(-20 / 40, rel=1e-9)
    assert speed_ratio(model, "gear1_joint", "gear2_joint") == pytest.approx(-40 / 20, rel=1e-9)
    del model.forces["mesh"]
    assert speed_ratio(model, "gear2_joint", "gear1_joint") == pytest.approx(-20 / 40, rel=1e-9)


@pytest.mark.parametrize("own_joint", [False, True])
def test_a_two_stage_reducer_turns_its_output_the_same_way_at_the_product_of_the_stages(own_joint):
    model = two_stage_reducer(own_joint=own_joint, stiffness=(2e8, 3e8))
    # (-20/40) (-18/45): two external stages keep the sense
    assert speed_ratio(model, "g4_j", "g1_j") == pytest.approx(20 / 40 * 18 / 45, rel=1e-9)


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_the_planetary_with_its_ring_held_turns_the_carrier_and_the_planets_on_it_by_willis(formulation):
    model = load(EXAMPLES / "planetary.gdyn")  # sun 24, planets 24, ring 72 held by a speed motor at 0
    model.settings = dataclasses.replace(model.settings, formulation=formulation)
    assert speed_ratio(model, "carrier_joint", "sun_joint") == pytest.approx(24 / (24 + 72), rel=1e-9)
    # a planet relative to the carrier: -(z_s / z_p) (w_s - w_c), with w_c = w_s / 4
    assert speed_ratio(model, "planet1_joint", "sun_joint") == pytest.approx(-24 / 24 * (1 - 0.25), rel=1e-9)
    assert speed_ratio(model, "ring_joint", "sun_joint") == pytest.approx(0.0, abs=1e-12)  # held


def test_a_speed_motor_that_drives_does_not_hold_its_joint_and_one_whose_law_is_zero_does():
    model = load(EXAMPLES / "planetary.gdyn")
    model.forces["sun_drive"] = SpeedMotor("sun_drive", "sun_joint", TimeLaw(value=10.0))
    assert speed_ratio(model, "carrier_joint", "sun_joint") == pytest.approx(0.25, rel=1e-9)
    assert speed_ratio(model, "sun_joint", "carrier_joint") == pytest.approx(4.0, rel=1e-9)
    model.forces["sun_drive"] = SpeedMotor("sun_drive", "sun_joint", TimeLaw())  # 0 at every time: a hold
    assert speed_ratio(model, "sun_joint", "carrier_joint") is None  # sun and ring held: nothing turns


def test_no_ratio_where_the_train_does_not_tie_the_joints_to_one_motion():
    model = load(EXAMPLES / "planetary.gdyn")
    del model.forces["ring_hold"]  # the ring free: two degrees of freedom
    assert speed_ratio(model, "carrier_joint", "sun_joint") is None
    model = pair_from_file_new()
    del model.gear_pairs["pair"], model.forces["mesh"]  # two gears that do not mesh
    assert speed_ratio(model, "gear2_joint", "gear1_joint") is None
    model = load(EXAMPLES / "planetary.gdyn")  # the reference held still: nothing is per rad/s of it
    assert speed_ratio(model, "sun_joint", "ring_joint") is None


def test_a_joint_that_is_not_a_revolute_joint_of_the_model_has_no_ratio():
    model = pair_from_file_new()
    assert speed_ratio(model, "nothing", "gear1_joint") is None
    assert speed_ratio(model, "gear1_joint", "nothing") is None
