"""What the model file keeps of how its results are looked at: the telemetry layout (plots and their channels).

Channels are named as in the results (``sun_joint.speed``), so a layout
applies to any run of the model; names a run does not have are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_PLOTS = 16
MAX_CHANNELS = 64
MAX_NAME = 200


@dataclass(frozen=True)
class TelemetryLayout:
    """Stacked plots, top to bottom, each a tuple of channel names."""

    plots: tuple[tuple[str, ...], ...] = ()

    def problems(self) -> list[tuple[str, str]]:
        if len(self.plots) > MAX_PLOTS:
            return [("plots", f"must hold at most {MAX_PLOTS} plots, got {len(self.plots)}")]
        for k, names in enumerate(self.plots):
            if len(names) > MAX_CHANNELS:
                return [(f"plots[{k}]", f"must hold at most {MAX_CHANNELS} channels, got {len(names)}")]
            for n in names:
                if not (0 < len(n) <= MAX_NAME and n.isprintable()):
                    return [(f"plots[{k}]", f"channel names must be printable text of 1 to {MAX_NAME} characters")]
        return []


@dataclass(frozen=True)
class Views:
    """Window states saved with the model."""

    telemetry: TelemetryLayout = TelemetryLayout()
