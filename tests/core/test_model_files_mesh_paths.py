"""Imported meshes travel with their model: paths written relative to the model file, read back absolute."""

from __future__ import annotations

import dataclasses
import json
import shutil

import numpy as np
import pytest
import trimesh

from core.commands import AddItem, relink_mesh
from core.errors import ModelError
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


def test_an_imported_body_whose_file_moved_is_pointed_at_it_again_and_its_mass_follows_the_file(tmp_path):
    """The housing's STL moved where no relative path finds it: relink_mesh points the body at it, one undoable
    command, and the mass properties are the file's at the body's unit and density (a 100 x 50 x 20 mm box of
    steel, now 40 mm thick: 1.57 kg). A file that does not read is refused naming the body's path, the model as it
    was; a body whose mass was entered by hand for a mesh with holes keeps it."""
    model = _project(tmp_path / "first")
    moved = tmp_path / "elsewhere" / "housing_v2.stl"
    moved.parent.mkdir()
    trimesh.creation.box(extents=(100.0, 50.0, 40.0)).export(moved)  # the part, made twice as thick since
    (tmp_path / "first" / "meshes" / "housing.stl").unlink()
    before = model.copy()
    command = relink_mesh(model, "housing", str(moved))
    command.do(model)
    body = model.bodies["housing"]
    assert body.visual.path == str(moved.resolve()) and body.visual.unit == "mm"
    assert body.mass == pytest.approx(0.1 * 0.05 * 0.04 * 7850.0, rel=1e-9)
    assert body.inertia[2][2] == pytest.approx(body.mass * (0.1**2 + 0.05**2) / 12, rel=1e-9)
    command.undo(model)
    assert model == before
    with pytest.raises(ModelError) as err:
        relink_mesh(model, "housing", str(tmp_path / "nowhere.stl"))
    assert err.value.path == "bodies['housing'].visual.path" and "no such file" in err.value.detail
    holey = trimesh.creation.box(extents=(100.0, 50.0, 40.0))
    holey.update_faces(np.arange(len(holey.faces)) > 1)  # two faces gone: no volume, the mass was typed
    holey.export(tmp_path / "elsewhere" / "shell.stl")
    housing = model.bodies["housing"]
    model.bodies["housing"] = dataclasses.replace(housing, mass=2.0,
                                                  visual=dataclasses.replace(housing.visual, fallback="manual"))
    relink_mesh(model, "housing", str(tmp_path / "elsewhere" / "shell.stl")).do(model)
    assert model.bodies["housing"].mass == 2.0 and model.bodies["housing"].visual.path.endswith("shell.stl")
