"""Build model items from engineering inputs: gear bodies, primitives, planetary sets.

The GUI's gear tools, the planetary wizard, the CLI and the example models all
go through these functions, so a gear made by any of them has the same mass
properties and the same place in the model.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from core.geometry.macro import GearSpec, bevel_geometry, cylindrical_geometry, mate_pitch_angle, pair_gear_spec
from core.geometry.mass_properties import mesh_mass_properties
from core.geometry.rotations import orientation_for_axis, quat_matrices
from core.geometry.shapes import primitive_mass_properties
from core.geometry.tooth_checks import tooth_warnings
from core.model.body_shapes import source_mesh
from core.model.entities import (
    GROUND,
    CompliantMesh,
    FixedJoint,
    GearPair,
    GearSource,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
    SpeedMotor,
    TimeLaw,
    Torque,
    Vec3,
)
from core.errors import ModelError
from core.model.interference import reach


def body_from_source(name: str, source, position: Vec3 = (0.0, 0.0, 0.0), axis=(0.0, 0.0, 1.0),
                     spin: float = 0.0, angular_velocity: Vec3 = (0.0, 0.0, 0.0)) -> RigidBody:
    """A rigid body whose mass properties come from its generated mesh.

    Parameters
    ----------
    source : GearSource or PrimitiveSource
    position : Vec3
        World position of the body frame's origin [m] (the gear's centre).
    axis : Vec3
        World direction of the body's z axis (the gear axis).
    spin : float
        Rotation about that axis [rad], e.g. to put teeth in mesh.
    """
    mp = source_mass_properties(source)
    return RigidBody(
        name=name, mass=mp.mass, com=mp.com, inertia=mp.inertia, position=tuple(map(float, position)),
        orientation=orientation_for_axis(axis, spin), angular_velocity=tuple(map(float, angular_velocity)),
        visual=source,
    )


def source_mass_properties(source):
    """Mass properties of a body's source in body axes: a primitive's closed form, a gear's or a file's from its
    mesh."""
    if isinstance(source, PrimitiveSource):
        return primitive_mass_properties(source.shape, source.radius, source.length, source.size, source.density)
    density = source.spec.density if isinstance(source, GearSource) else source.density
    return mesh_mass_properties(source_mesh(source), density)


def gear_body(name: str, spec: GearSpec, position: Vec3 = (0.0, 0.0, 0.0), axis=(0.0, 0.0, 1.0),
              spin: float = 0.0, angular_velocity: Vec3 = (0.0, 0.0, 0.0)) -> RigidBody:
    """A generated gear as a rigid body; raises ModelError naming a bad parameter."""
    problems = spec.problems()
    if problems:
        raise ModelError(*problems[0])
    return body_from_source(name, GearSource(spec), position, axis, spin, angular_velocity)


def regenerated(body: RigidBody, spec: GearSpec) -> RigidBody:
    """`body` generated again from a changed macro-geometry: new mesh, so new mass, centre of mass and inertia;
    the pose, speeds and frames are kept. Raises ModelError naming a bad parameter."""
    problems = spec.problems()
    if problems:
        raise ModelError(*problems[0])
    source = GearSource(spec)
    mp = source_mass_properties(source)
    return dataclasses.replace(body, mass=mp.mass, com=mp.com, inertia=mp.inertia, visual=source)


def mesh_phase(z: int, toward: float) -> float:
    """Spin [rad] that puts a tooth space of a z-tooth gear facing direction `toward` [rad].

    Generated gears have a tooth centred on their body x axis.
    """
    return toward - math.pi / z


def carrier_arm(module: float, sun_teeth: int, planet_teeth: int) -> float:
    """The centre distance of sun and planet, the carrier's arm [m]: m_t (z_s + z_p) / 2 (no profile shift)."""
    return module * (sun_teeth + planet_teeth) / 2


def planet_spacing(sun_teeth: int, planet_teeth: int, planets: int, module: float, pressure_angle: float,
                   helix_angle: float = 0.0) -> tuple[float, float]:
    """How far apart neighbouring planets' centres are, 2 a sin(pi / N) [m] (inf for one planet), and a planet's
    tip diameter d_a [m]: they touch where the first is not larger. `module` is the transverse module [m]."""
    tip = 2 * cylindrical_geometry(GearSpec("helical", module, planet_teeth, pressure_angle, 0.01,
                                            helix_angle=helix_angle)).tip_radius
    arm = carrier_arm(module, sun_teeth, planet_teeth)
    return (2 * arm * math.sin(math.pi / planets) if planets > 1 else math.inf), tip


