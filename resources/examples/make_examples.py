"""Regenerate the example models in this folder from core's builders.

Run from the repository root: ``python resources/examples/make_examples.py``.
The examples are data; this script records how they were made.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.commands import AddItem, Macro  # noqa: E402
from core.gearing.placement import place_gear2  # noqa: E402
from core.geometry.macro import GearSpec  # noqa: E402
from core.model import builders  # noqa: E402
from core.model.entities import (  # noqa: E402
    GROUND,
    BearingSpringDamper,
    CompliantMesh,
    FixedJoint,
    GearPair,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
    SimulationSettings,
    SpeedMotor,
    SpringDamper,
    TimeLaw,
    Torque,
)
from core.model.files import save  # noqa: E402
from core.model.model import Model  # noqa: E402
from core.model.views import TelemetryLayout, Views  # noqa: E402

HERE = Path(__file__).resolve().parent
# the Telemetry window of the lossy demos opens on the gear's speed, mode, loss power and flange torques
LOSSY_VIEWS = Views(telemetry=TelemetryLayout(plots=(("gear.w_a",), ("gear.mode", "gear.driving"), ("gear.loss_power",),
                                                     ("gear.tau_a", "gear.tau_b"))))
Z = (0.0, 0.0, 1.0)


def build(name: str, description: str, items: list, settings=SimulationSettings(), views=None) -> Model:
    model = Model(name=name, description=description, settings=settings)
    if views is not None:
        model.views = views
    Macro(f"Build {name}", [AddItem(i) for i in items]).do(model)
    return model


def helical_pair() -> Model:
    m, beta, b = 0.002, math.radians(15.0), 0.020
    a = m * (20 + 40) / 2
    g1 = builders.gear_body("gear1", GearSpec("helical", m, 20, math.radians(20), b, helix_angle=beta,
                                              bore_diameter=0.012), angular_velocity=(0, 0, 100.0))
    g2 = builders.gear_body("gear2", GearSpec("helical", m, 40, math.radians(20), b, helix_angle=-beta,
                                              bore_diameter=0.020), position=(a, 0, 0),
                            spin=builders.mesh_phase(40, math.pi), angular_velocity=(0, 0, -50.0))
    return build("helical_pair", "Helical pair z 20/40, m_t 2 mm, alpha 20 deg, beta 15 deg, b 20 mm", [
        g1, g2,
        RevoluteJoint("gear1_joint", GROUND, "gear1", (0, 0, 0), Z),
        RevoluteJoint("gear2_joint", GROUND, "gear2", (a, 0, 0), Z),
        GearPair("pair", "gear1_joint", "gear2_joint", GROUND, kind="external", z1=20, z2=40, module=m,
                 pressure_angle=math.radians(20), helix_angle=beta, face_width=b),
    ])


def inner_pair() -> Model:
    m, b = 0.002, 0.020
    a = m * (60 - 20) / 2
    pinion = builders.gear_body("pinion", GearSpec("helical", m, 20, math.radians(20), b, bore_diameter=0.012),
                                position=(a, 0, 0), spin=builders.mesh_phase(20, 0.0), angular_velocity=(0, 0, 90.0))
    ring = builders.gear_body("ring", GearSpec("inner", m, 60, math.radians(20), b, rim_diameter=0.150),
                              angular_velocity=(0, 0, 30.0))
    return build("inner_pair", "Pinion z 20 in a ring z 60, m_t 2 mm, spur", [
        pinion, ring,
        RevoluteJoint("pinion_joint", GROUND, "pinion", (a, 0, 0), Z),
        RevoluteJoint("ring_joint", GROUND, "ring", (0, 0, 0), Z),
        GearPair("pair", "pinion_joint", "ring_joint", GROUND, kind="internal", z1=20, z2=60, module=m,
                 pressure_angle=math.radians(20), face_width=b),
    ])


def bevel_pair() -> Model:
    m, b = 0.003, 0.020
    g1, g2 = builders.bevel_pair_bodies(("pinion", "gear"), 20, 40, m, b, (0.012, 0.020))
    g1 = dataclasses.replace(g1, angular_velocity=(100.0, 0.0, 0.0))
    g2 = dataclasses.replace(g2, angular_velocity=(0.0, 0.0, -50.0))
    model = build("bevel_pair", "Straight bevel pair z 20/40, m 3 mm, 90 deg shafts, apex at the origin", [
        g1, g2,
        RevoluteJoint("pinion_joint", GROUND, "pinion", g1.position, (1, 0, 0)),
        RevoluteJoint("gear_joint", GROUND, "gear", g2.position, (0, 0, 1)),
        GearPair("pair", "pinion_joint", "gear_joint", GROUND, kind="bevel", z1=20, z2=40, module=m,
                 pressure_angle=math.radians(20), pitch_angle=math.atan2(20, 40), face_width=b),
    ])
    for command in place_gear2(model, model.gear_pairs["pair"]):  # turn the gear so its teeth sit in the pinion's spaces
        command.do(model)
    return model


def planetary() -> Model:
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.020)
    items += [builders.held_joint("ring_hold", "ring_joint"), builders.constant_torque("sun_torque", "sun_joint", 1.0)]
    # In joint coordinates (auto picks them here) the angles are quadratic in time and RK4 is exact to
    # round-off at any step; the sun passes 3250 rad/s at 1 s, and 1 ms samples keep the animation smooth.
    # In Cartesian coordinates the orbiting planets need 2.5e-4 s steps for a 2e-8 error at 0.3 s.
    return build("planetary", "Sun 24, three planets 24 at 120 deg, ring 72 held, m_t 2 mm; 1 N m on the sun", items,
                 SimulationSettings(t_end=1.0, step=1e-3, output_step=1e-3, integrator="rk4"))


def compliant_planetary() -> Model:
    """Parker's phasing example (z_s 25, z_p 23, z_r 71, three planets) with compliant meshes and every member on a
    bearing: each gear turns on its revolute joint in a hub (a bearing cartridge) that sits on a radial bearing
    spring-damper to its housing (the ground, or the carrier for the planet pins) and is kept from turning by a
    stiff tangential arm (three, 120 deg apart, so the set stays cyclically symmetric). Balanced torques (20 N m on
    the sun, the carrier loaded by 20 (1 + z_r / z_s) N m, the ring held) and the train rolling at 100 rad/s of the
    sun from the start: mesh frequency 294 Hz. dop853 at rtol 1e-6: the involute stiffness steps between one and
    two tooth pairs within a 1024th of a mesh period, which a fixed step resolves only to low order (RK4 at
    2e-6 s: 0.5 % in Ft); the adaptive run's Ft agrees with one at rtol 1e-9 to 1e-6 of its largest, in
    four fifths of dopri5's evaluations at the same tolerances, which err seven times as much."""
    zs, zp, zr, m, b = 25, 23, 71, 0.002, 0.020
    torque, w_sun = 20.0, 100.0
    w_carrier = w_sun * zs / (zs + zr)
    items = builders.planetary_set(zs, zp, zr, 3, m, b)
    bodies = {i.name: i for i in items if isinstance(i, RigidBody)}
    joints = {i.name: i for i in items if isinstance(i, RevoluteJoint)}
    pairs = [i for i in items if isinstance(i, GearPair)]
    k_bearing, c_bearing, k_arm, c_arm, arm = 1e8, 400.0, 2e7, 400.0, 0.03
    out = []
    hub_shape = PrimitiveSource(radius=0.015, length=0.01)
    for name, body in bodies.items():
        joint = joints.get(f"{name}_joint")
        if joint is None:  # the carrier's hub sits on the ground like the sun's and the ring's
            out.append(body)
            continue
        housing, at = joint.body_i, joint.position
        hub = f"{name}_hub" if housing == GROUND else f"{name}_pin"
        at = (at[0], at[1], HUB_Z.get(name, HUB_Z["planet"]))  # in front of or behind the gears, clear of each other
        w = 0.0 if housing == GROUND else w_carrier
        spin_rate = {"sun": w_sun, "carrier": w_carrier, "ring": 0.0}.get(name, w_carrier - (w_sun - w_carrier) * zs / zp)
        velocity = (-w * at[1], w * at[0], 0.0)
        out.append(dataclasses.replace(body, angular_velocity=(0.0, 0.0, spin_rate), velocity=velocity))
        out.append(dataclasses.replace(builders.body_from_source(hub, hub_shape, position=at,
                                                                 angular_velocity=(0.0, 0.0, w)), velocity=velocity))
        out.append(dataclasses.replace(joint, body_i=hub))
        out.append(BearingSpringDamper(f"{name}_bearing", housing, hub, at, Z, radial_stiffness=k_bearing,
                                       radial_damping=c_bearing))
        # three tangential arms at `arm` from the axis, 10 mm long, 120 deg apart (a planet's turned with its
        # position angle): the hub's spin held, its translation as stiff every way, the set cyclically symmetric
        psi = math.atan2(at[1], at[0]) if housing != GROUND else 0.0
        for k, turn in enumerate(psi + 2 * math.pi * i / 3 for i in range(3)):
            radial, tangent = (math.cos(turn), math.sin(turn)), (-math.sin(turn), math.cos(turn))
            tip = (at[0] + arm * radial[0], at[1] + arm * radial[1], at[2])
            base = tuple(tip[i] - 0.01 * (tangent + (0.0,))[i] for i in range(3))
            if housing != GROUND:
                base = tuple(base[i] - bodies["carrier"].position[i] for i in range(3))
            out.append(SpringDamper(f"{name}_arm{k + 1}", housing, hub, base,
                                    (arm * radial[0], arm * radial[1], 0.0), stiffness=k_arm, damping=c_arm, free_length=0.01))
    # no backlash: a run starts with the meshes undeflected, and across a backlash that start is an impact
    # whose timing a fixed step resolves only to first order
    out += pairs + [CompliantMesh(f"{p.name}_mesh", p.name) for p in pairs]
    out += [builders.held_joint("ring_hold", "ring_joint"), builders.constant_torque("sun_torque", "sun_joint", torque),
            builders.constant_torque("carrier_load", "carrier_joint", -torque * (1 + zr / zs))]
    return build("compliant_planetary",
                 "Planetary z 25/23/71, three planets, m_t 2 mm, b 20 mm: ISO 6336 compliant meshes "
                 "(involute waveform, no backlash), every member in a hub on a 1e8 N/m bearing; 20 N m on the sun, the carrier loaded, the "
                 "ring held; rolling at 100 rad/s of the sun (mesh 294 Hz). Analysis > Train Dynamics for its modes "
                 "and forced response", out,
                 SimulationSettings(t_end=0.02, step=2e-6, output_step=2e-5, integrator="dop853", rtol=1e-6,
                                    atol=1e-9))


