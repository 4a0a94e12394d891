"""What the frozen app's smoke test (packaging/smoke_test.py) drives in the window, as a user would.

With GEARDYN_SMOKE_TEST set, `geardyn gui FILE` quits once the model is drawn, printing what it drew. With
GEARDYN_SMOKE_EXPORT=PATH.csv it first runs the model (Simulate > Run), opens Telemetry and exports every
channel through its Export CSV dialog to PATH; with GEARDYN_SMOKE_VIDEO=PATH.mp4 it then exports the
animation through File > Export Video. The lines it prints say what happened (among them the order in which
Qt's collation sorts a few names: the frozen app ships ICU's data trimmed, packaging/icu_data.py); the exit
code is 0 when every file was written.
"""

from __future__ import annotations

import os
from functools import cmp_to_key

from PySide6.QtCore import QCollator, QLocale, QTimer
from PySide6.QtWidgets import QApplication

POLL_MS = 50
WAIT_MS = 120_000


def start(app, window) -> None:
    """Begin the smoke test of `window` (called inside the event loop: exit() needs it)."""
    print(f"smoke test: collation {' '.join(collated(['b', 'file10', 'B', 'a', 'file2']))}", flush=True)
    export = os.environ.get("GEARDYN_SMOKE_EXPORT")
    after = (lambda: _run_and_export(app, window, export)) if export else (lambda: _finish(app, window, 0))
    _when(app, lambda: bool(window.viewport.body_actors and window.viewport.frames_drawn), "the model drawn",
          lambda: (print(f"smoke test: {window.windowTitle()} drew {len(window.viewport.body_actors)} bodies",
                         flush=True), after()))


def collated(names: list[str]) -> list[str]:
    """`names` in the order of Qt's English collation, numbers by value (as a file dialog sorts): a b B file2
    file10 with ICU's data; without it Qt warns and falls back to code-point order (B a b file10 file2)."""
    collator = QCollator(QLocale("en_US"))
    collator.setNumericMode(True)
    return sorted(names, key=cmp_to_key(collator.compare))


def _when(app, ready, what: str, then, waited_ms: int = 0) -> None:
    """Call `then` once `ready()` holds; quit with exit code 3 if it does not within WAIT_MS."""
    if ready():
        then()
    elif waited_ms > WAIT_MS:
        print(f"smoke test: waited {WAIT_MS / 1000:.0f} s for {what}", flush=True)
        app.exit(3)
    else:
        QTimer.singleShot(POLL_MS, lambda: _when(app, ready, what, then, waited_ms + POLL_MS))


def _answer(name: str, fill, waited_ms: int = 0) -> None:
    """Fill in and accept the modal dialog called `name` once it shows, as the user would."""
    dialog = next((w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()), None)
    if dialog is not None:
        fill(dialog)
        dialog.accept()
    elif waited_ms < WAIT_MS:
        QTimer.singleShot(POLL_MS, lambda: _answer(name, fill, waited_ms + POLL_MS))


def _run_and_export(app, window, path: str) -> None:
    window.runner.finished.connect(lambda record: print(f"smoke test: run finished: {record.results.summary()}",
                                                        flush=True))
    window.act_run.trigger()
    _when(app, lambda: window.animator.results is not None and not window.runner.running, "the run to finish",
          lambda: _export(app, window, path))


def _export(app, window, path: str) -> None:
    window.act_telemetry.trigger()

    def all_channels(dialog):
        dialog.scope.setCurrentIndex(dialog.scope.findData("all"))
        dialog.file.setText(path)

    QTimer.singleShot(0, lambda: _answer("export_csv_dialog", all_channels))
    window.telemetry.act_csv.trigger()  # returns when the dialog has closed and the file is written
    written = [_said(path)]
    video = os.environ.get("GEARDYN_SMOKE_VIDEO")
    if video:
        QTimer.singleShot(0, lambda: _answer("video_dialog", lambda dialog: dialog.file.setText(video)))
        window.act_video.trigger()
        written.append(_said(video))
    _finish(app, window, 0 if all(written) else 4)


def _said(path: str) -> bool:
    there = os.path.isfile(path)
    print(f"smoke test: wrote {path} ({os.path.getsize(path)} bytes)" if there else f"smoke test: no file at {path}",
          flush=True)
    return there


def _finish(app, window, code: int) -> None:
    window.doc.undo_stack.setClean()
    window.close()
    app.exit(code)  # unconditional (Qt 6's quit() asks every top-level window again)
