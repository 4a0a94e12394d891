"""A gear train's lumped model (core.chbm.train_model) built from a GearDyn model.

Every gear pair of the model takes part (its compliant mesh, or the compliant mesh's defaults); the bodies
are the gears, the pairs' carriers and whatever they sit on down to the ground. A body sits on a bearing
spring-damper (its centre moves, two coordinates), on a revolute joint (its centre moves with the joint's
other body) or is welded by a fixed joint to the ground. Bodies welded to one another (a compound shaft and the
gear on it, named in its pair's gear1/gear2 or on a joint of its own on the same axis) are one body of the
train, their inertias summed, each mesh on its own gear's base radius. A speed motor holds a joint's rotation,
a torsional spring-damper resists it, a spring-damper between two bodies acts along its line. Torques enter at
their mean over the model's run (0 to t_end).

The train moves in its planes: a bearing gives its radial spring-damper; its axial and tilt ones, and a helical
pair's axial tooth force on a gear that rides on a bearing, are left out, and the notes say so.

Each body turns about the axis of its group: the bodies whose axes are parallel (a bevel pair turns the train
through a right angle into a second group), each group in its own plane. A bevel pair's gears turn on fixed
centres (joints to the ground): its mesh couples the two groups' rotations, on the mean cone's levers
(core.gearing.mesh_model.mesh_levers), and no translation.

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
from core.gearing.gear_bodies import axial_inertia, mesh_centre, on_one_line
from core.gearing.mesh_model import mesh_levers, mesh_model_for
from core.gearing.mesh_phase import mesh_phase, rides_on
from core.gearing.pitch_point import PairGeometryData, contact_frame
from core.geometry.rotations import quat_matrix
from core.model.entities import (
    GROUND,
    BearingSpringDamper,
    CompliantMesh,
    FixedJoint,
    GearPair,
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
        Naming the item, if the model does not validate, has no gear pair, a cylindrical pair whose axes are not
        parallel, a bevel pair whose gears do not turn on joints to the ground, a body on a body whose axis is not
        parallel to its own, or a body both on a joint and on a bearing.
    """
    errors = validate(model, errors_only=True)
    if errors:
        raise ModelError("model", str(errors[0]))
    if not model.gear_pairs:
        raise ModelError("model", "has no gear pair: the train is made of its gear pairs")
    seats, host = _pieces(model)

    def gear_of(pair, k: int) -> str:
        """The train's body that carries gear k of `pair` (a compound shaft for a gear welded to it)."""
        return host[model.gear_body(pair, k)]

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

    frames = _frames(model, names, seats, host)
    _check_axes(model, frames, seats, host, gear_of)
    centres = {b: tuple(float(v) for v in frames[b][:2] @ np.asarray(seats[b][2], float)) for b in names}

    def turning(joint: str) -> tuple[str, float]:
        """The train's body that turns on `joint`, and +1 or -1: the joint's axis along the body's or against."""
        j = model.joints[joint]
        b = host[j.body_j]
        return b, (1.0 if float(j.unit_axis() @ frames[b][2]) > 0 else -1.0)

    base_radius = {}  # a body's rotation coordinate is scaled by the lever of its first gear
    for p in model.gear_pairs.values():
        levers = mesh_levers(p)
        base_radius.setdefault(gear_of(p, 1), levers[0])
        base_radius.setdefault(gear_of(p, 2), levers[1])
    # a planet rides on a carrier, and so does the hub (pin) it turns in
    planets = {b for b in names if b not in carriers and any(rides_on(model, b, c) for c in carriers)}

    t_end = model.settings.t_end
    times = np.linspace(0.0, t_end, MEAN_SAMPLES) if t_end > 0 else np.zeros(1)
    torque = dict.fromkeys(names, 0.0)
    held, torsion, notes, spring_items = {}, {}, [], []  # held: a motor's body and its mean speed [rad/s]
    for f in model.forces.values():
        on = host.get(model.joints[f.joint].body_j) if isinstance(f, (Torque, SpeedMotor)) else None
        if on is not None and on not in names:
            notes.append(f"{f.name}: acts on {on!r}, which is not part of the train (left out)")
        elif isinstance(f, Torque):  # about its joint's axis
            b, sign = turning(f.joint)
            torque[b] = torque.get(b, 0.0) + sign * float(np.mean([f.law(t) for t in times]))
        elif isinstance(f, SpeedMotor):
            b, sign = turning(f.joint)
            held[b] = sign * float(np.mean([f.law(t) for t in times]))
        elif isinstance(f, TorsionalSpringDamper):
            torsion[host[model.joints[f.joint].body_j]] = (f.stiffness, f.damping)
        elif isinstance(f, SpringDamper) and ({host.get(f.body_i, GROUND), host.get(f.body_j, GROUND)} - {GROUND}
                                              <= set(names)):
            ends = [host[b] for b in (f.body_i, f.body_j) if b != GROUND]
            if len(ends) == 2 and frames[ends[0]] is not frames[ends[1]]:
                raise ModelError(f.name, "joins bodies that turn about axes that are not parallel: the lumped "
                                 "train's springs act in one group's plane")
            spring_items.append(f)
        elif not isinstance(f, (CompliantMesh, BearingSpringDamper)):
            notes.append(f"{f.name}: a {type(f).__name__} is not part of the lumped train (left out)")

    bodies = []
    for b in names:
        kind, parent, at, item = seats[b]
        members = [model.bodies[m] for m, h in host.items() if h == b]  # a compound shaft: its gears as one
        mass, inertia = sum(m.mass for m in members), sum(axial_inertia(m, at, frames[b][2]) for m in members)
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
    notes += _planar_notes(model, names, seats, host, gear_of)
    # a central member meshes with a planet without riding on the carrier (sun, ring)
    central = {b for p in model.gear_pairs.values() for b, mate in
               ((gear_of(p, 1), gear_of(p, 2)), (gear_of(p, 2), gear_of(p, 1))) if b not in planets and mate in planets}
    bodies = [dataclasses.replace(b, role="central") if b.name in central else b for b in bodies]

    meshes, defaulted, turns = [], [], {}
    for p in model.gear_pairs.values():
        mesh, own = pair_mesh(model, p)
        if not own:
            defaulted.append(p.name)
        g1, g2 = gear_of(p, 1), gear_of(p, 2)
        i1 = next(b.inertia for b in bodies if b.name == g1)
        i2 = next(b.inertia for b in bodies if b.name == g2)
        law = mesh_model_for(p, mesh, i1, i2)
        phase = mesh_phase(model, p)  # as the multibody compliant mesh phases it
        ref = model.joints[phase.joint]
        reference, turns[p.name] = turning(phase.joint)  # the phase runs with the joint's angle
        sign = _bevel_sign(model, p, frames[g1][2], frames[g2][2]) if p.kind == "bevel" else None
        meshes.append(TrainMesh(p.name, g1, g2, p.kind, *mesh_levers(p), law.pressure_angle, law,
                                phase=phase.phase0, reference=reference, teeth=phase.teeth,
                                carrier="" if ref.body_i == GROUND else host[ref.body_i], spin_sign=sign))
    if defaulted:  # one note for them all: a planetary set lists six pairs
        notes.append(f"{', '.join(defaulted)}: no compliant mesh; the compliant mesh's defaults (ISO 6336, involute) "
                     "are used")

    def plane(f, body: str, point) -> tuple[float, float]:
        """A spring's point in its bodies' plane (they are of one group)."""
        frame = frames[next((host[b] for b in (f.body_i, f.body_j) if b != GROUND), names[0])]
        return tuple(float(v) for v in frame[:2] @ _world(model, body, point))

    springs = tuple(TrainSpring(f.name, "" if f.body_i == GROUND else f.body_i, plane(f, f.body_i, f.point_i),
                                "" if f.body_j == GROUND else f.body_j, plane(f, f.body_j, f.point_j),
                                f.stiffness, f.damping) for f in spring_items)
    train = build_train(bodies, meshes, springs=springs)
    orders = train.common_orders() or {}
    axes = {b: frames[b][2] for b in names}
    phased = [dataclasses.replace(_rolling(model, train, m, held, axes, turns[m.name]), order=orders.get(m.name, 1))
              for m in meshes]
    every_back = len(phased) > 1 and all(m.rolling < 0 for m in phased)  # said once, not once a mesh
    back = "" if every_back else " (its reference gear turns backwards as the train rolls)"
    notes.append("mesh phases from the gears' teeth, in mesh periods (0: a tooth of the reference gear on the line "
                 "to the pitch point): " + ", ".join(f"{m.name} {m.phase:.4f}{'' if m.rolling > 0 else back}"
                                                     for m in phased)
                 + ("; every mesh's reference gear turns backwards as the train rolls" if every_back else ""))
    if any(k != 1 for k in orders.values()):
        notes.append("the meshes run at different frequencies: the train's period holds "
                     + ", ".join(f"{k} mesh periods of {name}" for name, k in orders.items())
                     + " (its harmonics are of that period)")
    named = description or f"{model.name}: {len(meshes)} mesh{'es' if len(meshes) != 1 else ''}"
    train = build_train(bodies, phased, named, tuple(notes), springs)
    train.frames = frames
    return train


