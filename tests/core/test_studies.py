"""Parameter studies (core/studies): the study file, cases made by core commands, dask runs, the CLI."""

import csv
import json
import math
import os
import subprocess
import sys

import pytest
from threadpoolctl import threadpool_info

from core.chbm.newmark import NewmarkIntegrator
from core.chbm.lumped_model import paper_model
from core.commands import replace_fields
from core.model.entities import TimeLaw
from core.model.files import load
from core.dynamics.simulate import simulate
from core.errors import ModelError
from core.studies.parameters import apply, current_value, first_parameter, numeric_paths, path_range
from core.studies.runner import local_cluster, run_study, write_results
from core.studies.study_file import load_study, study_from_dict
from core.validation.checker import validate
from tests.conftest import EXAMPLES

STUDY = EXAMPLES / "planetary_study.json"


def short_repr(study_dict: dict) -> dict:
    study_dict["analysis"].update(t_end=0.01, step=1e-3, output_step=1e-3)
    return study_dict


def test_the_example_study_file_loads_and_makes_its_grid():
    study = load_study(STUDY)
    assert study.base == str((EXAMPLES / "planetary.gdyn").resolve())
    cases = study.cases()
    assert len(cases) == 9 and cases[0] == (0.02, 1.0) and cases[-1] == (0.025, 3.0)
    listed = study_from_dict({**json.loads(STUDY.read_text()), "combine": "list"}, str(STUDY))
    assert listed.cases() == [(0.02, 1.0), (0.0225, 2.0), (0.025, 3.0)]


@pytest.mark.parametrize("change, message", [
    ({"combine": "cross"}, "combine: must be one of grid, list"),
    ({"parameters": [{"path": "gears.sun", "values": [1]}]}, "parameters[0].path: 'gears.sun' must look like gears.NAME.FIELD"),
    ({"parameters": [{"path": "gears.sun.face_width", "grid": {"start": 1, "stop": 2, "count": 0}}]},
     "parameters[0].grid.count: must be a whole number from 1 to 100000"),
    ({"analysis": {"kind": "simulation", "outputs": [{"channel": "x", "reduce": "median"}]}}, "analysis.outputs[0]: needs"),
    ({"analysis": {"kind": "simulation", "outputs": [{"channel": " ", "reduce": "final"}]}},
     "analysis.outputs[0].channel: must name a channel"),
    ({"analysis": {"kind": "fem"}}, "analysis.kind: must be one of simulation, chbm"),
    ({"parameters": [{"path": "chbm.inertia", "values": [1]}]}, "chbm paths are chbm.{torque}"),
])
def test_bad_study_files_name_the_field(change, message):
    data = {**json.loads(STUDY.read_text()), **change}
    with pytest.raises(ModelError) as err:
        study_from_dict(data, str(STUDY))
    assert message in str(err.value)


def test_a_study_file_is_refused_naming_every_bad_field_in_the_core_and_the_cli(tmp_path):
    """Six mistakes in one study file, in its fields, its parameters and its analysis: each is named, not the
    first alone (the rest used to come one mend at a time), and `geardyn study` prints an error line for each."""
    data = json.loads(STUDY.read_text())
    data.update(combine="cross", colour="red")
    data["parameters"][0]["values"] = [0.015, "wide"]
    data["parameters"][1]["grid"]["count"] = 0
    data["analysis"].update(t_ende=1.0)
    data["analysis"]["outputs"][1]["reduce"] = "median"
    expected = ["colour", "combine", "parameters[0].values[1]", "parameters[1].grid.count", "analysis.t_ende",
                "analysis.outputs[1]"]
    with pytest.raises(ModelError) as err:
        study_from_dict(data, str(STUDY))
    assert sorted(path for path, _ in err.value.problems) == sorted(expected)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**data, "base": str(EXAMPLES / "planetary.gdyn")}))
    res = subprocess.run([sys.executable, "-m", "core.cli", "study", str(path), "--out", str(tmp_path / "r.csv")],
                         capture_output=True, text=True)
    assert res.returncode != 0
    for field in expected:
        assert any(line.startswith(f"error: {field}: ") for line in res.stderr.splitlines()), field


