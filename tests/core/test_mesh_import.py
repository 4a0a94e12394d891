"""Importing OBJ/STL files: units, density, holes, bad files."""

import numpy as np
import pytest
import trimesh

from core.geometry.mesh_import import MeshImportError, NotWatertightError, import_mesh


def _box_file(tmp_path, name="box.stl", extents=(10.0, 20.0, 30.0)):
    path = tmp_path / name
    trimesh.creation.box(extents=extents).export(path)
    return path


@pytest.mark.parametrize("name", ["box.stl", "box.obj"])
def test_box_in_mm_gets_the_exact_mass_properties(tmp_path, name):
    path = _box_file(tmp_path, name)
    imported = import_mesh(path, unit="mm", density=7850.0)
    a, b, c = 0.010, 0.020, 0.030
    mass = a * b * c * 7850.0  # 0.0471 kg
    mp = imported.mass_properties
    assert imported.watertight and not imported.notes
    assert mp.mass == pytest.approx(mass, rel=1e-12)
    # solid box about its centre: I_xx = m (b^2 + c^2) / 12, etc.
    assert np.diag(mp.inertia) == pytest.approx([mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12,
                                                 mass * (a * a + b * b) / 12], rel=1e-9)
    assert np.abs(mp.com).max() < 1e-15


def test_unit_metres_keeps_the_numbers(tmp_path):
    path = _box_file(tmp_path, extents=(0.1, 0.1, 0.1))
    imported = import_mesh(path, unit="m", density=1000.0)
    assert imported.mass_properties.mass == pytest.approx(1.0)
    assert imported.mesh.extents == pytest.approx([0.1, 0.1, 0.1])


@pytest.mark.parametrize("unit, metres", [("cm", 0.01), ("in", 0.0254)])
def test_centimetre_and_inch_files_are_scaled_to_metres(tmp_path, unit, metres):
    path = _box_file(tmp_path, extents=(10.0, 10.0, 10.0))
    imported = import_mesh(path, unit=unit, density=1000.0)
    assert imported.mesh.extents == pytest.approx([10 * metres] * 3)
    assert imported.mass_properties.mass == pytest.approx(1000.0 * (10 * metres) ** 3)


def _open_box(tmp_path):
    mesh = trimesh.creation.box(extents=(10.0, 10.0, 10.0))
    mesh.update_faces(np.arange(len(mesh.faces)) > 1)  # drop two triangles: a hole
    path = tmp_path / "open.stl"
    mesh.export(path)
    return path


def test_not_watertight_without_fallback_is_refused_with_the_choices(tmp_path):
    with pytest.raises(NotWatertightError, match="not watertight.*convex hull.*by hand"):
        import_mesh(_open_box(tmp_path), unit="mm")


def test_not_watertight_with_convex_hull_fallback_says_so(tmp_path):
    imported = import_mesh(_open_box(tmp_path), unit="mm", density=1000.0, fallback="convex_hull")
    assert not imported.watertight
    assert "convex hull" in imported.notes[0]
    assert imported.mass_properties.mass == pytest.approx(1e-3 * 1000.0 * 1e-3, rel=1e-9)  # 10 mm cube


def test_not_watertight_with_manual_fallback_leaves_mass_to_the_user(tmp_path):
    imported = import_mesh(_open_box(tmp_path), unit="mm", fallback="manual")
    assert imported.mass_properties is None
    assert "by hand" in imported.notes[0]


@pytest.mark.parametrize(
    "content, match",
    [(b"", "empty"), (b"\x00\x01garbage" * 3, "cannot be read|no triangles|truncated: shorter than a binary STL header"), (b"solid x\nendsolid x\n", "no triangles|cannot be read")],
)
def test_empty_or_corrupt_files_raise_a_clear_error(tmp_path, content, match):
    path = tmp_path / "bad.stl"
    path.write_bytes(content)
    with pytest.raises(MeshImportError, match=match):
        import_mesh(path)


def test_missing_file_wrong_suffix_and_bad_arguments(tmp_path):
    with pytest.raises(MeshImportError, match="no such file"):
        import_mesh(tmp_path / "nothere.stl")
    (tmp_path / "a.step").write_text("x")
    with pytest.raises(MeshImportError, match=r"\.obj or \.stl"):
        import_mesh(tmp_path / "a.step")
    path = _box_file(tmp_path)
    with pytest.raises(MeshImportError, match="unit"):
        import_mesh(path, unit="inch")
    with pytest.raises(MeshImportError, match="density"):
        import_mesh(path, density=-1.0)


@pytest.mark.parametrize("extents, unit, size", [((200.0, 10.0, 10.0), "m", "200 m"),
                                                 ((1e-4, 1e-4, 1e-4), "mm", "1e-07 m")])
def test_a_part_of_an_implausible_size_names_the_unit_and_the_range(tmp_path, extents, unit, size):
    """A part 200 m across (a file in mm read as metres) or 0.1 um across is refused before trimesh merges its
    vertices (whose integer keys overflow on huge coordinates), naming the unit and the size allowed."""
    path = _box_file(tmp_path, extents=extents)
    with pytest.raises(MeshImportError, match=f"unit: the part is {size} across in {unit}, outside 1e-06 to 100 m"):
        import_mesh(path, unit=unit)
    assert import_mesh(path, unit="mm" if unit == "m" else "m").mass_properties.mass > 0  # the other unit reads it
