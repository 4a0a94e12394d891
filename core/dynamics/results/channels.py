"""Result channels: what is measured, on which model item, in which unit.

A channel is recorded once with its name parts and unit, so nothing
downstream parses units out of names. Elements add their outputs to an
`Outputs` collector, only at output samples; the order in which they add
them is the order of the columns (the same at every sample).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# what the telemetry groups channels by
GROUPS = ("gear pair", "body", "joint", "force", "mesh", "energy", "derived")
TOOTH_FORCES = ("Ft", "Fr", "Fa", "Fc")


@dataclass(frozen=True)
class Channel:
    """One result channel.

    Parameters
    ----------
    item : str
        The model item it belongs to (``sun_planet1``), or ``energy``.
    quantity : str
        What it is (``Ft``, ``speed``, ``TE``).
    unit : str
        SI unit (``N``, ``rad/s``, ``m``).
    group : str
        One of GROUPS: the kind of item, for browsing.
    description : str
        A few words for a tooltip.
    """

    item: str
    quantity: str
    unit: str
    group: str
    description: str = ""

    @property
    def name(self) -> str:
        """``item.quantity``."""
        return f"{self.item}.{self.quantity}"

    @property
    def label(self) -> str:
        """``item.quantity [unit]``: the CSV header of the column."""
        return f"{self.name} [{self.unit}]"


class Outputs:
    """Collects (channel, value) pairs in the order they are added.

    With ``records=False`` only the values are kept: a run makes the records
    once, at its first sample, and every later sample only needs the values.
    With ``samples=m`` each value is a column of m samples (a number is the
    same at every sample), and `array` is (m, channels).
    """

    def __init__(self, records: bool = True, samples: int | None = None):
        self.records, self.samples = records, samples
        self.channels: list[Channel] = []
        self.values: list = []

    def add(self, item: str, quantity: str, unit: str, value, group: str, description: str = "") -> None:
        if self.records:
            self.channels.append(Channel(item, quantity, unit, group, description))
        self.values.append(float(value) if self.samples is None else value)

    def add_vector(self, item: str, prefix: str, unit: str, vector, group: str, description: str = "") -> None:
        """Three channels ``prefix``x, y, z (vector (3,), or (m, 3) for m samples)."""
        if not self.records:
            if self.samples is None:
                self.values.extend(map(float, vector))
            else:
                self.values.extend((vector[:, 0], vector[:, 1], vector[:, 2]))
            return
        for k, axis in enumerate("xyz"):
            self.add(item, f"{prefix}{axis}", unit, vector[..., k], group, description)

    def array(self) -> np.ndarray:
        if self.samples is None:
            return np.array(self.values)
        out = np.empty((self.samples, len(self.values)))
        for k, v in enumerate(self.values):
            out[:, k] = v
        return out


def tooth_forces_first(channels: list[Channel]) -> np.ndarray:
    """Column order: the gear pairs' tooth forces (what people look at first), then the rest in their order."""
    first = [k for k, c in enumerate(channels) if c.group == "gear pair" and c.quantity in TOOTH_FORCES]
    rest = [k for k in range(len(channels)) if k not in set(first)]
    return np.array(first + rest, dtype=int)
