"""The main window in a real window under Xvfb: it opens the example and draws the gears."""

import numpy as np
from PySide6.QtWidgets import QMessageBox

from app.main_window import MainWindow
from tests.conftest import EXAMPLES


def test_window_shows_the_planetary_gears(qtbot, tmp_path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_file(EXAMPLES / "planetary.gdyn")
    assert window.windowTitle() == "GearDyn - planetary.gdyn"
    assert set(window.viewport.body_actors) == {"sun", "carrier", "planet1", "planet2", "planet3", "ring"}
    window.viewport.render()
    qtbot.wait(200)
    shot = tmp_path / "main_window.png"
    assert window.grab().save(str(shot))
    image = window.viewport.screenshot(return_img=True)
    grey = np.asarray(image, dtype=float).mean(axis=2)
    # Not blank: the lit gears give many distinct shades, far from the plain background.
    assert grey.std() > 10
    assert len(np.unique(grey.round())) > 50


def test_bad_file_leaves_the_model_and_says_why(qtbot, tmp_path, monkeypatch):
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    bad = tmp_path / "bad.gdyn"
    bad.write_text('{"format_version": 1, "bodies": [{"name": "x", "mass": -1}]}')
    assert not window.open_file(bad)
    assert "bodies[0].mass" in shown[0]
    assert window.model.name == "helical_pair" and window.windowTitle() == "GearDyn - helical_pair.gdyn"
