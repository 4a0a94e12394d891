"""A sketch of a gear's transverse section as its dialog's entries stand: the teeth the mesh will be made of
(core.geometry.gear_mesh.transverse_outline: involute flanks, root fillets, undercut where the rack cuts it) with
the bore or rim, and the pitch circle dashed, so a tooth count, a profile shift or a bore shows before OK."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from core.geometry.gear_mesh import transverse_outline
from core.geometry.macro import GearSpec, cylindrical_geometry

FILL = QColor(159, 180, 204)
EDGE = QColor("#3d5a80")


class GearSketch(QWidget):
    """The section's outline (`outline`, (k, 2) [m], for the drawing and tests), its plain circle's radius
    (`plain`, [m]) and pitch radius (`pitch`, [m]), scaled to fit the widget; empty for a bevel gear."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("gear_sketch")
        self.setMinimumSize(180, 180)
        self.outline = np.zeros((0, 2))
        self.plain = self.pitch = 0.0

    def show_spec(self, spec: GearSpec | None) -> None:
        """The section of a helical/spur or internal gear `spec`; None or a bevel gear clears the sketch."""
        if spec is None or spec.kind == "bevel":
            self.outline = np.zeros((0, 2))
        else:
            r, theta, self.plain = transverse_outline(spec)
            self.outline = np.column_stack([r * np.cos(theta), r * np.sin(theta)])
            self.pitch = cylindrical_geometry(spec).pitch_radius
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not len(self.outline):
            return
        reach = max(float(np.abs(self.outline).max()), self.plain)
        scale = 0.48 * min(self.width(), self.height()) / reach
        centre = QPointF(self.width() / 2, self.height() / 2)
        teeth = QPolygonF([centre + QPointF(x * scale, -y * scale) for x, y in self.outline])
        path = QPainterPath()
        path.setFillRule(Qt.OddEvenFill)  # the bore (or the ring's inside) is a hole in the section
        path.addPolygon(teeth)
        path.closeSubpath()
        path.addEllipse(centre, self.plain * scale, self.plain * scale)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(QPen(EDGE, 1))
        painter.setBrush(FILL)
        painter.drawPath(path)
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(EDGE, 1, Qt.DashLine))
        painter.drawEllipse(centre, self.pitch * scale, self.pitch * scale)
        painter.end()
