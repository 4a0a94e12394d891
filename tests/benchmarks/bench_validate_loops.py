"""validate() and the loop check of the assembled equations on gear trains with many loops: 100, 200, 400 and
1,000 pairs. The growth from one size to the next is printed (linear growth doubles the time when the pairs
double).

The model is a ladder of equal spur gears (z 20, module 2 mm) on revolute joints to the ground: two rows of C
gears, each meshing with its right neighbour and with the gear across, so C - 1 closed loops of four gears
whose ratios agree (3 C - 2 pairs). Timed: `validate` (the model's rules, loops found on the graph of pairs)
and `check` (validate with the assembled equations' checks: one rank decomposition for every loop, and the
mass matrix's conditioning), each best of two, in one process.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.commands import AddItem, Macro  # noqa: E402
from core.dynamics.checks import check  # noqa: E402
from core.model import builders  # noqa: E402
from core.model.entities import GROUND, GearPair, PrimitiveSource, RevoluteJoint, RigidBody  # noqa: E402
from core.model.model import Model  # noqa: E402
from core.validation import validate  # noqa: E402

MODULE, TEETH = 0.002, 20


def ladder(pairs: int) -> Model:
    """The two-row ladder with about `pairs` gear pairs (3 C - 2 for C gears a row)."""
    columns = max(2, round((pairs + 2) / 3))
    pitch = MODULE * TEETH
    r = pitch / 2
    mass = 7850 * math.pi * r * r * 0.02
    j = 0.5 * mass * r * r
    items = []
    for row in range(2):
        for c in range(columns):
            name, at = f"g{row}_{c}", (c * pitch, row * pitch, 0.0)
            items.append(RigidBody(name, mass=mass, inertia=((0.6 * j, 0, 0), (0, 0.6 * j, 0), (0, 0, j)),
                                   position=at, visual=PrimitiveSource(radius=0.95 * r, length=0.02)))
            items.append(RevoluteJoint(f"{name}_joint", GROUND, name, at, (0.0, 0.0, 1.0)))
    links = [((row, c), (row, c + 1)) for row in range(2) for c in range(columns - 1)]
    links += [((0, c), (1, c)) for c in range(columns)]
    for (ra, ca), (rb, cb) in links:
        items.append(GearPair(f"p{ra}_{ca}_{rb}_{cb}", f"g{ra}_{ca}_joint", f"g{rb}_{cb}_joint", GROUND, z1=TEETH,
                              z2=TEETH, module=MODULE))
    items.append(builders.constant_torque("drive", "g0_0_joint", 1.0))
    model = Model(name=f"ladder{pairs}")
    Macro("build", [AddItem(i) for i in items]).do(model)
    return model


def best(fn, model, repeats: int = 2) -> tuple[float, list]:
    times, found = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        found = fn(model)
        times.append(time.perf_counter() - t0)
    return min(times), found


def main() -> int:
    print(f"{'pairs':>6} {'loops':>6} {'validate [s]':>13} {'growth':>7} {'check [s]':>10} {'growth':>7}  errors")
    last = None
    for n in (100, 200, 400, 1000):
        model = ladder(n)
        t_val, _ = best(validate, model)
        t_chk, found = best(check, model)
        loops = len(model.gear_pairs) - (len(model.bodies) - 1)
        errors = sum(f.severity == "error" for f in found)
        growth = (f"{t_val / last[0]:7.2f} ", f"{t_chk / last[1]:7.2f} ") if last else (" " * 8, " " * 8)
        print(f"{len(model.gear_pairs):6d} {loops:6d} {t_val:13.3f} {growth[0]}{t_chk:10.3f} {growth[1]} {errors}",
              flush=True)
        last = (t_val, t_chk)
    print("growth: the time over that of the size before (pairs x2, x2, x2.5); linear growth is 2, 2, 2.5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