def planetary_problems(sun_teeth: int, planet_teeth: int, ring_teeth: int, planets: int, module: float,
                       pressure_angle: float = math.radians(20.0), helix_angle: float = 0.0) -> list[tuple[str, str]]:
    """(field, why) for each condition of a simple planetary set with equally spaced planets that fails: coaxial
    (z_r = z_s + 2 z_p), assembly ((z_s + z_r) / N whole) and neighbours (the planets' tip circles clear each
    other: 2 a sin(pi / N) > d_a of a planet). `module` is the transverse module [m]."""
    found = []
    if ring_teeth != sun_teeth + 2 * planet_teeth:
        found.append(("ring_teeth", f"must be z_s + 2 z_p = {sun_teeth + 2 * planet_teeth} so the planets sit between "
                                    f"sun and ring, got {ring_teeth}"))
    if planets < 1 or (sun_teeth + ring_teeth) % planets:
        found.append(("planets", "(z_s + z_r) / N must be a whole number for equally spaced planets; "
                                 f"{sun_teeth + ring_teeth} / {planets} is not"))
    elif planets > 1:
        apart, tip = planet_spacing(sun_teeth, planet_teeth, planets, module, pressure_angle, helix_angle)
        if apart <= tip:
            found.append(("planets", f"{planets} planets touch each other: their centres are 2 a sin(pi / N) = "
                                     f"{apart * 1e3:.4g} mm apart, their tip circles d_a = {tip * 1e3:.4g} mm; fewer "
                                     "planets, or a larger sun"))
    return found


def planetary_tooth_warnings(sun_teeth: int, planet_teeth: int, module: float, pressure_angle: float,
                             helix_angle: float = 0.0) -> list[str]:
    """The tooth warnings (core.geometry.tooth_checks) of a set's sun and planets, each named; the ring, an inner
    gear, is not cut by a rack."""
    return [f"{name}: {text}" for name, z in (("sun", sun_teeth), ("planet", planet_teeth))
            for text in tooth_warnings(GearSpec(module=module, teeth=z, pressure_angle=pressure_angle,
                                                helix_angle=helix_angle))]


def planetary_efficiency(sun_teeth: int, ring_teeth: int, mesh_efficiency: float) -> tuple[float, float]:
    """The efficiency of a simple planetary set with its ring held and every mesh at `mesh_efficiency` (both ways),
    (sun driving the carrier, the carrier driving the sun back): Willis's, with the stationary carrier's efficiency
    eta0 = mesh_efficiency^2 (a sun mesh and a ring mesh in series) applied the way power flows in the carrier's
    frame: (1 + eta0 z_r / z_s) / (1 + z_r / z_s) forwards, (1 + z_r / z_s) / (1 + z_r / (eta0 z_s)) back."""
    eta0, k = mesh_efficiency ** 2, ring_teeth / sun_teeth
    return (1 + eta0 * k) / (1 + k), (1 + k) / (1 + k / eta0)


