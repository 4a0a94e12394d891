"""Forced response of a gear train: harmonic-balance curves over the mesh frequency, every mesh's dynamic load and
dynamic factor and every body's vibration along them, the Newmark reference, CSV.

The mesh force of a mesh is its drive-flank force less its coast-flank force [N] along the line of action;
its dynamic factor is the peak of |F| over a period against the static |F| at the same torques. A body's
vibration is its rotation's half peak-to-peak as arc length at its rho (the base radius of a gear) and its
centre's largest distance from its mean place over the period [m].

A curve is resolved from the mesh frequency at which its H harmonics reach RESOLVED_REACH times the train's
highest natural frequency: below it the response misses the superharmonic resonances of order above H and the
peak forces are not converged (core.model.views.TRAIN_DEFAULT_HARMONICS says how they converge).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from core.atomic import atomic_write_text
from core.chbm.continuation import ContinuationError, CurvePoint, follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.modes import train_modes
from core.chbm.newmark import NewmarkIntegrator, PeriodicResponse
from core.chbm.train_model import MAX_ORDER, TrainModel
from core.errors import ModelError
from core.model.views import TRAIN_DEFAULT_HARMONICS, TRAIN_HARMONICS

DEFAULT_HARMONICS = TRAIN_DEFAULT_HARMONICS
RESOLVED_REACH = 2.0  # H f against the highest natural frequency from which a point counts as resolved


def mesh_forces(train: TrainModel, y_samples: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """Each mesh's force [N] along its line of action at samples of the lumped coordinates y (S, m) and their
    rates (S, m): its flanks' spring forces (drive less coast) and its damping; (meshes, S)."""
    s = y_samples.shape[0]
    fractions = np.arange(s) / s
    lumped = train.lumped
    forces, _ = lumped.contact_forces(y_samples, lumped.gaps(fractions), lumped.stiffnesses(fractions))
    drive, _ = lumped.contact_arrays
    damping = np.array([m.law.damping for m in train.meshes])
    # the drive flank's deflection is -w . y (core.chbm.train_model), so its rate is -w . y'
    return forces[0::2] - forces[1::2] - damping[:, None] * (drive[0::2] @ rates.T)


def contact_lost(train: TrainModel, y_samples: np.ndarray) -> np.ndarray:
    """Where each mesh has both flanks open at samples y (S, m) of one period: (meshes, S) booleans."""
    s = y_samples.shape[0]
    fractions = np.arange(s) / s
    lumped = train.lumped
    springs, _ = lumped.contact_forces(y_samples, lumped.gaps(fractions), lumped.stiffnesses(fractions))
    return (springs[0::2] == 0.0) & (springs[1::2] == 0.0)


def period_samples(hb: HarmonicBalance, per_mesh_period: int) -> int:
    """Samples of one period of the model for `per_mesh_period` a period of the first mesh, and at least four a
    period of the highest harmonic (a period of the model holds `cycles` mesh periods)."""
    return max(per_mesh_period * hb.model.cycles, 4 * hb.harmonics)


def period_forces(train: TrainModel, hb: HarmonicBalance, z: np.ndarray, frequency: float,
                  samples: int = 512) -> np.ndarray:
    """Each mesh's force [N] over one period of the HB solution z at mesh `frequency` [Hz], (meshes, samples);
    `samples` at least 2H + 2."""
    omega = 2 * math.pi * frequency
    return mesh_forces(train, hb.coordinate_samples(z, samples), hb.velocity_samples(z, omega, samples))


def static_mesh_forces(train: TrainModel) -> np.ndarray:
    """Each mesh's static force [N] at the mean stiffness under the mean torques."""
    forces = train.static_flank_forces()
    return forces[0::2] - forces[1::2]


@dataclass
class MeshLoad:
    """One mesh at one curve point: mean, peak |F| and dynamic factor, and the amplitudes of the first harmonics."""

    mean: float  # [N]
    peak: float  # [N]
    factor: float  # peak |F| / |static F|
    harmonics: np.ndarray  # amplitudes [N] of mesh harmonics 1, 2, ...