def pair_mesh(model: Model, pair: GearPair, stiffness: bool = True) -> tuple[CompliantMesh, bool]:
    """The Compliant Mesh on `pair` and True, or the defaults a pair without one meshes by and False.

    With `stiffness`, a ModelError on the pair's face width where the mesh's ISO 6336 stiffness needs it and it
    is 0, naming the two ways to mend it.
    """
    mesh = next((f for f in model.forces.values() if isinstance(f, CompliantMesh) and f.pair == pair.name), None)
    if stiffness and (mesh or CompliantMesh("mesh", pair.name)).stiffness == "iso6336" and pair.face_width <= 0:
        raise ModelError(f"{pair.name}.face_width", "is 0; the ISO 6336 mesh stiffness needs it: give the pair a face "
                         "width, or add a Compliant Mesh on it with a given stiffness")
    return (mesh, True) if mesh is not None else (CompliantMesh("mesh", pair.name), False)


def _planar_notes(model: Model, names: list[str], seats: dict, host: dict[str, str], gear_of) -> list[str]:
    """What the planar lumped train leaves out of the model's bearings: their axial and tilt spring-dampers, a
    bearing that seats none of its bodies, and a helical pair's axial tooth force where a gear of it rides on a
    bearing (on joints alone the ground takes that force, and nothing is left out)."""
    notes = []
    used = {seats[b][3].name for b in names if seats[b][0] == "bearing"}
    for f in model.forces.values():
        if isinstance(f, BearingSpringDamper) and f.name not in used:
            notes.append(f"{f.name}: seats no body of the train (left out)")
    springs = [n for n in used if any((model.forces[n].axial_stiffness, model.forces[n].axial_damping,
                                       model.forces[n].tilt_stiffness, model.forces[n].tilt_damping))]
    if springs:
        its = "its" if len(springs) == 1 else "their"
        notes.append(f"{', '.join(sorted(springs))}: {its} axial and tilt spring-dampers are left out: the lumped "
                     f"train moves in its plane ({its} radial {'one is' if len(springs) == 1 else 'ones are'} in)")

    def bearing_under(body: str) -> str:
        """The first bearing down from `body` to the ground, '' where it sits on joints alone."""
        while body in seats:
            kind, parent, _, item = seats[body]
            if kind == "bearing":
                return item.name
            body = host.get(parent, GROUND)
        return ""

    for p in model.gear_pairs.values():
        riding = [g for g in (gear_of(p, 1), gear_of(p, 2)) if bearing_under(g)]
        if p.kind != "bevel" and p.helix_angle != 0.0 and riding:
            notes.append(f"{p.name}: a helical pair ({math.degrees(p.helix_angle):.4g} deg) with {' and '.join(riding)} "
                         "on a bearing: its axial tooth force Fa, and the axial and tilt motion it gives the bearing, "
                         "are left out (the multibody run has them)")
    return notes


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


