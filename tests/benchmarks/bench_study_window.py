"""The app's Parameter Study window: from the Run click to the filled table, 3 short cases of the planetary.

Side by side in one run, each from a freshly opened study window:
- 0 workers: the cases in the app's process, one after the other (the time of the cases themselves);
- 2 workers, Run clicked once the window's cluster is up (it starts when the window opens, while the user
  sets the study up);
- 2 workers, Run clicked the moment the window opens (the user waits for the workers to spawn).
Goal: with the cluster up, the study takes about the time of its cases (what 0 workers shows).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from app.main_window import MainWindow  # noqa: E402

EXAMPLE = ROOT / "resources" / "examples" / "planetary.gdyn"
WAIT_S = 300


def wait(app, done) -> float:
    t0 = time.perf_counter()
    while not done():
        app.processEvents()
        time.sleep(0.002)
        if time.perf_counter() - t0 > WAIT_S:
            raise TimeoutError("the study window did not finish")
    return time.perf_counter() - t0


def study_window(app, window, workers: int, wait_for_cluster: bool):
    """A freshly opened study window with 3 cases set up (sun torque 1, 2, 3 N m; 0.1 s of RK4 at 0.1 ms)."""
    if window.study is not None:
        window.study.close()  # closes its cluster
        window.study.deleteLater()
        window.study = None
    window.act_study.trigger()
    w = window.study
    w.workers.setValue(workers)
    w.prepare_cluster()
    w.params.cellWidget(0, 0).setCurrentText("forces.sun_torque.law.value")
    w.params.item(0, 2).setText("1 2 3")
    w.t_end.setText("0.1")
    w.step.setText("0.0001")
    w.outputs.cellWidget(0, 0).setCurrentText("sun_joint.speed")
    w.outputs.cellWidget(0, 1).setCurrentText("final")
    if wait_for_cluster and workers:
        wait(app, lambda: w.cluster is not None and w.cluster.workers == workers)
    return w


def click_to_table(app, w) -> float:
    t0 = time.perf_counter()
    w.run_button.click()
    wait(app, lambda: w.status in ("finished", "failed") and not w.running)
    took = time.perf_counter() - t0
    assert w.status == "finished" and w.table.rowCount() == 3, (w.status, w.message.text())
    return took


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.show()
    window.open_file(EXAMPLE)
    w = study_window(app, window, 0, False)
    click_to_table(app, w)  # the kernels loaded and the modules imported once, as after a first study
    rows = []
    for _ in range(3):
        for label, workers, ready in (("0 workers (in the app's process)", 0, False),
                                      ("2 workers, cluster up before Run", 2, True),
                                      ("2 workers, Run at once on opening", 2, False)):
            w = study_window(app, window, workers, ready)
            rows.append((label, click_to_table(app, w)))
    for label in dict(rows):
        runs = [t for name, t in rows if name == label]
        print(f"study window, 3 cases, {label}: click to table {', '.join(f'{t:.2f}' for t in runs)} s "
              f"(median {sorted(runs)[1]:.2f} s)", flush=True)
    window.study.close()
    window.doc.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
