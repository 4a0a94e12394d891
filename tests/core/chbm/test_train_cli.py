"""geardyn modes and geardyn train-chbm on the compliant planetary example, and their refusals."""

import csv
import json
import os
import subprocess
import sys

import pytest

from core.chbm.modes import distinct, train_modes
from core.chbm.train_commands import suggested_study
from core.chbm.train_from_model import train_from_model
from core.cli import main
from core.model.files import load, save
from core.model.model import Model
from tests.conftest import EXAMPLES, ROOT

EXAMPLE = str(EXAMPLES / "compliant_planetary.gdyn")


def test_modes_json_lists_the_planetary_mode_families(capsys):
    assert main(["modes", EXAMPLE, "--json", "--speed-max", "3000"]) == 0
    out = json.loads(capsys.readouterr().out)
    kinds = [(m["kind"], m["multiplicity"]) for m in out["modes"] if m["kind"] != "rigid"]
    # three planets: no planet modes; the hubs and pins turning on their arms alone are support modes
    assert {k for k, _ in kinds} == {"rotational", "translational", "support"}
    assert all(n == {"rotational": 1, "translational": 2, "support": 4}[k] for k, n in kinds)
    assert abs(out["mesh_frequency_per_rpm_hz"]["mesh"] - 25 * 71 / 96 / 60) < 1e-9  # z_s z_r / (z_s + z_r) per rev
    assert all(c["speed_rpm"] <= 3000 for c in out["campbell_crossings"]) and out["campbell_crossings"]


def test_train_chbm_writes_every_meshs_dynamic_factor(tmp_path, capsys):
    out = tmp_path / "curve.csv"
    assert main(["train-chbm", EXAMPLE, "--f-min", "500", "--f-max", "600", "--df-max", "20", "--out", str(out)]) == 0
    rows = list(csv.reader(out.open()))
    assert "sun_planet2 dynamic factor" in rows[0] and "planet3_ring peak force [N]" in rows[0]
    assert len(rows) > 5 and float(rows[1][2]) == 500.0 and float(rows[-1][2]) == 600.0
    factors = [float(r[rows[0].index("sun_planet1 dynamic factor")]) for r in rows[1:]]
    assert all(f >= 1.0 for f in factors)  # the peak of a vibrating load is at least its static value
    # 500-600 Hz lies below where 32 harmonics resolve the train (2 x 16437 Hz / 32): said, and marked per row
    assert "note: torque scale 1: below 1027 Hz the 32 harmonics" in capsys.readouterr().out
    assert {r[rows[0].index("resolved")] for r in rows[1:]} == {"0"}


def test_train_chbm_refuses_a_reversed_range_naming_the_flags(tmp_path, capsys):
    assert main(["train-chbm", EXAMPLE, "--f-min", "600", "--f-max", "500", "--out", str(tmp_path / "c.csv")]) == 2
    assert "--f-min, --f-max" in capsys.readouterr().err


