"""Whether a run's output samples resolve the mesh frequencies of its compliant meshes.

A compliant mesh's stiffness turns over once a mesh period, so its forces and transmission error carry the mesh
frequency and its harmonics (the involute waveform's steps give strong ones). Samples spaced wider than half a
period of a harmonic fold it onto a frequency the motion does not have: a spectrum shows peaks that are not there,
and below two samples a mesh period a plot of a mesh force looks like noise. A
run whose gears speed up (a free run-up) reaches such frequencies only as it goes, so the run watches its own
samples and says so at its end (core.dynamics.run).
"""

from __future__ import annotations

import math

import numpy as np

from core.gearing.mesh_phase import mesh_rate
from core.model.entities import GROUND, CompliantMesh
from core.model.model import Model
from core.ranges import hertz

#: samples a mesh period that the advice asks for: enough to draw the waveform, not only to avoid aliasing
ADVISED_SAMPLES = 10


class MeshSampling:
    """The fastest mesh frequency [Hz] the output samples of a run saw on the pairs that have a compliant mesh:
    core.gearing.mesh_phase.mesh_rate on the bodies' angular-velocity channels (rad/s).

    Parameters
    ----------
    model : Model
        The run's model.
    names : list of str
        The channel names in the order of a sample's values.
    output_step : float
        The spacing of the output samples [s].
    """

    def __init__(self, model: Model, names: list[str], output_step: float):
        index = {name: k for k, name in enumerate(names)}
        self.output_step = output_step
        pairs = {m.pair for m in model.forces.values() if isinstance(m, CompliantMesh)}
        self.pairs, columns, weights = [], [], []
        for name in sorted(pairs & set(model.gear_pairs)):
            if model.gear_pairs[name].joint1 not in model.joints:
                continue
            body, carrier, per = mesh_rate(model, model.gear_pairs[name])
            gear = [index.get(f"{body}.w{a}") for a in "xyz"]
            held = [index.get(f"{carrier}.w{a}") for a in "xyz"] if carrier != GROUND else gear
            if None in gear or None in held:  # a body without its channels: nothing to watch
                continue
            self.pairs.append(name)
            columns.append(gear + held)
            weights.append(np.concatenate([per, -per if carrier != GROUND else 0.0 * per]))
        # each pair's mesh frequency is |(values[columns] * weights).sum(axis=1)|: one gather a sample
        self.columns, self.weights = np.array(columns, np.int64), np.array(weights, float)
        self.fastest, self.when, self.which = 0.0, 0.0, 0  # [Hz], [s], index into pairs

    def see(self, t: float, values: np.ndarray) -> None:
        """Take the output sample `values` at time t [s]."""
        if not self.pairs:
            return
        f = np.abs((values[self.columns] * self.weights).sum(axis=1))
        k = int(f.argmax())
        if f[k] > self.fastest:
            self.fastest, self.when, self.which = float(f[k]), t, k

    def note(self) -> str:
        """What the samples miss, in words ('' when every mesh frequency seen had ADVISED_SAMPLES samples a period):
        the mesh frequency itself where it had fewer than two, else its harmonics above half the sampling rate."""
        f = self.fastest
        if not f * self.output_step * ADVISED_SAMPLES > 1.0:
            return ""
        per_period = 1 / (f * self.output_step)
        folded = ("the compliant meshes' channels alias there (their plots and spectra show frequencies the motion "
                  "does not have)" if per_period < 2 else
                  f"its harmonics from {math.floor(per_period / 2) + 1}x up fold onto lower frequencies (spectra of "
                  "the compliant meshes' channels show peaks the motion does not have)")
        return (f"settings.output_step {self.output_step:.3g} s samples the mesh frequency of "
                f"{self.pairs[self.which]!r} ({hertz(f)} at t = {self.when:.4g} s) {per_period:.2g} times a period: "
                f"{folded}; an output step of {1 / (ADVISED_SAMPLES * f):.2g} s samples {ADVISED_SAMPLES} times a "
                "period")
