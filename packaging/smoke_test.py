"""Smoke test of the frozen application (run by `make package`, not by `make test`).

Runs dist/geardyn/geardyn as a user would, with an empty home folder (so an empty kernel cache: the first
compiled run is a first use), and checks every step by its results, not only its exit code:

1. the app on each example under Xvfb (GEARDYN_SMOKE_TEST, app/smoke.py): it draws the bodies and quits, and
   Qt's collation sorts names as ICU's root order does (the app ships ICU's data trimmed);
2. the app on the planetary: Simulate > Run, then Telemetry's Export CSV of every channel; the CSV holds the
   whole run and the carrier turns at a quarter of the sun's speed (Willis: z_s / (z_s + z_r) = 1/4); then
   File > Export Video: an MP4 of 31 frames, through the ffmpeg the app ships packed;
3. `geardyn simulate` of the planetary compiled, 2 s at h = 1e-4, twice: the plan says compiled ahead of time
   (the shipped kernel module: the app ships no numba), the first run takes at most 1.5 times the second
   (nothing compiles), both give the Willis ratio;
4. `geardyn chbm` on the paper's pair: the curve the installed GearDyn computes, point for point, and its plot
   (a PNG of the figure's size, drawn with no font missing: the app ships matplotlib's DejaVu Sans alone);
5. `geardyn study` of two cases on two local workers: both ok, and the final sun speed of the 2 N m case twice
   that of the 1 N m case (from rest under a constant torque, the speed grows as the torque);
6. `geardyn validate` of an example.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import imageio_ffmpeg
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "dist" / "geardyn" / "geardyn"
EXAMPLES = ROOT / "resources" / "examples"
PLANETARY = EXAMPLES / "planetary.gdyn"
FIRST_RUN_RATIO = 1.5
COLLATED = "a b B file2 file10"  # app/smoke.py's names in ICU's root collation, numbers by value


class Smoke:
    def __init__(self, home: Path):
        self.home, self.failures = home, 0
        self.env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
                    "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
        self.env.pop("GEARDYN_KERNEL_CACHE", None)

    def run(self, args, env=None, timeout=600):
        t0 = time.perf_counter()
        res = subprocess.run([str(APP), *map(str, args)], env={**self.env, **(env or {})}, capture_output=True,
                             text=True, timeout=timeout, check=False)
        return res, time.perf_counter() - t0

    def check(self, ok: bool, what: str, res=None) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures += 1
            if res is not None:
                print(res.stdout[-2000:], res.stderr[-3000:], sep="\n", file=sys.stderr)


def table(path: Path) -> tuple[list[str], np.ndarray]:
    """The header and the numeric columns of a CSV (a column of words, as the CHBM's 'method', left out)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    numeric = [k for k, cell in enumerate(rows[1]) if cell.lstrip("-").replace(".", "", 1)[:1].isdigit()
               or cell.lower() in ("nan", "inf", "-inf")] if len(rows) > 1 else []
    return [rows[0][k] for k in numeric], np.array([[row[k] for k in numeric] for row in rows[1:]], dtype=float)


def willis(path: Path) -> tuple[int, float]:
    """Rows of a planetary run's CSV and the carrier-to-sun speed ratio at its end."""
    head, data = table(path)
    return len(data), data[-1, head.index("carrier_joint.speed [rad/s]")] / data[-1, head.index("sun_joint.speed [rad/s]")]


