"""Convergence in the number of harmonics, the lumped pair built from a model file, and the chbm CLI."""

import csv
import dataclasses
import math
import subprocess
import sys

import numpy as np
import pytest

from core.chbm.continuation import ContinuationError, follow
from core.chbm.from_model import (
    SINGLE_PAIR_STIFFNESS_PER_WIDTH,
    lumped_from_model,
    polar_inertia,
)
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.lumped_model import paper_model
from core.geometry.macro import pair_geometry
from core.model import entities as E
from core.model.files import load
from core.errors import ModelError
from tests.conftest import EXAMPLES, ROOT

PROBES = [600.0, 900.0, 1000.0, 1400.0, 2500.0, 2800.0, 3250.0, 3700.0, 4000.0]  # single-valued stretches


def _values(harmonics):
    hb = HarmonicBalance(paper_model(100.0), harmonics)
    pts = follow(hb, 500.0, 4000.0, stability=False)
    out = []
    for f in PROBES:
        near = min(pts, key=lambda p: abs(p.frequency - f))
        z, _, ok = hb.solve(2 * math.pi * f, near.z)
        assert ok
        out.append(hb.summary(z)[1])
    peak = max(p.half_p2p for p in pts)
    return np.array(out), peak


def test_curve_converges_in_the_number_of_harmonics():
    (v7, p7), (v14, p14), (v28, p28) = (_values(h) for h in (7, 14, 28))
    change_7_14 = np.abs(v14 / v7 - 1).max()
    change_14_28 = np.abs(v28 / v14 - 1).max()
    peak_7_14, peak_14_28 = abs(p14 / p7 - 1), abs(p28 / p14 - 1)
    print(f"half p2p change at {len(PROBES)} frequencies: H 7->14 {change_7_14:.2e}, H 14->28 {change_14_28:.2e}; "
          f"peak: {peak_7_14:.2e}, {peak_14_28:.2e}")
    assert change_14_28 < change_7_14
    assert change_14_28 < 0.01 and peak_14_28 < 0.01


def test_lumped_pair_from_the_helical_example():
    model = load(EXAMPLES / "helical_pair.gdyn")
    lumped = lumped_from_model(model, "pair", 50.0, contact="step_gap")
    pair = model.gear_pairs["pair"]
    geo = pair_geometry(pair.pair_spec())
    r1 = 0.020 * math.cos(geo.working_pressure_angle)
    r2 = 0.040 * math.cos(geo.working_pressure_angle)
    i1 = model.bodies["gear1"].inertia[2][2]  # gear axes are the body z axes, joints on them
    i2 = model.bodies["gear2"].inertia[2][2]
    assert polar_inertia(model, "gear1_joint") == pytest.approx(i1, rel=1e-12)
    assert lumped.mass[0, 0] == pytest.approx(i1 * i2 / (i1 * r2**2 + i2 * r1**2), rel=1e-12)
    assert lumped.force[0] == pytest.approx(-50.0 * (i1 * r2**2 / r1 + i2 * r1) / (i1 * r2**2 + i2 * r1**2), rel=1e-12)
    kc = SINGLE_PAIR_STIFFNESS_PER_WIDTH * 0.020
    assert [c.stiffness for c in lumped.contacts] == [kc] * 3
    frac = np.linspace(0, 1, 4000, endpoint=False)
    assert np.mean(lumped.mesh_stiffness(frac)) == pytest.approx(geo.transverse_contact_ratio * kc, rel=1e-3)
    assert any("ISO 6336-1" in n for n in lumped.notes) and any("spur" in n for n in lumped.notes)
    with pytest.raises(ModelError, match="no gear pair 'nope'"):
        lumped_from_model(model, "nope", 50.0)
    planetary = load(EXAMPLES / "planetary.gdyn")  # an internal pair: on its base radii, as any other
    ring = planetary.gear_pairs["planet1_ring"]
    geo = pair_geometry(ring.pair_spec())
    i1, i2 = polar_inertia(planetary, ring.joint1), polar_inertia(planetary, ring.joint2)
    ring_pair = lumped_from_model(planetary, "planet1_ring", 1.0)
    assert ring_pair.mass[0, 0] == pytest.approx(i1 * i2 / (i1 * geo.base_radius_2 ** 2 + i2 * geo.base_radius_1 ** 2),
                                                 rel=1e-12)
    # a planet's pair turns on the carrier: the study says it holds the centres still (and the helical one's not)
    assert ("planet1_ring turns on the carrier 'carrier': the lumped pair holds its centres still (the train study, "
            "Analysis > Train Dynamics or geardyn train-chbm, takes the set with its carrier)") in ring_pair.notes
    assert not any("carrier" in n for n in lumped.notes)


