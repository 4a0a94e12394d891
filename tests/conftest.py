"""Shared test helpers."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


def wait_for_line(stream, start: str, seconds: float = 600.0) -> None:
    """Read `stream` until a line that starts with `start` (or fail after `seconds`): a moment the command has
    reached, rather than a guess of how long it takes to get there."""
    found = threading.Event()

    def read():
        for line in stream:
            if line.startswith(start):
                found.set()
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert found.wait(seconds), f"no line starting {start!r} within {seconds} s"
