"""The main window's start, idle load and in-place updates, under Xvfb with software OpenGL.

- Start: wall time from launching `geardyn gui` on the planetary example to its splash screen, to the main
  window shown (its 3-D view is made after it) and to the model's first drawn frame, for the installed app and
  for the frozen one when dist/geardyn is built (goal: under 2 s warm). Cold: the operating system's file cache
  emptied first and an empty home folder, as a user's first start after installing. First start: files cached,
  an empty home folder (matplotlib's font list and Mesa's shader cache made again). Warm: files cached and the
  home folder of an earlier start, as every later start of the same user.
- Idle: CPU time the open window uses over 5 s of doing nothing, as a share of one core (goal: under 2 %).
- Undo: on a 64-stage train of generated gears, the time from Undo of a gear's face-width edit to the
  redrawn view, the compiled kernels loaded in the background as at start (goal: under 100 ms).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

APP = ROOT / "dist" / "geardyn" / "geardyn"
EXAMPLE = ROOT / "resources" / "examples" / "planetary.gdyn"
DROP_CACHES = Path("/proc/sys/vm/drop_caches")


def make_cold(folders: list[Path]) -> str:
    """Empty the operating system's file cache of what the app reads, as after installing it or a reboot:
    the whole page cache when this process may drop it (root), else every file under `folders` one by one
    (posix_fadvise DONTNEED: clean pages leave the cache)."""
    os.sync()
    if os.access(DROP_CACHES, os.W_OK):
        DROP_CACHES.write_text("3\n")
        return "page cache dropped"
    files = 0
    for folder in folders:
        for path in folder.rglob("*"):
            try:
                with open(path, "rb") as f:
                    os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
                files += 1
            except OSError:  # folders, sockets, unreadable files
                pass
    return f"{files} files evicted from the page cache"


def start(command: list[str], home: str | None = None) -> tuple[float, float, float]:
    """Seconds from launching `command` (the app on the planetary, in smoke-test mode) to its splash screen, to
    the main window shown and to the first drawn frame of the model, in the home folder `home` (default: an empty
    one). Run from another checkout's folder (`cd ../before && python /path/to/bench_gui_start.py`),
    `-m app.launch` starts that checkout's app."""
    with tempfile.TemporaryDirectory() as empty:
        home = home or empty
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home,
               "XDG_CACHE_HOME": home, "GEARDYN_SMOKE_TEST": "1"}
        t0 = time.perf_counter()
        proc = subprocess.Popen(command + ["gui", str(EXAMPLE)], stdout=subprocess.PIPE, text=True, env=env)
        seen = {}
        for line in proc.stdout:
            if "splash shown" in line:
                seen["splash"] = time.perf_counter() - t0
            elif "window shown" in line:
                seen["window"] = time.perf_counter() - t0
            elif " drew " in line:
                seen["drawn"] = time.perf_counter() - t0
        proc.wait(timeout=120)
    assert proc.returncode == 0 and "drawn" in seen, (proc.returncode, seen)
    # nan: an app without a splash or a window shown before its view (older commits)
    return seen.get("splash", float("nan")), seen.get("window", float("nan")), seen["drawn"]


def report(name: str, command: list[str], folders: list[Path]) -> None:
    """Cold, first and warm starts (see the module docstring), three of each."""
    cold, how = [], ""
    for _ in range(3):
        how = make_cold(folders)
        cold.append(start(command))
    first = [start(command) for _ in range(3)]
    with tempfile.TemporaryDirectory() as home:
        start(command, home)  # the user's first start: it fills the caches the later ones find
        warm = [start(command, home) for _ in range(3)]
    labels = {"cold": f"{how}, empty home folder", "first": "files cached, empty home folder",
              "warm": "files cached, the home folder of an earlier start"}
    for label, runs in (("cold", cold), ("first", first), ("warm", warm)):
        print(f"{name}, {label} start ({labels[label]}): splash "
              f"{', '.join(f'{s:.2f}' for s, _, _ in runs)} s; window {', '.join(f'{w:.2f}' for _, w, _ in runs)} s; "
              f"drawn planetary {', '.join(f'{d:.2f}' for _, _, d in runs)} s", flush=True)


def main() -> None:
    report("installed (.venv)", [sys.executable, "-m", "app.launch"],
           [ROOT / "app", ROOT / "core", ROOT / "resources", Path(sys.prefix), Path(os.__file__).parent])
    if APP.exists():
        report("frozen (dist/geardyn)", [str(APP)], [APP.parent])
    else:
        print(f"frozen app: {APP} not built (make package); not timed")

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from core.commands import set_gear_spec
    from core.dynamics.program.linker import loaded
    from core.model.files import save
    from tests.benchmarks.bench_animation import spur_train

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    window.open_file(ROOT / "resources" / "examples" / "planetary.gdyn")
    window.load_kernels()  # as `geardyn gui` does after its view is made
    while window.kernel_loading.running:
        app.processEvents()
    print(f"model checks after an edit: {'compiled' if loaded().compiled else 'Python'} kernels", flush=True)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    idle = QEventLoop()
    QTimer.singleShot(5000, idle.quit)
    idle.exec()
    share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    print(f"idle window (planetary open): {100 * share:.2f} % of a core over 5 s (goal: under 2 %)")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "train64.gdyn"
        save(spur_train(64), path)
        window.open_file(path)
        for _ in range(20):
            app.processEvents()
        doc = window.doc
        times = []
        for k in range(5):
            doc.apply(set_gear_spec(doc.model, f"gear{10 + k}", face_width=0.03))
            for _ in range(5):
                app.processEvents()
            drawn = window.viewport.frames_drawn
            t0 = time.perf_counter()
            window.act_undo.trigger()
            while window.viewport.frames_drawn == drawn and time.perf_counter() - t0 < 10:
                app.processEvents()
            times.append(time.perf_counter() - t0)
        print(f"undo of a gear's face width on a 64-stage train (65 gears) to the redrawn view: "
              f"median {1e3 * sorted(times)[2]:.0f} ms, max {1e3 * max(times):.0f} ms (goal: under 100 ms)", flush=True)
        doc.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
