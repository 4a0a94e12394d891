"""Parameter paths: which number of a model (or of the paper's CHBM pair) a study varies, and setting it.

Model paths (values in SI, as in the model file):

- ``gears.BODY.FIELD``: a generated gear's macro-geometry (module, teeth, face_width, helix_angle, ...);
  the gear is regenerated, so its mass and inertia follow (core.commands.set_gear_spec);
- ``bodies.BODY.FIELD``, ``joints.NAME.FIELD``, ``pairs.NAME.FIELD``, ``forces.NAME.FIELD``: a numeric field (a
  pair's as the Properties edit it: its generated gears follow, core.gearing.pair_gears.edit_pair);
- ``forces.NAME.law.FIELD``: a field of a load's time law (value, amplitude, frequency, ...);
- ``settings.FIELD``: a simulation setting.

CHBM paths: ``chbm.torque`` (any base), and for the paper's pair ``chbm.inertia``, ``chbm.base_radius``,
``chbm.damping``, ``chbm.contact_stiffness``, ``chbm.contact_ratio``.

Every change goes through a core command on the case's own copy of the model, so a case is exactly
what the same edit in the GUI makes.
"""

from __future__ import annotations

import dataclasses

from core.commands import SetSettings, replace_fields, set_gear_spec
from core.errors import ModelError
from core.gearing.pair_gears import edit_pair
from core.model.entities import CompliantMesh, GearPair, SimulationSettings, TimeLaw
from core.ranges import Range, field_range

MODEL_ROOTS = ("gears", "bodies", "joints", "pairs", "forces", "settings")
CHBM_FIELDS = ("torque", "inertia", "base_radius", "damping", "contact_stiffness", "contact_ratio")


def check_path(path: str, chbm_base: bool, where: str = "path") -> None:
    """Refuse a path whose shape is wrong (names are checked against the model when a case runs)."""
    parts = path.split(".")
    if parts[0] == "chbm":
        if len(parts) != 2 or parts[1] not in CHBM_FIELDS or (not chbm_base and parts[1] != "torque"):
            allowed = CHBM_FIELDS if chbm_base else ("torque",)
            raise ModelError(where, f"{path!r}: chbm paths are chbm.{{{', '.join(allowed)}}}")
        return
    if chbm_base:
        raise ModelError(where, f"{path!r}: the paper's pair (base chbm) takes chbm.* paths only")
    if parts[0] not in MODEL_ROOTS:
        raise ModelError(where, f"{path!r} must start with one of {', '.join(MODEL_ROOTS)} or chbm")
    want = 2 if parts[0] == "settings" else (4 if len(parts) == 4 and parts[2] == "law" else 3)
    if len(parts) != want or not all(parts):
        raise ModelError(where, f"{path!r} must look like {parts[0]}.NAME.FIELD"
                         + (" (or forces.NAME.law.FIELD)" if parts[0] == "forces" else "")
                         if parts[0] != "settings" else f"{path!r} must look like settings.FIELD")


def _typed(current, value: float, path: str):
    if isinstance(current, bool):
        raise ModelError(f"{path}: is a yes/no field, not a number")
    if isinstance(current, int):
        if not float(value).is_integer():
            raise ModelError(f"{path}: must be a whole number, got {value:g}")
        return int(value)
    if not isinstance(current, float):
        raise ModelError(f"{path}: is not a number field")
    return float(value)


