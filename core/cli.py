"""The headless command line: gear and pair geometry, model validation, harmonic balance.

No Qt is imported here. Lengths are typed in mm and angles in degrees, as on
the GUI; the JSON output is SI (m, rad, kg) with the unit of every key listed
under "units". A bad argument gets one line naming it and the allowed range,
and exit status 2.

Each command imports the engine it needs when it runs (the imports inside the
command functions): `geardyn --help` and the geometry commands start without
loading the dynamics, the studies' Dask or numba. No cycle is dodged that way:
the CLI is the top of core's layers (pyproject.toml's import contracts).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import signal
import sys
import threading
from pathlib import Path

import numpy as np

from core.atomic import atomic_target
from core.errors import GearDynError, ModelError
from core.gearing.mesh_stiffness import iso6336_stiffness
from core.geometry.macro import (
    GearSpec,
    PairSpec,
    bevel_geometry,
    bevel_pitch_angle,
    cylindrical_geometry,
    pair_geometry,
)
from core.geometry.tooth_checks import pair_tooth_warnings, tip_thickness, tooth_warnings, undercut_limit
from core.model.entities import FORMULATIONS, INTEGRATOR_OPTIONS, option_users
from core.model.views import (
    CURVE_TORQUE,
    DTI_POINTS_MAX,
    MAX_TORQUE_SCALES,
    MAX_TORQUES,
    NEWMARK_POINTS,
    TORQUE_SCALE,
    TRAIN_DEFAULT_HARMONICS,
    TRAIN_HARMONICS,
    step_problem,
)
from core.outputs import output_problem, write_or_fallback
from core.ranges import N_PER_UM, Range
from core.signals import SIGNALLED, CancelOnSignal, end_unprepared
from core.wording import counted, listed

FORMULATION_HELP = ("joint (angles of the joint tree), cartesian (6 per body) or auto: joint when every body hangs "
                    "from the ground on revolute and fixed joints (default: the model's setting)")

GEAR_ARGS = {
    "module": "--module", "teeth": "--teeth", "pressure_angle": "--pressure-angle", "face_width": "--width",
    "helix_angle": "--helix-angle", "pitch_angle": "--pitch-angle", "bore_diameter": "--bore",
    "rim_diameter": "--rim-diameter", "density": "--density", "profile_shift": "--x1",
}
NORMAL_MODULE_HELP = ("normal module m_n [mm] (ISO 21771, as catalogues and the app's dialogs give it); the transverse "
                      "module is m_n / cos(helix angle)")
PAIR_ARGS = {"z1": "--z1", "z2": "--z2", "module": "--module", "pressure_angle": "--pressure-angle",
             "helix_angle": "--helix-angle", "face_width": "--width", "x1": "--x1", "x2": "--x2"}


CHBM_F_MAX = 1e6  # Hz
#: a step-gap contact's single tooth-pair stiffness: below 1 N/m it holds no gear (a subnormal one stalled Newton)
CHBM_STIFFNESS = Range(1.0, 1e12, unit="N/m")
#: the highest input speed of `modes`' Campbell crossings (0: none listed)
CAMPBELL_SPEED = Range(0.0, 1e6, unit="rpm")


def _cut(text: str, limit: int = 80) -> str:
    """`text` cut to a readable length for a one-line message."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _failed(exc: Exception, stream=None) -> int:
    """Print the error as 'error: ...' lines, every problem of a ModelError on its own (a model file's bad fields
    all at once), to stderr unless `stream` is given; the exit code 1."""
    for line in exc.report() if isinstance(exc, ModelError) else [str(exc)]:
        print(f"error: {line}", file=stream or sys.stderr)
    return 1


