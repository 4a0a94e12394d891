"""Fuzzing: mutated model files, CLI numeric arguments and broken meshes never end in a traceback.

The loader fuzz mutates every example (values, types, keys, nesting, big
integers): each mutated file must give the project's ModelError, or a model
whose torques Check Model refers to its drive without an error, that
validates, and then (when validation finds no error) runs 10 steps without
an internal error and within its drift tolerance. 400 examples per shipped
model (4,000 over the ten examples).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.analysis.train_ratio import balance
from core.cli import main
from core.dynamics.run import prepare
from core.dynamics.checks import drift_tolerances, worst_violation
from core.geometry.mesh_import import FALLBACKS, MeshImportError, import_mesh
from core.model.files import loads
from core.model.views import TRAIN_HARMONICS
from core.errors import ModelError
from core.validation import validate

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
MODELS = sorted(p.stem for p in EXAMPLES.glob("*.gdyn"))
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def _paths(obj, prefix=(), depth: int = 12):
    """Every path into a JSON value (keys and list indices) down to `depth` levels, the value's own path first."""
    yield prefix
    if depth == 0:
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,), depth - 1)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,), depth - 1)


def _at(data, path):
    for key in path:
        data = data[key]
    return data


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


json_scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10**6, max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from([0, -1, 1e-300, 1e300, 1e308, -0.0, 1e6, 10**25, "", "ground", "rk4", "euler", "external"]),
)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                 st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                           max_leaves=8)


@st.composite
def mutated(draw, name: str):
    data = json.loads((EXAMPLES / f"{name}.gdyn").read_text())
    nests: dict[str, str] = {}
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["value", "scale", "scale", "scale", "delete", "unknown_key", "nest", "big_int",
                                     "as_text", "duplicate"]))
        paths = list(_paths(data))[1:]
        if kind == "scale":  # scaled numbers keep the file loadable more often, so the run is reached
            paths = [p for p in paths if _is_number(_at(data, p))] or paths
        path = draw(st.sampled_from(paths))
        parent = _at(data, path[:-1])
        key, old = path[-1], parent[path[-1]]
        if kind == "value":
            parent[key] = draw(json_values)
        elif kind == "scale" and _is_number(old):
            factor = draw(st.sampled_from([-1.0, 0.0, 1e-12, 1e-3, 0.5, 0.9, 1.1, 1.5, 2.0, 1e3, 1e12]))
            try:
                parent[key] = old * factor
            except OverflowError:  # an integer an earlier mutation made too long for a float: it stays
                pass
        elif kind == "delete":
            del parent[key]
        elif kind == "unknown_key" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(json_scalars)
        elif kind == "nest":  # written as text below: json.dumps cannot write 3000 levels
            depth = draw(st.integers(min_value=1, max_value=3000))
            marker = f"@nest{len(nests)}@"
            nests[marker] = "[" * depth + _text(old) + "]" * depth
            parent[key] = marker
        elif kind == "big_int":
            parent[key] = 10 ** draw(st.integers(min_value=18, max_value=6000))
        elif kind == "as_text":
            parent[key] = _text(old)
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(old))
    text = _text(data)  # text, not data: hypothesis could not print a 3000-deep list when it reports
    for marker, nested in reversed(nests.items()):
        text = text.replace(json.dumps(marker), nested)
    return text


def _text(data) -> str:
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the fuzz writes integers the loader must refuse to convert
    try:
        return json.dumps(data)
    finally:
        sys.set_int_max_str_digits(limit)


def check_file(text: str) -> str:
    """Load, validate, run 10 steps; return what happened. Anything but ModelError escaping is a failure."""
    try:
        model = loads(text)
    except ModelError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 2000, str(exc)[:300]
        return "refused"
    findings = validate(model)
    balance(model)  # Check Model's torques referred to the drive, on any model that loads
    # what a run checks (the errors alone, without the checks that find only warnings) is the same errors
    assert validate(model, errors_only=True) == [f for f in findings if f.severity == "error"]
    if any(f.severity == "error" for f in findings):
        return "invalid"
    # samples no finer than the step, so 10 steps stay 10 steps' work (the fuzz is about tracebacks, not output)
    try:
        run = prepare(model, output_step=min(max(model.settings.output_step, model.settings.step),
                                            model.settings.t_end))
    except ModelError as exc:
        assert "\n" not in str(exc)
        return "refused at run"
    run.advance(max_steps=10)
    assert not run.results.message.startswith("internal error"), run.results.message + run.traceback
    if run.status in ("running", "finished"):
        length_tol, angle_tol, _ = drift_tolerances(run.model)
        assert worst_violation(run.system, run.solver.y, length_tol, angle_tol) is None
    return run.status


