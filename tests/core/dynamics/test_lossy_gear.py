"""Lossy gear pairs against Modelica's three LossyGear demonstrations, worked by hand, and the power balance.

The demonstrations are rebuilt as resources/examples/lossy_gear_demo1..3.gdyn.
Their reduced equations are written out here from Modelica's LossyGear
equations, independently of the engine (a massless gear between the two
inertias, tau_b + r (tau_a - tau_loss) = 0, tau_a = T1 - J1 w_a',
tau_b = T2 - J2 w_b', w_a = r w_b):

    rolling:  w_a' = (T2 + r k T1 - r sign(w_a) tau_bf) / (J2 / r + r k J1),
              k = eta_mf1 when gear 1 drives, 1 / eta_mf2 when gear 2 drives;
    at rest:  it holds tau_a + tau_b / r = T1 + T2 / r while that lies between
              the loss torques at w_a = 0- and 0+.
"""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from core.commands import ReplaceItem
from core.dynamics.formulations import assemble
from core.dynamics.run import prepare
from core.gearing.losses import BACKWARD, FORWARD, LossTable
from core.geometry.rotations import quat_about
from core.model import entities as E
from core.model.files import load
from core.errors import ModelError
from core.validation import validate

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
INTEGRATORS = [("dopri5", {}), ("dop853", {}), ("rk4", {"step": 1e-3, "t_end": 0.6}), ("generalized_alpha", {"step": 1e-3, "t_end": 0.6})]


def demo(k: int):
    return load(EXAMPLES / f"lossy_gear_demo{k}.gdyn")


def channel(res, name):
    return res.data[:, [c.name for c in res.channels].index(name)]


def switches(res):
    """(time, new mode) at each mode change recorded by the run (not the steps of the loads' laws)."""
    return [(t, name, note) for t, name, note in res.events if name.startswith("gear: ")]


def modes(res):
    """The sequence of modes the samples go through (repeats dropped)."""
    m = channel(res, "gear.mode")
    return [int(v) for k, v in enumerate(m) if k == 0 or v != m[k - 1]]


# --------------------------------------------------------------------------- the loss table


def test_loss_table_interpolates_and_holds_its_end_rows():
    table = LossTable([(2.0, 0.9, 0.8, 1.0, 2.0), (12.0, 0.7, 0.6, 3.0, 4.0)])
    mid = table.at(-7.0)  # |w_a|
    assert (mid.eta_mf1, mid.eta_mf2, mid.tau_bf1, mid.tau_bf2) == pytest.approx((0.8, 0.7, 2.0, 3.0), abs=1e-15)
    # beyond the rows the end rows hold: a table falling with speed never reaches 0, one rising never passes 1
    assert table.at(14.0).values == (0.7, 0.6, 3.0, 4.0) and table.at(0.0).values == (0.9, 0.8, 1.0, 2.0)
    rising = LossTable([(0.0, 0.90, 0.90, 0.0, 0.0), (100.0, 0.95, 0.95, 0.0, 0.0)])
    assert rising.at(1e6).values[:2] == (0.95, 0.95)
    single = LossTable([(0.0, 0.5, 0.5, 0.0, 0.0)]).at(123.0)
    assert (single.eta_mf1, single.tau_bf1) == (0.5, 0.0)


def test_bearing_split_and_holding_range_by_hand():
    # Demo3's row: tau_bf_a = (0.625 - 2.5) / (0.25 - 4) = 0.5 N m
    v = LossTable([(0.0, 0.25, 0.25, 0.625, 2.5)]).at(0.0)
    assert v.bearing_a == pytest.approx(0.5, abs=1e-15)
    # at rest under tau_a = 0: forwards tau_eta = -0.5 < 0, gear 2 would drive: (1 - 4) 0 + 2.5; backwards alike
    assert v.holding_range(0.0) == pytest.approx((-2.5, 2.5), abs=1e-15)
    # tau_a = 2: forwards tau_eta = 1.5 > 0, gear 1 drives: 0.75 * 2 + 0.625; backwards tau_eta = 2.5 > 0,
    # gear 2 drives: (1 - 4) * 2 - 2.5
    assert v.holding_range(2.0) == pytest.approx((-8.5, 2.125), abs=1e-15)


