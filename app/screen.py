"""Where a window opens (its size fitted to the screen it opens on, and the whole of it on that screen), and the
key that closes a tool window."""

from __future__ import annotations

from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QWidget

#: Shares of the screen's free area a window may take (the rest leaves room for its frame and title)
WIDTH_SHARE, HEIGHT_SHARE = 0.95, 0.88


def fit_to_screen(window: QWidget, width: int, height: int) -> None:
    """Resize `window` to width x height pixels, or less where its screen is smaller, and centre it there."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:  # no screen at all (offscreen without one): the size asked for
        window.resize(width, height)
        return
    free = screen.availableGeometry()
    w, h = min(width, int(WIDTH_SHARE * free.width())), min(height, int(HEIGHT_SHARE * free.height()))
    window.resize(w, h)
    window.move(free.x() + (free.width() - w) // 2, free.y() + (free.height() - h) // 2)


def close_key(window: QWidget) -> None:
    """Ctrl+W (the platform's Close key) closes `window` while it is the active one: every tool window has it."""
    close = QAction("Close", window)
    close.setShortcut(QKeySequence.Close)
    close.triggered.connect(window.close)
    window.addAction(close)
