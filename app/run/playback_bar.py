"""The playback bar under the 3-D view: play/pause, frame steps, a time slider, the time, speed, loop, the run's state."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStyle,
    QToolButton,
    QWidget,
)

from app.run.clock import SPEEDS, PlaybackClock

SLIDER_STEPS = 10_000
FOLLOW_INTERVAL = 0.066  # s


class ElidedLabel(QLabel):
    """A one-line label that ends in an ellipsis where its text does not fit (`text()` stays whole)."""

    def paintEvent(self, event) -> None:
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.ElideRight, rect.width())
        painter = QPainter(self)
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(), shown,
                                  self.foregroundRole())
        painter.end()


class PlaybackBar(QWidget):
    """Drives a PlaybackClock and follows it."""

    def __init__(self, clock: PlaybackClock, parent=None):
        super().__init__(parent)
        self.setObjectName("playback_bar")
        self.clock = clock
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)

        style = self.style()
        self.icons = {"play": style.standardIcon(QStyle.SP_MediaPlay), "pause": style.standardIcon(QStyle.SP_MediaPause)}

        def button(name, icon, tip, slot):
            b = QToolButton()
            b.setObjectName(name)
            b.setIcon(style.standardIcon(icon))
            b.setToolTip(tip)
            b.clicked.connect(slot)
            lay.addWidget(b)
            return b

        self.first = button("go_to_start", QStyle.SP_MediaSkipBackward, "Go to the start (Home)", clock.to_start)
        self.back = button("frame_back", QStyle.SP_MediaSeekBackward, "Previous output sample", lambda: clock.step_frame(-1))
        self.play = button("play", QStyle.SP_MediaPlay, "Play / pause (Space); at the end, Play starts again",
                           clock.toggle)
        self.forward = button("frame_forward", QStyle.SP_MediaSeekForward, "Next output sample", lambda: clock.step_frame(+1))
        self.last = button("go_to_end", QStyle.SP_MediaSkipForward, "Go to the end (End)", clock.to_end)
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setObjectName("time_slider")
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setToolTip("Time: drag to move the animation")
        self.slider.setMinimumWidth(240)  # the bar at its least width (a 1280 px screen): a third of it
        self.slider.valueChanged.connect(self._slid)
        lay.addWidget(self.slider, 4)  # the slider takes most of the bar's width, the run's state the rest
        self.time_label = QLabel("t = 0 s")
        self.time_label.setObjectName("time_label")
        self.time_label.setMinimumWidth(130)
        lay.addWidget(self.time_label)
        self.speed = QComboBox()
        self.speed.setObjectName("speed")
        self.speed.setToolTip("Playback speed (simulated seconds per second)")
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}x", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.currentIndexChanged.connect(lambda i: clock.set_speed(self.speed.itemData(i)))
        lay.addWidget(self.speed)
        self.loop = QCheckBox("Loop")
        self.loop.setObjectName("loop")
        self.loop.toggled.connect(lambda on: setattr(clock, "loop", on))
        lay.addWidget(self.loop)
        self.state = ElidedLabel("")
        self.state.setObjectName("run_state")
        self.state.setWordWrap(False)
        self.state.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)  # a long state must not widen the window
        self.state.setMinimumWidth(80)
        lay.addWidget(self.state, 1)
        clock.time_changed.connect(self._follow)
        clock.playing_changed.connect(lambda on: self.play.setIcon(self.icons["pause" if on else "play"]))
        clock.range_changed.connect(lambda a, b: self._follow(clock.time))
        self._setting = False
        self._shown_at = 0.0
        clock.playing_changed.connect(lambda on: on or self._follow(clock.time))
        self.setEnabled(False)

    def _slid(self, value: int) -> None:
        if self._setting:
            return
        c = self.clock
        c.pause()
        c.seek(c.start + (c.end - c.start) * value / SLIDER_STEPS)

    def _follow(self, t: float) -> None:
        c = self.clock
        now = time.perf_counter()
        if c.playing and now - self._shown_at < FOLLOW_INTERVAL:
            return  # while playing, the read-out follows at ~15 Hz: repainting it every frame cost a tenth of the frame rate
        self._shown_at = now
        span = c.end - c.start
        self._setting = True
        self.slider.setValue(round(SLIDER_STEPS * (t - c.start) / span) if span > 0 else 0)
        self._setting = False
        self.time_label.setText(f"t = {t:.4f} s / {c.end:.4g} s" if span > 0 else "t = 0 s")

    def show_state(self, text: str, warning: bool = False) -> None:
        """The run's state beside the controls; a warning (results of an earlier model) in amber."""
        self.state.setText(text)
        self.state.setToolTip(text)
        self.state.setStyleSheet("color: #9a6700; font-weight: bold" if warning else "color: #444")
