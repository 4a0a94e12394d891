"""How far the teeth of a run's fastest gear move between two frames of an animation of it.

A gear whose teeth move more than a small share of their pitch from one frame to the next does not look as it
turns: at half a pitch or more a frame the teeth seem to stand still or run backwards (the wagon-wheel effect).
A pinion of 20 teeth at 100 rad/s passes 318 teeth a second (its mesh frequency): a video at 30 frames a second
of its real speed moves them 10.6 pitches a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.model.entities import GearSource
from core.model.model import Model

#: pitches a frame up to which the teeth's motion reads true on screen
TRUE_SHARE = 0.25


@dataclass(frozen=True)
class ToothPassing:
    """The gear whose teeth pass fastest in a run, and how fast.

    Attributes
    ----------
    gear : str
        The gear's body.
    rate : float
        Its tooth pitches passing a fixed point per second of the run, at the fastest [1/s]: its spin [rad/s]
        times its teeth over 2 pi.
    """

    gear: str
    rate: float

    def per_frame(self, fps: float, speed: float) -> float:
        """Tooth pitches the gear turns between two frames of `fps` frames per second [1/s] showing `speed`
        seconds of the run per second [-]."""
        return self.rate * speed / fps

    def true_speed(self, fps: float) -> float:
        """The largest speed [-] at which a frame turns the gear at most TRUE_SHARE of a pitch."""
        return TRUE_SHARE * fps / self.rate


def fastest_teeth(model: Model, results) -> ToothPassing | None:
    """The generated gear of `model` whose teeth pass fastest over `results` (core.dynamics.results.Results of a
    run of it, with each body's spin channels '<body>.wx', '.wy', '.wz' [rad/s], world axes); None when the
    model has no gear or no gear turns."""
    fastest, have = None, {c.name for c in results.channels}
    for name, body in model.bodies.items():
        if not isinstance(body.visual, GearSource) or f"{name}.wx" not in have:
            continue
        spin = np.sqrt(sum(results[f"{name}.w{a}"] ** 2 for a in "xyz"))
        rate = float(np.max(spin, initial=0.0)) * body.visual.spec.teeth / (2.0 * math.pi)
        if rate > 0 and (fastest is None or rate > fastest.rate * (1 + 1e-9)):  # a tie (a pair's mesh): the first
            fastest = ToothPassing(name, rate)
    return fastest


def nice_below(value: float) -> float:
    """The largest number of the series 1, 2, 5 times a power of ten that is at most `value` (> 0)."""
    power = 10.0 ** math.floor(math.log10(value))
    return max(step * power for step in (1.0, 2.0, 5.0) if step * power <= value * (1 + 1e-12))
