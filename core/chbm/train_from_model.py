"""A gear train's lumped model (core.chbm.train_model) built from a GearDyn model.

Every gear pair of the model takes part (its compliant mesh, or the compliant mesh's defaults); the bodies
are the gears, the pairs' carriers and whatever they sit on down to the ground. A body sits on a bearing
spring-damper (its centre moves, two coordinates), on a revolute joint (its centre moves with the joint's
other body) or is welded by a fixed joint to the ground. Bodies welded to one another (a compound shaft and the
gear on it, named in its pair's gear1/gear2 or on a joint of its own on the same axis) are one body of the
train, their inertias summed, each mesh on its own gear's base radius. A speed motor holds a joint's rotation,
a torsional spring-damper resists it, a spring-damper between two bodies acts along its line. Torques enter at
their mean over the model's run (0 to t_end).

Each mesh's phase comes from the geometry: the teeth of its reference gear (the one turning on the pair's
carrier) relative to the line to the pitch point, with the sign that makes every mesh's phase advance as the
train rolls. For equally spaced planets this gives Parker's planet phasing (sun-planet mesh n at z_s psi_n /
2 pi of a period from mesh 1); phase 0 of a waveform is a tooth of the reference gear on that line.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from core.chbm.train_model import (
    TrainBody,
    TrainMesh,
    TrainModel,
    TrainSpring,
    build_train,
)
from core.errors import ModelError
from core.gearing.gear_bodies import axial_inertia, on_one_line
from core.gearing.mesh_model import mesh_model_for
from core.gearing.mesh_phase import mesh_phase, rides_on
from core.geometry.macro import pair_geometry
from core.geometry.rotations import quat_matrix
from core.model.entities import (
    GROUND,
    BearingSpringDamper,
    CompliantMesh,
    FixedJoint,
    RevoluteJoint,
    SpeedMotor,
    SpringDamper,
    Torque,
    TorsionalSpringDamper,
)
from core.model.model import Model
from core.validation import validate

MEAN_SAMPLES = 2001  # samples of a torque's law over the run for its mean


def train_from_model(model: Model, description: str = "") -> TrainModel:
    """The lumped model of all the model's gear pairs (see the module docstring).

    Raises
    ------
    ModelError
        Naming the item, if the model does not validate, has no gear pair, has a bevel pair, axes that are not
        parallel, or a body both on a joint and on a bearing.
    """
    errors = validate(model, errors_only=True)
    if errors:
        raise ModelError("model", str(errors[0]))
    if not model.gear_pairs:
        raise ModelError("model", "has no gear pair: the train is made of its gear pairs")
    for p in model.gear_pairs.values():
        if p.kind == "bevel":
            raise ModelError(p.name, "is a bevel pair; the lumped train takes parallel-axis pairs")
    axis = model.joints[next(iter(model.gear_pairs.values())).joint1].unit_axis()
    e1 = np.cross(axis, [0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.cross([0.0, 1.0, 0.0], axis)
    e1 = np.array([1.0, 0.0, 0.0]) if abs(axis[2]) > 0.999999 else e1 / np.linalg.norm(e1)
    e2 = np.cross(axis, e1)

    def plane(p) -> tuple[float, float]:
        p = np.asarray(p, float)
        return float(p @ e1), float(p @ e2)

    seats, host = _pieces(model)

    def gear_of(pair, k: int) -> str:
        """The train's body that carries gear k of `pair` (a compound shaft for a gear welded to it)."""
        return host[model.gear_body(pair, k)]

    for j in {j for p in model.gear_pairs.values() for j in (p.joint1, p.joint2)}:
        if abs(abs(float(model.joints[j].unit_axis() @ axis)) - 1.0) > 1e-9:
            raise ModelError(j, "is not parallel to the other gears' axes; the lumped train is planar")

    gears = {gear_of(p, k) for p in model.gear_pairs.values() for k in (1, 2)}
    carriers = {host[p.carrier] for p in model.gear_pairs.values() if p.carrier != GROUND}
    names, todo = [], [b for b in reversed(model.bodies) if b in gears | carriers]  # model order, not a set's
    while todo:
        b = todo.pop()
        if b == GROUND or b in names:
            continue
        if b not in seats:
            raise ModelError(b, "sits on no joint or bearing: the train's bodies must be held to the ground")
        names.append(b)
        todo.append(host.get(seats[b][1], GROUND))

    base_radius = {}  # a body's rotation coordinate is scaled by the base radius of its first gear
    for p in model.gear_pairs.values():
        geo = pair_geometry(p.pair_spec())
        base_radius.setdefault(gear_of(p, 1), geo.base_radius_1)
        base_radius.setdefault(gear_of(p, 2), geo.base_radius_2)
    centres = {b: plane(seats[b][2]) for b in names}
    # a planet rides on a carrier, and so does the hub (pin) it turns in
    planets = {b for b in names if b not in carriers and any(rides_on(model, b, c) for c in carriers)}

    t_end = model.settings.t_end
    times = np.linspace(0.0, t_end, MEAN_SAMPLES) if t_end > 0 else np.zeros(1)
    torque = dict.fromkeys(names, 0.0)
    held, torsion, notes, spring_items = {}, {}, [], []  # held: a motor's body and its mean speed [rad/s]
    for f in model.forces.values():
        if isinstance(f, Torque):
            b = host[model.joints[f.joint].body_j]
            torque[b] = torque.get(b, 0.0) + float(np.mean([f.law(t) for t in times]))
        elif isinstance(f, SpeedMotor):
            held[host[model.joints[f.joint].body_j]] = float(np.mean([f.law(t) for t in times]))
        elif isinstance(f, TorsionalSpringDamper):
            torsion[host[model.joints[f.joint].body_j]] = (f.stiffness, f.damping)
        elif isinstance(f, SpringDamper) and ({host.get(f.body_i, GROUND), host.get(f.body_j, GROUND)} - {GROUND}
                                              <= set(names)):
            spring_items.append(f)
        elif not isinstance(f, (CompliantMesh, BearingSpringDamper)):
            notes.append(f"{f.name}: a {type(f).__name__} is not part of the lumped train (left out)")

    bodies = []
    for b in names:
        kind, parent, at, item = seats[b]
        members = [model.bodies[m] for m, h in host.items() if h == b]  # a compound shaft: its gears as one
        mass, inertia = sum(m.mass for m in members), sum(axial_inertia(m, at, axis) for m in members)
        if b in carriers:
            role = "carrier"
            arms = [math.dist(centres[b], centres[g]) for g in planets & gears if g in centres]
            radius = max(arms) if arms else math.sqrt(inertia / mass)
        else:
            role = "planet" if b in planets else ("gear" if b in gears else "other")
            radius = base_radius.get(b) or math.sqrt(inertia / mass)
        bearing = (item.radial_stiffness, item.radial_damping) if kind == "bearing" else None
        parent = host.get(parent, GROUND)
        bodies.append(TrainBody(b, mass, inertia, radius, centres[b], role, "" if parent == GROUND else parent,
                                bearing, torsion.get(b, (0.0, 0.0)), b in held or kind == "fixed",
                                torque.get(b, 0.0) if kind != "fixed" else 0.0))
    # a central member meshes with a planet without riding on the carrier (sun, ring)
    central = {b for p in model.gear_pairs.values() for b, mate in
               ((gear_of(p, 1), gear_of(p, 2)), (gear_of(p, 2), gear_of(p, 1))) if b not in planets and mate in planets}
    bodies = [dataclasses.replace(b, role="central") if b.name in central else b for b in bodies]

    meshes, defaulted = [], []
    for p in model.gear_pairs.values():
        mesh = next((f for f in model.forces.values() if isinstance(f, CompliantMesh) and f.pair == p.name), None)
        if mesh is None:
            defaulted.append(p.name)
            mesh = CompliantMesh("mesh", p.name)
        if mesh.stiffness == "iso6336" and p.face_width <= 0:
            raise ModelError(f"{p.name}.face_width", "is 0; the ISO 6336 mesh stiffness needs it")
        g1, g2 = gear_of(p, 1), gear_of(p, 2)
        i1 = next(b.inertia for b in bodies if b.name == g1)
        i2 = next(b.inertia for b in bodies if b.name == g2)
        law = mesh_model_for(p, mesh, i1, i2)
        phase = mesh_phase(model, p)  # as the multibody compliant mesh phases it
        ref = model.joints[phase.joint]
        geo = pair_geometry(p.pair_spec())
        meshes.append(TrainMesh(p.name, g1, g2, p.kind, geo.base_radius_1, geo.base_radius_2, law.pressure_angle,
                                law, phase=phase.phase0, reference=host[ref.body_j], teeth=phase.teeth,
                                carrier="" if ref.body_i == GROUND else host[ref.body_i]))
    if defaulted:  # one note for them all: a planetary set lists six pairs
        notes.append(f"{', '.join(defaulted)}: no compliant mesh; the compliant mesh's defaults (ISO 6336, involute) "
                     "are used")
    springs = tuple(TrainSpring(f.name, "" if f.body_i == GROUND else f.body_i, plane(_world(model, f.body_i, f.point_i)),
                                "" if f.body_j == GROUND else f.body_j, plane(_world(model, f.body_j, f.point_j)),
                                f.stiffness, f.damping) for f in spring_items)
    train = build_train(bodies, meshes, springs=springs)
    orders = train.common_orders() or {}
    phased = [dataclasses.replace(_rolling(model, train, m, held), order=orders.get(m.name, 1)) for m in meshes]
    back = " (its reference gear turns backwards as the train rolls)"
    notes.append("mesh phases from the gears' teeth, in mesh periods (0: a tooth of the reference gear on the line "
                 "to the pitch point): " + ", ".join(f"{m.name} {m.phase:.4f}{'' if m.rolling > 0 else back}"
                                                     for m in phased))
    if any(k != 1 for k in orders.values()):
        notes.append("the meshes run at different frequencies: the train's period holds "
                     + ", ".join(f"{k} mesh periods of {name}" for name, k in orders.items())
                     + " (its harmonics are of that period)")
    named = description or f"{model.name}: {len(meshes)} mesh{'es' if len(meshes) != 1 else ''}"
    train = build_train(bodies, phased, named, tuple(notes), springs)
    train.axes = np.array([e1, e2, axis])
    return train