def planetary_set(sun_teeth: int, planet_teeth: int, ring_teeth: int, planets: int, module: float,
                  face_width: float, pressure_angle: float = math.radians(20.0), helix_angle: float = 0.0,
                  density: float = 7850.0, efficiency: float = 1.0) -> list:
    """Bodies, joints and gear pairs of a simple planetary set on the z axis.

    The carrier turns on its own revolute joint to the ground; the planets
    turn on the carrier; sun and ring turn on the ground. Names: ``sun``,
    ``carrier``, ``planet1..N``, ``ring``; joints ``<body>_joint``; pairs
    ``sun_planetK`` and ``planetK_ring``, each with the mesh `efficiency`
    (both ways of power flow; 1: lossless).

    Raises
    ------
    ModelError
        Naming the first condition of `planetary_problems` that fails (coaxial, assembly, neighbours).
    """
    problems = planetary_problems(sun_teeth, planet_teeth, ring_teeth, planets, module, pressure_angle,
                                  helix_angle)
    if problems:
        raise ModelError(*problems[0])
    a = carrier_arm(module, sun_teeth, planet_teeth)
    common = dict(module=module, pressure_angle=pressure_angle, face_width=face_width, density=density)
    sun_spec = GearSpec(kind="helical", teeth=sun_teeth, helix_angle=helix_angle,
                        bore_diameter=0.4 * module * sun_teeth, **common)
    planet_spec = GearSpec(kind="helical", teeth=planet_teeth, helix_angle=-helix_angle,
                           bore_diameter=0.4 * module * planet_teeth, **common)
    ring_spec = GearSpec(kind="inner", teeth=ring_teeth, helix_angle=-helix_angle,
                         rim_diameter=module * (ring_teeth + 2.5) + 12 * module, **common)
    plate = 0.25 * face_width
    carrier_source = PrimitiveSource(shape="cylinder", radius=a + 0.35 * module * planet_teeth,
                                     length=plate, density=density)
    z_axis = (0.0, 0.0, 1.0)
    items: list = [
        gear_body("sun", sun_spec),
        body_from_source("carrier", carrier_source, position=(0.0, 0.0, -(face_width / 2 + plate))),
    ]
    # Keep the teeth visibly in mesh: with the sun's tooth on +x, roll each
    # planet round the fixed sun to its place (spin = phi (z_s + z_p) / z_p).
    base = mesh_phase(planet_teeth, math.pi)
    for k in range(1, planets + 1):
        phi = 2 * math.pi * (k - 1) / planets
        spin = base + phi * (sun_teeth + planet_teeth) / planet_teeth
        items.append(gear_body(f"planet{k}", planet_spec, position=(a * math.cos(phi), a * math.sin(phi), 0.0), spin=spin))
    ring_spin = 0.0 if planet_teeth % 2 == 0 else math.pi / ring_teeth
    items.append(gear_body("ring", ring_spec, spin=ring_spin))
    items += [
        RevoluteJoint("sun_joint", GROUND, "sun", (0.0, 0.0, 0.0), z_axis),
        RevoluteJoint("carrier_joint", GROUND, "carrier", (0.0, 0.0, 0.0), z_axis),
        RevoluteJoint("ring_joint", GROUND, "ring", (0.0, 0.0, 0.0), z_axis),
    ]
    pair = dict(module=module, pressure_angle=pressure_angle, face_width=face_width, carrier="carrier",
                efficiency=efficiency)
    for k in range(1, planets + 1):
        planet = items[1 + k]
        items.append(RevoluteJoint(f"planet{k}_joint", "carrier", planet.name, planet.position, z_axis))
    for k in range(1, planets + 1):
        items.append(GearPair(f"sun_planet{k}", "sun_joint", f"planet{k}_joint", kind="external",
                              z1=sun_teeth, z2=planet_teeth, helix_angle=helix_angle, **pair))
    for k in range(1, planets + 1):
        items.append(GearPair(f"planet{k}_ring", f"planet{k}_joint", "ring_joint", kind="internal",
                              z1=planet_teeth, z2=ring_teeth, helix_angle=-helix_angle, **pair))
    return items


def bored(spec: GearSpec) -> GearSpec:
    """`spec` with the bore a gear made without one gets: 0.4 of its pitch diameter, or 0.8 of the largest bore its
    teeth leave where that is less (a pinion of few teeth). Where the teeth leave none (a bevel gear's face
    wider than its cone allows), 0.4 d: its checks then name what is wrong."""
    largest = spec.largest_bore()
    return dataclasses.replace(spec, bore_diameter=min(0.4 * spec.module * spec.teeth, 0.8 * largest) if largest > 0
                               else 0.4 * spec.module * spec.teeth)


def bevel_pair_bodies(names: tuple[str, str], z1: int, z2: int, module: float, face_width: float,
                      bores: tuple[float, float] | None = None, pressure_angle: float = math.radians(20.0),
                      density: float = 7850.0) -> list[RigidBody]:
    """Two straight bevel gears on 90 deg shafts whose pitch apex is the origin.

    Gear 1 turns about +x, gear 2 about +z; gamma1 = atan(z1 / z2), gamma2 = 90 deg - gamma1. `bores` [m], or
    None for `bored`'s.
    """
    gamma1 = math.atan2(z1, z2)
    out = []
    bores = bores or (None, None)
    for name, z, gamma, bore, axis in ((names[0], z1, gamma1, bores[0], (1.0, 0.0, 0.0)),
                                       (names[1], z2, mate_pitch_angle(gamma1), bores[1], (0.0, 0.0, 1.0))):
        spec = GearSpec(kind="bevel", module=module, teeth=z, pressure_angle=pressure_angle, face_width=face_width,
                        pitch_angle=gamma, bore_diameter=0.0 if bore is None else bore, density=density)
        if bore is None:
            spec = bored(spec)
        apex = bevel_geometry(spec).apex_distance
        out.append(gear_body(name, spec, position=tuple(-apex * c for c in axis), axis=axis))
    return out


