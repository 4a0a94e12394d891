"""How fast one joint turns per rad/s of another through a model's gear train (core.analysis.train_ratio), against
the Willis equations worked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from core.analysis.train_ratio import balance, law_mean, referral, speed_ratio, train_inertia
from core.gearing.gear_bodies import polar_inertia
from core.dynamics.simulate import simulate
from core.commands import AddItem, Macro
from core.model import builders
from core.model.entities import GROUND, RevoluteJoint, SpeedMotor, TimeLaw, Torque
from core.model.model import Model
from core.model.files import load
from tests.conftest import EXAMPLES, two_stage_reducer
from tests.core.dynamics.test_generalized_alpha import pair_from_file_new


def test_an_external_pair_turns_its_gears_apart_by_the_teeth_ratio_rigid_or_through_a_compliant_mesh():
    model = pair_from_file_new()  # 20 and 40 teeth, a compliant mesh, a speed motor on gear 1
    assert speed_ratio(model, "gear2_joint", "gear1_joint") == pytest.approx(-20 / 40, rel=1e-9)
    assert speed_ratio(model, "gear1_joint", "gear2_joint") == pytest.approx(-40 / 20, rel=1e-9)
    del model.forces["mesh"]
    assert speed_ratio(model, "gear2_joint", "gear1_joint") == pytest.approx(-20 / 40, rel=1e-9)


@pytest.mark.parametrize("own_joint", [False, True])
def test_a_two_stage_reducer_turns_its_output_the_same_way_at_the_product_of_the_stages(own_joint):
    model = two_stage_reducer(own_joint=own_joint, stiffness=(2e8, 3e8))
    # (-20/40) (-18/45): two external stages keep the sense
    assert speed_ratio(model, "g4_j", "g1_j") == pytest.approx(20 / 40 * 18 / 45, rel=1e-9)


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_the_planetary_with_its_ring_held_turns_the_carrier_and_the_planets_on_it_by_willis(formulation):
    model = load(EXAMPLES / "planetary.gdyn")  # sun 24, planets 24, ring 72 held by a speed motor at 0
    model.settings = dataclasses.replace(model.settings, formulation=formulation)
    assert speed_ratio(model, "carrier_joint", "sun_joint") == pytest.approx(24 / (24 + 72), rel=1e-9)
    # a planet relative to the carrier: -(z_s / z_p) (w_s - w_c), with w_c = w_s / 4
    assert speed_ratio(model, "planet1_joint", "sun_joint") == pytest.approx(-24 / 24 * (1 - 0.25), rel=1e-9)
    assert speed_ratio(model, "ring_joint", "sun_joint") == pytest.approx(0.0, abs=1e-12)  # held


def test_a_speed_motor_that_drives_does_not_hold_its_joint_and_one_whose_law_is_zero_does():
    model = load(EXAMPLES / "planetary.gdyn")
    model.forces["sun_drive"] = SpeedMotor("sun_drive", "sun_joint", TimeLaw(value=10.0))
    assert speed_ratio(model, "carrier_joint", "sun_joint") == pytest.approx(0.25, rel=1e-9)
    assert speed_ratio(model, "sun_joint", "carrier_joint") == pytest.approx(4.0, rel=1e-9)
    model.forces["sun_drive"] = SpeedMotor("sun_drive", "sun_joint", TimeLaw())  # 0 at every time: a hold
    assert speed_ratio(model, "sun_joint", "carrier_joint") is None  # sun and ring held: nothing turns


def test_no_ratio_where_the_train_does_not_tie_the_joints_to_one_motion():
    model = load(EXAMPLES / "planetary.gdyn")
    del model.forces["ring_hold"]  # the ring free: two degrees of freedom
    assert speed_ratio(model, "carrier_joint", "sun_joint") is None
    model = pair_from_file_new()
    del model.gear_pairs["pair"], model.forces["mesh"]  # two gears that do not mesh
    assert speed_ratio(model, "gear2_joint", "gear1_joint") is None
    model = load(EXAMPLES / "planetary.gdyn")  # the reference held still: nothing is per rad/s of it
    assert speed_ratio(model, "sun_joint", "ring_joint") is None


def test_a_joint_that_is_not_a_revolute_joint_of_the_model_has_no_ratio():
    model = pair_from_file_new()
    assert speed_ratio(model, "nothing", "gear1_joint") is None
    assert speed_ratio(model, "gear1_joint", "nothing") is None


def test_a_speed_motor_holds_its_speed_against_the_torques_referred_to_it_as_the_run_finds():
    """The sun held at 10 rad/s by a motor, 1 N m on it and -3 N m on the carrier (ratio 1/4): the loads come to
    1 - 0.75 N m at the sun, and in steady running the motor's torque is their opposite."""
    model = load(EXAMPLES / "planetary.gdyn")
    model.forces["sun_drive"] = SpeedMotor("sun_drive", "sun_joint", TimeLaw(value=10.0))
    model.forces["load"] = Torque("load", "carrier_joint", TimeLaw(value=-3.0))
    found = referral(model)
    assert found.drive.name == "sun_drive" and not found.untied and not found.lossy
    assert dict(found.torques) == pytest.approx({"sun_torque": 1.0, "load": -0.75}, rel=1e-9)
    res = simulate(model, t_end=0.01)
    assert res.status == "finished", res.message
    assert res["sun_drive.torque"][-1] == pytest.approx(-found.net, rel=1e-6)


