"""Imported meshes travel with their model: paths written relative to the model file, read back absolute."""

from __future__ import annotations

import json
import shutil

import pytest
import trimesh

from core.commands import AddItem
from core.model import builders
from core.model.body_shapes import source_arrays
from core.model.entities import MeshFileSource
from core.model.files import load, save
from core.model.model import Model


def _project(root):
    """A model folder and a meshes folder beside it, with a 100 x 50 x 20 mm box imported from an STL."""
    (root / "models").mkdir(parents=True)
    (root / "meshes").mkdir()
    stl = root / "meshes" / "housing.stl"
    trimesh.creation.box(extents=(100.0, 50.0, 20.0)).export(stl)
    model = Model()
    AddItem(builders.body_from_source("housing", MeshFileSource(str(stl.resolve()), "mm", 7850.0))).do(model)
    return model


def test_a_saved_model_stores_its_mesh_relative_and_opens_after_the_project_moves(tmp_path):
    model = _project(tmp_path / "first")
    target = tmp_path / "first" / "models" / "gearbox.gdyn"
    save(model, target)
    stored = json.loads(target.read_text())
    assert stored["bodies"][0]["visual"]["path"] == "../meshes/housing.stl"
    assert model.bodies["housing"].visual.path.startswith(str(tmp_path))  # the model in memory is unchanged
    shutil.move(tmp_path / "first", tmp_path / "second")
    back = load(tmp_path / "second" / "models" / "gearbox.gdyn")
    path = back.bodies["housing"].visual.path
    assert path == str((tmp_path / "second" / "meshes" / "housing.stl").resolve())
    vertices, _ = source_arrays(back.bodies["housing"].visual)
    assert vertices.max(axis=0) - vertices.min(axis=0) == pytest.approx([0.1, 0.05, 0.02])
    assert back.bodies["housing"].mass == pytest.approx(model.bodies["housing"].mass, rel=1e-12)


def test_save_as_elsewhere_rewrites_the_relative_path_for_the_new_folder(tmp_path):
    model = _project(tmp_path)
    save(model, tmp_path / "models" / "a.gdyn")
    opened = load(tmp_path / "models" / "a.gdyn")
    (tmp_path / "archive" / "2026").mkdir(parents=True)
    save(opened, tmp_path / "archive" / "2026" / "b.gdyn")
    stored = json.loads((tmp_path / "archive" / "2026" / "b.gdyn").read_text())
    assert stored["bodies"][0]["visual"]["path"] == "../../meshes/housing.stl"
    assert load(tmp_path / "archive" / "2026" / "b.gdyn").bodies["housing"].visual.path == \
        str((tmp_path / "meshes" / "housing.stl").resolve())