class UsageError(GearDynError):
    """A bad argument: the message names it and says the allowed range."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2; "--flag: ..." as the checks after parsing say it
        raise UsageError(message.removeprefix("argument "))


def _unit_map(keys, length=(), angle=(), extra=None) -> dict:
    units = {k: "m" for k in length}
    units.update({k: "rad" for k in angle})
    units.update(extra or {})
    return {k: v for k, v in units.items() if k in keys}


def _problem_to_usage(problems, arg_names) -> None:
    if problems:
        name, msg = problems[0]
        raise UsageError(f"{arg_names.get(name, name)}: {msg}")


def gear_report(spec: GearSpec, export: str | None = None) -> dict:
    """Macro-geometry and mass properties of a generated gear (SI)."""
    from core.geometry.gear_mesh import gear_mesh
    from core.geometry.mass_properties import mesh_mass_properties

    mesh = gear_mesh(spec)
    mp = mesh_mass_properties(mesh, spec.density)
    out: dict = {"kind": spec.kind, "teeth": spec.teeth, "module": spec.module, "face_width": spec.face_width}
    if spec.kind == "bevel":
        g = bevel_geometry(spec)
        out.update(pressure_angle=g.pressure_angle, pitch_angle=g.pitch_angle, mate_pitch_angle=math.pi / 2 - g.pitch_angle,
                   pitch_radius=g.pitch_radius, cone_distance=g.cone_distance, back_cone_radius=g.back_cone_radius,
                   virtual_teeth=g.virtual_teeth, addendum=g.addendum, dedendum=g.dedendum,
                   addendum_angle=g.addendum_angle, dedendum_angle=g.dedendum_angle, tip_angle=g.tip_angle,
                   root_angle=g.root_angle, outer_tip_radius=g.outer_tip_radius, apex_distance=g.apex_distance,
                   bore_diameter=spec.bore_diameter, undercut_limit_teeth=undercut_limit(spec),
                   warnings=tooth_warnings(spec))
    else:
        g = cylindrical_geometry(spec)
        out.update(normal_module=g.normal_module, normal_pressure_angle=g.normal_pressure_angle,
                   transverse_pressure_angle=g.transverse_pressure_angle, helix_angle=g.helix_angle,
                   base_helix_angle=g.base_helix_angle, pitch_radius=g.pitch_radius, base_radius=g.base_radius,
                   tip_radius=g.tip_radius, root_radius=g.root_radius, addendum=g.addendum, dedendum=g.dedendum,
                   transverse_base_pitch=g.transverse_base_pitch, lead=None if math.isinf(g.lead) else g.lead)
        if spec.kind == "helical":
            out.update(undercut_limit_teeth=undercut_limit(spec), tip_thickness=tip_thickness(spec),
                       warnings=tooth_warnings(spec))
        out["rim_diameter" if spec.kind == "inner" else "bore_diameter"] = (
            spec.rim_diameter if spec.kind == "inner" else spec.bore_diameter)
    out.update(density=spec.density, mass=mp.mass, volume=mp.volume, center_of_mass=list(mp.com),
               inertia=[list(r) for r in mp.inertia], watertight=bool(mesh.is_watertight),
               winding_consistent=bool(mesh.is_winding_consistent), triangles=int(len(mesh.faces)))
    lengths = ("module", "face_width", "normal_module", "pitch_radius", "base_radius", "tip_radius", "root_radius",
               "addendum", "dedendum", "transverse_base_pitch", "lead", "tip_thickness", "cone_distance",
               "back_cone_radius",
               "outer_tip_radius", "apex_distance", "bore_diameter", "rim_diameter", "center_of_mass")
    angles = ("pressure_angle", "normal_pressure_angle", "transverse_pressure_angle", "helix_angle",
              "base_helix_angle", "pitch_angle", "mate_pitch_angle", "addendum_angle", "dedendum_angle",
              "tip_angle", "root_angle")
    out["units"] = _unit_map(out, lengths, angles, {"density": "kg/m^3", "mass": "kg", "volume": "m^3",
                                                    "inertia": "kg m^2"})
    if export:
        path = Path(export)
        in_mm = mesh.copy()
        in_mm.apply_scale(1e3)  # mm, as CAD tools and the app's Import OBJ/STL take a part by default
        with atomic_target(path, suffix=path.suffix) as tmp:
            in_mm.export(tmp)
        out.update(exported=str(path), export_unit="mm")
    return out


def pair_report(spec: PairSpec) -> dict:
    """Centre distance and contact ratios of a gear pair (SI)."""
    g = pair_geometry(spec)
    if spec.kind == "bevel":
        return _bevel_pair_report(spec, g)
    out = {"kind": g.kind, "z1": spec.z1, "z2": spec.z2, "module": spec.module,
           "normal_module": spec.module * math.cos(spec.helix_angle), "ratio": g.ratio,
           "center_distance": g.center_distance, "transverse_pressure_angle": g.working_pressure_angle,
           "transverse_base_pitch": g.transverse_base_pitch, "path_of_contact": g.path_of_contact,
           "transverse_contact_ratio": g.transverse_contact_ratio, "overlap_ratio": g.overlap_ratio,
           "total_contact_ratio": g.total_contact_ratio, "helix_angle_1": spec.helix_angle,
           "helix_angle_2": g.helix_angle_2, "face_width": spec.face_width, "x1": spec.x1, "x2": spec.x2}
    iso = iso6336_stiffness(spec.z1, spec.z2, spec.pressure_angle, spec.helix_angle, g.transverse_contact_ratio,
                            spec.x1, spec.x2, internal=spec.kind == "internal")
    stiff = {"c_th": iso.c_th, "c_prime": iso.c_single, "c_gamma_alpha": iso.c_gamma_alpha}
    out.update(stiff)
    if spec.face_width > 0:
        out["mesh_stiffness"] = iso.c_gamma_alpha * spec.face_width
    out["warnings"] = pair_tooth_warnings(spec)
    out["units"] = _unit_map(out, ("module", "normal_module", "center_distance", "transverse_base_pitch",
                                   "path_of_contact", "face_width"),
                             ("transverse_pressure_angle", "helix_angle_1", "helix_angle_2"),
                             {**{k: "N/m^2" for k in stiff}, "mesh_stiffness": "N/m"})
    return out


def _bevel_pair_report(spec: PairSpec, g) -> dict:
    """A straight bevel pair on 90 deg shafts (SI): pitch angles, outer cone distance, and the contact ratio of its
    virtual (back-cone) spur pair; no centre distance, and no ISO 6336-1 stiffness (written for cylindrical gears)."""
    out = {"kind": g.kind, "z1": spec.z1, "z2": spec.z2, "module": spec.module, "ratio": g.ratio,
           "pitch_angle_1": g.pitch_angle_1, "pitch_angle_2": g.pitch_angle_2,
           "outer_cone_distance": g.working_radius_1 / math.sin(g.pitch_angle_1), "pressure_angle": spec.pressure_angle,
           "path_of_contact": g.path_of_contact, "virtual_contact_ratio": g.transverse_contact_ratio,
           "face_width": spec.face_width, "warnings": pair_tooth_warnings(spec)}
    out["units"] = _unit_map(out, ("module", "outer_cone_distance", "path_of_contact", "face_width"),
                             ("pitch_angle_1", "pitch_angle_2", "pressure_angle"), {})
    return out


PEOPLE_UNITS = {"m": (1e3, "mm"), "rad": (180.0 / math.pi, "deg"), "m^3": (1e9, "mm^3"),
                "N/m^2": (1e-9, "N/(mm um)"),  # stiffness per unit face width, as ISO 6336 writes it
                "N/m": (N_PER_UM["scale"], "N/um")}  # a mesh's stiffness, as the app takes it (in ASCII)


def _shown(value, scale: float):
    """A value (or a nested list of them) in the unit people read, with sensible digits."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_shown(v, scale) for v in value) + "]"
    if isinstance(value, float):
        v = value * scale
        return "0" if abs(v) < 1e-9 * max(1.0, scale) else f"{v:.6g}"
    return str(value)


def _print(data: dict, as_json: bool) -> None:
    """JSON in SI units, or a table in mm and degrees (as people type them on this command line)."""
    if as_json:
        print(json.dumps(data, indent=2))
        return
    units = data.get("units", {})
    for k, v in data.items():
        if k == "units":
            continue
        if k == "warnings":  # said as the model check says its warnings
            for text in v:
                print(f"warning: {text}", file=sys.stderr)
            continue
        if v is None:  # a quantity the part does not have (a spur gear's lead): no number, no unit
            print(f"{k:28s} none")
            continue
        scale, unit = PEOPLE_UNITS.get(units.get(k, ""), (1.0, units.get(k, "")))
        print(f"{k:28s} {_shown(v, scale)}" + (f" [{unit}]" if unit else ""))


