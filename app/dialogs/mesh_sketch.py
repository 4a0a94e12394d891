"""A sketch of an imported mesh as it will stand in the model: its silhouette seen from the front (x right, z up)
and from the top (x right, y up), where it lands beside the world's axes drawn from the origin, so a wrong up
axis, or a part its file puts away from the origin, shows before the import."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget
from scipy.spatial import ConvexHull, QhullError

VIEWS = (("front", 0, 2, "x", "z (up)"), ("top", 0, 1, "x", "y"))  # name, horizontal and vertical axis, labels
MAX_POINTS = 20000  # vertices a silhouette is taken from (a strided subset beyond)
#: a part smaller than this share of the span from the origin to it is framed alone (beside the origin it would be
#: a dot, its up axis unreadable): the axes then run through its middle and the sketch says how far the origin is
FAR = 0.1


class MeshSketch(QWidget):
    """Two silhouettes (projected convex hulls) of points in the model [m] and the world's origin, scaled to fit side
    by side."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("import_sketch")
        self.setMinimumSize(320, 150)
        self.outlines: dict[str, np.ndarray] = {}  # view -> (k, 2) hull in the model [m], for the drawing and tests
        self.part = np.zeros((2, 3))  # the lowest and highest corner of the points [m]

    def show_points(self, points: np.ndarray | None) -> None:
        """The silhouettes of `points` (n, 3) [m] in the model; None clears the sketch."""
        self.outlines = {}
        self.part = np.zeros((2, 3))
        if points is not None and len(points):
            pts = np.asarray(points, float)[:: max(1, len(points) // MAX_POINTS)]
            self.part = np.array([pts.min(axis=0), pts.max(axis=0)])
            for name, h, v, _, _ in VIEWS:
                flat = pts[:, [h, v]]
                try:
                    self.outlines[name] = flat[ConvexHull(flat).vertices]
                except QhullError:  # flat in this view (a plane seen edge on): its extreme points
                    self.outlines[name] = flat[[flat[:, 0].argmin(), flat[:, 0].argmax()]]
        self.update()

    def frame(self) -> tuple[np.ndarray, float, bool]:
        """What the views show: the middle [m] and size [m] of the box drawn, and whether the axes stand at the
        world's origin (the part and the origin framed together) or, for a part far from it (FAR), through the
        part's middle."""
        with_origin = np.array([np.minimum(self.part[0], 0.0), np.maximum(self.part[1], 0.0)])
        at_origin = np.ptp(self.part, axis=0).max() >= FAR * np.ptp(with_origin, axis=0).max()
        box = with_origin if at_origin else self.part
        return box.mean(axis=0), max(float(np.ptp(box, axis=0).max()), 1e-12), at_origin

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        if not self.outlines:
            painter.end()
            return
        half, height = self.width() / 2, self.height()
        middle, size, at_origin = self.frame()
        scale = 0.7 * min(half, height - 30) / size  # px per metre, the same in both views
        arm = 0.22 * min(half, height - 30)
        for k, (name, h, v, right, up) in enumerate(VIEWS):
            mx, my = half * (k + 0.5), 10 + (height - 30) / 2  # where the box's middle is drawn
            cx, cy = mx - scale * middle[h], my + scale * middle[v]  # where the world's origin is
            outline = self.outlines[name]
            painter.setPen(QPen(QColor("#3a5f8f"), 1.5))
            painter.setBrush(QColor(120, 160, 210, 120))
            painter.drawPolygon(QPolygonF([QPointF(cx + scale * x, cy - scale * y) for x, y in outline]))
            # the world's axes (from its origin, or through the part's middle): the up arrow is what the import
            # asks about
            ax, ay = (cx, cy) if at_origin else (mx, my)
            for (dx, dy), label, colour in (((arm, 0.0), right, "#c0392b"), ((0.0, -arm), up, "#27ae60")):
                painter.setPen(QPen(QColor(colour), 1.5))
                painter.drawLine(QPointF(ax, ay), QPointF(ax + dx, ay + dy))
                painter.drawText(QPointF(ax + dx + 3, ay + dy + (4 if dy == 0 else -3)), label)
            painter.setPen(QColor("#444"))
            painter.drawText(QPointF(half * k + 6, height - 8), f"{name}")
        if not at_origin:
            painter.drawText(QPointF(half + 6, 14), f"origin {np.linalg.norm(middle) * 1e3:.4g} mm away")
        painter.end()
