"""Every model edit as a command with do and undo.

The GUI wraps each command in one QUndoCommand; scripts and tests call
`do`/`undo` directly. A command checks its edit before touching the model: if
it would make the model inconsistent it raises `ModelError` and the model is
left exactly as it was.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np

from core.geometry.mesh_import import MeshImportError, import_mesh
from core.geometry.rotations import quat_about, quat_matrices, quat_mul
from core.model.builders import regenerated
from core.model.entities import (
    BearingSpringDamper,
    CompliantMesh,
    FixedJoint,
    GearSource,
    MeshFileSource,
    RevoluteJoint,
    collection_of,
)
from core.errors import ModelError
from core.model.model import COLLECTIONS, Model
from core.wording import counted


def _insert_at(mapping: dict, index: int, key: str, value) -> None:
    """Put `key` back at position `index` of an insertion-ordered dict."""
    items = list(mapping.items())
    items.insert(min(index, len(items)), (key, value))
    mapping.clear()
    mapping.update(items)


def _replace_keeping_place(mapping: dict, old_key: str, new_key: str, value) -> None:
    items = [(new_key, value) if k == old_key else (k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


class Command:
    """An undoable edit. `text` is what Undo/Redo menus show."""

    text = "Edit"

    def do(self, model: Model) -> None:
        raise NotImplementedError

    def undo(self, model: Model) -> None:
        raise NotImplementedError


class AddItem(Command):
    """Add a body, joint, gear pair or force element."""

    def __init__(self, item):
        self.item = item
        self.coll = collection_of(item)
        self.text = f"Add {item.name}"

    def do(self, model: Model) -> None:
        if self.item.name in model.names() or self.item.name == "ground":
            raise ModelError("name", f"{self.item.name!r} is already used; choose another name")
        problems = model.item_problems(self.item)
        if problems:
            raise ModelError(*problems[0])
        model.collection(self.coll)[self.item.name] = self.item

    def undo(self, model: Model) -> None:
        del model.collection(self.coll)[self.item.name]


class DuplicateItem(AddItem):
    """Add a copy of a body or a force element under `new_name`, its values and references as they are (a body
    in the same place). A joint or gear pair is not copied: the copy would hold the same bodies twice; a compliant
    mesh neither: a pair takes one."""

    def __init__(self, model: Model, name: str, new_name: str):
        item = model.find(name)
        if item is None:
            raise ModelError("name", f"no item {name!r} in the model")
        if collection_of(item) not in ("bodies", "forces") or isinstance(item, CompliantMesh):
            raise ModelError("name", f"{name!r}: only a body or a load, spring or bearing can be duplicated (a "
                                     f"copy of a joint, gear pair or compliant mesh would act on the same bodies "
                                     f"twice)")
        super().__init__(dataclasses.replace(item, name=new_name))
        self.text = f"Duplicate {name}"


class RemoveItem(Command):
    """Remove an item together with everything that depends on it."""

    def __init__(self, model: Model, name: str):
        if model.find(name) is None:
            raise ModelError("name", f"there is no item called {name!r}")
        self.name = name
        self.removed: list[tuple[str, int, object]] = []
        dependents = model.dependents(name)
        self.dependent_names = [d.name for d in dependents]
        self.text = f"Delete {name}" + (f" and {counted(len(dependents), 'dependent item')}" if dependents else "")

    def do(self, model: Model) -> None:
        self.removed = []
        for name in [self.name, *self.dependent_names]:
            item = model.find(name)
            coll = collection_of(item)
            self.removed.append((coll, list(model.collection(coll)).index(name), item))
        for coll, _, item in self.removed:
            del model.collection(coll)[item.name]

    def undo(self, model: Model) -> None:
        for coll, index, item in sorted(self.removed, key=lambda r: (COLLECTIONS.index(r[0]), r[1])):
            _insert_at(model.collection(coll), index, item.name, item)


class ReplaceItem(Command):
    """Replace an item by an edited copy; a new name is followed by everything that references it."""

    def __init__(self, model: Model, name: str, new_item):
        old = model.find(name)
        if old is None:
            raise ModelError("name", f"there is no item called {name!r}")
        if type(new_item) is not type(old) and collection_of(new_item) != collection_of(old):
            raise ModelError(f"{name}: a {type(old).__name__} cannot become a {type(new_item).__name__}")
        self.old, self.new = old, new_item
        self.renames = old.name != new_item.name
        self.text = f"Rename {old.name} to {new_item.name}" if self.renames else f"Edit {name}"
        self.changed_refs: list[tuple[str, object, object]] = []

    def do(self, model: Model) -> None:
        old, new = self.old, self.new
        if self.renames and (new.name in model.names() or new.name == "ground"):
            raise ModelError("name", f"{new.name!r} is already used; choose another name")
        trial = model.copy()
        self._apply(trial, old, new)
        problems = trial.item_problems(new)
        if problems:
            raise ModelError(*problems[0])
        for _, item in trial.items():
            if item is not new and any(r == new.name for r in item.references()):
                bad = trial.item_problems(item)
                if bad:
                    raise ModelError(f"{item.name}.{bad[0][0]}: {bad[0][1]} (after this edit)")
        self._apply(model, old, new)

    def _apply(self, model: Model, old, new) -> None:
        coll = collection_of(old)
        _replace_keeping_place(model.collection(coll), old.name, new.name, new)
        if not self.renames:
            return
        self.changed_refs = []
        for c, item in list(model.items()):
            if item is new:
                continue
            moved = item.renamed(old.name, new.name)
            if moved is not item:
                model.collection(c)[item.name] = moved
                self.changed_refs.append((c, item, moved))

    def undo(self, model: Model) -> None:
        coll = collection_of(self.new)
        _replace_keeping_place(model.collection(coll), self.new.name, self.old.name, self.old)
        for c, before, _ in self.changed_refs:
            model.collection(c)[before.name] = before


class SetSettings(Command):
    """Change the simulation settings."""

    text = "Change simulation settings"

    def __init__(self, model: Model, settings):
        problems = settings.problems()
        if problems:
            raise ModelError(f"settings.{problems[0][0]}", problems[0][1])
        self.old, self.new = model.settings, settings

    def do(self, model: Model) -> None:
        model.settings = self.new

    def undo(self, model: Model) -> None:
        model.settings = self.old


class SetViews(Command):
    """Change what the model file keeps of its windows (the telemetry layout, the CHBM study and Train Dynamics
    settings)."""

    text = "Change the telemetry layout"

    def __init__(self, model: Model, views):
        for path, msg in views.telemetry.problems():
            raise ModelError(f"views.telemetry.{path}", f"{msg}")
        for path, msg in views.chbm.problems():
            raise ModelError(f"views.chbm.{path}", f"{msg}")
        for path, msg in views.train.problems():
            raise ModelError(f"views.train.{path}", f"{msg}")
        self.old, self.new = model.views, views
        if views.chbm != model.views.chbm and views.telemetry == model.views.telemetry:
            self.text = "Change the CHBM study"
        elif views.train != model.views.train and views.telemetry == model.views.telemetry:
            self.text = "Change the Train Dynamics settings"

    def do(self, model: Model) -> None:
        model.views = self.new

    def undo(self, model: Model) -> None:
        model.views = self.old


class SetModelInfo(Command):
    """Change the model's name and description."""

    text = "Change model name"

    def __init__(self, model: Model, name: str, description: str):
        if not name.strip():
            raise ModelError("name: must be a non-empty name")
        self.old = (model.name, model.description)
        self.new = (name, description)

    def do(self, model: Model) -> None:
        model.name, model.description = self.new

    def undo(self, model: Model) -> None:
        model.name, model.description = self.old


