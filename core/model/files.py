"""Project files (*.gdyn): JSON in SI units, strict loading, atomic saving.

Loading never evaluates anything from the file: it reads JSON, checks every
value against the field's declared type and range, and builds the model only
when all of it is right. Any problem raises `ModelError` naming the field, e.g.
``gear_pairs[0].z1: must be a whole number from 3 to 1000, got -5``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import stat
import types
import typing
from pathlib import Path
from typing import Any, Union

from core.atomic import atomic_write_text
from core.model.entities import (
    shown_key,
    GearSource,
    MeshFileSource,
    PrimitiveSource,
    SimulationSettings,
)
from core.model.kinds import COLLECTIONS, ITEM_TYPES, KINDS
from core.errors import ModelError, problems_of
from core.model.model import Model
from core.model.views import Views
from core.wording import short_repr

FORMAT_VERSION = 1
SUFFIX = ".gdyn"
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_MESSAGE = 400  # characters of an error message

#: the tags of a body's visual sources; an item's tag is its kind's (core.model.kinds)
VISUAL_TAGS: dict[type, str] = {GearSource: "gear", PrimitiveSource: "primitive", MeshFileSource: "mesh_file"}


def tag_of(cls: type) -> str:
    """The ``type`` of a tagged dataclass in a model file; empty for an untagged one."""
    kind = KINDS.get(cls)
    return kind.tag if kind is not None else VISUAL_TAGS.get(cls, "")


# ------------------------------------------------------------------ encoding


def encode(obj: Any) -> Any:
    """JSON-ready data of an entity, tuple or plain value (tagged where a union needs it)."""
    if dataclasses.is_dataclass(obj):
        tag = tag_of(type(obj))
        out = {"type": tag} if tag else {}
        for f in dataclasses.fields(obj):
            out[f.name] = encode(getattr(obj, f.name))
        return out
    if isinstance(obj, (tuple, list)):
        # Every tuple in the model holds reals (vectors, matrices, tables).
        return [float(v) if type(v) is int else encode(v) for v in obj]
    return obj


def model_to_dict(model: Model) -> dict:
    """The whole model as JSON-ready data with its format version."""
    data = {"format_version": FORMAT_VERSION, "name": model.name, "description": model.description,
            "settings": encode(model.settings)}
    if model.views != Views():
        data["views"] = encode(model.views)
    for coll in COLLECTIONS:
        data[coll] = [encode(item) for item in model.collection(coll).values()]
    return data


# ------------------------------------------------------------------ decoding


def _fail(path: str, message: str):
    # values are cut where they are shown; this keeps any message to one readable line as well
    room = max(MAX_MESSAGE - len(path) - 2, 40)
    raise ModelError(path, message if len(message) <= room else message[:room - 3] + "...")


def _decode(value: Any, hint: Any, path: str) -> Any:
    if isinstance(value, _LongInteger):
        _fail(path, f"must be a number of at most {MAX_INT_DIGITS} digits, got {short_repr(value)}")
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None:
            if type(None) in options:
                return None
            _fail(path, "must not be null")
        classes = [o for o in options if dataclasses.is_dataclass(o)]
        return _decode_tagged(value, classes, path)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _fail(path, f"must be a number, got {type(value).__name__} {short_repr(value)}")
        if not math.isfinite(value):
            _fail(path, f"must be a finite number, got {short_repr(value)}")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            _fail(path, f"must be a whole number, got {type(value).__name__} {short_repr(value)}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            _fail(path, f"must be true or false, got {short_repr(value)}")
        return value
    if hint is str:
        if not isinstance(value, str):
            _fail(path, f"must be a string, got {type(value).__name__} {short_repr(value)}")
        return value
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            _fail(path, f"must be a list, got {type(value).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(v, args[0], f"{path}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            _fail(path, f"must be a list of {len(args)} values, got {len(value)}")
        return tuple(_decode(v, a, f"{path}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
    if dataclasses.is_dataclass(hint):
        return _decode_dataclass(value, hint, path)
    raise TypeError(f"no decoder for {hint!r}")  # a programming error, not bad input


def _decode_tagged(value: Any, classes: list[type], path: str) -> Any:
    if not isinstance(value, dict):
        _fail(path, f"must be an object, got {type(value).__name__}")
    by_tag = {tag_of(c): c for c in classes}
    tag = value.get("type")
    if not isinstance(tag, str) or tag not in by_tag:
        _fail(f"{path}.type", f"must be one of {', '.join(sorted(by_tag))}, got {short_repr(tag)}")
    return _decode_dataclass(value, by_tag[tag], path)


def _decode_dataclass(value: Any, cls: type, path: str) -> Any:
    """An instance of `cls` from a JSON object; a ModelError with every bad field of it (unknown, missing, of the
    wrong type, or out of its range)."""
    if not isinstance(value, dict):
        _fail(path, f"must be an object, got {type(value).__name__}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    allowed = set(fields) | ({"type"} if tag_of(cls) else set())
    found = [(f"{path}.{shown_key(key)}", f"is not a field of {cls.__name__} (fields: {', '.join(fields)})")
             for key in sorted(set(value) - allowed)]
    kwargs = {}
    for name, f in fields.items():
        if name not in value:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                found.append((f"{path}.{name}", "is missing"))
            continue
        kwargs[name], bad = problems_of(_decode, value[name], hints[name], f"{path}.{name}")
        found += bad
    if found:
        raise ModelError.of(found)
    obj = cls(**kwargs)
    problems = obj.problems() if hasattr(obj, "problems") else []
    if problems:
        raise ModelError.of([(f"{path}.{name}", msg) for name, msg in problems])
    return obj


def model_from_dict(data: Any) -> Model:
    """Build a model from JSON data; raises ModelError naming every bad field (its `problems`), the first in its
    text. A model whose items all read is checked as a whole too (references, names)."""
    if not isinstance(data, dict):
        _fail("file", "must hold a JSON object")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        _fail("format_version", f"must be {FORMAT_VERSION}, got {short_repr(version)}")
    known = {"format_version", "name", "description", "settings", "views", *COLLECTIONS}
    unknown = sorted(set(data) - known)
    if unknown:
        _fail(shown_key(unknown[0]), f"is not a model field (fields: {', '.join(sorted(known))})")
    parts, found = {}, []
    for key, hint, default in (("name", str, "untitled"), ("description", str, "")):
        parts[key], bad = problems_of(_decode, data.get(key, default), hint, key)
        found += bad
    for key, cls in (("settings", SimulationSettings), ("views", Views)):
        parts[key], bad = problems_of(_decode_dataclass, data.get(key, {}), cls, key)
        found += bad
    model = Model(**{k: v for k, v in parts.items() if v is not None})
    for coll in COLLECTIONS:
        items = data.get(coll, [])
        if not isinstance(items, list):
            found.append((coll, f"must be a list, got {type(items).__name__}"))
            continue
        classes = list(ITEM_TYPES[coll])
        decode = _decode_tagged if tag_of(classes[0]) else lambda raw, c, p: _decode_dataclass(raw, c[0], p)
        target = model.collection(coll)
        for i, raw in enumerate(items):
            path = f"{coll}[{i}]"
            item, bad = problems_of(decode, raw, classes, path)
            found += bad
            if item is not None and item.name in target:
                found.append((f"{path}.name", f"duplicates the name {item.name!r}"))
            elif item is not None:
                target[item.name] = item
    if not found:  # references to items that did not read would be reported twice
        found = model.structural_problems()
    if found:
        raise ModelError.of(found)
    return model


def _reject_constant(name: str):
    raise ModelError(f"file: {name} is not allowed in a model file (numbers must be finite)")


MAX_INT_DIGITS = 30
#: Levels of lists and objects a model file may nest (it uses about six: a table's rows in an item in a collection).
MAX_NESTING = 32
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_OPENING = str.maketrans({"[": "\x01", "{": "\x01", "]": "\x02", "}": "\x02"})


def nesting(text: str) -> int:
    """How deep the lists and objects of a JSON text nest, brackets inside strings left out (no recursion)."""
    import numpy as np

    marks = np.frombuffer(_JSON_STRING.sub("", text).translate(_OPENING).encode("latin-1", "replace"), dtype=np.uint8)
    steps = (marks == 1).astype(np.int64) - (marks == 2)
    return int(np.cumsum(steps).max(initial=0))


class _LongInteger:
    """An integer literal too long to be a model value; the decoder reports it with the field's path."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a whole number of {self.digits} digits"


