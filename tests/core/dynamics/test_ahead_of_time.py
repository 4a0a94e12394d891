"""The kernels compiled ahead of time (core.dynamics.program.ahead): what compiled runs take, without numba.

One build of the warmed program into a frozen app's folder (`python -m core.dynamics.warm --ahead`, as `make
package` runs it: about half a minute on numba's cache). Then every example model runs in each formulation it
allows in three child processes: on numba's just-in-time program; as a frozen app shipping the module; and as
an installed GearDyn whose kernel cache holds it. The last two cannot import numba. Their channels equal the
first's bit for bit, and each run's plan says which it ran on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.dynamics.formulations import FORMULATIONS
from core.dynamics.program import ahead
from core.dynamics.program.linker import program
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.files import load
from tests.conftest import EXAMPLES, ROOT

STEPS = 40  # of each example's own step: its events and samples

# Runs every example in every formulation it allows and saves what came out; `setup` makes the process what the
# case needs (no numba, a frozen app).
CHILD = """
import json, sys
import numpy as np
{setup}
from core.dynamics.program.linker import program
from tests.core.dynamics.test_ahead_of_time import runs
found, plans = runs()
np.savez(sys.argv[1], **found)
print(json.dumps({{"plans": plans, "note": program(True).note}}))
"""
NO_NUMBA = 'sys.modules["numba"] = None  # any import of numba fails, as in a frozen app that does not ship it'


def runs() -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Every example's run (compiled) in each formulation it allows: its channels by "<example>/<formulation>/
    <channel>", and each run's plan line by "<example>/<formulation>"."""
    found, plans = {}, {}
    for path in sorted(EXAMPLES.glob("*.gdyn")):
        for formulation in FORMULATIONS:
            model = load(path)
            t_end = STEPS * model.settings.step
            try:
                run = prepare(model, t_end=t_end, output_step=t_end / 8, formulation=formulation, compiled="on")
            except ModelError as exc:  # a model whose bodies do not hang from the ground on a tree of joints
                assert exc.path == "formulation", exc
                continue
            res = run.run()
            assert res.status == "finished", (path.name, formulation, res.message)
            key = f"{path.stem}/{formulation}"
            plans[key] = run.plan.line()
            for name in res.names:
                found[f"{key}/{name}"] = np.asarray(res[name])
    return found, plans


def child(cache: Path, out: Path, setup: str = "") -> tuple[dict, dict]:
    """`runs()` in a child process whose kernel cache is `cache`: its channels, and its plans and program note."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GEARDYN_KERNEL_CACHE": str(cache)}
    res = subprocess.run([sys.executable, "-c", CHILD.format(setup=setup), str(out)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    return dict(np.load(out)), json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    """A kernel cache holding numba's program alone ("jit": a copy of the user's, when there is one), and a frozen
    app's folder ("bundle") holding the module compiled ahead of time in kernels/, made as `make package` does."""
    home = tmp_path_factory.mktemp("ahead")
    jit, bundle = home / "jit", home / "bundle"
    mine = program(False).folder
    if mine.is_dir():
        shutil.copytree(mine, jit / mine.name)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GEARDYN_KERNEL_CACHE": str(jit)}
    res = subprocess.run([sys.executable, "-m", "core.dynamics.warm", "--ahead", str(bundle / "kernels")], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stderr[-3000:]
    return {"jit": jit, "bundle": bundle}


def test_the_kernels_compiled_ahead_of_time_run_every_example_as_numba_does_without_numba(places, tmp_path):
    module = places["bundle"] / "kernels" / ahead.file_name(program(False).stamp)
    assert module.is_file() and not list(places["jit"].glob("geardyn_kernels_*"))
    installed = tmp_path / "installed"
    installed.mkdir()
    shutil.copy(module, installed)
    expected, jit = child(places["jit"], tmp_path / "jit.npz")
    frozen_found, frozen = child(tmp_path / "empty", tmp_path / "frozen.npz",
                                 f"{NO_NUMBA}\nsys.frozen, sys._MEIPASS = True, {str(places['bundle'])!r}")
    installed_found, kept = child(installed, tmp_path / "installed.npz", NO_NUMBA)
    assert jit["note"].startswith("compiled by numba"), jit["note"]
    assert frozen["note"] == f"compiled ahead of time, shipped with the app in {module}", frozen["note"]
    assert kept["note"] == f"compiled ahead of time, kept in {installed / module.name}", kept["note"]
    assert set(jit["plans"]) == set(frozen["plans"]) == set(kept["plans"]) and len(jit["plans"]) >= 17
    for key, line in jit["plans"].items():
        assert "compiled (asked for)" in line and "compiled (asked for)" in kept["plans"][key], (key, line)
        assert "compiled (asked for; ahead of time, shipped with the app)" in frozen["plans"][key], key
    for found in (frozen_found, installed_found):
        assert set(found) == set(expected)
        for name, values in expected.items():
            np.testing.assert_array_equal(found[name], values, err_msg=name)


def test_a_stamp_without_its_module_finds_nothing(places):
    kernels = places["bundle"] / "kernels"
    assert ahead.find(program(False).stamp, kernels) is not None
    assert ahead.find("0" * 16, kernels) is None
    assert ahead.find(program(False).stamp, None) is None


def test_without_a_c_compiler_warm_says_so_and_compiled_runs_take_numbas_cache(places, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(places["jit"], cache)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GEARDYN_KERNEL_CACHE": str(cache), "CC": "/bin/false"}
    res = subprocess.run([sys.executable, "-m", "core.dynamics.warm"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "could not be compiled ahead of time" in res.stdout and "numba's cache" in res.stdout, res.stdout
    assert not list(cache.rglob("geardyn_kernels_*"))  # nothing half made left behind
    _, seen = child(cache, tmp_path / "out.npz")
    assert seen["note"].startswith("compiled by numba") and all(
        "compiled (asked for)" in line for line in seen["plans"].values()), seen


# A damaged shipped module, in a frozen app without numba: `--compiled on` stops naming the file, `auto` runs as
# Python and its plan says why.
DAMAGED = """
import sys
sys.modules["numba"] = None
sys.frozen, sys._MEIPASS = True, sys.argv[1]
from core.dynamics.program.linker import CompileError
from core.dynamics.run import prepare
from core.model.files import load
try:
    prepare(load(sys.argv[2]), t_end=0.01, compiled="on")
except CompileError as exc:
    print("on:", exc)
run = prepare(load(sys.argv[2]), t_end=0.01, compiled="auto")
print("auto:", run.plan.line())
"""


def test_a_damaged_shipped_module_is_named_when_compiled_is_asked_for_and_auto_runs_python(tmp_path):
    kernels = tmp_path / "bundle" / "kernels"
    kernels.mkdir(parents=True)
    (kernels / ahead.file_name(program(False).stamp)).write_bytes(b"not a shared library")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GEARDYN_KERNEL_CACHE": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-c", DAMAGED, str(tmp_path / "bundle"), str(EXAMPLES / "planetary.gdyn")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    on, auto = res.stdout.strip().splitlines()[-2:]
    assert on.startswith("on: compiled: the kernels compiled ahead of time cannot be loaded") and \
        str(kernels) in on, on
    assert auto.startswith("auto: joint coordinates, Python (the kernels compiled ahead of time cannot be loaded"), \
        auto
