"""Project files: round trip, strict rejection of bad input, atomic saving."""

import copy
import json
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import atomic
from core.model import files
from core.model.files import dumps, load, loads, model_to_dict, save
from core.errors import ModelError
from tests.conftest import EXAMPLES
from tests.core.strategies import models


@given(models())
@settings(max_examples=150, deadline=None)
def test_random_valid_models_round_trip(model):
    assert not model.structural_problems()
    again = loads(dumps(model))
    assert again == model
    assert dumps(again) == dumps(model)


def _example_data():
    return json.loads((EXAMPLES / "planetary.gdyn").read_text())


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


ALL_PATHS = [p for p in _paths(_example_data()) if p]
JUNK = [None, "x", -5, 0, 1.5, -1e9, 1e300, True, [], {}, [1, 2], {"type": "nope"}, float("nan"), float("inf")]


@given(st.lists(st.tuples(st.sampled_from(ALL_PATHS), st.sampled_from(JUNK + ["<delete>", "<unknown-key>"])),
                min_size=1, max_size=3))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_malformed_files_are_rejected_or_give_a_consistent_model(edits):
    data = _example_data()
    for path, junk in edits:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            if junk == "<delete>":
                del parent[last]
            elif junk == "<unknown-key>":
                if isinstance(parent[last], dict):
                    parent[last]["surprise"] = 1
            else:
                parent[last] = copy.deepcopy(junk)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed that place
    text = json.dumps(data)  # NaN and Infinity come out as JSON's non-standard tokens
    try:
        model = loads(text)
    except ModelError as exc:
        assert ":" in str(exc)  # names a field
        return
    assert model.structural_problems() == []


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d["gear_pairs"][0].update(z1=-5), "gear_pairs[0].z1"),
        (lambda d: d["gear_pairs"][0].update(z1=20.5), "gear_pairs[0].z1"),
        (lambda d: d["gear_pairs"][0].update(module="2"), "gear_pairs[0].module"),
        (lambda d: d["bodies"][0].pop("mass"), "bodies[0].mass"),
        (lambda d: d["bodies"][0].update(mass=-1.0), "bodies[0].mass"),
        (lambda d: d["bodies"][0].update(position=[0.0, 0.0]), "bodies[0].position"),
        (lambda d: d["bodies"][0].update(orientation=[2.0, 0.0, 0.0, 0.0]), "bodies[0].orientation"),
        (lambda d: d["bodies"][0].update(inertia=[[1, 0, 0], [0, -1, 0], [0, 0, 1]]), "bodies[0].inertia"),
        (lambda d: d["joints"][0].update(body_j="nobody"), "body_j"),
        (lambda d: d["gear_pairs"][0].update(joint1="sun"), "joint1"),
        (lambda d: d["joints"][0].update(type="slider"), "joints[0].type"),
        (lambda d: d["joints"][0].update(axis=[0.0, 0.0, 0.0]), "joints[0].axis"),
        (lambda d: d["forces"][0].update(law={"kind": "python", "value": 0}), "forces[0].law.kind"),
        (lambda d: d.update(format_version=99), "format_version"),
        (lambda d: d["bodies"].append(copy.deepcopy(d["bodies"][0])), "bodies[6].name"),
        (lambda d: d["bodies"][0].update(colour="red"), "bodies[0].colour"),
        (lambda d: d.update(views={"train": {"torque_scales": [1.0, -2.0]}}), "views.train.torque_scales"),
        (lambda d: d.update(views={"train": {"f_min": 900.0, "f_max": 500.0}}), "views.train.f_min"),
        (lambda d: d.update(views={"train": {"harmonics": 0}}), "views.train.harmonics"),
        (lambda d: d.update(views={"train": {"newmark_points": 201}}), "views.train.newmark_points"),
        (lambda d: d.update(views={"train": {"newmark_points": 2.5}}), "views.train.newmark_points"),
        # 400 Hz in steps of at most 0.019 Hz needs 21,053 points: more than a curve holds
        (lambda d: d.update(views={"chbm": {"f_min": 1000.0, "f_max": 1400.0, "df_max": 0.019}}),
         "views.chbm.df_max: must be at least 0.02 Hz for this range: a curve holds at most 20000 points"),
        (lambda d: d.update(views={"train": {"f_min": 1000.0, "f_max": 1400.0, "df_max": 0.019}}),
         "views.train.df_max: must be at least 0.02 Hz for this range"),
        # a sweep of one frequency is no sweep; the window, the model file and `geardyn chbm` share one range
        (lambda d: d.update(views={"chbm": {"dti_points": 1}}),
         "views.chbm.dti_points: must be 0 (none) or a whole number from 2 to 2000, got 1"),
        (lambda d: d.update(views={"chbm": {"dti_points": 2001}}), "views.chbm.dti_points: must be 0 (none) or"),
    ],
)
def test_malformed_input_names_the_field(edit, field):
    data = _example_data()
    edit(data)
    with pytest.raises(ModelError) as info:
        loads(json.dumps(data))
    assert field in str(info.value)


def test_nan_and_bad_json_are_rejected():
    data = _example_data()
    data["bodies"][0]["mass"] = math.nan
    with pytest.raises(ModelError, match="NaN"):
        loads(json.dumps(data))
    with pytest.raises(ModelError, match="not valid JSON at line 1"):
        loads("{ not json")
    with pytest.raises(ModelError, match="must hold a JSON object"):
        loads("[1, 2]")


def test_loading_never_evaluates_code(tmp_path):
    data = _example_data()
    data["name"] = "__import__('os').system('touch " + str(tmp_path / "pwned") + "')"
    model = loads(json.dumps(data))
    assert model.name.startswith("__import__")  # kept as a plain string
    assert not (tmp_path / "pwned").exists()


def test_load_reports_the_file_and_unreadable_files(tmp_path):
    bad = tmp_path / "bad.gdyn"
    bad.write_text("{}")
    with pytest.raises(ModelError, match="bad.gdyn: format_version"):
        load(bad)
    with pytest.raises(ModelError, match="cannot be read"):
        load(tmp_path / "missing.gdyn")
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ModelError, match="not a UTF-8"):
        load(bad)


def test_save_is_atomic(tmp_path, monkeypatch):
    model = load(EXAMPLES / "planetary.gdyn")
    target = tmp_path / "model.gdyn"
    save(model, target)
    before = target.read_text()
    model.name = "changed"

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        save(model, target)
    assert target.read_text() == before
    assert sorted(os.listdir(tmp_path)) == ["model.gdyn"]  # no temporary file left behind
    monkeypatch.undo()
    save(model, target)
    assert load(target).name == "changed"


def test_saved_files_hold_si_values_and_the_format_version():
    data = model_to_dict(load(EXAMPLES / "helical_pair.gdyn"))
    assert data["format_version"] == files.FORMAT_VERSION
    assert data["gear_pairs"][0]["module"] == 0.002  # metres
    assert data["gear_pairs"][0]["helix_angle"] == pytest.approx(math.radians(15))  # radians