def test_torques_referred_to_the_drive_speed_up_a_rigid_pair_by_their_sum_over_its_referred_inertia():
    """A rigid 20/40 pair from rest, 10 N m on gear 1 and 15 N m on gear 2 (ratio -1/2): 10 - 7.5 N m at gear 1,
    which accelerates J1 + J2 / 4."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    for name in ("gear1", "gear2"):
        model.bodies[name] = dataclasses.replace(model.bodies[name], angular_velocity=(0.0, 0.0, 0.0))
    model.forces["drive"] = Torque("drive", "gear1_joint", TimeLaw(value=10.0))
    model.forces["load"] = Torque("load", "gear2_joint", TimeLaw(value=15.0))
    found = referral(model)
    assert found.drive.name == "drive" and found.net == pytest.approx(2.5, rel=1e-9)
    inertia = model.bodies["gear1"].inertia[2][2] + model.bodies["gear2"].inertia[2][2] / 4
    res = simulate(model, t_end=0.01)
    assert res["gear1_joint.speed"][-1] == pytest.approx(found.net / inertia * 0.01, rel=1e-6)


def test_a_torque_off_the_train_is_named_untied_and_lossy_pairs_are_named():
    model = pair_from_file_new()  # a speed motor drives gear 1
    model.gear_pairs["pair"] = dataclasses.replace(model.gear_pairs["pair"], efficiency=0.98)
    del model.forces["mesh"]
    model.bodies["flywheel"] = dataclasses.replace(model.bodies["gear1"], name="flywheel", position=(0.0, 0.2, 0.0))
    model.joints["flywheel_joint"] = RevoluteJoint("flywheel_joint", GROUND, "flywheel", (0.0, 0.2, 0.0), (0, 0, 1))
    model.forces["brake"] = Torque("brake", "flywheel_joint", TimeLaw(value=-1.0))
    found = referral(model)
    assert found.drive.name == "motor" and found.lossy == ("pair",)
    assert found.untied == ("brake",) and dict(found.torques) == pytest.approx({"load": 10.0}, rel=1e-9)
    # the sum leaves the brake out, so it is given without a verdict on the motor's torque
    assert balance(model) == ("Torques referred to gear1_joint (motor's joint) through the train, as their means over "
                              "the run: load 10 N m; in all 10 N m. Not tied to gear1_joint by the train, and not in "
                              "the sum: brake. Without the losses of pair.")


def test_torques_that_cancel_at_the_drive_are_said_to_balance_whatever_the_round_off():
    """The compliant pair example: 100 N m on gear 1 (32 teeth) and 250 N m on gear 2 (80 teeth), which turns the
    other way at 32/80 of its speed: -100 N m at gear 1."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    assert referral(model).net == pytest.approx(0.0, abs=1e-12)
    assert balance(model).endswith("in all 0 N m: they balance, and the train keeps its speed.")