def mesh_loads(train: TrainModel, hb: HarmonicBalance, z: np.ndarray, frequency: float, static: np.ndarray,
               samples: int = 512) -> list[MeshLoad]:
    """The meshes' loads on the HB solution z at mesh `frequency` [Hz]: `samples` per period of the first mesh."""
    return loads_of(train, period_forces(train, hb, z, frequency, period_samples(hb, samples)), static)


def loads_of(train: TrainModel, forces: np.ndarray, static: np.ndarray) -> list[MeshLoad]:
    """Mean, peak, dynamic factor and the amplitudes of harmonics 1 to 5 of its own mesh frequency of each mesh's
    force over one period of the train (meshes, S) [N] (harmonic k of a mesh of order p: k p of the period)."""
    spec = np.abs(np.fft.rfft(forces, axis=1)) * 2.0 / forces.shape[1]
    out = []
    for f, s, amp, m in zip(forces, static, spec, train.meshes):
        peak = float(np.abs(f).max())
        own = amp[m.order:6 * m.order:m.order]  # harmonics 1 to 5 of the mesh's own frequency
        out.append(MeshLoad(float(f.mean()), peak, peak / abs(s) if s else math.inf, own))
    return out


@dataclass
class BodyResponse:
    """One body at one curve point: its vibration about the train's steady rolling."""

    rotation: float  # [m] half the peak-to-peak of rho theta (0 for a held body)
    translation: float  # [m] the centre's largest distance from its mean place (0 without a bearing)


def body_responses(train: TrainModel, y_samples: np.ndarray) -> list[BodyResponse]:
    """Each body's vibration (train.bodies' order) over one period sampled as lumped coordinates y (S, m)."""
    q = y_samples @ train.basis.T
    out = []
    for b in train.bodies:
        turn = b.radius * (q @ train.rotation[b.name])
        d = q @ train.translation[b.name].T
        d = d - d.mean(axis=0)
        out.append(BodyResponse(0.5 * float(np.ptp(turn)), float(np.sqrt((d * d).sum(axis=1)).max())))
    return out


