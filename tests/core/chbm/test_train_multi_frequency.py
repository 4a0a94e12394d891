"""A train whose meshes run at different frequencies, by harmonic balance over its common period, against Newmark.

The two-stage reducer example: stage 1 (20/40) and stage 2 (18/45 on the second gear's shaft) mesh at
frequencies 20 : 9, so the train's period holds 20 mesh periods of stage 1 and 9 of stage 2
(core.chbm.train_model.TrainModel.common_orders). Newmark integrates the same lumped model in time to its
periodic steady state: an independent method for the same equations. The lumped model against the multibody
engine on a reducer is in test_train_against_multibody.py.
"""

import dataclasses
import math

import numpy as np
import pytest

from core.chbm.continuation import TANGLE_FOLDS, ContinuationError, follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.newmark import NewmarkIntegrator
from core.chbm.stability import floquet_multipliers
from core.chbm.train_from_model import train_from_model
from core.chbm.train_study import contact_lost, mesh_forces, period_forces, unstable_spans
from core.commands import AddItem
from core.gearing.compound import stage_on_shaft
from core.model.entities import GROUND, CompliantMesh, GearPair
from core.model.files import load
from tests.conftest import EXAMPLES
from tests.core.chbm.conftest import period_map_multiplier


def reducer(backlash: float = 0.0):
    """The example's lumped train; with `backlash` [m] on both meshes (the compliant mesh's defaults besides)."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    if backlash:
        for pair in list(model.gear_pairs):
            model.forces[f"{pair}_mesh"] = CompliantMesh(f"{pair}_mesh", pair, backlash=backlash)
    return train_from_model(model)


def _against_newmark(train, frequency: float, harmonics: int = 200, steps: int = 256) -> tuple[float, np.ndarray]:
    """The largest relative difference of each mesh force's half peak-to-peak and mean between the HB solution
    (by default 200 harmonics of the train's period: 10 of stage 1's) and Newmark's steady state with `steps` steps
    per period of the highest natural frequency, and where Newmark's meshes lost contact over its period."""
    run = NewmarkIntegrator(train.lumped, min_steps_per_natural=steps).run(frequency, max_periods=400)
    assert run.converged, frequency
    ref = mesh_forces(train, np.roll(run.x, 1, axis=0), np.roll(run.velocity, 1, axis=0))
    hb, z = _solved(train, frequency, harmonics)
    ours = period_forces(train, hb, z, frequency, ref.shape[1])
    half = np.ptp(ours, axis=1) / np.ptp(ref, axis=1) - 1
    mean = ours.mean(axis=1) / ref.mean(axis=1) - 1
    return float(max(np.abs(half).max(), np.abs(mean).max())), contact_lost(train, np.roll(run.x, 1, axis=0))


def _solved(train, frequency: float, harmonics: int, coarse: int = 200) -> tuple[HarmonicBalance, np.ndarray]:
    """The HB solution with `harmonics` at `frequency` [Hz]: by Newton from the static deflection with at most
    `coarse` harmonics, then, with more, from that solution padded with zeros. It is the same solution: at 1500
    Hz with backlash, 600 harmonics from the static deflection took 41 iterations (22 s) and land within 1e-15 of
    it, reached in 28 + 5 (5 s)."""
    first = HarmonicBalance(train.lumped, min(harmonics, coarse))
    z, _, ok = first.solve(2 * math.pi * frequency, first.static_guess())
    assert ok, frequency
    if harmonics <= coarse:
        return first, z
    hb = HarmonicBalance(train.lumped, harmonics)
    padded = np.zeros((2 * harmonics + 1, train.lumped.dofs))
    padded[:2 * coarse + 1] = first.unpack(z)
    z, _, ok = hb.solve(2 * math.pi * frequency, hb.pack(padded))
    assert ok, frequency
    return hb, z


@pytest.mark.parametrize("frequency", [2000.0, 3400.0, 7500.0])
def test_harmonic_balance_matches_newmark_on_the_two_stage_reducer_within_one_percent(frequency):
    """Stage 1's mesh frequency below and at the first mode (3396 Hz), and where stage 2's (9/20 of it) meets
    that mode. Newmark takes 128 steps a period of the highest mode (its phase error there is (2 pi / 128)^2 / 12
    = 2e-4 a period): the differences were 0.31, 0.15 and 0.08 %, and 0.41, 0.18 and 0.20 % with 256."""
    difference, _ = _against_newmark(reducer(), frequency, steps=128)
    assert difference < 0.01, (frequency, difference)


