"""One case of a study: apply its parameter values to a copy of the base, run the analysis, reduce to numbers.

A case is a plain function of plain data (the study, the base model as a dict, the values), so it runs the
same in this process or on any dask worker.
"""

from __future__ import annotations

import math

from core.chbm import lumped_model as lm
from core.chbm.continuation import follow
from core.chbm.from_model import lumped_from_model
from core.chbm.harmonic_balance import HarmonicBalance
from core.dynamics.checks import step_findings
from core.dynamics.run import effective_settings, prepare
from core.dynamics.simulate import simulate
from core.errors import ModelError
from core.model.entities import INTEGRATOR_OPTIONS
from core.model.files import model_from_dict
from core.studies.parameters import apply
from core.studies.reductions import reduce
from core.studies.study_file import CHBM_BASE, Study
from core.validation import validate

CHBM_OUTPUTS = ("peak half peak-to-peak DTE [m]", "peak frequency [Hz]", "mean DTE at the peak [m]", "curve points")


#: how a case's message begins when its run's kernels ran in Python: a study says so where its table is read
NOT_COMPILED = "not compiled: "


def output_columns(study: Study) -> list[str]:
    """Result column names of the study's analysis, with units where known (simulation: from the first case)."""
    if study.analysis.kind == "chbm":
        return list(CHBM_OUTPUTS)
    return [o.column for o in study.analysis.outputs]


def run_case(study: Study, base: dict | None, values: tuple[float, ...]) -> dict:
    """{'values', 'results' (list of floats, NaN where not computed), 'status', 'message', 'units'}: the message
    says why a case failed, or gives the warnings of the case's model (a gear regenerated with a module its pair
    does not have, for one) for a case that ran."""
    try:
        results, units, status, message = _run(study, base, values)
        return {"values": values, "results": results, "units": units, "status": status, "message": message}
    except ModelError as exc:
        return _failed(study, values, str(exc))
    except Exception as exc:  # noqa: BLE001  (one case failing must not stop the others; its error is reported)
        return _failed(study, values, f"{type(exc).__name__}: {exc}")


def warm_up(base: dict | None) -> str:
    """Load what a case of `base` needs, by a two-step run of it: the engine's modules and the compiled kernels
    from their cache. Run on each worker of a cluster started ahead of a study (the app's study
    window), so that its first case does not pay for it. Returns 'ok', or why the run could not be made (the
    study's cases will say the same)."""
    if base is None:  # the paper's pair: CHBM cases need no kernels
        return "ok"
    try:
        model = model_from_dict(base)
        step = model.settings.step
        simulate(model, t_end=2 * step, output_step=step, check=False)
    except Exception as exc:  # noqa: BLE001  (a model that cannot run: its cases report why, each one)
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def _failed(study, values, message):
    n = len(output_columns(study))
    return {"values": values, "results": [math.nan] * n, "units": [""] * n, "status": "failed",
            "message": message.splitlines()[0][:300]}


def _run(study: Study, base: dict | None, values):
    settings = dict(study.analysis.settings)
    model = None
    if base is not None:
        model = model_from_dict(base)
    chbm_params = {}
    for p, v in zip(study.parameters, values):
        if p.path.startswith("chbm."):
            chbm_params[p.path.split(".", 1)[1]] = v
        else:
            apply(model, p.path, v, study.analysis.kind)
            if p.path.startswith("settings."):  # the case's own value, not the analysis's for every case
                settings.pop(p.path.split(".", 1)[1], None)
    case = None if model is None else _settings(study, model, settings)
    _check_options(study, case)
    warnings = [] if model is None else [f for f in validate(model, settings=case)
                                         if f.severity == "warning"]
    if study.analysis.kind == "chbm":
        return (*_chbm(study, model, settings, chbm_params), _said(warnings))
    *computed, step, plan = _simulation(study, model, settings)
    return (*computed, "; ".join(t for t in (plan, _said(warnings + step)) if t)[:300])


