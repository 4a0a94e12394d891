"""The one kind of background worker (app.background): how it paces the snapshots of a curve that grows."""

from app import background
from app.background import Worker


def test_snapshots_come_at_most_every_interval_and_further_apart_as_they_grow(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(background.time, "monotonic", lambda: clock[0])
    worker = Worker()
    interval, points = Worker.SNAPSHOT_INTERVAL, Worker.SNAPSHOT_POINTS
    assert worker.due(1)  # the first is due at once
    clock[0] += 0.9 * interval
    assert not worker.due(1)
    clock[0] += 0.2 * interval
    assert worker.due(1)
    clock[0] += 1.1 * interval  # a snapshot of 4 times the points waits 4 intervals
    assert not worker.due(4 * points)
    clock[0] += 3.0 * interval
    assert worker.due(4 * points)
