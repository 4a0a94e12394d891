"""The joint-coordinate fast path (constant matrices of a gear train) against the general path.

The general path (JointCoordinateSystem(model, fast_path=False)) builds the
kinematics, the Cartesian mass, every constraint's blocks and the multipliers
at each call; the fast path uses the matrices computed once at assembly. Both
must give the same rate to round-off on random states (angles, rates, the
extra states: TE, phase and motor errors, spring angles) at random times.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.commands import AddItem, SetSettings, replace_fields
from core.dynamics.joint_coordinates import JointCoordinateSystem
from core.model.entities import TimeLaw, Torque, TorsionalSpringDamper
from core.model.files import load
from tests.conftest import EXAMPLES

# which examples the fast path covers, and why the others keep the general path
COVERED = {"bevel_pair", "compliant_mesh_pair", "helical_pair", "inner_pair", "planetary"}
REASONS = {"lossy_gear_demo1": "lossy gear pair", "lossy_gear_demo2": "lossy gear pair",
           "lossy_gear_demo3": "lossy gear pair"}


def examples():
    return sorted(EXAMPLES.glob("*.gdyn"))


def random_states(system, count, seed):
    rng = np.random.default_rng(seed)
    y0 = system.initial_state()
    sp = system.space
    for _ in range(count):
        y = y0.copy()
        y[sp.q] = rng.uniform(-20.0, 20.0, system.nq)
        y[sp.qd] = rng.normal(scale=50.0, size=system.nq)
        y[sp.e] = rng.normal(scale=1e-5, size=system.extra)  # TE, phase and motor errors are small
        yield float(rng.uniform(0.0, 1.0)), y


def compare(model, count=40, seed=1):
    fast, plain = JointCoordinateSystem(model), JointCoordinateSystem(model, fast_path=False)
    assert fast.fast_path is not None, fast.fast_path_note
    worst = 0.0
    for t, y in random_states(fast, count, seed):
        a, b = fast.evaluate(t, y), plain.evaluate(t, y)
        worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
        pa, pb = fast.onto_constraints(t, y), plain.onto_constraints(t, y)
        worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    return worst, fast


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.stem)
def test_fast_path_agrees_with_the_general_path_on_random_states(path):
    model = load(path)
    system = JointCoordinateSystem(model)
    if path.stem not in COVERED:
        assert system.fast_path is None
        assert REASONS[path.stem] in system.fast_path_note
        return
    worst, fast = compare(model)
    assert worst < 1e-12, worst
    if fast.rows:
        # the random states put gear rows on both flanks: each set of flanks has its own matrices
        assert len(fast.fast_path._k) > 1


def compare_samples(model, count=12, seed=4, together=False):
    """Worst difference of every output channel (joint reactions, tooth forces, energies, poses) between the
    fast and the general path on random states, relative to that channel's largest value there; channels that
    are round-off on both (below 1e-9 of the largest of their unit) left out. `together`: the fast path works
    all the samples out in one call (System.samples), the general path one by one."""
    fast, plain = JointCoordinateSystem(model), JointCoordinateSystem(model, fast_path=False)
    assert fast.fast_path is not None and fast.fast_path.outputs_covered
    states = list(random_states(fast, count, seed))
    want = np.array([np.concatenate(plain.sample(t, y), axis=None) for t, y in states])
    if together:
        values, pos, quat = fast.samples(np.array([t for t, _ in states]), np.array([y for _, y in states]))
        assert values.shape[0] == pos.shape[0] == quat.shape[0] == count
        got = np.hstack([values, pos.reshape(count, -1), quat.reshape(count, -1)])
    else:
        got = np.array([np.concatenate(fast.sample(t, y), axis=None) for t, y in states])
    units = [c.unit for c in plain.outputs(0.0, fast.initial_state()).channels]
    units += ["m"] * (3 * fast.n) + ["1"] * (4 * fast.n)  # the poses: origins and quaternions
    scale = np.abs(want).max(axis=0)
    unit_max = {u: max(s for s, v in zip(scale, units) if v == u) for u in set(units)}
    # a torque that is zero but for round-off (about a free joint's axis) is round-off of force times lever
    unit_max["N m"] = max(unit_max.get("N m", 0.0), unit_max.get("N", 0.0) * unit_max.get("m", 0.0))
    kept = np.array([s > 1e-9 * unit_max[u] for s, u in zip(scale, units)])
    return float((np.abs(got - want).max(axis=0)[kept] / scale[kept]).max())


@pytest.mark.parametrize("name", sorted(COVERED))
def test_output_samples_from_the_fast_path_agree_with_the_general_path(name):
    worst = compare_samples(load(EXAMPLES / f"{name}.gdyn"))
    assert worst < 1e-12, worst


@pytest.mark.parametrize("name", sorted(COVERED))
def test_many_output_samples_at_once_agree_with_the_general_path_one_by_one(name):
    worst = compare_samples(load(EXAMPLES / f"{name}.gdyn"), together=True)
    assert worst < 1e-12, worst


def test_time_varying_planetary_with_a_damped_carrier():
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "sun_torque", law=TimeLaw(kind="sine", value=1.0, amplitude=0.5, frequency=20.0)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.1, t_end=0.6)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002)).do(model)
    worst, _ = compare(model, seed=2)
    assert worst < 1e-12, worst
    worst = compare_samples(model, seed=5)
    assert worst < 1e-12, worst
    worst = compare_samples(model, seed=6, together=True)
    assert worst < 1e-12, worst


def test_a_planet_off_its_axis_keeps_the_general_path():
    # a planet whose mass centre is 1 mm off its axis: its orbit changes the joint mass matrix as it turns
    model = load(EXAMPLES / "planetary.gdyn")
    planet = model.bodies["planet1"]
    model.bodies["planet1"] = dataclasses.replace(planet, com=(planet.com[0] + 1e-3, *planet.com[1:]))
    system = JointCoordinateSystem(model)
    assert system.fast_path is None
    assert "change with the configuration" in system.fast_path_note or "velocity terms" in system.fast_path_note


def test_inspect_says_whether_the_fast_path_is_taken_and_why_not():
    import subprocess
    import sys

    def inspect(name):
        res = subprocess.run([sys.executable, "-m", "core.cli", "inspect", str(EXAMPLES / f"{name}.gdyn")],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        return res.stdout

    assert "fast path: on" in inspect("planetary")
    assert "fast path: off: lossy gear pair 'gear'" in inspect("lossy_gear_demo1")


def test_a_long_train_takes_the_sparse_form_and_agrees():
    # 96 stages: above System's dense limit, so the fast path solves one sparse KKT matrix per set of flanks
    from tests.benchmarks.bench_gear_train_scaling import gear_train

    model = gear_train(96)
    fast, plain = JointCoordinateSystem(model), JointCoordinateSystem(model, fast_path=False)
    assert fast.sparse and fast.fast_path is not None and fast.fast_path.kkt, fast.fast_path_note
    assert not fast.fast_path.outputs_covered  # its samples take the general path
    worst = 0.0
    for t, y in random_states(fast, 5, seed=3):
        a, b = fast.evaluate(t, y), plain.evaluate(t, y)
        worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
        pa, pb = fast.onto_constraints(t, y), plain.onto_constraints(t, y)
        worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    assert worst < 1e-12, worst


def with_gravity(model, gravity):
    SetSettings(model, dataclasses.replace(model.settings, gravity=gravity)).do(model)
    return model


def test_gravity_across_the_axes_keeps_the_fast_path_only_where_it_does_no_work():
    """Gravity across the axes does no work on gears whose mass centres stay put (the bevel pair's shafts at
    right angles, the helical pair's fixed shafts), nor on the carrier of three equal planets at 120 deg (their
    common mass centre is on its axis): the fast path holds there, its rates and reactions the general path's.
    A heavier planet 1 moves that mass centre off the axis: gravity then turns the carrier, and the general
    path is kept (the mass matrix alone would not tell: m r^2 about the carrier stays constant)."""
    for name in ("bevel_pair", "helical_pair", "planetary"):
        model = with_gravity(load(EXAMPLES / f"{name}.gdyn"), (3.0, -9.81, 2.0))
        worst, fast = compare(model, seed=21)
        assert worst < 1e-12, (name, worst)
        worst = compare_samples(model, seed=22)
        assert worst < 1e-12, (name, worst)
    model = with_gravity(load(EXAMPLES / "planetary.gdyn"), (0.0, -9.81, 0.0))
    planet = model.bodies["planet1"]
    model.bodies["planet1"] = dataclasses.replace(planet, mass=2.0 * planet.mass)
    system = JointCoordinateSystem(model)
    assert system.fast_path is None and "gravity acts on the coordinates" in system.fast_path_note, \
        system.fast_path_note
    model = with_gravity(model, (0.0, 0.0, -9.81))  # along the axes: no work
    assert JointCoordinateSystem(model).fast_path is not None


def loaded_bevel_pair():
    """The bevel example (it spins free) with a time-varying torque driving the pinion against a spring-damper
    on the gear: its tooth forces, with their axial and radial parts on the bearings, are loaded."""
    model = load(EXAMPLES / "bevel_pair.gdyn")
    AddItem(Torque("drive", "pinion_joint", law=TimeLaw(kind="sine", value=20.0, amplitude=30.0,
                                                          frequency=15.0))).do(model)
    AddItem(TorsionalSpringDamper("load", "gear_joint", stiffness=50.0, damping=0.3)).do(model)
    return model


def test_a_loaded_bevel_pair_on_its_fixed_shafts():
    """Shafts at right angles: the fast path's matrices hold there too, on both flanks."""
    model = loaded_bevel_pair()
    worst, fast = compare(model, seed=23)
    assert worst < 1e-12, worst
    assert len(fast.fast_path._k) > 1  # both flanks met
    worst = compare_samples(model, seed=24)
    assert worst < 1e-12, worst
