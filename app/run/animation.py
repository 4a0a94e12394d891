"""Animation: the 3-D view follows the current run's body poses at the playback clock's time.

While a run goes on the view follows its newest sample (as often as drawing takes at most FOLLOW_SHARE of the
time, and its last sample when it ends), until the user takes the clock (plays, seeks, steps). Optional
overlays: the tooth force on gear 2 of each pair at its pitch point as three arrows, Ft, Fr and Fa, on one
scale for every pair and the whole run (the largest Fc is 30 % of the model's size; the view says how many
newtons a length stands for); the joint axes; the gear pairs' pitch circles. The bodies are drawn see-through
while any of these shows, since they lie inside them. Spring-dampers are drawn always, as a line between their
ends. Before any run the joint axes, the pitch circles and the springs stand where the model puts them.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject

from core.dynamics.scene import Scene
from core.model.entities import SpringDamper

SCALE_MM = 10.0  # the force scale is given for an arrow this long [mm]
#: a largest tooth force at or below this [N] is round-off: a run with no load on the teeth (8e-32 N read as a scale)
FORCE_FLOOR = 1e-9
FORCE_LENGTH = 0.3  # the arrow of the largest total tooth force of the run, as a share of the model's size
#: the share of wall time the view may spend drawing while it follows a run that computes: a frame of software
#: OpenGL takes 10-60 ms of both cores, and drawn at every chunk it made a run in the app take twice as long
FOLLOW_SHARE = 0.1


class Animator(QObject):
    def __init__(self, document, clock, viewport, bar, parent=None):
        super().__init__(parent)
        self.doc, self.clock, self.viewport, self.bar = document, clock, viewport, bar
        self.show_forces = False
        self.show_axes = False
        self.show_circles = False
        self._fc_max = (None, 0.0)  # ((run, samples) it was found for, largest Fc [N])
        self.follow = True
        self._followed = -np.inf  # when the view last drew a running run's newest sample (perf_counter) [s]
        self.scene: Scene | None = None
        self._scene_of = None
        self.frames = 0  # frames drawn (for the frame-rate benchmark)
        document.run_updated.connect(self._run_updated)
        document.runs_changed.connect(self._runs_changed)
        document.stale_changed.connect(self._state)
        document.items_changed.connect(self._model_edited)
        clock.time_changed.connect(self.show)
        clock.playing_changed.connect(lambda on: on and self._user_took_over())
        bar.slider.sliderPressed.connect(self._user_took_over)
        bar.back.clicked.connect(self._user_took_over)
        bar.forward.clicked.connect(self._user_took_over)

    @property
    def results(self):
        rec = self.doc.current
        return rec.results if rec is not None else None

    def _user_took_over(self) -> None:
        self.follow = False

    def _runs_changed(self) -> None:
        self.follow = True
        self._run_updated(self.doc.current)

    def _run_updated(self, record) -> None:
        if record is None and self.doc.current is None:  # no run left (File > New or Open): no overlay either
            self.scene = self._scene_of = None
            if self.viewport.overlay_actors:
                self.viewport.clear_overlays()
            self.clock.pause()
            self.clock.set_range(0.0, 0.0)
            self.clock.seek(0.0)
        if record is None or record is not self.doc.current or record.results is None:
            self.bar.setEnabled(False)
            self._state()
            return
        res = record.results
        if self._scene_of is not record:
            self.scene, self._scene_of = Scene(record.model, res.bodies), record
            self._fc_max = (None, 0.0)
        if len(res):
            self.bar.setEnabled(True)
            self.clock.set_range(float(res.time[0]), float(res.time[-1]), res.time)
            if self.follow and not self.clock.playing and self._follow_due(res):
                self.clock.seek(float(res.time[-1]))
        self._state()

    def _follow_due(self, res) -> bool:
        """Whether to draw the newest sample now: always once the run has ended, while it computes at most so
        often that drawing takes FOLLOW_SHARE of the wall time (by the last frame's cost)."""
        now = time.perf_counter()
        if res.status == "running" and now - self._followed < self.viewport.render_seconds / FOLLOW_SHARE:
            return False
        self._followed = now
        return True

    def _state(self) -> None:
        rec = self.doc.current
        if rec is None or rec.results is None:
            self.bar.show_state("")
            return
        res = rec.results
        text = f"{rec.label}: {res.status}"
        if res.status in ("failed", "cancelled"):
            text += f" ({res.message.split(' (results kept')[0]})"
        if self.doc.stale:
            self.bar.show_state(text + " - results from an earlier version of the model", warning=True)
        else:
            self.bar.show_state(text, warning=res.status == "failed")

    def _model_edited(self, change) -> None:
        self._state()
        if self.results is None:  # the overlays stand on the model itself: they follow its edits
            self._model_overlays()

    def show(self, t: float) -> None:
        """Put every body at its pose at time t [s] (and the overlays); with no run, the overlays of the model as
        it stands (`_model_overlays`)."""
        res = self.results
        if res is None or not len(res):
            self._model_overlays()
            return
        pos, quat = res.pose_at(t)
        self.viewport.set_poses(res.bodies, pos, quat, render=False)
        if self.show_forces or self.show_axes or self.show_circles or (self.scene is not None and self.scene.springs):
            self._overlays(res, t, pos, quat)
        elif self.viewport.overlay_actors:
            self.viewport.set_overlays(render=False)
            self.viewport.set_caption("")
            self.viewport.set_see_through(False)
        self.viewport.request_render()
        self.frames += 1

    def _model_overlays(self) -> None:
        """Before any run: the spring-dampers and, when asked for, the joint axes and pitch circles where the model
        puts them (where to check a joint's and a gear's place); for tooth forces, a caption that they need a run."""
        if self.viewport is None:
            return
        model = self.doc.model
        springs = any(isinstance(f, SpringDamper) for f in model.forces.values())
        if not (self.show_axes or self.show_circles or self.show_forces or springs or self.viewport.overlay_actors):
            return  # nothing to draw or hide (a Scene of a large train takes some 10 ms: not at every edit)
        names = list(model.bodies)
        scene = Scene(model, names)
        pos = np.array([model.bodies[n].position for n in names], float).reshape(-1, 3)
        quat = np.array([model.bodies[n].orientation for n in names], float).reshape(-1, 4)
        axes = {}
        if self.show_axes and names:
            size = self._size()
            axes = {joint: (point, axis, 0.3 * size) for joint, (point, axis) in scene.joint_axes(pos, quat).items()}
        circles = _circles(scene, pos, quat) if self.show_circles else {}
        self.viewport.set_overlays({}, axes, scene.spring_ends(pos, quat), circles, render=False)
        self.viewport.set_caption("Tooth forces: run the model to see them" if self.show_forces else "")
        self.viewport.set_see_through(bool(axes) or bool(circles))
        self.viewport.request_render()

    def _overlays(self, res, t, pos, quat) -> None:
        scene = self.scene
        arrows, axes = {}, {}
        size = self._size()
        scale = ""
        if self.show_forces:
            k = res.sample_at(t)
            ft = {}
            for pair in scene.pairs:
                try:
                    ft[pair] = float(res[f"{pair}.Ft"][k])
                except KeyError:  # a run without tooth-force channels (a results file written before them)
                    continue
            top = self._largest_fc(res, ft)
            if ft and top <= FORCE_FLOOR:
                scale = "Tooth forces: none in this run (nothing loads the teeth)"
            elif top > 0:
                per_newton = FORCE_LENGTH * size / top  # [m/N]
                for pair, (point, parts) in scene.tooth_force_parts(pos, quat, ft).items():
                    for quantity, vector in parts.items():
                        arrows[f"{pair}.{quantity}"] = (point, vector * per_newton, quantity)
                scale = (f"Tooth forces on gear 2: Ft red, Fr green, Fa violet; "
                         f"{SCALE_MM:g} mm = {SCALE_MM * 1e-3 / per_newton:.4g} N")
        if self.show_axes:
            for joint, (point, axis) in scene.joint_axes(pos, quat).items():
                axes[joint] = (point, axis, 0.3 * size)
        circles = _circles(scene, pos, quat) if self.show_circles else {}
        self.viewport.set_overlays(arrows, axes, scene.spring_ends(pos, quat), circles, render=False)
        self.viewport.set_caption(scale)
        self.viewport.set_see_through(bool(arrows) or bool(axes) or bool(circles))  # what is inside the bodies shows

    def _largest_fc(self, res, ft: dict) -> float:
        """The largest total tooth force of any pair over the run [N] (recomputed as the run grows)."""
        key = (id(res), len(res))
        if self._fc_max[0] != key:
            self._fc_max = (key, max((float(np.abs(res[f"{pair}.Fc"]).max()) for pair in ft), default=0.0))
        return self._fc_max[1]

    def _size(self) -> float:
        """Diagonal of the bodies' bounding box [m] (the overlays scale with the model)."""
        boxes = np.array([a.GetBounds() for a in self.viewport.body_actors.values()])
        if not len(boxes):
            return 1.0
        lo, hi = boxes[:, 0::2].min(axis=0), boxes[:, 1::2].max(axis=0)
        return float(np.linalg.norm(hi - lo)) or 1.0


def _circles(scene, pos, quat) -> dict:
    """{'<pair>.<k>': (centre, axis, radius)} of every pair's two pitch circles at these poses (Scene.pitch_circles)."""
    return {f"{pair}.{k}": circle for pair, both in scene.pitch_circles(pos, quat).items()
            for k, circle in enumerate(both, start=1)}
