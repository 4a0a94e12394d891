"""The GearDyn main window."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

from app.viewport import ViewportWidget
from core.model.files import load
from core.model.model import Model, ModelError

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


class MainWindow(QMainWindow):
    """Main window holding one model and its 3-D view."""

    def __init__(self):
        super().__init__()
        self.model = Model()
        self.path: Path | None = None
        self.viewport = ViewportWidget(self)
        self.setCentralWidget(self.viewport)
        self.resize(1200, 800)
        self._update_title()

    def _update_title(self) -> None:
        self.setWindowTitle(f"GearDyn - {self.path.name if self.path else 'untitled'}")

    def open_file(self, path: str | Path) -> bool:
        """Load a model file; on failure say why and keep the current model."""
        try:
            model = load(path)
        except ModelError as exc:
            QMessageBox.warning(self, "Cannot open model", str(exc))
            return False
        self.model, self.path = model, Path(path)
        self.viewport.show_model(model, self.path.parent)
        self._update_title()
        return True


def run_gui(args: list[str]) -> int:
    """Open the main window on the file in `args` (default: the planetary example)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.show()
    window.open_file(args[0] if args else EXAMPLES / "planetary.gdyn")
    return app.exec()