@pytest.mark.parametrize("load, steady", [(20.0, 10.0 / 0.9), (-20.0, -10.0 * 0.9)])
def test_a_motor_on_a_lossy_pair_holds_its_speed_with_the_losses_the_way_the_power_flows(load, steady):
    """Found by a new user: with the pair's efficiency at 0.9 the motor's note still said its steady torque was the
    lossless 10 N m; the run's was 11.11. A load T on gear 2 (40 teeth) is T (-20 / 40) at gear 1 (20) without
    losses. Where the motor drives the load (power from gear 1 to gear 2) it gives that divided by the efficiency,
    and where the load drives the train (power from gear 2 to gear 1) it holds back the efficiency times it: the
    efficiency's definition, power out = 0.9 power in."""
    model = pair_from_file_new()  # a speed motor on gear 1, from rest to 100 rad/s
    del model.forces["mesh"]
    model.gear_pairs["pair"] = dataclasses.replace(model.gear_pairs["pair"], efficiency=0.9)
    model.forces["load"] = Torque("load", "gear2_joint", TimeLaw(value=load))
    found = referral(model)
    assert found.lossy == ("pair",) and found.net == pytest.approx(-load / 2, rel=1e-12)
    assert found.steady == pytest.approx(steady, rel=1e-9)
    assert balance(model).endswith(f"(in steady running its torque is {steady:.4g} N m with the losses of pair, "
                                   f"{load / 2:.4g} N m without them).")


def test_a_torque_drive_and_a_lossless_train_have_no_steady_torque_with_losses():
    model = pair_from_file_new()
    del model.forces["mesh"]
    assert referral(model).steady is None  # lossless: the referred sum is the motor's torque
    model.gear_pairs["pair"] = dataclasses.replace(model.gear_pairs["pair"], efficiency=0.9)
    for name in ("motor", "load"):
        del model.forces[name]
    model.forces["drive"] = Torque("drive", "gear1_joint", TimeLaw(value=5.0))
    model.forces["load"] = Torque("load", "gear2_joint", TimeLaw(value=8.0))
    found = referral(model)
    assert found.drive.name == "drive" and found.steady is None  # a torque drive has no speed to hold
    assert balance(model).endswith(". Without the losses of pair.")


def test_a_motor_at_rest_on_average_gives_no_steady_torque_with_losses():
    """A speed motor whose law averages 0 over the run (10 sin(2 pi t) rad/s over 1 s): the lossy pair is held at
    rest in the 'steady' start, where what its losses hold is not determined, and the note said '4.375 N m with
    the losses of gear, 4.375 N m without them' on Modelica's LossyGearDemo1 (efficiency 0.5)."""
    model = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    del model.forces["drive"]
    model.forces["drive"] = SpeedMotor("drive", "input_joint", TimeLaw(kind="sine", amplitude=10.0, frequency=1.0))
    model.settings = dataclasses.replace(model.settings, t_end=1.0)
    found = referral(model)
    assert found.lossy == ("gear",) and found.net == pytest.approx(-4.375, rel=1e-12) and found.steady is None
    assert balance(model).endswith(". Without the losses of gear.")


