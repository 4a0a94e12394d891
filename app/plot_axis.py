"""A plot axis labelled 'quantity [unit]' whose unit takes the SI prefix that suits its range (pyqtgraph).

A transmission error of 14e-6 m reads as 14 on an axis labelled 'TE [µm]' (as the CHBM windows show it), a
0.1 s run's time as 0 to 100 [ms]. pyqtgraph picks the prefix from the visible range (its automatic SI
prefix); this class writes the label in the app's brackets. Some units read in the unit the app's entries
take, whatever their size: a mesh stiffness in N/µm, an angle in degrees, a speed of rotation in rpm. A
dimensionless unit ('1', or none) takes no prefix: its ticks are the values as they are; an angular
acceleration takes one only below 1.

Every plot's axes come from here, so this module also sets pyqtgraph's colours for all of them, before the first
plot is made: a white background and dark text. pyqtgraph's defaults are for a black background; its light grey
text (150, 150, 150) on white reads at a contrast of about 3:1, dark grey at about 10:1.
"""

from __future__ import annotations

import pyqtgraph as pg

from core.ranges import DEG, N_PER_UM, RPM

pg.setConfigOptions(background="w", foreground="#404040")

#: units a prefix would make wrong or odd: dimensionless ones, and rpm (read as it is: not krpm)
NO_PREFIX = ("", "1", "-", "rpm")
#: units that take a prefix only below 1 (mrad/s^2, but 3000 rad/s^2 rather than 3 krad/s^2)
SMALL_ONLY = ("rad/s^2",)
#: units shown in one unit of their own, as the model's entries show them (mm and degrees, speeds also in rpm,
#: stiffness in N/µm): {SI unit: (shown unit, factor)}
PEOPLE = {u["unit"]: (u["display_unit"], u["scale"]) for u in (N_PER_UM, DEG, RPM)}


class UnitAxis(pg.AxisItem):
    """An axis showing `quantity [prefix unit]`; set both with `set_quantity`."""

    _unit = ""  # the unit as given (pyqtgraph keeps none for a unit it does not prefix)

    def set_quantity(self, text: str, unit: str, prefix: bool = True) -> None:
        """Label the axis with `text` and `unit` (SI, as the channel records give it); '' for neither. `prefix`
        False keeps the values as they are (an entry's preview, in the unit the entry takes)."""
        shown, scale = PEOPLE.get(unit, (unit, 1.0)) if prefix else (unit, 1.0)
        self._unit = shown
        prefixed = prefix and unit not in NO_PREFIX and unit not in PEOPLE
        self.autoSIPrefix = prefixed
        self.setScale(scale)
        self.setLabel(text, units=unit if prefixed else None,
                      siPrefixEnableRanges=((0.0, 1.0),) if unit in SMALL_ONLY else None)
        self.showLabel(bool(text or unit))
        self.updateAutoSIPrefix()

    def updateAutoSIPrefix(self) -> None:
        if self.autoSIPrefix:
            super().updateAutoSIPrefix()
        else:  # pyqtgraph would still scale the ticks by a prefix it picks from the range
            self.autoSIPrefixScale, self.labelUnitPrefix = 1.0, ""
            self._updateLabel()

    def labelString(self) -> str:
        unit = f"{self.labelUnitPrefix}{self.labelUnits}" if self.labelUnits else self._unit
        text = " ".join(s for s in (self.labelText.strip(), f"[{unit}]" if unit else "") if s)
        style = ";".join(f"{k}: {v}" for k, v in self.labelStyle.items())
        return f"<span style='{style}'>{text}</span>"


def prefixed(largest: float, unit: str) -> tuple[float, str]:
    """The factor and the prefixed unit that show values up to `largest` in magnitude (in `unit`) as numbers of
    1 to 1000, as the axes do: (1e6, 'µm') for metres up to 14e-6; (1, unit) for a unit NO_PREFIX holds; a
    unit PEOPLE holds in its own unit."""
    if unit in PEOPLE:
        return PEOPLE[unit][1], PEOPLE[unit][0]
    if unit in NO_PREFIX or (unit in SMALL_ONLY and largest >= 1.0):
        return 1.0, unit
    scale, prefix = pg.siScale(largest)
    return scale, prefix + unit


def shown_unit(unit: str) -> str:
    """The unit a channel of SI `unit` is shown in (before any SI prefix): 'rpm' for 'rad/s'."""
    return PEOPLE.get(unit, (unit, 1.0))[0]


def unit_axes(*sides: str) -> dict[str, UnitAxis]:
    """UnitAxis items for a PlotWidget's `axisItems`, by side ('left', 'bottom', ...)."""
    return {side: UnitAxis(side) for side in sides}


def empty_range(plot, x_range: tuple[float, float] | None = (0.0, 1.0)) -> None:
    """A plot (pyqtgraph PlotWidget or PlotItem) with nothing drawn back to the unit square (or `x_range` by 0 to
    1: a time axis spanning the run; None: its x axis as it is, one it shares with other plots), not the axes of
    data that is gone; its auto range on, so the next data drawn fits again."""
    view = plot.getPlotItem().vb if hasattr(plot, "getPlotItem") else plot.vb
    if x_range is None:
        view.setYRange(0.0, 1.0, padding=0.0)
        view.enableAutoRange(axis=view.YAxis)
        return
    view.setRange(xRange=x_range, yRange=(0.0, 1.0), padding=0.0)
    view.enableAutoRange()  # with nothing to fit it keeps the square
