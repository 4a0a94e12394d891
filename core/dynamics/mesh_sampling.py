"""Whether a run's output samples resolve the mesh frequencies of its compliant meshes.

A compliant mesh's stiffness turns over once a mesh period, so its forces and transmission error carry the mesh
frequency and its harmonics. Samples spaced wider than half a mesh period fold that content onto frequencies the
motion does not have: a plot of a mesh force looks like noise and a spectrum shows peaks that are not there. A
run whose gears speed up (a free run-up) reaches such frequencies only as it goes, so the run watches its own
samples and says so at its end (core.dynamics.run).
"""

from __future__ import annotations

import math

import numpy as np

from core.model.entities import GROUND, CompliantMesh
from core.model.model import Model
from core.ranges import hertz

#: samples a mesh period that the advice asks for: enough to draw the waveform, not only to avoid aliasing
ADVISED_SAMPLES = 10


class MeshSampling:
    """The fastest mesh frequency [Hz] the output samples of a run saw on each pair that has a compliant mesh:
    z1 times gear 1's angular velocity about its joint's axis relative to the pair's carrier, from the bodies'
    angular-velocity channels (rad/s).

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
        self.pairs, gear, carrier, axes, teeth = [], [], [], [], []
        for name in sorted(pairs & set(model.gear_pairs)):
            pair = model.gear_pairs[name]
            joint = model.joints.get(pair.joint1)
            columns = [index.get(f"{joint.body_j}.w{a}") for a in "xyz"] if joint is not None else [None]
            held = [index.get(f"{pair.carrier}.w{a}") for a in "xyz"] if pair.carrier != GROUND else [-1] * 3
            if None in columns or None in held:  # a body without its channels: nothing to watch
                continue
            self.pairs.append(name)
            gear.append(columns)
            carrier.append(held)
            axes.append(joint.unit_axis())
            teeth.append(pair.z1)
        self.gear, self.carrier = np.array(gear, np.int64), np.array(carrier, np.int64)
        self.axes, self.teeth = np.array(axes, float), np.array(teeth, float)
        self.turning = self.carrier[:, 0] >= 0 if self.pairs else np.zeros(0, bool)
        self.fastest = np.zeros(len(self.pairs))  # [Hz]
        self.when = np.zeros(len(self.pairs))  # [s]

    def see(self, t: float, values: np.ndarray) -> None:
        """Take the output sample `values` at time t [s]."""
        if not self.pairs:
            return
        w = values[self.gear] - np.where(self.turning[:, None], values[self.carrier], 0.0)
        f = self.teeth * np.abs((w * self.axes).sum(axis=1)) / (2 * math.pi)
        faster = f > self.fastest
        self.fastest[faster], self.when[faster] = f[faster], t

    def note(self) -> str:
        """What the samples miss, in words ('' when every mesh frequency seen had at least two samples a period)."""
        if not self.pairs:
            return ""
        k = int(np.argmax(self.fastest))
        f = self.fastest[k]
        if not f * self.output_step > 0.5:
            return ""
        return (f"settings.output_step {self.output_step:.3g} s samples the mesh frequency of {self.pairs[k]!r} "
                f"({hertz(f)} at t = {self.when[k]:.4g} s) {1 / (f * self.output_step):.2g} times a period: the "
                "compliant meshes' channels alias there (their plots and spectra show frequencies the motion does "
                f"not have); an output step of {1 / (ADVISED_SAMPLES * f):.2g} s samples {ADVISED_SAMPLES} times a "
                "period")
