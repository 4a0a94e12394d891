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
    with pytest.raises(NotWatertightError, match="not watertight.*its holes closed.*convex hull.*by hand"):
        import_mesh(_open_box(tmp_path), unit="mm")


def test_not_watertight_with_convex_hull_fallback_says_so(tmp_path):
    imported = import_mesh(_open_box(tmp_path), unit="mm", density=1000.0, fallback="convex_hull")
    assert not imported.watertight
    assert "convex hull" in imported.notes[0]
    assert imported.mass_properties.mass == pytest.approx(1e-3 * 1000.0 * 1e-3, rel=1e-9)  # 10 mm cube


def _gear_without_its_face(tmp_path):
    """A helical gear 30 x 2 mm, 20 mm wide, as `geardyn gear --export` writes it, and the same file without its
    top face (2,340 triangles: the toothed outline round the bore, a hole far from convex)."""
    from core.geometry.gear_mesh import gear_mesh_arrays
    from core.geometry.macro import GearSpec

    vertices, faces = gear_mesh_arrays(GearSpec(kind="helical", module=0.002, teeth=30, face_width=0.02,
                                                helix_angle=0.26, bore_diameter=0.015))
    whole = trimesh.Trimesh(vertices * 1e3, faces)
    assert whole.is_watertight
    whole.export(tmp_path / "gear.stl")
    top = np.flatnonzero(whole.face_normals[:, 2] > 0.99)
    assert len(top) > 100
    holed = whole.copy()
    holed.update_faces(np.setdiff1d(np.arange(len(whole.faces)), top))
    holed.export(tmp_path / "no_face.stl")
    return tmp_path / "gear.stl", tmp_path / "no_face.stl"


def test_closing_the_holes_of_a_gear_without_its_face_gives_the_whole_gears_mass_properties(tmp_path):
    """Flat caps over the boundary loops: a fan over each closes the outline and the bore; fanned triangles that
    overlap in a non-convex loop cancel in the volume integrals, so the mass properties are the solid's. The
    reference is the same gear's watertight file."""
    whole, holed = _gear_without_its_face(tmp_path)
    ref = import_mesh(whole, unit="mm", density=7850.0).mass_properties
    imported = import_mesh(holed, unit="mm", density=7850.0, fallback="close_holes")
    assert not imported.watertight
    # a fan over a loop of n edges has n - 2 triangles: two loops, the outline and the bore
    edges = np.sort(trimesh.load(holed).edges, axis=1)
    boundary = (np.unique(edges, axis=0, return_counts=True)[1] == 1).sum()
    assert imported.notes == ["no_face.stl is not watertight (it has holes); its holes were closed with flat caps "
                              f"({boundary - 4} triangles added) for its mass properties"]
    mp = imported.mass_properties
    assert mp.mass == pytest.approx(ref.mass, rel=1e-9)
    assert np.asarray(mp.inertia) == pytest.approx(np.asarray(ref.inertia), rel=1e-9, abs=1e-15)
    assert np.asarray(mp.com) == pytest.approx(np.asarray(ref.com), abs=1e-12)
    assert len(imported.mesh.faces) == len(trimesh.load(holed).faces)  # the mesh shown is the file's


def test_holes_that_caps_cannot_close_are_refused_naming_the_other_choices(tmp_path):
    """A fin on one edge of a cube: that edge has three faces, and the fin's two free edges make no loop to cap."""
    cube = trimesh.creation.box(extents=(10.0, 10.0, 10.0))
    a, b = cube.edges_unique[0]
    fin = trimesh.Trimesh(np.vstack([cube.vertices, [[20.0, 20.0, 20.0]]]),
                          np.vstack([cube.faces, [[a, b, len(cube.vertices)]]]), process=False)
    fin.export(tmp_path / "fin.stl")
    with pytest.raises(NotWatertightError, match="flat caps do not close it.*convex hull.*by hand"):
        import_mesh(tmp_path / "fin.stl", unit="mm", fallback="close_holes")


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