def _check_options(study, case) -> None:
    """ModelError for a varied integrator option that the integrator of the case's settings `case` does not take
    (every case would run alike); none without settings (a CHBM study, or settings the run will refuse)."""
    if case is None:
        return
    integrator = case.integrator
    takes = INTEGRATOR_OPTIONS.get(integrator, ())
    options = {o for opts in INTEGRATOR_OPTIONS.values() for o in opts}
    for p in study.parameters:
        name = p.path.split(".", 1)[1] if p.path.startswith("settings.") else ""
        if name in options and name not in takes:
            raise ModelError(f"{p.path}: not used by {integrator} (the integrator the cases run with, which takes "
                             f"{', '.join(takes) or 'no options'})")


def _said(warnings) -> str:
    """A case's warnings in its message (cut to a table cell's length)."""
    return "; ".join(f"warning: {f.item}: {f.message}" for f in warnings)[:300]


def _settings(study, model, settings):
    """The settings a case runs with (the model's with the study's `settings`, its own varied ones among them), or
    None when the study runs no simulation; settings out of range are left to the run, which names them."""
    if study.analysis.kind == "chbm":
        return None
    try:
        return effective_settings(model, **settings)[0]
    except ModelError:
        return None


def _simulation(study, model, settings):
    """(results, units, status, the step's warnings against the assembled equations, and NOT_COMPILED with why
    where the run's kernels ran in Python, else '') of a simulation case."""
    run = prepare(model, **settings)
    step = step_findings(run.system, run.settings)
    res = run.run()
    results, units = [], []
    for o in study.analysis.outputs:
        try:
            rec = res.record(o.channel)
        except KeyError:
            raise ModelError(f"analysis.outputs: the results have no channel {o.channel!r}") from None
        results.append(reduce(res.channel(o.channel), o.reduce))
        units.append(rec.unit)
    status = "ok" if res.status == "finished" else f"{res.status}: {res.message}"[:300]
    return results, units, status, step, "" if run.plan.compiled else NOT_COMPILED + run.plan.compiled_why


#: What a CHBM case's parameters may be (low, high, whether low itself is allowed)
CHBM_RANGES = {"torque": (0.0, 1e6, False, "N m"), "inertia": (0.0, 1e3, False, "kg m^2"),
               "base_radius": (0.0, 10.0, False, "m"), "damping": (0.0, 1e9, True, "N s/m"),
               "contact_stiffness": (0.0, 1e12, False, "N/m"), "contact_ratio": (1.0, 3.0, True, "")}


def _chbm(study, model, settings, chbm_params):
    torque = chbm_params.pop("torque", settings["torque"])
    for name, value in {"torque": torque, **chbm_params}.items():
        lo, hi, closed, unit = CHBM_RANGES[name]
        if not ((lo <= value) if closed else (lo < value)) or not value <= hi:
            raise ModelError(f"chbm.{name}", f"must be {'at least' if closed else 'above'} {lo:g} and at most "
                                             f"{hi:g} {unit}, got {value:g}".replace("  ", " ").rstrip())
    if study.base == CHBM_BASE:
        p = {"inertia": lm.PAPER_INERTIA, "base_radius": lm.PAPER_BASE_RADIUS, "damping": lm.PAPER_DAMPING,
             "contact_stiffness": lm.PAPER_CONTACT_STIFFNESS, "contact_ratio": lm.PAPER_CONTACT_RATIO, **chbm_params}
        lumped = lm.pair_model(p["inertia"], p["inertia"], p["base_radius"], p["base_radius"], p["damping"], torque,
                               p["contact_ratio"], p["contact_stiffness"])
    else:
        lumped = lumped_from_model(model, study.pair, torque)  # refuses a model that validate() finds in error
    hb = HarmonicBalance(lumped, int(settings["harmonics"]))
    f_min, f_max = float(settings["f_min"]), float(settings["f_max"])
    points = follow(hb, f_min, f_max, df_max=settings["df_max"] or None)
    inside = [q for q in points if f_min <= q.frequency <= f_max]  # a fold can carry the curve out of the range
    peak = max(inside, key=lambda q: q.half_p2p)
    return [float(peak.half_p2p), peak.frequency, peak.mean, float(len(points))], ["m", "Hz", "m", ""], "ok"
