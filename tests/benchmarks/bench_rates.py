"""A rate and a projection of every example in each formulation it allows, compiled, from Python.

A rate is what one stage of an explicit step costs inside the kernel: `kernel.stages` with the four stages of
RK4 less the same call with none, over four. A projection (a step's end: the state moved back onto the
constraints) is `kernel.project` less the empty call. Both at the consistent start, best of ROUNDS rounds of
CALLS calls each. Besides the examples: the planetary under a time-varying load (bench_planetary_time_varying)
and a compliant helical planetary as the Planetary Gearset dialog makes it (no bearings, so joint coordinates
take it too). What the element physics costs in each kernel, side by side; figures in README.md.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.commands import AddItem  # noqa: E402
from core.dynamics.integrators.explicit import RK4  # noqa: E402
from core.dynamics.run import prepare  # noqa: E402
from core.errors import ModelError  # noqa: E402
from core.model import builders  # noqa: E402
from core.model.files import load  # noqa: E402
from core.model.model import Model  # noqa: E402
from tests.core.dynamics.test_generalized_alpha import time_varying_planetary  # noqa: E402

ROUNDS = 5
CALLS = {"joint": 3000, "cartesian": 500}


def dialog_planetary() -> Model:
    """The Planetary Gearset dialog's set with its defaults, a 15 deg helix and compliant meshes."""
    model = Model()
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.02, math.radians(20), helix_angle=math.radians(15))
    items += builders.compliant_meshes(items)
    items += [builders.held_joint("ring_hold", "ring_joint"), builders.constant_torque("sun_torque", "sun_joint", 1.0)]
    for item in items:
        AddItem(item).do(model)
    return model


def best_mean(call, count: int) -> float:
    """The best over ROUNDS of the mean time of `count` calls [s]."""
    call()
    best = math.inf
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(count):
            call()
        best = min(best, (time.perf_counter() - t0) / count)
    return best


def main() -> None:
    cases = [("time-varying planetary", time_varying_planetary()), ("dialog's compliant planetary", dialog_planetary())]
    cases += [(path.stem, load(path)) for path in sorted((ROOT / "resources" / "examples").glob("*.gdyn"))]
    print(f"{'model':30s} {'formulation':11s} {'rate':>9s} {'projection':>11s}")
    for name, model in cases:
        for formulation in ("joint", "cartesian"):
            try:
                run = prepare(model, t_end=0.01, step=1e-5, output_step=0.01, integrator="rk4",
                              formulation=formulation, compiled="on")
            except ModelError as exc:  # members on bearings: no joint coordinates
                print(f"{name:30s} {formulation:11s} {'refused':>9s} ({exc.problems[0][1][:60]})")
                continue
            kernel, count = run.system.kernel, CALLS[formulation]
            y = run.system.consistent_initial_state()[0]
            stages = np.zeros((4, kernel.tangent_size(y)))
            empty = best_mean(lambda: kernel.stages(1e-3, y, 1e-5, RK4.A, RK4.C, stages, 0, 0), count)
            four = best_mean(lambda: kernel.stages(1e-3, y, 1e-5, RK4.A, RK4.C, stages, 0, 4), count)
            project = best_mean(lambda: kernel.project(1e-3, y), count)
            print(f"{name:30s} {formulation:11s} {(four - empty) / 4 * 1e6:6.2f} us {(project - empty) * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