HUB_Z = {"sun": 0.016, "ring": 0.028, "carrier": -0.028, "planet": 0.016}  # [m]


def compliant_mesh_pair() -> Model:
    """The worked example of the multibody gear-drive notes (seed 002): ratio 2.5, soft mesh.

    Seed 002 runs it at 1e-4 s; with generalised-alpha (rho_inf 0.5) that step, 1/20 of the mesh period and
    1/6 of the mesh mode's, damps the response: 16 % off a converged run over 0.02 s. RK4 at 2e-5 s (1/100
    of the mesh period, 1/30 of the mesh mode's period) is within 4e-5 of it and takes 3 s per 0.02 s here.
    """
    m, z1, z2 = 0.004, 32, 80  # ratio 2.5; mesh frequency z1 w1 / 2 pi = 509 Hz at w1 = 100 rad/s
    a = m * (z1 + z2) / 2
    shape = dict(shape="cylinder", length=0.03)
    gear1 = RigidBody("gear1", mass=2.5, inertia=((0.0075, 0, 0), (0, 0.0075, 0), (0, 0, 0.012)),
                      angular_velocity=(0.0, 0.0, 100.0), visual=PrimitiveSource(radius=m * (z1 / 2 + 1), **shape))  # tip radius
    gear2 = RigidBody("gear2", mass=6.8, inertia=((0.055, 0, 0), (0, 0.055, 0), (0, 0, 0.095)), position=(a, 0.0, 0.0),
                      angular_velocity=(0.0, 0.0, -100.0 * z1 / z2), visual=PrimitiveSource(radius=m * (z2 / 2 + 1), **shape))
    k0 = 2e8
    w_mesh = z1 * 100.0
    return build("compliant_mesh_pair",
                 "Seed 002 worked example: m1 2.5 kg J1 0.012, m2 6.8 kg J2 0.095 kg m^2, ratio 2.5, k0 2e8 N/m, "
                 "k1 0.3 k0 (along the line of action), mesh 509 Hz at w1 100 rad/s, c = 0.01 k0 / w_m; 100 N m in, "
                 "250 N m load. Run with RK4 at 2e-5 s (the seed's 1e-4 s does not resolve the mesh mode)", [
                     gear1, gear2,
                     RevoluteJoint("gear1_joint", GROUND, "gear1", (0, 0, 0), Z),
                     RevoluteJoint("gear2_joint", GROUND, "gear2", (a, 0, 0), Z),
                     GearPair("pair", "gear1_joint", "gear2_joint", GROUND, kind="external", z1=z1, z2=z2, module=m,
                              pressure_angle=math.radians(20), face_width=0.03),
                     CompliantMesh("mesh", "pair", stiffness="given", k_mean=k0, k_amplitude=0.3 * k0, waveform="cosine",
                                   damping_model="constant", damping=0.01 * k0 / w_mesh),
                     builders.constant_torque("drive", "gear1_joint", 100.0),
                     builders.constant_torque("load", "gear2_joint", 250.0),
                 ], SimulationSettings(t_end=0.1, step=2e-5, output_step=1e-4, integrator="rk4",
                                       static_equilibrium=True))


