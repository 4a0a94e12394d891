"""One evaluation of the planetary example's equations, each formulation by each of its paths, side by side.

The goals (issue 17): at most 20 us in joint coordinates and at most 100 us in Cartesian coordinates. Each
path's evaluation is timed at the same states along a run (the example's torque is constant, but the state
is what it is at each instant: the cost does not depend on the law), in rounds that alternate the paths, so
that the machine's drift (up to 2x here within a session) falls on all of them alike; each figure is the
best round's mean. The integrators' own cost per step is an RK4 step's time (by step(), and by leap() as a
run takes the steps between output samples) beside its four evaluations'. The Cartesian paths are also timed
over a whole RK4 run (0.1 s at h 5e-4: the steps, the projections onto the constraints and one output sample),
compiled and not, alternately.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.dynamics.joint_coordinates import JointCoordinateSystem  # noqa: E402
from core.dynamics.run import prepare  # noqa: E402
from core.dynamics.system import System  # noqa: E402
from core.model.files import load  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "planetary.gdyn"
ROUNDS, CALLS = 5, 200


def states(formulation: str, count: int = 10):
    """(t, y) at `count` instants of a Python RK4 run of the planetary (0.05 s at h 5e-4)."""
    run = prepare(load(EXAMPLE), t_end=0.05, step=5e-4, output_step=0.05, integrator="rk4",
                  formulation=formulation, compiled="off")
    found = []
    for k in range(100):
        run.solver.step()
        if k % (100 // count) == 0:
            found.append((run.solver.t, run.solver.y.copy()))
    return found


def timed(evaluate, at) -> float:
    """Mean wall time [s] of one call of evaluate over the states `at`, CALLS calls in all."""
    reps = max(1, CALLS // len(at))
    t0 = time.perf_counter()
    for _ in range(reps):
        for t, y in at:
            evaluate(t, y)
    return (time.perf_counter() - t0) / (reps * len(at))


def main() -> None:
    model = load(EXAMPLE)
    general = JointCoordinateSystem(model, fast_path=False)
    fast = JointCoordinateSystem(model)
    compiled_joint = JointCoordinateSystem(model)
    cartesian = System(model)
    compiled_cartesian = System(model)
    for system in (compiled_joint, compiled_cartesian):
        note = system.compile()
        if note is not None:
            raise SystemExit(f"{system.formulation}: not compiled: {note}")
    joint_states, cartesian_states = states("joint"), states("cartesian")
    paths = {"joint, general path": (general.evaluate, joint_states),
             "joint, Python fast path": (fast.evaluate, joint_states),
             "joint, compiled fast path": (compiled_joint.evaluate, joint_states),
             "Cartesian, Python": (cartesian.evaluate, cartesian_states),
             "Cartesian, compiled": (compiled_cartesian.evaluate, cartesian_states)}
    for evaluate, at in paths.values():  # every path warm before the rounds
        timed(evaluate, at[:2])
    best = {name: float("inf") for name in paths}
    for _ in range(ROUNDS):
        for name, (evaluate, at) in paths.items():
            best[name] = min(best[name], timed(evaluate, at))
    print(f"one evaluation of the planetary ({len(joint_states)} states along a run; best of {ROUNDS} alternating "
          f"rounds of {CALLS} calls):")
    for name, value in best.items():
        print(f"  {name:28s} {value * 1e6:9.1f} us")
    j, c = best["joint, compiled fast path"], best["Cartesian, compiled"]
    print(f"joint coordinates, compiled: {j * 1e6:.1f} us against the goal of 20 us: "
          f"{'met' if j <= 20e-6 else 'NOT met'}; the general path takes {best['joint, general path'] / j:.0f}x as long")
    print(f"Cartesian coordinates, compiled: {c * 1e6:.1f} us against the goal of 100 us: "
          f"{'met' if c <= 100e-6 else 'NOT met'}; the Python evaluation takes {best['Cartesian, Python'] / c:.1f}x as long")

    # the integrators' own cost beside the evaluations: an RK4 step (four evaluations) by step() and by leap()
    print("an RK4 step at h 5e-4, compiled (best of the rounds' mean over 100 steps), against its four evaluations:")
    for name, system in (("joint", compiled_joint), ("Cartesian", compiled_cartesian)):
        evaluation = best[f"{name}, compiled" + (" fast path" if name == "joint" else "")]
        by = {"step()": float("inf"), "leap()": float("inf")}
        for _ in range(ROUNDS):
            solver = prepare(model, t_end=1.0, step=5e-4, output_step=1.0, integrator="rk4",
                             formulation=system.formulation, compiled="on").solver
            t0 = time.perf_counter()
            for _ in range(100):
                solver.step()
            t1 = time.perf_counter()
            taken = solver.leap(1.0, 100)
            t2 = time.perf_counter()
            by["step()"], by["leap()"] = min(by["step()"], (t1 - t0) / 100), min(by["leap()"], (t2 - t1) / taken)
        for how, value in by.items():
            print(f"  {name:9s} by {how:6s} {value * 1e6:8.1f} us a step, four evaluations "
                  f"{4 * evaluation * 1e6:8.1f} us: {value / (4 * evaluation):5.2f}x them")
    print("  (an evaluation timed from Python includes the call's own cost, about 1 us: a leap's stages inside the "
          "kernel do not pay it)")

    runs = {"on": float("inf"), "off": float("inf")}
    for _ in range(2):
        for compiled in runs:
            run = prepare(model, t_end=0.1, step=5e-4, output_step=0.1, integrator="rk4", formulation="cartesian",
                          compiled=compiled)
            t0 = time.perf_counter()
            res = run.run()
            runs[compiled] = min(runs[compiled], time.perf_counter() - t0)
            if res.status != "finished":
                raise SystemExit(f"the Cartesian run ({compiled}) did not finish: {res.message}")
    print(f"a Cartesian RK4 run of 0.1 s at h 5e-4 (200 steps, 800 evaluations, 200 projections): compiled "
          f"{runs['on']:.3f} s, Python {runs['off']:.3f} s: {runs['off'] / runs['on']:.1f}x faster compiled")


if __name__ == "__main__":
    main()
