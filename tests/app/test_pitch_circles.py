"""Simulate > Show Pitch Circles: each gear pair's working pitch circles in the 3-D view, before a run where the
model puts the gears (where a misplaced gear shows as a gap) and on a run's poses after."""

import dataclasses

import numpy as np
from PySide6.QtCore import Qt

from app.viewport import SEE_THROUGH
from core.commands import SetSettings, replace_fields
from tests.app.conftest import toolbar_button
from tests.conftest import EXAMPLES


def _drawn(view) -> dict:
    """{overlay: (centre, unit axis, radius)} of the pitch circles shown (a unit circle about x, placed)."""
    out = {}
    for key, actor in view.overlay_actors.items():
        if key.startswith("circle:") and actor.GetVisibility():
            m = np.array(actor.user_matrix)
            radius = float(np.linalg.norm(m[:3, 0]))
            out[key[len("circle:"):]] = (m[:3, 3], m[:3, 0] / radius, radius)
    return out


def test_pitch_circles_show_before_a_run_touching_at_the_centre_distance_and_a_gap_when_a_gear_is_off(window, qtbot):
    """The helical example: m_t 2 mm, z 20 and 40: r 20 and 40 mm, 60 mm apart. Its gear 2 moved 2 mm out by
    an edit leaves a gap of 2 mm between the circles; the bodies are see-through while the circles show."""
    window.open_file(EXAMPLES / "helical_pair.gdyn")
    view, model = window.viewport, window.doc.model
    menu = window.menuBar().actions()
    for title in ("&View", "&Simulate"):  # what the view draws, where a user looks for it and beside the run
        assert window.act_circles in next(a.menu() for a in menu if a.text() == title).actions()
    window.act_circles.trigger()
    qtbot.wait(50)
    circles = _drawn(view)
    assert set(circles) == {"pair.1", "pair.2"}
    (c1, a1, r1), (c2, a2, r2) = circles["pair.1"], circles["pair.2"]
    assert np.allclose((r1, r2), (0.020, 0.040), rtol=1e-12, atol=0)
    assert np.allclose(a1, model.joints["gear1_joint"].unit_axis()) and np.allclose(a2, (0.0, 0.0, 1.0))
    assert abs(np.linalg.norm(c2 - c1) - 0.060) < 1e-12
    assert all(a.GetProperty().GetOpacity() == SEE_THROUGH for a in view.body_actors.values())
    for name in ("gear2", "gear2_joint"):
        window.apply(replace_fields(model, name, position=tuple(np.add(model.find(name).position, (0.002, 0, 0)))))
    qtbot.wait(50)
    (c1, _, r1), (c2, _, r2) = _drawn(view)["pair.1"], _drawn(view)["pair.2"]
    assert abs(np.linalg.norm(c2 - c1) - (r1 + r2) - 0.002) < 1e-12
    window.act_circles.trigger()
    qtbot.wait(50)
    assert not _drawn(view) and all(a.GetProperty().GetOpacity() == 1.0 for a in view.body_actors.values())


def test_a_planets_pitch_circle_goes_round_with_it_in_a_run(window, qtbot):
    """The planetary example run 0.2 s: at the end the circle of planet 1 (sun_planet1, gear 2; r 24 mm) stands
    at planet 1's place in the run, which the carrier has turned away from the model's."""
    window.open_file(EXAMPLES / "planetary.gdyn")
    window.doc.apply(SetSettings(window.doc.model, dataclasses.replace(window.doc.model.settings, t_end=0.2)))
    qtbot.mouseClick(toolbar_button(window, "run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=60_000)
    res = window.doc.current.results
    window.act_circles.trigger()
    window.act_end.trigger()
    qtbot.wait(50)
    centre, _, radius = _drawn(window.viewport)["sun_planet1.2"]
    planet = res.positions[-1][res.bodies.index("planet1")]
    assert abs(radius - 0.024) < 1e-12
    assert np.linalg.norm(centre[:2] - planet[:2]) < 1e-12
    assert np.linalg.norm(planet[:2] - window.doc.model.bodies["planet1"].position[:2]) > 1e-3
