"""Plots written as images: PNG (the pixels on screen) or SVG (vector paths), atomically.

pyqtgraph's own SVG exporter fails on Qt 6 paths, so each plot's scene is drawn into an SVG painter instead;
several plots are stacked top to bottom. Qt's SVG writer gives each number six digits, and draws an item in its
own coordinates under its transform: a curve in data units (a ripple of 0.007 J on 136 J, a speed's ripple on
its mean) fell onto a few levels, and a marker line across it lost its ends. So the data lines (curves and
marker lines) are mapped to the plot's pixels here, in double precision, and drawn as pixel paths; the scene
draws the rest (axes, grid, text, legend, symbols: those paint in pixels already), in pyqtgraph's export mode.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem

from core.atomic import atomic_target


def save_plot_image(path, plots, grab_widget, title: str) -> None:
    """Write `plots` (graphics views, top to bottom) to `path`; SVG by vector paths, else `grab_widget`'s pixels."""
    path = Path(path)
    with atomic_target(path, path.suffix) as tmp:
        if path.suffix.lower() == ".svg":
            width, height = max(p.width() for p in plots), sum(p.height() for p in plots)
            gen = QSvgGenerator()
            gen.setFileName(str(tmp))
            gen.setSize(QSize(width, height))
            gen.setViewBox(QRectF(0, 0, width, height))
            gen.setTitle(title)
            gen.setResolution(plots[0].logicalDpiX())  # the screen's: the axes replay pictures made for it
            painter = QPainter(gen)
            y = 0
            for plot in plots:
                lines = data_lines(plot)
                with ExitStack() as hidden:
                    hidden.enter_context(_export_mode(plot, painter))
                    for item, _, _, _ in lines:
                        hidden.enter_context(_transparent(item))
                    plot.render(painter, QRectF(0, y, plot.width(), plot.height()), plot.viewport().rect())
                for _, pen, pixels, clip in lines:
                    painter.save()
                    painter.translate(0, y)
                    painter.setClipRect(clip)
                    painter.setPen(pen)
                    painter.drawPath(pixels)
                    painter.restore()
                y += plot.height()
            painter.end()
        elif not grab_widget.grab().save(str(tmp), path.suffix.lstrip(".").upper() or "PNG"):
            raise OSError(f"cannot write an image to {path}")


def data_lines(plot) -> list[tuple[QGraphicsItem, object, QPainterPath, QRectF]]:
    """The visible curves and straight marker lines in `plot`'s view boxes: (item, pen, path in the plot's
    pixels, the view box's rectangle in pixels)."""
    found = []
    for item in plot.items():
        if not item.isVisible() or item.opacity() == 0:
            continue
        box = item.getViewBox() if isinstance(item, (pg.PlotCurveItem, pg.InfiniteLine)) else None
        if box is None:
            continue
        if isinstance(item, pg.PlotCurveItem):
            x, y = item.getData()
            if x is None or not len(x) or item.opts["fillLevel"] is not None:  # a filled curve: the scene draws it
                continue
            to_pixels = item.deviceTransform(plot.viewportTransform())
            pen, connect = item.opts["pen"], item.opts["connect"]
        else:  # a marker line, placed in its view box's coordinates
            to_pixels = box.childGroup.deviceTransform(plot.viewportTransform())
            (x0, x1), (y0, y1) = box.viewRange()
            at = item.value()
            if item.angle % 180 == 90:
                x, y = np.array([at, at]), np.array([y0, y1])
            elif item.angle % 180 == 0:
                x, y = np.array([x0, x1]), np.array([at, at])
            else:  # a slanted line: the scene draws it
                continue
            pen, connect = item.pen, "all"
        px = to_pixels.m11() * np.asarray(x, float) + to_pixels.m21() * np.asarray(y, float) + to_pixels.dx()
        py = to_pixels.m12() * np.asarray(x, float) + to_pixels.m22() * np.asarray(y, float) + to_pixels.dy()
        clip = plot.mapFromScene(box.sceneBoundingRect()).boundingRect()
        found.append((item, pen, pg.arrayToQPath(px, py, connect=connect), QRectF(clip)))
    return found


@contextmanager
def _export_mode(plot, painter):
    """pyqtgraph's items drawn for export for the time of the block: symbols as vector paths (from their pixel
    atlas otherwise: an SVG got pixmap fragments, an 'x' four hourglasses)."""
    items = [item for item in plot.items() if hasattr(item, "setExportMode")]
    for item in items:
        item.setExportMode(True, {"antialias": True, "painter": painter})
    try:
        yield
    finally:
        for item in items:
            item.setExportMode(False)


@contextmanager
def _transparent(item: QGraphicsItem):
    """`item` not drawn (its children, a marker's label, still are) for the time of the block."""
    children = [c for c in item.childItems() if not c.flags() & QGraphicsItem.ItemIgnoresParentOpacity]
    before = item.opacity()
    for child in children:
        child.setFlag(QGraphicsItem.ItemIgnoresParentOpacity, True)
    item.setOpacity(0.0)
    try:
        yield
    finally:
        item.setOpacity(before)
        for child in children:
            child.setFlag(QGraphicsItem.ItemIgnoresParentOpacity, False)