def test_holding_range_of_losses_at_gear_1s_side_of_a_compliant_mesh_by_hand():
    # the mesh passes on tau0 = 100 N m; eta_mf1 0.9, eta_mf2 0.8, no friction: forwards gear 1 drives and puts in
    # 100 / 0.9 (the loss 11.11); backwards it takes power back, gear 2 drives and gear 1 gets 0.8 * 100 (loss -20)
    v = LossTable([(0.0, 0.9, 0.8, 0.0, 0.0)]).at(0.0)
    assert v.mesh_holding_range(100.0) == pytest.approx((-20.0, 100.0 / 0.9 - 100.0), abs=1e-13)
    # bearing friction alone (2 N m either way) holds 2 N m either way, whatever the mesh passes on
    v = LossTable([(0.0, 1.0, 1.0, 2.0, 2.0)]).at(0.0)
    assert v.mesh_holding_range(100.0) == pytest.approx((-2.0, 2.0), abs=1e-13)
    assert v.mesh_holding_range(-37.0) == pytest.approx((-2.0, 2.0), abs=1e-13)


# --------------------------------------------------------------------------- LossyGearDemo3


@pytest.mark.parametrize("integrator,options", INTEGRATORS)
@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_demo3_decelerates_at_500_and_sticks_at_0_02_s(integrator, options, formulation):
    """Both shafts at 10 rad/s, no torque: rolling forwards with tau_a = tau_b = 0.5 N m (tau_eta = 0 exactly,
    the case of Modelica issue #108, where either driving side gives the same answer): from the forward
    quadrant 1 with r = 1, J = 0.001: -1.25 J w' = 0.625, w' = -500 rad/s^2, so it stops at 10 / 500 = 0.02 s.
    At rest it holds T1 + T2 = 0, and then 1 N m from the step at 0.5 s, inside [-2.5, 2.5] N m: it stays stuck."""
    res = prepare(demo(3), integrator=integrator, formulation=formulation, **options).run()
    assert res.status == "finished", res.message
    events = switches(res)
    assert len(events) == 1 and events[0][1] == "gear: stop" and events[0][2].startswith("stuck")
    assert events[0][0] == pytest.approx(0.02, abs=1e-9)
    assert modes(res) == [FORWARD, 0]
    t, w = res.time, channel(res, "gear.w_a")
    rolling = t < 0.02 - 1e-9
    np.testing.assert_allclose(w[rolling], 10.0 - 500.0 * t[rolling], rtol=0, atol=1e-9)
    assert np.abs(w[t > 0.02 + 1e-9]).max() < 1e-9
    np.testing.assert_allclose(channel(res, "gear.tau_a")[rolling], 0.5, atol=1e-9)
    np.testing.assert_allclose(channel(res, "gear.loss_power")[rolling], 1.0 * w[rolling], rtol=1e-9)
    after = t > 0.5 + 1e-9
    np.testing.assert_allclose(channel(res, "gear.tau_b")[after], 1.0, atol=1e-9)  # the step, held by the losses


def test_demo3_with_the_adaptive_generalised_alpha():
    res = prepare(demo(3), integrator="generalized_alpha_adaptive", rtol=1e-6, t_end=0.1).run()
    assert res.status == "finished", res.message
    assert [round(t, 7) for t, _, _ in res.events] == [0.02] and modes(res) == [FORWARD, 0]


# --------------------------------------------------------------------------- LossyGearDemo1


