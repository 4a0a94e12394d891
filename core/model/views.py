"""What the model file keeps of how its results are looked at: the telemetry layout, the last CHBM study's and Train
Dynamics' settings.

Channels are named as in the results (``sun_joint.speed``), so a layout
applies to any run of the model; names a run does not have are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.model.entities import MAX_NAME, name_problem
from core.ranges import Range

MAX_PLOTS = 16
MAX_CHANNELS = 64


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
                if name_problem(n):
                    return [(f"plots[{k}]", f"channel names must be printable text of 1 to {MAX_NAME} characters")]
        return []


PAPER_SOURCE = ""  # the CHBM study's source when it is the paper's pair (Saletti et al. 2025, Table 1)
MAX_TORQUES = 8
#: a forced-response curve's torque on gear 1 [N m] and a train curve's torque scale: below 1e-9 a torque is
#: round-off (a subnormal one made the solvers' scaling divide by zero)
CURVE_TORQUE = Range(1e-9, 1e6, unit="N m")
TORQUE_SCALE = Range(1e-9, 1e3)
#: a train curve's harmonics H, and the default: the involute waveform's jumps ring at the train's modes, and
#: the peak mesh force converges as 1 / H^2 once H reaches about twice the highest mode over the mesh frequency
#: (the lumped planetary example against Newmark near 1200 Hz: 30 % low at H = 8, 3 % at 24, 1.5 % at 32);
#: they are of the train's period, which for meshes of different frequencies holds several mesh periods
TRAIN_HARMONICS = Range(1, 1000, integer=True)
TRAIN_DEFAULT_HARMONICS = 32
#: frequencies of a train curve's Newmark check (the window's and the command line's --newmark); 0: none
NEWMARK_POINTS = Range(0, 200, integer=True)
#: the most points a forced-response curve holds (core.chbm.continuation stops a curve there)
MAX_CURVE_POINTS = 20_000


def step_problem(f_min: float, f_max: float, df_max: float | None) -> str | None:
    """What is wrong with a largest frequency step df_max [Hz] for a curve from f_min to f_max [Hz], or None.

    Steps of at most df_max need (f_max - f_min) / df_max points, and a curve holds at most MAX_CURVE_POINTS;
    0 or None (1 % of the range) is always right."""
    if df_max and (f_max - f_min) / df_max > MAX_CURVE_POINTS:
        return (f"must be at least {(f_max - f_min) / MAX_CURVE_POINTS:g} Hz for this range: a curve holds at most "
                f"{MAX_CURVE_POINTS} points, got {df_max:g}")
    return None


DTI_POINTS_MAX = 2000  # frequencies of a CHBM study's Newmark sweeps at most (each about a second)


@dataclass(frozen=True)
class ChbmStudy:
    """Settings of a CHBM forced-response study (results are recomputed, never stored).

    Parameters
    ----------
    source : str
        A gear pair of the model, or "" for the paper's pair (Table 1).
    torques : tuple of float
        Torques on gear 1 [N m], 1 to 8 of them, each from 1e-9 to 1e6 (CURVE_TORQUE).
    f_min, f_max : float
        Mesh-frequency range [Hz], 0 < f_min < f_max <= 1e6.
    harmonics : int
        H, 1 to 100.
    df_max : float
        Largest frequency step between points [Hz], up to the range and at least the range / MAX_CURVE_POINTS;
        0: 1 % of the range.
    dti_points : int
        Frequencies of the Newmark forward/backward sweeps, 2 to DTI_POINTS_MAX (0: none).
    """

    source: str = PAPER_SOURCE
    torques: tuple[float, ...] = (100.0, 200.0, 300.0)
    f_min: float = 500.0
    f_max: float = 4000.0
    harmonics: int = 14
    df_max: float = 0.0
    dti_points: int = 0

    def problems(self) -> list[tuple[str, str]]:
        if not 1 <= len(self.torques) <= MAX_TORQUES:
            return [("torques", f"must hold 1 to {MAX_TORQUES} torques, got {len(self.torques)}")]
        for t in self.torques:
            if CURVE_TORQUE.problem(t):
                return [("torques", f"each torque {CURVE_TORQUE.problem(t)}")]
        if not 0 < self.f_min < self.f_max <= 1e6:
            return [("f_min", f"need 0 < f_min < f_max <= 1e6 Hz, got {self.f_min:g} and {self.f_max:g}")]
        if not 1 <= self.harmonics <= 100:
            return [("harmonics", f"must be a whole number from 1 to 100, got {self.harmonics}")]
        if not 0 <= self.df_max <= self.f_max - self.f_min:
            return [("df_max", f"must be from 0 to the range ({self.f_max - self.f_min:g} Hz), got {self.df_max:g}")]
        if step_problem(self.f_min, self.f_max, self.df_max):
            return [("df_max", step_problem(self.f_min, self.f_max, self.df_max))]
        if self.dti_points and not 2 <= self.dti_points <= DTI_POINTS_MAX:
            return [("dti_points", f"must be 0 (none) or a whole number from 2 to {DTI_POINTS_MAX}, got {self.dti_points}")]
        return []


MAX_TORQUE_SCALES = 6
TRAIN_SPEED_MAX = 1e6  # the Campbell diagram's highest input speed [rpm] at most
TRAIN_F_MAX = 1e6  # the forced response's highest mesh frequency [Hz] at most


@dataclass(frozen=True)
class TrainStudy:
    """Settings of the Train Dynamics window (its modes and curves are recomputed, never stored).

    Parameters
    ----------
    speed_max_rpm : float
        The Campbell diagram's highest input speed [rpm] (as the command line's --speed-max), above 0, at most 1e6.
    f_min, f_max : float
        Mesh-frequency range of the forced response [Hz], 0 < f_min < f_max <= 1e6.
    harmonics : int
        H, of the train's period (the mesh period where every mesh runs at one frequency), 1 to 1000.
    df_max : float
        Largest frequency step between points [Hz], at most 1e6 and at least the range / MAX_CURVE_POINTS; 0: 1 %
        of the range.
    torque_scales : tuple of float
        Scales of the model's mean torques, one curve each: 1 to 6, each from 1e-9 to 1000 (TORQUE_SCALE).
    newmark_points : int
        Mesh frequencies, evenly spaced from f_min to f_max, where Newmark time integration of the same lumped
        model checks each curve: 0 (none) to 200 (NEWMARK_POINTS).
    """

    speed_max_rpm: float = 3000.0
    f_min: float = 100.0
    f_max: float = 3000.0
    harmonics: int = TRAIN_DEFAULT_HARMONICS
    df_max: float = 10.0
    torque_scales: tuple[float, ...] = (1.0,)
    newmark_points: int = 0

    def problems(self) -> list[tuple[str, str]]:
        if not 0 < self.speed_max_rpm <= TRAIN_SPEED_MAX:
            return [("speed_max_rpm", f"must be above 0 and at most {TRAIN_SPEED_MAX:g} rpm, got {self.speed_max_rpm:g}")]
        if not 0 < self.f_min < self.f_max <= TRAIN_F_MAX:
            return [("f_min", f"need 0 < f_min < f_max <= {TRAIN_F_MAX:g} Hz, got {self.f_min:g} and {self.f_max:g}")]
        if TRAIN_HARMONICS.problem(self.harmonics):
            return [("harmonics", TRAIN_HARMONICS.problem(self.harmonics))]
        if not 0 <= self.df_max <= 1e6:
            return [("df_max", f"must be from 0 to 1e6 Hz, got {self.df_max:g}")]
        if step_problem(self.f_min, self.f_max, self.df_max):
            return [("df_max", step_problem(self.f_min, self.f_max, self.df_max))]
        if not 1 <= len(self.torque_scales) <= MAX_TORQUE_SCALES:
            return [("torque_scales", f"must hold 1 to {MAX_TORQUE_SCALES} scales, got {len(self.torque_scales)}")]
        for s in self.torque_scales:
            if TORQUE_SCALE.problem(s):
                return [("torque_scales", f"each scale {TORQUE_SCALE.problem(s)}")]
        if NEWMARK_POINTS.problem(self.newmark_points):
            return [("newmark_points", NEWMARK_POINTS.problem(self.newmark_points))]
        return []


@dataclass(frozen=True)
class Views:
    """Window states saved with the model."""

    telemetry: TelemetryLayout = TelemetryLayout()
    chbm: ChbmStudy = ChbmStudy()
    train: TrainStudy = TrainStudy()
