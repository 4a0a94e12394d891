"""The worker that runs a CHBM study in its own thread: curves per torque, progress, and a Stop that keeps points.

It never touches a widget or the document: it gets a function that builds
the lumped model for a torque (from a private copy of the model) and emits
each finished curve, and the one being followed as it grows; a Stop ends
the curve being followed where it is, and a curve that fails keeps its points.
"""

from __future__ import annotations

import traceback

import numpy as np
from PySide6.QtCore import Signal, Slot

from app.background import Worker

from core.chbm.continuation import ContinuationError
from core.chbm.study import run_study


class StudyWorker(Worker):
    progress = Signal(float, str)  # fraction done, what it is doing
    curve = Signal(object)  # a CurveResult, as each torque's curve is done
    growing = Signal(object)  # the CurveResult of the torque being followed so far (at the pace of `due`)
    done = Signal(str, str)  # status ('finished', 'stopped', 'failed'), message

    def __init__(self, build, study):
        super().__init__()
        self.build, self.study = build, study  # the continuation reads `cancelled` before every point

    @Slot()
    def work(self) -> None:
        s = self.study
        dti = [float(f) for f in np.linspace(s.f_min, s.f_max, s.dti_points)] if s.dti_points else None
        following = []  # the snapshot of the curve being followed, the latest

        def watch(count, snapshot):
            following[:] = [snapshot]
            if self.due(count):
                self.growing.emit(snapshot())

        try:
            run_study(self.build, s.torques, s.f_min, s.f_max, s.harmonics, dti,
                      progress=lambda f, m: self.progress.emit(float(f), m), cancel=lambda: self.cancelled,
                      df_max=s.df_max or None, on_result=self.curve.emit, watch=watch)
        except ContinuationError as exc:
            if exc.points and following:  # the failed curve's points, as far as it went
                self.curve.emit(following[0]())
            self.done.emit("failed", f"{exc} ({len(exc.points)} points kept)")
            return
        except Exception as exc:  # noqa: BLE001  (a failed study is reported in the window, never a crash)
            self.done.emit("failed", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}")
            return
        self.done.emit("stopped" if self.cancelled else "finished", "")