def demo1_by_hand():
    """Switch times of LossyGearDemo1 from the closed forms (T1 = 10 sin 2 pi t, T2 = -10 + 2.5 t, J1 1, J2 1.5,
    r 2, eta 0.5, no bearing friction; w(0) = 0).

    At t = 0 it holds T1 + T2 / 2 = -5 N m, below what it holds backwards (0): it rolls backwards, gear 2
    driving (k = 2): w' = (T2 + 4 T1) / 4.75. At rest with T1 > 0 it holds T1 + T2 / 2 between -T1 (backwards,
    gear 2 would drive) and T1 / 2 (forwards, gear 1 would drive): forwards when T1 + T2 = 0, backwards when
    2 T1 + T2 / 2 = 0. Rolling forwards, gear 1 drives (k = 1/2): w' = (T1 + T2) / 1.75.
    """
    w = 2 * math.pi

    def back(t):  # w_a from 0 at t = 0, rolling backwards
        return (-10 * t + 1.25 * t * t + 40 / w * (1 - math.cos(w * t))) / 4.75

    t1 = brentq(back, 0.01, 0.3, xtol=1e-14)
    t2 = brentq(lambda t: 10 * math.sin(w * t) - 10 + 2.5 * t, t1, 0.25, xtol=1e-14)

    def fwd_integral(t):
        return -10 * t + 1.25 * t * t - 10 / w * math.cos(w * t)

    t3 = brentq(lambda t: fwd_integral(t) - fwd_integral(t2), t2 + 1e-3, 0.45, xtol=1e-14)
    t4 = brentq(lambda t: 20 * math.sin(w * t) + (-10 + 2.5 * t) / 2, t3, 0.5, xtol=1e-14)
    return [t1, t2, t3, t4], back


@pytest.mark.parametrize("integrator,options", INTEGRATORS)
def test_demo1_modes_and_switch_times_by_hand(integrator, options):
    (t1, t2, t3, t4), back = demo1_by_hand()
    res = prepare(demo(1), integrator=integrator, **options).run()
    assert res.status == "finished", res.message
    assert modes(res) == [BACKWARD, 0, FORWARD, 0, BACKWARD]
    times = [t for t, _, _ in switches(res)]
    # dopri5 at steps up to 5 ms, located on the cubic Hermite interpolant, dop853 (the same steps) on its seventh-order one;
    # RK4 and generalised-alpha (order 2) at 1 ms
    tol = {"dopri5": 1e-8, "dop853": 1e-12, "rk4": 1e-7, "generalized_alpha": 1e-5}[integrator]
    np.testing.assert_allclose(times, [t1, t2, t3, t4], rtol=0, atol=tol)
    notes = [n for _, _, n in switches(res)]
    assert notes[0].startswith("stuck") and notes[1].startswith("starts forwards") and "gear 1 drives" in notes[1]
    assert notes[3].startswith("starts backwards") and "gear 2 drives" in notes[3]
    # each starts where its event found the torque to hold at a limit of what the losses hold
    assert "to hold, at the top of what the losses hold" in notes[1], notes[1]
    assert "to hold, at the bottom of what the losses hold" in notes[3], notes[3]
    t, w = res.time, channel(res, "gear.w_a")
    first = t < t1 - 1e-6
    np.testing.assert_allclose(w[first], [back(x) for x in t[first]], atol=tol)
    assert not [f for f in res.findings if "stuck" in f]  # it starts rolling: -5 N m is beyond what it holds


# --------------------------------------------------------------------------- LossyGearDemo2


