"""Reliability: bad input gets one line, nothing computed is lost, no hangs, no wrong answer reported as success.

Each test is one case a hostile user (or an unlucky one) meets; the fuzz
tests are in test_fuzz.py.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import core.atomic
from core.atomic import atomic_target
from core.cli import main
from core.dynamics.integrators import make_integrator
from core.commands import AddItem, Macro, replace_fields
from core.dynamics.checks import check
from core.dynamics.program.linker import program
from core.dynamics.run import prepare
from core.dynamics.state_space import EuclideanSpace
from core.geometry.macro import GearSpec
from core.geometry.mesh_import import FALLBACKS, MeshImportError, import_mesh
from core.model import builders, files
from core.model.entities import GROUND, GearPair, RevoluteJoint
from core.model.files import load, loads
from core.model.model import Model
from core.errors import ModelError
from core.outputs import write_or_fallback
from core.validation import validate
from tests.conftest import wait_for_line

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
PLANETARY = EXAMPLES / "planetary.gdyn"


def _data(name: str = "planetary") -> dict:
    return json.loads((EXAMPLES / f"{name}.gdyn").read_text())


def _load_data(data: dict):
    return loads(json.dumps(data))


def _errors(model):
    return [f for f in check(model) if f.severity == "error"]


# ------------------------------------------------------------------ guards against wrong answers


def _scaled_inertia(data: dict, body: str, factor: float, drop_visual: bool = False) -> dict:
    for b in data["bodies"]:
        if b["name"] == body:
            b["inertia"] = [[v * factor for v in row] for row in b["inertia"]]
            if drop_visual:
                b["visual"] = None
    return data


def test_inertia_implausibly_small_for_the_shape_is_an_error_naming_the_body():
    model = _load_data(_scaled_inertia(_data(), "ring", 1e-12))
    errors = _errors(model)
    assert errors and errors[0].item == "ring"
    assert "implausibly small for its mass and size" in errors[0].message
    with pytest.raises(ModelError, match="ring: inertia is implausibly small"):
        prepare(model, t_end=0.01)


def test_inertia_larger_than_the_shape_allows_is_a_warning():
    model = _load_data(_scaled_inertia(_data(), "sun", 100.0))
    found = [f for f in validate(model) if f.item == "sun"]
    assert [f.severity for f in found] == ["warning"]
    assert "larger than any mass inside its shape" in found[0].message


def test_ill_conditioned_mass_matrix_is_an_error_naming_the_body():
    # no shape to compare with: only the conditioning can tell that 1e-14 of the ring's inertia is absurd
    model = _load_data(_scaled_inertia(_data(), "ring", 1e-14, drop_visual=True))
    errors = _errors(model)
    assert [e.item for e in errors] == ["ring"]
    assert "condition number" in errors[0].message and "'ring'" in errors[0].message


def test_shipped_examples_are_well_conditioned():
    for path in sorted(EXAMPLES.glob("*.gdyn")):
        assert not _errors(load(path)), path.name


def _three_gear_loop(carrier_moves: bool = False):
    """Three equal external gears on fixed axes, each meshing with both others: a locked train."""
    m, z = 0.002, 20
    r = m * z / 2
    centres = [(2 * r * math.cos(a), 2 * r * math.sin(a), 0.0) for a in (0.0, 2 * math.pi / 3, 4 * math.pi / 3)]
    centre = np.mean(centres, axis=0)
    items = []
    for k, c in enumerate(centres):
        pos = tuple(float(v) for v in np.asarray(c) - centre)
        items.append(builders.gear_body(f"g{k}", GearSpec("helical", m, z, math.radians(20), 0.01, bore_diameter=0.01), position=pos))
        items.append(RevoluteJoint(f"j{k}", GROUND, f"g{k}", pos, (0, 0, 1)))
    for a, b in ((0, 1), (1, 2), (2, 0)):
        items.append(GearPair(f"p{a}{b}", f"j{a}", f"j{b}", GROUND, kind="external", z1=z, z2=z, module=m,
                              pressure_angle=math.radians(20), face_width=0.01))
    from core.commands import AddItem, Macro
    from core.model.model import Model

    model = Model(name="loop")
    Macro("build", [AddItem(i) for i in items]).do(model)
    return model


def test_locked_gear_loop_is_an_error_naming_the_loop():
    errors = _errors(_three_gear_loop())
    locked = [e for e in errors if "close a loop whose ratios cannot agree" in e.message]
    assert len(locked) == 1
    for pair in ("'p01'", "'p12'", "'p20'"):
        assert pair in locked[0].message


@pytest.mark.parametrize("kind", ["external", "internal"])
def test_checking_a_pair_whose_gears_share_a_centre_says_the_rule_without_numpy_warnings(kind):
    """Two gears made where the dialogs make them, at the origin, paired before gear 2 is moved: the checks of the
    equations divided by the zero centre distance (four RuntimeWarnings in the terminal each time the model was
    checked in Python). The pitch point is undefined there; the rule says to move gear 2, and no second error says
    the constraint is undefined at these poses."""
    m = 0.002
    ring = GearSpec("inner", m, 60, math.radians(20), 0.02, rim_diameter=0.15)
    specs = [GearSpec("helical", m, 20, math.radians(20), 0.02, bore_diameter=0.01),
             ring if kind == "internal" else GearSpec("helical", m, 40, math.radians(20), 0.02, bore_diameter=0.01)]
    model = Model()
    Macro("build", [*(AddItem(builders.gear_body(f"g{k}", spec)) for k, spec in enumerate(specs)),
                    *(AddItem(RevoluteJoint(f"j{k}", GROUND, f"g{k}", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)))
                      for k in range(2)),
                    AddItem(GearPair("p", "j0", "j1", GROUND, kind=kind, z1=20, z2=specs[1].teeth, module=m,
                                     face_width=0.02))]).do(model)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = check(model, program(False))
    rule = ("the joint axes are 0 mm apart; the centre distance m_t (z2 - z1) / 2 is 40 mm: move 'j1' (and gear 'g1')"
            if kind == "internal" else
            "the joint axes are 0 mm apart; the centre distance m_t (z1 + z2) / 2 is 60 mm: move 'j1' (and gear 'g1')")
    assert [(f.item, f.message) for f in found if f.severity == "error"] == [("p", rule)]


def test_planetary_loops_stay_redundant_information():
    findings = validate(load(PLANETARY))
    assert not [f for f in findings if f.severity == "error"]
    assert any("2 loops" in f.message and f.severity == "info" for f in findings)


def test_run_stops_as_failed_when_a_constraint_drifts_past_the_tolerance():
    model = load(PLANETARY)
    model.settings = dataclasses.replace(model.settings, formulation="cartesian", drift_tolerance=1e-12,
                                         baumgarte_alpha=0.0, baumgarte_beta=0.0)
    run = prepare(model, t_end=0.05, step=1e-3)
    res = run.run()
    assert res.status == "failed"
    assert res.message.startswith("constraint drift at t = ")
    assert "above the tolerance" in res.message and "settings.drift_tolerance" in res.message
    assert "a smaller settings.step" in res.message  # and what to do about it
    assert len(res.time) >= 2  # the samples up to the failure are kept


def test_default_tolerance_holds_on_the_examples_short_runs():
    for path in sorted(EXAMPLES.glob("*.gdyn")):
        res = prepare(load(path), t_end=0.005, output_step=0.001).run()
        assert res.status == "finished", (path.name, res.message)


# ------------------------------------------------------------------ loader


def test_integer_with_thousands_of_digits_names_the_field(tmp_path):
    text = PLANETARY.read_text().replace('"t_end": 1.0', '"t_end": 1' + "0" * 5000, 1)
    path = tmp_path / "big.gdyn"
    path.write_text(text)
    with pytest.raises(ModelError, match=r"settings\.t_end: must be a number of at most 30 digits, got a whole "
                                         r"number of 5001 digits"):
        load(path)


def test_a_name_of_thousands_of_characters_is_refused_in_a_message_of_readable_length():
    """The fuzz found it: a body named by a 1,943-digit number gave a 2,000-character message, its path
    holding the whole name."""
    data = json.loads(PLANETARY.read_text())
    data["bodies"][1]["name"] = "1" + "0" * 1942
    with pytest.raises(ModelError) as caught:
        loads(json.dumps(data))
    text = str(caught.value)
    assert text.startswith("bodies['1000") and text.endswith("].name: must be at most 200 characters, got 1943")
    assert len(text) < 500 and "\n" not in text


def test_deep_nesting_is_one_line(tmp_path):
    path = tmp_path / "deep.gdyn"
    path.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(ModelError, match="nested too deeply"):
        load(path)
    # counted without recursion, brackets inside strings left out; 33 levels are refused before parsing
    from core.model.files import nesting

    assert nesting('{"a": [[1, "[[[\\" ]"], {}]}') == 3
    path.write_text("[" * 33 + "]" * 33)
    with pytest.raises(ModelError, match="more than 32 levels"):
        load(path)


def test_fifo_device_and_folder_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.gdyn"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        t0 = time.monotonic()
        with pytest.raises(ModelError, match="is not a regular model file"):
            load(path)
        assert time.monotonic() - t0 < 5


def test_size_cap_is_read_through(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    with pytest.raises(ModelError, match="larger than the 1,000 bytes"):
        load(PLANETARY)


@pytest.mark.parametrize("name, char", [("sun\ud800", "U+D800"), ("sun\x07", "U+0007"), ("a\nb", "U+000A")])
def test_names_must_be_printable(name, char):
    data = _data()
    data["bodies"][0]["name"] = name
    with pytest.raises(ModelError, match=rf"bodies\[.*\]\.name: must be printable text, got the character {re.escape(char)}"):
        _load_data(data)


@pytest.mark.parametrize("change, message", [
    ({"integrator": "euler"}, "settings.integrator: must be one of rk4, dopri5"),
    ({"t_end": 1e6}, "settings.output_step: gives 1e+09 output samples"),
    ({"t_end": 0.01, "step": 0.02}, "settings.step: must be at most the end time"),
    ({"t_end": 0.01, "output_step": 0.02}, "settings.output_step: must be at most the end time"),
])
def test_settings_checked_at_load(change, message):
    data = _data()
    data["settings"].update(change)
    with pytest.raises(ModelError, match=message.replace("+", r"\+")):
        _load_data(data)


def test_a_model_file_with_several_bad_fields_names_every_one_and_the_cli_prints_each(tmp_path, capsys):
    """A file with a body's mass a string, a pair's teeth out of range, a joint axis of zero length, an unknown
    field and a step of 0: each is named with its field, in the error's problems and by `geardyn validate` on
    lines of their own (before, only the first was said, and the next one only once that was mended)."""
    data = _data()
    data["bodies"][0]["mass"] = "abc"
    data["gear_pairs"][0]["z1"] = -3
    data["joints"][1]["axis"] = [0.0, 0.0, 0.0]
    data["forces"][0]["colour"] = "red"
    data["settings"]["step"] = 0
    with pytest.raises(ModelError) as info:
        _load_data(data)
    paths = [path for path, _ in info.value.problems]
    assert paths == ["settings.step", "bodies[0].mass", "joints[1].axis", "gear_pairs[0].z1", "forces[0].colour"]
    assert str(info.value).startswith("settings.step: must be a number above 0")
    file = tmp_path / "bad.gdyn"
    file.write_text(json.dumps(data))
    assert main(["validate", str(file)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[2] for line in lines] == paths
    assert all(line.startswith("error: bad.gdyn: ") for line in lines)


def test_long_values_are_cut_in_messages():
    data = _data()
    data["settings"]["integrator"] = "x" * 5000
    with pytest.raises(ModelError) as info:
        _load_data(data)
    assert len(str(info.value)) < 300


# ------------------------------------------------------------------ files


def test_stale_temporaries_are_removed_by_the_next_save(tmp_path):
    target = tmp_path / "m.gdyn"
    stale = [tmp_path / ".m.gdyn.abc123.tmp", tmp_path / ".m.gdyn.zz.tmp.png"]
    for p in stale:
        p.write_bytes(b"x" * 1000)
    other = tmp_path / ".other.gdyn.q.tmp"
    other.write_text("not ours")
    files.save(load(PLANETARY), target)
    assert not any(p.exists() for p in stale)
    assert other.exists()
    assert load(target).name == "planetary"


def test_save_through_a_symlink_writes_its_target(tmp_path):
    real = tmp_path / "real" / "model.gdyn"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.gdyn"
    link.symlink_to(real)
    files.save(load(PLANETARY), link)
    assert link.is_symlink()
    assert load(real).name == "planetary"


def test_interrupted_write_keeps_the_old_file_and_leaves_nothing(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with atomic_target(target) as tmp:
            tmp.write_text("half")
            raise KeyboardInterrupt
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


# ------------------------------------------------------------------ nothing computed is lost (CLI)


def test_a_write_that_fails_after_the_run_goes_to_a_fallback_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.csv"
    real_replace = os.replace

    def disk_full(src, dst):  # an OS fault on the one file asked for: the disk filled during the run
        if Path(dst) == out:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(core.atomic.os, "replace", disk_full)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "fallback"))
    (tmp_path / "fallback").mkdir()
    code = main(["simulate", str(PLANETARY), "--t-end", "0.003", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert not out.exists()
    saved = list((tmp_path / "fallback").glob("geardyn-r-*.csv"))
    assert len(saved) == 1 and f"it was written to {saved[0]}" in err and "No space left on device" in err
    assert len(saved[0].read_text().splitlines()) == 1 + 4  # header and the samples at 0, 1, 2, 3 ms


def test_a_write_that_fails_on_another_file_names_that_file(tmp_path, capsys):
    # a writer that needs a file of its own (a font, a template) and misses it: the path asked for is fine
    missing = tmp_path / "fonts" / "DejaVuSans.ttf"

    def plot(path):
        open(missing, "rb")

    assert not write_or_fallback(plot, str(tmp_path / "curve.png"), "the plot")
    err = capsys.readouterr().err
    assert f"cannot write the plot to {tmp_path / 'curve.png'} (No such file or directory: {missing})" in err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_simulate_cancelled_by_a_signal_writes_what_it_computed(tmp_path, sig):
    out = tmp_path / "r.csv"
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "simulate", str(PLANETARY), "--t-end", "1000",
                             "--output-step", "0.01", "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_for_line(proc.stdout, "plan: ")  # prepared: the run has started
    time.sleep(0.5)  # some steps into it
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert f"cancelled by {sig.name}: cancelled at t = " in stderr
    rows = out.read_text().splitlines()
    assert len(rows) > 2 and rows[0].startswith("time [s],")
    assert f"wrote {out}" in stdout
    assert "Traceback" not in stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_run_is_prepared_ends_the_command_cleanly(tmp_path, sig):
    # an empty kernel cache and compiled runs asked for: the kernels compile while the run is prepared (minutes),
    # and the signal lands there; the command must end at once, say so, and leave no traceback
    env = {**os.environ, "GEARDYN_KERNEL_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "simulate", str(PLANETARY), "--compiled", "on",
                             "--out", str(tmp_path / "r.csv")], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    wait_for_line(proc.stderr, "preparing the run", 60.0)
    time.sleep(1.0)  # numba imported, compiling
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert f"cancelled by {sig.name} while the run was prepared: nothing was computed" in stderr
    assert "Traceback" not in stderr and not (tmp_path / "r.csv").exists()


def test_chbm_cancelled_by_a_signal_writes_the_points_computed(tmp_path):
    out = tmp_path / "c.csv"
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "chbm", "--torque", "100", "200", "300", "--dti",
                             "--dti-points", "2000", "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_for_line(proc.stderr, "computing the curve", 60.0)
    time.sleep(2.0)  # some points into it
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert "cancelled by SIGINT at" in stderr and "Traceback" not in stderr
    assert len(out.read_text().splitlines()) > 10


def test_continuation_that_cannot_start_says_where_and_why():
    from core.chbm.continuation import ContinuationError, follow
    from core.chbm.harmonic_balance import HarmonicBalance
    from core.chbm.lumped_model import PAPER_BASE_RADIUS, PAPER_CONTACT_RATIO, PAPER_INERTIA, pair_model

    # nearly undamped and barely loaded, started just below the resonance: the static deflection is no start
    model = pair_model(PAPER_INERTIA, PAPER_INERTIA, PAPER_BASE_RADIUS, PAPER_BASE_RADIUS, 1.0, 0.01,
                       PAPER_CONTACT_RATIO, 2.6e8)
    with pytest.raises(ContinuationError, match="at the start frequency 2500 Hz: Newton's method from the static "
                                                "deflection did not converge in 100 iterations"):
        follow(HarmonicBalance(model, 14), 2500.0, 3000.0)


# ------------------------------------------------------------------ no hangs (integrators)


@pytest.mark.parametrize("method", ["dopri5", "generalized_alpha_adaptive"])
def test_adaptive_integrator_fails_with_a_reason_on_a_non_finite_rate(method):
    def fun(t, y):
        return np.array([y[1], np.nan if t > 0.05 else -y[0]])

    solver = make_integrator(method, fun, 0.0, np.array([1.0, 0.0]), 1.0, 1e-2, EuclideanSpace(2))
    t0 = time.monotonic()
    message = None
    while message is None and solver.status == "running":
        message = solver.step()
    assert solver.status == "failed" and time.monotonic() - t0 < 10
    assert "not finite" in message or "NaN" in message or "did not converge" in message, message


def test_adaptive_integrator_gives_up_after_too_many_rejections():
    evaluations = []

    def fun(t, y):  # a new random rate at every evaluation: every error estimate is large
        evaluations.append(t)
        return np.random.default_rng(len(evaluations)).normal(size=1) * 1e12

    solver = make_integrator("dopri5", fun, 0.0, np.array([0.0]), 1.0, 1e-2, EuclideanSpace(1), max_rejections=20)
    message = solver.step()
    assert message is not None and ("rejected steps in a row" in message or "step size fell below" in message)


def test_cancel_is_checked_at_every_attempt():
    calls, evaluations = [], []

    def fun(t, y):  # a new random rate at every evaluation: every error estimate is large
        evaluations.append(t)
        return np.random.default_rng(len(evaluations)).normal(size=1) * 1e12

    solver = make_integrator("dopri5", fun, 0.0, np.array([0.0]), 1.0, 1e-2, EuclideanSpace(1), max_rejections=1000)

    def stop():
        calls.append(1)
        return len(calls) > 3

    solver.stop_requested = stop
    message = solver.step()
    assert message.startswith("stopped at t = ") and len(calls) == 4


# ------------------------------------------------------------------ mesh import


def _write_obj(path: Path, vertices, faces) -> Path:
    with path.open("w") as fh:
        for v in vertices:
            fh.write("v {} {} {}\n".format(*(float(x) for x in v)))
        for f in faces:
            fh.write("f {} {} {}\n".format(*(int(i) + 1 for i in f)))
    return path


def _box():
    import trimesh

    return trimesh.creation.box((10.0, 20.0, 30.0))


@pytest.mark.parametrize("case, message", [
    ("nan", "vertices are not finite numbers"),
    ("inf", "vertices are not finite numbers"),
    ("flat", "is flat"),
    ("point", "distinct vertices"),
    ("one_triangle", "distinct vertices"),
    ("line", "on one line"),
])
@pytest.mark.parametrize("fallback", FALLBACKS)
def test_broken_meshes_are_refused_with_the_reason(tmp_path, case, message, fallback):
    box = _box()
    v, f = np.array(box.vertices), np.array(box.faces)
    if case == "nan":
        v[3, 1] = np.nan
    elif case == "inf":
        v[0, 0] = np.inf
    elif case == "flat":
        v[:, 2] = 0.0
    elif case == "point":
        v[:] = 1.0
    elif case == "one_triangle":
        v, f = v[:3], f[:1] * 0 + np.array([[0, 1, 2]])
    elif case == "line":
        v = np.column_stack([np.arange(len(v), dtype=float), np.zeros(len(v)), np.zeros(len(v))])
    path = _write_obj(tmp_path / f"{case}.obj", v, f)
    with pytest.raises(MeshImportError, match=message):
        import_mesh(path, "mm", fallback=fallback)


def test_flipped_faces_are_repaired(tmp_path):
    box = _box()
    f = np.array(box.faces)
    f[[0, 5, 7]] = f[[0, 5, 7]][:, ::-1]
    imported = import_mesh(_write_obj(tmp_path / "flipped.obj", box.vertices, f), "mm")
    assert imported.watertight
    assert imported.mass_properties.mass == pytest.approx(7850.0 * 6000e-9, rel=1e-12)


def test_mesh_import_refuses_a_pipe_or_a_device(tmp_path):
    fifo = tmp_path / "part.stl"
    os.mkfifo(fifo)
    device = tmp_path / "zero.stl"
    device.symlink_to("/dev/zero")
    for path in (fifo, device):
        t0 = time.monotonic()
        with pytest.raises(MeshImportError, match="is not a regular file"):
            import_mesh(path, "mm")
        assert time.monotonic() - t0 < 5


def test_ctrl_c_outside_a_computation_is_one_line(monkeypatch, capsys):
    def interrupted(*args):  # Ctrl-C while the model file is read
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "read_regular_file", interrupted)
    assert main(["validate", str(PLANETARY)]) == 130
    assert capsys.readouterr().err == "geardyn: interrupted\n"


def test_the_step_check_of_a_compliant_pair_moved_onto_one_centre_does_not_break_the_model_check():
    """With a compliant mesh on RK4, the step check takes the rates' Jacobian at the start; gear 2 moved onto gear
    1's axis makes it NaN, and numpy's eigenvalues raised (the app checks the model after each edit). The rule
    says what is wrong; the step check says nothing."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    pair = next(iter(model.gear_pairs.values()))
    gear2 = model.joints[pair.joint2].body_j
    replace_fields(model, pair.joint2, position=(0.0, 0.0, 0.0)).do(model)
    replace_fields(model, gear2, position=(0.0, 0.0, 0.0)).do(model)
    found = check(model, program(False))
    assert any("0 mm apart" in f.message and f.severity == "error" for f in found)
    assert not [f for f in found if f.item == "settings.step"]
