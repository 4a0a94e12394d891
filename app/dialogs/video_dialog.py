"""Export Video dialog: the file (MP4 or GIF by its suffix), frames per second and playback speed.

A gear whose teeth move half a pitch or more between frames looks still or turning backwards. The dialog says
how far the run's fastest teeth move a frame (core.analysis.tooth_passing) and starts at a speed that moves them
a quarter pitch at most (1x where that is slow enough, or where no speed it takes is)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog, QFormLayout, QLabel

from app.dialogs.fields import FieldError, QuantityField, file_row, finish_form, grow_to_fit
from app.run.video import FORMATS, frame_times
from core.analysis.tooth_passing import TRUE_SHARE, ToothPassing, nice_below
from core.ranges import Range
from core.wording import counted

FPS = Range(lo=1, hi=60, integer=True, unit="1/s")
FPS_DEFAULT = 30
SPEED = Range(lo=0.01, hi=100.0, unit="x")


class VideoDialog(QDialog):
    """The video's file, frame rate and speed; the note says how long the video of the run's `span` (start, end)
    [s] lasts and, with `passing` (the run's fastest teeth, or None), how far they move a frame."""

    def __init__(self, suggestion: Path, span: tuple[float, float], parent=None, passing: ToothPassing | None = None):
        super().__init__(parent)
        self.setWindowTitle("Export Video")
        self.setObjectName("video_dialog")
        self.span, self.passing = span, passing
        row, self.file = file_row(str(suggestion), self._browse)
        self.fps_field = QuantityField("Frames per second", FPS, FPS_DEFAULT)
        true = passing.true_speed(FPS_DEFAULT) if passing is not None else 1.0
        speed = nice_below(true) if SPEED.lo <= true < 1.0 else 1.0  # 1x where no speed in range shows them true
        self.speed_field = QuantityField("Speed", SPEED, speed, "Simulated seconds per second of video")
        form = QFormLayout()
        form.addRow("File (.mp4 or .gif)", row)
        form.addRow("Frames per second", self.fps_field)
        form.addRow("Speed", self.speed_field)
        self.note = QLabel()
        self.note.setObjectName("video_note")
        self.note.setWordWrap(True)
        form.addRow(self.note)
        self.message = finish_form(self, form)
        for field in (self.fps_field, self.speed_field):
            field.edit.textChanged.connect(self._show_note)
        self._show_note()
        self.path = None
        self.fps = self.speed = None

    def _show_note(self, *_) -> None:
        """At the entries' rate and speed: how long the video lasts, how far the fastest teeth move a frame and the
        speed that shows them true ('' while an entry is not a number in range)."""
        try:
            fps, speed = self.fps_field.value(), self.speed_field.value()
        except FieldError:
            self.note.setText("")
            return
        frames = len(frame_times(*self.span, fps, speed))
        lines = [f"{self.span[1] - self.span[0]:.4g} s of the run: a video of {frames / fps:.4g} s, "
                 f"{counted(frames, 'frame')}"]
        p = self.passing
        if p is not None:
            moved = p.per_frame(fps, speed)
            rate = format(p.rate, ".0f" if p.rate >= 100 else ".3g")
            lines.append(f"{p.gear}: up to {rate} teeth pass a second of the run; a frame moves them {moved:.3g} "
                         "tooth pitches")
            true = p.true_speed(fps)
            if moved > TRUE_SHARE and true >= SPEED.lo:
                lines[-1] += (f", so they will look still or turning backwards; at {true:.3g}x or slower a frame "
                              f"moves them {TRUE_SHARE:g} of a pitch at most")
            elif moved > TRUE_SHARE:
                lines[-1] += (f", so they will look still or turning backwards, even at the least speed "
                              f"({SPEED.lo:g}x: {p.per_frame(fps, SPEED.lo):.3g} pitches a frame)")
        self.note.setText("\n".join(lines))
        grow_to_fit(self)

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export video", self.file.text(),
                                              ";;".join(f"{text} (*{suffix})" for suffix, text in FORMATS.items()))
        if path:
            self.file.setText(path)

    def accept(self) -> None:
        try:
            path = Path(self.file.text().strip())
            if path.suffix.lower() not in FORMATS:
                raise FieldError(f"File: must end in {' or '.join(FORMATS)}, got {path.name!r}")
            if not path.parent.is_dir():
                raise FieldError(f"File: the folder {str(path.parent)!r} does not exist")
            self.fps, self.speed = self.fps_field.value(), self.speed_field.value()
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        self.path = path
        super().accept()