def test_a_bearing_under_a_gear_is_said_to_be_left_out_of_the_lumped_pair():
    """The helical pair with gear 1 carried by a bearing (its joint on_bearing, its mesh compliant): the lumped
    pair is torsional, its centres still, so the bearing's springs take no part; the study says so and where
    they do (the train study)."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.forces["brg"] = E.BearingSpringDamper("brg", E.GROUND, "gear1", radial_stiffness=1e8)
    model.joints["gear1_joint"] = dataclasses.replace(model.joints["gear1_joint"], on_bearing=True)
    model.forces["mesh"] = E.CompliantMesh("mesh", "pair")  # a gear on a bearing needs one (the model check)
    notes = lumped_from_model(model, "pair", 50.0).notes
    assert ("brg carries gear1: the lumped pair holds its centres still and leaves the bearing's springs out (the "
            "train study, Analysis > Train Dynamics or geardyn train-chbm, takes them)") in notes
    assert not any("gear2" in n for n in notes)
    model.forces["brg2"] = E.BearingSpringDamper("brg2", E.GROUND, "gear2", position=(0.06, 0.0, 0.0))
    model.joints["gear2_joint"] = dataclasses.replace(model.joints["gear2_joint"], on_bearing=True)
    assert any(n.startswith("brg2 carries gear2") for n in lumped_from_model(model, "pair", 50.0).notes)


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "core.cli", "chbm", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_chbm_cli_writes_curve_period_and_plot(tmp_path):
    res = _cli("--torque", "100", "200", "300", "--f-min", "500", "--f-max", "4000", "--harmonics", "14",
               "--out", "curve.csv", "--period", "3250", "--period-out", "period.csv", "--plot", "curve.png", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert {r["torque [N m]"] for r in rows} == {"100", "200", "300"}
    assert {r["method"] for r in rows} == {"HBM"}
    f = [float(r["frequency [Hz]"]) for r in rows if r["torque [N m]"] == "100"]
    assert min(f) == 500.0 and max(f) >= 4000.0
    assert {"0", "1"} <= {r["stable"] for r in rows}
    period = list(csv.reader((tmp_path / "period.csv").open()))
    assert period[0][0] == "time [s]" and any("DTI forward" in n for n in period[0]) and any("HBM" in n for n in period[0])
    assert len(period) == 257
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"


def test_chbm_cli_with_model_and_dti(tmp_path):
    res = _cli("--model", str(EXAMPLES / "helical_pair.gdyn"), "--pair", "pair", "--torque", "20", "--f-min", "2000",
               "--f-max", "6000", "--dti", "--dti-points", "3", "--out", "c.csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "ISO 6336-1" in res.stdout
    methods = {r["method"] for r in csv.DictReader((tmp_path / "c.csv").open())}
    assert methods == {"HBM", "DTI forward", "DTI backward"}


def test_chbm_of_a_model_pair_defaults_to_its_own_torque_and_mesh_mode(tmp_path):
    """Without --torque and the range, a model pair is studied at half, once and twice its static torque under
    the model's mean loads (stage 2 of the reducer: 10 N m x 18 / 45 = 4 N m on gear 3) from 0.2 to 1.5 times
    its mesh mode, which the command says; the paper's 100 N m would load its 2 mm teeth 25 times over."""
    res = _cli("--model", str(EXAMPLES / "two_stage_reducer.gdyn"), "--pair", "stage2", "--harmonics", "3",
               "--out", "c.csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "torques about the 4 N m on gear 1 under the model's mean loads" in res.stderr
    rows = list(csv.DictReader((tmp_path / "c.csv").open()))
    torque_column = next(k for k in rows[0] if k.startswith("torque"))
    frequency_column = next(k for k in rows[0] if "frequency" in k)
    assert {float(r[torque_column]) for r in rows} == {2.0, 4.0, 8.0}
    frequencies = [float(r[frequency_column]) for r in rows]
    assert min(frequencies) == 920.0 and max(frequencies) == 6900.0  # 0.2 and 1.5 x 4581 Hz, two digits


def test_chbm_of_a_pair_without_a_mesh_mode_names_its_face_width_alone_with_the_ways_to_mend_it(tmp_path):
    """LossyGearDemo3's pair has no face width, so no ISO 6336 stiffness and no mesh mode. A range of 0 to 0 Hz was
    the first thing said; then a note on the paper's range that said the face width's lack before the error did.
    The step-gap contact is no way out here: the pair's contact ratio, 2.15, is outside (1, 2)."""
    res = _cli("--model", str(EXAMPLES / "lossy_gear_demo3.gdyn"), "--out", "c.csv", cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.strip() == (
        "error: gear.face_width: is 0; the ISO 6336 mesh stiffness needs it: give the pair a face width, or add a "
        "Compliant Mesh on it with a given stiffness")


def test_chbm_step_gap_contact_of_a_pair_without_a_face_width_names_the_flag_that_gives_its_stiffness(tmp_path):
    """The step-gap contact takes 14 N/(mm um) per mm of face width, or --contact-stiffness: a pair without a face
    width needs the flag, which the message names as the user types it."""
    res = _cli("--model", str(EXAMPLES / "lossy_gear_demo3.gdyn"), "--contact", "step_gap", "--out", "c.csv",
               cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.strip() == "error: gear.face_width: is 0; give --contact-stiffness or the pair a face width"
    assert not (tmp_path / "c.csv").exists()


@pytest.mark.parametrize("args, expected", [
    (["--f-min", "4000", "--f-max", "500", "--out", "x.csv"], "--f-min, --f-max: need 0 < f-min < f-max Hz"),
    (["--harmonics", "0", "--out", "x.csv"], "--harmonics: must be a whole number from 1 to 100"),
    (["--torque", "-5", "--out", "x.csv"], "--torque: every torque must be a number from 1e-09 to 1e+06 N m, got -5"),
    (["--torque", "1e308", "--out", "x.csv"], "--torque: every torque must be a number from 1e-09 to 1e+06 N m, got 1e+308"),
    # a subnormal torque made the solver's scaling divide by zero ("Singular matrix")
    (["--torque", "5e-324", "--out", "x.csv"], "--torque: every torque must be a number from 1e-09 to 1e+06 N m"),
    (["--contact-stiffness", "0", "--out", "x.csv"], "--contact-stiffness: must be a number from 1 to 1e+12 N/m, got 0 N/m"),
    # a subnormal stiffness stalled Newton with invalid-value warnings
    (["--contact-stiffness", "5e-324", "--out", "x.csv"], "--contact-stiffness: must be a number from 1 to 1e+12 N/m"),
    (["--contact-stiffness", "1e308", "--out", "x.csv"], "--contact-stiffness: must be a number from 1 to 1e+12 N/m"),
    (["--dti", "--dti-points", "-1", "--out", "x.csv"], "--dti-points: must be a whole number from 2 to 2000, got -1"),
    (["--dti", "--dti-points", "1000000000", "--out", "x.csv"], "--dti-points: must be a whole number from 2 to 2000"),
    # it was read only with --dti: without it, 50 points ran no sweep and said nothing
    (["--dti-points", "50", "--out", "x.csv"], "--dti-points: sets the DTI sweeps, which run only with --dti"),
    (["--contact", "mesh", "--out", "x.csv"], "--contact: chooses the contact of --model's pair"),
    (["--period", "9000", "--period-out", "p.csv", "--out", "x.csv"], "--period: must be from 500 to 4000 Hz"),
    (["--pair", "p", "--out", "x.csv"], "--pair: names a gear pair of --model; the paper's pair (no --model) needs none"),
])
def test_chbm_cli_bad_ranges(tmp_path, args, expected):
    res = _cli(*args, cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [f"geardyn: error: {expected}"] or expected in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_curve_covers_exactly_the_asked_range_with_a_largest_step(tmp_path):
    """500-4000 Hz: the first point on 500 Hz, the last on 4000 Hz (it was 4156 Hz), no step above df_max."""
    res = _cli("--torque", "100", "--f-min", "500", "--f-max", "4000", "--df-max", "50", "--out", "c.csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    f = np.array([float(r["frequency [Hz]"]) for r in csv.DictReader((tmp_path / "c.csv").open())])
    assert f[0] == pytest.approx(500.0, rel=1e-12) and f[-1] == pytest.approx(4000.0, rel=1e-12)
    assert f.max() <= 4000.0 * (1 + 1e-12) and np.abs(np.diff(f)).max() <= 50.0 * 1.05
    bad = _cli("--df-max", "0", "--out", "x.csv", cwd=tmp_path)
    assert bad.returncode == 2 and "--df-max: must be above 0" in bad.stderr


def test_a_curve_cut_by_the_point_cap_is_an_error_naming_the_frequency_reached():
    hb = HarmonicBalance(paper_model(100.0), 4)
    with pytest.raises(ContinuationError, match=r"the curve stopped at 10\d\d(\.\d+)? Hz, short of 1500 Hz: it "
                                                r"holds 50 points") as info:
        follow(hb, 1000.0, 1500.0, df_max=0.5, max_points=50)
    assert len(info.value.points) == 50 and info.value.points[-1].frequency < 1500.0


def test_the_cli_refuses_a_df_max_that_needs_more_points_than_a_curve_holds(tmp_path):
    done = subprocess.run([sys.executable, "-m", "core.cli", "chbm", "--harmonics", "4", "--f-min", "1000", "--f-max",
                           "1500", "--df-max", "0.001", "--out", str(tmp_path / "c.csv")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and not (tmp_path / "c.csv").exists()
    assert "--df-max: must be at least 0.025 Hz for this range: a curve holds at most 20000 points" in done.stderr


def test_a_model_in_error_is_refused_before_its_lumped_pair_is_built():
    model = load(EXAMPLES / "helical_pair.gdyn")
    tiny = ((1e-300, 0.0, 0.0), (0.0, 1e-300, 0.0), (0.0, 0.0, 1e-300))
    model.bodies["gear1"] = dataclasses.replace(model.bodies["gear1"], inertia=tiny)
    with pytest.raises(ModelError, match="--model: error: gear1: inertia is implausibly small"):
        lumped_from_model(model, "pair", 50.0)


def test_a_curve_that_stalls_keeps_its_points_and_says_where_why_and_what_may_go_on():
    """The paper's pair with 0.3 % of its damping: at 547 Hz (a superharmonic resonance with contact loss)
    no arclength step finds the next point. The error names the frequency, the cause and the remedies, and
    the points up to there are kept, each a solution. (From 500 Hz the path tangles first, from 531 Hz:
    test_train_multi_frequency.py has a curve that stops at its tangle.)"""
    model = paper_model(100.0)
    hb = HarmonicBalance(dataclasses.replace(model, damping=0.003 * model.damping), 14)
    with pytest.raises(ContinuationError) as caught:
        follow(hb, 540.0, 4000.0)
    message, points = str(caught.value), caught.value.points
    assert message.startswith("continuation stalled near 547.")
    assert "a tooth contact opens or closes" in message and "more mesh damping" in message
    assert len(points) > 100 and 540.0 < points[-1].frequency < 550.0
    assert max(np.linalg.norm(hb.residual(p.z, 2 * math.pi * p.frequency, jacobian=False)) for p in points) < 1e-9


def test_chbm_of_a_model_with_one_pair_needs_no_pair_name_and_of_several_asks_for_one(tmp_path):
    """The helical pair example holds one pair: `--model` alone studies it (the same curve as naming it); the
    planetary holds six: the error names them, and nothing is written."""
    args = ["--torque", "20", "--f-min", "2000", "--f-max", "3000", "--df-max", "50"]
    named = _cli("--model", str(EXAMPLES / "helical_pair.gdyn"), "--pair", "pair", *args, "--out", "a.csv", cwd=tmp_path)
    alone = _cli("--model", str(EXAMPLES / "helical_pair.gdyn"), *args, "--out", "b.csv", cwd=tmp_path)
    assert named.returncode == alone.returncode == 0, alone.stderr
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
    several = _cli("--model", str(EXAMPLES / "planetary.gdyn"), *args, "--out", "c.csv", cwd=tmp_path)
    assert several.returncode == 1 and not (tmp_path / "c.csv").exists()
    assert ("error: --pair: the model has 6 gear pairs (sun_planet1, sun_planet2, sun_planet3, planet1_ring, "
            "planet2_ring, planet3_ring): name the one to study") in several.stderr