@pytest.mark.parametrize("name", MODELS)
def test_mutated_examples_never_end_in_a_traceback(name):
    outcomes = []

    @FUZZ
    @given(text=mutated(name))
    def fuzz(text):
        outcomes.append(check_file(text))

    fuzz()
    assert len(outcomes) >= 400
    # the fuzz reaches both sides: files refused with a message and models that run
    assert "refused" in outcomes and ({"running", "finished", "failed"} & set(outcomes)), set(outcomes)


def test_a_bevel_gear_moved_onto_the_pinions_axis_is_refused_naming_the_pair():
    # found by the fuzz above: the gear body's position and orientation dropped, so it sits at the origin, on the
    # pinion's axis; the pair has no pitch point there, its constraint's Jacobian is NaN, and the rank of the rows
    # failed (SVD). The modelling rules now name it; a run that skips them still refuses it at its assembly.
    data = json.loads((EXAMPLES / "bevel_pair.gdyn").read_text())
    gear = next(body for body in data["bodies"] if body["name"] == "gear")
    del gear["position"], gear["orientation"]
    assert check_file(json.dumps(data)) == "invalid"
    with pytest.raises(ModelError) as refused:
        prepare(loads(json.dumps(data)))
    assert [path for path, _ in refused.value.problems] == ["pair"]
    assert "lies on gear 1's axis" in refused.value.problems[0][1]
    with pytest.raises(ModelError) as refused:
        prepare(loads(json.dumps(data)), check=False)
    assert refused.value.problems == [("gear_pairs.pair", "its constraint is not defined at these poses (the "
                                       "Jacobian is not finite): check where its bodies are placed")]


# ------------------------------------------------------------------ CLI numeric arguments


