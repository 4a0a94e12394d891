"""Video export of the animation: MP4 (H.264 through imageio-ffmpeg) or GIF, with a progress bar and cancel."""

from __future__ import annotations

import lzma
import os
import shutil
import sys
from pathlib import Path

import numpy as np
from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import QApplication, QProgressDialog

from core.atomic import atomic_target

FORMATS = {".mp4": "MP4 video (H.264)", ".gif": "GIF animation"}
#: the frozen app's ffmpeg, xz-compressed (80 MB as a program, 21 MB packed: packaging/geardyn.spec)
PACKED_ENCODER = "ffmpeg.xz"


def packed_encoder() -> Path | None:
    """The frozen app's packed ffmpeg, unless imageio-ffmpeg was told which to run (IMAGEIO_FFMPEG_EXE); None
    for an installed GearDyn (imageio-ffmpeg's own)."""
    packed = Path(getattr(sys, "_MEIPASS", "")) / PACKED_ENCODER
    frozen = getattr(sys, "frozen", False) and not os.environ.get("IMAGEIO_FFMPEG_EXE")
    return packed if frozen and packed.is_file() else None


def unpacked_encoder(packed: Path) -> Path:
    """Where the packed ffmpeg is unpacked to: the user's cache, named by the packed file's size (versions)."""
    cache = Path(QStandardPaths.writableLocation(QStandardPaths.CacheLocation) or Path.home() / ".cache" / "geardyn")
    return cache / f"ffmpeg-{packed.stat().st_size}"


def use_packed_encoder() -> None:
    """In the frozen app: unpack its ffmpeg into the user's cache once (about 1.5 s), and have imageio-ffmpeg run
    that one (its IMAGEIO_FFMPEG_EXE setting)."""
    packed = packed_encoder()
    if packed is None:
        return
    target = unpacked_encoder(packed)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        try:
            with lzma.open(packed) as src, open(partial, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            partial.chmod(0o755)
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
    os.environ["IMAGEIO_FFMPEG_EXE"] = str(target)


def frame_times(start: float, end: float, fps: float, speed: float) -> np.ndarray:
    """Times [s] of the frames: one every speed / fps seconds of simulated time, both ends included."""
    n = int(np.floor((end - start) * fps / speed + 1e-9)) + 1
    return start + np.arange(n) * speed / fps


def write_video(path, frames, fps: float, progress=None) -> bool:
    """Write the frames (an iterable of RGB arrays) to `path`; the suffix picks the format.

    Atomic: a temporary file in the same folder is renamed when complete.
    `progress(k)` is called per frame and returns False to cancel; then
    nothing is left behind and False is returned.
    """
    import imageio.v2 as imageio

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"file: must end in {' or '.join(FORMATS)}, got {path.name!r}")
    try:
        with atomic_target(path, suffix) as tmp:
            if suffix == ".mp4":
                use_packed_encoder()
                writer = imageio.get_writer(tmp, format="FFMPEG", fps=fps, codec="libx264", quality=8,
                                            macro_block_size=1, pixelformat="yuv420p")
            else:
                writer = imageio.get_writer(tmp, format="GIF", mode="I", duration=1000.0 / fps, loop=0)
            try:
                for k, image in enumerate(frames):
                    if suffix == ".mp4":  # yuv420p needs even sides
                        image = image[: image.shape[0] // 2 * 2, : image.shape[1] // 2 * 2]
                    writer.append_data(np.ascontiguousarray(image))
                    if progress is not None and progress(k + 1) is False:
                        raise _Cancelled
            finally:
                writer.close()
    except _Cancelled:
        return False
    return True


class _Cancelled(Exception):
    """The user cancelled the export: the temporary file goes, the old file stays."""


def export_animation(parent, animator, path, fps: float = 30.0, speed: float = 1.0) -> bool:
    """Render the current run's animation frame by frame into `path` with a cancellable progress dialog."""
    res = animator.results
    times = frame_times(float(res.time[0]), float(res.time[-1]), fps, speed)
    packed = packed_encoder() if Path(path).suffix.lower() == ".mp4" else None
    first = " (unpacking the video encoder first, once: a few seconds)" \
        if packed is not None and not unpacked_encoder(packed).is_file() else ""
    dialog = QProgressDialog(f"Writing {Path(path).name}...{first}", "Cancel", 0, len(times), parent)
    dialog.setObjectName("video_progress")
    dialog.setWindowTitle("Export Video")
    dialog.setWindowModality(Qt.WindowModal)
    dialog.setMinimumDuration(0)
    viewport = animator.viewport

    def frames():
        for t in times:
            animator.show(float(t))
            yield viewport.frame_image()

    def progress(k):
        dialog.setValue(k)
        QApplication.processEvents()
        return not dialog.wasCanceled()

    try:
        with viewport.unselected():
            return write_video(path, frames(), fps, progress)
    finally:
        dialog.close()
        animator.show(animator.clock.time)
