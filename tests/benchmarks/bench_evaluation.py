"""One evaluation of the equations and one prepare(): GearDyn as it is against the commit before the one
engine (BASELINE), side by side, with Exudyn's build and assemble of the same planetary beside prepare().

Cases: the planetary example in joint and in Cartesian coordinates, and the lossy gear demo 1 (its own
formulation, joint), each as a run prepares it with compiled kernels asked for (the baseline fell back to
Python where its compiled kernels did not reach: the lossy pair). An evaluation is `run.system.evaluate(t, y)` called from Python at
10 states along the first 100 steps of a run, ROUNDS rounds of CALLS calls, the best round's mean. prepare()
is the planetary's with the model's settings (the kernels loaded from their cache), best of PREPARES in a
warm process. Exudyn (the `bench` extra): the minimal-coordinate planetary of bench_planetary_time_varying.py
built and assembled, best of PREPARES in a warm process.

Each side measures in a process of its own and the processes alternate, round after round, so that the
machine's drift falls on both alike; each figure is the best over the rounds. The baseline is a git worktree
of BASELINE in a temporary folder (its compiled kernels compile there the first time: minutes).
Goals (issue 31): planetary joint at most 4 us, Cartesian at most 50 us, lossy demo 1 at most 5 us, prepare()
of the planetary at most 5 ms.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "74bdea2"  # the commit before the one engine
ROUNDS, CALLS, PREPARES = 5, 200, 10
CASES = (("planetary", "joint"), ("planetary", "cartesian"), ("lossy_gear_demo1", "joint"))
GOALS = {"planetary joint": 4e-6, "planetary cartesian": 50e-6, "lossy_gear_demo1 joint": 5e-6,
         "prepare planetary": 5e-3}


def measure(root: Path) -> dict:
    """Every case's figure [s] with the engine of the source tree `root` (run in a process of its own)."""
    sys.path.insert(0, str(root))
    from core.dynamics.run import prepare
    from core.model.files import load

    examples = root / "resources" / "examples"
    out = {}
    for name, formulation in CASES:
        run = prepare(load(examples / f"{name}.gdyn"), formulation=formulation, compiled="on")
        states = []
        for k in range(100):
            run.solver.step()
            if k % 10 == 0:
                states.append((run.solver.t, run.solver.y.copy()))
        evaluate = run.system.evaluate
        for t, y in states:  # warm
            evaluate(t, y)
        best = float("inf")
        for _ in range(ROUNDS):
            t0 = time.perf_counter()
            for _ in range(CALLS // len(states)):
                for t, y in states:
                    evaluate(t, y)
            best = min(best, (time.perf_counter() - t0) / (CALLS // len(states) * len(states)))
        out[f"{name} {formulation}"] = best
    model = load(examples / "planetary.gdyn")
    prepare(model)
    best = float("inf")
    for _ in range(PREPARES):
        t0 = time.perf_counter()
        prepare(model)
        best = min(best, time.perf_counter() - t0)
    out["prepare planetary"] = best
    return out


def measure_exudyn() -> dict:
    """Exudyn's build and assemble of the minimal-coordinate planetary [s] (run in a process of its own)."""
    sys.path.insert(0, str(ROOT))
    from tests.benchmarks.bench_planetary_time_varying import exudyn_tree_model
    from tests.core.dynamics.test_generalized_alpha import time_varying_planetary

    model = time_varying_planetary()
    exudyn_tree_model(model)
    best = float("inf")
    for _ in range(PREPARES):
        t0 = time.perf_counter()
        exudyn_tree_model(model)
        best = min(best, time.perf_counter() - t0)
    return {"exudyn build and assemble": best}


def child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=1800)
    last = out.stdout.strip().splitlines()[-1:] or [""]
    if out.returncode or not last[0].startswith("{"):
        raise SystemExit(f"{' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
    return json.loads(last[0])


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="geardyn-baseline-"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), BASELINE], check=True,
                   capture_output=True)
    try:
        sides = {"before": str(tree), "now": str(ROOT)}
        try:
            import exudyn  # noqa: F401
        except ImportError:
            exudyn_side = False
            print("exudyn not installed (pip install '.[bench]'): no Exudyn figure")
        else:
            exudyn_side = True
        best: dict = {}
        for r in range(3):  # rounds of the sides alternately; the first round compiles what is not cached
            for side, root in sides.items():
                for key, value in child("--measure", root).items():
                    best[(side, key)] = min(best.get((side, key), float("inf")), value)
            if exudyn_side:
                for key, value in child("--exudyn").items():
                    best[("Exudyn", key)] = min(best.get(("Exudyn", key), float("inf")), value)
            print(f"round {r + 1} done", flush=True)
        print(f"\n{'case':28s} {'before (' + BASELINE + ')':>18s} {'now':>12s} {'before/now':>11s}  goal")
        for key in GOALS:
            before, now = best[("before", key)], best[("now", key)]
            unit, scale = ("ms", 1e3) if key.startswith("prepare") else ("us", 1e6)
            verdict = "met" if now <= GOALS[key] else "NOT met"
            print(f"{key:28s} {before * scale:15.1f} {unit} {now * scale:9.2f} {unit} {before / now:10.2f}x  "
                  f"{GOALS[key] * scale:g} {unit}: {verdict}")
        if exudyn_side:
            e = best[("Exudyn", "exudyn build and assemble")]
            print(f"{'Exudyn build and assemble':28s} {'':18s} {e * 1e3:9.2f} ms  (beside prepare() now: "
                  f"{best[('now', 'prepare planetary')] * 1e3:.2f} ms)")
        print("(an evaluation timed from Python includes the call's own cost, about 0.5 us)")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        print(json.dumps(measure(Path(sys.argv[2]))))
        sys.exit(0)
    if len(sys.argv) == 2 and sys.argv[1] == "--exudyn":
        print(json.dumps(measure_exudyn()))
        sys.exit(0)
    sys.exit(main())