@dataclass
class TrainCurve:
    """The forced response at one torque scale: the HB curve with the meshes' loads at each point."""

    scale: float  # of the model's torques
    train: TrainModel
    hb: HarmonicBalance
    points: list[CurvePoint]
    loads: list[list[MeshLoad]]
    bodies: list[list[BodyResponse]]
    static: np.ndarray
    resolved_from: float  # the lowest mesh frequency [Hz] at which the curve is resolved (module docstring)
    highest_mode: float  # the train's highest natural frequency [Hz] at the mean mesh stiffness
    reference: list[PeriodicResponse] = field(default_factory=list)
    check: str = ""  # how the reference agrees with the curve, in words (`check_note`, by `newmark_reference`)

    def summary(self) -> str:
        """Points, folds, unstable points (and the first three bands of them, `unstable_spans`) and the largest
        dynamic factor, in words."""
        peak = max((ld.factor, p.frequency, m.name) for p, loads in zip(self.points, self.loads)
                   for ld, m in zip(loads, self.train.meshes))
        bands = unstable_spans(self.points)
        spans = ", ".join(f"{a:.0f}-{b:.0f} Hz" for a, b in bands[:3])
        if len(bands) > 3:
            spans += f" and {len(bands) - 3} more"
        return (f"{len(self.points)} points, {max(p.segment for p in self.points)} folds, "
                f"{sum(not p.stable for p in self.points)} unstable{f' ({spans})' if spans else ''}; "
                f"largest dynamic factor {peak[0]:.3f} ({peak[2]} at {peak[1]:.1f} Hz"
                f"{', not resolved' if peak[1] < self.resolved_from else ''})")

    def resolution_note(self) -> str:
        """What the curve leaves unresolved, in words ("" when it is resolved over its whole range)."""
        if not self.points or self.points[0].frequency >= self.resolved_from:
            return ""
        h, cycles = self.hb.harmonics, self.train.lumped.cycles
        reach = RESOLVED_REACH * self.highest_mode * cycles  # H times the lowest resolved mesh frequency [Hz]
        better = min(TRAIN_HARMONICS.hi, math.ceil(reach / self.points[0].frequency))
        return (f"below {self.resolved_from:.0f} Hz the {h} harmonics do not reach {RESOLVED_REACH:g}x the train's "
                f"highest natural frequency ({self.highest_mode:.0f} Hz): the curve there misses superharmonic "
                "resonances and its dynamic factors are not converged"
                + (f" (harmonics {better} resolve it from {reach / better:.0f} Hz)" if better > h else ""))

    def check_note(self) -> str:
        """How Newmark's check (`reference`) agrees with the curve, in words ("" without one): at each steady run's
        frequency, every stable solution of the balance there (Newton from the stable points either side), and
        the largest relative difference of a mesh's dynamic factor from the solution nearest Newmark's."""
        if not self.reference:
            return ""
        worst, missed = (0.0, 0.0), []
        steady = [run for run in self.reference if run.converged]
        for run in steady:
            theirs = np.array([ld.factor for ld in newmark_loads(self, run)])
            nearest = min((float(np.abs(np.array([ld.factor for ld in loads]) / theirs - 1).max())
                           for loads in self.stable_loads_at(run.frequency)), default=None)
            if nearest is None:
                missed.append(run.frequency)
            else:
                worst = max(worst, (nearest, run.frequency))
        said = [f"Newmark check at {len(self.reference)} frequencies"]
        if len(steady) > len(missed):
            said.append(f"dynamic factors within {100 * worst[0]:.2g} % of the curve's (the most at "
                        f"{worst[1]:.0f} Hz)")
        if len(steady) < len(self.reference):
            said.append(f"{len(self.reference) - len(steady)} did not reach a steady state")
        if missed:
            said.append("no stable point of the curve at " + ", ".join(f"{f:.0f}" for f in missed) + " Hz")
        return ": ".join(said[:2]) + "".join(f"; {x}" for x in said[2:])

    def stable_loads_at(self, frequency: float) -> list[list[MeshLoad]]:
        """The meshes' loads on each stable solution of the balance at `frequency` [Hz] the curve passes through:
        Newton there from between two neighbouring stable points that span it."""
        out, found, omega = [], [], 2 * math.pi * frequency
        for a, b in zip(self.points, self.points[1:]):
            lo, hi = sorted((a.frequency, b.frequency))
            if not (a.stable and b.stable and lo <= frequency <= hi and lo < hi):
                continue
            z, _, ok = self.hb.solve(omega, a.z + (frequency - a.frequency) / (b.frequency - a.frequency) * (b.z - a.z))
            if ok and not any(np.allclose(z, y, rtol=1e-6, atol=1e-12) for y in found):
                found.append(z)
                out.append(mesh_loads(self.train, self.hb, z, frequency, self.static))
        return out


def unstable_spans(points: list[CurvePoint]) -> list[tuple[float, float]]:
    """The frequency bands [Hz] where a curve is unstable, lowest first: each run of consecutive unstable points
    spans its lowest to highest frequency (a path that folds runs down as well as up), and runs whose spans
    overlap are one band."""
    runs, run = [], []
    for p in points + [None]:
        if p is not None and not p.stable:
            run.append(p.frequency)
        elif run:
            runs.append((min(run), max(run)))
            run = []
    bands = []
    for lo, hi in sorted(runs):
        if bands and lo <= bands[-1][1]:
            bands[-1] = (bands[-1][0], max(bands[-1][1], hi))
        else:
            bands.append((lo, hi))
    return bands