def demo2_reference():
    """LossyGearDemo2 by the reduced equations, integrated here with solve_ivp and its own events.

    Bearing friction tau_f = 0.5 + 0.5 |w| on the input shaft is, in the loss table's columns,
    tau_bf1 = eta tau_f and tau_bf2 = tau_f / eta, and tau_bf_a = tau_f.
    """
    r, j1, j2, eta = 2.0, 1.0, 1.5, 0.5

    def torques(t):
        return 10 * math.sin(2 * math.pi * t), -10 + 2.5 * t

    def rolling_acc(t, w, direction):
        t1, t2 = torques(t)
        tf = 0.5 + 0.5 * abs(w)
        for k, bf, a_drives in ((eta, eta * tf, True), (1 / eta, tf / eta, False)):
            acc = (t2 + r * k * t1 - r * direction * bf) / (j2 / r + r * k * j1)
            tau_eta = (t1 - j1 * acc) - direction * tf
            if (direction * tau_eta >= 0) == a_drives:  # consistent driving side
                return acc
        raise AssertionError("no consistent driving side")

    def holding(t):
        t1, t2 = torques(t)
        high = 0.5 * t1 + 0.25 if t1 - 0.5 > 0 else -t1 + 1.0
        low = -t1 - 1.0 if t1 + 0.5 > 0 else 0.5 * t1 - 0.25
        return t1 + t2 / r, low, high

    t, w, mode, found = 0.0, 0.0, 0, []
    held, low, high = holding(0.0)
    mode = 1 if held > high else (-1 if held < low else 0)
    while t < 0.5:
        if mode == 0:
            ev_f = lambda tt, y: holding(tt)[0] - holding(tt)[2]  # noqa: E731
            ev_b = lambda tt, y: holding(tt)[0] - holding(tt)[1]  # noqa: E731
            ev_f.terminal = ev_b.terminal = True
            ev_f.direction, ev_b.direction = 1, -1
            sol = solve_ivp(lambda tt, y: [0.0], (t, 0.5), [0.0], events=[ev_f, ev_b], rtol=1e-12, atol=1e-14,
                            max_step=1e-3)  # events are seen between steps: at rest the steps would be long
            if sol.status != 1:
                break
            hit = 0 if len(sol.t_events[0]) else 1
            t, mode = float(sol.t_events[hit][0]), 1 if hit == 0 else -1
            found.append((t, mode))
        else:
            stop = lambda tt, y: y[0]  # noqa: E731
            stop.terminal, stop.direction = True, -mode
            sol = solve_ivp(lambda tt, y, m=mode: [rolling_acc(tt, y[0], m)], (t, 0.5), [w],
                            events=[stop], rtol=1e-12, atol=1e-14, method="DOP853", first_step=1e-6, max_step=1e-3)
            if sol.status != 1:
                break
            t, w = float(sol.t_events[0][0]), 0.0
            held, low, high = holding(t)
            mode = 1 if held > high else (-1 if held < low else 0)
            found.append((t, mode))
    return found


def test_demo2_against_the_reduced_equations():
    expected = demo2_reference()
    res = prepare(demo(2)).run()
    assert res.status == "finished", res.message
    assert modes(res) == [BACKWARD] + [m for _, m in expected]
    np.testing.assert_allclose([t for t, _, _ in switches(res)], [t for t, _ in expected], rtol=0, atol=1e-8)
    # with the bearing friction it sticks earlier and stays longer than Demo1
    (t1, t2, _, _), _ = demo1_by_hand()
    assert expected[0][0] < t1 and expected[1][0] > t2


# --------------------------------------------------------------------------- power balance


def kinetic_rate(system, t, y):
    """d(kinetic energy)/dt [W] from the bodies' velocities and accelerations at (t, y)."""
    _, rot, v, w = system.bodies(y)
    acc = system.accelerations(t, y)
    out = 0.0
    for k in range(system.n):
        jw = rot[k] @ system.asm.inertia[k] @ rot[k].T
        out += system.asm.mass[k] * v[k] @ acc[k, :3] + w[k] @ (jw @ acc[k, 3:])
    return out


def power_balance(model, steps: int, **settings):
    """Largest |P_in - P_out - P_loss - dKE/dt| over the run's step states, relative to the largest power."""
    run = prepare(model, **settings)
    system = run.system
    torques = [f for f in model.forces.values() if isinstance(f, E.Torque)]
    worst, scale, lossy_states = 0.0, 0.0, 0
    while run.advance(max_steps=1) and steps > 0:
        steps -= 1
        t, y = run.solver.t, run.solver.y
        ch = system.channels(t, y)
        external = sum(f.law(t) * ch[f"{f.joint}.speed [rad/s]"] for f in torques)
        loss = sum(ch[f"{p} [W]"] for p in (f"{n}.loss_power" for n in model.gear_pairs) if f"{p} [W]" in ch)
        lossy_states += loss > 0
        rate = kinetic_rate(system, t, y)
        worst = max(worst, abs(external - loss - rate))
        scale = max(scale, abs(external), abs(loss), abs(rate))
    return worst / scale, lossy_states


@pytest.mark.parametrize("k", [1, 2, 3])
def test_power_balance_of_the_demos(k):
    """Input power - output power - loss power = rate of kinetic energy, at every step's state."""
    worst, lossy = power_balance(demo(k), 500, integrator="rk4", step=1e-3)
    assert lossy > 15
    assert worst < 1e-6