def plot_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG [px] from its header ((0, 0) if the file is missing or not a PNG)."""
    head = path.read_bytes()[:24] if path.is_file() else b""
    if not head.startswith(b"\x89PNG"):
        return 0, 0
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def video_frames(path: Path) -> int:
    """Frames of an MP4, counted by the installed imageio-ffmpeg (0 if the file is missing or unreadable)."""
    try:
        return imageio_ffmpeg.count_frames_and_secs(str(path))[0]
    except (OSError, RuntimeError):
        return 0


def gui_steps(smoke: Smoke) -> None:
    for example in sorted(EXAMPLES.glob("*.gdyn")):
        res, _ = smoke.run(["gui", example], env={"GEARDYN_SMOKE_TEST": "1"}, timeout=180)
        said = res.stdout.strip().splitlines()
        smoke.check(res.returncode == 0 and "drew" in res.stdout and "Traceback" not in res.stderr,
                    f"app on {example.name}: {said[-1] if said else 'nothing said'} (exit {res.returncode})", res)
    collation = next((line for line in said if "collation" in line), "no collation line")
    smoke.check(collation.endswith(COLLATED), f"app: {collation} (ICU's root order: {COLLATED})", res)
    out, mp4 = smoke.home / "app-export.csv", smoke.home / "app-export.mp4"
    res, seconds = smoke.run(["gui", PLANETARY], env={"GEARDYN_SMOKE_TEST": "1", "GEARDYN_SMOKE_EXPORT": str(out),
                                                      "GEARDYN_SMOKE_VIDEO": str(mp4)})
    rows, ratio = willis(out) if out.is_file() else (0, float("nan"))
    smoke.check(res.returncode == 0 and "Traceback" not in res.stderr and rows == 1001 and abs(ratio - 0.25) < 1e-9,
                f"app: planetary run and Export CSV: {rows} rows, carrier/sun speed {ratio:.12f} ({seconds:.1f} s)",
                res)
    frames = video_frames(mp4)
    smoke.check(frames == 31, f"app: Export Video through the shipped ffmpeg: {frames} frames (1 s at 30 fps: 31)")


def simulate_steps(smoke: Smoke) -> None:
    seconds, fine = [], True
    for k in (1, 2):
        out = smoke.home / f"planetary-{k}.csv"
        res, took = smoke.run(["simulate", PLANETARY, "--t-end", 2, "--step", 1e-4, "--compiled", "on", "--out", out])
        rows, ratio = willis(out) if out.is_file() else (0, float("nan"))
        plan = next((line for line in res.stdout.splitlines() if line.startswith("plan:")), "no plan line")
        ok = res.returncode == 0 and rows >= 2 and abs(ratio - 0.25) < 1e-9 and "ahead of time" in plan
        smoke.check(ok, f"simulate planetary compiled, run {k}: {took:.2f} s, {rows} rows, carrier/sun {ratio:.12f}",
                    res)
        fine = fine and ok
        print(f"     {plan}")
        seconds.append(took)
    smoke.check(fine and seconds[0] <= FIRST_RUN_RATIO * seconds[1],
                f"first compiled run {seconds[0]:.2f} s within {FIRST_RUN_RATIO}x of the second {seconds[1]:.2f} s "
                f"({seconds[0] / seconds[1]:.2f}x)")


def chbm_step(smoke: Smoke) -> None:
    frozen, installed = smoke.home / "chbm-frozen.csv", smoke.home / "chbm-installed.csv"
    plot = smoke.home / "chbm.png"
    res, took = smoke.run(["chbm", "--out", frozen, "--plot", plot])
    subprocess.run([sys.executable, "-m", "app.launch", "chbm", "--out", str(installed)], cwd=ROOT,
                   capture_output=True, check=True, timeout=600)
    head, got = table(frozen) if frozen.is_file() else ([], np.zeros((0, 0)))
    _, want = table(installed)
    same = got.shape == want.shape and np.allclose(got, want, rtol=1e-9, atol=1e-15)
    smoke.check(res.returncode == 0 and same and len(got) > 100 and "stable" in head,
                f"chbm on the paper's pair: {len(got)} curve points, the installed GearDyn's curve "
                f"{'to 1e-9' if same else 'NOT matched'} ({took:.1f} s)", res)
    size = plot_size(plot)
    smoke.check(size == (960, 576) and "findfont" not in res.stderr,
                f"chbm --plot: a {size[0]} x {size[1]} PNG (8 x 4.8 in at 120 dpi: 960 x 576), no font missing", res)


def study_step(smoke: Smoke) -> None:
    study = smoke.home / "two_cases.json"
    study.write_text(json.dumps({
        "description": "smoke test: the planetary under two sun torques",
        "base": str(PLANETARY),
        "parameters": [{"path": "forces.sun_torque.law.value", "values": [1.0, 2.0]}],
        "analysis": {"kind": "simulation", "t_end": 0.05, "step": 1e-4, "output_step": 1e-3, "integrator": "rk4",
                     "outputs": [{"channel": "sun_joint.speed", "reduce": "final"}]}}))
    out = smoke.home / "two_cases.csv"
    res, took = smoke.run(["study", study, "--workers", 2, "--out", out])
    rows = list(csv.DictReader(open(out, newline=""))) if out.is_file() else []
    speed = [float(row[next(k for k in row if k.startswith("sun_joint.speed"))]) for row in rows]
    ok = len(rows) == 2 and all(row.get("status") == "ok" for row in rows) and abs(speed[1] / speed[0] - 2) < 1e-9
    smoke.check(res.returncode == 0 and ok, f"study of 2 cases on 2 workers: final sun speeds {speed} rad/s, "
                f"ratio {speed[1] / speed[0] if len(speed) == 2 else float('nan'):.12f} ({took:.1f} s)", res)


def main() -> int:
    if not APP.exists():
        print(f"smoke test: {APP} is missing; build it with make package", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as home:
        smoke = Smoke(Path(home))
        simulate_steps(smoke)  # first: the kernel cache in the empty home folder is still empty
        gui_steps(smoke)
        chbm_step(smoke)
        study_step(smoke)
        res, _ = smoke.run(["validate", PLANETARY], timeout=120)
        smoke.check(res.returncode == 0 and re.search(r"^\d+ findings?, 0 errors$", res.stdout, re.M) is not None,
                    f"validate {PLANETARY.name}", res)
    print("smoke test passed" if not smoke.failures else f"smoke test: {smoke.failures} failure(s)")
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.exit(main())