def _holder(model, path: str):
    """(root, name, holder, field) of the number at model `path`: the object that holds it (the settings, a gear's
    spec, a load's law or the item) and its field; ModelError names the path when it names nothing."""
    parts = path.split(".")
    root, field = parts[0], parts[-1]
    if root == "settings":
        if not hasattr(model.settings, field):
            raise ModelError(f"{path}: settings have no field {field!r}")
        return root, "", model.settings, field
    name = parts[1]
    if root == "gears":
        spec = getattr(getattr(model.bodies.get(name), "visual", None), "spec", None)
        if spec is None:
            raise ModelError(f"{path}: {name!r} is not a generated gear of the model")
        if not hasattr(spec, field):
            raise ModelError(f"{path}: a gear has no field {field!r}")
        return root, name, spec, field
    collection = {"bodies": model.bodies, "joints": model.joints, "pairs": model.gear_pairs, "forces": model.forces}[root]
    item = collection.get(name)
    if item is None:
        raise ModelError(f"{path}: the model has no {root[:-1] if root != 'bodies' else 'body'} {name!r}")
    if len(parts) == 4:  # forces.NAME.law.FIELD
        law = getattr(item, "law", None)
        if law is None or not hasattr(law, field):
            raise ModelError(f"{path}: {name!r} has no law field {field!r}")
        return root, name, law, field
    if not hasattr(item, field):
        raise ModelError(f"{path}: {name!r} has no field {field!r}")
    return root, name, item, field


def current_value(model, path: str) -> float | None:
    """The number at model `path` now [SI], or None where the path names no number of `model`."""
    try:
        _, _, holder, field = _holder(model, path)
    except (ModelError, KeyError, IndexError):
        return None
    value = getattr(holder, field)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def apply(model, path: str, value: float, analysis: str = "simulation") -> None:
    """Set the number at `path` in `model` (a case's copy) through a core command; ModelError names the path, and
    a field a case of `analysis` ('simulation' or 'chbm') would vary without effect."""
    root, name, holder, field = _holder(model, path)
    new = _typed(getattr(holder, field), value, path)
    if root == "settings":
        SetSettings(model, dataclasses.replace(model.settings, **{field: new})).do(model)
    elif root == "gears":
        set_gear_spec(model, name, **{field: new}).do(model)
    elif isinstance(holder, TimeLaw):
        if field not in holder.FIELDS_OF[holder.kind]:  # the case would run as the model does, saying nothing
            raise ModelError(f"{path}: a {holder.kind} law does not use {field} (it uses "
                             f"{', '.join(holder.FIELDS_OF[holder.kind])})")
        new_law = dataclasses.replace(holder, **{field: new})
        problems = new_law.problems() if hasattr(new_law, "problems") else []
        if problems:
            raise ModelError(f"{path}: {problems[0][1]}")
        replace_fields(model, name, law=new_law).do(model)
    else:
        idle = _unused(model, holder, analysis)
        if field in idle:  # as a law's unused field: the case would run as the model does
            raise ModelError(f"{path}: has no effect: {idle[field]}")
        (edit_pair if isinstance(holder, GearPair) else replace_fields)(model, name, **{field: new}).do(model)


def path_range(model, path: str) -> Range | None:
    """The Range of the field a model path names (its SI and display units), or None (a count, a chbm path, a
    field without one, or a path that names nothing in `model`)."""
    parts = path.split(".")
    try:
        if parts[0] == "settings" and len(parts) == 2:
            return field_range(SimulationSettings, parts[1])
        if len(parts) < 3 or parts[0] not in MODEL_ROOTS:
            return None
        name, field = parts[1], parts[-1]
        if parts[0] == "gears":
            spec = getattr(getattr(model.bodies.get(name), "visual", None), "spec", None)
            return field_range(type(spec), field) if spec is not None else None
        item = {"bodies": model.bodies, "joints": model.joints, "pairs": model.gear_pairs,
                "forces": model.forces}[parts[0]].get(name)
        if item is None:
            return None
        if len(parts) == 4 and field in ("value", "final", "amplitude"):  # in the unit of what the law gives
            return Range(unit=getattr(item, "LAW_UNIT", ""))
        return field_range(TimeLaw if len(parts) == 4 else type(item), field)
    except KeyError:  # no such field
        return None


def value_problems(model, parameters) -> list[tuple[str, str]]:
    """(parameters[i].values, message) for each parameter of a study (core.studies.study_file.Parameter) with a
    value outside the range of the field its path names in `model`, naming the first such value: a study is
    refused before any case runs. Values in range that a case still cannot take fail that case alone."""
    found = []
    for i, parameter in enumerate(parameters):
        rng = path_range(model, parameter.path)
        why = next((w for w in map(rng.problem, parameter.values) if w), None) if rng is not None else None
        if why:
            found.append((f"parameters[{i}].values", f"{parameter.path} {why}"))
    return found