def pair_bodies(pair: GearPair, names: tuple[str, str], density: float = 7850.0) -> list[RigidBody]:
    """The two gears `pair`'s macro-geometry describes, generated, for a pair typed before its gears exist.

    Gear 1 (`pair`'s helix angle and profile shift x1) and gear 2 (the other hand; a ring the same hand, as an
    internal pair needs) both stand at the origin turning about z: core.gearing.placement.place_gear2 then moves
    gear 2 into mesh. A bevel pair is two straight bevel gears on 90 deg shafts (`bevel_pair_bodies`). Bores are
    `bored`'s and a ring's rim 12 modules outside its tip circle, as in `planetary_set`.
    """
    try:
        return _pair_bodies(pair, names, density)
    except ModelError as exc:  # said in the pair's fields: the one 'teeth' a pair's own ranges let through is a
        path, message = exc.problems[0]  # ring's (at least 12), its z2
        raise ModelError("z2" if path == "teeth" else path, message) from None


def _pair_bodies(pair: GearPair, names: tuple[str, str], density: float) -> list[RigidBody]:
    m, z1, z2 = pair.module, pair.z1, pair.z2
    if pair.kind == "bevel":
        return bevel_pair_bodies(names, z1, z2, m, pair.face_width, None, pair.pressure_angle, density)
    spec, own = pair.pair_spec(), dict(density=density)
    gear1 = bored(dataclasses.replace(pair_gear_spec("helical", z1, spec, pair.x1), **own))
    if pair.kind == "internal":  # the ring's hand is the pinion's
        gear2 = dataclasses.replace(pair_gear_spec("inner", z2, spec), rim_diameter=m * (z2 + 2.5) + 12 * m, **own)
    else:
        gear2 = bored(dataclasses.replace(pair_gear_spec("helical", z2, spec, pair.x2), helix_angle=-pair.helix_angle,
                                          **own))
    return [gear_body(names[0], gear1), gear_body(names[1], gear2)]


#: The axial clearance a new gear keeps from the bodies beside it (a stage on a shaft, a pair made in a model that
#: has bodies), as a share of its face width
AXIAL_CLEARANCE = 0.25


def above(model, bodies: list[RigidBody], gap: float) -> list[RigidBody]:
    """New `bodies` (made about the origin, not yet in `model`) moved up the z axis until they clear every body
    of `model` by `gap` [m], by the simple solids of core.model.interference; unchanged when `model` has none."""
    if not model.bodies:
        return bodies
    up = np.array([0.0, 0.0, 1.0])
    shift = reach(model.bodies.values(), up, np.zeros(3)) + gap + reach(bodies, -up, np.zeros(3))
    return [dataclasses.replace(b, position=(b.position[0], b.position[1], b.position[2] + shift)) for b in bodies]


def compliant_meshes(items) -> list[CompliantMesh]:
    """A compliant mesh (ISO 6336 stiffness, the involute waveform, 7 % damping) for each gear pair of `items`,
    named ``<pair>_mesh``."""
    return [CompliantMesh(f"{pair.name}_mesh", pair.name) for pair in items if isinstance(pair, GearPair)]


def held_joint(name: str, joint: str) -> SpeedMotor:
    """A prescribed-speed motor of 0 rad/s: holds a revolute joint still."""
    return SpeedMotor(name, joint, TimeLaw(kind="constant", value=0.0))


def constant_torque(name: str, joint: str, torque: float) -> Torque:
    """A constant torque [N m] about a revolute joint's axis."""
    return Torque(name, joint, TimeLaw(kind="constant", value=torque))