numbers_as_text = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.sampled_from(["0", "-0", "1e308", "1e-320", "nan", "inf", "-inf", "", " ", "1,5", "0x10", "1e9", "1" * 5000]),
)
SIMULATE_FLAGS = ["--step", "--output-step", "--rtol", "--atol", "--rho-inf"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(flag=st.sampled_from(SIMULATE_FLAGS + ["--t-end"]), value=numbers_as_text)
def test_simulate_numeric_arguments(tmp_path_factory, flag, value):
    out = tmp_path_factory.mktemp("cli") / "r.csv"
    args = ["simulate", str(EXAMPLES / "helical_pair.gdyn"), "--out", str(out)]
    if flag == "--t-end":
        try:  # a valid long end time would only make the test slow: those stay short
            if float(value) > 0.003:
                value = "0.003"
        except ValueError:
            pass
        args += ["--t-end", value]
    else:
        try:  # a valid fine step would only make the test slow: those stay at 1e-4 s
            if flag in ("--step", "--output-step") and 0 < float(value) < 1e-4:
                value = "1e-4"
        except ValueError:
            pass
        args += ["--t-end", "0.003", flag, value]
    code = _cli(args)
    assert code in (0, 1, 2)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(flag=st.sampled_from(["--torque", "--contact-stiffness", "--dti-points", "--harmonics", "--f-min", "--df-max"]),
       value=numbers_as_text)
def test_chbm_numeric_arguments(tmp_path_factory, flag, value):
    out = tmp_path_factory.mktemp("cli") / "c.csv"
    args = ["chbm", "--out", str(out), "--f-min", "1500", "--f-max", "1600", "--harmonics", "4"]
    if flag == "--harmonics":
        try:
            if 1 <= int(value) <= 100:
                value = "4" if int(value) > 8 else value  # valid: kept cheap
        except ValueError:
            pass
    if flag == "--f-min":
        try:
            if 0 < float(value) < 1500:
                value = "1550"
        except ValueError:
            pass
    assert _cli(args + [flag, value]) in (0, 1, 2)


TRAIN = str(EXAMPLES / "compliant_planetary.gdyn")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(flag=st.sampled_from(["--torque-scale", "--harmonics", "--newmark", "--df-max", "--speed-max"]),
       value=numbers_as_text)
def test_train_and_modes_numeric_arguments(tmp_path_factory, flag, value):
    """train-chbm's and modes' numbers: a run, or a one-line refusal naming the flag; never a traceback (a torque
    scale of 0 and -1 Newmark points were). Values that are valid are made cheap to run."""
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if flag == "--speed-max":
        args = ["modes", TRAIN, flag, value]
    else:
        if flag == "--newmark" and 1 <= number <= 200:
            value = "0"  # valid: Newmark runs (10 s a frequency here) are test_train_cli's
        if flag == "--harmonics" and 1 <= number <= TRAIN_HARMONICS.hi:
            value = "2"
        if flag == "--df-max" and 0 < number <= 20:
            value = "20"
        out = tmp_path_factory.mktemp("cli") / "t.csv"
        args = ["train-chbm", TRAIN, "--f-min", "1000", "--f-max", "1020", "--harmonics", "2", flag, value,
                "--out", str(out)]
    assert _cli(args) in (0, 1, 2)


def _cli(args) -> int:
    """main() in this process: any exception but SystemExit from argparse is a traceback the user would see."""
    try:
        return main(args)
    except SystemExit as exc:  # argparse's own one-line usage error
        return exc.code


# ------------------------------------------------------------------ mesh import


@st.composite
def broken_meshes(draw):
    import trimesh

    base = draw(st.sampled_from(["box", "sphere", "cylinder"]))
    mesh = {"box": lambda: trimesh.creation.box((10, 20, 30)),
            "sphere": lambda: trimesh.creation.icosphere(1, 15.0),
            "cylinder": lambda: trimesh.creation.cylinder(10.0, 5.0, sections=12)}[base]()
    v, f = np.array(mesh.vertices), np.array(mesh.faces)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["flip", "drop", "nan", "inf", "collapse", "flatten", "scale", "duplicate",
                                     "out_of_range", "random"]))
        k = draw(st.integers(min_value=0, max_value=max(len(f) - 1, 0))) if len(f) else 0
        if kind == "flip" and len(f):
            f[k] = f[k][::-1]
        elif kind == "drop" and len(f):
            f = np.delete(f, k, axis=0)
        elif kind in ("nan", "inf"):
            v[draw(st.integers(min_value=0, max_value=len(v) - 1)), draw(st.integers(0, 2))] = (
                np.nan if kind == "nan" else np.inf)
        elif kind == "collapse":
            v[:] = v[0]
        elif kind == "flatten":
            v[:, draw(st.integers(0, 2))] = 0.0
        elif kind == "scale":
            v *= draw(st.sampled_from([1e-12, 1e-6, 1e6, 1e12]))
        elif kind == "duplicate" and len(f):
            f = np.vstack([f, f[k]])
        elif kind == "out_of_range" and len(f):
            f[k, 0] = len(v) + 5
        elif kind == "random":
            n = draw(st.integers(min_value=1, max_value=8))
            v = np.array(draw(st.lists(st.tuples(*(st.floats(-100, 100),) * 3), min_size=n, max_size=n)), float)
            f = np.array(draw(st.lists(st.tuples(*(st.integers(0, n - 1),) * 3), min_size=1, max_size=10)), int)
    return v, f


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(mesh=broken_meshes(), fallback=st.sampled_from(FALLBACKS))
def test_broken_meshes_give_a_mesh_import_error_or_a_solid(tmp_path_factory, mesh, fallback):
    v, f = mesh
    path = tmp_path_factory.mktemp("mesh") / "part.obj"
    with path.open("w") as fh:
        for p in v:
            fh.write("v {} {} {}\n".format(*(float(x) for x in p)))
        for t in f:
            fh.write("f {} {} {}\n".format(*(int(i) + 1 for i in t)))
    try:
        imported = import_mesh(path, "mm", fallback=fallback)
    except MeshImportError as exc:
        assert "\n" not in str(exc)
        return
    props = imported.mass_properties
    if props is not None:
        assert props.mass > 0 and math.isfinite(props.mass)
        assert np.all(np.isfinite(props.inertia))
