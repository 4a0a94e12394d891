"""The worker that owns a run in its own thread and hands the GUI small chunks of samples.

It never touches the document or a widget: it prepares the run from the
frozen model copy it was given, advances it a slice of wall time at a time,
and emits what it computed. Results grow on the GUI thread only.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Signal, Slot

from app.background import Worker

from core.dynamics.program.linker import CompileError
from core.dynamics.program.choice import compile_note
from core.dynamics.run import effective_settings, prepare
from core.errors import ModelError


class RunWorker(Worker):
    """Runs `model` (already a private copy) when `work` is called in its thread."""

    preparing = Signal(str)  # what preparing the run takes long for (compiling the kernels), when it does
    prepared = Signal(object)  # Results without samples: channels, bodies, model snapshot, settings, findings
    chunk = Signal(object)  # (time, data, positions, orientations) since the last chunk
    progress = Signal(float, float)  # fraction done, solver time [s]
    # status, message, steps, evaluations, traceback of an internal error, events [(t, name, detail)]
    done = Signal(str, str, int, int, str, object)
    refused = Signal(str)  # the run could not start (validation errors, bad settings)

    emit_interval = 0.1  # s of wall time between chunks (the GUI redraws at about this rate)
    #: s of wall time per advance; after each the worker hands the GUI thread the GIL (see `work`). The GUI
    #: thread gives the GIL up at each Qt call and large numpy operation and may wait a slice to get it back: with
    #: 10 ms slices a chunk took ten times longer to append and the window fell behind the run for good.
    slice_seconds = 0.001

    def __init__(self, model):
        super().__init__()
        self.model = model
        self.run = None

    def cancel(self) -> None:
        """Thread-safe: sets flags the run reads before every step."""
        super().cancel()
        if self.run is not None:
            self.run.cancel()

    @Slot()
    def work(self) -> None:
        try:
            note = compile_note(effective_settings(self.model)[0], "auto")
            if note:
                self.preparing.emit(note)
            run = prepare(self.model, keep=False)
        except (ModelError, CompileError) as exc:
            self.refused.emit(str(exc))
            return
        self.run = run
        if self.cancelled:
            run.cancel()
        self.prepared.emit(run.results)
        last = time.perf_counter()
        while True:
            going = run.advance(max_seconds=self.slice_seconds)
            # A step's numpy calls let go of the GIL and take it back so often that the GUI thread waiting for it
            # never asks for its turn (CPython's GIL: it asks after 5 ms without a switch), and the window froze
            # for the whole compiled run; a sleep hands it over, once per slice.
            time.sleep(0)
            now = time.perf_counter()
            if not going or now - last >= self.emit_interval:
                last = now
                chunk = run.take()
                if chunk is not None:
                    self.chunk.emit(chunk)
                self.progress.emit(run.fraction, run.t)
            if not going:
                break
        res = run.results
        self.done.emit(res.status, res.message, res.steps, res.evaluations, run.traceback, list(res.events))
