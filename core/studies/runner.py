"""Running a study's cases: on a dask.distributed cluster (a LocalCluster here by default, or an existing
scheduler), or in this process; progress as cases finish; one CSV row per case.
"""

from __future__ import annotations

import logging
import math
import time

from core.atomic import atomic_write_text
from core.errors import ModelError
from core.model.files import load, model_from_dict, model_to_dict
from core.studies.cases import output_columns, run_case
from core.studies.parameters import value_problems
from core.studies.study_file import CHBM_BASE, Study

# Local workers run long CPU-bound cases. Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ = 64 KiB
# (memory back to the system early): the harmonic balance, which allocates many mid-size arrays, then runs
# 43 % slower (a CHBM case 3.21 s against 2.25 s in a plain process); glibc's own default adapts up to
# 32 MiB, which is kept here. The statistical profiler (a sample of each task thread every 10 ms) and the
# 20 ms event-loop tick also take the GIL from the case: a 4.3 s simulation took 4.6-5.1 s on a worker
# with them, 4.45-4.6 s without. The workers are spawned, never forked: the cluster forks from its IO-loop
# thread, and a child forked from a process with threads (the app's, the IO loop, a test runner's) may inherit a
# lock that one of them held and wait on it for ever. Spawning costs about a second more per cluster.
LOCAL_DASK_CONFIG = {"distributed.worker.multiprocessing-method": "spawn",
                     "distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "500ms",
                     "distributed.admin.system-monitor.interval": "2s",
                     "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": 32 * 1024 * 1024}


#: what a worker logs, with a traceback, when its heartbeat goes unanswered: also when the cluster closes the
#: scheduler with a heartbeat in flight (dask/distributed#7105), now and then at a study's end
HEARTBEAT_UNANSWERED = "Failed to communicate with scheduler during heartbeat"


class QuietHeartbeat(logging.Filter):
    """Drops a worker's report of an unanswered heartbeat (HEARTBEAT_UNANSWERED) and passes every other record. A
    worker that has lost its scheduler for good closes, and the cases it held fail saying so."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(HEARTBEAT_UNANSWERED)


def _prepare_worker() -> str:
    """Run on each local worker: `QuietHeartbeat` on its log."""
    logging.getLogger("distributed.worker").addFilter(QuietHeartbeat())
    return "ok"


def local_cluster(workers: int | None):
    """A LocalCluster of `workers` single-threaded worker processes (default one per core), each with one BLAS
    thread (dask's pre-spawn environment sets OMP/OPENBLAS/MKL_NUM_THREADS=1: two workers on two cores would
    otherwise oversubscribe them) and `QuietHeartbeat` (`_prepare_worker`), and its client."""
    import dask
    from dask.distributed import Client, LocalCluster

    with dask.config.set(LOCAL_DASK_CONFIG):  # the nannies hand this configuration to their workers
        # the scheduler's HTTP endpoints on a free port: its default 8787 is taken by a second cluster (the
        # app's study window keeps one) and dask then warns on the terminal
        cluster = LocalCluster(n_workers=workers or None, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
    client = Client(cluster)
    client.run(_prepare_worker)
    return cluster, client


def base_dict(study: Study) -> dict | None:
    """The base model as plain data (sent to every worker), or None for the paper's pair."""
    if study.base == CHBM_BASE:
        return None
    return model_to_dict(load(study.base))