def _transverse_module(ns) -> float:
    """The transverse module [mm] the specs keep: --module, or --normal-module m_n / cos(helix angle)."""
    if ns.module is not None:
        return ns.module
    return ns.normal_module / math.cos(math.radians(ns.helix_angle or 0.0))


def _module_args(ns, args: dict) -> dict:
    """The option names problems() are reported against: the module's is the option the user gave."""
    return args if ns.module is not None else {**args, "module": "--normal-module"}


def _gear_spec(ns) -> GearSpec:
    mm, deg = 1e-3, math.radians(1.0)
    spec = GearSpec(kind=ns.kind, module=_transverse_module(ns) * mm, teeth=ns.teeth, pressure_angle=ns.pressure_angle * deg,
                    face_width=ns.width * mm, helix_angle=(ns.helix_angle or 0.0) * deg,
                    pitch_angle=(ns.pitch_angle if ns.pitch_angle is not None else 45.0) * deg,
                    density=ns.density, profile_shift=ns.x1)
    if ns.kind == "inner" and ns.bore is not None:
        raise UsageError("--bore: an inner gear has no bore; give --rim-diameter")
    if ns.kind != "inner" and ns.rim_diameter is not None:
        raise UsageError(f"--rim-diameter: only an inner gear has a rim; give --bore for a {ns.kind} gear")
    if ns.kind == "bevel" and ns.helix_angle:
        raise UsageError("--helix-angle: must be 0 deg: only straight bevel gears are supported")
    if ns.kind != "bevel" and ns.pitch_angle is not None:
        raise UsageError(f"--pitch-angle: only a bevel gear has a pitch angle, not a {ns.kind} gear")
    # Defaults follow the other parameters; problems() reports a bad module
    # or tooth count before the bore or rim that was derived from it.
    if ns.kind == "inner":
        rim = (ns.rim_diameter * mm if ns.rim_diameter is not None
               else 2 * cylindrical_geometry(spec).root_radius + 6 * spec.module)
        spec = dataclasses.replace(spec, rim_diameter=rim)
    else:
        bore = ns.bore * mm if ns.bore is not None else 0.25 * spec.module * spec.teeth
        spec = dataclasses.replace(spec, bore_diameter=bore)
    _problem_to_usage(spec.problems(), _module_args(ns, GEAR_ARGS))
    return spec


def _cmd_gear(ns) -> int:
    spec = _gear_spec(ns)
    if ns.export is not None and Path(ns.export).suffix.lower() not in (".stl", ".obj"):
        raise UsageError(f"--export: must end in .stl or .obj, got {ns.export!r}")
    if ns.export is not None:
        _check_output(ns.export, "--export")
    _print(gear_report(spec, ns.export), ns.json)
    return 0


def _cmd_pair(ns) -> int:
    deg = math.radians(1.0)
    kind = "internal" if ns.internal else "bevel" if ns.bevel else "external"
    cone = {"pitch_angle": bevel_pitch_angle(ns.z1, ns.z2)} if ns.bevel else {}
    spec = PairSpec(kind=kind, z1=ns.z1, z2=ns.z2, module=_transverse_module(ns) * 1e-3,
                    pressure_angle=ns.pressure_angle * deg, helix_angle=(ns.helix_angle or 0.0) * deg,
                    face_width=(ns.width or 0.0) * 1e-3, x1=ns.x1, x2=ns.x2, **cone)
    _problem_to_usage(spec.problems(), {**_module_args(ns, PAIR_ARGS),
                                        "pitch_angle": "--z1, --z2: the pitch angle atan(z1 / z2)"})
    _print(pair_report(spec), ns.json)
    return 0


def _cmd_validate(ns) -> int:
    from core.model.files import load
    from core.dynamics.checks import check

    try:
        model = load(ns.file)
    except ModelError as exc:
        return _failed(exc, sys.stdout)
    findings = check(model)
    for f in findings:
        print(f)
    errors = sum(f.severity == "error" for f in findings)
    print(f"{counted(len(findings), 'finding')}, {counted(errors, 'error')}")
    return 1 if errors else 0