class Macro(Command):
    """Several commands as one undoable step; all or nothing."""

    def __init__(self, text: str, commands: list[Command]):
        self.text = text
        self.commands = list(commands)

    def do(self, model: Model) -> None:
        done = []
        try:
            for cmd in self.commands:
                cmd.do(model)
                done.append(cmd)
        except Exception:
            for cmd in reversed(done):
                cmd.undo(model)
            raise

    def undo(self, model: Model) -> None:
        for cmd in reversed(self.commands):
            cmd.undo(model)


def replace_fields(model: Model, item_name: str, /, **changes) -> ReplaceItem:
    """A ReplaceItem that changes some fields of item `item_name` (``name=`` renames it)."""
    item = model.find(item_name)
    if item is None:
        raise ModelError("name", f"there is no item called {item_name!r}")
    try:
        new = dataclasses.replace(item, **changes)
    except TypeError as exc:
        raise ModelError(f"{item_name}: {exc}") from None
    return ReplaceItem(model, item_name, new)


def set_gear_spec(model: Model, body_name: str, /, **changes) -> ReplaceItem:
    """A ReplaceItem that changes a generated gear's macro-geometry (module, teeth, face width, ...) and
    regenerates it, so its mass and inertia follow the new mesh."""
    body = model.bodies.get(body_name)
    if body is None or not isinstance(body.visual, GearSource):
        raise ModelError("name", f"{body_name!r} is not a generated gear")
    try:
        spec = dataclasses.replace(body.visual.spec, **changes)
    except TypeError as exc:
        raise ModelError(f"{body_name}: {exc}") from None
    return ReplaceItem(model, body_name, regenerated(body, spec))


