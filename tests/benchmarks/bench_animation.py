"""Playback frame rate of the 3-D view in the main window (1280 x 800) under Xvfb with software OpenGL.

Two scenes: the planetary example (6 bodies) and a 64-stage train of
generated spur gears (65 bodies). Each is run briefly through the GUI (the
worker thread), then played in a loop for a few seconds; the frame rate is the
renders the view actually finished per second of wall time (not the frames
asked for). Goal: at least 30 for the planetary.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtWidgets import QApplication  # noqa: E402

from core.commands import AddItem, Macro, SetSettings  # noqa: E402
from core.geometry.macro import GearSpec  # noqa: E402
from core.model import builders  # noqa: E402
from core.model.entities import GROUND, GearPair, RevoluteJoint  # noqa: E402
from core.model.files import save  # noqa: E402
from core.model.model import Model  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
MODULE = 0.002
PLAY_SECONDS = 4.0


def spur_train(stages: int) -> Model:
    """Generated spur gears z 20 / 40 alternating on a line, each on a revolute joint to the ground, 1 N m on the first."""
    items, x = [], 0.0
    teeth = [20 if k % 2 == 0 else 40 for k in range(stages + 1)]
    for k in range(stages + 1):
        if k:
            x += MODULE * (teeth[k - 1] + teeth[k]) / 2
        spec = GearSpec("helical", module=MODULE, teeth=teeth[k], face_width=0.02, bore_diameter=0.25 * MODULE * teeth[k])
        spin = 0.0 if k == 0 else builders.mesh_phase(teeth[k], math.pi) * (k % 2)
        items.append(builders.gear_body(f"gear{k}", spec, position=(x, 0.0, 0.0), spin=spin))
        items.append(RevoluteJoint(f"gear{k}_joint", GROUND, f"gear{k}", (x, 0.0, 0.0), (0.0, 0.0, 1.0)))
    for k in range(stages):
        items.append(GearPair(f"stage{k}", f"gear{k}_joint", f"gear{k + 1}_joint", GROUND, z1=teeth[k], z2=teeth[k + 1],
                              module=MODULE, face_width=0.02))
    items.append(builders.constant_torque("drive", "gear0_joint", 1.0))
    model = Model(name=f"train{stages}")
    Macro("build", [AddItem(i) for i in items]).do(model)
    return model


def playback_rate(window, app, path: Path, t_end: float) -> tuple[float, int]:
    window.open_file(path)
    doc = window.doc
    doc.apply(SetSettings(doc.model, dataclasses.replace(doc.model.settings, t_end=t_end, output_step=doc.model.settings.step)))
    window.run_simulation()
    while window.runner.running:
        app.processEvents()
        time.sleep(0.002)
    res = doc.current.results
    window.clock.set_speed(0.1)
    window.clock.loop = True
    app.processEvents()
    start_frames, start = window.viewport.frames_drawn, time.perf_counter()
    window.clock.play()
    while time.perf_counter() - start < PLAY_SECONDS:
        app.processEvents()
    rate = (window.viewport.frames_drawn - start_frames) / (time.perf_counter() - start)
    window.clock.pause()
    doc.undo_stack.setClean()
    return rate, len(res)


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    w, h = window.viewport.ren_win.GetSize()
    print(f"main window 1280 x 800, 3-D view {w} x {h} pixels, software OpenGL under Xvfb, {PLAY_SECONDS:g} s of playback each")
    rate, samples = playback_rate(window, app, EXAMPLES / "planetary.gdyn", 0.05)
    tris = window.viewport.triangles_drawn()
    print(f"planetary example (6 bodies, {tris} display triangles, {samples} samples): {rate:.1f} frames/s (goal >= 30)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "train64.gdyn"
        save(spur_train(64), path)
        rate, samples = playback_rate(window, app, path, 0.005)
        tris = window.viewport.triangles_drawn()
        print(f"64-stage spur train (65 bodies, {tris} display triangles, {samples} samples): {rate:.1f} frames/s")
    window.close()


if __name__ == "__main__":
    main()
