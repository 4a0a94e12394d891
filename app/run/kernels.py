"""The compiled kernels loaded in the background when the app starts, so that the model's checks after each edit
(app.document, core.dynamics.checks.check) run compiled instead of in Python once they are ready."""

from __future__ import annotations

from PySide6.QtCore import Signal

from app.background import Worker
from core.dynamics.checks import load_compiled
from core.model.model import Model


class KernelLoader(Worker):
    """Loads the compiled kernels from the cache (core.dynamics.checks.load_compiled) on a copy of the model;
    `done` says whether the checks now run compiled, and if not, why."""

    done = Signal(bool, str)

    def __init__(self, model: Model):
        super().__init__()
        self.model = model.copy()

    def work(self) -> None:
        try:
            loaded = load_compiled(self.model)
        except Exception as exc:  # the checks stay in Python; the status bar says why
            self.done.emit(False, f"the compiled kernels could not be loaded ({type(exc).__name__}: {exc})")
            return
        why = "the compiled kernels are not in the cache yet ('make venv' builds them, as does a first compiled run)"
        self.done.emit(loaded, "" if loaded else why)
