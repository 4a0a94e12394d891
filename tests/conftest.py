"""Shared test helpers."""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pytest

from core.geometry.macro import GearSpec
from core.model import builders
from core.model.entities import GROUND, CompliantMesh, FixedJoint, GearPair, RevoluteJoint
from core.model.model import Model

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "resources" / "examples"

#: The suite's longest files, longest first (1 to 3 minutes each of its 28 on two workers): `--dist loadfile`
#: hands a worker the next file in collection order, so these start first and the short ones fill in around
#: them, rather than a long one handed out late running alone at the end.
LONGEST_FIRST = ("tests/core/dynamics/test_ahead_of_time.py", "tests/core/test_fuzz.py",
                 "tests/app/test_study_window.py", "tests/core/chbm/test_train_multi_frequency.py",
                 "tests/app/test_train_window.py", "tests/app/test_telemetry.py", "tests/app/test_runs.py",
                 "tests/core/dynamics/test_results_file_damage.py")


def pytest_collection_modifyitems(config, items):
    rank = {path: k for k, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest keep their order


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


def two_stage_reducer(own_joint: bool = False, second_pair: bool = True, stiffness=None):
    """A two-stage spur reducer, module 2 mm, on ground joints: g1 (20 teeth) drives g2 (40) on pair p1; g3 (18),
    25 mm along g2's shaft and welded to g2 ('shaft'), drives g4 (45) on pair p2. g3 sits either on its own
    revolute joint as well (what the Gear Pair dialog's 'Create revolute joints' makes) or only on the weld,
    named in p2's gear1. `stiffness`: (k1, k2) [N/m] makes both meshes compliant, constant and undamped."""
    model = Model(name="two_stage")
    places = {"g1": (20, (0.0, 0.0, 0.0)), "g2": (40, (0.06, 0.0, 0.0)), "g3": (18, (0.06, 0.0, 0.025)),
              "g4": (45, (0.123, 0.0, 0.025))}
    for name, (teeth, where) in places.items():
        model.bodies[name] = builders.gear_body(name, GearSpec("helical", 0.002, teeth, math.radians(20), 0.02,
                                                               bore_diameter=0.01), position=where)
        if name != "g3" or own_joint:
            model.joints[name + "_j"] = RevoluteJoint(name + "_j", GROUND, name, where, (0.0, 0.0, 1.0))
    model.joints["shaft"] = FixedJoint("shaft", "g2", "g3", (0.06, 0.0, 0.0125))
    model.gear_pairs["p1"] = GearPair("p1", "g1_j", "g2_j", GROUND, z1=20, z2=40, module=0.002, face_width=0.02)
    if second_pair:
        joint1, gear1 = ("g3_j", "") if own_joint else ("g2_j", "g3")
        model.gear_pairs["p2"] = GearPair("p2", joint1, "g4_j", GROUND, z1=18, z2=45, module=0.002, face_width=0.02,
                                          gear1=gear1)
    for pair, k in zip(("p1", "p2"), stiffness or ()):
        model.forces[pair + "_mesh"] = CompliantMesh(pair + "_mesh", pair, stiffness="given", k_mean=k,
                                                     waveform="cosine", damping_model="constant", damping=0.0)
    return model
