"""Fuzzing the files a user hands the program besides models: table-law CSVs, study files and loss tables.

Each generated input gives either a correct result (checked against what the input says) or the project's
one-line error naming what is wrong; never a traceback. Damaged results files are fuzzed in
tests/core/dynamics/test_results_file_damage.py.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.commands import replace_fields
from core.errors import GearDynError, ModelError
from core.model.files import load
from core.studies.study_file import study_from_dict
from core.tables import TableError, read_table
from core.validation import validate
from tests.conftest import EXAMPLES

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None)

numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30))
cells = st.one_of(numbers.map(str), st.text(max_size=12), st.sampled_from(["", " ", "t [s]", "1e400", "nan", '"']))


@FUZZ
@given(rows=st.lists(st.lists(cells, max_size=4), max_size=12), bom=st.booleans(), sep=st.sampled_from([",", ";"]))
def test_table_csvs_give_their_rows_or_a_table_error(tmp_path_factory, rows, bom, sep):
    path = tmp_path_factory.mktemp("tables") / "t.csv"
    path.write_text(("\ufeff" if bom else "") + "\n".join(sep.join(r) for r in rows), encoding="utf-8")
    try:
        table = read_table(path)
    except TableError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert table and all(len(r) == 2 and all(math.isfinite(v) for v in r) for r in table)
    assert all(b[0] > a[0] for a, b in zip(table, table[1:]))


json_values = st.recursive(st.one_of(st.none(), st.booleans(), numbers.filter(lambda v: not isinstance(v, float)
                                                                              or math.isfinite(v)),
                                     st.text(max_size=20)),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=10), inner, max_size=4)),
                           max_leaves=20)


@st.composite
def study_dicts(draw):
    """The example study with one part replaced by a random JSON value (or a field added or removed)."""
    data = json.loads((EXAMPLES / "planetary_study.json").read_text())
    where = draw(st.sampled_from(["base", "parameters", "combine", "analysis", "parameters.0", "parameters.0.path",
                                  "parameters.0.values", "parameters.1.grid", "parameters.1.grid.count",
                                  "analysis.kind", "analysis.t_end", "analysis.outputs", "analysis.outputs.0",
                                  "extra"]))
    node, keys = data, where.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    value = draw(json_values)
    if draw(st.booleans()) and last != "extra" and not isinstance(node, list):
        node.pop(last, None)
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


@FUZZ
@given(data=study_dicts())
def test_study_files_give_a_study_or_a_model_error(data):
    try:
        study = study_from_dict(data, str(EXAMPLES / "planetary_study.json"))
    except ModelError as exc:
        assert "\n" not in str(exc) and exc.path, str(exc)
        return
    cases = study.cases()
    assert cases and all(len(c) == len(study.parameters) for c in cases)
    assert all(math.isfinite(v) for c in cases for v in c)


loss_cells = st.one_of(st.floats(min_value=-2.0, max_value=200.0), st.floats(allow_nan=True, allow_infinity=True),
                       st.integers(-5, 5), st.none(), st.text(max_size=3))


@FUZZ
@given(table=st.lists(st.lists(loss_cells, min_size=0, max_size=6), min_size=1, max_size=4))
def test_loss_tables_are_refused_naming_the_cell_or_hold_efficiencies_in_range(table):
    model = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    rows = tuple(tuple(r) for r in table)
    try:
        replace_fields(model, "gear", loss_table=rows).do(model)
    except GearDynError as exc:
        assert str(exc).startswith("loss_table["), str(exc)
        return
    assert not [f for f in validate(model) if f.severity == "error"]
    for row in rows:  # what was accepted: five finite numbers, efficiencies in (0, 1], frictions at least 0
        assert len(row) == 5 and 0 < row[1] <= 1 and 0 < row[2] <= 1 and row[3] >= 0 and row[4] >= 0