def face_width_unused(pair: GearPair, mesh: CompliantMesh | None) -> str:
    """Why `pair`'s face width changes nothing in a simulation with `mesh` on it (None: the pair is rigid), or ''
    where it does. Of the simulation's physics a bevel pair's mean cone, the ISO 6336 stiffness c_gamma_alpha b
    and a helical pair's involute waveform (its overlap ratio) take it, nothing else
    (core.gearing.mesh_model.mesh_model_for, core.gearing.pitch_point)."""
    if pair.kind == "bevel":
        return ""
    if mesh is None:
        return ("a rigid cylindrical pair's forces do not depend on its face width (a Compliant Mesh on it with the "
                "ISO 6336 stiffness takes it; a gear's own width is gears.NAME.face_width)")
    if mesh.stiffness == "iso6336" or (mesh.waveform == "involute" and pair.helix_angle != 0.0):
        return ""
    return (f"its Compliant Mesh {mesh.name!r} has a given stiffness and a {mesh.waveform} waveform"
            f"{' of a spur pair' if mesh.waveform == 'involute' else ''}, which do not take the face width (the "
            "ISO 6336 stiffness does)")


def _unused(model, item, analysis: str = "simulation") -> dict[str, str]:
    """{field: why} for the fields of `item` (of `model`) that a case of `analysis` would vary without effect: those
    its configuration leaves unused (its inactive_fields), and in a simulation a pair's face width where its mesh
    model does not take it (`face_width_unused`; a CHBM study's lumped pair takes the ISO 6336 stiffness from it
    where the model gives no Compliant Mesh)."""
    found = dict(item.inactive_fields()) if hasattr(item, "inactive_fields") else {}
    if isinstance(item, GearPair) and analysis == "simulation":
        mesh = next((f for f in model.forces.values() if isinstance(f, CompliantMesh) and f.pair == item.name), None)
        why = face_width_unused(item, mesh)
        if why:
            found["face_width"] = why
    return found


def _numeric_fields(obj) -> list[str]:
    return [f.name for f in dataclasses.fields(obj)
            if isinstance(getattr(obj, f.name), (int, float)) and not isinstance(getattr(obj, f.name), bool)]


def numeric_paths(model) -> list[str]:
    """Every path a simulation study can vary in `model` to effect (for pickers), in the model's order."""
    out = []
    for name, body in model.bodies.items():
        spec = getattr(body.visual, "spec", None)
        if spec is not None:  # a generated gear's mass follows its geometry
            out += [f"gears.{name}.{f}" for f in spec.relevant_fields()]
        else:
            out.append(f"bodies.{name}.mass")
    for root, items in (("pairs", model.gear_pairs), ("joints", model.joints), ("forces", model.forces)):
        for name, item in items.items():
            idle = _unused(model, item)
            out += [f"{root}.{name}.{f}" for f in _numeric_fields(item) if f not in idle]
            law = getattr(item, "law", None)
            if law is not None:  # the fields its kind uses
                out += [f"{root}.{name}.law.{f}" for f in _numeric_fields(law) if f in law.FIELDS_OF[law.kind]]
    out += [f"settings.{f}" for f in _numeric_fields(model.settings)]
    return out


def first_parameter(model) -> str:
    """The path a new study starts on: a torque's law value (what a study of a gear train varies first), else any
    law's value, else a gear's face width or a body's mass (its inertia follows; a gear no narrower than its pair
    meets no pair rule), else the first path. Not a gear's module: varied alone, it leaves its pairs' module
    behind."""
    paths = numeric_paths(model)
    laws = [p for p in paths if p.startswith("forces.") and p.endswith(".law.value")]
    torques = [p for p in laws if getattr(model.forces[p.split(".")[1]], "LAW_UNIT", "") == "N m"]
    masses = [p for p in paths if p.endswith((".face_width", ".mass")) and p.startswith(("gears.", "bodies."))]
    return next(iter(torques + laws + masses + paths), "")