def test_a_motor_on_a_lossy_planetary_holds_the_sun_by_the_willis_efficiency():
    """The planetary example (sun 24, ring 72 held) with every pair at efficiency 0.98, a motor on the sun and 4 N
    m of load on the carrier: 1 N m at the sun without losses. In the carrier's frame the sun drives the ring
    through the planets with the basic efficiency eta0 = 0.98^2, and the set's efficiency from sun to carrier is
    (1 + eta0 z_r / z_s) / (1 + z_r / z_s) (Willis' method): the motor gives 1 N m divided by it."""
    model = load(EXAMPLES / "planetary.gdyn")
    for name, pair in list(model.gear_pairs.items()):
        model.gear_pairs[name] = dataclasses.replace(pair, efficiency=0.98)
    del model.forces["sun_torque"]
    model.forces["motor"] = SpeedMotor("motor", "sun_joint", TimeLaw(value=100.0))
    model.forces["load"] = Torque("load", "carrier_joint", TimeLaw(value=-4.0))
    found = referral(model)
    eta0, i0 = 0.98**2, 72 / 24
    assert found.net == pytest.approx(-1.0, rel=1e-12)
    assert found.steady == pytest.approx(1.0 / ((1 + eta0 * i0) / (1 + i0)), rel=1e-9)


@pytest.mark.parametrize("carrier_torque", [-4.0, 4.0])
def test_the_builders_planetary_efficiency_is_what_a_run_of_the_built_set_gives_both_ways(carrier_torque):
    """builders.planetary_efficiency (the Planetary Gearset dialog shows it) against the engine: the set built with
    every mesh at 0.95, its ring held, a motor at 100 rad/s on the sun and 4 N m on the carrier against its turning
    (the sun drives) or with it (the carrier drives the sun back). The efficiency is the power out over the power
    in: 4 N m times the carrier's speed (a quarter of the sun's) against the motor's torque times its speed."""
    model = Model()
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.02, efficiency=0.95)
    items += [builders.held_joint("ring_hold", "ring_joint"), SpeedMotor("motor", "sun_joint", TimeLaw(value=100.0)),
              builders.constant_torque("load", "carrier_joint", carrier_torque)]
    Macro("planetary", [AddItem(i) for i in items]).do(model)
    assert {pair.efficiency for pair in model.gear_pairs.values()} == {0.95}
    motor = referral(model).steady  # the motor's torque in steady running, with the losses [N m]
    forwards, back = builders.planetary_efficiency(24, 72, 0.95)
    power_in, power_out = (motor * 100.0, 4.0 * 25.0) if carrier_torque < 0 else (4.0 * 25.0, -motor * 100.0)
    assert power_out / power_in == pytest.approx(forwards if carrier_torque < 0 else back, rel=1e-9)


def test_the_train_puts_on_a_gears_joint_its_inertia_referred_by_the_square_of_the_ratio():
    """A torsional spring on gear 1's joint of the helical pair turns gear 2 with it: J1 + J2 (z1 / z2)^2, each
    gear's inertia about its own axis (core.gearing.gear_bodies.polar_inertia); on gear 2's joint J2 + J1 (z2 /
    z1)^2."""
    model = load(EXAMPLES / "helical_pair.gdyn")  # 20 and 40 teeth
    j1, j2 = polar_inertia(model, "gear1_joint"), polar_inertia(model, "gear2_joint")
    assert train_inertia(model, "gear1_joint") == (pytest.approx(j1 + j2 * (20 / 40) ** 2, rel=1e-12), ())
    assert train_inertia(model, "gear2_joint") == (pytest.approx(j2 + j1 * (40 / 20) ** 2, rel=1e-12), ())


def test_the_planetary_puts_on_its_sun_the_inertia_of_the_energy_method_and_nothing_on_its_held_ring():
    """Ring held: the carrier turns at kc = z_s / (z_s + z_r) of the sun, each planet at kp = kc - (z_s / z_p)(1 -
    kc) and its centre at a kc: J = J_s + J_c kc^2 + sum(m_p (a kc)^2 + J_p kp^2), the sum of the kinetic energies
    at 1 rad/s of the sun. The held ring cannot turn: no inertia."""
    model = load(EXAMPLES / "planetary.gdyn")
    b = model.bodies
    izz = {k: b[k].inertia[2][2] for k in b}
    zs, zp, zr, a = 24, 24, 72, 0.002 * (24 + 24) / 2
    kc = zs / (zs + zr)
    kp = kc - (zs / zp) * (1 - kc)
    j = izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                  for k in (1, 2, 3))
    assert train_inertia(model, "sun_joint")[0] == pytest.approx(j, rel=1e-9)
    assert train_inertia(model, "ring_joint") is None


