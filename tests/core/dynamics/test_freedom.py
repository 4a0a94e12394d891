"""Degrees of freedom (core.dynamics.checks.freedom): counted by hand for every example, and the same in joint
and Cartesian coordinates, whose coordinates and rows differ (6 per body and the joints' rows there)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from core.dynamics.checks import Freedom, check, freedom, model_freedom
from core.dynamics.formulations import assemble
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.entities import FixedJoint, RevoluteJoint, SpeedMotor, TimeLaw
from core.model.files import load
from core.model.model import Model
from tests.conftest import EXAMPLES

# by hand: a rigid pair couples its two gears (1); a compliant mesh leaves both free (2); the planetary's six
# pairs couple sun, carrier and planets to one motion with the ring, which its motor holds (1); the reducer's
# three shafts (gear 3 welded to gear 2's) are one motion by its two pairs, which the input's motor holds (0)
BY_HAND = {"bevel_pair": (1, 0), "compliant_mesh_pair": (2, 0), "helical_pair": (1, 0), "inner_pair": (1, 0),
           "lossy_gear_demo1": (1, 0), "lossy_gear_demo2": (1, 0), "lossy_gear_demo3": (1, 0), "planetary": (1, 2),
           "two_stage_reducer": (0, 0)}


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_the_degrees_of_freedom_are_the_hand_count_in_both_formulations(name):
    model = load(EXAMPLES / f"{name}.gdyn")
    counts = {f: freedom(assemble(model, f)) for f in ("joint", "cartesian")}
    for formulation, count in counts.items():
        assert (count.degrees, count.redundant) == BY_HAND[name], formulation
    assert counts["cartesian"].coordinates == 6 * len(model.bodies)
    revolute = sum(isinstance(j, RevoluteJoint) for j in model.joints.values())
    fixed = len(model.joints) - revolute  # the joint coordinates hold each joint of the tree: its 5 or 6 rows
    assert counts["cartesian"].rows - counts["joint"].rows == 5 * revolute + 6 * fixed


def test_a_model_that_cannot_be_counted_says_why():
    assert model_freedom(Model()) == "the model has no bodies"


def test_the_count_reads_in_singular_and_plural_as_it_should():
    assert Freedom("cartesian", 12, 11, 1, 2).describe() == (
        "2 degrees of freedom: 12 body velocities (6 per body) less 10 independent constraint rows (11 rows, "
        "1 redundant; 2 of them prescribe motors' motions)")
    assert Freedom("joint", 1, 1, 0, 1).describe() == (
        "0 degrees of freedom: 1 joint angle less 1 independent constraint row (1 row, 0 redundant; 1 of them "
        "prescribes a motor's motion)")


def test_a_pair_on_a_compliant_mesh_is_said_to_mesh_by_a_spring_not_a_row():
    """The compliant pair counts 2 joint angles less 0 rows: its pair meshes by the compliant mesh's spring. The
    count said '0 rows' and nothing of the pair, which looked as if it was lost."""
    count = model_freedom(load(EXAMPLES / "compliant_mesh_pair.gdyn"))
    assert count.describe() == ("2 degrees of freedom: 2 joint angles less 0 independent constraint rows (0 rows, "
                                "0 redundant); the gear pair 'pair' meshes through a compliant mesh: a spring, not a row")
    assert Freedom("joint", 6, 2, 0, 1, ("a", "b")).describe().endswith(
        "; the gear pairs 'a', 'b' mesh through compliant meshes: springs, not rows")


def _two_motors(speed2, law1=None, law2=None):
    """The helical pair (z 20 / 40, external: gear 2 turns at -z1 / z2 of gear 1) with a motor on each joint."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.forces["m1"] = SpeedMotor("m1", "gear1_joint", law1 or TimeLaw(value=100.0))
    model.forces["m2"] = SpeedMotor("m2", "gear2_joint", law2 or TimeLaw(value=speed2))
    return model


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_two_motors_whose_speeds_the_gear_pair_cannot_both_meet_are_refused_naming_both(formulation):
    """The pair ties gear 2 to -z1 / z2 = -0.5 times gear 1. Motors at 100 and 100 rad/s contradict it: the run
    failed at its first step with 'constraint drift ... a smaller settings.step', and validation found nothing."""
    model = _two_motors(100.0)
    model.settings = dataclasses.replace(model.settings, formulation=formulation)
    errors = [f for f in check(model) if f.severity == "error"]
    assert [f.item for f in errors] == ["m2"]
    assert "'m1', 'm2'" in errors[0].message and "at t = 0 s" in errors[0].message
    assert "with the rest, 'm2' would turn at -50 rad/s (-477.465 rpm), not 100 rad/s" in errors[0].message
    with pytest.raises(ModelError) as caught:
        prepare(model)
    assert [path for path, _ in caught.value.problems] == ["m2"]


def test_a_motor_on_a_train_a_fixed_joint_holds_is_refused_unless_it_holds_it_still():
    """Gear 2 welded to the ground holds gear 1 through the pair: a motor at 100 rad/s on gear 1 cannot turn it,
    one at 0 rad/s agrees."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.joints["weld"] = FixedJoint("weld", "ground", "gear2", (0.0, 0.0, 0.0))
    model.forces["m1"] = SpeedMotor("m1", "gear1_joint", TimeLaw(value=100.0))
    errors = [f for f in check(model) if f.severity == "error"]
    assert [f.item for f in errors] == ["m1"]
    assert errors[0].message.startswith("the motor 'm1' prescribes a speed the joints and gear pairs already hold")
    assert "'m1' would turn at 0 rad/s (0 rpm), not 100 rad/s" in errors[0].message
    model.forces["m1"] = SpeedMotor("m1", "gear1_joint", TimeLaw(value=0.0))
    assert not [f for f in check(model) if f.severity == "error"]


def test_two_motors_that_agree_with_the_ratio_run_and_are_said_to_share_the_torque():
    """At 100 and -50 rad/s the motors agree with the pair: the run holds both speeds, and the finding says that
    the pair's torque is split between the two motors by the solver, not by the model."""
    model = _two_motors(-50.0)
    found = check(model)
    assert not [f for f in found if f.severity == "error"]
    shared = [f for f in found if f.item == "m2"]
    assert len(shared) == 1 and shared[0].severity == "info" and "'m1', 'm2'" in shared[0].message
    res = prepare(model, t_end=0.1).run()
    assert res.status == "finished"
    assert res["gear2_joint.speed [rad/s]"] == pytest.approx(-50.0, abs=1e-9)


def test_two_ramps_that_part_on_the_way_are_refused_at_the_time_they_part():
    """Both ramps start at 0 and end at 100 / -50 rad/s, so they agree at 0 s and from 0.5 s on, but gear 2's
    ramp is over by 0.4 s: between them the motors contradict the pair."""
    model = _two_motors(0.0, TimeLaw(kind="ramp", value=0.0, final=100.0, t_start=0.0, t_end=0.5),
                        TimeLaw(kind="ramp", value=0.0, final=-50.0, t_start=0.0, t_end=0.4))
    errors = [f for f in check(model) if f.severity == "error"]
    assert [f.item for f in errors] == ["m2"]
    times = [float(t) for t in re.findall(r"at t = ([0-9.e-]+) s", errors[0].message)]
    assert len(times) == 1 and 0.0 < times[0] < 0.5
