"""Gear forces against the textbook: a helical pinion under torque against a held gear (as Project Chrono's gear test)."""

import dataclasses
import math

import numpy as np
import pytest

from core.commands import AddItem, replace_fields
from core.dynamics.formulations import FORMULATIONS, assemble
from core.dynamics.scene import Scene
from core.dynamics.simulate import simulate
from core.model import builders
from core.model.files import load
from tests.conftest import EXAMPLES


def _static_pair(name, torque):
    model = load(EXAMPLES / f"{name}.gdyn")
    for body in list(model.bodies):
        replace_fields(model, body, angular_velocity=(0.0, 0.0, 0.0)).do(model)
    joint1, joint2 = model.gear_pairs["pair"].joint1, model.gear_pairs["pair"].joint2
    AddItem(builders.constant_torque("drive", joint1, torque)).do(model)
    AddItem(builders.held_joint("hold", joint2)).do(model)
    return model


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_helical_pinion_against_a_held_gear_joint_reactions(formulation):
    torque = 10.0  # N m on the pinion
    model = _static_pair("helical_pair", torque)
    system = assemble(model, formulation)
    ch = system.channels(0.0, system.initial_state())
    r1 = 0.002 * 20 / 2
    alpha, beta = math.radians(20), math.radians(15)
    pt = torque / r1  # 500 N
    pr = pt * math.tan(alpha) / math.cos(beta)
    pa = pt * math.tan(beta)
    # pinion at the origin, gear at +x: radial is x, tangential y, axial z
    f = np.array([ch[f"gear1_joint.F{k} [N]"] for k in "xyz"])
    assert abs(f[1]) == pytest.approx(pt, rel=1e-9)
    assert abs(f[0]) == pytest.approx(pr, rel=1e-9)
    assert abs(f[2]) == pytest.approx(pa, rel=1e-9)
    assert f[0] > 0  # the teeth push the pinion away from the gear (-x); its bearing holds it (+x)
    assert abs(ch["pair.Ft [N]"]) == pytest.approx(pt, rel=1e-9)
    assert ch["pair.Fr [N]"] == pytest.approx(pr, rel=1e-9)
    assert abs(ch["pair.Fa [N]"]) == pytest.approx(pa, rel=1e-9)
    assert ch["pair.Fc [N]"] == pytest.approx(math.sqrt(pt**2 + pr**2 + pa**2), rel=1e-9)
    # the held gear's bearing takes the same force the other way; nothing accelerates
    g = np.array([ch[f"gear2_joint.F{k} [N]"] for k in "xyz"])
    assert np.allclose(g, -f, rtol=1e-9)
    assert abs(ch["gear1_joint.speed [rad/s]"]) == 0.0


def _static_channels(torque, formulation):
    system = assemble(_static_pair("helical_pair", torque), formulation)
    return system.channels(0.0, system.initial_state())


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_opposite_torque_turns_the_flank_and_the_thrust(formulation):
    a, b = _static_channels(10.0, formulation), _static_channels(-10.0, formulation)
    assert b["pair.Ft [N]"] == pytest.approx(-a["pair.Ft [N]"], rel=1e-12)
    assert b["pair.Fa [N]"] == pytest.approx(-a["pair.Fa [N]"], rel=1e-12)
    assert b["pair.Fr [N]"] == pytest.approx(a["pair.Fr [N]"], rel=1e-12)  # radial always separates
    assert b["gear1_joint.Fx [N]"] == pytest.approx(a["gear1_joint.Fx [N]"], rel=1e-12)


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_bevel_pinion_against_a_held_gear(formulation):
    """Hand free-body diagram of the pinion with the forces at the mean pitch cone (ISO 10300-1, AGMA 2005)."""
    torque = 10.0
    model = _static_pair("bevel_pair", torque)
    system = assemble(model, formulation)
    ch = system.channels(0.0, system.initial_state())
    r1, b, alpha, gamma1 = 0.003 * 20 / 2, 0.02, math.radians(20), math.atan2(20, 40)
    rm = r1 - 0.5 * b * math.sin(gamma1)  # mean pitch radius, 25.53 mm against 30 mm at the heel
    pt = torque / rm
    pr, pa = pt * math.tan(alpha) * math.cos(gamma1), pt * math.tan(alpha) * math.sin(gamma1)
    assert abs(ch["pair.Ft [N]"]) == pytest.approx(pt, rel=1e-9)
    assert ch["pair.Fr [N]"] == pytest.approx(pr, rel=1e-9)
    assert ch["pair.Fa [N]"] == pytest.approx(pa, rel=1e-9)
    # Apex at the origin, pinion axis +x on the -x side, gear below (-z): the mean pitch point is
    # P = (-rm / tan(gamma1), 0, -rm); on the pinion the teeth push (-Fa, -Ft, +Fr) (thrust away from the
    # apex, radial away from the gear, tangential against the torque about +x).
    point = np.array([-rm / math.tan(gamma1), 0.0, -rm])
    force = np.array([-pa, -pt, pr])
    joint = np.array([-0.06, 0.0, 0.0])
    reaction = -force
    moment = -np.cross(point - joint, force)  # about the joint point, what the bearing holds
    moment[0] = 0.0
    got_f = np.array([ch[f"pinion_joint.F{k} [N]"] for k in "xyz"])
    got_m = np.array([ch[f"pinion_joint.T{k} [N m]"] for k in "xyz"])
    assert np.allclose(got_f, reaction, rtol=1e-9, atol=1e-9 * pt)
    assert np.allclose(got_m, moment, rtol=1e-9, atol=1e-9 * pt * rm)
    assert np.cross(point - joint, force)[0] == pytest.approx(-torque, rel=1e-9)  # the teeth hold the torque


