"""A run in the app against the same run without it: what following the run in the 3-D view costs.

The Planetary Gearset dialog's compliant helical set (bench_rates.dialog_planetary), 0.3 s by dopri5, with the
tooth forces shown (the see-through bodies and their arrows: the costliest frames). Timed from the Run click to
the finished run in the main window (1280 x 800, Xvfb, software OpenGL), and as `prepare()` and `run()` in the
same process, alternating, three rounds. The app's side twice: the view following the run at every chunk (as
before the follow budget, app.run.animation.FOLLOW_SHARE = 0 turns it off) and with the budget; and with the
budget and the run worker's GIL slices of 10 ms (app.run.worker.RunWorker.slice_seconds before it became 1 ms,
which left the window waiting for the GIL: see test_telemetry's live test).
Goal: the run in the app within 25 % of the same run without it.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.run import animation  # noqa: E402
from app.run.worker import RunWorker  # noqa: E402
from core.commands import SetSettings  # noqa: E402
from core.dynamics.run import prepare  # noqa: E402
from core.model.files import save  # noqa: E402
from tests.benchmarks.bench_rates import dialog_planetary  # noqa: E402

T_END = 0.3
SHARE = animation.FOLLOW_SHARE


def in_app(app, window, share: float) -> float:
    """Run click to the finished run [s], the view following with FOLLOW_SHARE `share` (0: at every chunk)."""
    animation.FOLLOW_SHARE = share or float("inf")  # an infinite share makes every chunk due
    t0 = time.perf_counter()
    window.act_run.trigger()
    while window.runner.running or window.doc.current.results.status == "running":
        app.processEvents()
        time.sleep(0.001)
    took = time.perf_counter() - t0
    assert window.doc.current.results.status == "finished", window.doc.current.results.message
    return took


def alone(model) -> float:
    t0 = time.perf_counter()
    res = prepare(model).run()
    assert res.status == "finished", res.message
    return time.perf_counter() - t0


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "compliant_planetary.gdyn"
        save(dialog_planetary(), path)
        window.open_file(path, ask=False)
    doc = window.doc
    doc.apply(SetSettings(doc.model, dataclasses.replace(doc.model.settings, integrator="dopri5", t_end=T_END)))
    window.act_forces.setChecked(True)
    window._overlays_changed()
    window.viewport._simplify()  # the display meshes as a user who opened the model a while ago has them
    in_app(app, window, SHARE)  # the kernels loaded, the view drawn once
    drawing = f"app, drawing {SHARE:.0%} of the time"
    slice_seconds = RunWorker.slice_seconds
    old_slices = f"{drawing}, 10 ms GIL slices"
    times = {"without the app": [], "app, following every chunk": [], drawing: [], old_slices: []}
    for _ in range(3):
        times["without the app"].append(alone(doc.model))
        times["app, following every chunk"].append(in_app(app, window, 0.0))
        times[drawing].append(in_app(app, window, SHARE))
        RunWorker.slice_seconds = 0.01
        times[old_slices].append(in_app(app, window, SHARE))
        RunWorker.slice_seconds = slice_seconds
    base = min(times["without the app"])
    print(f"{'run (0.3 s of the compliant helical planetary, dopri5)':58s} {'best [s]':>9s} {'ratio':>6s}  all")
    for label, got in times.items():
        print(f"{label:58s} {min(got):9.2f} {min(got) / base:6.2f}  {', '.join(f'{t:.2f}' for t in got)}")
    animation.FOLLOW_SHARE = SHARE
    window.doc.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
