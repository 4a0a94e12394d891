"""The constant matrices of joint coordinates against the general path, and the models they must refuse.

The general path (JointSystem(..., constant=False)) works out the tree's kinematics, every element's rows and
ports and the mass matrix at each call; the constant-matrix path takes them from assembly. Where assembly
finds them constant, both must give the same rates and projections to 1e-12 on random states (on both flanks
of the gear rows) of every example it takes, of variants with every kind of time law, springs, motors,
compliant meshes with backlash and gravity, and of a long train; where the argument does not hold (a mass
centre off its axis on a moving carrier, gravity that works on a coordinate, a lossy pair's efficiency that
changes with speed) the general path is kept and the reason said. A lossy pair's matrices are made again in
each of its modes, and agree there too.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.commands import AddItem, SetSettings, replace_fields
from core.dynamics.formulations.joint import JointSystem
from core.dynamics.program.linker import program
from core.model.entities import CompliantMesh, TimeLaw, Torque, TorsionalSpringDamper
from core.model.files import load
from tests.benchmarks.bench_gear_train_scaling import gear_train
from tests.conftest import EXAMPLES

CONSTANT = ("bevel_pair", "compliant_mesh_pair", "helical_pair", "inner_pair", "planetary")


def systems(model):
    """The model in joint coordinates by the constant matrices (where assembly finds them) and by the general path."""
    code = program(False)
    return JointSystem(model, code), JointSystem(model, code, constant=False)


def random_states(system, count, seed):
    rng = np.random.default_rng(seed)
    sp = system.space
    for _ in range(count):
        y = system.initial_state()
        y[sp.q] = rng.uniform(-20.0, 20.0, system.nq)
        y[sp.qd] = rng.normal(scale=50.0, size=system.nq)
        y[sp.e] = rng.normal(scale=1e-5, size=system.extra)  # TE, phase and motor errors are small
        yield float(rng.uniform(0.0, 1.0)), y


def worst_difference(model, count=20, seed=1):
    """The largest difference of rates and projections, relative to their size, between the two paths."""
    constant, general = systems(model)
    assert constant.constant_note == "constant matrices", constant.constant_note
    worst = 0.0
    for t, y in random_states(general, count, seed):
        a, b = constant.evaluate(t, y), general.evaluate(t, y)
        worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
        pa, pb = constant.onto_constraints(t, y), general.onto_constraints(t, y)
        worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    return worst


@pytest.mark.parametrize("name", CONSTANT)
def test_the_constant_matrices_give_the_general_paths_rates_on_random_states(name):
    assert worst_difference(load(EXAMPLES / f"{name}.gdyn")) < 1e-12


def test_every_time_law_a_spring_and_a_motor():
    model = load(EXAMPLES / "planetary.gdyn")
    table = ((0.0, 1.0), (0.3, 2.5), (0.7, -0.5), (1.0, 0.0))
    replace_fields(model, "sun_torque", law=TimeLaw(kind="table", table=table)).do(model)
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.1, t_end=0.6)).do(model)
    AddItem(TorsionalSpringDamper("carrier_load", "carrier_joint", stiffness=3.0, damping=0.002, angle0=0.2)).do(model)
    AddItem(Torque("pulse", "carrier_joint", law=TimeLaw(kind="step", value=0.5, final=-0.2, t_start=0.4))).do(model)
    AddItem(Torque("hum", "sun_joint", law=TimeLaw(kind="sine", value=0.1, amplitude=0.3, frequency=40.0))).do(model)
    assert worst_difference(model) < 1e-12


@pytest.mark.parametrize("waveform", ["involute", "rectangular", "cosine"])
def test_a_compliant_mesh_with_backlash_and_each_waveform(waveform):
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    mesh = model.forces["mesh"]
    given = dict(stiffness="given", k_amplitude=0.3 * mesh.k_mean) if waveform == "cosine" else {}
    model.forces["mesh"] = dataclasses.replace(mesh, waveform=waveform, backlash=40e-6, **given)
    assert worst_difference(model) < 1e-12


def test_a_loaded_bevel_pair_on_its_fixed_shafts():
    model = load(EXAMPLES / "bevel_pair.gdyn")
    AddItem(Torque("drive", "pinion_joint", law=TimeLaw(kind="sine", value=20.0, amplitude=30.0,
                                                          frequency=15.0))).do(model)
    AddItem(TorsionalSpringDamper("load", "gear_joint", stiffness=50.0, damping=0.3)).do(model)
    assert worst_difference(model) < 1e-12


def with_gravity(model, gravity):
    SetSettings(model, dataclasses.replace(model.settings, gravity=gravity)).do(model)
    return model


def test_gravity_keeps_the_constant_matrices_only_where_it_does_no_work():
    """Gravity across the axes does no work on gears whose mass centres stay put (the bevel pair's shafts at
    right angles, the helical pair's fixed shafts), nor on the carrier of three equal planets at 120 deg (their
    common mass centre is on its axis). A heavier planet 1 moves that mass centre off the axis: gravity then
    turns the carrier, and the general path is kept (the mass matrix alone would not tell)."""
    for name in ("bevel_pair", "helical_pair", "planetary"):
        assert worst_difference(with_gravity(load(EXAMPLES / f"{name}.gdyn"), (3.0, -9.81, 2.0)), seed=21) < 1e-12
    model = with_gravity(load(EXAMPLES / "planetary.gdyn"), (0.0, -9.81, 0.0))
    planet = model.bodies["planet1"]
    model.bodies["planet1"] = dataclasses.replace(planet, mass=2.0 * planet.mass)
    constant, _ = systems(model)
    assert constant.constant_note == ("assembled at every evaluation: gravity acts on the coordinates (across the "
                                      "axes of a moving mass centre)")
    assert systems(with_gravity(model, (0.0, 0.0, -9.81)))[0].constant_note == "constant matrices"  # along the axes


def test_a_planet_off_its_axis_keeps_the_general_path():
    # a planet whose mass centre is 1 mm off its axis: its orbit changes the joint mass matrix as it turns
    model = load(EXAMPLES / "planetary.gdyn")
    planet = model.bodies["planet1"]
    model.bodies["planet1"] = dataclasses.replace(planet, com=(planet.com[0] + 1e-3, *planet.com[1:]))
    note = systems(model)[0].constant_note
    assert note.startswith("assembled at every evaluation: ")
    assert "change with the state" in note or "velocity" in note


@pytest.mark.parametrize("name", ["lossy_gear_demo1", "lossy_gear_demo2", "lossy_gear_demo3"])
def test_a_lossy_pair_takes_constant_matrices_made_again_in_each_of_its_modes(name):
    # the lock row is off while the pair rolls, and the mesh factor differs by the driving side: the matrices are
    # made again at each mode change, and in every mode they give the general path's rates and projections
    constant, general = systems(load(EXAMPLES / f"{name}.gdyn"))
    assert constant.constant_note == "constant matrices, made again at each mode change"
    pair = next(e for e in constant.elements if type(e).MODES)
    worst, made = 0.0, set()
    for state in pair.states():
        for system in (constant, general):
            system.kernel.disc[pair.disc0:pair.disc0 + len(state)] = state
            system.rows_changed(0.0, system.initial_state())
        made.add(id(constant.kernel.fb))
        for t, y in random_states(general, 5, 2):
            a, b = constant.evaluate(t, y), general.evaluate(t, y)
            worst = max(worst, float(np.abs(a - b).max() / np.abs(b).max()))
            pa, pb = constant.onto_constraints(t, y), general.onto_constraints(t, y)
            worst = max(worst, float(np.abs(pa - pb).max() / np.abs(pb).max()))
    assert worst < 1e-12 and len(made) == len(pair.states())


def test_a_lossy_pair_whose_efficiency_changes_with_speed_keeps_the_general_path_and_says_why():
    model = load(EXAMPLES / "lossy_gear_demo1.gdyn")
    replace_fields(model, "gear", loss_table=((0.0, 0.5, 0.5, 0.0, 0.0), (10.0, 0.9, 0.9, 0.0, 0.0))).do(model)
    note = systems(model)[0].constant_note
    assert note == "assembled at every evaluation: the constraint forces change with the state"


def test_a_soft_pair_on_a_planet_carrier_keeps_the_constant_matrices():
    # a compliant mesh on every sun-planet pair: the meshes' force rows turn with the carrier, the coordinates'
    # rows do not change
    model = load(EXAMPLES / "planetary.gdyn")
    for k in (1, 2, 3):
        AddItem(CompliantMesh(f"mesh{k}", f"sun_planet{k}", stiffness="given", k_mean=1e8)).do(model)
    assert worst_difference(model, count=10) < 1e-12


def test_a_long_train_takes_the_constant_matrices_and_agrees():
    assert worst_difference(gear_train(64), count=5, seed=3) < 1e-12


def test_inspect_says_which_path_the_rates_take_and_why():
    import subprocess
    import sys

    def inspect(name):
        res = subprocess.run([sys.executable, "-m", "core.cli", "inspect", str(EXAMPLES / f"{name}.gdyn")],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        return res.stdout

    assert "rates: constant matrices" in inspect("planetary")
    assert "rates: constant matrices, made again at each mode change" in inspect("lossy_gear_demo1")
    assert "rates: assembled at every evaluation" in inspect("compliant_planetary")  # Cartesian: it said nothing