@pytest.mark.parametrize("args, expected", [
    # each was accepted: 0 gave a traceback (Singular matrix), -1 Newmark points one too, the others ran
    (["--torque-scale", "0"], "--torque-scale: must be a number from 1e-09 to 1000, got 0"),
    (["--torque-scale", "1", "2000"], "--torque-scale: must be a number from 1e-09 to 1000, got 2000"),
    (["--torque-scale", "1", "2", "3", "4", "5", "6", "7"], "--torque-scale: at most 6 scales, got 7"),
    (["--harmonics", "0"], "--harmonics: must be a whole number from 1 to 1000, got 0"),
    (["--harmonics", "1001"], "--harmonics: must be a whole number from 1 to 1000, got 1001"),
    (["--newmark", "-1"], "--newmark: must be a whole number from 0 to 200, got -1"),
    # 100 Hz in steps of at most 0.004 Hz needs 25,000 points: it ran until the curve stopped at 20,000
    (["--df-max", "0.004"], "--df-max: must be at least 0.005 Hz for this range: a curve holds at most 20000 "
                            "points, got 0.004"),
])
def test_train_chbm_refuses_values_out_of_range_naming_the_flag_and_the_range(tmp_path, capsys, args, expected):
    out = tmp_path / "c.csv"
    assert main(["train-chbm", EXAMPLE, "--f-min", "500", "--f-max", "600", *args, "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip() == f"geardyn: error: {expected}"
    assert not out.exists()


def test_train_chbm_refuses_a_df_max_too_small_for_the_suggested_range_before_any_curve(tmp_path, capsys):
    """Without --f-min and --f-max the range is the one suggested around the train's mesh modes (2100 to 20000 Hz
    for this example): steps of at most 0.5 Hz would need 35,800 points."""
    out = tmp_path / "c.csv"
    assert main(["train-chbm", EXAMPLE, "--df-max", "0.5", "--out", str(out)]) == 2
    said = capsys.readouterr()
    assert said.err.strip() == ("error: --df-max: must be at least 0.895 Hz for this range: a curve holds at most "
                                "20000 points, got 0.5"), said  # on stderr, as every other command's errors
    assert "note: mesh frequencies 2100 to 20000 Hz" in said.out
    assert not out.exists()


def test_train_chbm_refuses_an_f_min_above_the_suggested_f_max_as_a_bad_argument(tmp_path, capsys):
    """--f-min alone above the suggested 20000 Hz: the same bad argument as a reversed pair of flags (exit 2, on
    stderr); it returned 1, the code of a failed computation, and said it on stdout."""
    out = tmp_path / "c.csv"
    assert main(["train-chbm", EXAMPLE, "--f-min", "50000", "--out", str(out)]) == 2
    said = capsys.readouterr()
    assert said.err.strip() == ("error: --f-min: must be below the suggested f-max of 20000 Hz (or give --f-max), "
                                "got 50000 Hz"), said
    assert not out.exists()


@pytest.mark.parametrize("speed", ["-5", "1e300"])
def test_modes_refuses_a_campbell_speed_out_of_range(capsys, speed):
    """A negative speed listed no crossings without a word; 1e300 rpm ran."""
    assert main(["modes", EXAMPLE, "--speed-max", speed]) == 2
    assert "--speed-max: must be a number from 0 to 1e+06 rpm" in capsys.readouterr().err


def test_modes_of_a_pair_without_a_face_width_say_how_to_give_it_a_mesh_stiffness(capsys):
    """The lossy gear demo's pair has no geometry (face width 0): 'is 0; the ISO 6336 mesh stiffness needs it'
    named the lack, not the two ways to mend it."""
    assert main(["modes", str(EXAMPLES / "lossy_gear_demo1.gdyn")]) == 1
    assert capsys.readouterr().err.strip() == (
        "error: gear.face_width: is 0; the ISO 6336 mesh stiffness needs it: give the pair a face width, or add a "
        "Compliant Mesh on it with a given stiffness")


def test_modes_of_a_model_without_gear_pairs_is_refused_with_the_reason(tmp_path, capsys):
    path = tmp_path / "empty.gdyn"
    save(Model(name="empty"), path)
    assert main(["modes", str(path)]) == 1
    assert "has no gear pair" in capsys.readouterr().err


def test_a_curve_across_the_sharp_superharmonic_peak_reaches_f_max_with_large_steps(tmp_path, capsys):
    """From 100 Hz with steps of 29 Hz the path met the 3x-mesh peak of the 401 Hz mode at 133 Hz, jumped back
    and ran below f_min into a traceback; a step that turns the path by more than 60 degrees is now shortened."""
    out = tmp_path / "c.csv"
    assert main(["train-chbm", str(EXAMPLE), "--f-min", "100", "--f-max", "3000", "--df-max", "29",
                 "--harmonics", "8", "--out", str(out)]) == 0  # the harmonics it was found with
    rows = list(csv.DictReader(out.open()))
    f = [float(r["mesh frequency [Hz]"]) for r in rows]
    assert f[0] == 100.0 and f[-1] == 3000.0 and all(b > a for a, b in zip(f, f[1:]))  # no fold: one branch


def test_train_chbm_of_a_model_without_torques_is_refused_with_the_reason(tmp_path, capsys):
    """The helical pair example runs free (no torque): every mesh is unloaded and the Newton system singular;
    the command ended in numpy's LinAlgError traceback. The modes need no load and are still listed."""
    helical = str(EXAMPLES / "helical_pair.gdyn")
    out = tmp_path / "c.csv"
    assert main(["train-chbm", helical, "--f-min", "500", "--f-max", "600", "--out", str(out)]) == 1
    printed = capsys.readouterr().err
    assert "error: torques: the model's mean torques are all zero" in printed and "Traceback" not in printed
    assert not out.exists()
    assert main(["modes", helical]) == 0


def test_the_trains_bodies_come_in_the_same_order_in_every_process():
    """The bodies (the coordinates, the CSV's columns, the input a Campbell diagram falls back on) follow the
    model's order; they followed a set's, which the hash seed reorders from one process to the next."""
    script = ("from core.model.files import load; from core.chbm.train_from_model import train_from_model; "
              f"print([b.name for b in train_from_model(load({str(EXAMPLES / 'compliant_planetary.gdyn')!r})).bodies])")
    orders = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(orders) == 1 and orders.pop().startswith("['sun_hub', 'carrier_hub', 'ring_hub', 'sun', 'carrier'")


def test_train_dynamics_defaults_frame_the_mesh_modes_and_train_chbm_takes_them(tmp_path, capsys):
    """The Train Dynamics window started every model at 100-3000 Hz and 3000 rpm: the compliant planetary's mesh
    modes sit at 10.5-16.4 kHz, so its forced response showed none of their resonances and its Campbell diagram
    none of their crossings with the mesh frequency (train-chbm had no default at all). The defaults now run from
    0.2 times the lowest mesh mode (strain mostly in the meshes) to 1.2 times the highest, and the Campbell
    diagram to the sun speed where the mesh frequency, z_s z_r / (z_s + z_r) per revolution of the sun relative
    to the ring (by hand), reaches that top; train-chbm without --f-min and --f-max takes them."""
    assert main(["modes", EXAMPLE, "--json"]) == 0
    modes = json.loads(capsys.readouterr().out)["modes"]
    meshy = [m["frequency_hz"] for m in modes if m["meshes"] >= 0.5 and m["frequency_hz"] > 0]
    assert min(meshy) > 10_000 and max(meshy) > 16_000  # far above the old 3000 Hz
    train = train_from_model(load(EXAMPLE))
    study = suggested_study(train, distinct(train_modes(train)))
    # 0.2 x 10550 = 2110 and 1.2 x 16437 = 19725 Hz, rounded outward to two digits
    assert (study.f_min, study.f_max) == (2100.0, 20000.0)
    per_rpm = 25 * 71 / 96 / 60  # 0.30816 Hz per rpm: 20000 Hz at 64901 rpm, rounded up
    assert study.speed_max_rpm == 65000.0 and 64_000 < study.f_max / per_rpm <= study.speed_max_rpm
    out = tmp_path / "curve.csv"
    assert main(["train-chbm", EXAMPLE, "--harmonics", "2", "--df-max", "4000", "--out", str(out)]) == 0
    assert f"note: mesh frequencies {study.f_min:g} to {study.f_max:g} Hz" in capsys.readouterr().out
    rows = list(csv.reader(out.open()))
    assert (float(rows[1][2]), float(rows[-1][2])) == (study.f_min, study.f_max)


def test_train_chbm_runs_a_two_stage_reducer_on_its_common_period_and_agrees_with_newmark(tmp_path, capsys):
    """The reducer example's stages mesh at 20 : 9 (z3 / z2 = 18 / 40 of stage 1's frequency): refused before
    ("its meshes run at different mesh frequencies"), it now runs on the period that holds 20 mesh periods of
    stage 1 and 9 of stage 2, with the harmonics that resolve the curve from --f-min, and its rows at the two
    Newmark frequencies agree with Newmark's: every mesh's dynamic factor within 3 % with those harmonics (as the
    planetary's default, test_train_response.py; measured 2.2 %); with 300, also the amplitudes of each mesh's
    own 1x and 2x mesh frequency within 1 % (with the 74 that just resolve the train at 3000 Hz they converge
    more slowly: stage 2's 1x, 14.17 N against Newmark's 14.94)."""
    reducer = str(EXAMPLES / "two_stage_reducer.gdyn")
    top = max(m.frequency for m in train_modes(train_from_model(load(reducer))))
    harmonics = -(-2 * top * 20 // 3000)  # H f / 20 reaches twice the highest mode (5478 Hz) at 3000 Hz: 74
    axis = "mesh frequency of stage1 [Hz]"
    for given, columns, within in (
            ([], ("stage1 dynamic factor", "stage2 dynamic factor"), 0.03),
            (["--harmonics", "300", "--df-max", "100"],
             ("stage1 dynamic factor", "stage2 dynamic factor", "stage1 1x amplitude [N]", "stage1 2x amplitude [N]",
              "stage2 1x amplitude [N]", "stage2 2x amplitude [N]"), 0.01)):
        out = tmp_path / "curve.csv"
        assert main(["train-chbm", reducer, "--f-min", "3000", "--f-max", "3500", "--newmark", "2", "--out", str(out)]
                    + given) == 0
        said = capsys.readouterr().out
        assert "the train's period holds 20 mesh periods of stage1, 9 mesh periods of stage2" in said
        assert harmonics == 74 and ("note: 74 harmonics (they resolve the curve from 3000 Hz" in said) == (not given)
        rows = list(csv.DictReader(out.open()))
        hbm = {float(r[axis]): r for r in rows if r["method"] == "HBM"}
        newmark = [r for r in rows if r["method"] == "Newmark"]
        assert [float(r[axis]) for r in newmark] == [3000.0, 3500.0] and all(r["stable"] == "1" for r in newmark)
        for theirs in newmark:
            ours = hbm[float(theirs[axis])]
            for column in columns:
                assert float(ours[column]) == pytest.approx(float(theirs[column]), rel=within), (given, column)


def test_a_two_stage_reducers_defaults_let_its_slower_mesh_pass_every_mesh_mode():
    """Stage 2 meshes at 9/20 of stage 1's frequency, which is the curves' axis: the range runs from where stage 2
    meets 0.2 times the lowest mesh mode to where it meets 1.2 times the highest (0.2 x 3396 / 0.45 = 1509 and
    1.2 x 5478 / 0.45 = 14608 Hz, rounded outward to two digits), the Campbell diagram to the input speed where
    stage 1 reaches that top (20 teeth: 1/3 Hz per rpm), and the harmonics resolve the curve from its start."""
    train = train_from_model(load(EXAMPLES / "two_stage_reducer.gdyn"))
    modes = distinct(train_modes(train))
    low, high = (m.frequency for m in modes if m.frequency > 0)
    assert 3390 < low < 3400 and 5470 < high < 5480  # both mesh modes (their strain is in the meshes)
    study = suggested_study(train, modes)
    assert (study.f_min, study.f_max, study.speed_max_rpm) == (1500.0, 15000.0, 45000.0)
    assert 0.2 * low / 0.45 >= 1500 and 1.2 * high / 0.45 <= 15000
    assert study.harmonics == -(-2 * high * 20 // 1500) == 147


def test_train_chbm_shows_its_progress_and_a_signal_keeps_the_points_computed(tmp_path):
    """The reducer's default curve takes about 40 s: on a terminal the command shows how far it is, and Ctrl-C
    (SIGINT) ends the curve at its next point with the points so far written, instead of a traceback and
    nothing."""
    import pty
    import select
    import signal
    import time

    out = tmp_path / "curve.csv"
    master, slave = pty.openpty()  # stderr a terminal: the progress bar is drawn only there
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "train-chbm", str(EXAMPLES / "two_stage_reducer.gdyn"),
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)

    def read(wait):
        try:
            return os.read(master, 4096).decode(errors="replace") if select.select([master], [], [], wait)[0] else ""
        except OSError:  # the command has ended and closed its end
            return None

    seen, deadline = "", time.monotonic() + 120
    while "HBM 2" not in seen and time.monotonic() < deadline and proc.poll() is None:  # past 2000 Hz
        seen += read(1.0) or ""
    assert "HBM 2" in seen, seen
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    while (more := read(0.2)):
        seen += more
    os.close(master)
    assert proc.returncode == 1, stdout + seen
    assert "Traceback" not in seen and "cancelled by SIGINT at " in seen, seen
    rows = list(csv.DictReader(out.open()))
    axis = "mesh frequency of stage1 [Hz]"
    reached = float(rows[-1][axis])
    assert float(rows[0][axis]) == 1500.0 and 2000.0 <= reached < 15000.0 and len(rows) > 10
    assert f"{reached:.6g} Hz" in seen  # where it ended, said
