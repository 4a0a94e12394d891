"""Amplitude spectra of result channels, the gear pairs' mesh frequencies, and order maps of run-ups.

A spectrum is taken over [t0, t1] of a channel: the samples are used as
they are when they are equally spaced, else resampled (linear
interpolation) to equal steps of their median spacing; the mean is removed
and a window applied; the single-sided amplitude is corrected for the
window's coherent gain, so a sine of amplitude A shows a peak of height A.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.gearing.mesh_phase import mesh_rate
from core.model.entities import GROUND
from core.model.model import Model


def _flattop(n: int) -> np.ndarray:
    """The ISO 18431-1 flat-top window (amplitudes read between bins within 0.01 dB)."""
    a = (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368)
    k = 2 * np.pi * np.arange(n) / (n - 1)
    return a[0] - a[1] * np.cos(k) + a[2] * np.cos(2 * k) - a[3] * np.cos(3 * k) + a[4] * np.cos(4 * k)


#: amplitudes below this share of a channel's level are its round-off (a double holds some 16 digits; a run's
#: arithmetic spends a few)
ROUND_OFF = 1e-9
WINDOWS = {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman, "flat-top": _flattop,
           "rectangular": np.ones}


@dataclass
class Spectrum:
    """Single-sided amplitude spectrum of one channel over [t0, t1]: its first and last samples [s]."""

    frequency: np.ndarray  # [Hz]
    amplitude: np.ndarray  # [unit of the channel]
    window: str
    t0: float
    t1: float
    samples: int
    resampled: bool
    level: float = 0.0  # the largest magnitude of the channel's samples over the range [unit of the channel]

    @property
    def round_off(self) -> bool:
        """Whether every amplitude is below ROUND_OFF of the channel's level: a channel constant over the range but
        for its last digits, whose spectrum scaled to itself would show round-off as peaks."""
        return float(self.amplitude.max(initial=0.0)) <= ROUND_OFF * self.level

    @property
    def resolution(self) -> float:
        """Bin spacing [Hz]."""
        return float(self.frequency[1] - self.frequency[0]) if len(self.frequency) > 1 else math.inf


def uniform_samples(time: np.ndarray, values: np.ndarray, t0: float,
                    t1: float) -> tuple[np.ndarray, float, np.ndarray, bool]:
    """(times [s], their step [s], the values at them, whether they were resampled) of the samples in [t0, t1], on
    equal steps from the first."""
    keep = (time >= t0) & (time <= t1)
    t, v = time[keep], values[keep]
    if len(t) < 4:
        raise ValueError(f"need at least 4 samples between {t0:.6g} and {t1:.6g} s, got {len(t)}")
    steps = np.diff(t)
    dt = float(np.median(steps))
    if dt <= 0:
        raise ValueError("the samples' times do not increase")
    if np.abs(steps - dt).max() <= 1e-6 * dt:
        return t, dt, v, False
    grid = t[0] + dt * np.arange(int(math.floor((t[-1] - t[0]) / dt + 1e-9)) + 1)
    return grid, dt, np.interp(grid, t, v), True


def amplitude_spectrum(time, values, t0: float | None = None, t1: float | None = None,
                       window: str = "hann") -> Spectrum:
    """The amplitude spectrum of `values` sampled at `time` [s] over [t0, t1] (default: all)."""
    time, values = np.asarray(time, float), np.asarray(values, float)
    t0 = float(time[0]) if t0 is None else float(t0)
    t1 = float(time[-1]) if t1 is None else float(t1)
    if window not in WINDOWS:
        raise ValueError(f"window: must be one of {', '.join(WINDOWS)}, got {window!r}")
    times, dt, v, resampled = uniform_samples(time, values, t0, t1)
    n = len(v)
    w = WINDOWS[window](n)
    spectrum = np.fft.rfft((v - v.mean()) * w)
    amplitude = np.abs(spectrum) * 2.0 / w.sum()
    amplitude[0] /= 2.0
    if n % 2 == 0:
        amplitude[-1] /= 2.0
    return Spectrum(np.fft.rfftfreq(n, dt), amplitude, window, float(times[0]), float(times[-1]), n, resampled,
                    float(np.abs(v).max()))


def _axis_speed(results, body: str, axis: np.ndarray, rows) -> np.ndarray:
    """A body's angular velocity about `axis` [rad/s] at the given rows (the ground: 0); times `axis`'s length (Hz
    per rad/s: a mesh frequency)."""
    if body == GROUND:
        return np.zeros(int(np.count_nonzero(rows)))
    w = np.column_stack([results[f"{body}.w{a}"][rows] for a in "xyz"])
    return w @ axis


def mesh_frequency_spans(results, model: Model, t0: float, t1: float) -> dict[str, tuple[float, float, float]]:
    """Each gear pair's mesh frequency [Hz] over [t0, t1]: its mean, lowest and highest (a run-up sweeps).

    The mesh frequency is z1 times gear 1's speed relative to the carrier,
    from the bodies' angular-velocity channels about the axis of the pair's
    joint 1 (as it was at the start), so a pair on a turning carrier (a
    planet set) is counted in the carrier's frame.
    """
    rows = (results.time >= t0) & (results.time <= t1)
    out = {}
    for p in model.gear_pairs.values():
        if p.joint1 not in model.joints or model.joints[p.joint1].body_j not in results.bodies:
            continue
        body, carrier, per = mesh_rate(model, p)  # Hz per rad/s
        relative = np.abs(_axis_speed(results, body, per, rows) - _axis_speed(results, carrier, per, rows))
        if not relative.size:  # no sample in [t0, t1]
            continue
        out[p.name] = (float(relative.mean()), float(relative.min()), float(relative.max()))
    return out


def mesh_frequencies(results, model: Model, t0: float, t1: float) -> dict[str, float]:
    """Each gear pair's mean mesh frequency [Hz] over [t0, t1] (see `mesh_frequency_spans`)."""
    return {name: span[0] for name, span in mesh_frequency_spans(results, model, t0, t1).items()}


