"""Bodies that are not generated gears: OBJ/STL import and primitives (cylinder, box) for carriers and housings."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
)

from app.dialogs.fields import FieldError, QuantityField, VectorField, file_row, finish_form, follow_keys, grow_to_fit
from app.dialogs.gear_dialog import AXIS, POSITION
from app.dialogs.mesh_sketch import MeshSketch
from app.document import documents_folder
from core.geometry.mesh_import import MeshImportError, NotWatertightError, import_mesh, read_mesh
from core.model import builders
from core.model.entities import MeshFileSource, PrimitiveSource, RigidBody, name_problem
from core.errors import ModelError
from core.validation import mass_remark
from core.geometry.rotations import quat_about, quat_matrices, quat_mul
from core.geometry.shapes import primitive_mass_properties
from core.ranges import DEG, MM, Range, field_range

DENSITY = field_range(PrimitiveSource, "density")
MASS = Range(lo=0.0, hi=1e9, lo_open=True, unit="kg")
INERTIA = Range(lo=0.0, hi=1e9, lo_open=True, unit="kg m^2")
UP_AXES = {"z": "Z up (as in the file)", "y": "Y up (turn it upright)", "x": "X up (turn it upright)"}
MESH_FILES = "Meshes (*.obj *.stl)"  # what a file dialog offers for a body's mesh
UNIT_TEXT = {"mm": "mm", "cm": "cm", "m": "m", "in": "inch"}  # the keys of core.geometry.mesh_import.UNIT_SCALE
TURN = Range(lo=-360.0 * math.pi / 180, hi=360.0 * math.pi / 180, **DEG)
LABELS = {"inertia": "Principal inertia (by hand)", "mass": "Mass (by hand)", "com": "Centre of mass (by hand)"}
FALLBACK_TEXT = {"none": "refuse", "close_holes": "close its holes (flat caps)", "convex_hull": "use its convex hull",
                 "manual": "enter mass properties by hand"}  # the keys of core.geometry.mesh_import.FALLBACKS
#: where the mass properties come from, by the fallback that made them (the mesh not watertight)
MASS_SOURCE = {"close_holes": "its mesh with its holes capped flat", "convex_hull": "its convex hull (an upper bound)"}


class ImportMeshDialog(QDialog):
    """File, its length unit, density, and what to do when the mesh is not watertight."""

    def __init__(self, name: str, parent=None, folder: Path | None = None, free_name=None):
        """`folder`: where Browse... starts (the model's folder; the documents folder by default); `free_name(stem)`:
        a name no item of the model has, from a file's stem (the part is named after its file while its name is
        the one the dialog started with)."""
        super().__init__(parent)
        self._start_name, self._free_name = name, free_name
        self.folder = folder or documents_folder()
        self.setWindowTitle("Import OBJ/STL")
        self.setObjectName("import_dialog")
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        row, self.path = file_row("", self._browse)
        self.unit = QComboBox()
        self.unit.setObjectName("unit")
        for key, text in UNIT_TEXT.items():
            self.unit.addItem(text, key)
        self.unit.setToolTip("Length unit the file was written in")
        self.density = QuantityField("Density", DENSITY, 7850.0)
        self.fallback = QComboBox()
        self.fallback.setObjectName("fallback")
        for key, text in FALLBACK_TEXT.items():
            self.fallback.addItem(text, key)
        self.fallback.setToolTip("If the mesh has holes its volume is not defined")
        self.mass = QuantityField("Mass (by hand)", MASS, 1.0)
        self.com = VectorField("Centre of mass (by hand)", POSITION, (0.0, 0.0, 0.0))
        self.inertia = VectorField("Principal inertia (by hand)", INERTIA, (1e-3, 1e-3, 1e-3))
        self.up = QComboBox()
        self.up.setObjectName("up_axis")
        for key, text in UP_AXES.items():
            self.up.addItem(text, key)
        self.up.setToolTip("The file's up axis: a Y-up file (most OBJ exporters) is turned so its Y becomes the world's Z")
        self.turn = QuantityField("Turn about the up axis", TURN, 0.0)
        self.position = VectorField("Position", POSITION, (0.0, 0.0, 0.0))
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("File", row)
        form.addRow("File unit", self.unit)
        form.addRow("Density", self.density)
        form.addRow("If not watertight", self.fallback)
        form.addRow("Mass (by hand)", self.mass)
        form.addRow("Centre of mass (by hand)", self.com)
        form.addRow("Principal inertia (by hand)", self.inertia)
        form.addRow("Up axis in the file", self.up)
        form.addRow("Turn about the up axis", self.turn)
        form.addRow("Position", self.position)
        self.preview = QLabel("")
        self.preview.setObjectName("import_preview")
        self.preview.setWordWrap(True)
        form.addRow("Preview", self.preview)
        self.sketch = MeshSketch()
        form.addRow("As it will stand", self.sketch)
        self.message = finish_form(self, form)
        self.body = None
        self.notes: list[str] = []
        self.fallback.currentIndexChanged.connect(self._by_hand)
        self._by_hand()
        for combo in (self.unit, self.fallback, self.up):
            combo.currentIndexChanged.connect(self.show_preview)
        for edit in (self.path, self.density.edit, self.turn.edit, *(p.edit for p in self.position.parts)):
            edit.editingFinished.connect(self.show_preview)
        # the place follows each key (the path waits for its entry to be left: a path half typed names no file)
        follow_keys((self.density, self.turn, *self.position.parts), self.show_preview)
        self._read_key, self._read = None, None

    def show_preview(self, *_) -> None:
        """What the file gives as chosen: watertight or not, volume, mass, and its size and where its middle lands
        in the model (the up axis, turn and position applied) [mm]."""
        text = self.path.text().strip()
        self._name_after(text)
        if not text:
            self.preview.setText("")
            self.sketch.show_points(None)
            return
        try:
            density = self.density.value()
            fallback = self.fallback.currentData()
            mesh, mp, watertight = self._read_file(text, self.unit.currentData(), density, fallback)
            closed = "watertight" if watertight else "not watertight (it has holes)"
            placed = np.asarray(mesh.vertices) @ quat_matrices(self.orientation()).T + self.position.value()
            self.sketch.show_points(placed)
            size = " x ".join(f"{v * 1e3:.4g}" for v in np.ptp(placed, axis=0))
            middle = ", ".join(f"{v * 1e3 + 0.0:.4g}" for v in 0.5 * (placed.min(axis=0) + placed.max(axis=0)))
            remark = None
            if mp is not None:
                source = "its mesh" if watertight else MASS_SOURCE[fallback]
                principal = np.linalg.eigvalsh(np.asarray(mp.inertia, float))  # ascending
                moments = ", ".join(f"{v:.4g}" for v in principal)
                mass = (f"volume {mp.mass / density * 1e6:.4g} cm^3, mass {mp.mass:.4g} kg from {source}, principal "
                        f"moments of inertia about its centre of mass {moments} kg m^2")
                remark = mass_remark(mp.mass, float(principal[-1]),
                                     MeshFileSource(text, self.unit.currentData(), density, fallback))
            elif fallback == "manual":
                mass = "mass properties by hand"
            elif fallback == "close_holes":
                mass = "flat caps do not close its holes: choose the convex hull or mass properties by hand"
            else:
                mass = "no volume: choose to close its holes, the convex hull or mass properties by hand"
            self.preview.setText(f"{closed}; {mass}; size x, y, z {size} mm, its middle at {middle} mm in the model"
                                 + (f". Check: {remark}" if remark else ""))
            grow_to_fit(self)
        except (FieldError, MeshImportError) as exc:
            self.preview.setText(str(exc))
            self.sketch.show_points(None)

    def _read_file(self, path: str, unit: str, density: float, fallback: str):
        """The file's mesh, its mass properties (None without a volume) and whether it is watertight; read again
        only when the file or what the mass depends on changed, not when the place does (MeshImportError)."""
        try:
            stamp = Path(path).stat().st_mtime_ns
        except OSError:
            stamp = None  # import_mesh says what is wrong with the path
        key = (path, stamp, unit, density, fallback)
        if stamp is None or key != self._read_key:
            try:
                imported = import_mesh(path, unit, density, fallback)
                self._read = imported.mesh, imported.mass_properties, imported.watertight
            except NotWatertightError:
                self._read = read_mesh(path, unit), None, False
            self._read_key = key
        return self._read

    def _by_hand(self, *_) -> None:
        """The by-hand mass fields take part only when chosen (and the density then does not)."""
        manual = self.fallback.currentData() == "manual"
        for w in (self.mass, self.com, self.inertia):
            w.setEnabled(manual)
        self.density.setEnabled(not manual)

    def _name_after(self, path: str) -> None:
        """Name the part after its file ('housing.stl': housing) while the name is still the one it started with."""
        stem = Path(path).stem
        if self._free_name is None or self.name.text() != self._start_name or not stem or name_problem(stem):
            return
        self._start_name = self._free_name(stem)
        self.name.setText(self._start_name)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import mesh", str(self.folder), MESH_FILES)
        if path:
            self.path.setText(path)
            self.show_preview()

    def orientation(self) -> tuple[float, float, float, float]:
        """Body orientation: the file's up axis onto the world's z, then the turn about it."""
        q = quat_about((0.0, 0.0, 1.0), self.turn.value())
        if self.up.currentData() == "y":
            q = quat_mul(q, quat_about((1.0, 0.0, 0.0), math.pi / 2))
        elif self.up.currentData() == "x":  # the file's x onto the world's z
            q = quat_mul(q, quat_about((0.0, 1.0, 0.0), -math.pi / 2))
        return tuple(float(v) for v in q / np.linalg.norm(q))

    def accept(self) -> None:
        try:
            name = self.name.text().strip()
            if not name:
                raise FieldError("Name: must not be empty")
            fallback = self.fallback.currentData()
            imported = import_mesh(self.path.text().strip(), self.unit.currentData(), self.density.value(), fallback)
            if imported.mass_properties is None:
                ixx, iyy, izz = self.inertia.value()
                mass, com, inertia = self.mass.value(), self.com.value(), ((ixx, 0, 0), (0, iyy, 0), (0, 0, izz))
                self._check_by_hand(imported.mesh, mass, com, (ixx, iyy, izz))
            else:
                mp = imported.mass_properties
                mass, com, inertia = mp.mass, mp.com, mp.inertia
            # the fallback kept is the one that made the mass properties: none for a watertight mesh
            visual = MeshFileSource(str(Path(self.path.text().strip()).resolve()), self.unit.currentData(),
                                    self.density.value(), "none" if imported.watertight else fallback)
            remark = mass_remark(mass, float(np.linalg.eigvalsh(np.asarray(inertia, float)).max()), visual)
            self.body = RigidBody(name, mass=mass, com=tuple(com), inertia=inertia, position=self.position.value(),
                                  orientation=self.orientation(), visual=visual)
            problems = self.body.problems()
            if problems:
                field, msg = problems[0]
                raise FieldError(f"{LABELS.get(field, field)}: {msg}" + (f". {remark}" if remark else ""))
            self.notes = imported.notes + ([remark] if remark else [])
        except NotWatertightError as exc:
            left = [t for k, t in FALLBACK_TEXT.items() if k not in ("none", self.fallback.currentData())]
            self.message.setText(f"{exc}. Choose {', '.join(repr(t) for t in left[:-1])} or {left[-1]!r}.")
            return
        except (FieldError, MeshImportError, ModelError) as exc:
            self.message.setText(str(exc))
            return
        super().accept()

    @staticmethod
    def _check_by_hand(mesh, mass: float, com, moments) -> None:
        """Hand-entered mass properties must fit the part: every point of it lies within r of the centre of mass,
        so no moment of inertia can exceed m r^2."""
        r = float(np.linalg.norm(np.asarray(mesh.vertices) - np.asarray(com), axis=1).max())
        top = mass * r * r
        for axis, moment in zip("xyz", moments):
            if moment > top * (1 + 1e-9):
                raise FieldError(f"Principal inertia (by hand) {axis}: {moment:.4g} kg m^2 is more than a {mass:.4g} kg "
                                 f"part reaching {r * 1e3:.4g} mm from its centre of mass can have (at most m r^2 = "
                                 f"{top:.4g} kg m^2)")
        if not all(a + b >= c * (1 - 1e-9) for a, b, c in ((moments[0], moments[1], moments[2]),
                                                           (moments[1], moments[2], moments[0]),
                                                           (moments[2], moments[0], moments[1]))):
            raise FieldError("Principal inertia (by hand): the moments must satisfy the triangle inequality "
                             "(each at most the sum of the other two)")


class PrimitiveDialog(QDialog):
    """A cylinder (axis along the given axis) or a box, its mass properties those of the solid (shown as typed)."""

    def __init__(self, shape: str, name: str, parent=None):
        super().__init__(parent)
        self.shape = shape
        self.setWindowTitle("Cylinder" if shape == "cylinder" else "Box")
        self.setObjectName(f"{shape}_dialog")
        self.name = QLineEdit(name)
        self.name.setObjectName("Name")
        form = QFormLayout()
        form.addRow("Name", self.name)
        size = Range(lo=0.0, hi=10.0, lo_open=True, **MM)
        if shape == "cylinder":
            self.dims = [QuantityField("Radius", size, 0.05), QuantityField("Length", size, 0.02)]
        else:
            self.dims = [QuantityField(f"Size {a}", size, v) for a, v in zip("xyz", (0.1, 0.1, 0.02))]
        for d in self.dims:
            form.addRow(d.label, d)
        self.density = QuantityField("Density", DENSITY, 7850.0)
        self.position = VectorField("Position", POSITION, (0.0, 0.0, 0.0))
        self.axis = VectorField("Axis", AXIS, (0.0, 0.0, 1.0))
        for label, w in (("Density", self.density), ("Position", self.position), ("Axis", self.axis)):
            form.addRow(label, w)
        self.note = QLabel("")
        self.note.setObjectName("primitive_note")
        self.note.setWordWrap(True)
        form.addRow("Mass", self.note)
        self.message = finish_form(self, form)
        self.body = None
        for field in (*self.dims, self.density):
            field.edit.editingFinished.connect(self.show_note)
        follow_keys((*self.dims, self.density), self.show_note)
        self.show_note()

    def source(self) -> PrimitiveSource:
        """The solid as entered (FieldError naming an entry out of its range)."""
        dims = [d.value() for d in self.dims]
        if self.shape == "cylinder":
            return PrimitiveSource("cylinder", radius=dims[0], length=dims[1], density=self.density.value())
        return PrimitiveSource("box", size=tuple(dims), density=self.density.value())

    def show_note(self, *_) -> None:
        """The solid's mass and its inertia about its centre in its own axes (z along Axis), as typed."""
        try:
            s = self.source()
        except FieldError as exc:
            self.note.setText(str(exc))
            return
        mp = primitive_mass_properties(s.shape, s.radius, s.length, s.size, s.density)
        moments = ", ".join(f"{mp.inertia[i][i]:.4g}" for i in range(3))
        self.note.setText(f"{mp.mass:.4g} kg ({mp.volume * 1e6:.4g} cm^3); inertia about its centre {moments} "
                          "kg m^2 about its x, y and z (z along Axis)")
        grow_to_fit(self)

    def accept(self) -> None:
        try:
            source = self.source()
            axis = self.axis.value()
            if sum(a * a for a in axis) < 1e-12:
                raise FieldError("Axis: must be a non-zero direction")
            self.body = builders.body_from_source(self.name.text().strip(), source, self.position.value(), axis)
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        super().accept()
