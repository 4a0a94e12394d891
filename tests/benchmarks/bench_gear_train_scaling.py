"""Cost per step of an N-stage gear train, N = 1, 4, 16, 64, 256: it should grow no faster than linearly in N.

Stage k is a pair between shafts k and k + 1 (z 20 / 40 alternating with 40 / 20,
so the speeds stay bounded), every shaft on a revolute joint to the ground,
1 N m on the first shaft. Printed for both formulations (joint coordinates by the
general path and by the constant matrices, core.dynamics.formulations.joint), all
compiled: wall time per RK4 step and per step and stage, and the growth from
N = 16 to N = 64 and from N = 64 to N = 256.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.commands import AddItem, Macro  # noqa: E402
from core.dynamics.formulations import assemble  # noqa: E402
from core.dynamics.formulations.joint import JointSystem  # noqa: E402
from core.dynamics.integrators import make_integrator  # noqa: E402
from core.dynamics.program.linker import program  # noqa: E402
from core.model import builders  # noqa: E402
from core.model.entities import (  # noqa: E402
    GROUND,
    GearPair,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
)
from core.model.model import Model  # noqa: E402

MODULE = 0.002


def gear_train(stages: int) -> Model:
    items, x = [], 0.0
    teeth = [20 if k % 2 == 0 else 40 for k in range(stages + 1)]
    for k in range(stages + 1):
        if k:
            x += MODULE * (teeth[k - 1] + teeth[k]) / 2
        r = MODULE * teeth[k] / 2
        mass = 7850 * math.pi * r * r * 0.02
        j = 0.5 * mass * r * r
        items.append(RigidBody(f"shaft{k}", mass=mass, inertia=((0.6 * j, 0, 0), (0, 0.6 * j, 0), (0, 0, j)),
                               position=(x, 0.0, 0.0), visual=PrimitiveSource(radius=r, length=0.02)))
        items.append(RevoluteJoint(f"shaft{k}_joint", GROUND, f"shaft{k}", (x, 0.0, 0.0), (0.0, 0.0, 1.0)))
    for k in range(stages):
        items.append(GearPair(f"stage{k}", f"shaft{k}_joint", f"shaft{k + 1}_joint", GROUND, z1=teeth[k], z2=teeth[k + 1],
                              module=MODULE))
    items.append(builders.constant_torque("drive", "shaft0_joint", 1.0))
    model = Model(name=f"train{stages}")
    Macro("build", [AddItem(i) for i in items]).do(model)
    return model


def system_of(stages: int, formulation: str):
    if formulation == "joint, general path":
        return JointSystem(gear_train(stages), program(True), constant=False)
    system = assemble(gear_train(stages), formulation.split(",")[0], compiled=True)
    if formulation.endswith("constant matrices") and system.constant_note != "constant matrices":
        raise SystemExit(f"the {stages}-stage train does not take the constant matrices: {system.constant_note}")
    return system


def cost_per_step(stages: int, formulation: str, steps: int = 40) -> float:
    steps = max(5, steps * 64 // max(stages, 64))  # the long trains take fewer timed steps, not less of each
    if formulation.endswith("constant matrices"):
        steps *= 20  # a step costs microseconds there
    system = system_of(stages, formulation)
    y0 = system.initial_state()
    integ = make_integrator("rk4", system.evaluate, 0.0, y0, 1.0, 1e-4, system.space)
    integ.kernel = system.kernel
    integ.step()
    t0 = time.perf_counter()
    for _ in range(steps):
        integ.step()
    return (time.perf_counter() - t0) / steps


def main() -> int:
    for formulation in ("cartesian", "joint, general path", "joint, constant matrices"):
        print(f"{formulation} coordinates" if formulation == "cartesian" else f"joint coordinates, {formulation[7:]}")
        print(f"{'stages N':>8s} {'rows':>6s} {'per step [ms]':>14s} {'per step and stage [ms]':>24s}")
        costs = {}
        for n in (1, 4, 16, 64, 256):
            costs[n] = c = cost_per_step(n, formulation)
            rows = system_of(n, formulation).rows
            print(f"{n:8d} {rows:6d} {c * 1e3:14.3f} {c / n * 1e3:24.4f}")
        print(f"cost per stage at N = 64 relative to N = 1: {costs[64] / 64 / costs[1]:.2f} "
              "(<= 1 means no worse than linear)")
        print(f"growth from N = 16 to N = 64: {costs[64] / costs[16]:.2f} x for 4 x the stages (linear: 4)")
        print(f"growth from N = 64 to N = 256: {costs[256] / costs[64]:.2f} x for 4 x the stages (linear: 4)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
