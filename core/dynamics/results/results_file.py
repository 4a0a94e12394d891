"""Results files (*.gdres): HDF5 through h5py, one dataset per array, units as attributes.

HDF5 because a run is mostly large float arrays: they round-trip bit for bit,
are stored chunked and compressed, can be read one channel at a time without
loading the rest, and open in MATLAB, Python (h5py, pandas) and HDFView
without GearDyn. Layout:

    /time                         (k,)  attrs unit = "s"
    /channels/c000000 ...         (k,)  attrs item, quantity, unit, group, description
    /poses/body_names             (b,)  strings, the order of the pose arrays
    /poses/position               (k, b, 3) attrs unit = "m"
    /poses/orientation            (k, b, 4) unit quaternions (w, x, y, z), body to world
    /events/time, name, detail    one entry per event
    root attrs: format, format_version, status, message, steps, evaluations,
                findings (JSON list), settings (JSON), model (the .gdyn text)

Writing is atomic (a temporary file in the same folder, then a rename), so an
interrupted save never leaves half a file under the real name. Every dataset
carries a Fletcher-32 checksum, so a damaged block reads as an error. Reading
runs in a child process and checks every object before it reads it: a damaged
file gives one line naming it, and one that makes HDF5 spin is ended.
"""

from __future__ import annotations

import json
import multiprocessing
import stat
from pathlib import Path

import numpy as np

from core.atomic import atomic_target
from core.dynamics.results.channels import Channel
from core.dynamics.results.results import Results
from core.errors import ModelError

SUFFIX = ".gdres"
FORMAT = "GearDyn results"
FORMAT_VERSION = 1


def save_results(res: Results, path) -> None:
    """Write `res` to `path` atomically."""
    import h5py

    with atomic_target(path) as tmp, h5py.File(tmp, "w") as f:
        f.attrs.update({"format": FORMAT, "format_version": FORMAT_VERSION, "status": res.status,
                        "message": res.message, "steps": int(res.steps), "evaluations": int(res.evaluations),
                        "findings": json.dumps(res.findings), "settings": json.dumps(res.settings),
                        "model": json.dumps(res.model) if res.model is not None else ""})
        # a checksum on every dataset: a damaged block is an error when read, not wrong numbers
        opts = {"fletcher32": True, **({"compression": "gzip", "compression_opts": 4, "shuffle": True}
                                       if len(res) > 256 else {})}
        f.create_dataset("time", data=res.time, **opts).attrs["unit"] = "s"
        grp = f.create_group("channels")
        for k, c in enumerate(res.channels):
            ds = grp.create_dataset(f"c{k:06d}", data=res.data[:, k], **opts)
            ds.attrs.update({"item": c.item, "quantity": c.quantity, "unit": c.unit, "group": c.group,
                             "description": c.description})
        poses = f.create_group("poses")
        poses.create_dataset("body_names", data=np.array(res.bodies, dtype=object), dtype=h5py.string_dtype())
        poses.create_dataset("position", data=res.positions, **opts).attrs["unit"] = "m"
        poses.create_dataset("orientation", data=res.orientations, **opts).attrs["unit"] = "1"
        ev = f.create_group("events")
        ev.create_dataset("time", data=np.array([e[0] for e in res.events], float), fletcher32=True).attrs["unit"] = "s"
        ev.create_dataset("name", data=np.array([e[1] for e in res.events], dtype=object), dtype=h5py.string_dtype())
        ev.create_dataset("detail", data=np.array([e[2] for e in res.events], dtype=object), dtype=h5py.string_dtype())


#: Seconds a results file may take to read, plus one per READ_RATE bytes: a damaged HDF5 block can make the
#: library spin forever, so the file is read in a child process that is ended after that
READ_SECONDS, READ_RATE = 10.0, 20e6
#: The most values a file may declare (a damaged header can declare 2^60): 4e9 doubles, 32 GB
MAX_VALUES = 4_000_000_000
TEXT_ATTRS = ("format", "status", "message", "findings", "settings", "model")
CHANNEL_ATTRS = ("item", "quantity", "unit", "group", "description")