def test_a_changed_face_width_regenerates_the_gear_and_its_inertia():
    """The case's edit is the GUI's edit (set_gear_spec): mass and inertia follow the new width."""
    model = load(EXAMPLES / "planetary.gdyn")
    sun = model.bodies["sun"]
    apply(model, "gears.sun.face_width", 2 * sun.visual.spec.face_width)
    wider = model.bodies["sun"]
    assert wider.visual.spec.face_width == pytest.approx(2 * sun.visual.spec.face_width)
    assert wider.mass == pytest.approx(2 * sun.mass, rel=1e-9)  # a spur gear is a prism: mass linear in width
    assert wider.inertia[2][2] == pytest.approx(2 * sun.inertia[2][2], rel=1e-9)
    with pytest.raises(ModelError, match="gears.sun.teeth: must be a whole number"):
        apply(model, "gears.sun.teeth", 24.5)
    with pytest.raises(ModelError, match="the model has no pair 'nope'"):
        apply(model, "pairs.nope.module", 0.002)


def test_a_law_field_its_kind_does_not_use_is_not_offered_and_a_case_varying_it_says_so():
    """The sun torque is a constant law: its amplitude, frequency, final value and times change nothing. They were
    offered in the study window's picker, and a study varying the amplitude ran every case alike without a word;
    now the picker leaves them out and a case fails naming the field and what the law uses. A sine law offers
    its amplitude, and a case varying it runs."""
    model = load(EXAMPLES / "planetary.gdyn")
    paths = numeric_paths(model)
    assert "forces.sun_torque.law.value" in paths
    assert not [p for p in paths if p.startswith("forces.sun_torque.law.") and not p.endswith(".value")]
    with pytest.raises(ModelError, match=r"forces.sun_torque.law.amplitude: a constant law does not use amplitude "
                                         r"\(it uses value\)"):
        apply(model, "forces.sun_torque.law.amplitude", 0.5)
    sine = load(EXAMPLES / "planetary.gdyn")
    replace_fields(sine, "sun_torque", law=TimeLaw(kind="sine", value=1.0, amplitude=0.2, frequency=5.0)).do(sine)
    assert {"forces.sun_torque.law.amplitude", "forces.sun_torque.law.frequency",
            "forces.sun_torque.law.phase"} <= set(numeric_paths(sine))
    apply(sine, "forces.sun_torque.law.amplitude", 0.5)
    assert sine.forces["sun_torque"].law.amplitude == 0.5


def _study(path: str, values: list, channel: str, base: str = "helical_pair.gdyn") -> list[dict]:
    """The cases of a simulation study of an example over 10 ms on its own settings: `channel` at the end."""
    return run_study(study_from_dict({"base": str(EXAMPLES / base), "parameters": [{"path": path, "values": values}],
                                      "analysis": {"kind": "simulation", "t_end": 0.01,
                                                   "outputs": [{"channel": channel, "reduce": "final"}]}}), workers=0)


def test_a_case_edits_a_pair_as_the_properties_do_so_its_gears_follow_new_teeth():
    """The helical pair's z1 from 20 to 25: as in the Properties dock (core.gearing.pair_gears.edit_pair), gear 1
    is generated again, gear 2 moves to the new centre distance and takes the new ratio's start speed, so the
    case runs (it failed on a centre distance of 60 mm against 65 mm) and gear 2 turns at -100 x 25/40 rad/s."""
    rows = _study("pairs.pair.z1", [20, 25], "gear2_joint.speed")
    assert [r["status"] for r in rows] == ["ok", "ok"], rows
    assert [r["results"][0] for r in rows] == pytest.approx([-100 * 20 / 40, -100 * 25 / 40], rel=1e-9)
    model = load(EXAMPLES / "helical_pair.gdyn")
    apply(model, "pairs.pair.z1", 25)
    assert model.bodies["gear1"].visual.spec.teeth == 25 and validate(model, errors_only=True) == []


