"""What changed between two versions of a model, in what a simulation takes (its items and settings), as short
phrases in the units people read: 'sun_torque.law.value: 1 -> 2 N m', 'gear1.face_width: 20 -> 25 mm', 'added
brake'. For two runs side by side: what the one was made from that the other was not."""

from __future__ import annotations

import dataclasses
import math

from core.model.entities import GearSource
from core.model.kinds import COLLECTIONS
from core.model.model import Model

#: a body's fields that follow its generated shape (they change with it, so they are not said apart)
FOLLOW_SHAPE = ("mass", "com", "inertia")
#: the fields of a time law in its load's unit (LAW_UNIT)
LAW_VALUES = ("value", "final", "amplitude")


def differences(old: Model, new: Model) -> list[str]:
    """The changes from `old` to `new`: items added and removed, each field that differs in an item of both (a
    time law's and a generated gear's own fields named as the item's), and the settings that differ."""
    out = []
    for coll in COLLECTIONS:
        before, after = old.collection(coll), new.collection(coll)
        out += [f"removed {name}" for name in before if name not in after]
        out += [f"added {name}" for name in after if name not in before]
        for name in (n for n in after if n in before and before[n] != after[n]):
            out += _fields(name, before[name], after[name])
    return out + _fields("settings", old.settings, new.settings)


def _fields(path: str, a, b, unit_of=None) -> list[str]:
    """The phrases for the fields in which dataclass instances `a` and `b` differ, under `path`."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} -> {type(b).__name__}"]
    out = []
    shape_changed = isinstance(getattr(a, "visual", None), GearSource) and a.visual != b.visual
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if x == y or (shape_changed and f.name in FOLLOW_SHAPE):
            continue
        if isinstance(x, GearSource) and isinstance(y, GearSource):
            out += _fields(path, x.spec, y.spec)  # a gear's geometry reads as the gear's own fields
        elif dataclasses.is_dataclass(x) and dataclasses.is_dataclass(y):
            law_unit = getattr(a, "LAW_UNIT", "") if f.name == "law" else None
            out += _fields(f"{path}.{f.name}", x, y, law_unit)
        else:
            rng = f.metadata.get("range") or f.metadata.get("vector_range")
            scale, unit = (rng.scale, rng.shown_unit) if rng is not None else (1.0, "")
            if unit_of is not None and f.name in LAW_VALUES:
                unit = unit_of
            if not any(isinstance(v, (int, float, tuple)) for v in (x, y)):
                unit = ""  # a choice or a name
            out.append(f"{path}.{f.name}: {_shown(x, scale)} -> {_shown(y, scale)}{f' {unit}' if unit else ''}")
    return out


def _shown(value, scale: float) -> str:
    """A field's value as a person reads it: a number times `scale` (to its display unit), a vector as (x, y, z),
    anything else as it is (cut when long)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(value * scale)
    if isinstance(value, tuple) and value and all(isinstance(v, (int, float)) for v in value):
        return f"({', '.join(_number(v * scale) for v in value)})"
    text = str(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _number(v: float) -> str:
    return f"{v + 0.0:.6g}" if math.isfinite(v) else str(v)


def in_short(changes: list[str], most: int = 3) -> str:
    """`changes` in one line: the first `most` of them and how many more ('' for none)."""
    shown = "; ".join(changes[:most])
    return shown + (f"; and {len(changes) - most} more" if len(changes) > most else "")
