"""The worker that follows a train's forced-response curves, one per torque scale, and runs Newmark at its check
frequencies on each, in its own thread (app.background's contract)."""

from __future__ import annotations

import traceback

import numpy as np
from PySide6.QtCore import Signal, Slot

from app.background import Worker
from core.chbm.continuation import ContinuationError
from core.chbm.train_commands import scaled_torques
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import newmark_reference, train_curve
from core.errors import ModelError


class TrainWorker(Worker):
    progress = Signal(float, str)  # fraction done, what it is doing
    growing = Signal(object)  # the TrainCurves so far, the last one still being followed (at the pace of `due`)
    # status ('finished', 'stopped', 'failed'), message, the TrainCurves computed (a failed scale keeps the others)
    done = Signal(str, str, object)

    def __init__(self, model, train, scales, f_min: float, f_max: float, harmonics: int, df_max: float | None,
                 newmark_points: int = 0):
        super().__init__()
        self.model, self.train, self.scales = model, train, tuple(scales)
        self.args = (f_min, f_max, harmonics, df_max)
        # Newmark's frequencies on each curve, swept upwards: the same lumped model by time integration
        self.checks = np.linspace(f_min, f_max, newmark_points) if newmark_points else None

    @Slot()
    def work(self) -> None:
        curves, failures = [], []
        n = len(self.scales)
        for i, scale in enumerate(self.scales):
            if self.cancelled:
                break

            # with Newmark's check, the curve is the first half of a scale's share and Newmark the second
            share = 1.0 if self.checks is None else 0.5

            def progress(f, m, i=i, scale=scale):
                self.progress.emit((i + share * float(f)) / n, f"torque x{scale:g}: {m}")

            def checking(f, m, i=i, scale=scale):
                self.progress.emit((i + 0.5 + 0.5 * float(f)) / n, f"torque x{scale:g}: Newmark check: {m}")

            def watch(count, snapshot):
                if self.due(count + sum(len(c.points) for c in curves)):
                    self.growing.emit([*curves, snapshot()])

            try:
                train = self.train if scale == 1.0 else train_from_model(scaled_torques(self.model, scale))
                curves.append(train_curve(train, *self.args, progress=progress, cancel=lambda: self.cancelled,
                                          scale=scale, watch=watch))
                if self.checks is not None and not self.cancelled:
                    newmark_reference(curves[-1], self.checks, progress=checking, cancel=lambda: self.cancelled)
            except ContinuationError as exc:
                failures.append(f"torque x{scale:g}: {exc} ({len(exc.points)} points computed, shown)")
                if exc.curve is not None:
                    curves.append(exc.curve)
            except ModelError as exc:  # the model, not the scale: no other scale runs either
                failures.append(str(exc))
                break
            except Exception as exc:  # noqa: BLE001  (reported in the window, never a crash)
                failures.append(f"torque x{scale:g}: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}")
        status = "stopped" if self.cancelled else ("failed" if failures else "finished")
        self.done.emit(status, "\n".join(failures), curves)
