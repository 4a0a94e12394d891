"""Time to generate gears: mesh alone, and mesh plus mass properties (goal: z 50, b 20 mm helical under 0.1 s)."""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.geometry.gear_mesh import gear_mesh  # noqa: E402
from core.geometry.macro import GearSpec  # noqa: E402
from core.geometry.mass_properties import mesh_mass_properties  # noqa: E402

DEG, MM = math.pi / 180, 1e-3
CASES = {
    "helical z50 b20 beta15": GearSpec("helical", 2 * MM, 50, 20 * DEG, 20 * MM, helix_angle=15 * DEG, bore_diameter=20 * MM),
    "spur z50 b20": GearSpec("helical", 2 * MM, 50, 20 * DEG, 20 * MM, bore_diameter=20 * MM),
    "ring z72 b20 beta15": GearSpec("inner", 2 * MM, 72, 20 * DEG, 20 * MM, helix_angle=15 * DEG, rim_diameter=170 * MM),
    "bevel z40 b20": GearSpec("bevel", 3 * MM, 40, 20 * DEG, 20 * MM, pitch_angle=math.atan(2), bore_diameter=20 * MM),
}


def best_of(fn, repeat=7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    gear_mesh(CASES["spur z50 b20"])  # warm imports and caches
    print(f"{'case':26s} {'mesh [ms]':>10s} {'mesh+mass [ms]':>15s} {'triangles':>10s}")
    worst = 0.0
    for name, spec in CASES.items():
        t_mesh = best_of(lambda: gear_mesh(spec))
        t_all = best_of(lambda: mesh_mass_properties(gear_mesh(spec), spec.density))
        print(f"{name:26s} {t_mesh * 1e3:10.1f} {t_all * 1e3:15.1f} {len(gear_mesh(spec).faces):10d}")
        if name.startswith("helical z50"):
            worst = t_all
    goal = 0.1
    print(f"helical z50 b20: {worst * 1e3:.1f} ms = {worst / goal:.2f} x the 100 ms goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