@dataclass
class OrderMap:
    """Amplitude against time (and shaft speed) and frequency: a spectrogram of a run-up."""

    time: np.ndarray  # centre of each segment [s]
    speed_rpm: np.ndarray  # mean shaft speed of each segment [rpm]
    frequency: np.ndarray  # [Hz]
    amplitude: np.ndarray  # (segments, frequencies) [unit of the channel]


def order_map(time, values, speed, segment: int = 256, overlap: float = 0.75, window: str = "hann",
              t0: float | None = None, t1: float | None = None) -> OrderMap:
    """Short-time amplitude spectra of `values` with the mean `speed` [rad/s] of a reference shaft per segment.

    Parameters
    ----------
    segment : samples per spectrum; overlap : share of a segment the next one repeats.
    """
    time, values, speed = (np.asarray(a, float) for a in (time, values, speed))
    t0 = float(time[0]) if t0 is None else t0
    t1 = float(time[-1]) if t1 is None else t1
    _, dt, v, _ = uniform_samples(time, values, t0, t1)
    _, _, s, _ = uniform_samples(time, speed, t0, t1)
    segment = int(min(segment, len(v)))
    hop = max(1, int(segment * (1 - overlap)))
    w = WINDOWS[window](segment)
    starts = range(0, len(v) - segment + 1, hop)
    amp, centres, rpm = [], [], []
    for k in starts:
        part = v[k:k + segment]
        a = np.abs(np.fft.rfft((part - part.mean()) * w)) * 2.0 / w.sum()
        a[0] /= 2.0
        amp.append(a)
        centres.append(t0 + dt * (k + 0.5 * (segment - 1)))
        rpm.append(float(np.abs(s[k:k + segment]).mean()) * 60.0 / (2 * math.pi))
    return OrderMap(np.array(centres), np.array(rpm), np.fft.rfftfreq(segment, dt), np.array(amp))


def mesh_orders(model: Model, results, reference_joint: str, t0: float, t1: float) -> dict[str, float]:
    """Each pair's mesh order relative to a reference joint: mesh frequency / reference speed in rev/s."""
    rows = (results.time >= t0) & (results.time <= t1)
    ref = abs(float(results[f"{reference_joint}.speed"][rows].mean())) / (2 * math.pi)
    if ref == 0:
        return {}
    return {name: f / ref for name, f in mesh_frequencies(results, model, t0, t1).items()}


def shared_frequencies(values: dict[str, float], tolerance: float) -> list[tuple[float, list[str]]]:
    """The pairs whose mesh frequencies (or orders) lie within `tolerance` [the values' unit] of the lowest in a
    group, one group each, ascending: (the group's mean, its pairs' names in their given order). A planetary
    set's meshes all share one mesh frequency: one marker for them, not one per mesh drawn over each other."""
    groups: list[tuple[float, list[str]]] = []
    for name, value in sorted(values.items(), key=lambda item: item[1]):
        if groups and value - groups[-1][0] <= tolerance:
            groups[-1][1].append(name)
        else:
            groups.append((value, [name]))
    order = list(values)
    return [(float(np.mean([values[n] for n in names])), sorted(names, key=order.index)) for _, names in groups]