class TerminalProgress:
    """A one-line progress bar on stderr when it is a terminal; silent otherwise. close() ends its line (once), so
    what is printed next starts on a line of its own; a later call draws a new bar."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.drawn = False

    def __call__(self, fraction: float, message: str) -> None:
        if self.live:
            bar = "#" * int(30 * fraction)
            self.stream.write(f"\r[{bar:30s}] {100 * fraction:5.1f} % {message:40s}")
            self.stream.flush()
            self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def _cmd_chbm(ns) -> int:
    from core.chbm.continuation import ContinuationError
    from core.chbm.from_model import lumped_from_model, study_defaults
    from core.chbm.lumped_model import PAPER_TORQUES, paper_model
    from core.chbm.study import (
        CURVE_HEADER,
        curve_rows,
        period_comparison,
        plot_curves,
        run_study,
    )
    from core.model.files import load
    from core.tables import write_csv

    if ns.pair is not None and ns.model is None:
        raise UsageError("--pair: names a gear pair of --model; the paper's pair (no --model) needs none")
    if ns.contact_stiffness is not None and CHBM_STIFFNESS.problem(ns.contact_stiffness):
        raise UsageError(f"--contact-stiffness: {CHBM_STIFFNESS.problem(ns.contact_stiffness)}")
    model, suggested = None, (None, 500.0, 4000.0, "")
    if ns.model:
        try:
            model = load(ns.model)
            if ns.pair is None:  # a model of one pair needs no name
                if len(model.gear_pairs) != 1:
                    raise ModelError("--pair", f"the model has {len(model.gear_pairs)} gear pairs "
                                     f"({_cut(', '.join(model.gear_pairs)) or 'none'}): name the one to study")
                ns.pair = next(iter(model.gear_pairs))
            # before any suggestion is said: a pair that cannot be built (the torque only scales its load)
            lumped_from_model(model, ns.pair, 1.0, ns.contact_stiffness, contact=ns.contact or "mesh")
            if None in (ns.torque, ns.f_min, ns.f_max):
                suggested = study_defaults(model, ns.pair)
        except ModelError as exc:
            return _failed(exc)
        if suggested[3] and None in (ns.torque, ns.f_min, ns.f_max):
            taken = ("" if ns.torque or suggested[0] else
                     f"; torque: the paper's {PAPER_TORQUES[0]:g} N m on gear 1 (--torque sets it)")
            print(f"note: {ns.pair}: {suggested[3]}{taken}", file=sys.stderr)
    ns.torque = ns.torque or list(suggested[0] or PAPER_TORQUES[:1])
    ns.f_min = suggested[1] if ns.f_min is None else ns.f_min
    ns.f_max = suggested[2] if ns.f_max is None else ns.f_max
    if not 0 < ns.f_min < ns.f_max:
        raise UsageError(f"--f-min, --f-max: need 0 < f-min < f-max Hz, got {ns.f_min:g} and {ns.f_max:g}")
    if not 1 <= ns.harmonics <= 100:
        raise UsageError(f"--harmonics: must be a whole number from 1 to 100, got {ns.harmonics}")
    if ns.df_max is not None and not 0 < ns.df_max <= ns.f_max - ns.f_min:
        raise UsageError(f"--df-max: must be above 0 and at most the range ({ns.f_max - ns.f_min:g} Hz), got {ns.df_max:g}")
    if step_problem(ns.f_min, ns.f_max, ns.df_max):
        raise UsageError(f"--df-max: {step_problem(ns.f_min, ns.f_max, ns.df_max)}")
    if ns.f_max > CHBM_F_MAX:
        raise UsageError(f"--f-max: must be at most {CHBM_F_MAX:g} Hz, got {ns.f_max:g}")
    if any(CURVE_TORQUE.problem(t) for t in ns.torque):
        raise UsageError(f"--torque: every torque must be {CURVE_TORQUE.describe()}, got "
                         f"{_cut(' '.join(f'{t:g}' for t in ns.torque))}")
    if len(ns.torque) > MAX_TORQUES:
        raise UsageError(f"--torque: at most {MAX_TORQUES} torques, got {len(ns.torque)}")
    if ns.dti_points is not None and not ns.dti:
        raise UsageError("--dti-points: sets the DTI sweeps, which run only with --dti")
    ns.dti_points = 36 if ns.dti_points is None else ns.dti_points
    if not 2 <= ns.dti_points <= DTI_POINTS_MAX:
        raise UsageError(f"--dti-points: must be a whole number from 2 to {DTI_POINTS_MAX}, got {ns.dti_points}")
    if ns.contact is not None and ns.model is None:
        raise UsageError("--contact: chooses the contact of --model's pair; the paper's pair (no --model) is its "
                         "step-gap contact")
    if ns.period is not None and not ns.f_min <= ns.period <= ns.f_max:
        raise UsageError(f"--period: must be from {ns.f_min:g} to {ns.f_max:g} Hz (the curve's range), got {ns.period:g}")
    for flag, path in (("--out", ns.out), ("--period-out", ns.period_out), ("--plot", ns.plot)):
        if path is not None:
            _check_output(path, flag)  # before the study runs: nothing computed is then lost to a bad path
    if (ns.period is None) != (ns.period_out is None):
        raise UsageError("--period, --period-out: give both or neither")
    if model is not None:
        def build(t):
            return lumped_from_model(model, ns.pair, t, ns.contact_stiffness, contact=ns.contact or "mesh")
    else:
        def build(t):
            return paper_model(t, ns.contact_stiffness)
    dti = None
    if ns.dti:
        dti = [float(f) for f in np.linspace(ns.f_min, ns.f_max, ns.dti_points)]
    bar = TerminalProgress()
    cancel = threading.Event()
    try:
        with CancelOnSignal(cancel.set) as sig:
            print(f"computing the curve for {counted(len(ns.torque), 'torque')}", file=sys.stderr, flush=True)
            results = run_study(build, ns.torque, ns.f_min, ns.f_max, ns.harmonics, dti, progress=bar,
                                cancel=cancel.is_set, df_max=ns.df_max)
    except (ContinuationError, np.linalg.LinAlgError) as exc:
        print(f"error: the forced response could not be computed: {exc}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    if not results:
        print(f"cancelled by {sig.received} before the first curve point: nothing to write", file=sys.stderr)
        return 1
    for note in results[0].model.notes:
        print(f"note: {note}")
    for r in results:
        if r.check:
            print(f"note: T = {r.torque:g} N m: {r.check}")
    ok = write_or_fallback(lambda p: write_csv(p, CURVE_HEADER, curve_rows(results)), ns.out, "the curve CSV")
    if ok:
        print(f"wrote {ns.out}: {sum(len(r.points) for r in results)} HBM points for {counted(len(results), 'torque')}")
    if sig.received:
        last = results[-1].points[-1].frequency if results[-1].points else ns.f_min
        print(f"cancelled by {sig.received} at {last:.6g} Hz of the curve for {results[-1].torque:g} N m "
              f"({len(results)} of {counted(len(ns.torque), 'torque')} started); the points computed were written",
              file=sys.stderr)
        return 1
    if ns.period is not None:
        names, data = period_comparison(results[0], ns.period)
        if write_or_fallback(lambda p: write_csv(p, names, (tuple(float(v) for v in row) for row in data)),
                              ns.period_out, "the period CSV"):
            print(f"wrote {ns.period_out}: one period at {ns.period:g} Hz, T = {results[0].torque:g} N m")
        else:
            ok = False
    if ns.plot:
        if write_or_fallback(lambda p: plot_curves(results, p), ns.plot, "the plot"):
            print(f"wrote {ns.plot}")
        else:
            ok = False
    return 0 if ok else 1


SIMULATE_FLAGS = {"t_end": "--t-end", "step": "--step", "output_step": "--output-step", "integrator": "--integrator",
                  "rtol": "--rtol", "atol": "--atol", "rho_inf": "--rho-inf", "formulation": "--formulation"}


def _cmd_simulate(ns) -> int:
    from core.dynamics.checks import step_findings
    from core.dynamics.program.linker import CompileError
    from core.dynamics.results.results_file import SUFFIX as RESULTS_SUFFIX
    from core.dynamics.program.choice import compile_note
    from core.dynamics.run import effective_settings, prepare
    from core.model.files import load
    from core.validation import validate

    for name, value in (("--t-end", ns.t_end), ("--step", ns.step), ("--output-step", ns.output_step)):
        if value is not None and not value > 0:
            raise UsageError(f"{name}: must be a number above 0 s, got {value:g}")
    if ns.out is None and ns.results is None:
        raise UsageError("--out, --results: name the CSV, the results file or both, so the run is kept")
    if ns.out is not None and Path(ns.out).suffix.lower() == RESULTS_SUFFIX:  # a CSV by that name opens nowhere
        raise UsageError(f"--out: writes a CSV table, not a results file; name the results file "
                         f"({RESULTS_SUFFIX}) with --results")
    for flag, path in (("--out", ns.out), ("--results", ns.results)):
        if path is not None:
            _check_output(path, flag)  # before the run: nothing computed is then lost to a bad path
    try:
        model = load(ns.file)
    except ModelError as exc:
        return _failed(exc)
    overrides = {k: getattr(ns, k) for k in SIMULATE_FLAGS}
    try:
        settings, _ = effective_settings(model, **overrides)
    except ModelError as exc:  # a flag out of range: name the flag, not the settings field
        field = exc.path.removeprefix("settings.")
        flag = SIMULATE_FLAGS.get(field)
        if flag and overrides.get(field) is not None:
            raise UsageError(f"{flag}: {exc.detail}") from None
        return _failed(exc)
    for field, flag in SIMULATE_FLAGS.items():  # an option the run's integrator would silently pass over
        users = option_users(field)
        if overrides.get(field) is not None and users and settings.integrator not in users:
            whose = "" if ns.integrator else " (the model's integrator)"
            raise UsageError(f"{flag}: not used by {settings.integrator}{whose}; it sets {listed(users)}")

    def warn(findings):  # the warnings of the model as it will run, named by the flag that set a field
        for f in findings:
            if f.severity == "warning":
                field = f.item.removeprefix("settings.")
                given = SIMULATE_FLAGS.get(field) if overrides.get(field) is not None else None
                print(f"warning: {given or f.item}: {f.message}", file=sys.stderr)

    warn(validate(model, settings=settings))  # the run refuses errors itself, but would not show these
    bar = TerminalProgress()
    # a signal while the run is prepared (the kernels may compile) ends the command; one while it runs ends the
    # run at its next step, with what it computed; one while the files are written lets them be finished first
    with CancelOnSignal(None) as sig:
        sig.cancel = lambda: end_unprepared(sig.received)
        try:
            note = compile_note(settings, ns.compiled)
            print("preparing the run" + (f": {note}" if note else ""), file=sys.stderr, flush=True)
            run = prepare(model, progress=bar, compiled=ns.compiled, **overrides)
            sig.cancel = run.cancel
            warn(step_findings(run.system, settings))  # the step against the assembled equations' fastest mode
            print(f"plan: {run.plan.line()}", flush=True)
            res = run.run()
        except (ModelError, CompileError) as exc:
            bar.close()
            return _failed(exc)
        sig.cancel = None
        ran_to_end = sig.received is None
        bar.close()
        ok = _write_simulation(ns, res)
    if res.status == "cancelled" and sig.received:
        print(f"cancelled by {sig.received}: {res.message}", file=sys.stderr)
        return 1
    if res.status != "finished":
        print(f"error: the simulation {res.status}: {res.message}", file=sys.stderr)
        return 1
    if ran_to_end and sig.received:
        print(f"{sig.received} while the files were written: they were finished first", file=sys.stderr)
        return SIGNALLED
    return 0 if ok else 1


def _write_simulation(ns, res) -> bool:
    """Print a run's notes and events and write its CSV (and results file); True when every file got written."""
    from core.dynamics.results import save_results

    for note in res.findings:
        print(f"note: {note}")
    shown = 20  # the first mode changes of lossy gears; all of them are in the results file
    for t, name, detail in res.events[:shown]:
        print(f"event: t = {t:.9g} s, {name}: {detail}")
    if len(res.events) > shown:
        print(f"event: ... and {len(res.events) - shown} more (in the results file, --results)")
    summary = (f"{len(res.time)} samples of {len(res.channels)} channels to t = {res.time[-1]:.6g} s ({res.steps} "
               f"steps, {res.evaluations} evaluations)")
    ok = True
    if ns.out is not None:
        print(f"writing {ns.out}: {len(res.time)} samples", file=sys.stderr, flush=True)
        ok = write_or_fallback(res.to_csv, ns.out, "the results CSV")
        if ok:
            print(f"wrote {ns.out}: {summary}", flush=True)
    if ns.results and write_or_fallback(lambda p: save_results(res, p), ns.results, "the results file"):
        print(f"wrote {ns.results}: results file (channels, poses, model and settings)"
              + ("" if ns.out else f", {summary}"))
    elif ns.results:
        ok = False
    return ok


