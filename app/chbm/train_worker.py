"""The worker that follows a train's forced-response curve in its own thread (app.background's contract)."""

from __future__ import annotations

import traceback

from PySide6.QtCore import Signal, Slot

from app.background import Worker
from core.chbm.continuation import ContinuationError
from core.chbm.train_study import train_curve


class TrainWorker(Worker):
    progress = Signal(float, str)  # fraction done, what it is doing
    done = Signal(str, str, object)  # status ('finished', 'stopped', 'failed'), message, the TrainCurve or None

    def __init__(self, train, f_min: float, f_max: float, harmonics: int, df_max: float | None):
        super().__init__()
        self.args = (train, f_min, f_max, harmonics, df_max)

    @Slot()
    def work(self) -> None:
        train, f_min, f_max, harmonics, df_max = self.args
        try:
            curve = train_curve(train, f_min, f_max, harmonics, df_max,
                                progress=lambda f, m: self.progress.emit(float(f), m), cancel=lambda: self.cancelled)
        except ContinuationError as exc:
            self.done.emit("failed", f"{exc} ({len(exc.points)} points computed)", None)
            return
        except Exception as exc:  # noqa: BLE001  (reported in the window, never a crash)
            self.done.emit("failed", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}", None)
            return
        self.done.emit("stopped" if self.cancelled else "finished", "", curve)
