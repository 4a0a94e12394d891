"""Mesh harmonics above what the output samples resolve: the run's note and the Spectrum window say they fold back."""

import dataclasses
import math

import numpy as np

from core.model.entities import CompliantMesh
from core.model.files import load, save
from tests.app.test_telemetry import _run, _spectrum_of
from tests.conftest import EXAMPLES


def test_a_spectrum_sampled_under_ten_times_a_mesh_period_says_which_harmonics_fold_and_the_fold_is_there(
        window, qtbot):
    """The compliant pair at 100 rad/s meshes at f = 32 x 100 / 2 pi = 509.3 Hz. Samples every 0.4 ms resolve up to
    1250 Hz (the spectrum's last bin 1244 Hz): 1x and 2x are marked, 3x (1528 Hz) is above and folds to 2500 - 3 f = 972.2 Hz, where the spectrum
    of the transmission error has a peak between the marked lines. The Spectrum window says so, and the run's
    note too (4.9 samples a period)."""
    res = _run(window, qtbot, EXAMPLES / "compliant_mesh_pair.gdyn", t_end=0.1, output_step=4e-4)
    assert res.status == "finished", res.message
    f = 32 * 100 / (2 * math.pi)
    (note,) = [n for n in res.findings if n.startswith("settings.output_step")]
    assert "4.9 times a period: its harmonics from 3x up fold onto lower frequencies" in note
    sw = _spectrum_of(window, qtbot, "mesh.TE", x_range=(0.02, 0.1))
    spec = sw.spectrum  # 201 samples: the highest frequency of the transform is 100 / 201 of 2500 Hz
    assert (f"pair: its harmonics from 3x ({3 * sw.markers['pair']:.6g} Hz) up are above the 1244 Hz the output "
            "samples resolve and fold back onto lower frequencies") in sw.info.text()
    folded = 2500 - 3 * f
    near = np.abs(spec.frequency - folded) <= spec.resolution
    around = (np.abs(spec.frequency - folded) > 3 * spec.resolution) & (np.abs(spec.frequency - folded) < 60)
    assert spec.amplitude[near].max() > 5 * np.median(spec.amplitude[around])


def test_the_fold_note_names_the_compliant_stage_of_a_reducer_and_not_its_rigid_one(window, qtbot, tmp_path):
    """The two-stage reducer with a compliant mesh on stage 1 only, sampled every 1 ms: stage 1 meshes at
    20 x 100 / 2 pi = 318.3 Hz (3.1 samples a period), so its harmonics from 2x (636.6 Hz) fold; stage 2 (143.2 Hz)
    is rigid: no stiffness turns over there, nothing of it to fold."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    model.forces["mesh1"] = CompliantMesh("mesh1", "stage1")
    model.settings = dataclasses.replace(model.settings, integrator="dopri5", t_end=0.1)
    save(model, tmp_path / "reducer.gdyn")
    res = _run(window, qtbot, tmp_path / "reducer.gdyn")
    assert res.status == "finished", res.message
    (note,) = [n for n in res.findings if n.startswith("settings.output_step")]
    assert "'stage1' (318.3 Hz at t = 0 s) 3.1 times a period: its harmonics from 2x up fold" in note
    text = _spectrum_of(window, qtbot, "stage1.Ft", x_range=(0.02, 0.1)).info.text()
    assert "stage1: its harmonics from 2x (636.62 Hz) up are above" in text and "stage2: its harmonics" not in text
