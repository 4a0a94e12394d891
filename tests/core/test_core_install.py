"""The core installs without Qt and VTK (the GUI is the `gui` extra) and runs a parameter study there.

A fresh virtual environment gets `pip install .` (no extras, so only the core's dependencies); in it a
study on the paper's CHBM pair runs on a local dask cluster, and PySide6, VTK and pyqtgraph are absent.
The suite's own pip installs into it (`pip --python`), without byte-compiling what it installs: the same
packages in half the time (the bytecode of scipy, numba and dask took half the install).
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import importlib.util, json, sys
from core.studies.study_file import study_from_dict
from core.studies.runner import run_study
absent = [m for m in ("PySide6", "vtkmodules", "pyqtgraph", "pyvista") if importlib.util.find_spec(m) is not None]
study = study_from_dict({"base": "chbm", "parameters": [{"path": "chbm.torque", "values": [100.0, 200.0]}],
                         "analysis": {"kind": "chbm", "f_min": 1000, "f_max": 3000, "harmonics": 5}})
rows = run_study(study, workers=1)
print(json.dumps({"gui_modules": absent, "status": [r["status"] for r in rows], "peak": [r["results"][0] for r in rows]}))
"""


def test_core_installs_and_runs_a_study_without_the_gui(tmp_path):
    env_dir = tmp_path / "core-env"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(env_dir)],
                   check=True)
    py = env_dir / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-compile",
                              "--disable-pip-version-check", str(ROOT)], capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-2000:]
    out = subprocess.run([str(py), "-c", PROBE], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["gui_modules"] == []  # the core's install brought no GUI package
    assert report["status"] == ["ok", "ok"] and report["peak"][1] > report["peak"][0] > 0
    # the command line's study and its refusal of the GUI say what is missing
    gui = subprocess.run([str(env_dir / "bin" / "geardyn"), "gui"], capture_output=True, text=True, timeout=120)
    assert gui.returncode == 1 and "gui extra" in gui.stderr
