"""CSV tables with a header row of 'name [unit]', written atomically."""

from __future__ import annotations

import csv
import io

from core.atomic import atomic_write_text


def write_csv(path, header, rows, digits: int = 12) -> None:
    """Write `rows` under `header`; floats with `digits` significant digits."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([f"{v:.{digits}g}" if isinstance(v, float) else v for v in row])
    atomic_write_text(path, buf.getvalue())
