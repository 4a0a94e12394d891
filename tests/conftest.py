"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
