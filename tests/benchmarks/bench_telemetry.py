"""The Telemetry window with 10 channels of 1e6 samples each (goal: pan and zoom redraw under 50 ms).

Prints the time to open such a results file into the window and the time to
redraw after each of a series of pans and zooms (the view range set, then
every plot repainted synchronously), under Xvfb with software OpenGL.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtWidgets import QApplication  # noqa: E402

from core.dynamics.results import Channel, Results, save_results  # noqa: E402
from core.model.files import model_to_dict, load  # noqa: E402

SAMPLES = 1_000_000
CHANNELS = 10
EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def big_results() -> Results:
    """Ten noisy mesh-force-like signals over 10 s at 100 kHz, on the planetary model's snapshot."""
    rng = np.random.default_rng(1)
    t = np.arange(SAMPLES) * 1e-5
    channels = [Channel(f"pair{k}", "Ft", "N", "gear pair") for k in range(CHANNELS)]
    data = np.column_stack([100 * np.sin(2 * np.pi * (50 + 7 * k) * t) + 10 * np.sin(2 * np.pi * 3000 * t)
                            + rng.normal(0, 2, SAMPLES) for k in range(CHANNELS)])
    res = Results(channels, (), model_to_dict(load(EXAMPLES / "planetary.gdyn")), {})
    res.append(t, data)
    res.status = "finished"
    return res


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.gdres"
        save_results(big_results(), path)
        t0 = time.perf_counter()
        window.open_results_file(path)
        tw = window.show_telemetry()
        tw.add_channels([f"pair{k}.Ft" for k in range(5)])
        tw.add_plot()
        tw.add_channels([f"pair{k}.Ft" for k in range(5, 10)])
        for panel in tw.stack.panels:
            panel.viewport().repaint()
        app.processEvents()
        opened = time.perf_counter() - t0
        print(f"{CHANNELS} channels x {SAMPLES:,} samples: open the results file and plot them all: {opened:.2f} s")
        times = []
        spans = [(0, 10), (2, 4), (2.5, 3.0), (2.6, 3.1), (2.7, 3.2), (5, 9), (0.001, 0.002), (0, 10), (3, 3.5), (1, 8)]
        for lo, hi in spans * 2:
            t0 = time.perf_counter()
            tw.stack.set_x_range(lo, hi)
            for panel in tw.stack.panels:
                panel.viewport().repaint()
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"pan/zoom redraw of 2 plots x 5 channels: median {1e3 * times[len(times) // 2]:.1f} ms, "
              f"90th percentile {1e3 * times[int(0.9 * len(times))]:.1f} ms, max {1e3 * times[-1]:.1f} ms (goal < 50 ms)")
        window.doc.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
