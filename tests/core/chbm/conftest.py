"""Shared CHBM fixtures: the paper's curve at T = 100 N m (computed once per session)."""

import pytest

from core.chbm.lumped_model import paper_model
from core.chbm.study import run_study


@pytest.fixture(scope="session")
def paper_curve_100():
    (result,) = run_study(paper_model, [100.0], 500.0, 4000.0, harmonics=14)
    return result
