"""The one way the app does long work: a worker object in a thread of its own (`Background`).

Contract of a worker (a QObject):

1. ``work()``, a slot, does the whole job when the thread starts; it never touches a widget or the document.
2. It reports through its own signals only; connected to slots of objects of the GUI thread, they are queued
   there. Its last signal says it is done (or failed), and that slot calls `Background.finish`.
3. ``cancel()`` is thread-safe (it sets flags the job reads) and makes the job end soon, keeping what it did.

`Worker` is such a base: `cancelled` is the flag its work reads, and `due()` paces the snapshots of work in
progress it sends (a curve drawn as it grows).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QThread


class Worker(QObject):
    """Base of the app's background workers (the module's contract): `work()` is the subclass's; `cancel()`
    sets `cancelled`, which the work reads between its steps (one assignment: thread-safe)."""

    #: Least wall time [s] between two snapshots of the work so far (`due`) of up to SNAPSHOT_POINTS points; a
    #: redraw costs in proportion to its points and holds the interpreter the worker needs too (some 50 ms for
    #: a train curve's 1,400 points with both meshes), so larger snapshots come further apart: drawing then takes
    #: a few per cent of the time.
    SNAPSHOT_INTERVAL, SNAPSHOT_POINTS = 0.25, 125

    def __init__(self):
        super().__init__()
        self.cancelled = False
        self._last_snapshot = -float("inf")

    def cancel(self) -> None:
        self.cancelled = True

    def due(self, points: int = 0) -> bool:
        """Whether a snapshot of the work so far, of `points` points to draw, is due: at most one every
        SNAPSHOT_INTERVAL seconds, and longer in proportion to points beyond SNAPSHOT_POINTS."""
        now = time.monotonic()
        if now - self._last_snapshot < self.SNAPSHOT_INTERVAL * max(1.0, points / self.SNAPSHOT_POINTS):
            return False
        self._last_snapshot = now
        return True


class Background(QObject):
    """Runs one worker at a time in a thread of its own (see the module's contract of a worker)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.thread: QThread | None = None
        self.worker: QObject | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self, worker: QObject) -> None:
        """Move `worker` (its signals connected) to a new thread and call its work() there."""
        if self.running:
            raise RuntimeError("Background.start: a worker is still running")
        self.worker, self.thread = worker, QThread(self)
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.work)
        # deleted as its thread ends: a deleteLater posted after the thread has ended is never carried out
        self.thread.finished.connect(worker.deleteLater)
        self.thread.start()

    def cancel(self) -> None:
        """Ask the worker to end soon (it keeps what it did)."""
        if self.worker is not None:
            self.worker.cancel()

    def wait(self, ms: int = 5000) -> bool:
        """Block until the thread has ended (for quitting and tests); whether it did."""
        return self.thread.wait(ms) if self.thread is not None else True

    def finish(self) -> None:
        """End the thread of a worker whose work is done (from the slot of its last signal)."""
        thread = self.thread
        self.thread = self.worker = None
        if thread is not None:
            thread.quit()
            thread.wait()
            thread.deleteLater()

    def stop(self) -> None:
        """Cancel the worker and wait for its thread to end (a window that closes)."""
        self.cancel()
        self.finish()
