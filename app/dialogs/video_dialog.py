"""Export Video dialog: the file (MP4 or GIF by its suffix), frames per second and playback speed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog, QFormLayout

from app.dialogs.fields import FieldError, QuantityField, file_row, finish_form
from app.run.video import FORMATS
from core.ranges import Range

FPS = Range(lo=1, hi=60, integer=True, unit="1/s")
SPEED = Range(lo=0.01, hi=100.0, unit="x")


class VideoDialog(QDialog):
    def __init__(self, suggestion: Path, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Export Video")
        self.setObjectName("video_dialog")
        row, self.file = file_row(str(suggestion), self._browse)
        self.fps_field = QuantityField("Frames per second", FPS, 30)
        self.speed_field = QuantityField("Speed", SPEED, 1.0, "Simulated seconds per second of video")
        form = QFormLayout()
        form.addRow("File (.mp4 or .gif)", row)
        form.addRow("Frames per second", self.fps_field)
        form.addRow("Speed", self.speed_field)
        self.message = finish_form(self, form)
        self.path = None
        self.fps = self.speed = None

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