@pytest.mark.parametrize("example, joint", [("planetary", "sun_joint"), ("planetary", "planet1_joint"),
                                            ("two_stage_reducer", "input_joint"), ("bevel_pair", "pinion_joint")])
def test_a_trains_inertia_is_the_same_in_joint_and_cartesian_coordinates(example, joint):
    """Two mass matrices on two sets of velocities, one kinetic energy: the train's inertia at a joint does not
    depend on the formulation it is read in."""
    model = load(EXAMPLES / f"{example}.gdyn")
    found = {}
    for formulation in ("joint", "cartesian"):
        model.settings = dataclasses.replace(model.settings, formulation=formulation)
        found[formulation] = train_inertia(model, joint)[0]
    assert found["cartesian"] == pytest.approx(found["joint"], rel=1e-12)


def test_a_train_in_hubs_puts_on_its_sun_the_energy_methods_inertia_with_its_supports_held():
    """The compliant planetary example (sun 25, planets 23, ring 71 held, every member in a hub on a bearing and
    three spring arms: no joint coordinates). Its hubs held, the carrier turns at kc = z_s / (z_s + z_r) of the
    sun with the planets' pins on it, each planet at kp = kc - (z_s / z_p)(1 - kc): J = J_s + kc^2 (J_c + sum(J_pin
    + m_pin r^2 + m_p r^2)) + kp^2 sum(J_p), r each pin's distance from the axis. The torsional note gave sun
    alone before."""
    model = load(EXAMPLES / "compliant_planetary.gdyn")
    inertia, held = train_inertia(model, "sun_joint")
    assert inertia == pytest.approx(hub_planetary_sun_inertia(model), rel=1e-12)
    assert set(held) == {f for f in model.forces if "bearing" in f or "_arm" in f}


def test_a_train_whose_members_sit_in_hubs_on_springs_keeps_its_ratios():
    """The compliant planetary example (sun 25, planets 23, ring 71 held): every member turns on its joint in a hub
    that a bearing and three spring arms hold. Check Model said the carrier's load was 'not tied to sun_joint by
    the train': the ratios left the hubs' motions on their springs free, as if a support's deflection were part
    of the train's motion. A support's deflection is not the train's ratio, as a mesh's is not: the carrier
    turns at z_s / (z_s + z_r) of the sun, and a planet on its pin at -(z_s / z_p)(1 - that)."""
    model = load(EXAMPLES / "compliant_planetary.gdyn")
    kc = 25 / (25 + 71)
    assert speed_ratio(model, "carrier_joint", "sun_joint") == pytest.approx(kc, rel=1e-9)
    assert speed_ratio(model, "planet1_joint", "sun_joint") == pytest.approx(-25 / 23 * (1 - kc), rel=1e-9)
    found = referral(model)
    assert not found.untied and dict(found.torques)["carrier_load"] == pytest.approx(
        law_mean(model.forces["carrier_load"].law, model.settings.t_end) * kc, rel=1e-9)


def hub_planetary_sun_inertia(model) -> float:
    """The energy method's inertia at the compliant planetary example's sun [kg m^2], its hubs held: the kinetic
    energy at 1 rad/s of the sun, times 2."""
    b = model.bodies
    izz = {k: b[k].inertia[2][2] for k in b}
    kc = 25 / (25 + 71)
    kp = kc - (25 / 23) * (1 - kc)
    orbit = sum(izz[f"planet{k}_pin"] + (b[f"planet{k}_pin"].mass + b[f"planet{k}"].mass)
                * (b[f"planet{k}"].position[0] ** 2 + b[f"planet{k}"].position[1] ** 2) for k in (1, 2, 3))
    return izz["sun"] + kc**2 * (izz["carrier"] + orbit) + kp**2 * sum(izz[f"planet{k}"] for k in (1, 2, 3))