@pytest.mark.parametrize("torque", [10.0, -10.0])
def test_tooth_force_signs_are_what_the_channel_tooltips_say(torque):
    """core.gearing.pitch_point.TOOTH_FORCE_TEXT: Ft on gear 1 is negative when gear 1 drives (a torque turning it
    positively, from rest) and positive when it is driven the other way; Fa = Ft tan(beta_w) follows Ft's sign; Fr
    and Fc are never negative. The free helical pair (beta 15 deg) from rest under a torque on gear 1."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    for name in ("gear1", "gear2"):
        model.bodies[name] = dataclasses.replace(model.bodies[name], angular_velocity=(0.0, 0.0, 0.0))
    AddItem(builders.constant_torque("drive", "gear1_joint", torque)).do(model)
    res = simulate(model, t_end=0.01, compiled="off")
    ft, fr, fa, fc = (res.channel(f"pair.{q}")[-1] for q in ("Ft", "Fr", "Fa", "Fc"))
    speed = res.channel("gear1_joint.speed")[-1]
    assert math.copysign(1, speed) == math.copysign(1, torque)  # gear 1 turns the way its torque drives it
    assert math.copysign(1, ft) == -math.copysign(1, torque)  # and pushes back on its teeth: gear 1 drives
    assert fa == pytest.approx(ft * math.tan(math.radians(15)), rel=1e-3)  # beta_w = beta without profile shift
    assert fr > 0 and fc > 0 and fc == pytest.approx(math.sqrt(ft**2 + fr**2 + fa**2), rel=1e-12)


def test_the_scenes_tooth_force_parts_are_the_solvers_ft_fr_fa():
    """What Show Tooth Forces draws: the total force on gear 2 split along gear 1's tangent and axis has the sizes of
    the run's Ft, Fa and Fr channels, and the parts add up to the force."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(builders.constant_torque("drive", "gear1_joint", 10.0)).do(model)
    res = simulate(model, t_end=0.01, compiled="off")
    scene = Scene(model, res.bodies)
    ft = float(res.channel("pair.Ft")[-1])
    (point, parts), = scene.tooth_force_parts(res.positions[-1], res.orientations[-1], {"pair": ft}).values()
    (_, total), = scene.tooth_forces(res.positions[-1], res.orientations[-1], {"pair": ft}).values()
    for q in ("Ft", "Fr", "Fa"):
        assert np.linalg.norm(parts[q]) == pytest.approx(abs(res.channel(f"pair.{q}")[-1]), rel=1e-9), q
    assert np.allclose(parts["Ft"] + parts["Fr"] + parts["Fa"], total, rtol=0, atol=1e-9 * np.linalg.norm(total))
    assert abs(np.dot(parts["Ft"], parts["Fr"])) < 1e-9 * np.linalg.norm(total) ** 2