def lossy_planetary(efficiency=0.95, friction=0.05):
    model = load(EXAMPLES / "planetary.gdyn")
    for p in list(model.gear_pairs.values()):
        model.gear_pairs[p.name] = dataclasses.replace(p, efficiency=efficiency, bearing_friction=friction)
    return model


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_power_balance_on_a_moving_carrier(formulation):
    """Every pair of the planetary set carries losses, measured relative to the turning carrier."""
    model = lossy_planetary()
    worst, lossy = power_balance(model, 60, formulation=formulation, t_end=0.06)
    assert lossy > 50
    assert worst < 1e-6
    res = prepare(model, formulation=formulation, t_end=0.06).run()
    kinetic, work, lost = (channel(res, f"energy.{q}") for q in ("kinetic", "work", "dissipated"))
    assert lost[-1] > 0.03 * work[-1]  # a real loss, not round-off
    np.testing.assert_allclose(kinetic + lost - work, 0.0, atol=1e-6 * work[-1])
    assert set(channel(res, "sun_planet1.mode")) == {1.0}


def test_losses_slow_the_planetary_as_the_efficiency_says():
    """With only mesh efficiency eta on a set whose ring is held, the sun's torque reaching the carrier through
    the sun-planet and planet-ring meshes is scaled by eta twice in the carrier's frame; the carrier's final speed
    against the lossless one is between eta^2 and 1."""
    base = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.1).run()
    lossy = prepare(lossy_planetary(0.9, 0.0), t_end=0.1).run()
    w0 = channel(base, "carrier.wz")[-1]
    w1 = channel(lossy, "carrier.wz")[-1]
    assert 0.81 * w0 < w1 < w0


def test_compliant_mesh_with_losses():
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    pair = model.gear_pairs["pair"]
    model.gear_pairs["pair"] = dataclasses.replace(pair, loss_table=((0.0, 0.98, 0.97, 0.5, 0.6),
                                                                     (200.0, 0.96, 0.95, 1.0, 1.2)))
    # the mesh's spring and damper store and take energy too: the balance over the run, from the energy channels
    res = prepare(model, t_end=0.01).run()
    kinetic, potential, work, taken = (channel(res, f"energy.{q}") for q in ("kinetic", "potential", "work",
                                                                               "dissipated"))
    lossless = dataclasses.replace(model.gear_pairs["pair"], loss_table=())
    model2 = model.copy()
    model2.gear_pairs["pair"] = lossless
    damper = channel(prepare(model2, t_end=0.01).run(), "energy.dissipated")
    assert taken[-1] - damper[-1] > 2.0  # J: the losses, beside the damper's
    balance = kinetic + potential + taken - work
    np.testing.assert_allclose(balance - balance[0], 0.0, atol=1e-6 * taken[-1])
    # gear 1 drives at about 100 rad/s: eta ~ 0.97 and tau_bf ~ 0.75 N m of the 100 N m drive, about 3.8 % of 10 kW
    loss = channel(res, "pair.loss_power")
    assert 250.0 < loss[-1] < 500.0
    assert set(channel(res, "pair.driving")) == {1.0}


# --------------------------------------------------------------------------- the shortcut and the messages


def test_constant_efficiency_is_a_one_row_table():
    model = demo(1)
    pair = model.gear_pairs["gear"]
    table = prepare(model, t_end=0.3).run()
    model.gear_pairs["gear"] = dataclasses.replace(pair, loss_table=(), efficiency=0.5)
    shortcut = prepare(model, t_end=0.3).run()
    np.testing.assert_array_equal(channel(table, "gear.w_a"), channel(shortcut, "gear.w_a"))
    both = dataclasses.replace(pair, efficiency=0.9)
    assert ("efficiency", "give either a loss table or a constant efficiency and bearing friction, not both") \
        in both.problems()
    assert any(field == "efficiency" for field, _ in dataclasses.replace(pair, loss_table=(), efficiency=1.5).problems())


def test_a_run_that_starts_stuck_says_why():
    model = demo(3)
    for name in ("input", "output"):
        model.bodies[name] = dataclasses.replace(model.bodies[name], angular_velocity=(0.0, 0.0, 0.0))
    run = prepare(model, t_end=0.6)
    assert len(run.results.findings) == 1
    finding = run.results.findings[0]
    assert finding.startswith("gear starts stuck") and "losses hold -2.5 to 2.5 N m at rest" in finding
    res = run.run()
    assert set(channel(res, "gear.mode")) == {0.0}


