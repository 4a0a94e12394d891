"""`geardyn gui` as a user starts it: a splash window shows before the main window's heavy modules load, the
main window shows before the 3-D view's (pyvista's), and what only a run's events or dop853 need is not loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import EXAMPLES, ROOT

CHILD = """
import json, sys
from PySide6.QtWidgets import QMainWindow
import app.launch as launch

seen = {}
qt_show = QMainWindow.show

def window_shown(window):
    qt_show(window)
    seen.update(window_visible=window.isVisible(), pyvista_at_window="pyvista" in sys.modules,
                view_at_window=window.viewport is not None, fit_at_window=window.view_controls.fit.isEnabled())

QMainWindow.show = window_shown
show = launch.show_splash

def watched(app):
    splash = show(app)
    seen.update(visible=splash.isVisible(), vtk="vtkmodules" in sys.modules,
                main_window="app.main_window" in sys.modules, numba="numba" in sys.modules)
    seen["splash"] = splash
    return splash

launch.show_splash = watched
code = launch.main(["gui", sys.argv[1]])
splash = seen.pop("splash")
seen.update(code=code, closed=not splash.isVisible(), scipy_optimize="scipy.optimize" in sys.modules,
            scipy_integrate="scipy.integrate" in sys.modules)
print(json.dumps(seen))
"""


def test_the_splash_shows_before_vtk_and_the_main_window_load_and_the_window_before_pyvista_loads(tmp_path):
    env = {**os.environ, "GEARDYN_SMOKE_TEST": "1", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    res = subprocess.run([sys.executable, "-c", CHILD, str(EXAMPLES / "planetary.gdyn")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=180, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    lines = res.stdout.strip().splitlines()
    assert lines[0] == "smoke test: splash shown" and lines[1] == "smoke test: window shown"
    assert any(" drew 6 bodies" in line for line in lines[2:])  # the view made after the window, with the model
    seen = json.loads(lines[-1])
    assert seen == {"visible": True, "vtk": False, "main_window": False, "numba": False, "code": 0, "closed": True,
                    "window_visible": True, "pyvista_at_window": False, "view_at_window": False,
                    "fit_at_window": False,  # the view's actions wait for the view
                    # nor, with the model drawn and checked, scipy.optimize and scipy.integrate (0.3 s of a warm
                    # start): the event locator's root finder and dop853's coefficients load at their first use
                    "scipy_optimize": False, "scipy_integrate": False}