def two_stage_reducer() -> Model:
    """A two-stage spur reducer with a compound shaft: 20/40 then 18/45 teeth, module 2 mm, ratio 5. The input
    turns at 100 rad/s (a speed motor), the output carries 10 N m against it; the intermediate shaft's second gear
    is welded to it and named in pair 2's gear1. At the steady speeds: Ft = 10 / 0.045 = 222.2 N on stage 2,
    4 N m on the shaft, Ft = 100 N on stage 1, 2 N m at the motor."""
    m, b = 0.002, 0.020
    spec = lambda z: GearSpec("helical", m, z, math.radians(20), b, bore_diameter=0.012)  # noqa: E731
    g1 = builders.gear_body("gear1", spec(20), angular_velocity=(0, 0, 100.0))
    g2 = builders.gear_body("gear2", spec(40), position=(0.06, 0, 0), spin=builders.mesh_phase(40, math.pi),
                            angular_velocity=(0, 0, -50.0))
    g3 = builders.gear_body("gear3", spec(18), position=(0.06, 0, 0.025), angular_velocity=(0, 0, -50.0))
    g4 = builders.gear_body("gear4", spec(45), position=(0.123, 0, 0.025), angular_velocity=(0, 0, 20.0))
    model = build("two_stage_reducer", "Two-stage spur reducer z 20/40 and 18/45, m 2 mm, ratio 5; gear 3 welded to "
                  "gear 2's shaft; 100 rad/s in, 10 N m load on the output", [
                      g1, g2, g3, g4,
                      RevoluteJoint("input_joint", GROUND, "gear1", (0, 0, 0), Z),
                      RevoluteJoint("shaft_joint", GROUND, "gear2", (0.06, 0, 0), Z),
                      FixedJoint("shaft_weld", "gear2", "gear3", (0.06, 0, 0.0125)),
                      RevoluteJoint("output_joint", GROUND, "gear4", (0.123, 0, 0.025), Z),
                      GearPair("stage1", "input_joint", "shaft_joint", GROUND, z1=20, z2=40, module=m,
                               pressure_angle=math.radians(20), face_width=b),
                      GearPair("stage2", "shaft_joint", "output_joint", GROUND, z1=18, z2=45, module=m,
                               pressure_angle=math.radians(20), face_width=b, gear1="gear3"),
                      SpeedMotor("motor", "input_joint", TimeLaw(value=100.0)),
                      builders.constant_torque("load", "output_joint", -10.0),
                  ], SimulationSettings(t_end=0.2, step=1e-3, output_step=1e-3, integrator="rk4"))
    for command in place_gear2(model, model.gear_pairs["stage2"]):  # gear 4's teeth into gear 3's spaces
        command.do(model)
    return model


