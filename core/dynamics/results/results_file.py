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
interrupted save never leaves half a file under the real name.
"""

from __future__ import annotations

import json
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
        opts = {"compression": "gzip", "compression_opts": 4, "shuffle": True} if len(res) > 256 else {}
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
        ev.create_dataset("time", data=np.array([e[0] for e in res.events], float)).attrs["unit"] = "s"
        ev.create_dataset("name", data=np.array([e[1] for e in res.events], dtype=object), dtype=h5py.string_dtype())
        ev.create_dataset("detail", data=np.array([e[2] for e in res.events], dtype=object), dtype=h5py.string_dtype())


def _text(v) -> str:
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def open_results(path) -> Results:
    """Read a results file; raises ModelError naming the file and what is wrong."""
    import h5py

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: is not a results file (not a regular file)")
    try:
        with h5py.File(path, "r") as f:
            if _text(f.attrs.get("format", "")) != FORMAT:
                raise ModelError(f"{path.name}: is not a GearDyn results file")
            version = int(f.attrs.get("format_version", -1))
            if version != FORMAT_VERSION:
                raise ModelError(f"{path.name}: format_version must be {FORMAT_VERSION}, got {version}")
            names = sorted(f["channels"])
            channels = []
            for n in names:
                a = f["channels"][n].attrs
                channels.append(Channel(_text(a["item"]), _text(a["quantity"]), _text(a["unit"]), _text(a["group"]),
                                        _text(a.get("description", ""))))
            bodies = [_text(b) for b in f["poses/body_names"][()]]
            model_text = _text(f.attrs.get("model", ""))
            res = Results(channels, bodies, json.loads(model_text) if model_text else None,
                          json.loads(_text(f.attrs.get("settings", "{}"))))
            time = f["time"][()]
            data = np.column_stack([f["channels"][n][()] for n in names]) if names else np.zeros((len(time), 0))
            res.append(time, data, f["poses/position"][()], f["poses/orientation"][()])
            res.status, res.message = _text(f.attrs["status"]), _text(f.attrs["message"])
            res.steps, res.evaluations = int(f.attrs["steps"]), int(f.attrs["evaluations"])
            res.findings = list(json.loads(_text(f.attrs.get("findings", "[]"))))
            ev = f["events"]
            res.events = [(float(t), _text(n), _text(d))
                          for t, n, d in zip(ev["time"][()], ev["name"][()], ev["detail"][()])]
    except ModelError:
        raise
    except (OSError, KeyError, ValueError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path.name}: cannot be read as a results file ({exc})") from None
    res.source = str(path)
    return res
