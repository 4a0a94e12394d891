"""The layers of the code: import-linter's contracts (pyproject.toml), and core without Qt at run time."""

import subprocess
import sys

from tests.conftest import ROOT

GUI_PACKAGES = {"PySide6", "pyvista", "pyvistaqt", "pyqtgraph", "vtk", "vtkmodules", "shiboken6"}


def test_the_import_contracts_hold_layers_no_circles_and_no_gui_in_core():
    # pyproject.toml's [tool.importlinter] contracts: the app over core, core's layers, the engine's layers, no
    # circle among the modules of any package, no GUI package under core (imports inside functions count)
    code = "import sys; from importlinter.cli import lint_imports_command as lint; sys.argv[1:] = ['--no-cache']; lint()"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout and "5 kept" in out.stdout, out.stdout


def test_importing_every_core_module_loads_no_gui_package():
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "core").rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules if k.split('.')[0] in {sorted(GUI_PACKAGES)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"GUI packages loaded by core: {out.stdout}"
