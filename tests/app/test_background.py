"""The one kind of background worker (app.background): how it paces the snapshots of a curve that grows, and that
a worker is freed when its thread ends."""

import gc
import weakref

import numpy as np
from PySide6.QtCore import Signal, Slot

from app import background
from app.background import Background, Worker


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


class Holder(Worker):
    """A worker that holds 8 MB, as a run's worker holds its run, and says when its work is done."""

    done = Signal()

    def __init__(self):
        super().__init__()
        self.data = np.zeros(1_000_000)

    @Slot()
    def work(self) -> None:
        self.done.emit()


def test_a_worker_and_what_it_holds_are_freed_once_its_thread_has_ended(qtbot):
    """Background.finish asked for the worker's deletion after its thread had ended, which Qt never carries out:
    every run's worker, with its run and results, stayed for the life of the app."""
    runner = Background()
    worker = Holder()
    gone = weakref.ref(worker.data)
    worker.done.connect(runner.finish)
    with qtbot.waitSignal(worker.done):
        runner.start(worker)
    del worker
    qtbot.waitUntil(lambda: gc.collect() >= 0 and gone() is None, timeout=5000)
    assert not runner.running