def _cmd_gui(ns) -> int:
    """Reached only without the launcher (app.launch starts the GUI itself): core never imports Qt."""
    print("geardyn: the application is started by the 'geardyn' command (app.launch)", file=sys.stderr)
    return 2


def _cmd_modes(ns) -> int:
    from core.chbm.train_commands import run_modes

    return run_modes(ns.file, ns.json, ns.speed_max)


def _cmd_train_chbm(ns) -> int:
    from core.chbm.train_commands import run_train_chbm

    for flag, value in (("--f-min", ns.f_min), ("--f-max", ns.f_max)):
        if value is not None and not 0 < value <= CHBM_F_MAX:
            raise UsageError(f"{flag}: must be above 0 and at most {CHBM_F_MAX:g} Hz, got {value:g}")
    if None not in (ns.f_min, ns.f_max) and not ns.f_min < ns.f_max:
        raise UsageError(f"--f-min, --f-max: need f-min < f-max, got {ns.f_min:g} and {ns.f_max:g} Hz")
    if ns.df_max is not None and None not in (ns.f_min, ns.f_max) and not 0 < ns.df_max <= ns.f_max - ns.f_min:
        raise UsageError(f"--df-max: must be above 0 and at most the range ({ns.f_max - ns.f_min:g} Hz), got {ns.df_max:g}")
    if None not in (ns.f_min, ns.f_max) and step_problem(ns.f_min, ns.f_max, ns.df_max):
        raise UsageError(f"--df-max: {step_problem(ns.f_min, ns.f_max, ns.df_max)}")
    if len(ns.torque_scale) > MAX_TORQUE_SCALES:
        raise UsageError(f"--torque-scale: at most {MAX_TORQUE_SCALES} scales, got {len(ns.torque_scale)}")
    _check_output(ns.out, "--out")
    bar = TerminalProgress()
    with CancelOnSignal(None) as sig:  # a signal ends the curve at its next point; the points are written
        try:
            return run_train_chbm(ns.file, ns.out, ns.f_min, ns.f_max, ns.torque_scale, ns.harmonics, ns.df_max,
                                  ns.newmark, progress=bar, cancel=lambda: sig.received)
        finally:
            bar.close()