def run_study(study: Study, scheduler: str | None = None, workers: int | None = None, progress=None,
              cancel=None, base: dict | None = None, client=None) -> list[dict]:
    """Every case of `study`, in case order.

    Parameters
    ----------
    scheduler : str, optional
        Address of an existing dask scheduler (``tcp://host:8786``); the cases run on its workers.
    workers : int, optional
        Worker processes of the local cluster (default: one per core); 0 runs the cases in this process.
    progress : callable(done, total, row), optional
        Called as each case finishes; row["case"] is its index.
    cancel : callable() -> bool, optional
        True stops the study: cases not finished are cancelled and their rows say so; finished rows are kept.
    base : dict, optional
        The base model as data (the GUI passes its open model); default: read from the study's base file.
    client : dask.distributed.Client, optional
        A client of a cluster started beforehand (the app starts one when its study window opens): the cases
        run on its workers, and it stays open. `scheduler` and `workers` are then not used.
    """
    if client is not None and scheduler is not None:
        raise ValueError("run_study: give a scheduler address or a client, not both")
    if base is None:
        base = base_dict(study)
    if base is not None:
        problems = value_problems(model_from_dict(base), study.parameters)
        if problems:
            raise ModelError.of(problems)
    cases = study.cases()
    if workers == 0 and scheduler is None and client is None:
        rows = []
        for k, values in enumerate(cases):
            if cancel and cancel():
                rows += [_cancelled(study, v) for v in cases[k:]]
                break
            rows.append({**run_case(study, base, values), "case": k})
            if progress:
                progress(k + 1, len(cases), rows[-1])
        return rows
    from dask.distributed import Client, as_completed

    cluster, owned = None, client is None
    if owned and scheduler is None:
        cluster, client = local_cluster(workers)
    elif owned:
        try:
            client = Client(scheduler, timeout=20)
        except (OSError, TimeoutError, ValueError) as exc:  # unreachable, or not an address
            raise ModelError(f"--scheduler: cannot reach the dask scheduler at {scheduler!r}: {exc}") from None
    try:
        study_f, base_f = client.scatter(study, broadcast=True), client.scatter(base, broadcast=True)
        futures = [client.submit(run_case, study_f, base_f, values, key=f"case-{k}-{time.time_ns()}", pure=False)
                   for k, values in enumerate(cases)]
        index = {f.key: k for k, f in enumerate(futures)}
        rows = [None] * len(cases)
        done = 0
        pending = as_completed(futures)
        for future in pending:
            if cancel and cancel():
                for f in futures:
                    f.cancel()
                for j, r in enumerate(rows):
                    if r is None:
                        rows[j] = _cancelled(study, cases[j])
                break
            k = index[future.key]
            try:
                rows[k] = future.result()
            except Exception as exc:  # noqa: BLE001  (a lost worker: the case is reported, the others go on)
                n = len(output_columns(study))
                rows[k] = {"values": cases[k], "results": [math.nan] * n, "units": [""] * n, "status": "failed",
                           "message": f"{type(exc).__name__}: {exc}"[:300]}
            rows[k]["case"] = k
            done += 1
            if progress:
                progress(done, len(cases), rows[k])
        return rows
    finally:
        if owned:
            client.close()
        if cluster is not None:
            cluster.close()


def _cancelled(study: Study, values) -> dict:
    n = len(output_columns(study))
    return {"values": values, "results": [math.nan] * n, "units": [""] * n, "status": "cancelled", "message": ""}


def header(study: Study, rows: list[dict | None]) -> list[str]:
    """case, the parameter paths, the results (with the unit the first finished case reported), status, message
    (why a case failed, or its model's warnings)."""
    names = output_columns(study)
    units = next((r["units"] for r in rows if r is not None and r["status"] not in ("failed", "cancelled")),
                 [""] * len(names))
    cols = [f"{n} [{u}]" if u and "[" not in n else n for n, u in zip(names, units)]
    return ["case", *[p.path for p in study.parameters], *cols, "status", "message"]


def write_results(path, study: Study, rows: list[dict | None]) -> None:
    """One CSV row per case (atomic write); None for a case not finished yet leaves its row out."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header(study, rows))
    for k, r in enumerate(rows):
        if r is None:
            continue
        w.writerow([k, *(f"{v:.12g}" for v in r["values"]), *(f"{v:.12g}" for v in r["results"]), r["status"],
                    r["message"]])
    atomic_write_text(path, buf.getvalue())
