"""A curve watched while it is followed: the snapshots a window draws as the curve grows are the curve's own points
with their own loads, and the last one is the curve returned."""

import numpy as np
import pytest

from core.chbm.lumped_model import paper_model
from core.chbm.study import run_study
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import CurveLoads, mesh_loads, train_curve
from core.model.files import load
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def reducer_watched():
    """The reducer's curve over 3000-3300 Hz of stage 1, with every snapshot watch was offered, taken."""
    train = train_from_model(load(EXAMPLES / "two_stage_reducer.gdyn"))
    snapshots = []
    curve = train_curve(train, 3000.0, 3300.0, 80, 50.0,
                        watch=lambda count, snapshot: snapshots.append((count, snapshot())))
    assert all(count == len(s.points) for count, s in snapshots)
    return train, curve, [s for _, s in snapshots]


def test_a_watched_train_curve_gives_a_snapshot_after_each_point_and_ends_as_the_curve_returned(reducer_watched):
    _, curve, snapshots = reducer_watched
    sizes = [len(s.points) for s in snapshots]
    assert sizes[0] == 1 and len(snapshots) >= len(curve.points) > 5
    assert all(b <= a + 1 for a, b in zip(sizes, sizes[1:]))  # one point at a time (or a dropped branch)
    last = snapshots[-1]
    assert all(a is b for a, b in zip(last.points, curve.points)) and len(last.points) == len(curve.points)
    assert [[ld.peak for ld in loads] for loads in last.loads] == [[ld.peak for ld in loads] for loads in curve.loads]
    assert snapshots[2].points[-1].frequency > snapshots[0].points[0].frequency == 3000.0


def test_each_snapshots_loads_are_those_of_its_own_points(reducer_watched):
    """The loads are worked out once per point as it comes: each snapshot's are the loads of its points, as
    mesh_loads gives them from the point's own solution."""
    train, curve, snapshots = reducer_watched
    for snapshot in (snapshots[3], snapshots[len(snapshots) // 2]):
        for p, loads in zip(snapshot.points, snapshot.loads):
            fresh = mesh_loads(train, curve.hb, p.z, p.frequency, curve.static)
            assert [ld.peak for ld in loads] == pytest.approx([ld.peak for ld in fresh], rel=1e-12)


def test_curve_loads_forget_the_points_dropped_from_the_end(reducer_watched):
    """The continuation drops a branch it climbed from the end of its list and goes on: the loads held for the
    dropped points must go with them."""
    train, curve, _ = reducer_watched
    a, b, c, d = curve.points[:4]
    built = CurveLoads(train, curve.hb, 1.0)
    built.see([a, b, c])
    replaced = built.curve([a, d])
    fresh = CurveLoads(train, curve.hb, 1.0).curve([a, d])
    assert replaced.points == [a, d]
    peaks = [[ld.peak for ld in loads] for loads in replaced.loads]
    assert peaks == [[ld.peak for ld in loads] for loads in fresh.loads]
    assert not np.allclose(peaks[1], [ld.peak for ld in built.curve([a, b]).loads[1]])  # d's, not b's


def test_a_watched_pair_study_gives_its_curve_so_far_after_each_point():
    snapshots = []
    (result,) = run_study(paper_model, [100.0], 500.0, 1500.0, harmonics=8,
                          watch=lambda count, snapshot: snapshots.append(snapshot()))
    assert [len(s.points) for s in snapshots[:3]] == [1, 2, 3]
    assert snapshots[-1].points == result.points and snapshots[-1].torque == 100.0
    assert snapshots[-1].hb is result.hb