def _check_output(path: str, flag: str) -> None:
    """Refuse an output path that cannot be written before any computation starts (core.outputs)."""
    problem = output_problem(path)
    if problem:
        raise UsageError(f"{flag}: {problem}")


def _cmd_study(ns) -> int:
    from core.studies.cases import NOT_COMPILED
    from core.studies.runner import run_study, write_results
    from core.studies.study_file import load_study

    if ns.workers is not None and not 0 <= ns.workers <= 1024:
        raise UsageError(f"--workers: must be a whole number from 0 to 1024, got {ns.workers}")
    if ns.workers is not None and ns.scheduler:
        raise UsageError("--workers, --scheduler: --workers sizes the local cluster; with --scheduler the cluster's "
                         "own workers run the cases")
    _check_output(ns.out, "--out")
    try:
        study = load_study(ns.file)
    except ModelError as exc:
        return _failed(exc)
    bar = TerminalProgress()
    failed = []
    partial: list[dict | None] = [None] * len(study.cases())

    def progress(done, total, row):
        if row["status"] == "failed":
            failed.append(row)
        bar(done / total, f"case {done}/{total}" + (f", {len(failed)} failed" if failed else ""))
        partial[row["case"]] = row
        try:  # every finished case is in the file at once: a crash or a kill later loses none of them
            write_results(ns.out, study, partial)
        except OSError:
            pass  # the final write says why, and falls back

    cancel = threading.Event()
    with CancelOnSignal(cancel.set) as sig:
        try:
            rows = run_study(study, ns.scheduler, ns.workers, progress, cancel=cancel.is_set)
        except ModelError as exc:
            return _failed(exc)
        finally:
            bar.close()
        sig.cancel = None  # the file is written whole even if a signal comes now
        ok = write_or_fallback(lambda p: write_results(p, study, rows), ns.out, "the study's CSV")
    bad = [(k, r) for k, r in enumerate(rows) if r["status"] == "failed"]
    for k, r in bad:
        print(f"case {k} failed: {r['error']}")
    done = sum(r["status"] != "cancelled" for r in rows)
    slow = [r["message"] for r in rows if r["message"].startswith(NOT_COMPILED)]
    if slow:  # the fast path not taken: said once, as a run's plan line says it
        print(f"note: {len(slow)} of {len(rows)} cases ran in Python, {slow[0].split(';')[0]}")
    if ok:
        print(f"wrote {ns.out}: {len(rows)} cases, {done - len(bad)} computed, {len(bad)} failed"
              + (f", {len(rows) - done} cancelled" if done < len(rows) else ""))
    if sig.received:
        print(f"cancelled by {sig.received}: {done} of {len(rows)} cases finished, kept in the CSV", file=sys.stderr)
        return 1
    return 0 if ok else 1


def _cmd_inspect(ns) -> int:
    from core.analysis.train_ratio import balance, referral
    from core.dynamics.formulations import assemble
    from core.model.files import load

    try:
        model = load(ns.file)
        info = assemble(model, ns.formulation).describe()
    except ModelError as exc:
        return _failed(exc)
    if ns.json:
        found = referral(model)
        info["torques_referred"] = None if found is None else {
            "joint": found.drive.joint, "drive": found.drive.name, "torques": dict(found.torques), "net": found.net,
            "untied": list(found.untied), "lossy": list(found.lossy), "steady_with_losses": found.steady,
            "unit": "N m"}
        print(json.dumps(info, indent=2))
    else:
        sysinfo = info["system"]
        print(f"{counted(sysinfo['bodies'], 'body', 'bodies')} in {sysinfo['formulation']} coordinates "
              f"({counted(sysinfo['coordinates'], 'coordinate')}), "
              f"{counted(sysinfo['constraint_rows'], 'constraint row')}, {sysinfo['redundant_constraints']} redundant, "
              f"{counted(sysinfo['degrees_of_freedom'], 'degree')} of freedom")
        if "rates" in sysinfo:
            print(f"rates: {sysinfo['rates']}")
        for name, b in info["bodies"].items():
            print(f"body {name}: mass {b['mass']:.6g} kg")
        for name, p in info["gear_pairs"].items():
            print(f"pair {name}: {p['kind']}, ratio {p['ratio']:.6g}, {'rigid' if p['rigid'] else 'compliant'}")
        said = balance(model)
        if said:
            print(said)
    return 0