@pytest.mark.parametrize("frequency, harmonics", [(1500.0, 600), (2300.0, 200)])
def test_harmonic_balance_matches_newmark_where_both_meshes_lose_contact(frequency, harmonics):
    """With 10 um of backlash, at 2300 Hz and at the default curve's start (1500 Hz, where Newton's full steps from
    the static deflection wandered for 50 iterations and the curve never started), both meshes open their flanks
    during the period. At 1500 Hz stage 2 (675 Hz) loses contact sharply and the balance converges slowly with
    its harmonics: stage 2's half peak-to-peak differs from Newmark's by 2.5 % at 200, 1.0 % at 400 and 0.85 % at
    600 (Newmark at 256 and 512 steps per natural period agree to 0.1 %)."""
    difference, lost = _against_newmark(reducer(backlash=1e-5), frequency, harmonics)
    assert lost.any(axis=1).all(), "both meshes should lose contact at this point"
    assert difference < 0.01, difference


def test_floquet_multipliers_over_the_trains_period_match_the_newmark_period_map():
    """The monodromy matrix over the train's period (20 mesh periods of stage 1) against Newmark's map over the
    same period, by central differences from the HB state at phase 0: the largest multiplier's decay over the
    period, log |mu| (about -5.7), within 1e-3 (Newmark's own step error there is about 2e-4)."""
    train = reducer()
    hb = HarmonicBalance(train.lumped, 200)
    f = 3400.0
    omega = 2 * math.pi * f
    z, _, ok = hb.solve(omega, hb.static_guess())
    assert ok
    theirs = period_map_multiplier(hb, z, f, hb.samples)
    ours = np.abs(floquet_multipliers(hb, z, omega)).max()
    assert 0.0 < theirs < 1.0
    assert math.log(ours) == pytest.approx(math.log(theirs), rel=1e-3)


def test_a_curve_steps_over_the_frequency_where_a_multiplier_of_the_trains_period_passes_one():
    """Near 6647 Hz a Floquet multiplier of the train's period passes +1 (over 20 mesh periods of stage 1, its
    period doubling): there the balance is singular, the response grows without bound on both sides, and a
    branch of solutions at that one frequency crosses the curve. The path climbed that branch and the curve
    stopped at 20000 points; it now steps over it: it reaches 6700 Hz with stable points before the crossing
    and unstable ones after, and away from it every point is the Newton solution at its own frequency from
    the static deflection (the model has no backlash: one solution per frequency)."""
    train = reducer()
    hb = HarmonicBalance(train.lumped, 147)
    points = follow(hb, 6600.0, 6700.0, ds=1.0, ds_max=1e6, df_max=10.0, max_points=500)
    f = np.array([p.frequency for p in points])
    assert f[-1] == 6700.0 and np.all(np.diff(f) > 0)
    singular = [np.linalg.svd(hb.residual(hb.solve(2 * math.pi * x, hb.static_guess())[0], 2 * math.pi * x)[1]
                              .dense(), compute_uv=False).min() for x in (6640.0, 6647.0, 6655.0)]
    assert singular[1] < 0.05 * min(singular[0], singular[2])  # the balance is singular between
    crossing = f[np.argmax([not p.stable for p in points])]
    assert 6645.0 < crossing < 6650.0 and all(p.stable == (p.frequency < crossing) for p in points)
    assert unstable_spans(points) == [(crossing, 6700.0)]
    # within a hundredth of the frequency step of the crossing (where the path climbed: 6647.157 Hz) the response
    # grows without bound: no point there
    assert not any(abs(x - 6647.157) < 0.1 for x in f)
    for p in points:
        if abs(p.frequency - 6647.2) > 1.0:
            z, _, ok = hb.solve(2 * math.pi * p.frequency, hb.static_guess())
            assert ok and np.linalg.norm(z - p.z) < 1e-6 * np.linalg.norm(z), p.frequency


