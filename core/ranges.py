"""Allowed ranges of model fields, shared by file loading, the CLI and the GUI.

A `Range` lives in a dataclass field's metadata (see `ranged`). Values are SI
inside core; a range also knows the unit a person types (mm, deg) so that the
CLI and the GUI can state the allowed range in the units they ask for.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Range:
    """Closed or open interval of allowed values of one field.

    Parameters
    ----------
    lo, hi : float or None
        Bounds in SI units; None means unbounded.
    unit : str
        SI unit of the stored value ("m", "rad", "kg", "" for counts).
    display_unit : str
        Unit shown to people; ``display = value * scale``.
    scale : float
        Factor from SI to the display unit.
    lo_open, hi_open : bool
        Whether the bound itself is excluded.
    integer : bool
        Whether the value must be a whole number.
    """

    lo: float | None = None
    hi: float | None = None
    unit: str = ""
    display_unit: str | None = None
    scale: float = 1.0
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False

    @property
    def shown_unit(self) -> str:
        return self.unit if self.display_unit is None else self.display_unit

    def to_display(self, value: float) -> float:
        return value * self.scale

    def from_display(self, value: float) -> float:
        return value / self.scale

    def describe(self) -> str:
        """Say the allowed range in display units, e.g. 'between 0.1 and 100 mm'."""
        unit = f" {self.shown_unit}" if self.shown_unit else ""
        kind = "a whole number" if self.integer else "a number"

        def fmt(v: float) -> str:
            return f"{v * self.scale:.6g}"

        if self.lo is not None and self.hi is not None:
            if not (self.lo_open or self.hi_open):
                return f"{kind} from {fmt(self.lo)} to {fmt(self.hi)}{unit}"
            lo_part = f"above {fmt(self.lo)}" if self.lo_open else f"at least {fmt(self.lo)}"
            hi_part = f"below {fmt(self.hi)}" if self.hi_open else f"at most {fmt(self.hi)}"
            return f"{kind} {lo_part} and {hi_part}{unit}"
        if self.lo is not None:
            word = "above" if self.lo_open else "at least"
            return f"{kind} {word} {fmt(self.lo)}{unit}"
        if self.hi is not None:
            word = "below" if self.hi_open else "at most"
            return f"{kind} {word} {fmt(self.hi)}{unit}"
        return f"a finite {kind[2:]}"

    def problem(self, value: Any) -> str | None:
        """Return why `value` (SI) is not allowed, or None when it is."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"must be {self.describe()}, got {value!r}"
        if self.integer and (isinstance(value, float) and not value.is_integer()):
            return f"must be {self.describe()}, got {value!r}"
        if not math.isfinite(value):
            return f"must be {self.describe()}, got {value!r}"
        too_low = self.lo is not None and (value < self.lo or (self.lo_open and value == self.lo))
        too_high = self.hi is not None and (value > self.hi or (self.hi_open and value == self.hi))
        if too_low or too_high:
            shown = f"{value * self.scale:.6g}"
            unit = f" {self.shown_unit}" if self.shown_unit else ""
            return f"must be {self.describe()}, got {shown}{unit}"
        return None


def ranged(default: Any = dataclasses.MISSING, **kwargs: Any) -> Any:
    """A dataclass field carrying a `Range` in its metadata."""
    rng = Range(**kwargs)
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata={"range": rng})
    return dataclasses.field(default=default, metadata={"range": rng})


def vector(default: Any, **kwargs: Any) -> Any:
    """A dataclass field holding a 3-vector; its metadata says the unit people type (checked by the entity)."""
    return dataclasses.field(default=default, metadata={"vector_range": Range(**kwargs)})


def choice(default: str, choices: tuple[str, ...]) -> Any:
    """A dataclass field holding one of `choices` (checked by the entity; the GUI offers them in a list)."""
    return dataclasses.field(default=default, metadata={"choices": tuple(choices)})


def field_range(cls: type, name: str) -> Range | None:
    """The `Range` of field `name` of dataclass `cls`, or None."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            return f.metadata.get("range")
    raise KeyError(name)


def range_problems(obj: Any) -> list[tuple[str, str]]:
    """(field, message) for every ranged field of dataclass `obj` out of range."""
    out = []
    for f in dataclasses.fields(obj):
        rng = f.metadata.get("range")
        if rng is None:
            continue
        msg = rng.problem(getattr(obj, f.name))
        if msg:
            out.append((f.name, msg))
    return out


MM = {"unit": "m", "display_unit": "mm", "scale": 1e3}
DEG = {"unit": "rad", "display_unit": "deg", "scale": 180.0 / math.pi}
#: a speed as engineers also read it
RPM = {"unit": "rad/s", "display_unit": "rpm", "scale": 60.0 / (2.0 * math.pi)}
#: a mesh's or a bearing's stiffness, as gear and bearing data give it (ISO 6336's c' is in N/(mm um))
N_PER_UM = {"unit": "N/m", "display_unit": "N/µm", "scale": 1e-6}


def hertz(f: float) -> str:
    """A frequency [Hz] as the app and the CLI write it: whole hertz from 1 kHz up (17960 Hz, not 1.796e+04 Hz)."""
    return f"{f:.0f} Hz" if abs(f) >= 1e3 else f"{f:.4g} Hz"


def microns(x: float) -> str:
    """A small length [m] (a transmission error, a deflection) as the app and the CLI write it, in µm as gear data
    give it: '32.43 µm', not '3.24259e-05 m'."""
    return f"{x * 1e6:.4g} µm"


def direction(v) -> str:
    """A unit direction as the app and the CLI write it: '1, 0, 0', not '1, 0, 2.22e-16' (a rotation's round-off
    below 1e-9 reads 0, and so does -0)."""
    return ", ".join(f"{round(float(c), 9) + 0.0:.6g}" for c in v)


def spin(w: float) -> str:
    """An angular speed [rad/s] as the app and the CLI write it, also in rpm: '100 rad/s (954.93 rpm)'."""
    return f"{w:.6g} rad/s ({w * RPM['scale']:.6g} rpm)"