def train_curve(train: TrainModel, f_min: float, f_max: float, harmonics: int = DEFAULT_HARMONICS,
                df_max: float | None = None, progress=None, cancel=None, scale: float = 1.0,
                watch=None) -> TrainCurve:
    """The HB curve of the train from f_min to f_max [Hz] (mesh frequency) with continuation and stability.

    `watch(count, snapshot)`, when given, is called after each point with the count of points so far: snapshot()
    gives their TrainCurve, so a window can draw the curve as it grows (each point's loads are worked out once, as
    it comes).

    Raises
    ------
    ModelError
        When the meshes' frequencies have no common period (`check_period`), the harmonics do not reach every
        mesh's own frequency, or a mesh carries no load (the model's mean torques are all zero, or load no gear
        beyond it).
    ContinuationError
        When the curve cannot be followed; its `curve` holds the TrainCurve of the points computed (or None).
    """
    check_period(train, harmonics)
    if not np.any(train.lumped.force):
        # unloaded meshes rattle in their backlash about no static state: the Newton system is singular
        raise ModelError("torques", "the model's mean torques are all zero over the run, so no mesh carries a "
                         "load: the forced response needs one (a Torque on a gear's joint)")
    static = np.abs(static_mesh_forces(train))
    idle = [m.name for m, f in zip(train.meshes, static) if f <= 1e-9 * static.max()]
    if idle:  # a stage past the last load
        raise ModelError(idle[0], "carries no static force under the model's mean torques: its dynamic factor (peak "
                         "over static force) is not defined, and with backlash it rattles about no static state; "
                         "load the train beyond it (a Torque on its output's joint)")
    hb = HarmonicBalance(train.lumped, harmonics)
    # a train's unknowns are many and large against x_scale: the frequency step (df_max) and the Newton
    # iterations bound the step, not an arclength of order one
    built = CurveLoads(train, hb, scale)

    def seen(points):
        built.see(points)
        if watch:
            watch(len(points), lambda: built.curve(points))

    try:
        points = follow(hb, f_min, f_max, ds=1.0, ds_max=1e6, df_max=df_max, progress=progress, cancel=cancel,
                        on_point=seen)
    except ContinuationError as exc:
        exc.curve = built.curve(exc.points) if exc.points else None  # what was computed, kept
        raise
    return built.curve(points)


def check_period(train: TrainModel, harmonics: int) -> None:
    """Refuse a train whose meshes' frequencies have no common period of at most MAX_ORDER mesh periods each,
    and `harmonics` that leave out a mesh's own frequency (fewer than its periods in the train's period).

    Raises
    ------
    ModelError
        On 'train' or 'harmonics', with what the train needs.
    """
    ratios = train.mesh_frequency_ratios()
    cycles = train.lumped.cycles
    first = train.meshes[0].name
    if any(not abs(r - m.order / cycles) <= 1e-9 * max(r, 1.0) for m, r in zip(train.meshes, ratios.values())):
        loose = [name for name, r in ratios.items() if not math.isfinite(r)]
        others = ", ".join(f"{name} {r:.6g}" for name, r in ratios.items() if name != first)
        why = (f"{', '.join(loose)} does not turn in a fixed ratio to {first} (two trains not geared together): the "
               "harmonic balance needs one period for every mesh" if loose else
               f"its meshes' frequencies (against {first}'s: {others}) have no common period of at most {MAX_ORDER} "
               "mesh periods each")
        raise ModelError("train", why + "; its modes and Campbell diagram (geardyn modes) take any train, and a "
                         "stage alone its pair's CHBM study (Analysis > CHBM Study, geardyn chbm --model FILE --pair "
                         "NAME)")
    top = max(m.order for m in train.meshes)
    if harmonics < top:
        fastest = max(train.meshes, key=lambda m: m.order).name
        raise ModelError("harmonics", f"must be at least {top} (up to {TRAIN_HARMONICS.hi:g}), got {harmonics}: "
                         f"the train's period holds {top} mesh periods of {fastest}, so fewer harmonics leave out "
                         "that mesh's own frequency")


