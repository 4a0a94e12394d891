"""A sketch of a gear's section as its dialog's entries stand, so a tooth count, a profile shift, a pitch angle or a
bore shows before OK.

A helical/spur or internal gear: its transverse section, the teeth the mesh will be made of
(core.geometry.gear_mesh.transverse_outline: involute flanks, root fillets, undercut where the rack cuts it) with
the bore or rim, and the pitch circle dashed. A straight bevel gear: its axial section
(core.geometry.gear_mesh.bevel_section: the teeth from heel to toe on the blank down to the bore) on both sides of
the axis, the pitch cone dashed towards the apex."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from core.geometry.gear_mesh import bevel_section, transverse_outline
from core.geometry.macro import GearSpec, bevel_geometry, cylindrical_geometry

FILL = QColor(159, 180, 204)
EDGE = QColor("#3d5a80")
#: the apex is drawn where it lies within this many times the axial section's height (a pinion's lies far off)
APEX_REACH = 3.0


class GearSketch(QWidget):
    """The section of the gear a dialog's entries describe, scaled to fit the widget. A helical or internal gear:
    its transverse outline (`outline`, (k, 2) [m]), its plain circle's radius (`plain`, [m]) and pitch radius
    (`pitch`, [m]). A bevel gear: its axial half-section (`section`, (6, 2) points (r, z) [m]), its outer pitch
    radius (`pitch`) and apex distance (`apex`, [m]). The data are kept for tests."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("gear_sketch")
        self.setMinimumSize(180, 180)
        self.outline, self.section = np.zeros((0, 2)), np.zeros((0, 2))
        self.plain = self.pitch = self.apex = 0.0

    def show_spec(self, spec: GearSpec | None) -> None:
        """The section of `spec`; None clears the sketch."""
        self.outline, self.section = np.zeros((0, 2)), np.zeros((0, 2))
        if spec is not None and spec.kind == "bevel":
            self.section = bevel_section(spec)
            g = bevel_geometry(spec)
            self.pitch, self.apex = g.pitch_radius, g.apex_distance
        elif spec is not None:
            r, theta, self.plain = transverse_outline(spec)
            self.outline = np.column_stack([r * np.cos(theta), r * np.sin(theta)])
            self.pitch = cylindrical_geometry(spec).pitch_radius
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not len(self.outline) and not len(self.section):
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        if len(self.outline):
            self._transverse(painter)
        else:
            self._axial(painter)
        painter.end()

    def _transverse(self, painter: QPainter) -> None:
        reach = max(float(np.abs(self.outline).max()), self.plain)
        scale = 0.48 * min(self.width(), self.height()) / reach
        centre = QPointF(self.width() / 2, self.height() / 2)
        teeth = QPolygonF([centre + QPointF(x * scale, -y * scale) for x, y in self.outline])
        path = QPainterPath()
        path.setFillRule(Qt.OddEvenFill)  # the bore (or the ring's inside) is a hole in the section
        path.addPolygon(teeth)
        path.closeSubpath()
        path.addEllipse(centre, self.plain * scale, self.plain * scale)
        painter.setPen(QPen(EDGE, 1))
        painter.setBrush(FILL)
        painter.drawPath(path)
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(EDGE, 1, Qt.DashLine))
        painter.drawEllipse(centre, self.pitch * scale, self.pitch * scale)

    def _axial(self, painter: QPainter) -> None:
        """Both halves of the axial section, the axis up the middle (the apex upwards), the pitch cone dashed."""
        r, z = self.section[:, 0], self.section[:, 1]
        low, high = float(z.min()), float(z.max())
        with_apex = self.apex - low <= APEX_REACH * (high - low)
        top = max(high, self.apex) if with_apex else high
        scale = 0.92 * min(self.width() / (2 * float(r.max())), self.height() / (top - low))
        mid = (low + top) / 2

        def at(x: float, y: float) -> QPointF:
            return QPointF(self.width() / 2 + x * scale, self.height() / 2 - (y - mid) * scale)

        painter.setPen(QPen(EDGE, 1))
        painter.setBrush(FILL)
        for side in (1.0, -1.0):
            painter.drawPolygon(QPolygonF([at(side * x, y) for x, y in self.section]))
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(EDGE, 1, Qt.DashDotLine))
        painter.drawLine(at(0.0, low), at(0.0, top))
        painter.setPen(QPen(EDGE, 1, Qt.DashLine))
        toe = self.section[3, 1] if not with_apex else self.apex  # the cone drawn as far as the view reaches
        reach = (self.apex - toe) / self.apex  # its radius there, as a share of the heel's
        for side in (1.0, -1.0):
            painter.drawLine(at(side * self.pitch, 0.0), at(side * self.pitch * reach, toe))