def _rolling_sign(model: Model, train: TrainModel, speeds: dict[str, float], held: dict[str, float],
                  axes: dict[str, np.ndarray]) -> float:
    """+1 or -1: the direction of the train's rolling `speeds` that the model runs in: its speed motors' (`held`:
    body, mean speed [rad/s]; they hold it whatever its initial spins), else its initial spins, else the one its
    torques drive, else the one that turns the first body forward."""
    spin = sum(b.inertia * speeds[b.name] * float(np.dot(model.bodies[b.name].angular_velocity, axes[b.name]))
               for b in train.bodies)
    driven = sum(speeds[b] * w for b, w in held.items())
    work = sum(b.torque * speeds[b.name] for b in train.bodies)
    for value in (driven, spin, work, speeds[train.bodies[0].name]):
        if abs(value) > 1e-12 * max(1.0, abs(value)):
            return 1.0 if value > 0 else -1.0
    return 1.0


def _rolling(model: Model, train: TrainModel, mesh: TrainMesh, held: dict[str, float], axes: dict[str, np.ndarray],
             turn: float) -> TrainMesh:
    """The mesh with the direction its phase runs as the train rolls (its reference gear's turn on its seat about
    its joint's axis, which is `turn` (+1 or -1) times its body's axis), in its rigid rolling or, where speed
    motors hold it, its kinematic rolling; as it is where the train rolls in more ways than one."""
    try:
        speeds = train.rolling_speeds()
    except ModelError:
        return mesh
    sign = _rolling_sign(model, train, speeds, held, axes)
    rate = sign * turn * (speeds[mesh.reference] - speeds.get(mesh.carrier, 0.0))
    return dataclasses.replace(mesh, rolling=-1.0 if rate < 0 else 1.0)


