"""The compiled kernels' cache is found wherever GearDyn lives (core.dynamics.program.cache).

The program's folder name must not depend on where core is installed, and a cache folder that moved must load
without compiling anything (numba's counters of cache misses stay at 0). (The frozen app ships its kernels
compiled ahead of time instead: test_ahead_of_time.py.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.dynamics.program.cache import holds_program, prune, used
from core.dynamics.program.linker import ENTRIES, program
from tests.conftest import EXAMPLES, ROOT

# A run of the planetary (compiled) in a child process; prints numba's cache hits and misses of the entries.
CHILD = """
import json, sys
{setup}
from core.dynamics.program.linker import ENTRIES, program
from core.dynamics.run import prepare
from core.model.files import load
run = prepare(load(sys.argv[1]), t_end=2e-4, step=1e-4, output_step=1e-4, compiled="on", formulation="joint")
run.run()
code = program(True)
stats = [getattr(code, name).stats for name in ENTRIES]
print(json.dumps({{"hits": sum(sum(s.cache_hits.values()) for s in stats),
                   "misses": sum(sum(s.cache_misses.values()) for s in stats), "folder": str(code.folder),
                   "plan": run.plan.line()}}))
"""


def child(env_cache: Path, setup: str = "", cwd: Path = ROOT) -> dict:
    env = {**os.environ, "GEARDYN_KERNEL_CACHE": str(env_cache), "PYTHONPATH": str(cwd)}
    res = subprocess.run([sys.executable, "-c", CHILD.format(setup=setup), str(EXAMPLES / "planetary.gdyn")],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """A copy of core in another folder (as the user's copy of a frozen app): numba's own locators, keyed by
    the source files' paths, would find nothing there."""
    home = tmp_path_factory.mktemp("installed")
    shutil.copytree(ROOT / "core", home / "core", ignore=shutil.ignore_patterns("__pycache__"))
    return home


@pytest.fixture(scope="module")
def warm_folder() -> Path:
    """The program's folder in the user's cache, compiled ('make test' compiles it before the suite)."""
    folder = program(False).folder
    if not holds_program(folder, ENTRIES):
        child(folder.parent)  # compiles it (minutes), as the first compiled run of a session would
    return folder


def test_program_folder_name_is_the_same_wherever_core_and_the_cache_are(tmp_path):
    names = set()
    for place, cache in (("first", tmp_path / "cache"), ("second/deeper", tmp_path / "second/deeper/kernels")):
        home = tmp_path / place
        shutil.copytree(ROOT / "core", home / "core", ignore=shutil.ignore_patterns("__pycache__"))
        res = subprocess.run([sys.executable, "-c", "from core.dynamics.program.linker import program; "
                              "import core; print(core.__file__); print(program(False).folder.name)"],
                             cwd=home, env={**os.environ, "PYTHONPATH": str(home),
                                            "GEARDYN_KERNEL_CACHE": str(cache)},
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        where, name = res.stdout.split()
        assert Path(where).is_relative_to(home)  # the copy ran, not the checkout
        names.add(name)
    assert names == {program(False).folder.name}


def test_a_moved_cache_loads_every_entry_point_without_compiling(warm_folder, elsewhere, tmp_path):
    moved = tmp_path / "moved"
    shutil.copytree(warm_folder, moved / warm_folder.name)
    seen = child(moved, cwd=elsewhere)
    assert Path(seen["folder"]) == moved / warm_folder.name
    assert seen["misses"] == 0 and seen["hits"] >= 1, seen
    assert "compiled" in seen["plan"], seen["plan"]


def test_prune_removes_programs_of_other_sources_unused_for_30_days_and_keeps_the_rest(tmp_path):
    days = 86400
    old_folder, fresh_folder, kept = (tmp_path / name for name in ("0123456789abcdef", "fedcba9876543210",
                                                                    "aaaaaaaaaaaaaaaa"))
    old_module = tmp_path / "geardyn_kernels_0123456789abcdef.cpython-311-x86_64-linux-gnu.so"
    not_ours = [tmp_path / "loops", tmp_path / "notes.txt", tmp_path / "0123456789abcdeg"]
    for folder in (old_folder, fresh_folder, kept, not_ours[0], not_ours[2]):
        (folder / "module").mkdir(parents=True)
        (folder / "module" / "code.nbc").write_bytes(b"x" * 1000)
    old_module.write_bytes(b"y" * 500)
    not_ours[1].write_text("a note")
    now = time.time()
    for path in (old_folder, old_module, kept, *not_ours):
        os.utime(path, (now - 40 * days, now - 40 * days))
    os.utime(fresh_folder, (now - 1 * days, now - 1 * days))
    assert prune(tmp_path, {kept}) == (2, 1500)
    assert not old_folder.exists() and not old_module.exists()
    assert fresh_folder.exists() and kept.exists() and all(path.exists() for path in not_ours)
    used(kept)  # a run that loads it marks it, and the next prune leaves it
    assert prune(tmp_path, set()) == (0, 0) and kept.exists()
