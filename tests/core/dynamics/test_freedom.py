"""Degrees of freedom (core.dynamics.checks.freedom): counted by hand for every example, and the same in joint
and Cartesian coordinates, whose coordinates and rows differ (6 per body and the joints' rows there)."""

from __future__ import annotations

import pytest

from core.dynamics.checks import Freedom, freedom, model_freedom
from core.dynamics.formulations import assemble
from core.model.entities import RevoluteJoint
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
