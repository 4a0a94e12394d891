"""The study window's background work (app.background's worker contract): starting a local dask cluster, and
running a study's cases on it or in this process.

The cluster starts when the window opens (or its worker count changes) and is kept for every study run from
the window, so a study starts computing at once: spawning worker processes takes seconds (each imports
Python, numpy and dask afresh), longer than a study of a few short cases.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot

from app.background import Worker

from core.studies.cases import warm_up
from core.studies.runner import local_cluster, run_study


class Cluster:
    """A local dask cluster and its client, `workers` worker processes."""

    def __init__(self, cluster, client, workers: int):
        self.cluster, self.client, self.workers = cluster, client, workers

    def close(self) -> None:
        self.client.close()
        self.cluster.close()


class ClusterWorker(Worker):
    """Starts a local cluster of `workers` processes, each made ready for cases of `base` (a model as data:
    core.studies.cases.warm_up); `ready(Cluster)` or `failed(message)`."""

    ready = Signal(object)
    failed = Signal(str)

    def __init__(self, workers: int, base: dict | None):
        super().__init__()
        self.workers, self.base = workers, base  # a cluster started after a cancel is closed at once

    @Slot()
    def work(self) -> None:
        cluster = None
        try:
            cluster = Cluster(*local_cluster(self.workers), self.workers)
            if not self.cancelled:
                cluster.client.run(warm_up, self.base)
        except Exception as exc:  # noqa: BLE001  (reported in the window; a study then runs in this process)
            if cluster is not None:
                cluster.close()
            self.failed.emit(f"the {self.workers} dask workers did not start ({type(exc).__name__}: {exc})")
            return
        if self.cancelled:
            cluster.close()
            self.failed.emit("")
            return
        self.ready.emit(cluster)


class StudyWorker(Worker):
    """Runs the cases of `study` on `cluster`'s workers, or in this process when `cluster` is None."""

    progress = Signal(int, int)
    done = Signal(object, str)  # rows, error

    def __init__(self, study, base, cluster: Cluster | None):
        super().__init__()
        self.study, self.base, self.cluster = study, base, cluster

    @Slot()
    def work(self) -> None:
        try:
            rows = run_study(self.study, workers=0 if self.cluster is None else None, base=self.base,
                             client=None if self.cluster is None else self.cluster.client,
                             cancel=lambda: self.cancelled,
                             progress=lambda done, total, row: self.progress.emit(done, total))
        except Exception as exc:  # noqa: BLE001  (reported in the window)
            self.done.emit([], f"{type(exc).__name__}: {exc}")
            return
        self.done.emit(rows, "")