def _world(model: Model, body: str, point) -> np.ndarray:
    """A point in body axes [m] in world coordinates at the initial pose (the ground's axes are the world's)."""
    if body == GROUND:
        return np.asarray(point, float)
    b = model.bodies[body]
    return np.asarray(b.position) + quat_matrix(b.orientation) @ np.asarray(point, float)


def _pieces(model: Model) -> tuple[dict[str, tuple[str, str, tuple, object]], dict[str, str]]:
    """The seats, and each body's lumped body.

    Bodies welded together by fixed joints between two bodies (a compound shaft and the gear on it) are one
    lumped body, named by the body of its first seat (joints in the model's order, then bearings). Seats: lumped
    body -> (kind, the body it sits on, the seat's point (world) [m], the item). A member's own revolute joint on
    the same line and the same body as the first seat adds nothing to the lumped model and is passed over; any
    other second seat is an error naming it.
    """
    seats: dict[str, tuple[str, str, tuple, object]] = {}
    host: dict[str, str] = {}
    # a joint on_bearing holds nothing: the bearing beside it seats its body
    items = [(j, "revolute" if isinstance(j, RevoluteJoint) else "fixed") for j in model.joints.values()
             if (isinstance(j, RevoluteJoint) and not j.on_bearing)
             or (isinstance(j, FixedJoint) and GROUND in (j.body_i, j.body_j))]
    items += [(f, "bearing") for f in model.forces.values() if isinstance(f, BearingSpringDamper)]
    for name in model.bodies:
        if name in host:
            continue
        piece = [b for b in model.bodies if b in model.rigid_piece(name)]
        seated = [(item, kind) for item, kind in items if item.body_j in piece]
        lead = seated[0][0].body_j if seated else piece[0]
        host.update(dict.fromkeys(piece, lead))
        if not seated:
            continue
        first, kind = seated[0]
        seats[lead] = (kind, first.body_i, first.position, first)
        for item, kind in seated[1:]:
            if not _coaxial(seats[lead], kind, item):
                raise ModelError(item.name, f"seats {item.body_j!r}, which {first.name!r} already seats: a body of "
                                 "the lumped train sits on one joint or one bearing")
    return seats, host


