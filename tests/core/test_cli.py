"""The headless CLI: JSON in SI, one-line errors with the allowed range, exit codes, no Qt."""

import json
import math
import subprocess
import sys

import pytest
import trimesh

from core.dynamics.results import open_results
from core.geometry.mass_properties import mesh_mass_properties
from core.geometry.mesh_import import read_mesh
from core.model.entities import option_users
from core.model.files import load, save
from core.studies.parameters import apply
from core.wording import listed
from tests.conftest import EXAMPLES, ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "core.cli", *args], cwd=ROOT, capture_output=True, text=True)


def test_gear_helical_json_is_si_and_complete(tmp_path):
    out_file = tmp_path / "g.stl"
    res = run("gear", "helical", "--module", "2", "--teeth", "20", "--pressure-angle", "20", "--helix-angle", "15",
              "--width", "20", "--bore", "12", "--export", str(out_file), "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["pitch_radius"] == pytest.approx(0.020)
    assert data["base_radius"] == pytest.approx(0.01871542, rel=1e-6)  # hand-worked, see test_macro_geometry
    assert data["transverse_pressure_angle"] == pytest.approx(math.radians(20.64690), rel=1e-6)
    assert data["units"]["pitch_radius"] == "m" and data["units"]["mass"] == "kg" and data["units"]["inertia"] == "kg m^2"
    assert data["watertight"] is True
    assert data["mass"] > 0 and data["volume"] > 0
    assert data["inertia"][0][0] == pytest.approx(data["inertia"][1][1], rel=1e-6)
    exported = trimesh.load(out_file)  # in mm, as CAD tools and the app's Import OBJ/STL (mm by default) take it
    assert data["export_unit"] == "mm"
    # STL holds float32 coordinates: 7 digits
    assert exported.is_watertight and exported.volume == pytest.approx(data["volume"] * 1e9, rel=1e-6)
    back = mesh_mass_properties(read_mesh(out_file), data["density"])
    assert back.mass == pytest.approx(data["mass"], rel=1e-6)


def test_gear_inner_and_bevel_json():
    inner = json.loads(run("gear", "inner", "--module", "2", "--teeth", "60", "--width", "20", "--rim-diameter", "150", "--json").stdout)
    assert inner["tip_radius"] == pytest.approx(0.058) and inner["root_radius"] == pytest.approx(0.0625)
    assert inner["rim_diameter"] == pytest.approx(0.150)
    bevel = json.loads(run("gear", "bevel", "--module", "3", "--teeth", "20", "--pitch-angle", "26.56505",
                           "--width", "20", "--bore", "12", "--json").stdout)
    assert bevel["cone_distance"] == pytest.approx(0.06708204, rel=1e-6)
    assert bevel["mate_pitch_angle"] == pytest.approx(math.radians(63.43495), rel=1e-6)
    assert bevel["watertight"] is True


def test_gear_table_of_a_spur_gear_says_it_has_no_lead_and_gives_the_helical_lead_in_mm():
    """A spur gear's lead is infinite: the table printed 'lead None [mm]'. A helical gear's lead is
    2 pi r / tan(beta) = 2 pi 20 mm / tan 15 deg = 469.0 mm (transverse module 2 mm, 20 teeth)."""
    spur = run("gear", "helical", "--module", "2", "--teeth", "24", "--width", "20")
    assert spur.returncode == 0, spur.stderr
    lead = next(line for line in spur.stdout.splitlines() if line.startswith("lead "))
    assert lead.split() == ["lead", "none"] and "None" not in spur.stdout
    helical = run("gear", "helical", "--module", "2", "--teeth", "20", "--helix-angle", "15", "--width", "20")
    lead = next(line for line in helical.stdout.splitlines() if line.startswith("lead ")).split()
    assert lead[2] == "[mm]" and float(lead[1]) == pytest.approx(2 * math.pi * 0.020 / math.tan(math.radians(15)) * 1e3,
                                                                  rel=1e-6)


def test_pair_table_gives_the_mesh_stiffness_in_n_per_um_as_c_gamma_alpha_times_the_width():
    """c_gamma_alpha is printed in N/(mm um), as ISO 6336 writes it; the mesh's stiffness c_gamma_alpha b was printed
    as 3.74784e+08 [N/m]. In the same terms: 18.7392 N/(mm um) x 20 mm = 374.78 N/um."""
    res = run("pair", "--z1", "20", "--z2", "40", "--module", "2", "--width", "20")
    rows = {line.split()[0]: line.split()[1:] for line in res.stdout.splitlines() if line.strip()}
    assert rows["c_gamma_alpha"][1:] == ["[N/(mm", "um)]"] and rows["mesh_stiffness"][1] == "[N/um]"
    assert float(rows["mesh_stiffness"][0]) == pytest.approx(float(rows["c_gamma_alpha"][0]) * 20, rel=1e-5)


def test_pair_json():
    data = json.loads(run("pair", "--z1", "20", "--z2", "40", "--module", "2", "--pressure-angle", "20",
                          "--helix-angle", "15", "--width", "20", "--json").stdout)
    assert data["center_distance"] == pytest.approx(0.060)
    assert data["transverse_contact_ratio"] == pytest.approx(1.560933, rel=1e-6)
    assert data["overlap_ratio"] == pytest.approx(0.852909, rel=1e-6)
    internal = json.loads(run("pair", "--z1", "20", "--z2", "60", "--module", "2", "--internal", "--json").stdout)
    assert internal["center_distance"] == pytest.approx(0.040)


def test_gear_and_pair_take_the_normal_module_as_the_app_s_dialogs_do():
    """ISO 21771: a catalogue gives a helical gear's normal module; m_t = m_n / cos(beta). m_n 2 mm at 15 deg:
    m_t = 2.070552 mm, d = m_t z = 41.41105 mm for 20 teeth, and a = m_n (20 + 40) / (2 cos 15 deg) = 62.11657 mm."""
    gear = json.loads(run("gear", "helical", "--normal-module", "2", "--teeth", "20", "--helix-angle", "15",
                          "--width", "20", "--json").stdout)
    assert gear["module"] == pytest.approx(0.002 / math.cos(math.radians(15)), rel=1e-12)
    assert gear["normal_module"] == pytest.approx(0.002, rel=1e-12)
    assert 2 * gear["pitch_radius"] == pytest.approx(0.04141105, rel=1e-6)
    pair = json.loads(run("pair", "--z1", "20", "--z2", "40", "--normal-module", "2", "--helix-angle", "15",
                          "--json").stdout)
    assert pair["center_distance"] == pytest.approx(0.06211657, rel=1e-6)
    both = run("pair", "--z1", "20", "--z2", "40", "--module", "2", "--normal-module", "2")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
    neither = run("gear", "helical", "--teeth", "20", "--width", "20")
    assert neither.returncode == 2 and "--module" in neither.stderr and "--normal-module" in neither.stderr


@pytest.mark.parametrize(
    "args, expected",
    [
        (["gear", "helical", "--module", "-1", "--teeth", "20", "--width", "20"], "--module: must be a number from 0.1 to 100 mm, got -1 mm"),
        (["gear", "helical", "--module", "2", "--teeth", "2", "--width", "20"], "--teeth: must be a whole number from 3 to 1000, got 2"),
        (["gear", "helical", "--module", "2", "--teeth", "x", "--width", "20"], "--teeth: must be a whole number from 3 to 1000, got 'x'"),
        (["gear", "helical", "--module", "2", "--teeth", "20", "--width", "20", "--bore", "40"], "--bore: must be a number above 0 and at most 31.5 mm"),
        (["gear", "helical", "--module", "2", "--teeth", "20", "--width", "20", "--helix-angle", "50"], "--helix-angle: must be a number from -45 to 45 deg"),
        (["gear", "bevel", "--module", "3", "--teeth", "20", "--width", "20", "--pitch-angle", "89"], "--pitch-angle: must be a number from 5 to 85 deg"),
        (["gear", "inner", "--module", "2", "--teeth", "60", "--width", "20", "--bore", "10"], "--bore: an inner gear has no bore"),
        (["gear", "helical", "--module", "2", "--teeth", "20", "--width", "0"], "--width: must be a number above 0 and at most 2000 mm"),
        (["pair", "--z1", "20", "--z2", "40", "--module", "2", "--pressure-angle", "5"], "--pressure-angle: must be a number from 10 to 35 deg"),
        (["gear", "worm", "--module", "2", "--teeth", "20", "--width", "20"], "invalid choice: 'worm'"),
    ],
)
def test_bad_arguments_one_line_exit_2(args, expected):
    res = run(*args)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert expected in lines[0]


def test_validate_exit_codes(tmp_path):
    ok = run("validate", str(EXAMPLES / "planetary.gdyn"))
    assert ok.returncode == 0 and "0 errors" in ok.stdout
    data = json.loads((EXAMPLES / "helical_pair.gdyn").read_text())
    data["joints"][1]["position"] = [0.07, 0.0, 0.0]
    bad = tmp_path / "bad.gdyn"
    bad.write_text(json.dumps(data))
    res = run("validate", str(bad))
    assert res.returncode == 1 and "error: pair:" in res.stdout and "70 mm apart" in res.stdout
    broken = tmp_path / "broken.gdyn"
    broken.write_text("{")
    res = run("validate", str(broken))
    assert res.returncode == 1 and "not valid JSON" in res.stdout


def test_cli_imports_no_qt():
    code = ("import sys, contextlib, io\nfrom core import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    cli.main(['gear','helical','--module','2','--teeth','20','--width','20','--json'])\n"
            "    cli.main(['validate','resources/examples/planetary.gdyn'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6','pyvista','pyqtgraph','pyvistaqt','vtk','vtkmodules')))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "[]"


def test_console_script_dispatches_cli_without_qt():
    geardyn = ROOT / ".venv" / "bin" / "geardyn"
    if not geardyn.exists():
        pytest.skip("console script not installed in .venv")
    res = subprocess.run([str(geardyn), "pair", "--z1", "20", "--z2", "40", "--module", "2", "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and json.loads(res.stdout)["center_distance"] == pytest.approx(0.06)


def launcher(*args):
    return subprocess.run([sys.executable, "-m", "app.launch", *args], cwd=ROOT, capture_output=True, text=True)


def test_help_lists_the_gui_and_gui_help_prints_help_without_opening_it():
    top = launcher("--help")
    assert top.returncode == 0 and "gui" in top.stdout and "open the application" in top.stdout
    gui = launcher("gui", "--help")
    assert gui.returncode == 0 and "usage: geardyn gui [-h] [file]" in gui.stdout
    assert "Cannot open" not in gui.stdout + gui.stderr


def test_pair_without_json_prints_mm_and_degrees():
    out = run("pair", "--z1", "20", "--z2", "40", "--module", "2", "--helix-angle", "15", "--width", "20").stdout
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines()}
    assert lines["center_distance"] == ["60", "[mm]"] and lines["module"] == ["2", "[mm]"]
    assert lines["normal_module"] == [f"{2 * math.cos(math.radians(15)):.6g}", "[mm]"]  # m_n = m_t cos(beta)
    assert lines["helix_angle_1"] == ["15", "[deg]"] and lines["helix_angle_2"] == ["-15", "[deg]"]
    assert float(lines["transverse_pressure_angle"][0]) == pytest.approx(math.degrees(math.atan(math.tan(
        math.radians(20)) / math.cos(math.radians(15)))), rel=1e-5)


@pytest.mark.parametrize("args", [
    ["simulate", "EXAMPLE", "--out", "NOFOLDER/r.csv"],
    ["simulate", "EXAMPLE", "--out", "r.csv", "--results", "NOFOLDER/r.gdres"],
    ["simulate", "EXAMPLE", "--out", "TMP"],
    ["simulate", "EXAMPLE", "--out", ""],
    ["chbm", "--out", "NOFOLDER/c.csv"],
    ["chbm", "--out", "c.csv", "--plot", "NOFOLDER/c.png"],
    ["gear", "helical", "--module", "2", "--teeth", "20", "--width", "20", "--export", "NOFOLDER/g.stl"],
])
def test_output_paths_are_checked_before_anything_runs(tmp_path, args):
    """A folder that does not exist, a folder given as the file, or no name: one line naming the flag, exit 2,
    and no computation first (the whole run would otherwise be lost at the end)."""
    example = str(EXAMPLES / "planetary.gdyn")
    args = [{"EXAMPLE": example, "TMP": str(tmp_path)}.get(a, a.replace("NOFOLDER", str(tmp_path / "missing")))
            for a in args]
    res = subprocess.run([sys.executable, "-m", "core.cli", *args], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert res.returncode == 2, (res.stdout, res.stderr)
    line = res.stderr.strip().splitlines()[-1]
    assert line.startswith("geardyn: error: --") or line.startswith("error: --"), line
    assert any(w in line for w in ("does not exist", "is a folder", "needs a file name")), line
    assert "Traceback" not in res.stderr


def test_simulate_refuses_a_csv_named_as_a_results_file(tmp_path):
    """--out writes CSV; given r.gdres it wrote a table that neither the app nor open_results could read."""
    res = subprocess.run([sys.executable, "-m", "core.cli", "simulate", str(EXAMPLES / "planetary.gdyn"), "--out",
                          "r.gdres"], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert res.returncode == 2 and not (tmp_path / "r.gdres").exists()
    assert res.stderr.strip().splitlines()[-1] == ("geardyn: error: --out: writes a CSV table, not a results file; "
                                                   "name the results file (.gdres) with --results")


@pytest.mark.parametrize("args, expected", [
    # 0.5 is rho_inf's default: the note of settings away from their defaults never named it
    (["--integrator", "rk4", "--rho-inf", "0.5"],
     "--rho-inf: not used by rk4; it sets generalized_alpha and generalized_alpha_adaptive"),
    (["--integrator", "generalized_alpha", "--rtol", "1e-6"],
     "--rtol: not used by generalized_alpha; it sets dopri5, dop853 and generalized_alpha_adaptive"),
    (["--atol", "1e-9"], "--atol: not used by rk4 (the model's integrator); it sets dopri5, dop853 and"),
])
def test_simulate_refuses_an_integrator_option_its_integrator_does_not_use(tmp_path, args, expected):
    res = run("simulate", str(EXAMPLES / "planetary.gdyn"), "--t-end", "0.002", "--out", str(tmp_path / "x.csv"), *args)
    assert res.returncode == 2 and not (tmp_path / "x.csv").exists()
    assert res.stderr.strip().splitlines()[-1].startswith(f"geardyn: error: {expected}")


def test_simulate_help_names_every_integrator_that_uses_each_tolerance_and_rho_inf():
    text = " ".join(run("simulate", "--help").stdout.split())  # argparse wraps its lines
    for field, flag in (("rtol", "--rtol"), ("atol", "--atol"), ("rho_inf", "--rho-inf")):
        users = option_users(field)
        help_text = text.split(f"{flag} {field.upper()} ")[1].split(" --")[0]
        assert f"of {listed(users)} (" in help_text or f"of {listed(users)}, " in help_text, (flag, help_text)


def test_simulate_prints_the_models_warnings_and_runs(tmp_path):
    """gear1 regenerated at 3 mm beside its 2 mm pair: a warning (the run goes on), said on stderr as in validate."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    apply(model, "gears.gear1.module", 0.003)
    save(model, tmp_path / "m.gdyn")
    res = run("simulate", str(tmp_path / "m.gdyn"), "--t-end", "0.002", "--out", str(tmp_path / "m.csv"))
    assert res.returncode == 0 and (tmp_path / "m.csv").exists()
    assert ("warning: pair: transverse module m_t 2 mm but gear 'gear1' was generated with m_t 3 mm "
            "(m_n 2.89778 mm)") in res.stderr
    clean = run("simulate", str(EXAMPLES / "helical_pair.gdyn"), "--t-end", "0.002", "--out", str(tmp_path / "c.csv"))
    assert clean.returncode == 0 and "warning" not in clean.stderr


def test_simulate_checks_the_step_it_is_given_and_the_run_bears_the_warning_out(tmp_path):
    """--step 1e-3 on the compliant pair (mesh mode 1653 Hz at the mean stiffness): the model's check of its own
    2e-5 s step found nothing, so the run diverged without a word before it. The step given is checked against
    the assembled equations, named by its flag; the run fails as the warning says, keeping what it computed."""
    res = run("simulate", str(EXAMPLES / "compliant_mesh_pair.gdyn"), "--step", "1e-3", "--t-end", "0.1",
              "--out", str(tmp_path / "x.csv"))
    warning = next(line for line in res.stderr.splitlines() if "RK4 is unstable" in line)
    assert warning.startswith("warning: --step: RK4 is unstable at 0.001 s on the model's fastest mode (")
    assert res.stderr.index(warning) < res.stderr.index("the simulation failed")  # said before the run
    assert res.returncode == 1 and "the simulation failed" in res.stderr and (tmp_path / "x.csv").exists()
    failed = next(line for line in res.stderr.splitlines() if "the simulation failed" in line)
    assert "; RK4 is unstable at 0.001 s on the model's fastest mode" in failed  # the failure names its likely cause
    fine = run("simulate", str(EXAMPLES / "compliant_mesh_pair.gdyn"), "--step", "2e-5", "--t-end", "0.01",
               "--out", str(tmp_path / "y.csv"))
    assert fine.returncode == 0 and "warning" not in fine.stderr


def test_simulate_keeps_a_run_in_a_results_file_alone_and_refuses_to_keep_nothing(tmp_path):
    alone = run("simulate", str(EXAMPLES / "planetary.gdyn"), "--t-end", "0.01", "--results", str(tmp_path / "r.gdres"))
    assert alone.returncode == 0 and (tmp_path / "r.gdres").exists() and not list(tmp_path.glob("*.csv"))
    assert "11 samples of" in alone.stdout
    res = open_results(tmp_path / "r.gdres")
    assert len(res.time) == 11 and res.time[-1] == pytest.approx(0.01)
    nothing = run("simulate", str(EXAMPLES / "planetary.gdyn"), "--t-end", "0.01")
    assert nothing.returncode == 2 and "--out, --results: name the CSV, the results file or both" in nothing.stderr
    assert "preparing the run" not in nothing.stderr  # refused before any work


def test_chbm_of_an_internal_and_a_bevel_pair_runs_over_the_range_of_its_mesh_mode(tmp_path):
    """The command refused an internal pair ("the lumped model covers external spur/helical pairs"), and a bevel
    pair alike. Each runs now, over 0.2 to 1.5 times the mesh mode the Compliant Mesh note gives for it: 10965 Hz
    for the inner example, 9349 Hz for the bevel one (on the mean cone's levers)."""
    for example, mode in (("inner_pair", 10964.7), ("bevel_pair", 9349.11)):
        out = tmp_path / f"{example}.csv"
        res = run("chbm", "--model", str(EXAMPLES / f"{example}.gdyn"), "--out", str(out))
        assert res.returncode == 0, res.stderr
        rows = [line.split(",") for line in out.read_text().splitlines()[1:]]
        f = [float(row[2]) for row in rows]
        assert f[0] == float(f"{0.2 * mode:.2g}") and f[-1] == float(f"{1.5 * mode:.2g}") and len(rows) > 100
        # nothing loads these pairs: the note says which torque the curve is for (it did not), and the CSV has it
        assert "; torque: the paper's 100 N m on gear 1 (--torque sets it)" in res.stderr, res.stderr
        assert {row[1] for row in rows} == {"100"}


def test_output_piped_into_a_reader_that_stops_ends_quietly():
    """`geardyn gear ... | head -3` printed a BrokenPipeError traceback: the reader leaves before the table is
    written (here it closes at once, while the CLI still imports). The CLI stops as Unix tools do: no traceback,
    exit status 128 + SIGPIPE."""
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "gear", "helical", "--module", "2", "--teeth", "20",
                             "--width", "20"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and "Traceback" not in err and "Exception ignored" not in err, err


def test_inspect_refers_the_reducers_load_to_its_input_by_the_product_of_the_stages():
    path = str(EXAMPLES / "two_stage_reducer.gdyn")  # 10 N m on the output, stages 20/40 and 18/45
    referred = -10.0 * (20 / 40) * (18 / 45)
    found = json.loads(run("inspect", path, "--json").stdout)["torques_referred"]
    assert found["joint"] == "input_joint" and found["net"] == pytest.approx(referred, rel=1e-12)
    assert found["lossy"] == [] and found["steady_with_losses"] is None  # lossless: the motor holds -net
    assert run("inspect", path).stdout.splitlines()[-1] == (
        f"Torques referred to input_joint (motor's joint) through the train, as their means over the run: load "
        f"{referred:.4g} N m; in all {referred:.4g} N m: motor holds its speed against them (in steady running its "
        f"torque is {-referred:.4g} N m).")


def test_inspect_counts_the_planetarys_freedom_in_words():
    """Six bodies on six revolute joints (six joint angles); six gear pairs and the ring's holding motor give 7 rows,
    2 of them redundant (the three planets' loops close by their ratios): 6 - (7 - 2) = 1 degree of freedom, said
    in the singular ('1 degrees of freedom' before)."""
    res = run("inspect", str(EXAMPLES / "planetary.gdyn"))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == ("6 bodies in joint coordinates (6 coordinates), 7 constraint rows, "
                                          "2 redundant, 1 degree of freedom")
