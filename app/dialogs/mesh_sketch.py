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


class MeshSketch(QWidget):
    """Two silhouettes (projected convex hulls) of points in the model [m] and the world's origin, scaled to fit side
    by side."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("import_sketch")
        self.setMinimumSize(320, 150)
        self.outlines: dict[str, np.ndarray] = {}  # view -> (k, 2) hull in the model [m], for the drawing and tests
        self.box = np.zeros((2, 3))  # the lowest and highest corner of the points and the origin [m]

    def show_points(self, points: np.ndarray | None) -> None:
        """The silhouettes of `points` (n, 3) [m] in the model; None clears the sketch."""
        self.outlines = {}
        self.box = np.zeros((2, 3))
        if points is not None and len(points):
            pts = np.asarray(points, float)[:: max(1, len(points) // MAX_POINTS)]
            self.box = np.array([np.minimum(pts.min(axis=0), 0.0), np.maximum(pts.max(axis=0), 0.0)])
            for name, h, v, _, _ in VIEWS:
                flat = pts[:, [h, v]]
                try:
                    self.outlines[name] = flat[ConvexHull(flat).vertices]
                except QhullError:  # flat in this view (a plane seen edge on): its extreme points
                    self.outlines[name] = flat[[flat[:, 0].argmin(), flat[:, 0].argmax()]]
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        if not self.outlines:
            painter.end()
            return
        half, height = self.width() / 2, self.height()
        size = max(float(np.ptp(self.box, axis=0).max()), 1e-12)
        scale = 0.7 * min(half, height - 30) / size  # px per metre, the same in both views
        middle = self.box.mean(axis=0)
        arm = 0.22 * min(half, height - 30)
        for k, (name, h, v, right, up) in enumerate(VIEWS):
            # the middle of the part and the origin together at the middle of the view
            cx, cy = half * (k + 0.5) - scale * middle[h], 10 + (height - 30) / 2 + scale * middle[v]
            outline = self.outlines[name]
            painter.setPen(QPen(QColor("#3a5f8f"), 1.5))
            painter.setBrush(QColor(120, 160, 210, 120))
            painter.drawPolygon(QPolygonF([QPointF(cx + scale * x, cy - scale * y) for x, y in outline]))
            # the world's axes from its origin: the up arrow is what the import asks about
            for (dx, dy), label, colour in (((arm, 0.0), right, "#c0392b"), ((0.0, -arm), up, "#27ae60")):
                painter.setPen(QPen(QColor(colour), 1.5))
                painter.drawLine(QPointF(cx, cy), QPointF(cx + dx, cy + dy))
                painter.drawText(QPointF(cx + dx + 3, cy + dy + (4 if dy == 0 else -3)), label)
            painter.setPen(QColor("#444"))
            painter.drawText(QPointF(half * k + 6, height - 8), f"{name}")
        painter.end()
