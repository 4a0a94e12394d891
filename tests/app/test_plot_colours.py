"""Every plot of the app draws dark text on white: a legend's names and an axis's labels read at a contrast of
at least 4.5:1 (WCAG's level for text), where pyqtgraph's light grey read at 3:1."""

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from core.commands import SetSettings
from tests.app.conftest import double_click_channel, toolbar_button
from tests.conftest import EXAMPLES


def luminance(colour: QColor) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def contrast(a: QColor, b: QColor) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_telemetry_legend_and_axes_read_dark_on_white(window, qtbot):
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=0.05)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=120_000)
    qtbot.mouseClick(toolbar_button(window, "telemetry"), Qt.LeftButton)
    tw = window.telemetry
    double_click_channel(qtbot, tw.browser, "sun_joint.speed")
    plot = tw.stack.current
    white = plot.backgroundBrush().color()
    assert white == QColor("white")
    label = plot.legend.items[0][1]
    assert label.text == "sun_joint.speed"
    drawn = label.item.document().firstBlock().begin().fragment().charFormat().foreground().color()
    assert contrast(drawn, white) >= 4.5
    for side in ("left", "bottom"):
        assert contrast(plot.getPlotItem().getAxis(side).textPen().color(), white) >= 4.5