def _parse_int(text: str):
    # Python refuses to convert integers of more than 4300 digits (and slowly converts shorter
    # ones): no model value needs more than MAX_INT_DIGITS, so longer ones are never converted.
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_INT_DIGITS else _LongInteger(digits)


def loads(text: str) -> Model:
    """Model from the text of a .gdyn file."""
    # refused before parsing: a structure thousands of levels deep costs recursion wherever it is read or shown
    if nesting(text) > MAX_NESTING:
        raise ModelError(f"file: lists or objects are nested too deeply (more than {MAX_NESTING} levels; a model file "
                         "needs a few)")
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise ModelError(f"file: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ModelError("file: lists or objects are nested too deeply (a model file needs a few levels)") from None
    return model_from_dict(data)


def dumps(model: Model) -> str:
    """Text of a .gdyn file; refuses a model that is not consistent."""
    problems = model.structural_problems()
    if problems:
        _fail(*problems[0])
    return _format(model_to_dict(model), "") + "\n"


def _format(obj: Any, indent: str) -> str:
    """JSON with one key per line but vectors and matrices of numbers on one line."""
    inner = indent + "  "
    if isinstance(obj, dict) and obj:
        body = ",\n".join(f"{inner}{json.dumps(k)}: {_format(v, inner)}" for k, v in obj.items())
        return "{\n" + body + "\n" + indent + "}"
    if isinstance(obj, list) and obj and any(isinstance(v, dict) for v in obj):
        return "[\n" + ",\n".join(inner + _format(v, inner) for v in obj) + "\n" + indent + "]"
    return json.dumps(obj, allow_nan=False)


def read_regular_file(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; ModelError naming the file otherwise.

    Opened without blocking (a FIFO would wait for a writer forever), refused
    unless it is a regular file (/dev/zero has no size and never ends), and read
    through the cap, so a file that grows after the check is cut off too.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ModelError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ModelError(f"{path}: is not a regular {what} (a folder, device or pipe cannot be read as one)")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise ModelError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ModelError(f"{path}: is larger than the {limit:,} bytes a {what} may have")
    return data


def load(path: str | os.PathLike) -> Model:
    """Read a model file; raises ModelError with the file name and the bad field. Imported meshes' paths,
    stored relative to the file's folder, come back absolute (so the model can be saved anywhere)."""
    path = Path(path)
    data = read_regular_file(path, MAX_FILE_BYTES, "model file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ModelError(f"{path}: is not a UTF-8 text file") from None
    try:
        model = loads(text)
    except ModelError as exc:
        raise ModelError.of([(f"{path.name}: {where}" if where else path.name, message)
                             for where, message in exc.problems]) from None
    folder = path.resolve().parent
    return with_mesh_paths(model, lambda p: p if Path(p).is_absolute() else os.path.normpath(folder / p))


def save(model: Model, path: str | os.PathLike) -> None:
    """Write a model file atomically (a temporary file in the same folder, then a rename). Imported meshes'
    paths are written relative to the file's folder when they can be (the model and its meshes move together)."""
    folder = Path(path).resolve().parent
    atomic_write_text(path, dumps(with_mesh_paths(model, lambda p: _relative(p, folder))))


def with_mesh_paths(model: Model, change) -> Model:
    """`model`, or a copy of it whose imported meshes' paths are `change(path)`."""
    moved = {name: body for name, body in model.bodies.items()
             if isinstance(body.visual, MeshFileSource) and change(body.visual.path) != body.visual.path}
    if not moved:
        return model
    copy = model.copy()
    for name, body in moved.items():
        copy.bodies[name] = dataclasses.replace(body, visual=dataclasses.replace(body.visual,
                                                                                 path=change(body.visual.path)))
    return copy


def _relative(path: str, folder: Path) -> str:
    """`path` relative to `folder` (with ../ when it lies beside it), or as it is when it cannot be (another
    drive) or is relative already."""
    if not Path(path).is_absolute():
        return path
    try:
        return Path(os.path.relpath(path, folder)).as_posix()
    except ValueError:
        return path