def test_bad_tables_name_row_and_column():
    pair = demo(1).gear_pairs["gear"]
    bad = dataclasses.replace(pair, loss_table=((0.0, 0.5, 1.2, 0.0, 0.0), (0.0, 0.5, 0.5, -1.0, 0.0)))
    messages = [m for _, m in bad.problems()]
    assert any(m.startswith("row 1, eta_mf2: an efficiency must be above 0 and at most 1") for m in messages)
    assert any(m.startswith("row 2, |w_a| [rad/s]: speeds must be at least 0 and above the row before") for m in messages)
    model = demo(1)
    with pytest.raises(ModelError, match=r"loss_table\[0\]: row 1 has 2 values; a row holds 5"):
        ReplaceItem(model, "gear", dataclasses.replace(pair, loss_table=((0.0, 0.5),))).do(model)
    assert model.gear_pairs["gear"] == pair  # the model stays as it was


def test_examples_validate_without_warnings_about_losses():
    for k in (1, 2, 3):
        assert not [f for f in validate(demo(k)) if "loss" in str(f)]
    system = assemble(demo(1))
    assert [e.name for e in system.elements if type(e).MODES] == ["gear"]
    assert system.describe()["system"]["constraint_rows"] >= 1


def test_cli_lists_the_mode_changes(tmp_path):
    out = subprocess.run([sys.executable, "-m", "core.cli", "simulate", str(EXAMPLES / "lossy_gear_demo3.gdyn"),
                          "--out", str(tmp_path / "d3.csv")], capture_output=True, text=True, check=True).stdout
    assert "event: t = 0.02 s, gear: stop: stuck: it holds 0 N m (the losses hold -2.5 to 2.5 N m at rest)" in out


@pytest.mark.parametrize("example", ["bevel_pair", "helical_pair", "inner_pair"])
@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_power_balance_on_every_pair_kind(example, formulation):
    """The reported loss power is what the scaled tooth forces and the friction couple take, whatever the kind: the
    tooth force's radial and axial parts (bevel thrust, helical Fa) turn neither gear."""
    model = load(EXAMPLES / f"{example}.gdyn")
    model.gear_pairs["pair"] = dataclasses.replace(model.gear_pairs["pair"], efficiency=0.9, bearing_friction=0.01)
    worst, lossy = power_balance(model, 40, formulation=formulation, t_end=0.04)
    assert lossy >= 39
    assert worst < 1e-6


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_lossy_pair_on_a_gear_welded_to_its_shaft_runs_as_the_demo(formulation):
    """LossyGearDemo1 with its input split into a shaft (J 0.6 kg m^2) on the joint and a pinion (J 0.4, turned
    over) welded to it that carries the teeth (the pair's gear1): the same rotor, so the same speeds and modes."""
    demo = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    split = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    shaft = split.bodies["input"]
    split.bodies["input"] = dataclasses.replace(shaft, mass=0.6 * shaft.mass, inertia=tuple(
        tuple(0.6 * v for v in row) for row in shaft.inertia))
    split.bodies["pinion"] = dataclasses.replace(shaft, name="pinion", mass=0.4 * shaft.mass, inertia=tuple(
        tuple(0.4 * v for v in row) for row in shaft.inertia), orientation=tuple(quat_about((1, 0, 0), math.pi)))
    # upside down: the joint's axis is -z in the pinion's axes, which the pair reads its gear by
    split.joints["key"] = E.FixedJoint("key", "input", "pinion", shaft.position)
    split.gear_pairs["gear"] = dataclasses.replace(split.gear_pairs["gear"], gear1="pinion")
    runs = [prepare(m, formulation=formulation).run() for m in (demo, split)]
    assert [r.status for r in runs] == ["finished", "finished"]
    for channel in ("input_joint.speed", "output_joint.speed", "gear.mode"):
        assert np.abs(runs[0].channel(channel) - runs[1].channel(channel)).max() < 1e-7, channel
    assert len({r.channel("gear.mode")[-1] for r in runs}) == 1 and len(set(runs[0].channel("gear.mode"))) == 3