def open_results(path, timeout: float | None = None) -> Results:
    """Read a results file; raises ModelError naming the file and what is wrong.

    The file is read in a child process (multiprocessing's spawn), so that a damaged file can neither hang nor
    crash the caller: after `timeout` seconds (default READ_SECONDS and one per READ_RATE bytes) the child is
    ended and the file reported as damaged.
    """
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise ModelError(f"{path}: cannot be opened ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ModelError(f"{path}: is not a results file (not a regular file)")
    limit = timeout if timeout is not None else READ_SECONDS + info.st_size / READ_RATE
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        job = pool.apply_async(read_results, (str(path),))
        try:
            res, problem = job.get(limit)
        except multiprocessing.TimeoutError:
            raise ModelError(f"{path.name}: cannot be read as a results file (reading it did not end within "
                             f"{limit:.0f} s: the file is damaged)") from None
    if problem:
        raise ModelError(f"{path.name}: {problem}")
    res.source = str(path)
    return res


def read_results(path: str) -> tuple[Results | None, str]:
    """(the results, "") or (None, what is wrong): every object's kind, link, type and shape checked before it
    is read. Runs in open_results' child process."""
    import h5py

    try:
        with h5py.File(path, "r") as f:
            return _read(f, h5py), ""
    except _Damaged as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001  (HDF5 reports damage as any of OSError, RuntimeError, KeyError...)
        return None, f"cannot be read as a results file ({type(exc).__name__}: {str(exc)[:200]})"


class _Damaged(Exception):
    """What is wrong with a results file, for its one-line error."""


def _attrs(obj, names, where: str, required=()) -> dict:
    """The text attributes `names` of obj (missing ones "", or an error for those in `required`)."""
    out = {}
    for name in names:
        if name not in obj.attrs:
            if name in required:
                raise _Damaged(f"{where} has no attribute {name!r}")
            out[name] = ""
            continue
        v = obj.attrs[name]
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        if not isinstance(v, str):
            raise _Damaged(f"{where}: attribute {name!r} must be text, got {type(v).__name__}")
        out[name] = v
    return out


def _dataset(parent, name: str, h5py, shape: tuple, kind: str, where: str):
    """parent[name] as an array, after checking it is a hard-linked dataset of `kind` ('f' float, 'S' text) and
    of `shape` (None: any length there)."""
    link = parent.get(name, getlink=True)
    if link is None:
        raise _Damaged(f"{where}{name} is missing")
    if not isinstance(link, h5py.HardLink):
        raise _Damaged(f"{where}{name} is a link, not a dataset")
    ds = parent[name]
    if not isinstance(ds, h5py.Dataset):
        raise _Damaged(f"{where}{name} is not a dataset")
    if len(ds.shape) != len(shape) or any(want is not None and got != want for got, want in zip(ds.shape, shape)):
        raise _Damaged(f"{where}{name} has the shape {ds.shape}, expected {shape} (None: any)")
    if int(np.prod(ds.shape, dtype=float)) > MAX_VALUES:
        raise _Damaged(f"{where}{name} declares {ds.shape} values, more than a results file holds")
    text = h5py.check_string_dtype(ds.dtype) is not None
    if (kind == "S") != text or (kind == "f" and ds.dtype.kind not in "fiu"):
        raise _Damaged(f"{where}{name} holds {ds.dtype}, expected {'text' if kind == 'S' else 'numbers'}")
    data = ds[()]
    if kind == "S":
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in np.ravel(data)]
    return np.asarray(data, dtype=float)


def _group(parent, name: str, h5py):
    link = parent.get(name, getlink=True)
    if not isinstance(link, h5py.HardLink) or not isinstance(parent[name], h5py.Group):
        raise _Damaged(f"/{name} is missing or not a group")
    return parent[name]


def _read(f, h5py) -> Results:
    head = _attrs(f, TEXT_ATTRS, "the file", required=("format",))
    if head["format"] != FORMAT:
        raise _Damaged("is not a GearDyn results file")
    counts = {}
    for name in ("format_version", "steps", "evaluations"):
        v = f.attrs.get(name)
        if not isinstance(v, (int, np.integer)) or not 0 <= int(v) < 2**62:
            raise _Damaged(f"attribute {name!r} must be a whole number, got {str(v)[:40]}")
        counts[name] = int(v)
    if counts["format_version"] != FORMAT_VERSION:
        raise _Damaged(f"format_version must be {FORMAT_VERSION}, got {counts['format_version']}")
    time = _dataset(f, "time", h5py, (None,), "f", "/")
    k = len(time)
    if k and not (np.all(np.isfinite(time)) and np.all(np.diff(time) > 0)):
        raise _Damaged("/time must be finite and increasing")
    grp = _group(f, "channels", h5py)
    names = sorted(str(n) for n in grp)
    channels, columns = [], []
    for n in names:
        columns.append(_dataset(grp, n, h5py, (k,), "f", "/channels/"))
        a = _attrs(grp[n], CHANNEL_ATTRS, f"/channels/{n}", required=("item", "quantity", "unit"))
        channels.append(Channel(a["item"], a["quantity"], a["unit"], a["group"], a["description"]))
    poses = _group(f, "poses", h5py)
    bodies = _dataset(poses, "body_names", h5py, (None,), "S", "/poses/")
    b = len(bodies)
    positions = _dataset(poses, "position", h5py, (k, b, 3), "f", "/poses/")
    orientations = _dataset(poses, "orientation", h5py, (k, b, 4), "f", "/poses/")
    try:
        model = json.loads(head["model"]) if head["model"] else None
        res = Results(channels, bodies, model, json.loads(head["settings"] or "{}"))
        res.findings = [str(x) for x in json.loads(head["findings"] or "[]")]
    except (ValueError, TypeError, RecursionError) as exc:
        raise _Damaged(f"its model, settings or findings are not valid JSON ({str(exc)[:80]})") from None
    data = np.column_stack(columns) if columns else np.zeros((k, 0))
    res.append(time, data, positions, orientations)
    res.status, res.message = head["status"], head["message"]
    res.steps, res.evaluations = counts["steps"], counts["evaluations"]
    ev = _group(f, "events", h5py)
    ev_time = _dataset(ev, "time", h5py, (None,), "f", "/events/")
    ev_name = _dataset(ev, "name", h5py, (len(ev_time),), "S", "/events/")
    ev_detail = _dataset(ev, "detail", h5py, (len(ev_time),), "S", "/events/")
    res.events = [(float(t), n, d) for t, n, d in zip(ev_time, ev_name, ev_detail)]
    return res