def unused_joints(model, cls: type, field: str, revolutes: list) -> list[str]:
    """The revolute joints no speed motor drives, those no item of kind `cls` acts on (by `field`) first."""
    driven = {f.joint for f in model.forces.values() if isinstance(f, SpeedMotor)}
    taken = {getattr(f, field) for f in model.forces.values() if isinstance(f, cls)}
    free = [j.name for j in revolutes if j.name not in driven]
    return [j for j in free if j not in taken] + [j for j in free if j in taken]


def pair_joint(model, pair: GearPair) -> str:
    """The joint of `pair` a new load starts on: gear 1's, unless a speed motor drives it and not gear 2's (a
    torque on the motor's joint would only change the motor's torque)."""
    driven = {f.joint for f in model.forces.values() if isinstance(f, SpeedMotor)}
    return pair.joint2 if pair.joint1 in driven and pair.joint2 not in driven else pair.joint1


def selection_defaults(cls: type, model, selected: str = "") -> dict:
    """Where a new item of kind `cls` (a load, spring or bearing) starts, given the item selected ('' for none).

    A joint reference takes the selected revolute joint, the joint that carries the selected body, or the joint of
    the selected gear pair that `pair_joint` names; a pair reference the selected pair, or the pair of the selected
    body's joint, else the first pair no item of kind `cls` refers to yet (a second compliant mesh goes on the next
    pair);
    body_j (the shaft of a bearing, spring-damper or joint) the selected body, or the body of the selected joint,
    else the first body no joint carries yet, else the first body (body_i stays the ground: never ground to
    ground); a bearing sits at its shaft's origin. A fixed joint welds its body_j to the body of the first revolute
    joint whose axis runs through body_j's origin, else to the first generated gear whose axis does (a gear onto
    the shaft it sits on), at that origin.
    With nothing selected, a joint reference takes the first revolute joint that no speed motor drives and no item
    of kind `cls` acts on yet, else the first that no speed motor drives (a torque there would only change the
    motor's torque). A reference with nothing to take keeps the model's first candidate. A speed motor's law
    starts as its joint's speed at the start (core.model.model.Model.start_speed).
    """
    item = model.find(selected) if selected else None
    revolutes = [j for j in model.joints.values() if isinstance(j, RevoluteJoint)]
    on_joint = isinstance(item, RevoluteJoint)
    body = selected if selected in model.bodies else item.body_j if on_joint else ""
    joint = (selected if on_joint else
             next((j.name for j in revolutes if body and j.body_j == body), "") or
             (pair_joint(model, item) if isinstance(item, GearPair) else ""))
    pair = selected if isinstance(item, GearPair) else next(
        (p.name for p in model.gear_pairs.values() if joint and joint in (p.joint1, p.joint2)), "")
    out = {}
    for field, kind in getattr(cls, "REFERENCE_FIELDS", {}).items():
        if kind == "revolute" and revolutes:
            free = joint or next(iter(unused_joints(model, cls, field, revolutes)), revolutes[0].name)
            if joint or free != revolutes[0].name:
                out[field] = free
        elif kind == "gear pair":
            taken = {getattr(f, field) for f in model.forces.values() if isinstance(f, cls)}
            free = pair or next((p for p in model.gear_pairs if p not in taken), "")
            if free:
                out[field] = free
        elif field == "body_j" and (body or model.bodies):
            held = {j.body_j for j in model.joints.values()}
            out[field] = body or next((b for b in model.bodies if b not in held), next(iter(model.bodies)))
    if cls is SpeedMotor and revolutes:  # a motor that keeps its joint's start speed changes nothing at t = 0
        out["law"] = TimeLaw(value=model.start_speed(out.get("joint", revolutes[0].name)))
    if "body_j" in out and "position" in {f.name for f in dataclasses.fields(cls)}:
        out["position"] = model.bodies[out["body_j"]].position
    if cls is FixedJoint and "body_j" in out:
        at = np.asarray(out["position"], float)
        axes = [(j.body_j, j.position, j.unit_axis()) for j in revolutes]  # shafts on joints, then generated gears
        axes += [(b.name, b.position, quat_matrices(b.orientation) @ (0.0, 0.0, 1.0)) for b in model.bodies.values()
                 if isinstance(b.visual, GearSource)]
        for name, point, a in axes:
            d = at - np.asarray(point, float)
            if name != out["body_j"] and np.linalg.norm(d - a * (a @ d)) < 1e-9:
                out["body_i"] = name
                break
    return out
