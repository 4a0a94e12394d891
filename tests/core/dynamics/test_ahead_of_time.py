"""The kernels compiled ahead of time (core.dynamics.program.ahead): what the frozen app ships instead of numba.

One build of the warmed program (numba.pycc, about two minutes). Then a child process that cannot import numba,
and that is a frozen app shipping that module as far as it can tell, runs every example model in each
formulation it allows: its channels equal those of numba's just-in-time program in this process bit for bit,
and each run's plan says it ran compiled ahead of time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.dynamics.formulations import FORMULATIONS
from core.dynamics.program import ahead
from core.dynamics.program.linker import program
from core.dynamics.run import prepare
from core.dynamics.warm import warm
from core.errors import ModelError
from core.model.files import load
from tests.conftest import EXAMPLES, ROOT

STEPS = 40  # of each example's own step: its events and samples

# Runs every example in every formulation it allows as a frozen app without numba would, and saves what came out.
CHILD = """
import json, sys
import numpy as np
sys.modules["numba"] = None  # any import of numba fails, as in a frozen app that does not ship it
sys.frozen, sys._MEIPASS = True, sys.argv[1]
from tests.core.dynamics.test_ahead_of_time import runs
found, plans = runs()
np.savez(sys.argv[2], **found)
print(json.dumps(plans))
"""


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


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    """A frozen app's folder holding the program compiled ahead of time in kernels/, as `make package` makes it."""
    bundle = tmp_path_factory.mktemp("bundle")
    warm()  # every entry point run once, with the one signature it is exported with
    ahead.build(program(True), bundle / "kernels")
    return bundle


def test_the_program_compiled_ahead_of_time_runs_every_example_as_numba_does_without_numba(shipped, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GEARDYN_KERNEL_CACHE": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-c", CHILD, str(shipped), str(tmp_path / "out.npz")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    plans = json.loads(res.stdout.strip().splitlines()[-1])
    assert (shipped / "kernels" / ahead.file_name(program(True).stamp)).is_file()
    expected, jit_plans = runs()
    assert set(plans) == set(jit_plans) and len(plans) >= 17  # each example, in each formulation it allows
    for key, line in plans.items():
        assert "compiled (asked for; ahead of time, shipped with the app)" in line, (key, line)
        assert "compiled (asked for)" in jit_plans[key], (key, jit_plans[key])
    got = np.load(tmp_path / "out.npz")
    assert set(got.files) == set(expected)
    for name, values in expected.items():
        np.testing.assert_array_equal(got[name], values, err_msg=name)


def test_a_stamp_without_its_module_finds_nothing(shipped):
    assert ahead.find(program(True).stamp, shipped / "kernels") is not None
    assert ahead.find("0" * 16, shipped / "kernels") is None
    assert ahead.find(program(True).stamp, None) is None


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
