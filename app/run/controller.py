"""Starts and stops runs of the document's model: a worker in the background, its chunks appended on the GUI
thread."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Signal

from app.background import Background


class RunController(QObject):
    """One run at a time. Signals: started(record), preparing(what takes long), prepared(record: its results
    carry the plan), progress(fraction, t [s], seconds left), finished(record)."""

    started = Signal(object)
    preparing = Signal(str)
    prepared = Signal(object)
    progress = Signal(float, float, float)
    finished = Signal(object)
    refused = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.doc = document
        self.background = Background(self)
        self.record = None
        self._t0 = 0.0

    @property
    def running(self) -> bool:
        return self.background.running

    def start(self):
        """Run the document's model as it is now; returns the new run record (None if one is running)."""
        if self.running:
            return None
        from app.run.worker import RunWorker  # the engine is loaded with the first run, not at start-up

        model = self.doc.model.copy()  # the frozen copy: later edits do not reach the run
        self.record = self.doc.add_run(model.copy())
        worker = RunWorker(model)
        worker.preparing.connect(self.preparing)
        worker.prepared.connect(self._prepared)
        worker.chunk.connect(self._chunk)
        worker.progress.connect(self._progress)
        worker.done.connect(self._done)
        worker.refused.connect(self._refused)
        self._t0 = time.perf_counter()
        self.background.start(worker)
        self.started.emit(self.record)
        return self.record

    def stop(self) -> None:
        """Ask the run to stop; it ends before its next step and keeps what it computed."""
        self.background.cancel()

    def wait(self, ms: int = 5000) -> bool:
        """Block until the worker thread has ended (for quitting and tests)."""
        return self.background.wait(ms)

    # ------------------------------------------------------------------ worker signals (GUI thread)

    def _prepared(self, results) -> None:
        self.record.results = results
        self.doc.run_updated.emit(self.record)
        self.prepared.emit(self.record)

    def _chunk(self, chunk) -> None:
        self.record.results.append(*chunk)
        self.doc.run_updated.emit(self.record)

    def _progress(self, fraction: float, t: float) -> None:
        elapsed = time.perf_counter() - self._t0
        left = elapsed * (1.0 - fraction) / fraction if fraction > 0 else float("nan")
        self.progress.emit(fraction, t, left)

    def _done(self, status: str, message: str, steps: int, evaluations: int, trace: str, events: list) -> None:
        res = self.record.results
        res.status, res.message, res.steps, res.evaluations = status, message, steps, evaluations
        res.events = events
        res.compact()
        self.record.seconds = time.perf_counter() - self._t0
        if trace:
            print(trace)  # an internal error: the run is kept and says what; the trace goes to the terminal
        self._end()

    def _refused(self, message: str) -> None:
        self.doc.take_back_run(self.record)
        self.refused.emit(message)
        self.record = None
        self._end()

    def _end(self) -> None:
        record = self.record
        self.background.finish()
        if record is not None:
            self.doc.run_updated.emit(record)
            self.finished.emit(record)
        self.record = None  # the run ended belongs to the document alone: forgotten there, it is freed
