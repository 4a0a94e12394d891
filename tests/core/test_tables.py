"""A time law's table read from CSV (core.tables.read_table): what it keeps, and each bad file as one line; the
table law's values between its rows."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model.entities import LAW_CODES, law_value
from core.tables import MAX_TABLE_BYTES, TableError, read_table


@pytest.mark.parametrize("text, rows", [
    ("t [s], torque [N m]\n0, 1\n1, 2\n", ((0.0, 1.0), (1.0, 2.0))),  # a header
    ("0, 1\n1, 2\n", ((0.0, 1.0), (1.0, 2.0))),  # data from the first row: kept
    ("\ufeff0,1\n1,2\n", ((0.0, 1.0), (1.0, 2.0))),  # a spreadsheet's byte-order mark before the first number
    ("time\n\n0,5\n\n2,6\n", ((0.0, 5.0), (2.0, 6.0))),  # blank lines
])
def test_a_table_keeps_every_row_of_numbers(tmp_path, text, rows):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    assert read_table(path) == rows


@pytest.mark.parametrize("text, words", [
    ("0,1\n1,x\n", "row 2: must hold two finite numbers"),
    ("t,1\n1,2\n", "row 1: must hold two finite numbers"),  # a number in the first row: data, not a header
    ("0,1\n0,2\n", "must increase"),
    ("0,1,2\n", "row 1: must hold two finite"),
    ("0,inf\n", "row 1: must hold two finite"),
    ("", "holds no rows"),
    ("0,1\n" + "9" * 200_000 + ",1\n", "row 2: "),  # a 200,000-character field: csv's own limit
    ("0,1\n1," + "1" * 2000 + "\n", "row 2: a cell of more than 1000 characters"),
])
def test_bad_tables_are_refused_naming_the_row(tmp_path, text, words):
    path = tmp_path / "t.csv"
    path.write_text(text)
    with pytest.raises(TableError, match=words):
        read_table(path)


def test_fifos_folders_and_huge_files_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = []
    reader = threading.Thread(target=lambda: result.append(pytest.raises(TableError, read_table, fifo)), daemon=True)
    reader.start()
    reader.join(10.0)
    assert result and "not a regular file" in str(result[0].value)  # and it did not block in open()
    with pytest.raises(TableError, match="not a regular file"):
        read_table(tmp_path)
    big = tmp_path / "big.csv"
    with big.open("wb") as fh:
        fh.truncate(MAX_TABLE_BYTES + 1)  # sparse: nothing written
    with pytest.raises(TableError, match="a table may be at most 67 MB"):
        read_table(big)
    with pytest.raises(TableError, match="cannot be read"):
        read_table(tmp_path / "none.csv")


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(st.floats(1e-3, 10.0), min_size=1, max_size=8),
       values=st.lists(st.floats(-1e3, 1e3), min_size=9, max_size=9),
       at=st.lists(st.floats(-0.5, 1.5), min_size=1, max_size=10))
def test_a_table_law_is_numpys_interp_between_its_rows_and_held_at_its_ends(steps, values, at):
    """The kernels' table law (written out so that it compiles without reference counts) against numpy's interp."""
    times = np.concatenate([[0.0], np.cumsum(steps)])
    values = np.array(values[:len(times)])
    for fraction in at:
        t = fraction * times[-1]
        got = law_value(LAW_CODES["table"], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, times, values, t)
        assert got == pytest.approx(float(np.interp(t, times, values)), rel=1e-12, abs=1e-12)
    for i, t in enumerate(times):  # at its rows: the row's value
        assert law_value(LAW_CODES["table"], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, times, values, t) == values[i]
