"""Parameter studies on 2 local dask workers against a serial loop in one process (goal: speed-up >= 1.7).

16 CHBM cases (the paper's pair, torques 50-350 N m, 500-4000 Hz, H 14, points at most 5 Hz apart) and
8 multibody cases (the planetary example, sun torque 1-4 N m x sun face width 15/25 mm, 0.3 s of RK4 at
1 ms). The parallel time includes starting the local cluster (printed apart), as a user pays it.
"""

from __future__ import annotations

import os

# One BLAS thread in this process as in the workers (dask starts them so): the serial loop is then timed in the
# configuration that is fastest for it (a CHBM case takes 0.55 s with one thread, 0.64-0.71 s with two on this
# machine), so the speed-up is not flattered by a slower serial baseline. Set before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.studies.runner import run_study  # noqa: E402
from core.studies.study_file import study_from_dict  # noqa: E402

EXAMPLES = ROOT / "resources" / "examples"

CHBM = {"base": "chbm", "parameters": [{"path": "chbm.torque", "grid": {"start": 50.0, "stop": 350.0, "count": 16}}],
        "analysis": {"kind": "chbm", "f_min": 500, "f_max": 4000, "harmonics": 14, "df_max": 5}}
MULTIBODY = {"base": "planetary.gdyn",
             "parameters": [{"path": "forces.sun_torque.law.value", "grid": {"start": 1.0, "stop": 4.0, "count": 4}},
                            {"path": "gears.sun.face_width", "values": [0.015, 0.025]}],
             "analysis": {"kind": "simulation", "t_end": 0.3, "step": 1e-3, "output_step": 1e-3, "integrator": "rk4",
                          "outputs": [{"channel": "sun_planet1.Ft", "reduce": "max_abs"}]}}


def cluster_start() -> float:
    import dask.distributed  # noqa: F401  (imported once per process: not part of a cluster's start)

    from core.studies.runner import local_cluster

    t0 = time.perf_counter()
    cluster, client = local_cluster(2)
    took = time.perf_counter() - t0
    client.close()
    cluster.close()
    return took


def timed(study, workers):
    t0 = time.perf_counter()
    rows = run_study(study, workers=workers)
    assert all(r["status"] == "ok" for r in rows), [r["message"] for r in rows if r["status"] != "ok"]
    return time.perf_counter() - t0, rows


def main() -> None:
    print(f"starting a 2-worker local cluster alone: {cluster_start():.2f} s")
    # The machine's noise is +-10-15 % on a 6 s parallel run: each side is timed REPEATS times, alternating,
    # and the speed-up of the medians is printed with every ratio.
    for name, data, repeats in (("CHBM", CHBM, 5), ("multibody", MULTIBODY, 3)):
        study = study_from_dict(data, str(EXAMPLES / "study.json"))
        serial_times, parallel_times = [], []
        for _ in range(repeats):
            serial, a = timed(study, 0)
            parallel, b = timed(study, 2)
            serial_times.append(serial)
            parallel_times.append(parallel)
            # the same numbers to round-off
            diff = max(abs(x - y) / max(abs(x), 1e-300) for ra, rb in zip(a, b) for x, y in zip(ra["results"], rb["results"]))
            assert diff < 1e-6, diff
        s_med, p_med = statistics.median(serial_times), statistics.median(parallel_times)
        ratios = ", ".join(f"{s / p:.2f}" for s, p in zip(serial_times, parallel_times))
        print(f"{len(a)} {name} cases: serial {s_med:.2f} s, 2 workers {p_med:.2f} s (cluster start included), medians "
              f"of {repeats}: speed-up {s_med / p_med:.2f} (each run: {ratios}; goal >= 1.7)")


if __name__ == "__main__":
    main()
