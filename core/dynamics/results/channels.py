"""Result channels: what is measured, on which model item, in which unit.

A channel is recorded once with its name parts and unit, so nothing
downstream parses units out of names. Each element declares its channels
(Element.channels) and writes their values at output samples, in that order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# what the telemetry groups channels by
GROUPS = ("gear pair", "body", "joint", "force", "mesh", "energy", "derived")
TOOTH_FORCES = ("Ft", "Fr", "Fa", "Fc")


class Channel(NamedTuple):
    """One result channel (a named tuple: a run makes a hundred or more of them in its set-up).

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


def tooth_forces_first(channels: list[Channel]) -> np.ndarray:
    """Column order: the gear pairs' tooth forces (what people look at first), then the rest in their order."""
    first = [k for k, c in enumerate(channels) if c.group == "gear pair" and c.quantity in TOOTH_FORCES]
    taken = set(first)
    rest = [k for k in range(len(channels)) if k not in taken]
    return np.array(first + rest, dtype=int)
