"""The command line of trains by harmonic balance: `geardyn modes MODEL` and `geardyn train-chbm MODEL`.

Frequencies in Hz, speeds in rpm, forces in N, as the rest of the command line; the model file's units are
SI. Each command returns its exit status and prints what it did.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import sys

import numpy as np

from core.chbm.continuation import ContinuationError
from core.chbm.modes import campbell, distinct, mesh_mode_ranges, train_modes
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import RESOLVED_REACH, newmark_reference, train_curve, write_curves_csv
from core.errors import ModelError
from core.model.entities import Torque
from core.model.files import load
from core.model.views import (
    TRAIN_DEFAULT_HARMONICS,
    TRAIN_F_MAX,
    TRAIN_HARMONICS,
    TRAIN_SPEED_MAX,
    TrainStudy,
    step_problem,
)

SHARES = ("central rotation", "central translation", "planets", "meshes", "bearings")


#: why a crossing is not excited: the mesh phases cancel it, or (a support mode) the meshes do not strain it
UNDRIVEN = ("the mesh phases cancel", "the meshes do not strain it")


def input_body(train) -> str:
    """The body the mean torques drive (the largest positive torque), for speeds in rpm."""
    driven = [b for b in train.bodies if b.torque > 0]
    return max(driven, key=lambda b: b.torque).name if driven else train.bodies[0].name


def suggested_study(train, modes) -> TrainStudy:
    """Train Dynamics settings that show the mesh modes of `train` (core.chbm.modes.mesh_mode_ranges: the forced
    response around them, the Campbell diagram to the speed where the mesh frequency passes them), with the
    harmonics that resolve that range (`resolving_harmonics`); TrainStudy's own for a train without mesh modes."""
    ranges = mesh_mode_ranges(train, modes, input_body(train))
    if ranges is None:
        return dataclasses.replace(TrainStudy(), harmonics=max(TRAIN_DEFAULT_HARMONICS, _orders_top(train)))
    low, high, speed = ranges
    study = dataclasses.replace(TrainStudy(), f_min=low, f_max=min(high, TRAIN_F_MAX),
                                harmonics=resolving_harmonics(train, modes, low))
    return study if math.isnan(speed) else dataclasses.replace(study, speed_max_rpm=min(speed, TRAIN_SPEED_MAX))


def resolving_harmonics(train, modes, f_min: float) -> int:
    """The harmonics that resolve a curve from the first mesh's frequency f_min [Hz] up (core.chbm.train_study:
    H times the frequency of the train's period reaching RESOLVED_REACH times its highest natural frequency), but
    no more than TRAIN_DEFAULT_HARMONICS of the first mesh's own (the default's cost where every mesh runs at one
    frequency); at least TRAIN_DEFAULT_HARMONICS and every mesh's own frequency."""
    top = max((m.frequency for m in modes), default=0.0)
    cycles = train.lumped.cycles
    need = math.ceil(RESOLVED_REACH * top * cycles / f_min)
    least = max(TRAIN_DEFAULT_HARMONICS, _orders_top(train))
    return int(min(TRAIN_HARMONICS.hi, max(least, min(need, TRAIN_DEFAULT_HARMONICS * cycles))))


def _orders_top(train) -> int:
    return max((m.order for m in train.meshes), default=1)


def run_modes(path: str, as_json: bool = False, speed_max: float = 0.0) -> int:
    """Print the train's modes (and the Campbell crossings up to speed_max [rpm] of the input)."""
    try:
        train = train_from_model(load(path))
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    modes = train_modes(train)
    body = input_body(train)
    try:
        diagram = campbell(train, modes, body, speed_max)
    except ModelError as exc:
        diagram, why = None, str(exc)
    else:
        why = ""
    rows = [{"frequency_hz": m.frequency, "kind": m.kind, "multiplicity": m.multiplicity,
             **{k.replace(" ", "_"): m.shares[k] for k in SHARES}} for m in distinct(modes)]
    orders = diagram.orders if diagram is not None else []
    crossings = []
    if speed_max > 0 and diagram is not None:
        crossings = [{"speed_rpm": c.speed, "harmonic": c.harmonic, "order": orders[c.order][0],
                      "frequency_hz": c.mode.frequency, "kind": c.mode.kind, "excited": c.excited}
                     for c in diagram.crossings]
    if as_json:
        print(json.dumps({"model": path, "coordinates": train.names, "input": body,
                          "mesh_frequency_per_rpm_hz": dict(orders), "modes": rows, "campbell_crossings": crossings,
                          "notes": train.notes + ([why] if why else [])}, indent=1))
        return 0
    print(f"{train.lumped.description}: {train.dofs} coordinates")
    for note in train.notes:
        print(f"note: {note}")
    for name, per_rpm in orders:
        print(f"mesh frequency{'' if name == 'mesh' else ' of ' + name}: {per_rpm:.6g} Hz per rpm of {body!r}")
    if why:
        print(f"note: {why}")
    print(f"{'f [Hz]':>12}  {'kind':<13} {'mult':>4}  " + "  ".join(f"{k:>11}" for k in
                                                                  ("rot [%]", "trans [%]", "planets [%]", "meshes [%]",
                                                                   "bearings [%]")))
    for r in rows:
        shares = "  ".join(f"{100 * r[k.replace(' ', '_')]:11.1f}" for k in SHARES)
        print(f"{r['frequency_hz']:12.2f}  {r['kind']:<13} {r['multiplicity']:>4}  {shares}")
    for c in crossings:
        of = "" if c["order"] == "mesh" else f" of {c['order']}"
        print(f"Campbell: harmonic {c['harmonic']}{of} meets {c['frequency_hz']:.1f} Hz ({c['kind']}) at "
              f"{c['speed_rpm']:.0f} rpm"
              + ("" if c["excited"] else f": not excited ({UNDRIVEN[c['kind'] == 'support']})"))
    return 0


