"""The playback clock: one time, speed and play state shared by the playback bar, the 3-D view and the telemetry playhead."""

from __future__ import annotations

import time

import numpy as np

from PySide6.QtCore import QObject, QTimer, Signal

#: playback speeds [-]; the slowest show fast teeth turning (20 teeth at 955 rpm pass 318 a second: several a frame)
SPEEDS = (0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class PlaybackClock(QObject):
    """Time [s] in [start, end], advanced by wall time times `speed` while playing.

    Signals: time_changed(t), playing_changed(bool), range_changed(start, end).
    Views move to `time_changed`; whoever seeks calls `seek(t)`.
    """

    time_changed = Signal(float)
    playing_changed = Signal(bool)
    range_changed = Signal(float, float)

    frame_interval_ms = 15  # the timer asks for frames at up to ~60 Hz; a slow view simply gets fewer

    def __init__(self, parent=None):
        super().__init__(parent)
        self.time = 0.0
        self.start = 0.0
        self.end = 0.0
        self.speed = 1.0
        self.loop = False
        self.playing = False
        self.samples = None  # sample times, for stepping frame by frame
        self._timer = QTimer(self)
        self._timer.setInterval(self.frame_interval_ms)
        self._timer.timeout.connect(self._tick)
        self._wall = 0.0

    def set_range(self, start: float, end: float, samples=None) -> None:
        self.start, self.end, self.samples = float(start), float(end), samples
        self.range_changed.emit(self.start, self.end)
        if not self.start <= self.time <= self.end:
            self.seek(min(max(self.time, self.start), self.end))

    def seek(self, t: float) -> None:
        t = min(max(float(t), self.start), self.end)
        self.time = t
        self.time_changed.emit(t)

    def set_speed(self, speed: float) -> None:
        self.speed = float(speed)

    def play(self) -> None:
        if self.end <= self.start:
            return
        if self.time >= self.end and not self.loop:
            self.seek(self.start)
        self.playing = True
        self._wall = time.perf_counter()
        self._timer.start()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        self.playing = False
        self._timer.stop()
        self.playing_changed.emit(False)

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def to_start(self) -> None:
        self.pause()
        self.seek(self.start)

    def to_end(self) -> None:
        self.pause()
        self.seek(self.end)

    def step_frame(self, direction: int) -> None:
        """To the next (+1) or previous (-1) output sample."""
        self.pause()
        if self.samples is None or not len(self.samples):
            return
        k = int(np.searchsorted(self.samples, self.time, side="right" if direction > 0 else "left"))
        k = k if direction > 0 else k - 1
        self.seek(self.samples[min(max(k, 0), len(self.samples) - 1)])

    def _tick(self) -> None:
        now = time.perf_counter()
        dt, self._wall = now - self._wall, now
        t = self.time + dt * self.speed
        if t >= self.end:
            if self.loop and self.end > self.start:
                t = self.start + (t - self.end) % (self.end - self.start)
            else:
                self.seek(self.end)
                self.pause()
                return
        self.seek(t)
