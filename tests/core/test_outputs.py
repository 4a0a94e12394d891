"""Nothing computed is lost, nothing but a file is written: output paths refused before computing, a signal
during the last write, studies interrupted or failing (core.outputs, core.signals, the CLI's commands)."""

from __future__ import annotations

import csv
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from core.atomic import atomic_write_text
from core.cli import main
from core.outputs import output_problem
from tests.conftest import EXAMPLES, ROOT, wait_for_line

PLANETARY = EXAMPLES / "planetary.gdyn"


def cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "core.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


# ------------------------------------------------------------------ output paths


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_devices_fifos_and_folders_are_refused_as_outputs(tmp_path, fifo):
    assert "not a regular file" in output_problem(os.devnull)
    assert "not a regular file" in output_problem(str(fifo))
    assert "is a folder" in output_problem(str(tmp_path))
    assert "does not exist" in output_problem(str(tmp_path / "no" / "r.csv"))
    assert output_problem(str(tmp_path / "new.csv")) == ""
    assert output_problem(str(tmp_path / "new.csv")) == "" and sorted(os.listdir(tmp_path)) == ["fifo"]  # no probe left


@pytest.mark.parametrize("command", [
    ["simulate", str(PLANETARY), "--t-end", "0.01", "--out"],
    ["simulate", str(PLANETARY), "--t-end", "0.01", "--out", "{ok}", "--results"],
    ["study", str(EXAMPLES / "planetary_study.json"), "--workers", "0", "--out"],
    ["chbm", "--torque", "100", "--out"],
])
def test_commands_refuse_a_device_or_fifo_before_computing_and_leave_it_as_it_was(tmp_path, fifo, command):
    for target in (os.devnull, str(fifo)):
        args = [a.replace("{ok}", str(tmp_path / "ok.csv")) for a in command] + [target]
        start = time.perf_counter()
        done = cli(*args)
        assert done.returncode == 2, done.stderr
        assert "not a regular file" in done.stderr and "Traceback" not in done.stderr
        assert time.perf_counter() - start < 30.0  # refused before the computation, not after it
        assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_an_atomic_write_never_replaces_a_device_or_fifo(fifo):
    for target in (os.devnull, fifo):
        with pytest.raises(OSError, match="not a regular file"):
            atomic_write_text(target, "x")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_an_output_folder_that_refuses_files_is_reported_before_the_run(capsys):
    # /proc exists and, as root, passes an access check, but takes no new file: the probe finds that
    assert main(["gear", "helical", "--module", "2", "--teeth", "20", "--width", "10", "--export", "/proc/g.stl"]) == 2
    err = capsys.readouterr().err
    assert "--export: the folder '/proc' is not writable" in err


# ------------------------------------------------------------------ a signal during the last write


def test_a_signal_while_the_csv_is_written_finishes_the_csv_then_exits_130(tmp_path):
    out = tmp_path / "r.csv"
    # 50,001 samples of 119 channels: a 69 MB CSV, written for about a second after the run
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "simulate", str(PLANETARY), "--t-end", "5",
                             "--output-step", "1e-4", "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_for_line(proc.stderr, "writing ")
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "SIGINT while the files were written: they were finished first" in stderr
    with out.open() as fh:
        rows = sum(1 for _ in fh)
    assert rows == 1 + 50001 and f"wrote {out}: 50001 samples" in stdout


# ------------------------------------------------------------------ studies


def slow_study(tmp_path, cases: int = 4) -> str:
    """The planetary's study with `cases` cases of about a second each."""
    data = json.loads((EXAMPLES / "planetary_study.json").read_text())
    data["base"] = str(PLANETARY)
    data["parameters"] = [{"path": "forces.sun_torque.law.value", "values": [1.0 + k for k in range(cases)]}]
    data["analysis"].update(t_end=1.5, step=1e-5, output_step=1e-3)
    path = tmp_path / "study.json"
    path.write_text(json.dumps(data))
    return str(path)


def csv_rows(path):
    with open(path) as fh:
        return list(csv.reader(fh))[1:]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_study_interrupted_after_two_cases_keeps_them(tmp_path, sig):
    out = tmp_path / "rows.csv"
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "study", slow_study(tmp_path), "--workers", "0",
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not (out.exists() and len(csv_rows(out)) >= 2):  # each finished case is in the file at once
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1, stderr
    rows = csv_rows(out)
    status = [r[-2] for r in rows]
    assert len(rows) == 4 and status[:2] == ["ok", "ok"] and status[-1] == "cancelled", rows
    assert f"cancelled by {sig.name}: " in stderr and "Traceback" not in stderr
    assert all(float(r[2]) > 0 for r in rows[:2])  # their results, not blanks


def test_a_scheduler_that_is_not_an_address_is_one_line(tmp_path):
    done = cli("study", str(EXAMPLES / "planetary_study.json"), "--scheduler", "not a url", "--out",
               str(tmp_path / "r.csv"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().startswith("error: --scheduler: cannot reach the dask scheduler at 'not a url'")
