"""core must run without Qt: nothing under core/ may import a GUI package."""

import ast
import subprocess
import sys

from tests.conftest import ROOT

GUI_PACKAGES = {"PySide6", "pyvista", "pyvistaqt", "pyqtgraph", "vtk", "vtkmodules", "shiboken6"}


def test_no_gui_import_statements_under_core():
    offenders = []
    for path in (ROOT / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in GUI_PACKAGES or n.split(".")[0] == "app":
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert not offenders, "\n".join(offenders)


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
