"""The study file (JSON, SI units): what is varied, how the cases combine, and what each case computes.

::

    {
      "base": "planetary.gdyn",             # a model file (relative to the study file), or "chbm" for the
                                            # paper's pair (Saletti et al. 2025, Table 1)
      "pair": "sun_planet1",                # chbm analysis of a model: the gear pair
      "parameters": [
        {"path": "gears.sun.face_width", "values": [0.015, 0.02, 0.025]},
        {"path": "forces.sun_torque.law.value", "grid": {"start": 1.0, "stop": 5.0, "count": 3}}
      ],
      "combine": "grid",                    # every combination ("grid") or the i-th value of each ("list")
      "analysis": {
        "kind": "simulation", "t_end": 0.1, "step": 0.001, "output_step": 0.001, "integrator": "rk4",
        "outputs": [{"channel": "sun_planet1.Ft", "reduce": "max_abs"}, {"channel": "sun_joint.speed", "reduce": "final"}]
      }
    }

A CHBM analysis is ``{"kind": "chbm", "torque": 100, "f_min": 500, "f_max": 4000, "harmonics": 14}``; its
results are the peak half peak-to-peak DTE, its frequency, and the mean DTE there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from core.model.entities import shown_key
from core.model.files import MAX_FILE_BYTES, MAX_NESTING, nesting, read_regular_file
from core.model.views import step_problem
from core.errors import ModelError, problems_of
from core.studies.parameters import check_path
from core.studies.reductions import REDUCTIONS

MAX_CASES = 100_000
COMBINES = ("grid", "list")
KINDS = ("simulation", "chbm")
CHBM_BASE = "chbm"


def _fail(path: str, message: str):
    raise ModelError(path, message)


@dataclass(frozen=True)
class Parameter:
    path: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Output:
    channel: str
    reduce: str

    @property
    def column(self) -> str:
        return f"{self.channel} {self.reduce}"


@dataclass(frozen=True)
class Analysis:
    kind: str
    settings: dict = field(default_factory=dict)  # simulation: t_end, step, ...; chbm: torque, f_min, ...
    outputs: tuple[Output, ...] = ()


@dataclass(frozen=True)
class Study:
    base: str  # a model path (absolute) or "chbm"
    parameters: tuple[Parameter, ...]
    combine: str
    analysis: Analysis
    pair: str = ""
    source: str = ""  # the study file

    def cases(self) -> list[tuple[float, ...]]:
        """The parameter values of every case, in order."""
        if self.combine == "list":
            return [tuple(p.values[i] for p in self.parameters) for i in range(len(self.parameters[0].values))]
        out = [()]
        for p in self.parameters:
            out = [c + (v,) for c in out for v in p.values]
        return out


def _number(value, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _fail(path, f"must be a finite number, got {str(value)[:40]!r}")
    number = float(value) if isinstance(value, float) or abs(value) < 2**1023 else math.inf
    if not math.isfinite(number):
        _fail(path, f"must be a finite number, got one of {len(str(abs(value)))} digits"
              if isinstance(value, int) else f"must be a finite number, got {value!r}")
    return number


def _unused_by(kind: str, path: str) -> str:
    """Why `path` has no effect on an analysis of `kind`, or ""."""
    root = path.split(".")[0]
    if kind == "chbm" and root in ("forces", "settings"):
        return ("its torque is analysis.torque or chbm.torque, and it takes from the model only the pair's geometry "
                "and the gears' inertias")
    if kind == "simulation" and root == "chbm":
        return "a simulation takes its loads from the model (forces.NAME.law.value)"
    return ""


def _collect(found: list, read, *args):
    """read(*args), its problems added to `found` (None when it had any)."""
    value, bad = problems_of(read, *args)
    found.extend(bad)
    return value


def _values(spec: dict, path: str) -> tuple[float, ...]:
    if "values" in spec and "grid" in spec:
        _fail(path, "give either values or grid, not both")
    if "values" in spec:
        vals = spec["values"]
        if not isinstance(vals, list) or not 1 <= len(vals) <= MAX_CASES:
            _fail(f"{path}.values", f"must be a list of 1 to {MAX_CASES} numbers")
        found: list = []
        numbers = tuple(_collect(found, _number, v, f"{path}.values[{i}]") for i, v in enumerate(vals))
        if found:
            raise ModelError.of(found)
        return numbers
    if "grid" in spec:
        g = spec["grid"]
        if not isinstance(g, dict) or set(g) != {"start", "stop", "count"}:
            _fail(f"{path}.grid", "must be {\"start\": number, \"stop\": number, \"count\": whole number}")
        found = []
        start, stop = (_collect(found, _number, g[k], f"{path}.grid.{k}") for k in ("start", "stop"))
        count = g["count"]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_CASES:
            found.append((f"{path}.grid.count",
                          f"must be a whole number from 1 to {MAX_CASES}, got {str(count)[:40]!r}"))
        if found:
            raise ModelError.of(found)
        return tuple(start + (stop - start) * k / (count - 1) for k in range(count)) if count > 1 else (start,)
    _fail(path, "needs values (a list) or grid (start, stop, count)")


def _parameter(spec, where: str, chbm_base: bool) -> Parameter:
    """One entry of `parameters`; a ModelError with each of its bad fields."""
    if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
        _fail(where, "must be an object with a path (e.g. \"gears.sun.face_width\")")
    found = [(f"{where}.{shown_key(key)}", "is not a parameter field (fields: path, values, grid)")
             for key in sorted(set(spec) - {"path", "values", "grid"})]
    _collect(found, check_path, spec["path"], chbm_base, f"{where}.path")
    values = _collect(found, _values, spec, where)
    if found:
        raise ModelError.of(found)
    return Parameter(spec["path"], values)


def _parameters(raw, chbm_base: bool) -> tuple[Parameter, ...]:
    if not isinstance(raw, list) or not raw:
        _fail("parameters", "must be a non-empty list of {\"path\": ..., \"values\" or \"grid\": ...}")
    found: list = []
    params = tuple(_collect(found, _parameter, spec, f"parameters[{i}]", chbm_base) for i, spec in enumerate(raw))
    if found:
        raise ModelError.of(found)
    return params


def _base(base, source: str) -> str:
    if not isinstance(base, str) or not base:
        _fail("base", f"must be a model file name or {CHBM_BASE!r}")
    return str((Path(source).parent / base).resolve()) if source and base != CHBM_BASE else base


def _one_of(value, path: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        _fail(path, f"must be one of {', '.join(choices)}, got {str(value)[:40]!r}")
    return value


def _pair(pair) -> str:
    if not isinstance(pair, str):
        _fail("pair", "must be the name of a gear pair")
    return pair


def study_from_dict(data, source: str = "") -> Study:
    """A Study from parsed JSON; raises ModelError naming every bad field (its `problems`), the first in its
    text. Fields that read are then checked together (the analysis against the base, the cases' count)."""
    if not isinstance(data, dict):
        _fail("study", "must be a JSON object")
    known = {"base", "pair", "parameters", "combine", "analysis", "description"}
    found = [(shown_key(key), f"is not a study field (fields: {', '.join(sorted(known))})")
             for key in sorted(set(data) - known)]
    base = _collect(found, _base, data.get("base"), source)
    pair = _collect(found, _pair, data.get("pair", ""))
    combine = _collect(found, _one_of, data.get("combine", "grid"), "combine", COMBINES)
    params = _collect(found, _parameters, data.get("parameters"), base == CHBM_BASE)
    analysis = _collect(found, _analysis, data.get("analysis"))
    if found:
        raise ModelError.of(found)
    if combine == "list" and len({len(p.values) for p in params}) != 1:
        found.append(("parameters", "with combine = list every parameter needs the same number of values"))
    if base == CHBM_BASE and analysis.kind != "chbm":
        found.append(("analysis.kind", "the paper's pair (base chbm) takes a chbm analysis"))
    if analysis.kind == "chbm" and base != CHBM_BASE and not pair:
        found.append(("pair", "a chbm analysis of a model needs the gear pair"))
    for i, p in enumerate(params):
        unused = _unused_by(analysis.kind, p.path)
        if unused:
            found.append((f"parameters[{i}].path", f"{p.path!r} is not used by a {analysis.kind} analysis: {unused}"))
    if found:
        raise ModelError.of(found)
    study = Study(base, params, combine, analysis, pair, source)
    n = len(study.cases())
    if n > MAX_CASES:
        _fail("parameters", f"make {n} cases; at most {MAX_CASES}")
    return study


SIM_SETTINGS = {"t_end", "step", "output_step", "integrator", "rtol", "atol", "rho_inf", "formulation"}
CHBM_SETTINGS = {"torque": 100.0, "f_min": 500.0, "f_max": 4000.0, "harmonics": 14, "df_max": 0.0}


def _output(o, path: str) -> Output:
    if not isinstance(o, dict) or not isinstance(o.get("channel"), str) or o.get("reduce") not in REDUCTIONS:
        _fail(path, f"needs a channel name and a reduce among {', '.join(REDUCTIONS)}")
    if not o["channel"].strip():
        _fail(f"{path}.channel", "must name a channel (such as sun_planet1.Ft), got ''")
    return Output(o["channel"], o["reduce"])


def _analysis(raw) -> Analysis:
    """The analysis; a ModelError with each of its bad fields."""
    if not isinstance(raw, dict):
        _fail("analysis", "must be an object with a kind (simulation or chbm)")
    kind = _one_of(raw.get("kind"), "analysis.kind", KINDS)
    own = sorted(SIM_SETTINGS) if kind == "simulation" else list(CHBM_SETTINGS)
    allowed = {*own, "kind", *(("outputs",) if kind == "simulation" else ())}
    found = [(f"analysis.{shown_key(key)}", f"is not a {kind} setting (settings: {', '.join(own)})")
             for key in sorted(set(raw) - allowed)]
    if kind == "simulation":
        outs = raw.get("outputs")
        if not isinstance(outs, list) or not outs:
            found.append(("analysis.outputs", "must list at least one {\"channel\": ..., \"reduce\": ...}"))
            outs = []
        outputs = tuple(_collect(found, _output, o, f"analysis.outputs[{i}]") for i, o in enumerate(outs))
        if found:
            raise ModelError.of(found)
        return Analysis(kind, {k: v for k, v in raw.items() if k in SIM_SETTINGS}, outputs)
    settings = {**CHBM_SETTINGS, **{k: raw[k] for k in CHBM_SETTINGS if k in raw}}
    for k, v in settings.items():
        _collect(found, _number, v, f"analysis.{k}")
    if found:
        raise ModelError.of(found)
    f_min, f_max = settings["f_min"], settings["f_max"]
    if not 0 < f_min < f_max:
        found.append(("analysis.f_min", f"need 0 < f_min < f_max Hz, got {f_min:g} and {f_max:g}"))
    if not (float(settings["harmonics"]).is_integer() and 1 <= settings["harmonics"] <= 100):
        found.append(("analysis.harmonics", f"must be a whole number from 1 to 100, got {settings['harmonics']:g}"))
    if not settings["torque"] > 0:
        found.append(("analysis.torque", f"must be above 0 N m, got {settings['torque']:g}"))
    df_max = settings["df_max"]
    if 0 < f_min < f_max and not 0 <= df_max <= f_max - f_min:
        found.append(("analysis.df_max", f"must be from 0 (1 % of the range) to the range, {f_max - f_min:g} Hz, "
                                         f"got {df_max:g}"))
    elif 0 < f_min < f_max and step_problem(f_min, f_max, df_max):
        found.append(("analysis.df_max", step_problem(f_min, f_max, df_max)))
    if found:
        raise ModelError.of(found)
    return Analysis(kind, settings, ())


def load_study(path) -> Study:
    """Read a study file; errors name the field."""
    path = Path(path)
    raw = read_regular_file(path, MAX_FILE_BYTES, "study file")
    try:
        text = raw.decode("utf-8")
        if nesting(text) > MAX_NESTING:
            raise ValueError(f"lists or objects nested more than {MAX_NESTING} levels deep")
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:  # ValueError: also bad UTF-8, huge integers
        raise ModelError(f"{path}: not a JSON study file: {str(exc)[:120]}") from None
    return study_from_dict(data, str(path))