def run_train_chbm(path: str, out: str, f_min: float | None, f_max: float | None, scales=(1.0,),
                   harmonics: int | None = None, df_max: float | None = None, newmark_points: int = 0,
                   progress=None, cancel=None) -> int:
    """The forced response of the model's train at each torque scale to CSV (and Newmark points); f_min or f_max
    None: `suggested_study`'s; harmonics None: those that resolve the curve from f_min (`resolving_harmonics`).

    progress(fraction, message) is told how far each curve is, and its close() ends its line before the command
    prints (core.cli.TerminalProgress); cancel() returns what cancelled the command (a signal's name), or None:
    the curve then ends at its next point, the points computed are written, and the command says where it ended
    (on stderr) and returns 1.
    """
    try:
        model = load(path)
        base = train_from_model(model)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for note in base.notes:
        print(f"note: {note}")
    modes = distinct(train_modes(base)) if None in (f_min, f_max, harmonics) else []
    if f_min is None or f_max is None:  # around the train's mesh modes, as the Train Dynamics window starts
        suggested = suggested_study(base, modes)
        if f_min is not None and not f_min < suggested.f_max:  # a bad argument, found only now: exit 2
            return _refused(f"--f-min: must be below the suggested f-max of {suggested.f_max:g} Hz (or give "
                            f"--f-max), got {f_min:g} Hz")
        if f_max is not None and not suggested.f_min < f_max:
            return _refused(f"--f-max: must be above the suggested f-min of {suggested.f_min:g} Hz (or give "
                            f"--f-min), got {f_max:g} Hz")
        f_min = suggested.f_min if f_min is None else f_min
        f_max = suggested.f_max if f_max is None else f_max
        print(f"note: mesh frequencies {f_min:g} to {f_max:g} Hz (around the train's mesh modes; --f-min and "
              "--f-max set them)")
    if step_problem(f_min, f_max, df_max):  # the range may be the suggested one: only now is it known
        return _refused(f"--df-max: {step_problem(f_min, f_max, df_max)}")
    if harmonics is None:
        harmonics = resolving_harmonics(base, modes, f_min)
        print(f"note: {harmonics} harmonics (they resolve the curve from {f_min:g} Hz; --harmonics sets them)")
    curves, status = [], 0
    for scale in scales:
        train = base if scale == 1.0 else train_from_model(scaled_torques(model, scale))
        try:
            curve = _computed(train, f_min, f_max, harmonics, df_max, newmark_points, scale, len(scales), progress,
                              cancel)
        except ModelError as exc:  # the model, not the scale: no other scale runs either
            print(f"error: {exc}", file=sys.stderr)
            return 1
        except ContinuationError as exc:
            status = 1
            if exc.curve is None:
                print(f"error: torque scale {scale:g}: {exc}", file=sys.stderr)
                continue
            print(f"error: torque scale {scale:g}: {exc} ({len(exc.points)} points kept in the CSV)", file=sys.stderr)
            curves.append(exc.curve)
            continue
        if cancel and cancel():
            curves.append(curve)
            ended = curve.points[-1].frequency
            where = (f"after {len(curve.reference)} of {newmark_points} Newmark points" if ended >= f_max else
                     f"at {ended:.6g} Hz of the curve")
            print(f"cancelled by {cancel()} {where} for torque scale {scale:g} ({len(curves)} of {len(scales)} "
                  "scales started): the points computed are written", file=sys.stderr, flush=True)
            status = 1
            break
        print(f"torque scale {scale:g}: {curve.summary()}")
        for note in (curve.resolution_note(), curve.check):
            if note:
                print(f"note: torque scale {scale:g}: {note}")
        curves.append(curve)
    if curves:
        write_curves_csv(curves, out)
        print(f"wrote {out}")
    return status


def _refused(message: str) -> int:
    """A bad argument found once the model is read: said on stderr, exit code 2 (as core.cli's UsageError)."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def _computed(train, f_min, f_max, harmonics, df_max, newmark_points, scale, scales, progress, cancel):
    """One torque scale's curve and its Newmark points, with progress (its line ended after) and cancel."""
    told = progress
    if progress is not None and scales > 1:
        told = functools.partial(_of_scale, progress, scale)
    try:
        curve = train_curve(train, f_min, f_max, harmonics, df_max, progress=told, cancel=cancel, scale=scale)
        if newmark_points and not (cancel and cancel()):
            newmark_reference(curve, np.linspace(f_min, f_max, newmark_points), progress=told, cancel=cancel)
        return curve
    finally:
        if progress is not None:
            progress.close()


def _of_scale(progress, scale: float, fraction: float, message: str) -> None:
    progress(fraction, f"scale {scale:g}: {message}")


def scaled_torques(model, scale: float):
    """A copy of the model with every torque's law scaled."""
    scaled = copy.deepcopy(model)
    for name, f in list(scaled.forces.items()):
        if isinstance(f, Torque):
            law = f.law
            scaled.forces[name] = dataclasses.replace(f, law=dataclasses.replace(
                law, value=law.value * scale, final=law.final * scale, amplitude=law.amplitude * scale,
                table=tuple((t, v * scale) for t, v in law.table)))
    return scaled
