"""Damaged results files: each gives one line naming the file and what is wrong, never a traceback or a hang.

1,000 damaged copies of a lossy demo's results file (single bit flips, 20 flips, a zeroed 4 kB block, a cut
tail) are read by read_results in one child process each time a batch (a read that does not end in 1 s, some
fifteen times a sound file's read, is a hang: the child is ended and the case counted). open_results itself,
on a file whose zeroed block makes HDF5 spin, ends its reading child and says so. Files damaged in their structure by hand (soft links, loops,
sparse time axes, whole numbers where text belongs, huge declared shapes) are named too.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import random
import time
from collections import Counter

import h5py
import numpy as np
import pytest

from core.dynamics.results import open_results, save_results
from core.dynamics.results.results_file import read_results
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.files import load
from tests.conftest import EXAMPLES

CASES, BATCH, HANG = 1000, 100, 1.0


def reader(sound) -> multiprocessing.pool.Pool:
    """A child process for read_results that has read the sound file `sound` once: its start and imports are not
    counted in the first damaged read's time."""
    pool = multiprocessing.get_context("spawn").Pool(1)
    pool.apply(read_results, (str(sound),))
    return pool


@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("results") / "demo3.gdres"
    save_results(prepare(load(EXAMPLES / "lossy_gear_demo3.gdyn"), t_end=0.05).run(), path)
    return path


def damaged(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    kind = rng.choice(("flip", "flips", "zero", "cut"))
    if kind == "flip":
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    elif kind == "flips":
        for _ in range(20):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif kind == "zero":
        i = rng.randrange(0, len(b), 512)
        b[i:i + 4096] = bytes(len(b[i:i + 4096]))
    else:
        b = b[:rng.randrange(len(b))]
    return bytes(b)


def test_a_thousand_damaged_results_files_give_a_thousand_clean_outcomes(results_file, tmp_path):
    rng = random.Random(2026)
    data = results_file.read_bytes()
    outcome = Counter()
    paths = []
    for k in range(CASES):
        path = tmp_path / f"d{k:04d}.gdres"
        path.write_bytes(damaged(data, rng))
        paths.append(path)
    pending = list(paths)
    while pending:
        batch, pending = pending[:BATCH], pending[BATCH:]
        pool = reader(results_file)
        try:
            for n, path in enumerate(batch):
                job = pool.apply_async(read_results, (str(path),))
                try:
                    res, problem = job.get(HANG)
                except multiprocessing.TimeoutError:
                    outcome["hang (ended; open_results reports it)"] += 1
                    pending = batch[n + 1:] + pending
                    break
                if problem:
                    assert "\n" not in problem and len(problem) < 400, problem
                    assert not problem.startswith("cannot be read as a results file (Traceback"), problem
                    outcome["one-line error"] += 1
                else:
                    assert len(res.time) == len(res.data) and res.data.shape[1] == len(res.channels)
                    outcome["read (the damage missed what is read)"] += 1
        finally:
            pool.terminate()
    print(dict(outcome))
    assert sum(outcome.values()) == CASES
    assert outcome["one-line error"] > CASES // 2


def test_a_file_that_makes_hdf5_spin_is_ended_and_named(results_file, tmp_path):
    # a zeroed block that made h5py's attribute read spin at 100 % CPU forever (seed 1, case 65 of the trial)
    rng = random.Random(1)
    data, found = results_file.read_bytes(), None
    with reader(results_file) as pool:
        for k in range(400):
            candidate = tmp_path / "spin.gdres"
            candidate.write_bytes(damaged(data, rng))
            try:
                pool.apply_async(read_results, (str(candidate),)).get(HANG)
            except multiprocessing.TimeoutError:
                found = candidate
                break
    if found is None:
        pytest.fail("none of 400 damaged files made the reader spin: the hang this test covers is gone")
    start = time.perf_counter()
    with pytest.raises(ModelError, match="spin.gdres: cannot be read as a results file .reading it did not end "
                                         "within 2 s: the file is damaged"):
        open_results(found, timeout=2.0)
    assert time.perf_counter() - start < 10.0


def rewrite(path, edit):
    with h5py.File(path, "r+") as f:
        edit(f)


@pytest.mark.parametrize("edit, words", [
    (lambda f: (f.__delitem__("time"), f.__setitem__("time", h5py.SoftLink("/time"))), "/time is a link"),
    (lambda f: (f.__delitem__("time"), f.create_dataset("time", data=np.arange(3.0))), "shape"),
    (lambda f: f["time"].__setitem__(slice(None), np.zeros(f["time"].shape)), "finite and increasing"),
    (lambda f: f.attrs.__setitem__("status", 7), "attribute 'status' must be text"),
    (lambda f: f.attrs.__setitem__("steps", "many"), "attribute 'steps' must be a whole number"),
    (lambda f: f.attrs.__setitem__("settings", "[" * 100_000), "not valid JSON"),
    (lambda f: (f.__delitem__("events"), f.create_group("events").create_group("time")), "/events/time is not"),
    (lambda f: f["channels"].create_group("c999999").create_group("deeper"), "/channels/c999999 is not a dataset"),
    (lambda f: (f["poses"].__delitem__("position"), f["poses"].create_dataset(
        "position", shape=(2**40, 2**20, 3), dtype=float, chunks=(1, 1, 3))), "shape"),
])
def test_files_damaged_in_their_structure_are_named(results_file, tmp_path, edit, words):
    path = tmp_path / "bad.gdres"
    path.write_bytes(results_file.read_bytes())
    rewrite(path, edit)
    with pytest.raises(ModelError, match=words) as info:
        open_results(path)
    assert str(info.value).startswith("bad.gdres: ") and "\n" not in str(info.value)