def test_a_pairs_face_width_its_mesh_model_does_not_take_is_not_offered_and_a_case_varying_it_says_so():
    """A rigid spur or helical pair's forces do not depend on its face width (the gears carry their own): the
    planetary's cases ran alike without a word. Nor does the compliant example's mesh (a given stiffness and a
    cosine waveform) take it. With the ISO 6336 stiffness, c_gamma_alpha b, the width is offered and the mesh
    stiffness follows it: three times the width, three times the stiffness."""
    planetary = load(EXAMPLES / "planetary.gdyn")
    assert "pairs.planet3_ring.face_width" not in numeric_paths(planetary)
    rows = _study("pairs.planet3_ring.face_width", [0.01, 0.03], "sun_planet1.Ft", "planetary.gdyn")
    assert [r["status"] for r in rows] == ["failed", "failed"]
    assert rows[0]["message"].startswith("pairs.planet3_ring.face_width: has no effect: a rigid cylindrical pair's "
                                         "forces do not depend on its face width")
    compliant = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    assert "pairs.pair.face_width" not in numeric_paths(compliant)
    with pytest.raises(ModelError, match="pairs.pair.face_width: has no effect: its Compliant Mesh 'mesh' has a "
                                         "given stiffness and a cosine waveform"):
        apply(compliant, "pairs.pair.face_width", 0.01)
    replace_fields(compliant, "mesh", stiffness="iso6336").do(compliant)
    assert "pairs.pair.face_width" in numeric_paths(compliant)
    stiffness = []
    for width in (0.01, 0.03):
        case = compliant.copy()
        apply(case, "pairs.pair.face_width", width)
        stiffness.append(simulate(case, t_end=1e-4)["mesh.stiffness"][0])
    assert stiffness[1] == pytest.approx(3 * stiffness[0], rel=1e-12)


def test_a_field_its_items_configuration_leaves_unused_is_not_offered_and_a_case_varying_it_says_so():
    """The compliant pair's mesh damping is a constant (damping_model = constant): its damping ratio changes
    nothing; the picker offered it and a case varying it ran as the model does. Its damping is offered."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    paths = numeric_paths(model)
    assert "forces.mesh.damping" in paths and "forces.mesh.damping_ratio" not in paths
    with pytest.raises(ModelError, match=r"forces.mesh.damping_ratio: has no effect: the damping is a constant "
                                         r"\(damping_model = constant\)"):
        apply(model, "forces.mesh.damping_ratio", 0.1)
    apply(model, "forces.mesh.damping", 2 * model.forces["mesh"].damping)
    # a gear pair's pitch angle is a bevel pair's (GearPair.inactive_fields: the Properties dock hides it)
    planetary = load(EXAMPLES / "planetary.gdyn")
    assert "pairs.sun_planet1.pitch_angle" not in numeric_paths(planetary)
    assert "pairs.planet1_ring.x1" not in numeric_paths(planetary)  # an internal pair: no profile shifts
    assert "pairs.sun_planet1.x1" in numeric_paths(planetary)
    with pytest.raises(ModelError, match="pairs.sun_planet1.pitch_angle: has no effect: only a bevel pair has one"):
        apply(planetary, "pairs.sun_planet1.pitch_angle", 0.5)
    # a pair with a loss table takes its losses from the table: its constant efficiency and friction are unused
    lossy = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    assert "pairs.gear.efficiency" not in numeric_paths(lossy)
    assert "pairs.gear.bearing_friction" not in numeric_paths(lossy)
    with pytest.raises(ModelError, match=r"pairs.gear.efficiency: has no effect: the loss table gives the pair's "
                                         r"losses"):
        apply(lossy, "pairs.gear.efficiency", 0.9)
    replace_fields(lossy, "gear", loss_table=()).do(lossy)
    assert "pairs.gear.efficiency" in numeric_paths(lossy) and "pairs.gear.bearing_friction" in numeric_paths(lossy)


def test_a_varied_setting_runs_each_case_at_its_value_and_an_option_the_integrator_does_not_take_is_refused():
    """The analysis gives t_end, step and integrator for every case; a parameter settings.t_end was overridden by
    it, so every case ran to the analysis's end time, and settings.rtol under rk4 changed nothing: both cases
    alike, without a word. Now a varied setting is each case's own (the planetary from rest under a constant
    torque: its sun speed grows linearly, so 20 and 40 ms give speeds 1:2, the analysis's 50 ms neither), and an
    integrator option the analysis's integrator does not take fails its cases naming it."""
    data = short_repr(json.loads(STUDY.read_text()))
    data["parameters"] = [{"path": "settings.t_end", "values": [0.02, 0.04]}]
    data["analysis"]["outputs"] = [{"channel": "sun_joint.speed", "reduce": "final"}]
    rows = run_study(study_from_dict(data, str(STUDY)), workers=0)
    assert [r["status"] for r in rows] == ["ok", "ok"]
    slow, fast = (r["results"][0] for r in rows)
    assert fast == pytest.approx(2 * slow, rel=1e-12)
    data["parameters"] = [{"path": "settings.rtol", "values": [1e-3, 1e-9]}]
    rows = run_study(study_from_dict(data, str(STUDY)), workers=0)
    assert [r["status"] for r in rows] == ["failed", "failed"]
    assert rows[0]["message"] == ("settings.rtol: not used by rk4 (the integrator the cases run with, which takes "
                                  "no options)")


