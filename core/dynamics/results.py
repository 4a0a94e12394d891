"""Simulation results: named channels with units on the output grid, and their CSV export."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.tables import write_csv


@dataclass
class Results:
    """Channels sampled at `time` [s].

    Attributes
    ----------
    names : list of str
        Channel names with their unit, e.g. ``sun_planet1.Ft [N]``.
    time : ndarray (k,)
    data : ndarray (k, channels)
    status : {'finished', 'failed', 'cancelled'}
    message : str
        Why a run stopped early (and at what time); empty when it finished.
    findings : list of str
        Remarks made while setting up, e.g. initial speeds changed by the projection.
    """

    names: list[str]
    time: np.ndarray
    data: np.ndarray
    status: str = "finished"
    message: str = ""
    findings: list[str] = field(default_factory=list)
    steps: int = 0
    evaluations: int = 0

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.data[:, self.names.index(name)]
        except ValueError:
            raise KeyError(f"no channel {name!r}") from None

    def channel(self, prefix: str) -> np.ndarray:
        """The channel whose name starts with `prefix` (the unit may be left out)."""
        matches = [n for n in self.names if n == prefix or n.startswith(prefix + " [")]
        if len(matches) != 1:
            raise KeyError(f"no single channel {prefix!r}")
        return self[matches[0]]

    def to_csv(self, path) -> None:
        """CSV with one header row of 'name [unit]', first column 'time [s]'; written atomically."""
        write_csv(path, ["time [s]", *self.names],
                  ([float(t), *(float(v) for v in row)] for t, row in zip(self.time, self.data)))


def ordered_names(names) -> list[str]:
    """Gear contact forces first (what people look at), then the rest in their order."""
    first = [n for n in names if any(f".{k} [" in n for k in ("Ft", "Fr", "Fa", "Fc"))]
    return first + [n for n in names if n not in first]
