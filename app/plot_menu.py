"""A plot's right-click menu: pyqtgraph's view entries (View All, the axes, the mouse mode) and 'Export Image...'.

pyqtgraph's own entries are left out: its export dialog (its SVG stops on Qt 6 with a traceback, its CSV writes
the points drawn, not the samples) and 'Plot Options' (transforms for its PlotDataItems: the power spectrum of
a telemetry curve raised AttributeError, and a log axis under a curve drawn in linear units is wrong). The
windows have their own spectrum, derived channels and CSV export; 'Export Image...' writes the plot clicked as
PNG or SVG (app.plot_image), as the windows' Export Image does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.plot_image import save_plot_image

FILTERS = "PNG image (*.png);;SVG drawing (*.svg)"
ACTION = "Export Image..."


def plot_menus(window: QWidget, suggested: Callable[[str, str], Path]) -> None:
    """Every pyqtgraph plot in `window` gets the menu above; `suggested(suffix, stem)` is where a file goes
    unless the user says otherwise (Document.suggested_path)."""
    for plot in window.findChildren(pg.GraphicsView):
        plot_menu(plot, suggested)


def plot_menu(plot: pg.GraphicsView, suggested: Callable[[str, str], Path]) -> None:
    """The menu above for one plot (a PlotWidget or a GraphicsLayoutWidget); again on the same plot: no change."""
    for item in plot.scene().items():
        if isinstance(item, pg.PlotItem):
            item.setMenuEnabled(False, enableViewBoxMenu=None)  # 'Plot Options' off, the view box's menu kept
    scene = plot.scene()
    if [a.text() for a in scene.contextMenu] == [ACTION]:
        return
    action = QAction(ACTION, plot)
    action.setObjectName("plot_export_image")
    action.triggered.connect(lambda: export_plot(plot, suggested))
    scene.contextMenu = [action]


def export_plot(plot: pg.GraphicsView, suggested: Callable[[str, str], Path]) -> None:
    """Ask where, then write the plot as PNG or SVG; a failure is said in a message box."""
    stem = plot.objectName().removesuffix("_plot") or "plot"
    beside = suggested(".png", stem)  # named after the model when it has a file: then the plot's name follows
    beside = beside if beside.stem == stem else beside.with_name(f"{beside.stem}_{stem}.png")
    path, _ = QFileDialog.getSaveFileName(plot, "Export image", str(beside), FILTERS)
    if not path:
        return
    try:
        save_plot_image(path, [plot], plot, f"GearDyn {stem.replace('_', ' ')}")
    except OSError as exc:
        QMessageBox.warning(plot, "Export image", f"{path}: {exc}")