def _frames(model: Model, names: list[str], seats: dict, host: dict[str, str]) -> dict[str, np.ndarray]:
    """Each body's frame (3, 3): rows e1, e2 of its group's plane and the group's axis (world). A group holds the
    bodies whose seats' axes are parallel, its axis the first one's (the first pair's gear 1 first); a body welded
    to the ground takes the group of what it carries."""
    first = model.joints[next(iter(model.gear_pairs.values())).joint1].unit_axis()
    groups = [_frame(first)]
    frames = {}
    for b in names:
        kind, _, _, item = seats[b]
        if kind == "fixed":
            continue
        axis = np.asarray(item.axis, float) / np.linalg.norm(item.axis)
        found = next((g for g in groups if abs(abs(float(axis @ g[2])) - 1.0) < 1e-9), None)
        if found is None:
            found = _frame(axis)
            groups.append(found)
        frames[b] = found
    for b in names:
        frames.setdefault(b, frames.get(host.get(seats[b][1], GROUND), groups[0]))
    return frames


def _frame(axis: np.ndarray) -> np.ndarray:
    """Rows e1, e2, axis: a right-handed frame whose plane is normal to the unit `axis`."""
    e1 = np.cross(axis, [0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.cross([0.0, 1.0, 0.0], axis)
    e1 = np.array([1.0, 0.0, 0.0]) if abs(axis[2]) > 0.999999 else e1 / np.linalg.norm(e1)
    return np.array([e1, np.cross(axis, e1), axis])


def _check_axes(model: Model, frames: dict[str, np.ndarray], seats: dict, host: dict[str, str], gear_of) -> None:
    """ModelError naming the item where the groups of axes do not make a train the lumped model holds: a body on
    a body of another group, a cylindrical pair across groups, a bevel pair whose gears do not turn on fixed
    centres."""
    for b, (kind, parent, _, item) in seats.items():
        parent = host.get(parent, GROUND)
        if b in frames and parent in frames and frames[parent] is not frames[b]:
            raise ModelError(item.name, f"seats {b!r} on {parent!r}, whose axis is not parallel to its own: the "
                             "lumped train's bodies sit on bodies of their own group")
    for p in model.gear_pairs.values():
        g1, g2 = gear_of(p, 1), gear_of(p, 2)
        if p.kind != "bevel":
            if frames[g1] is not frames[g2]:
                raise ModelError(p.joint2, f"is not parallel to {p.joint1}: a {p.kind} pair's gears turn about "
                                 "parallel axes")
            continue
        for g in (g1, g2):
            kind, parent, _, _ = seats[g]
            if kind == "bearing" or host.get(parent, GROUND) != GROUND:
                raise ModelError(p.name, f"is a bevel pair whose gear {g!r} turns on "
                                 f"{'a bearing' if kind == 'bearing' else repr(host[parent])}: the lumped train "
                                 "takes a bevel pair on fixed centres (joints to the ground), as its translations "
                                 "are planar")


def _bevel_sign(model: Model, pair, axis_1: np.ndarray, axis_2: np.ndarray) -> float:
    """+1 where positive turns of both gears about their bodies' axes (`axis_1`, `axis_2`) move their teeth at
    the pitch point against each other (an external pair's sense), -1 where with each other."""
    c1, c2 = mesh_centre(model, pair, 1), mesh_centre(model, pair, 2)
    frame = contact_frame(PairGeometryData.of(pair), c1, model.joints[pair.joint1].unit_axis(), c2,
                          model.joints[pair.joint2].unit_axis())
    t1, t2 = np.cross(axis_1, frame.point - c1), np.cross(axis_2, frame.point - c2)
    return -1.0 if float(t1 @ t2) > 0 else 1.0