def test_a_new_study_starts_on_a_load_torque_not_on_a_gears_module():
    """A gear's module varied alone leaves its pairs' module behind (every case but the first warns); a study
    starts on the load torque of the two-stage reducer (a speed motor drives it) and the planetary's sun torque;
    a model without loads on its first gear's face width (its mass and inertia follow, and no pair rule compares
    it), where its first path (gear 1's module) made every changed case warn."""
    assert first_parameter(load(EXAMPLES / "two_stage_reducer.gdyn")) == "forces.load.law.value"
    assert first_parameter(load(EXAMPLES / "planetary.gdyn")) == "forces.sun_torque.law.value"
    for name, gear in (("helical_pair", "gear1"), ("bevel_pair", "pinion"), ("inner_pair", "pinion")):
        bare = load(EXAMPLES / f"{name}.gdyn")
        path = first_parameter(bare)
        assert not bare.forces and path == f"gears.{gear}.face_width", name
        inertia = bare.bodies[gear].inertia
        apply(bare, path, 1.1 * bare.bodies[gear].visual.spec.face_width)  # the bevel's 22 mm: under R_e / 3
        assert bare.bodies[gear].inertia != inertia and validate(bare) == [], name


def test_simulation_cases_against_the_closed_form_planetary():
    """Each case's final sun speed is T t / J_eq of the case's own (regenerated) gears (ring held)."""
    study = study_from_dict(short_repr(json.loads(STUDY.read_text())), str(STUDY))
    rows = run_study(study, workers=0)
    assert [r["status"] for r in rows] == ["ok"] * 9
    # a sun narrower than its pairs' 20 mm was warned about in every such case of the example (a first study's
    # table of warnings): the example's widths run from the pairs' to 25 mm (at 30 mm the sun reaches the carrier)
    assert [r["message"] for r in rows] == [""] * 9
    for (width, torque), row in zip(study.cases(), rows):
        model = load(EXAMPLES / "planetary.gdyn")
        apply(model, "gears.sun.face_width", width)
        b = model.bodies
        izz = {k: b[k].inertia[2][2] for k in b}
        kc, a = 24 / 96, 0.002 * 48 / 2
        kp = kc - (1 - kc)
        j_eq = izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                         for k in (1, 2, 3))
        assert row["results"][2] == pytest.approx(torque / j_eq * 0.01, rel=1e-6)


def test_a_laws_parameters_are_in_the_units_of_the_load_that_has_it():
    """A torque's law value is in N m and a speed motor's in rad/s (they were 'SI' in the study window, which had
    to say so); a phase is typed in degrees, as the law dialog takes it: 90 deg is pi/2 in the model."""
    model = load(EXAMPLES / "planetary.gdyn")  # sun_torque: a Torque; ring_hold: a SpeedMotor
    assert path_range(model, "forces.sun_torque.law.value").shown_unit == "N m"
    assert path_range(model, "forces.sun_torque.law.amplitude").shown_unit == "N m"
    assert path_range(model, "forces.ring_hold.law.final").shown_unit == "rad/s"
    phase = path_range(model, "forces.sun_torque.law.phase")
    assert phase.shown_unit == "deg" and phase.from_display(90.0) == pytest.approx(math.pi / 2)
    assert path_range(model, "forces.sun_torque.law.frequency").shown_unit == "Hz"


def test_a_failed_case_is_reported_and_the_others_run(tmp_path):
    """The second case's output step (0.5 s) lies in its field's range but beyond the study's end time (50 ms):
    that case fails, saying why, and the others run."""
    data = short_repr(json.loads(STUDY.read_text()))
    data["parameters"] = [{"path": "settings.output_step", "values": [0.001, 0.5, 0.002]}]
    study = study_from_dict(data, str(STUDY))
    rows = run_study(study, workers=0)
    assert [r["status"] for r in rows] == ["ok", "failed", "ok"]
    assert "output_step: must be at most the end time" in rows[1]["message"] and math.isnan(rows[1]["results"][0])
    out = tmp_path / "r.csv"
    write_results(out, study, rows)
    table = list(csv.reader(out.open()))
    assert table[0] == ["case", "settings.output_step", "sun_planet1.Ft max_abs [N]", "sun_planet1.Ft std [N]",
                        "sun_joint.speed final [rad/s]", "status", "message"]
    assert table[2][-2] == "failed" and "output_step" in table[2][-1]


