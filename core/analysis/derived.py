"""Derived channels: new columns computed from result channels by fixed formulas (no text is ever evaluated).

Each function returns the Channel record and its values over every sample;
`Results.add_channel` keeps them, so they are saved in the results file and
exported like any other channel.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.results import Channel
from core.model.entities import Torque
from core.model.model import Model


def _unit_over_time(unit: str) -> str:
    return f"{unit}/s" if unit else "1/s"


def derivative(results, name: str) -> tuple[Channel, np.ndarray]:
    """d(channel)/dt by central differences (one-sided at the ends) on the sample times."""
    c = results.record(name)
    values = np.gradient(results[name], results.time) if len(results) > 1 else np.zeros(len(results))
    return Channel(c.item, f"d({c.quantity})/dt", _unit_over_time(c.unit), "derived", f"time derivative of {c.name}"), values


def integral(results, name: str) -> tuple[Channel, np.ndarray]:
    """The running integral of a channel over time from the first sample (trapezoid rule)."""
    c = results.record(name)
    v, t = results[name], results.time
    values = np.concatenate([[0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * np.diff(t))])
    unit = f"{c.unit} s" if c.unit else "s"
    return Channel(c.item, f"int({c.quantity})", unit, "derived", f"time integral of {c.name} from t = {t[0]:g} s"), values


def moving_average(results, name: str, span: float) -> tuple[Channel, np.ndarray]:
    """The mean of a channel over the `span` [s] centred on each sample (shorter at the ends)."""
    if not span > 0:
        raise ValueError(f"span: must be above 0 s, got {span}")
    c = results.record(name)
    t, v = results.time, results[name]
    area = np.concatenate([[0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * np.diff(t))])
    lo = np.clip(t - span / 2, t[0], t[-1])
    hi = np.clip(t + span / 2, t[0], t[-1])
    a_lo, a_hi = np.interp(lo, t, area), np.interp(hi, t, area)
    width = hi - lo
    values = np.where(width > 0, (a_hi - a_lo) / np.where(width > 0, width, 1.0), v)
    return Channel(c.item, f"mean{span:g}s({c.quantity})", c.unit, "derived",
                   f"moving average of {c.name} over {span:g} s"), values


def difference(results, a: str, b: str) -> tuple[Channel, np.ndarray]:
    """Channel a minus channel b (same unit)."""
    ca, cb = results.record(a), results.record(b)
    if ca.unit != cb.unit:
        raise ValueError(f"{cb.label}: must have the unit of {ca.label} to be subtracted from it")
    return Channel(ca.item, f"{ca.quantity}-{cb.item}.{cb.quantity}", ca.unit, "derived", f"{ca.name} - {cb.name}"), \
        results[a] - results[b]


def ratio(results, a: str, b: str) -> tuple[Channel, np.ndarray]:
    """Channel a over channel b (a speed ratio, an efficiency as power over power): NaN where b is 0, where the
    ratio has no value. The unit is 1 for channels of one unit, else a's over b's."""
    ca, cb = results.record(a), results.record(b)
    if ca.unit == cb.unit:
        unit = "1"
    else:
        over = f"({cb.unit})" if " " in cb.unit or "/" in cb.unit else cb.unit or "1"
        unit = f"{ca.unit or '1'}/{over}"
    den = results[b]
    values = np.divide(results[a], den, out=np.full(len(den), np.nan), where=den != 0)
    return Channel(ca.item, f"{ca.quantity}/{cb.item}.{cb.quantity}", unit, "derived",
                   f"{ca.name} / {cb.name} (no value where {cb.name} is 0)"), values


def dynamic_factor(results, model: Model, pair: str, torque: float | None = None) -> tuple[Channel, np.ndarray]:
    """|Ft| over its quasi-static value at each sample [1]: |T| / r1 for a `torque` T given on gear 1 [N m] (a
    pair no torque element drives: what its mesh passes under the model's mean loads, core.chbm.from_model.
    static_torque), else T(t) / (N r1), with T(t) the torque elements on gear 1's joint at that sample, N the gear
    pairs on that joint (they share it, as a sun's planets do); r1 the pitch radius of gear 1 [m]. No value (NaN)
    where the torque is 0; ValueError when none is given and no torque element acts on gear 1's joint."""
    p = model.gear_pairs[pair]
    r1 = p.pitch_radii()[0]
    ft = np.abs(results[f"{pair}.Ft"])
    if torque is not None:
        static = np.full(len(ft), abs(torque) / r1)
        what = f"|Ft| over T / r1: T = {torque:.6g} N m given on gear 1, r1 = {r1 * 1e3:.6g} mm"
    else:
        loads = [f.name for f in model.forces.values() if isinstance(f, Torque) and f.joint == p.joint1]
        if not loads:
            raise ValueError(f"{pair}: no torque acts on {p.joint1}, so Ft has no quasi-static value T / r1 to be "
                             "divided by: give the torque on gear 1")
        sharing = sum(p.joint1 in (q.joint1, q.joint2) for q in model.gear_pairs.values())
        static = np.abs(sum(results[f"{name}.torque"] for name in loads)) / (sharing * r1)
        shared = f", shared by its {sharing} gear pairs" if sharing > 1 else ""
        what = f"|Ft| over T(t) / (N r1): the torque on {p.joint1}{shared}, r1 = {r1 * 1e3:.6g} mm"
    values = np.divide(ft, static, out=np.full(len(ft), np.nan), where=static != 0)
    return Channel(pair, "dynamic_factor", "1", "derived", f"{what} (no value where the torque is 0)"), values
