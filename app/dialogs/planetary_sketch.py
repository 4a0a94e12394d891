"""A sketch of a planetary set as the wizard's entries make it, seen from +z: sun, ring and the planets on the
carrier's circle at their places (planet 1 on +x), each gear's pitch circle dashed and its tip circle solid, so
planets that touch, or a ring they do not reach, show before the set is made."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from core.geometry.macro import GearSpec, cylindrical_geometry
from core.model.builders import carrier_arm, planet_spacing

CLASH = QColor("#c0392b")  # a planet whose tip circle reaches a neighbour's
GEAR = QColor("#3d5a80")
FILL = QColor(159, 180, 204, 90)


@dataclass(frozen=True)
class Circle:
    """One gear of the sketch: its centre (x, y) [m], pitch and tip radii [m], and whether it clashes with a
    neighbour."""

    name: str
    x: float
    y: float
    pitch: float
    tip: float
    clash: bool = False


class PlanetarySketch(QWidget):
    """The set's gears as circles (`gears`, for the drawing and tests), scaled to fit the widget."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("planetary_sketch")
        self.setMinimumSize(200, 200)
        self.gears: list[Circle] = []

    def show_set(self, sun: int, planet: int, ring: int, planets: int, module: float, pressure_angle: float,
                 helix_angle: float) -> None:
        """The set of these teeth and planets, transverse `module` [m] and angles [rad]."""
        def radii(kind: str, teeth: int, beta: float) -> tuple[float, float]:
            g = cylindrical_geometry(GearSpec(kind, module, teeth, pressure_angle, 0.01, helix_angle=beta))
            return g.pitch_radius, g.tip_radius

        a = carrier_arm(module, sun, planet)
        rp, tp = radii("helical", planet, -helix_angle)
        apart, tip = planet_spacing(sun, planet, planets, module, pressure_angle, helix_angle)
        clash = apart <= tip  # the wizard's neighbour condition (core.model.builders.planetary_problems)
        self.gears = [Circle("sun", 0.0, 0.0, *radii("helical", sun, helix_angle)),
                      Circle("ring", 0.0, 0.0, *radii("inner", ring, -helix_angle))]
        self.gears += [Circle(f"planet{k + 1}", a * math.cos(2 * math.pi * k / planets),
                              a * math.sin(2 * math.pi * k / planets), rp, tp, clash) for k in range(planets)]
        self.update()

    def clear(self) -> None:
        self.gears = []
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self.gears:
            return
        reach = max(math.hypot(c.x, c.y) + max(c.pitch, c.tip) for c in self.gears)
        scale = 0.48 * min(self.width(), self.height()) / reach
        centre = QPointF(self.width() / 2, self.height() / 2)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        for c in self.gears:
            at = centre + QPointF(c.x * scale, -c.y * scale)
            colour = CLASH if c.clash else GEAR
            painter.setBrush(FILL if c.name != "ring" else Qt.NoBrush)
            painter.setPen(QPen(colour, 2 if c.clash else 1.2))
            painter.drawEllipse(at, c.tip * scale, c.tip * scale)
            painter.setBrush(Qt.NoBrush)
            painter.setPen(QPen(colour, 1, Qt.DashLine))
            painter.drawEllipse(at, c.pitch * scale, c.pitch * scale)
        painter.end()