def _shaft(name: str, inertia: float, radius: float, mass: float, spin: float = 0.0, position=(0.0, 0.0, 0.0),
           length: float = 0.02):
    """A disc-like body with polar inertia `inertia` [kg m^2] drawn as a cylinder of `radius` and `length` [m]."""
    transverse = mass * (3 * radius**2 + length**2) / 12
    return RigidBody(name, mass=mass, inertia=((transverse, 0, 0), (0, transverse, 0), (0, 0, inertia)),
                     position=position, angular_velocity=(0.0, 0.0, spin),
                     visual=PrimitiveSource(radius=radius, length=length))


def _msl_demo_1_2(name: str, description: str, loss_table) -> Model:
    """Modelica's LossyGearDemo1 and 2: a pinion (J 1 kg m^2) turning a ring (J 1.5) at ratio 2, same sense.

    An inner pair keeps Modelica's signs: w_pinion = 2 w_ring about the same axis z.
    """
    m, z1, z2 = 0.01, 20, 40
    a = m * (z2 - z1) / 2
    return build(name, description, [
        _shaft("input", 1.0, m * (z1 / 2 + 1), 200.0, position=(a, 0.0, 0.0), length=0.08),  # shows through the ring
        _shaft("output", 1.5, m * (z2 / 2 + 2), 100.0),
        RevoluteJoint("input_joint", GROUND, "input", (a, 0, 0), Z),
        RevoluteJoint("output_joint", GROUND, "output", (0, 0, 0), Z),
        GearPair("gear", "input_joint", "output_joint", GROUND, kind="internal", z1=z1, z2=z2, module=m,
                 pressure_angle=math.radians(20), loss_table=loss_table),
        Torque("drive", "input_joint", TimeLaw(kind="sine", amplitude=10.0, frequency=1.0)),
        Torque("load", "output_joint", TimeLaw(kind="ramp", value=-10.0, final=-5.0, t_start=0.0, t_end=2.0)),
    ], SimulationSettings(t_end=0.5, step=5e-3, output_step=1e-3, integrator="dopri5", rtol=1e-10, atol=1e-12,
                          formulation="joint"), LOSSY_VIEWS)