def _coaxial(first: tuple, kind: str, item) -> bool:
    """Whether a second revolute joint of a lumped body turns about the same line on the same body as its first."""
    return kind == first[0] == "revolute" and item.body_i == first[1] and on_one_line(first[3], item)


def _rolling_sign(model: Model, train: TrainModel, speeds: dict[str, float], held: dict[str, float]) -> float:
    """+1 or -1: the direction of the train's rolling `speeds` that the model runs in: its speed motors' (`held`:
    body, mean speed [rad/s]; they hold it whatever its initial spins), else its initial spins, else the one its
    torques drive, else the one that turns the first body forward."""
    spin = sum(b.inertia * speeds[b.name] * float(np.dot(model.bodies[b.name].angular_velocity, _axis(model)))
               for b in train.bodies)
    driven = sum(speeds[b] * w for b, w in held.items())
    work = sum(b.torque * speeds[b.name] for b in train.bodies)
    for value in (driven, spin, work, speeds[train.bodies[0].name]):
        if abs(value) > 1e-12 * max(1.0, abs(value)):
            return 1.0 if value > 0 else -1.0
    return 1.0


def _axis(model: Model) -> np.ndarray:
    return model.joints[next(iter(model.gear_pairs.values())).joint1].unit_axis()


def _rolling(model: Model, train: TrainModel, mesh: TrainMesh, held: dict[str, float]) -> TrainMesh:
    """The mesh with the direction its phase runs as the train rolls (its reference gear's turn on its seat), in
    its rigid rolling or, where speed motors hold it, its kinematic rolling; as it is where the train rolls in more
    ways than one."""
    try:
        speeds = train.rolling_speeds()
    except ModelError:
        return mesh
    sign = _rolling_sign(model, train, speeds, held)
    rate = sign * (speeds[mesh.reference] - speeds.get(mesh.carrier, 0.0))
    return dataclasses.replace(mesh, rolling=-1.0 if rate < 0 else 1.0)
