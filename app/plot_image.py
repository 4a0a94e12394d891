"""Plots written as images: PNG (the pixels on screen) or SVG (vector paths), atomically.

pyqtgraph's own SVG exporter fails on Qt 6 paths, so each plot's scene is
drawn into an SVG painter instead; several plots are stacked top to bottom.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize

from core.atomic import atomic_target


def save_plot_image(path, plots, grab_widget, title: str) -> None:
    """Write `plots` (graphics views, top to bottom) to `path`; SVG by vector paths, else `grab_widget`'s pixels."""
    path = Path(path)
    with atomic_target(path, path.suffix) as tmp:
        if path.suffix.lower() == ".svg":
            from PySide6.QtGui import QPainter
            from PySide6.QtSvg import QSvgGenerator

            width, height = max(p.width() for p in plots), sum(p.height() for p in plots)
            gen = QSvgGenerator()
            gen.setFileName(str(tmp))
            gen.setSize(QSize(width, height))
            gen.setViewBox(QRectF(0, 0, width, height))
            gen.setTitle(title)
            painter = QPainter(gen)
            y = 0
            for plot in plots:
                plot.render(painter, QRectF(0, y, plot.width(), plot.height()), plot.viewport().rect())
                y += plot.height()
            painter.end()
        elif not grab_widget.grab().save(str(tmp), path.suffix.lstrip(".").upper() or "PNG"):
            raise OSError(f"cannot write an image to {path}")