def test_a_case_is_checked_with_the_settings_the_study_runs_it_with():
    """A study's own step is checked as the model's would be: the compliant pair (mesh mode 1653 Hz) studied at
    1e-3 s says RK4 is unstable there (its case then fails, as the warning says); at 2e-5 s it says nothing."""
    def rows_at(step):
        data = {"base": str(EXAMPLES / "compliant_mesh_pair.gdyn"),
                "parameters": [{"path": "forces.drive.law.value", "values": [100.0]}],
                "analysis": {"kind": "simulation", "t_end": 0.06, "step": step, "output_step": 0.001,
                             "integrator": "rk4", "outputs": [{"channel": "mesh.TE", "reduce": "final"}]}}
        return run_study(study_from_dict(data, str(STUDY)), workers=0)

    coarse = rows_at(1e-3)
    assert "warning: settings.step: RK4 is unstable at 0.001 s on the model's fastest mode" in coarse[0]["message"]
    assert coarse[0]["status"].startswith("failed"), coarse[0]
    fine = rows_at(2e-5)
    assert fine[0]["status"] == "ok" and fine[0]["message"] == "", fine[0]


def test_a_case_whose_model_has_warnings_runs_and_names_them(tmp_path):
    """The sun regenerated with a 3 mm module runs (a warning, not an error) but its row says that its pairs
    are 2 mm; the case with the example's own module has no message."""
    data = short_repr(json.loads(STUDY.read_text()))
    data["parameters"] = [{"path": "gears.sun.module", "values": [0.002, 0.003]}]
    rows = run_study(study_from_dict(data, str(STUDY)), workers=0)
    assert [r["status"] for r in rows] == ["ok", "ok"] and rows[0]["message"] == ""
    assert ("warning: sun_planet1: transverse module m_t 2 mm but gear 'sun' was generated with m_t 3 mm "
            "(m_n 3 mm)") in rows[1]["message"]
    out = tmp_path / "r.csv"
    write_results(out, study_from_dict(data, str(STUDY)), rows)
    assert list(csv.reader(out.open()))[2][-1] == rows[1]["message"]


def test_chbm_study_of_the_papers_pair_finds_the_peak_a_newmark_run_down_finds():
    study = study_from_dict({"base": "chbm", "parameters": [{"path": "chbm.torque", "values": [100.0, 200.0]}],
                             "analysis": {"kind": "chbm", "f_min": 1000, "f_max": 3000, "harmonics": 7}})
    rows = run_study(study, workers=0)
    assert [r["status"] for r in rows] == ["ok", "ok"]
    (half_100, f_100, mean_100, _), (half_200, f_200, mean_200, _) = (r["results"] for r in rows)
    # the independent reference: Newmark time integration run down from 2300 Hz, so that it stays on the upper
    # branch of the main resonance, ending at the study's peak frequency
    run_down = NewmarkIntegrator(paper_model(100.0)).sweep([2300.0, 2100.0, 1900.0, 1750.0, 1650.0, f_100],
                                                           "backward")
    assert run_down[-1].converged
    assert run_down[-1].summary()[1] == pytest.approx(half_100, rel=1e-3)
    assert 1550.0 < f_100 < 1750.0  # the main resonance's fold, not an end of the range
    # the paper's pair has no backlash: its response is proportional to the torque, so doubling the torque
    # doubles the peak's amplitude and mean at the same frequency
    assert (half_200, mean_200) == pytest.approx((2 * half_100, 2 * mean_100), rel=1e-6)
    assert f_200 == pytest.approx(f_100, rel=1e-9)


def test_dask_local_cluster_gives_the_serial_results():
    study = study_from_dict(short_repr(json.loads(STUDY.read_text())), str(STUDY))
    serial = run_study(study, workers=0)
    seen = []
    parallel = run_study(study, workers=2, progress=lambda done, total, row: seen.append((done, total)))
    for p, s in zip(parallel, serial):  # to round-off: workers run BLAS on one thread
        assert p["results"] == pytest.approx(s["results"], rel=1e-9)
    assert seen[-1] == (9, 9)


