"""Simulation results that describe themselves: channels with units, body poses, the model and settings that made them.

A `Results` grows sample by sample while a run goes on (a run in the GUI hands
it chunks) and keeps what was computed when a run fails or is cancelled. It
holds

- the output times [s] and one column per `Channel` (name parts and unit);
- the pose of every body at every sample (position of the body frame's origin
  [m] and unit quaternion, body to world), so an animation needs no kinematics;
- the model snapshot (the data of a .gdyn file) and the effective settings;
- status, message, findings, counters and events.

core.dynamics.results.results_file saves and opens them (HDF5); `to_csv` writes the
channels with a ``name [unit]`` header.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.results.channels import Channel
from core.tables import write_csv

class Results:
    """Channels and poses sampled at `time`.

    Attributes
    ----------
    channels : list of Channel
    bodies : list of str
        Body names, the order of the pose arrays.
    time : ndarray (k,) [s]
    data : ndarray (k, channels)
    positions : ndarray (k, bodies, 3) [m]
    orientations : ndarray (k, bodies, 4)
        Unit quaternions (w, x, y, z), signs chosen so consecutive samples are
        on the same hemisphere (ready for interpolation).
    model : dict or None
        The model snapshot as .gdyn data (SI). Given as a function, it is called when first asked for (a run
        hands its model over without encoding it).
    settings : dict
        The effective settings of the run (after defaults and overrides).
    status : {'running', 'finished', 'failed', 'cancelled'}
    message : str
        Why a run stopped early and at what time; empty when it finished.
    findings : list of str
        Remarks made while setting up (initial speeds projected, static equilibrium, ...).
    events : list of (t [s], name, detail)
    steps, evaluations : int
    """

    def __init__(self, channels, bodies=(), model=None, settings: dict | None = None):
        self.channels: list[Channel] = list(channels)
        self.bodies: list[str] = list(bodies)
        self._model = model
        self.settings = dict(settings or {})
        self.status = "running"
        self.message = ""
        self.findings: list[str] = []
        self.events: list[tuple[float, str, str]] = []
        self.steps = 0
        self.evaluations = 0
        self.source = ""  # the file it was opened from, if any
        self._n = 0
        self._alloc(16)
        self._lookup: dict[str, int] | None = None

    @property
    def model(self) -> dict | None:
        if callable(self._model):
            self._model = self._model()
        return self._model

    @model.setter
    def model(self, value) -> None:
        self._model = value

    # ------------------------------------------------------------------ storage

    def _alloc(self, capacity: int) -> None:
        c, b = len(self.channels), len(self.bodies)
        old = (getattr(self, "_time", None), getattr(self, "_data", None), getattr(self, "_pos", None),
               getattr(self, "_quat", None))
        self._time = np.empty(capacity)
        self._data = np.empty((capacity, c))
        self._pos = np.empty((capacity, b, 3))
        self._quat = np.empty((capacity, b, 4))
        if old[0] is not None:
            n = self._n
            self._time[:n], self._data[:n], self._pos[:n], self._quat[:n] = (a[:n] for a in old)

    def append(self, time, data, positions=None, orientations=None) -> None:
        """Add samples: time (m,), data (m, channels), positions (m, bodies, 3), orientations (m, bodies, 4)."""
        time = np.atleast_1d(np.asarray(time, float))
        m = len(time)
        if not m:
            return
        data = np.asarray(data, float).reshape(m, len(self.channels))
        b = len(self.bodies)
        positions = np.zeros((m, b, 3)) if positions is None else np.asarray(positions, float).reshape(m, b, 3)
        quats = (np.tile([1.0, 0.0, 0.0, 0.0], (m, b, 1)) if orientations is None
                 else np.array(orientations, float).reshape(m, b, 4))
        if b:  # keep consecutive quaternions on one hemisphere so interpolation takes the short way
            prev = self._quat[self._n - 1] if self._n else quats[0]
            # each sample's sign against the one before it as given, times that one's: a running product
            dots = np.sum(quats * np.concatenate([prev[None], quats[:-1]]), axis=2)
            quats *= np.cumprod(np.where(dots < 0, -1.0, 1.0), axis=0)[..., None]
        need = self._n + m
        if need > len(self._time):
            self._alloc(max(need, 2 * len(self._time)))
        sl = slice(self._n, need)
        self._time[sl], self._data[sl], self._pos[sl], self._quat[sl] = time, data, positions, quats
        self._n = need

    @property
    def nbytes(self) -> int:
        """The memory its samples take [bytes]: times, channels and poses, with the room kept for samples to come."""
        return self._time.nbytes + self._data.nbytes + self._pos.nbytes + self._quat.nbytes

    def compact(self) -> None:
        """Give back the room kept for samples to come (up to as much again as there are: it doubles as they
        come), for results that grow no more."""
        if len(self._time) > self._n:
            self._alloc(self._n)

    def extend(self, other: "Results") -> None:
        """Append every sample of `other` (same channels and bodies)."""
        self.append(other.time, other.data, other.positions, other.orientations)

    @property
    def time(self) -> np.ndarray:
        return self._time[:self._n]

    @property
    def data(self) -> np.ndarray:
        return self._data[:self._n]

    @property
    def positions(self) -> np.ndarray:
        return self._pos[:self._n]

    @property
    def orientations(self) -> np.ndarray:
        return self._quat[:self._n]

    def __len__(self) -> int:
        return self._n

    @property
    def names(self) -> list[str]:
        """Channel labels ``name [unit]``, in column order."""
        return [c.label for c in self.channels]

    # ------------------------------------------------------------------ look-up

    def index(self, key: str) -> int:
        """Column of a channel given by its label (``sun.wz [rad/s]``) or its name (``sun.wz``)."""
        if self._lookup is None:
            self._lookup = {}
            for k, c in enumerate(self.channels):
                self._lookup.setdefault(c.label, k)
                self._lookup.setdefault(c.name, k)
        try:
            return self._lookup[key]
        except KeyError:
            raise KeyError(f"no channel {key!r}") from None

    def __getitem__(self, key: str) -> np.ndarray:
        return self.data[:, self.index(key)]

    def channel(self, name: str) -> np.ndarray:
        """The values of the channel called `name` (with or without its unit)."""
        return self[name]

    def record(self, key: str) -> Channel:
        return self.channels[self.index(key)]

    def add_channel(self, channel: Channel, values) -> int:
        """Add a column (a derived channel) over every sample; returns its index."""
        values = np.asarray(values, float)
        if values.shape != (self._n,):
            raise ValueError(f"{channel.label}: needs {self._n} values, got {values.shape}")
        if channel.label in self.names:
            raise ValueError(f"{channel.label}: a channel of that name exists")
        self.channels.append(channel)
        self._data = np.column_stack([self.data, values])
        self._time, self._pos, self._quat = self.time.copy(), self.positions.copy(), self.orientations.copy()
        self._lookup = None
        return len(self.channels) - 1

    def sample_at(self, t: float) -> int:
        """Index of the last sample at or before t."""
        return int(np.clip(np.searchsorted(self.time, t, side="right") - 1, 0, max(self._n - 1, 0)))

    def pose_at(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Body origins (bodies, 3) [m] and unit quaternions (bodies, 4) at time t [s].

        Linear in position and normalised-linear in the quaternion between the
        two samples around t; held at the ends.
        """
        if not self._n:
            raise ValueError("no samples yet")
        time = self.time
        k = self.sample_at(t)
        if k >= self._n - 1 or t <= time[k]:
            return self.positions[k].copy(), self.orientations[k].copy()
        s = (t - time[k]) / (time[k + 1] - time[k])
        pos = (1 - s) * self.positions[k] + s * self.positions[k + 1]
        q = (1 - s) * self.orientations[k] + s * self.orientations[k + 1]
        return pos, q / np.linalg.norm(q, axis=1, keepdims=True)

    # ------------------------------------------------------------------ export

    def to_csv(self, path, columns=None, t_min: float | None = None, t_max: float | None = None) -> None:
        """CSV: a header row of ``name [unit]``, first column ``time [s]``; written atomically.

        `columns` (indices or names) picks channels (default: all); t_min and
        t_max [s] limit the rows.
        """
        cols = list(range(len(self.channels))) if columns is None else [
            c if isinstance(c, (int, np.integer)) else self.index(c) for c in columns]
        time = self.time
        rows = np.ones(self._n, dtype=bool)
        if t_min is not None:
            rows &= time >= t_min
        if t_max is not None:
            rows &= time <= t_max
        data = self.data[rows][:, cols]
        write_csv(path, ["time [s]", *(self.channels[c].label for c in cols)],
                  ([float(t), *(float(v) for v in row)] for t, row in zip(time[rows], data)))

    def summary(self) -> str:
        """One line: status, samples, time span and the message."""
        span = f"t = {self.time[-1]:.6g} s" if self._n else "no samples"
        text = f"{self.status}: {self._n} samples of {len(self.channels)} channels to {span}"
        return text + (f" ({self.message})" if self.message else "")
