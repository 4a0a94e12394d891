"""The compiled output sample of a parallel-axis train (core.dynamics.fast_path_sample) against the general path.

Trains whose axes are not all parallel (the bevel pair) keep the Python samples of the fast path.

The reference is the general joint-coordinate path's sample (JointCoordinateSystem(model, fast_path=False):
the tree's kinematics by composed rotations, every constraint's blocks and the multipliers, Newton-Euler on
the subtrees in numpy), not the planar picture the kernel uses: on random states of every example the fast
path covers, and of a variant with every kind of time law, a spring-damper and a speed motor, each channel,
origin and orientation must agree to round-off.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.commands import AddItem, SetSettings
from core.dynamics.joint_coordinates import JointCoordinateSystem
from core.dynamics.run import prepare
from core.model.entities import CompliantMesh
from core.model.files import load
from tests.conftest import EXAMPLES
from tests.core.dynamics.test_fast_path_kernel import planetary_with_every_law
from tests.core.dynamics.test_generalized_alpha import time_varying_planetary
from tests.core.dynamics.test_joint_fast_path import COVERED, random_states

pytest.importorskip("numba")


ZERO = 1e-13  # [SI]: a unit whose every channel is zero (a pair without load) holds its round-off to this


def worst_against_general(model, count=25, seed=5):
    """Worst differences of the compiled samples from the general path's on random states: of a channel
    relative to the largest channel of its unit (where every channel of a unit is zero, each within ZERO of
    it), of an origin relative to the largest, of an orientation (1 - |q . q'|)."""
    compiled, plain = JointCoordinateSystem(model), JointCoordinateSystem(model, fast_path=False)
    assert compiled.compile() is None
    assert compiled.sampler is not None, compiled.sampler_note
    units = np.array([c.unit for c in plain.outputs(0.0, plain.initial_state()).channels])
    channel = origin = turn = 0.0
    for t, y in random_states(compiled, count, seed):
        mine, theirs = compiled.sample(t, y), plain.sample(t, y)
        for u in set(units):
            of = units == u
            size, off = np.abs(theirs[0][of]).max(), np.abs(mine[0][of] - theirs[0][of]).max()
            if size < ZERO:
                assert off < ZERO, (u, off)
            else:
                channel = max(channel, float(off / size))
        origin = max(origin, float(np.abs(mine[1] - theirs[1]).max() / np.abs(theirs[1]).max()))
        turn = max(turn, float(np.abs(1.0 - np.abs(np.sum(mine[2] * theirs[2], axis=1))).max()))
    return channel, origin, turn


PLANAR = COVERED - {"bevel_pair"}  # the examples whose revolute axes are all parallel


@pytest.mark.parametrize("name", sorted(PLANAR))
def test_compiled_samples_are_the_general_paths_on_random_states(name):
    channel, origin, turn = worst_against_general(load(EXAMPLES / f"{name}.gdyn"))
    assert channel < 1e-12 and origin < 1e-12 and turn < 1e-14, (channel, origin, turn)


def test_a_train_whose_axes_are_not_parallel_keeps_the_python_samples():
    """The bevel pair's rates are compiled, but the planar picture turns every body about one axis: its samples
    stay in Python (the fast path's), and the run says so."""
    system = JointCoordinateSystem(load(EXAMPLES / "bevel_pair.gdyn"))
    assert system.compile() is None and system.kernel is not None
    assert system.sampler is None and "not all parallel" in system.sampler_note


def test_every_time_law_a_spring_and_a_motor():
    channel, origin, turn = worst_against_general(planetary_with_every_law(), seed=9)
    assert channel < 1e-12 and origin < 1e-12 and turn < 1e-14, (channel, origin, turn)


def test_a_compliant_mesh_on_a_carrier_under_gravity_along_the_axes():
    """The force elements' loads in the compiled sample turn with their carriers: a planetary whose first
    sun-planet pair is a compliant mesh (its tooth force moves round with the carrier), with a spring-damper
    and gravity along the axes (their loads and potential energy), against the general path."""
    model = planetary_with_every_law()
    AddItem(CompliantMesh("soft", "sun_planet1", stiffness="given", k_mean=2e8, k_amplitude=5e7,
                          waveform="cosine", damping_model="constant", damping=300.0)).do(model)
    SetSettings(model, dataclasses.replace(model.settings, gravity=(0.0, 0.0, -9.81))).do(model)
    system = JointCoordinateSystem(model)
    assert system.fast_path is not None and any(type(f).__name__ == "CompliantMesh" for f in system.forces)
    channel, origin, turn = worst_against_general(model, seed=17)
    assert channel < 1e-12 and origin < 1e-12 and turn < 1e-14, (channel, origin, turn)


def test_a_run_with_one_sample_at_its_end_gives_the_python_runs():
    """The time-varying planetary of the Exudyn benchmark, RK4, its only samples at 0 and 1 s: the compiled
    run's last sample (from the kernel) against the Python run's (the Python fast path's sample)."""
    model = time_varying_planetary()
    runs = [prepare(model, t_end=1.0, step=0.03, output_step=1.0, integrator="rk4", formulation="joint",
                    compiled=c) for c in ("on", "off")]
    assert runs[0].system.sampler is not None and runs[1].system.sampler is None
    a, b = (r.run() for r in runs)
    assert a.status == b.status == "finished" and len(a) == len(b) == 2
    units = np.array([c.unit for c in a.channels])
    for u in set(units):
        of = units == u
        assert np.abs(a.data[:, of] - b.data[:, of]).max() <= 1e-12 * np.abs(b.data[:, of]).max() + ZERO, u
    assert np.abs(a.positions - b.positions).max() <= 1e-15