def relink_mesh(model: Model, body_name: str, path: str) -> ReplaceItem:
    """A ReplaceItem that points an imported body at its mesh file again (the file moved, or a newer one of the
    part), read with the body's unit, density and fallback: its mass, centre of mass and inertia follow the file
    as an import makes them (those typed by hand for a mesh with holes are kept). ModelError naming the body's
    visual.path where the file does not read."""
    body = model.bodies.get(body_name)
    if body is None or not isinstance(body.visual, MeshFileSource):
        raise ModelError("name", f"{body_name!r} is not a body imported from a mesh file")
    source = dataclasses.replace(body.visual, path=str(Path(path).resolve()))
    try:
        imported = import_mesh(source.path, source.unit, source.density, source.fallback)
    except MeshImportError as exc:
        raise ModelError(f"bodies[{body_name!r}].visual.path", str(exc)) from None
    mp = imported.mass_properties
    mass = {} if mp is None else {"mass": mp.mass, "com": tuple(mp.com), "inertia": mp.inertia}
    return ReplaceItem(model, body_name, dataclasses.replace(body, visual=source, **mass))


def move_body(model: Model, body_name: str, /, translation=(0.0, 0.0, 0.0), rotation=(1.0, 0.0, 0.0, 0.0),
              pivot=None, joints_follow: bool = True, keep=(), welded_follow: bool = True) -> Macro:
    """Move and turn a body rigidly: p -> R (p - pivot) + pivot + translation, orientation -> R q.

    Parameters
    ----------
    translation : Vec3 [m]
    rotation : unit quaternion R, world axes
    pivot : Vec3 [m]
        The point the rotation turns about (default: the body's origin).
    joints_follow : bool
        Joints and bearings that carry a moved body (it is their body_j) move with it, so they stay on its axis.
    keep : names of joints that stay where they are (e.g. the joint a body is snapped onto).
    welded_follow : bool
        The bodies welded to it (Model.rigid_piece: a compound shaft's gears) move with it as one, the welds
        between them too; else it moves alone, and its welds hold it where it is put.
    """
    body = model.bodies.get(body_name)
    if body is None:
        raise ModelError("name", f"there is no body called {body_name!r}")
    rot = quat_matrices(rotation)
    centre = np.asarray(body.position, float) if pivot is None else np.asarray(pivot, float)

    def moved(p):
        return tuple(float(v) for v in rot @ (np.asarray(p, float) - centre) + centre + np.asarray(translation, float))

    piece = model.rigid_piece(body_name) if welded_follow else {body_name}
    bodies = [body_name] + [name for name in model.bodies if name in piece and name != body_name]
    commands = []
    for name in bodies:
        b = model.bodies[name]
        q = quat_mul(rotation, b.orientation)
        commands.append(replace_fields(model, name, position=moved(b.position),
                                       orientation=tuple(float(v) for v in q / np.linalg.norm(q))))
    for item in [*model.joints.values(), *model.forces.values()]:
        if item.name in keep:
            continue
        inside = isinstance(item, FixedJoint) and item.body_i in bodies and item.body_j in bodies
        if not inside and not (joints_follow and getattr(item, "body_j", None) in bodies):
            continue
        if isinstance(item, (RevoluteJoint, BearingSpringDamper)):
            commands.append(replace_fields(model, item.name, position=moved(item.position),
                                           axis=tuple(float(v) for v in rot @ np.asarray(item.axis, float))))
        elif isinstance(item, FixedJoint):
            commands.append(replace_fields(model, item.name, position=moved(item.position)))
    return Macro(f"Move {body_name}", commands)


def snap_onto_joint(model: Model, body_name: str, joint_name: str, welded_follow: bool = True) -> Macro:
    """Put a body's origin on a revolute joint's point and its z axis along the joint's axis (the least turn); the
    bodies welded to it with it, unless `welded_follow` is False (see `move_body`)."""
    joint = model.joints.get(joint_name)
    if not isinstance(joint, RevoluteJoint):
        raise ModelError("joint", f"{joint_name!r} is not a revolute joint")
    body = model.bodies[body_name]
    z = quat_matrices(body.orientation)[:, 2]
    a = joint.unit_axis()
    cross = np.cross(z, a)
    s, c = float(np.linalg.norm(cross)), float(z @ a)
    if s < 1e-12:
        rotation = (1.0, 0.0, 0.0, 0.0) if c > 0 else tuple(quat_about(_any_perpendicular(z), math.pi))
    else:
        rotation = tuple(quat_about(cross, math.atan2(s, c)))
    translation = np.asarray(joint.position, float) - np.asarray(body.position, float)
    return move_body(model, body_name, translation=translation, rotation=rotation, keep=(joint_name,),
                     welded_follow=welded_follow)


def _any_perpendicular(v):
    helper = np.array([1.0, 0.0, 0.0]) if abs(v[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    return np.cross(v, helper)
