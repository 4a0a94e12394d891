"""CSV tables: written with a header row of 'name [unit]', atomically; a time law's table read as two columns of
numbers, with every way a file can be wrong named in one line."""

from __future__ import annotations

import csv
import io
import math
import os
import stat

from core.atomic import atomic_write_text
from core.errors import GearDynError

MAX_TABLE_ROWS = 1_000_000
MAX_TABLE_BYTES = 64 * 1024 * 1024  # a million rows of two numbers fit in a quarter of it
MAX_CELL = 1000  # characters: a number is at most a few dozen


class TableError(GearDynError, ValueError):
    """A CSV table that is not two columns of numbers; the message names the row."""


def write_csv(path, header, rows, digits: int = 12) -> None:
    """Write `rows` under `header`; floats with `digits` significant digits."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([f"{v:.{digits}g}" if isinstance(v, float) else v for v in row])
    atomic_write_text(path, buf.getvalue())


def read_table(path) -> tuple[tuple[float, float], ...]:
    """Rows (t [s], value) of a two-column CSV file (comma-separated, UTF-8 with or without a byte-order mark).

    A first row with no number in it is a header and is skipped; any other row must hold two finite numbers,
    the times increasing. Devices and FIFOs are refused before they are opened (reading one would block), and
    so are files over MAX_TABLE_BYTES and cells over MAX_CELL characters.
    """
    try:
        info = os.stat(path)
    except OSError as exc:
        raise TableError(f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise TableError("is not a regular file (a device, FIFO or folder)")
    if info.st_size > MAX_TABLE_BYTES:
        raise TableError(f"is {info.st_size / 1e6:.0f} MB; a table may be at most {MAX_TABLE_BYTES / 1e6:.0f} MB")
    rows: list[tuple[float, float]] = []
    k = 0
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh)
            for k, row in enumerate(reader, start=1):
                cells = [c.strip() for c in row if c.strip()]
                if cells:
                    number = _table_row(k, cells)
                    if number is not None:
                        rows.append(number)
                if len(rows) > MAX_TABLE_ROWS:
                    raise TableError(f"more than {MAX_TABLE_ROWS:,} rows")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"cannot be read ({exc})") from None
    except csv.Error as exc:
        raise TableError(f"row {k + 1}: is not CSV ({exc})") from None
    if not rows:
        raise TableError("holds no rows of numbers")
    if any(b[0] <= a[0] for a, b in zip(rows, rows[1:])):
        raise TableError("times in the first column must increase from row to row")
    return tuple(rows)


def _table_row(k: int, cells: list[str]) -> tuple[float, float] | None:
    """Row k's (t, value), or None for a header (row 1 without a number in it)."""
    if any(len(c) > MAX_CELL for c in cells):
        raise TableError(f"row {k}: a cell of more than {MAX_CELL} characters is not a number")
    numbers = []
    for c in cells:
        try:
            numbers.append(float(c))
        except ValueError:
            numbers.append(None)
    if k == 1 and all(v is None for v in numbers):
        return None
    if len(numbers) != 2 or None in numbers or not all(math.isfinite(v) for v in numbers):
        raise TableError(f"row {k}: must hold two finite numbers (t [s], value), got {', '.join(cells)[:60]!r}")
    return numbers[0], numbers[1]
