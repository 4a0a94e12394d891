"""The `geardyn` command: the GUI (``geardyn gui [FILE]``) or the headless CLI.

Qt is imported only for the GUI, so the CLI subcommands stay headless. The GUI shows a splash screen as soon
as Qt's widgets are loaded, then imports the main window (VTK, the 3-D view, the engine's model code: most
of the start), so the user sees the app start at once.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICON = Path(__file__).resolve().parents[1] / "resources" / "icons" / "geardyn.svg"


def show_splash(app):
    """A splash window with the icon, shown and painted now; returned to be closed by the main window.

    A frameless label, not QSplashScreen: on X11 and Wayland, QSplashScreen waits up to a second for the
    window system to report its window mapped, when shown and again when finished.
    """
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QIcon, QPainter
    from PySide6.QtWidgets import QLabel

    picture = QIcon(str(ICON)).pixmap(256, 256)
    painter = QPainter(picture)
    painter.setPen(QColor("white"))
    painter.drawText(picture.rect().adjusted(0, 0, 0, -12), Qt.AlignBottom | Qt.AlignHCenter, "GearDyn: loading...")
    painter.end()
    splash = QLabel()
    splash.setWindowFlags(Qt.SplashScreen | Qt.FramelessWindowHint)
    splash.setAttribute(Qt.WA_TranslucentBackground)
    splash.setPixmap(picture)
    splash.adjustSize()
    screen = app.primaryScreen().availableGeometry()
    splash.move(screen.center() - splash.rect().center())
    splash.show()
    splash.repaint()
    app.processEvents()
    return splash


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from core.cli import main as cli_main

    if not args or (args[0] == "gui" and not {"-h", "--help"} & set(args[1:])):
        try:
            from PySide6.QtWidgets import QApplication

            app = QApplication.instance() or QApplication(sys.argv[:1])
            splash = show_splash(app)
            if os.environ.get("GEARDYN_SMOKE_TEST"):  # packaging/smoke_test.py, bench_gui_start.py
                print("smoke test: splash shown", flush=True)
            from app.main_window import run_gui
        except ImportError as exc:
            print(f"error: the GUI needs the gui extra ({exc.name or exc} is missing): "
                  "pip install 'geardyn[gui]' (make run installs it)", file=sys.stderr)
            return 1
        return run_gui(args[1:], splash)
    return cli_main(args)  # the CLI subcommands, and the help of all of them (gui included)


if __name__ == "__main__":
    sys.exit(main())