def right_angle_reducer():
    """The example with a 20/30 bevel stage (m 2 mm, b 12 mm) on its output shaft, as the Gear Pair dialog's stage
    button makes it, and the example's load moved onto the bevel wheel: three meshes at 20 : 9 : 4."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    commands, pair = stage_on_shaft(model, GearPair("bevel", "output_joint", "", GROUND, kind="bevel", z1=20, z2=30,
                                                    module=0.002, pitch_angle=math.atan2(20, 30), face_width=0.012))
    for command in commands:
        command.do(model)
    AddItem(pair).do(model)
    model.forces["load"] = dataclasses.replace(model.forces["load"], joint=pair.joint2)
    return train_from_model(model)


def test_a_climb_up_a_crossing_branch_is_stepped_over_though_its_tangent_flips_by_round_off():
    """The right-angle reducer: near 6597.65 Hz a multiplier of the train's period passes +1 and the path climbs the
    branch there, its frequency still within 1.5e-8 of the crossing while the response grew 100 times. The
    frequency part of its tangent is round-off there, and its sign flips counted as folds: after 8 of them the
    curve stopped, "folded back 8 times between 6597.65 and 6597.65 Hz". It now steps over the crossing as for
    the reducer without the stage: it reaches 6700 Hz, stable before the crossing and unstable after, as Newmark
    on the same equations finds (steady at 6400 Hz, growing without bound at 6650 Hz)."""
    train = right_angle_reducer()
    hb = HarmonicBalance(train.lumped, 116)
    points = follow(hb, 6500.0, 6700.0, ds=1.0, ds_max=1e6, df_max=10.0, max_points=500)
    f = np.array([p.frequency for p in points])
    assert f[-1] == 6700.0 and np.all(np.diff(f) > 0)
    assert all(p.stable == (p.frequency < 6597.65) for p in points)  # the crossing: 6597.6528 Hz
    assert not any(abs(x - 6597.65) < 0.1 for x in f)  # within a hundredth of the frequency step: no point
    newmark = NewmarkIntegrator(train.lumped)
    steady = newmark.run(6400.0, max_periods=100)
    assert steady.converged
    growing = newmark.run(6650.0, max_periods=60)
    assert not growing.converged and growing.summary()[1] > 1e3 * steady.summary()[1]


def test_a_curve_that_tangles_where_the_periodic_response_is_unstable_stops_there_and_says_so():
    """With 10 um of backlash the reducer's periodic response loses stability near 2529 Hz, and there its branch
    folds back and forth without end: the path once ran 2200 points over 61 s, back down the curve, and stalled
    below the range, blaming a corner. It now stops after TANGLE_FOLDS folds within a tenth of the frequency,
    keeps the points, and names where stability was lost. The paper's curves fold at most twice in such a band."""
    hb = HarmonicBalance(reducer(backlash=1e-5).lumped, 147)
    with pytest.raises(ContinuationError, match=r"lost its stability at 252\d\.\d+ Hz and from there the path folded "
                                                rf"back {TANGLE_FOLDS} times") as caught:
        follow(hb, 2400.0, 3000.0, ds=1.0, ds_max=1e6, df_max=10.0)
    points = caught.value.points
    assert len({p.segment for p in points}) == TANGLE_FOLDS + 1 and len(points) < 1000
    f = np.array([p.frequency for p in points])
    before = f[:np.argmax([not p.stable for p in points])]
    assert before[0] == 2400.0 and np.all(np.diff(before) > 0) and 2520.0 < before[-1] < 2535.0
    assert max(f) < 2.64e3  # within a tenth of the frequency: not far past the loss


@pytest.mark.parametrize("speed", [100.0, -100.0])
def test_a_train_a_speed_motor_holds_runs_each_meshs_phase_the_way_the_motor_turns_it(speed):
    """The example's motor turns gear 1 at `speed` [rad/s]; the shaft then turns at -speed / 2 (20/40), so stage
    2's teeth (its reference gear, the shaft's pinion) pass the line of action backwards when stage 1's pass it
    forwards. Its stiffness law's phase must run back, as it does when the same reducer rolls under balanced
    torques (test_train_against_multibody.py): the motor's train has no rigid rolling, and both ran forwards."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    motor = model.forces["motor"]
    model.forces["motor"] = dataclasses.replace(motor, law=dataclasses.replace(motor.law, value=speed))
    train = train_from_model(model)
    forwards = 1.0 if speed > 0 else -1.0
    assert [(m.name, m.reference, m.rolling) for m in train.meshes] == [("stage1", "gear1", forwards),
                                                                         ("stage2", "gear2", -forwards)]
    assert ("stage2 0.0000 (its reference gear turns backwards as the train rolls)" in train.notes[-2]) == (speed > 0)


def test_cancel_ends_a_newmark_sweep_within_the_run_of_a_point():
    """A Newmark point of the reducer takes hundreds of periods; cancel was read only between points, so Ctrl-C
    waited for the point to reach its steady state. It is now read before each period: asked after the second
    period of the first point, the sweep ends there with no point (the unfinished one is not a steady state)."""
    asked = []

    def cancel():
        asked.append(True)
        return len(asked) > 2

    out = NewmarkIntegrator(reducer().lumped).sweep([3000.0, 3100.0], cancel=cancel)
    assert out == [] and len(asked) == 3
    whole = NewmarkIntegrator(reducer().lumped).run(3000.0)
    assert whole.converged and whole.periods > 3  # the point the cancel cut short runs longer than that