class CurveLoads:
    """The TrainCurves of a curve being followed: each point's mesh loads and body responses are worked out once,
    when the point is first seen."""

    def __init__(self, train: TrainModel, hb: HarmonicBalance, scale: float):
        self.train, self.hb, self.scale = train, hb, scale
        self.static = static_mesh_forces(train)
        self.highest_mode = max(m.frequency for m in train_modes(train))
        self.points: list[CurvePoint] = []
        self.loads: list[list[MeshLoad]] = []
        self.bodies: list[list[BodyResponse]] = []

    def see(self, points: list[CurvePoint]) -> None:
        """Bring the loads up to `points`: the list seen before, grown at its end or with its last points replaced
        (a branch the continuation climbed and dropped)."""
        kept = self.points
        while kept and (len(kept) > len(points) or kept[-1] is not points[len(kept) - 1]):
            for held in (kept, self.loads, self.bodies):
                held.pop()
        samples = period_samples(self.hb, 256)
        for p in points[len(kept):]:
            kept.append(p)
            self.loads.append(mesh_loads(self.train, self.hb, p.z, p.frequency, self.static))
            self.bodies.append(body_responses(self.train, self.hb.coordinate_samples(p.z, samples)))

    def curve(self, points: list[CurvePoint]) -> TrainCurve:
        """The TrainCurve of `points`."""
        self.see(points)
        top = self.highest_mode
        return TrainCurve(self.scale, self.train, self.hb, list(self.points), list(self.loads), list(self.bodies),
                          self.static, RESOLVED_REACH * top * self.train.lumped.cycles / self.hb.harmonics, top)


def newmark_reference(curve: TrainCurve, frequencies, progress=None, cancel=None) -> list[PeriodicResponse]:
    """Newmark runs of the same lumped model at `frequencies` [Hz], swept upwards, to steady state: the curve's
    `reference`, and its `check` says how they agree with it."""
    curve.reference = NewmarkIntegrator(curve.train.lumped).sweep(frequencies, "forward", progress=progress,
                                                                   cancel=cancel)
    curve.check = curve.check_note()
    return curve.reference


def newmark_loads(curve: TrainCurve, run: PeriodicResponse) -> list[MeshLoad]:
    """The meshes' loads over the last period of a Newmark run (its step instants, phase 0 first)."""
    return loads_of(curve.train, mesh_forces(curve.train, np.roll(run.x, 1, axis=0),
                                             np.roll(run.velocity, 1, axis=0)), curve.static)


def newmark_response(curve: TrainCurve, run: PeriodicResponse) -> tuple[list[MeshLoad], list[BodyResponse]]:
    """A Newmark run's mesh loads and body responses, as a curve point's (`TrainCurve.loads`, `.bodies`)."""
    return newmark_loads(curve, run), body_responses(curve.train, run.x)


def frequency_label(train: TrainModel) -> str:
    """What a curve's frequency is, with its unit: the mesh frequency, or the first mesh's where the meshes run at
    different frequencies."""
    return "mesh frequency" + (f" of {train.meshes[0].name}" if train.lumped.cycles > 1 else "") + " [Hz]"


def curve_header(train: TrainModel) -> list[str]:
    head = ["method", "torque scale", frequency_label(train), "stable", "resolved", "segment"]
    for m in train.meshes:
        head += [f"{m.name} mean force [N]", f"{m.name} peak force [N]", f"{m.name} dynamic factor",
                 f"{m.name} 1x amplitude [N]", f"{m.name} 2x amplitude [N]"]
    for b in train.bodies:
        head += [f"{b.name} rotation amplitude [m]", f"{b.name} translation amplitude [m]"]
    return head


def curve_rows(curves: list[TrainCurve]):
    for c in curves:
        for p, loads, bodies in zip(c.points, c.loads, c.bodies):
            yield ["HBM", c.scale, p.frequency, int(p.stable), int(p.frequency >= c.resolved_from), p.segment,
                   *_values(loads, bodies)]
        for run in c.reference:  # its steps resolve the train's modes (core.chbm.newmark)
            yield ["Newmark", c.scale, run.frequency, int(run.converged), 1, -1, *_values(*newmark_response(c, run))]


def _values(loads: list[MeshLoad], bodies: list[BodyResponse]) -> list[float]:
    row = []
    for ld in loads:
        row += [ld.mean, ld.peak, ld.factor, ld.harmonics[0], ld.harmonics[1]]
    for b in bodies:
        row += [b.rotation, b.translation]
    return row


def write_curves_csv(curves: list[TrainCurve], path) -> None:
    """The curves (and Newmark points) as CSV, written atomically."""
    lines = [",".join(curve_header(curves[0].train))]
    lines += [",".join(f"{v:.10g}" if isinstance(v, float) else str(v) for v in row) for row in curve_rows(curves)]
    atomic_write_text(path, "\n".join(lines) + "\n")
