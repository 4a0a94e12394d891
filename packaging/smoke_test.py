"""Smoke test of the frozen application (run by `make package`, not by `make test`).

Starts dist/geardyn/geardyn under Xvfb on each example model with GEARDYN_SMOKE_TEST=1 (the app
quits once the model is drawn), and checks it drew the bodies, exited with 0 and printed no traceback.
It also runs `geardyn validate` and `geardyn study --help` from the frozen folder (the CLI travels too).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "dist" / "geardyn" / "geardyn"


def main() -> int:
    if not APP.exists():
        print(f"smoke test: {APP} is missing; build it with make package", file=sys.stderr)
        return 1
    failures = 0
    examples = sorted((ROOT / "resources" / "examples").glob("*.gdyn"))
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "GEARDYN_SMOKE_TEST": "1", "HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
        for example in examples:
            res = subprocess.run([str(APP), "gui", str(example)], env=env, capture_output=True, text=True, timeout=180)
            ok = res.returncode == 0 and "smoke test:" in res.stdout and "drew" in res.stdout \
                and "Traceback" not in res.stderr
            print(f"{'ok  ' if ok else 'FAIL'} {example.name}: {res.stdout.strip().splitlines()[-1] if res.stdout.strip() else ''}"
                  f" (exit {res.returncode})")
            if not ok:
                print(res.stderr[-2000:], file=sys.stderr)
                failures += 1
        res = subprocess.run([str(APP), "validate", str(examples[0])], capture_output=True, text=True, timeout=120)
        ok = res.returncode == 0 and "finding(s)" in res.stdout
        print(f"{'ok  ' if ok else 'FAIL'} geardyn validate {examples[0].name} (exit {res.returncode})")
        failures += not ok
    print("smoke test passed" if not failures else f"smoke test: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