def _number(kind, range_: Range | None = None):
    """argparse type: parse, and hold the value to `range_` (given in its display unit, as typed), naming the
    allowed range on failure."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            what = range_.describe() if range_ else ("a whole number" if kind is int else "a number")
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
        problem = range_.problem(range_.from_display(value)) if range_ else None
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    from core.ranges import field_range

    p = _Parser(prog="geardyn", description="GearDyn: gear-train modelling, simulation and analysis.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    g = sub.add_parser("gear", help="macro-geometry and mass properties of one generated gear")
    g.add_argument("kind", choices=("helical", "inner", "bevel"))
    r = lambda name: field_range(GearSpec, name)  # noqa: E731
    modules = g.add_mutually_exclusive_group(required=True)
    modules.add_argument("--module", type=_number(float, r("module")), help="transverse module m_t [mm]")
    modules.add_argument("--normal-module", type=_number(float, r("module")), help=NORMAL_MODULE_HELP)
    g.add_argument("--teeth", type=_number(int, r("teeth")), required=True, help="number of teeth")
    g.add_argument("--pressure-angle", type=_number(float, r("pressure_angle")), default=20.0, help="normal pressure angle [deg]")
    g.add_argument("--helix-angle", type=_number(float, r("helix_angle")), help="helix angle [deg], + right hand (helical, inner)")
    g.add_argument("--pitch-angle", type=_number(float, r("pitch_angle")), help="pitch angle [deg] (bevel)")
    g.add_argument("--width", type=_number(float, r("face_width")), required=True, help="face width [mm]")
    holes = g.add_mutually_exclusive_group()
    holes.add_argument("--bore", type=_number(float), help="bore diameter [mm] (default: a quarter of the pitch diameter)")
    holes.add_argument("--rim-diameter", type=_number(float), help="outer rim diameter of an inner gear [mm] (default: root diameter + 6 modules)")
    g.add_argument("--density", type=_number(float, r("density")), default=7850.0, help="density [kg/m^3] (default steel, 7850)")
    g.add_argument("--x1", type=_number(float, r("profile_shift")), default=0.0,
                   help="profile shift coefficient x of this gear (ISO 21771; external helical/spur gears)")
    g.add_argument("--export", metavar="FILE", help="write the mesh to FILE.stl or FILE.obj, in mm")
    g.add_argument("--json", action="store_true", help="print JSON (SI units)")
    g.set_defaults(run=_cmd_gear)

    q = sub.add_parser("pair", help="centre distance, contact ratios and ISO 6336 mesh stiffness of a gear pair")
    rp = lambda name: field_range(PairSpec, name)  # noqa: E731
    q.add_argument("--z1", type=_number(int, rp("z1")), required=True, help="teeth of gear 1 (the pinion of an inner pair)")
    q.add_argument("--z2", type=_number(int, rp("z2")), required=True, help="teeth of gear 2 (the ring of an inner pair)")
    modules = q.add_mutually_exclusive_group(required=True)
    modules.add_argument("--module", type=_number(float, rp("module")), help="transverse module m_t [mm]")
    modules.add_argument("--normal-module", type=_number(float, rp("module")), help=NORMAL_MODULE_HELP)
    q.add_argument("--pressure-angle", type=_number(float, rp("pressure_angle")), default=20.0, help="normal pressure angle [deg]")
    q.add_argument("--helix-angle", type=_number(float, rp("helix_angle")), help="helix angle of gear 1 [deg]")
    q.add_argument("--width", type=_number(float, rp("face_width")), help="face width [mm], for the overlap ratio")
    kinds = q.add_mutually_exclusive_group()
    kinds.add_argument("--internal", action="store_true", help="gear 2 is an inner (ring) gear")
    kinds.add_argument("--bevel", action="store_true",
                       help="a straight bevel pair on 90 deg shafts (pitch angles atan(z1/z2) and its complement; "
                            "--module is the outer module)")
    q.add_argument("--x1", type=_number(float, rp("x1")), default=0.0, help="profile shift coefficient of gear 1 (external pairs)")
    q.add_argument("--x2", type=_number(float, rp("x2")), default=0.0, help="profile shift coefficient of gear 2 (external pairs)")
    q.add_argument("--json", action="store_true", help="print JSON (SI units)")
    q.set_defaults(run=_cmd_pair)

    c = sub.add_parser("chbm", help="forced response of a spur pair by coupled harmonic balance (and Newmark DTI)")
    c.add_argument("--model", help="a .gdyn model file (default: the paper's pair, Saletti et al. 2025, Table 1)")
    c.add_argument("--pair", help="the gear pair of --model (default: its only one)")
    c.add_argument("--contact", choices=("mesh", "step_gap"),
                   help="with --model: 'mesh' (default) uses the pair's compliant mesh model, as the multibody run "
                        "does (ISO 6336-1 stiffness, involute waveform); 'step_gap' the paper's contact elements")
    c.add_argument("--contact-stiffness", type=_number(float), help="single tooth-pair stiffness [N/m] of the step-gap contact (implies --contact step_gap)")
    c.add_argument("--torque", type=_number(float), nargs="+",
                   help="torques on gear 1 [N m] (default: the paper's 100; with --model half, once and twice the "
                        "pair's static torque under the model's mean loads)")
    c.add_argument("--f-min", type=_number(float), help="lowest mesh frequency [Hz] (default: 500; with --model 0.2 "
                                                        "times the pair's mesh mode)")
    c.add_argument("--f-max", type=_number(float), help="highest mesh frequency [Hz] (default: 4000; with --model 1.5 "
                                                        "times the pair's mesh mode)")
    c.add_argument("--harmonics", type=_number(int), default=14, help="harmonics H (default 14)")
    c.add_argument("--df-max", type=_number(float), help="largest frequency step between curve points [Hz] "
                                                          "(default: 1 %% of the range)")
    c.add_argument("--dti", action="store_true", help="also sweep Newmark time integration forward and backward")
    c.add_argument("--dti-points", type=_number(int), help="frequencies of the DTI sweeps, with --dti (default 36)")
    c.add_argument("--out", required=True, help="curve CSV")
    c.add_argument("--period", type=_number(float), help="mesh frequency [Hz] for the one-period comparison")
    c.add_argument("--period-out", help="CSV of x(t), Fc(t) and mesh stiffness over one period at --period")
    c.add_argument("--plot", help="PNG of the forced-response curves")
    c.set_defaults(run=_cmd_chbm)

    m = sub.add_parser("simulate", help="simulate a model and write every channel to CSV")
    m.add_argument("file", help="a .gdyn model file")
    m.add_argument("--t-end", type=_number(float), help="end time [s] (default: the model's)")
    m.add_argument("--step", type=_number(float), help="time step [s]: of rk4 and generalized_alpha; the first of "
                   "dopri5 and dop853; the largest of generalized_alpha_adaptive (default: the model's)")
    m.add_argument("--integrator", help=f"{', '.join(INTEGRATOR_OPTIONS)} (default: the model's)")
    m.add_argument("--output-step", type=_number(float), help="output sampling [s]; finer than --step is interpolated (default: the model's)")
    m.add_argument("--rtol", type=_number(float),
                   help=f"relative tolerance of {listed(option_users('rtol'))} (default: the model's)")
    m.add_argument("--atol", type=_number(float),
                   help=f"absolute tolerance of {listed(option_users('atol'))} (default: the model's)")
    m.add_argument("--rho-inf", type=_number(float), help=f"spectral radius at infinity of "
                   f"{listed(option_users('rho_inf'))}, 0 to 1 (default: the model's)")
    m.add_argument("--formulation", choices=FORMULATIONS, help=FORMULATION_HELP)
    m.add_argument("--compiled", choices=("auto", "on", "off"), default="auto",
                   help="run the kernels compiled (numba; the same code, each step the same to round-off): on, off, "
                        "or auto (compiled when the compiled kernels are in the cache, or for a run long enough to "
                        "repay compiling them); the plan line says what was chosen and why")
    m.add_argument("--out", help="every channel as CSV (this, --results or both)")
    m.add_argument("--results", metavar="FILE.gdres", help="the results file (HDF5: channels, poses, model, settings)")
    m.set_defaults(run=_cmd_simulate)

    st = sub.add_parser("study", help="a parameter study on dask: cases from a study file, one CSV row per case",
                        description="Run a parameter study (see the README for the study file): each case is a "
                                    "copy of the base with its parameter values, analysed and reduced to numbers; "
                                    "cases run on a local dask cluster unless --scheduler names one.")
    st.add_argument("file", help="a study file (JSON)")
    st.add_argument("--out", required=True, help="results CSV: one row per case, the parameters then the results")
    st.add_argument("--scheduler", metavar="ADDRESS", help="an existing dask scheduler, e.g. tcp://host:8786")
    st.add_argument("--workers", type=_number(int), help="worker processes of the local cluster (default: one per "
                                                         "core; 0: run the cases in this process)")
    st.set_defaults(run=_cmd_study)

    i = sub.add_parser("inspect", help="bodies, joints, gear pairs, system size, redundant constraints and the "
                                       "torques referred through the train to the drive")
    i.add_argument("file", help="a .gdyn model file")
    i.add_argument("--json", action="store_true", help="print JSON (SI units)")
    i.add_argument("--formulation", choices=FORMULATIONS, help=FORMULATION_HELP)
    i.set_defaults(run=_cmd_inspect)

    gui = sub.add_parser("gui", help="open the application on FILE (default: the planetary example)",
                         description="Open the GearDyn application: build a gear train by point and click, run it, "
                                     "watch it move, read the tooth forces.")
    gui.add_argument("file", nargs="?", help="a .gdyn model file or a .gdres results file")
    gui.set_defaults(run=_cmd_gui)

    md = sub.add_parser("modes", help="natural frequencies and mode shapes of a model's gear train (lumped, at the "
                                      "mean mesh stiffness), classified rotational, translational, planet, mixed "
                                      "or support")
    md.add_argument("file", help="a .gdyn model file")
    md.add_argument("--json", action="store_true", help="print JSON (SI units, speeds in rpm)")
    md.add_argument("--speed-max", type=_number(float, CAMPBELL_SPEED), default=0.0,
                    help="list the Campbell crossings (mesh harmonics 1-3 meeting a natural frequency) up to this "
                         "input speed [rpm]")
    md.set_defaults(run=_cmd_modes)

    tc = sub.add_parser("train-chbm", help="forced response of a model's gear train by harmonic balance: every "
                                           "mesh's dynamic load and dynamic factor and every body's rotation and "
                                           "translation amplitudes over the mesh frequency")
    tc.add_argument("file", help="a .gdyn model file (its gear pairs, compliant meshes, bearings and mean torques)")
    tc.add_argument("--f-min", type=_number(float), help="lowest mesh frequency [Hz] (default: 0.2 times the "
                    "train's lowest mesh mode)")
    tc.add_argument("--f-max", type=_number(float), help="highest mesh frequency [Hz] (default: 1.2 times its "
                    "highest mesh mode)")
    tc.add_argument("--torque-scale", type=_number(float, TORQUE_SCALE), nargs="+", default=[1.0],
                    help="scales of the model's torques, one curve each (default 1)")
    tc.add_argument("--harmonics", type=_number(int, TRAIN_HARMONICS), default=None,
                    help=f"harmonics H of the train's period (default: those that resolve the curve from --f-min, at "
                         f"least {TRAIN_DEFAULT_HARMONICS}: the involute waveform's jumps need many)")
    tc.add_argument("--df-max", type=_number(float), default=10.0,
                    help="largest frequency step between points [Hz] (default 10, as the Train Dynamics window: a "
                         "train's superharmonic peaks are sharp)")
    tc.add_argument("--newmark", type=_number(int, NEWMARK_POINTS), default=0,
                    help="also run Newmark time integration at this many frequencies (the reference)")
    tc.add_argument("--out", required=True, help="curve CSV")
    tc.set_defaults(run=_cmd_train_chbm)

    v = sub.add_parser("validate", help="check a model file against the modelling rules")
    v.add_argument("file", help="a .gdyn model file")
    v.set_defaults(run=_cmd_validate)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad arguments)."""
    parser = build_parser()
    try:
        ns = parser.parse_args(argv)
        if not getattr(ns, "run", None):
            parser.print_help()
            return 2
        return ns.run(ns)
    except UsageError as exc:
        print(f"geardyn: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C outside a computation (simulate and chbm cancel theirs and write)
        print("geardyn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of the output left (| head): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the flush at exit must not fail again
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