def lossy_gear_demo1() -> Model:
    return _msl_demo_1_2(
        "lossy_gear_demo1", "Modelica LossyGearDemo1: ratio 2, mesh efficiency 0.5 both ways, J 1 and 1.5 kg m^2, "
        "10 sin(2 pi t) N m on the input, -10 + 2.5 t N m on the output; rolls backwards, sticks, rolls forwards",
        ((0.0, 0.5, 0.5, 0.0, 0.0),))


def lossy_gear_demo2() -> Model:
    # Modelica's demo puts a BearingFriction 0.5 + 0.5 |w| N m on the input shaft beside the gear. Bearing friction
    # tau_f on shaft a is, by LossyGear's own definition of its columns, tau_bf1 = eta_mf1 tau_f and
    # tau_bf2 = tau_f / eta_mf2: rows at 0 and 1 rad/s (the demo stays below 0.03 rad/s; beyond its last row a
    # loss table holds that row).
    return _msl_demo_1_2(
        "lossy_gear_demo2", "Modelica LossyGearDemo2: LossyGearDemo1 with a bearing friction 0.5 + 0.5 |w| N m on the "
        "input shaft, in the loss table's friction columns (tau_bf1 = 0.5 tau_f, tau_bf2 = 2 tau_f)",
        ((0.0, 0.5, 0.5, 0.25, 1.0), (1.0, 0.5, 0.5, 0.5, 2.0)))


def lossy_gear_demo3() -> Model:
    """Modelica's LossyGearDemo3: ratio 1, both shafts at 10 rad/s, a 1 N m step on the output at 0.5 s.

    An external pair z 20/20 turns its gears in opposite senses; gear 2's joint axis is -z so that both
    joint speeds are +10 rad/s as in Modelica.
    """
    m, z = 0.005, 20
    a = m * z
    return build("lossy_gear_demo3", "Modelica LossyGearDemo3: ratio 1, loss table [0, 0.25, 0.25, 0.625, 2.5], "
                 "J 0.001 kg m^2 each, both at 10 rad/s, 1 N m on the output from 0.5 s; decelerates at 500 rad/s^2 "
                 "and sticks at 0.02 s", [
                     _shaft("input", 0.001, m * (z / 2 + 1), 0.8, spin=10.0),
                     _shaft("output", 0.001, m * (z / 2 + 1), 0.8, spin=-10.0, position=(a, 0.0, 0.0)),
                     RevoluteJoint("input_joint", GROUND, "input", (0, 0, 0), Z),
                     RevoluteJoint("output_joint", GROUND, "output", (a, 0, 0), (0.0, 0.0, -1.0)),
                     GearPair("gear", "input_joint", "output_joint", GROUND, kind="external", z1=z, z2=z, module=m,
                              pressure_angle=math.radians(20), loss_table=((0.0, 0.25, 0.25, 0.625, 2.5),)),
                     Torque("load", "output_joint", TimeLaw(kind="step", value=0.0, final=1.0, t_start=0.5)),
                 ], SimulationSettings(t_end=1.0, step=5e-3, output_step=1e-3, integrator="dopri5", rtol=1e-10,
                                       atol=1e-12, formulation="joint"), LOSSY_VIEWS)


if __name__ == "__main__":
    for make in (helical_pair, inner_pair, bevel_pair, planetary, compliant_planetary, compliant_mesh_pair, lossy_gear_demo1,
                 lossy_gear_demo2, lossy_gear_demo3, two_stage_reducer):
        model = make()
        save(model, HERE / f"{model.name}.gdyn")
        print("wrote", model.name)