def _on_local_workers(function) -> dict:
    """`function()` on each worker of a local cluster of 2 (started and closed here), by worker address."""
    cluster, client = local_cluster(2)
    try:
        return client.run(function)
    finally:
        client.close()
        cluster.close()


def _mark_and_blas_pools():
    """On a worker: the mark the test process set, if the worker has it, and its BLAS thread pools."""
    return getattr(sys, "geardyn_test_mark", None), threadpool_info()


def test_local_workers_start_afresh_with_one_blas_thread_each(monkeypatch):
    # A worker forked from a process with threads may inherit a lock one of them held, and wait on it for ever: a
    # test process has several (execnet's, pytest-timeout's, the cluster's own IO loop, which forks). The workers
    # are spawned: they start afresh, without this process's memory (a mark set here), and each keeps to one BLAS
    # thread, as two workers on two cores must.
    monkeypatch.setattr(sys, "geardyn_test_mark", "set in the test process", raising=False)
    seen = list(_on_local_workers(_mark_and_blas_pools).values())
    assert [mark for mark, _ in seen] == [None, None]
    for _, info in seen:
        assert info, "no BLAS pool found in a worker"
        assert all(pool["num_threads"] == 1 for pool in info), info


def test_cli_study(tmp_path):
    out = tmp_path / "results.csv"
    data = short_repr(json.loads(STUDY.read_text()))
    data["base"] = str(EXAMPLES / "planetary.gdyn")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    res = subprocess.run([sys.executable, "-m", "core.cli", "study", str(path), "--out", str(out), "--workers", "0"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "9 cases, 9 computed, 0 failed" in res.stdout
    assert len(list(csv.reader(out.open()))) == 10
    bad = subprocess.run([sys.executable, "-m", "core.cli", "study", str(path), "--out", str(tmp_path / "no" / "r.csv")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--out: the folder" in bad.stderr and "does not exist" in bad.stderr


def test_a_chbm_case_outside_its_ranges_fails_naming_the_parameter():
    study = study_from_dict({"base": "chbm", "parameters": [{"path": "chbm.inertia", "values": [-1.0, 1e-3]}],
                             "analysis": {"kind": "chbm", "f_min": 1000, "f_max": 3000, "harmonics": 4}})
    rows = run_study(study, workers=0)
    assert [r["status"] for r in rows] == ["failed", "ok"]
    assert rows[0]["message"] == "chbm.inertia: must be above 0 and at most 1000 kg m^2, got -1"


def test_an_undamped_chbm_case_fails_where_its_curve_turns_back_instead_of_reporting_a_peak_outside_its_range():
    study = study_from_dict({"base": "chbm", "parameters": [{"path": "chbm.damping", "values": [0.0]}],
                             "analysis": {"kind": "chbm", "f_min": 1000, "f_max": 3000, "harmonics": 4}})
    (row,) = run_study(study, workers=0)
    # the undamped resonance never closes: the curve folds back below the range (its peak is at infinity)
    assert row["status"] == "failed" and "turned back below f_min (1000 Hz)" in row["message"]
    assert math.isnan(row["results"][0])


@pytest.mark.parametrize("path, kind, words", [
    ("forces.drive.law.value", "chbm", "not used by a chbm analysis: its torque is analysis.torque or chbm.torque"),
    ("settings.step", "chbm", "not used by a chbm analysis"),
    ("chbm.torque", "simulation", "not used by a simulation analysis"),
])
def test_a_parameter_its_analysis_does_not_use_is_refused_at_load(path, kind, words):
    analysis = ({"kind": "chbm"} if kind == "chbm" else
                {"kind": "simulation", "outputs": [{"channel": "mesh.Fc", "reduce": "max"}]})
    with pytest.raises(ModelError, match=words) as info:
        study_from_dict({"base": str(EXAMPLES / "compliant_mesh_pair.gdyn"), "pair": "pair",
                         "parameters": [{"path": path, "values": [1.0, 2.0]}], "analysis": analysis})
    assert info.value.path == "parameters[0].path"


def test_a_number_too_large_for_a_float_is_one_line():
    with pytest.raises(ModelError, match=r"parameters\[0\].values\[0\]: must be a finite number, got one of 401 "):
        study_from_dict({"base": "chbm", "parameters": [{"path": "chbm.torque", "values": [10**400]}],
                         "analysis": {"kind": "chbm"}})


def test_a_study_whose_cases_run_in_python_says_so_in_each_message_and_once_on_the_terminal(tmp_path):
    """With no compiled kernels in the cache a short case runs in Python (as a run's plan line says); a study's
    table and the command say it, where they said nothing."""
    data = short_repr(json.loads(STUDY.read_text()))
    data["base"] = str(EXAMPLES / "planetary.gdyn")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    empty = tmp_path / "no kernels"
    empty.mkdir()
    res = subprocess.run([sys.executable, "-m", "core.cli", "study", str(path), "--out", str(tmp_path / "r.csv"),
                          "--workers", "0"], capture_output=True, text=True,
                         env={**os.environ, "GEARDYN_KERNEL_CACHE": str(empty)})
    assert res.returncode == 0, res.stderr
    assert "note: 9 of 9 cases ran in Python, not compiled: the compiled kernels are not in the cache" in res.stdout
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert all(r["message"].startswith("not compiled: ") for r in rows)


def test_the_value_now_at_a_path_is_read_where_apply_would_write_it():
    """The planetary example (sun of 24 teeth, 1 N m on it, as its description says): the numbers a study
    starts from, read through the same path resolution `apply` writes through; a path naming nothing gives None."""
    model = load(EXAMPLES / "planetary.gdyn")
    assert current_value(model, "forces.sun_torque.law.value") == 1.0
    assert current_value(model, "gears.sun.teeth") == 24.0
    assert current_value(model, "settings.t_end") == model.settings.t_end
    apply(model, "gears.sun.face_width", 0.03)
    assert current_value(model, "gears.sun.face_width") == 0.03  # what apply wrote
    for nothing in ("pairs.nope.module", "gears.sun.nope", "settings.nope", "bodies", "chbm.torque", ""):
        assert current_value(model, nothing) is None, nothing


def test_a_value_outside_its_fields_range_is_refused_before_any_case_runs():
    """A study of the sun's module at 2 and 200 mm ran both cases, the second failing as it started ('must be a
    number from 0.1 to 100 mm'); a grid of many values failed case by case. The study is now refused before any
    case runs, naming the parameter and its first value out of range; a value in range that a case still cannot
    take (an output step beyond the end time) fails that case alone."""
    data = json.loads(STUDY.read_text())
    data["analysis"].update(t_end=0.01, step=0.001)
    data["parameters"] = [{"path": "gears.sun.face_width", "values": [0.02]},
                          {"path": "gears.sun.module", "values": [0.002, 0.2, 0.3]}]
    ran = []
    with pytest.raises(ModelError) as err:
        run_study(study_from_dict(data, str(STUDY)), workers=0, progress=lambda *a: ran.append(a))
    assert err.value.problems == [("parameters[1].values", "gears.sun.module must be a number from 0.1 to 100 mm, "
                                                           "got 200 mm")]
    assert ran == []
    data["parameters"] = [{"path": "settings.output_step", "values": [0.001, 0.5]}]
    rows = run_study(study_from_dict(data, str(STUDY)), workers=0)
    assert [r["status"] for r in rows] == ["ok", "failed"]


def _worker_errors_heard() -> list[str]:
    """On a worker: two errors logged as dask's worker logs them, and which of them reach a handler."""
    import logging

    heard = []

    class Hear(logging.Handler):
        def emit(self, record):
            heard.append(record.getMessage())

    logger = logging.getLogger("distributed.worker")
    hear = Hear()
    logger.addHandler(hear)
    try:
        logger.error("Failed to communicate with scheduler during heartbeat.")
        logger.error("Worker stream died during communication")
    finally:
        logger.removeHandler(hear)
    return heard


def test_a_local_worker_keeps_quiet_of_a_heartbeat_its_closing_scheduler_leaves_unanswered_and_not_of_other_errors():
    """A study's cluster closing printed a worker's traceback, 'Failed to communicate with scheduler during
    heartbeat' (dask/distributed#7105: a heartbeat in flight as the scheduler closes), on the terminal of make test
    and of the app. The local workers now drop that one report; their other errors are printed as before (and a
    worker lost for good fails its cases, which say so)."""
    heard = _on_local_workers(_worker_errors_heard)
    assert len(heard) == 2
    assert all(h == ["Worker stream died during communication"] for h in heard.values()), heard
