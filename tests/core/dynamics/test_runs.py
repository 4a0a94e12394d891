"""Runs in chunks, cancel, partial results, interpolated output samples, events, results files."""

import math
import warnings

import numpy as np
import pytest

from core.commands import AddItem, Macro, replace_fields
from core.dynamics.events import Event, locate
from core.dynamics.integrators import METHODS, make_integrator
from core.dynamics.results import Results, open_results, save_results
from core.dynamics.run import REPEATS, prepare
from core.dynamics.simulate import simulate
from core.dynamics.state_space import EuclideanSpace
from core.model import builders
from core.model.entities import (INTEGRATOR_OPTIONS, STEP_LABELS, CompliantMesh, SimulationSettings, SpeedMotor,
                                 TimeLaw)
from core.model.files import load, loads, model_from_dict
from core.model.model import Model
from core.errors import ModelError
from tests.conftest import EXAMPLES


def _planetary_alpha(model):
    """Sun acceleration [rad/s^2] under 1 N m with the ring held, by the energy method (as in test_against_references)."""
    b = model.bodies
    izz = {k: b[k].inertia[2][2] for k in b}
    zs, zp, zr, a = 24, 24, 72, 0.002 * 24
    kc = zs / (zs + zr)
    kp = kc - (zs / zp) * (1 - kc)
    j_eq = izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                     for k in (1, 2, 3))
    return 1.0 / j_eq


def test_integrator_registry_matches_the_settings_options():
    assert set(METHODS) == set(INTEGRATOR_OPTIONS)
    for name, options in INTEGRATOR_OPTIONS.items():
        assert set(options) <= set(METHODS[name].OPTIONS), name
    assert set(STEP_LABELS) == set(METHODS)


def test_the_settings_step_is_what_each_integrator_is_labelled_to_take():
    """The settings dialog names the step by its use: 'First step' (dopri5, dop853), 'Largest step'
    (generalized_alpha_adaptive), 'Time step' (the fixed-step methods). On a free decay y' = -y over 1 s with
    a step of 0.05 s: the first step of each is read off its own step history."""
    for name, label in STEP_LABELS.items():
        solver = make_integrator(name, lambda t, y: -y, 0.0, np.ones(1), 1.0, 0.05, EuclideanSpace(1))
        sizes = []
        while solver.status == "running":
            t = solver.t
            solver.step()
            sizes.append(solver.t - t)
        sizes = np.array(sizes[:-1])  # the last step may be cut short at the end
        if label == "Time step":
            assert sizes == pytest.approx(0.05, rel=1e-9), name
        elif label == "First step":
            assert sizes[0] == pytest.approx(0.05, rel=1e-9) and sizes.max() > 0.0505, name  # not a bound
        else:
            assert label == "Largest step" and sizes.max() <= 0.05 * (1 + 1e-9) and sizes[0] < 0.05, name


def test_unknown_integrator_option_gives_a_warning():
    with pytest.warns(UserWarning, match="no effect for the rk4 integrator: rho_inf"):
        make_integrator("rk4", lambda t, y: -y, 0.0, np.ones(1), 1.0, 0.1, EuclideanSpace(1), rho_inf=0.5)


def test_unknown_integrator_in_a_file_is_refused_at_load_naming_the_choices():
    text = (EXAMPLES / "helical_pair.gdyn").read_text().replace('"integrator": "rk4"', '"integrator": "euler"')
    with pytest.raises(ModelError, match=r"settings.integrator: must be one of rk4, dopri5, dop853, generalized_alpha, generalized_alpha_adaptive, got 'euler'"):
        loads(text)


@pytest.mark.parametrize("field, value, words", [("step", 2.0, "must be at most the end time"),
                                                 ("output_step", 2.0, "must be at most the end time"),
                                                 ("output_step", 1e-7, "output samples")])
def test_run_lengths_are_checked_at_load(field, value, words):
    data = __import__("json").loads((EXAMPLES / "helical_pair.gdyn").read_text())
    data["settings"][field] = value
    with pytest.raises(ModelError, match=f"settings.{field}: .*{words}"):
        model_from_dict(data)


def test_output_step_finer_than_the_step_is_interpolated_exactly_where_the_motion_is_quadratic():
    # ring held, constant torque: the sun angle is alpha t^2 / 2, which the cubic interpolant holds exactly
    model = load(EXAMPLES / "planetary.gdyn")
    alpha = _planetary_alpha(model)
    res = simulate(model, t_end=0.05, step=1e-2, output_step=1e-3)
    assert res.status == "finished", res.message
    assert len(res.time) == 51 and res.time[-1] == pytest.approx(0.05)
    assert np.allclose(res["sun_joint.angle"], 0.5 * alpha * res.time**2, rtol=1e-9, atol=1e-12)
    assert np.allclose(res["sun_joint.speed"], alpha * res.time, rtol=1e-9, atol=1e-12)


def test_interpolated_samples_follow_an_oscillation_to_the_interpolants_order():
    """A torsional oscillator: samples between steps against the closed form, error shrinking as h^4."""
    from core.commands import AddItem
    from core.model.entities import TorsionalSpringDamper

    errors = []
    for h in (2e-3, 1e-3):
        model = load(EXAMPLES / "helical_pair.gdyn")
        AddItem(TorsionalSpringDamper("spring", "gear1_joint", stiffness=20.0)).do(model)
        replace_fields(model, "gear1", angular_velocity=(0.0, 0.0, 3.0)).do(model)
        res = simulate(model, t_end=0.2, step=h, output_step=h / 7, integrator="rk4")
        # the train's inertia seen at joint 1: J1 + J2 (z1/z2)^2; angle = w0/omega sin(omega t)
        j1 = model.bodies["gear1"].inertia[2][2]
        j2 = model.bodies["gear2"].inertia[2][2]
        omega = math.sqrt(20.0 / (j1 + j2 * 0.25))
        w0 = res["gear1_joint.speed"][0]
        exact = w0 / omega * np.sin(omega * res.time)
        errors.append(np.abs(res["gear1_joint.angle"] - exact).max())
    assert errors[1] < errors[0] / 8  # fourth order in h would be 16; the Hermite interpolant is at least third


def test_events_are_located_on_the_interpolant():
    # free fall from 1 m: y = 1 - g t^2 / 2 reaches 0 at sqrt(2 / g); the cubic interpolant holds the parabola exactly
    g = 9.81
    integ = make_integrator("rk4", lambda t, y: np.array([y[1], -g]), 0.0, np.array([1.0, 0.0]), 1.0, 0.1,
                            EuclideanSpace(2))
    ev = [Event(lambda t, y: y[0], direction=-1, terminal=True, name="ground")]
    g_old = [1.0]
    found = []
    while integ.status == "running" and not found:
        integ.step()
        g_new = [integ.y[0]]
        found = locate(ev, g_old, g_new, integ.dense_output(), integ.t_old, integ.t)
        g_old = g_new
    assert found and found[0][0] == pytest.approx(math.sqrt(2 / g), rel=1e-14)
    # a rising-only event does not fire on the way down
    assert not locate([Event(lambda t, y: y[0], direction=1)], [1.0], [-1.0], lambda t: np.array([1 - t]), 0.0, 2.0)


def test_an_event_the_interpolant_does_not_bracket_is_put_at_the_step_end_where_it_showed():
    """The step's end state crossed zero, but its interpolant did not (a projection onto the constraints after the
    step moved it across): the event is at the step's end, where it showed. brentq raised 'f(a) and f(b) must have
    different signs' as an internal error (a lossy planetary in Cartesian coordinates)."""
    ev = [Event(lambda t, y: y[0], direction=-1, terminal=True)]
    interpolant = lambda t: np.array([1.0 - 0.1 * t])  # noqa: E731  stays above zero over the step
    assert locate(ev, [1.0], [-1e-3], interpolant, 0.0, 2.0) == [(2.0, 0)]
    # and one that is past zero all through the step (the state at its start was moved): at the start
    assert locate(ev, [1.0], [-1e-3], lambda t: np.array([-0.5 - t]), 0.0, 2.0) == [(0.0, 0)]


def test_an_event_entered_at_its_zero_that_holds_then_ends_within_the_step_is_located_where_it_ends():
    """A mode entered where its event function is zero (a gear leaving rest) that holds for part of the step: g =
    t (0.3 - t) over a step of 1 crosses back at 0.3. It was put at the step's start, as if the mode failed at
    once (a compliant lossy planetary's pairs then stuck at t = 0 holding far past their limits)."""
    ev = [Event(lambda t, y: y[0], direction=-1, terminal=True)]
    found = locate(ev, [0.0], [-0.7], lambda t: np.array([t * (0.3 - t)]), 0.0, 1.0)
    assert found[0][1] == 0 and found[0][0] == pytest.approx(0.3, abs=1e-15)
    # one that fails at once is at the start; fired there already ('again'), where the step first shows it
    at_once = lambda t: np.array([-t])  # noqa: E731
    assert locate(ev, [0.0], [-1.0], at_once, 0.0, 1.0) == [(0.0, 0)]
    assert locate(ev, [0.0], [-1.0], at_once, 0.0, 1.0, again={0: 1}) == [(1e-4, 0)]


def test_events_that_fire_in_turn_at_one_instant_fail_the_run_like_one_that_repeats():
    """Two events that undo each other's mode at the same instant fired forever (the count of repeats was only
    kept for one event firing again)."""
    run = prepare(load(EXAMPLES / "lossy_gear_demo3.gdyn"))
    times = [run._after_repeats(0.25, i % 2) for i in range(2 * REPEATS)]
    assert times[:2] == [0.25, 0.25] and None in times
    assert run.results.status == "failed"
    assert f"repeats {REPEATS} times at the same instant in turn with gear: " in run.results.message


def test_a_run_advances_in_chunks_and_a_cancel_keeps_what_it_computed():
    run = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=1.0, step=1e-3, output_step=1e-3)
    chunks = 0
    while run.advance(max_steps=20):
        chunks += 1
        if run.t >= 0.1:
            run.cancel()
    res = run.results
    assert chunks >= 5
    assert res.status == "cancelled" and "cancelled at t = 0.1" in res.message
    assert 95 < len(res.time) < 110 and res.time[-1] == pytest.approx(run.t)
    assert np.all(np.isfinite(res.data)) and res.positions.shape == (len(res.time), 6, 3)


def test_a_sample_that_fails_keeps_the_samples_before_it_and_says_why(monkeypatch):
    from core.dynamics.formulations.system import System

    sample = System.sample

    def broken(self, t, y):
        if t > 0.0105:
            raise RuntimeError("a defect in a sample")
        return sample(self, t, y)

    monkeypatch.setattr(System, "sample", broken)
    res = simulate(load(EXAMPLES / "planetary.gdyn"), t_end=0.02, step=1e-3, output_step=1e-3)
    assert res.status == "failed"
    assert "internal error" in res.message and "a defect in a sample" in res.message
    assert "results kept up to t = 0.01 s" in res.message
    assert len(res.time) == 11 and np.all(np.isfinite(res.data))


def test_progress_is_reported_by_solver_time_at_a_throttled_rate():
    calls = []
    run = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.2, step=1e-3, output_step=1e-2,
                  progress=lambda f, m: calls.append(f))
    assert run.run().status == "finished"
    assert calls[-1] == 1.0 and calls == sorted(calls) and len(calls) > 1
    # at most one report per interval of wall time, and the last one
    assert len(calls) <= run.wall_time / run.progress_interval + 2


def test_an_edit_after_prepare_does_not_reach_the_run():
    model = load(EXAMPLES / "planetary.gdyn")
    plain = simulate(model, t_end=0.05, step=1e-3, output_step=1e-2)
    run = prepare(model, t_end=0.05, step=1e-3, output_step=1e-2)
    run.advance(max_steps=10)
    replace_fields(model, "sun_torque", law=TimeLaw(value=5.0)).do(model)
    del model.bodies["ring"]  # even a body taken away from under it
    edited = run.run()
    assert edited.status == "finished"
    assert np.array_equal(edited.data, plain.data)


def test_poses_describe_the_bodies_at_every_sample():
    model = load(EXAMPLES / "planetary.gdyn")
    alpha = _planetary_alpha(model)
    res = simulate(model, t_end=0.05, step=1e-3, output_step=1e-2)
    k = res.bodies.index("sun")
    angle = 0.5 * alpha * res.time**2
    q = res.orientations[:, k]
    # the sun turns about z from the identity: q = (cos(a/2), 0, 0, sin(a/2))
    assert np.allclose(q[:, 0], np.cos(angle / 2), atol=1e-12) and np.allclose(q[:, 3], np.sin(angle / 2), atol=1e-12)
    assert np.allclose(res.positions[:, res.bodies.index("planet1")][0], model.bodies["planet1"].position, atol=1e-15)
    pos, quat = res.pose_at(res.time[3])
    assert np.array_equal(pos, res.positions[3]) and np.array_equal(quat, res.orientations[3])


def test_results_file_round_trip(tmp_path):
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    res = simulate(model, t_end=2e-3)
    res.events.append((1e-3, "example", "an event kept in the file"))
    path = tmp_path / "run.gdres"
    save_results(res, path)
    back = open_results(path)
    assert back.channels == res.channels and back.bodies == res.bodies
    assert np.array_equal(back.time, res.time) and np.array_equal(back.data, res.data)
    assert np.array_equal(back.positions, res.positions) and np.array_equal(back.orientations, res.orientations)
    assert (back.status, back.message, back.steps, back.evaluations) == (res.status, res.message, res.steps, res.evaluations)
    assert back.findings == res.findings and back.events == res.events and back.settings == res.settings
    assert model_from_dict(back.model) == model_from_dict(res.model)
    assert back["mesh.TE [m]"].tolist() == res["mesh.TE"].tolist()


def test_a_file_that_is_not_results_is_refused(tmp_path):
    bad = tmp_path / "x.gdres"
    bad.write_text("not hdf5")
    with pytest.raises(ModelError, match="x.gdres: cannot be read as a results file"):
        open_results(bad)


def test_settings_overrides_are_checked_like_the_file():
    model = load(EXAMPLES / "planetary.gdyn")
    with pytest.raises(ModelError, match="settings.rho_inf: must be a number from 0 to 1, got 3"):
        prepare(model, rho_inf=3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = prepare(model, t_end=0.01, integrator="generalized_alpha", rho_inf=0.9)
    assert run.solver.options["rho_inf"] == 0.9 and run.results.settings["rho_inf"] == 0.9


def test_options_for_another_integrator_are_reported():
    model = load(EXAMPLES / "planetary.gdyn")
    model.settings = SimulationSettings(t_end=0.01, step=1e-3, output_step=1e-3, rho_inf=0.2)
    from core.validation import validate

    assert any(f.item == "settings" and "rho_inf is set but only generalized_alpha or generalized_alpha_adaptive uses it" in f.message
               for f in validate(model))
    assert any("not used by rk4: settings.rho_inf" in f for f in simulate(model).findings)


def test_constraint_settings_a_model_without_constraint_rows_cannot_use_are_reported_with_the_run():
    """A disc on a revolute joint in joint coordinates: its joint is a coordinate of the tree, so nothing is held
    by a constraint and Baumgarte's gains and the drift tolerance act on nothing. Set away from their defaults,
    they were passed over without a word; the run's notes now say so. In Cartesian coordinates the joint is
    five constraint rows: used, and said nothing of."""
    from core.model.entities import GROUND, PrimitiveSource, RevoluteJoint, RigidBody

    model = Model(name="disc")
    disc = RigidBody("disc", mass=2.0, inertia=((6e-4, 0, 0), (0, 6e-4, 0), (0, 0, 1e-3)),
                     visual=PrimitiveSource(radius=0.05, length=0.02))
    Macro("build", [AddItem(disc), AddItem(RevoluteJoint("joint", GROUND, "disc", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))),
                    AddItem(builders.constant_torque("torque", "joint", 1.0))]).do(model)
    model.settings = SimulationSettings(t_end=0.01, step=1e-3, output_step=1e-3, baumgarte_alpha=20.0,
                                        drift_tolerance=1e-4)
    notes = simulate(model).findings
    assert ("not used: settings.baumgarte_alpha, settings.drift_tolerance: the assembled equations hold no "
            "constraint (in joint coordinates every joint here is a coordinate of the tree)") in notes, notes
    model.settings = SimulationSettings(t_end=0.01, step=1e-3, output_step=1e-3)
    assert not [n for n in simulate(model).findings if "not used" in n]
    model.settings = SimulationSettings(t_end=0.01, step=1e-3, output_step=1e-3, baumgarte_alpha=20.0,
                                        drift_tolerance=1e-4, formulation="cartesian")
    assert not [n for n in simulate(model).findings if "not used" in n]


def ring_ramp_planetary():
    """The planetary with its ring motor ramping 0 -> 10 rad/s over 0.1-0.4 s (instead of holding it)."""
    model = load(EXAMPLES / "planetary.gdyn")
    replace_fields(model, "ring_hold", law=TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.1, t_end=0.4)).do(model)
    return model


def test_a_speed_motor_follows_its_time_law_through_a_run():
    # The projection after each step puts the speeds on the constraints at the step's end time: it once used the
    # motor's law at t = 0, so a ramping motor was pulled back to rest and the run failed on its angle drift.
    model = ring_ramp_planetary()
    law = model.forces["ring_hold"].law
    res = prepare(model, t_end=0.5, step=1e-3, output_step=0.05, integrator="rk4", formulation="joint").run()
    assert res.status == "finished", res.message
    speeds = res["ring_joint.speed [rad/s]"]
    expected = np.array([law(t) for t in res.time])
    assert speeds[-1] == pytest.approx(10.0, abs=1e-9)
    assert np.abs(speeds - expected).max() < 1e-9


@pytest.mark.parametrize("formulation", ["cartesian", "joint"])
def test_consistent_velocities_take_the_motor_speed_at_the_given_time(formulation):
    from core.dynamics.formulations import assemble

    model = ring_ramp_planetary()
    system = assemble(model, formulation)
    y, _ = system.consistent_velocities(system.initial_state(), 0.25)
    assert system.channels(0.25, y)["ring_joint.speed [rad/s]"] == pytest.approx(5.0, abs=1e-12)


def test_orientations_keep_to_one_hemisphere_across_appends():
    """Results.append flips each quaternion onto the hemisphere of the sample before it (across appends too),
    against the definition sample by sample: the same rotations, every consecutive pair at a positive dot."""
    rng = np.random.default_rng(3)
    raw = rng.normal(size=(40, 3, 4))
    raw /= np.linalg.norm(raw, axis=2, keepdims=True)
    raw[1::2] *= -1.0  # a run of sign flips, as matrix_quats' w >= 0 makes them near w = 0
    res = Results([], bodies=["a", "b", "c"])
    for chunk in np.split(np.arange(40), [1, 7, 8, 25]):
        res.append(np.asarray(chunk, float), np.zeros((len(chunk), 0)), np.zeros((len(chunk), 3, 3)), raw[chunk])
    expected, prev = raw.copy(), raw[0].copy()
    for k in range(40):
        flip = np.sum(expected[k] * prev, axis=1) < 0
        expected[k, flip] *= -1.0
        prev = expected[k]
    assert np.array_equal(res.orientations, expected)
    assert np.all(np.sum(res.orientations[1:] * res.orientations[:-1], axis=2) >= 0)


def test_a_run_says_when_its_output_samples_alias_a_compliant_meshs_frequency():
    """A compliant planetary from the wizard, the sun driven at 200 rad/s: the sun-planet mesh frequency is
    z_s |w_sun - w_carrier| / 2 pi, 764 Hz at the start (the meshes are springs: the carrier starts at rest) and
    573 Hz once the carrier turns at 50 rad/s. Samples 1 ms apart caught under one a period and the mesh forces'
    plots looked like noise without a word. The run now says so at its end, with the fastest frequency worked out
    here by hand from the joints' speed channels (the note reads the bodies' angular velocities). Samples 5 times a
    period resolve up to 2.5 times the mesh frequency: the note says the harmonics from 3x up fold (the involute
    waveform's steps make them strong: a spectrum showed peaks between the mesh orders); 11 times a period say
    nothing."""
    model = Model()
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.02, math.radians(20))
    items += builders.compliant_meshes(items) + [builders.held_joint("ring_hold", "ring_joint")]
    items.append(SpeedMotor("drive", "sun_joint", TimeLaw(kind="constant", value=200.0)))
    Macro("planetary", [AddItem(i) for i in items]).do(model)
    coarse = simulate(model, t_end=0.02, output_step=1e-3, integrator="dopri5")
    assert coarse.status == "finished", coarse.message
    mesh = 24 * np.abs(coarse["sun_joint.speed"] - coarse["carrier_joint.speed"]) / (2 * math.pi)
    fastest, at = mesh.max(), coarse.time[np.argmax(mesh)]
    assert (fastest, mesh[-1]) == pytest.approx((24 * 200 / (2 * math.pi), 24 * 150 / (2 * math.pi)), rel=2e-3)
    (note,) = [n for n in coarse.findings if n.startswith("settings.output_step")]
    assert note.startswith(f"settings.output_step 0.001 s samples the mesh frequency of 'sun_planet1' "
                           f"({fastest:.4g} Hz at t = {at:.4g} s) {1 / (fastest * 1e-3):.2g} times a period")
    assert f"an output step of {0.1 / fastest:.2g} s samples 10 times a period" in note
    fine = simulate(model, t_end=0.02, output_step=1 / (5 * fastest), integrator="dopri5")
    (note,) = [n for n in fine.findings if n.startswith("settings.output_step")]
    assert "5 times a period: its harmonics from 3x up fold onto lower frequencies" in note
    finer = simulate(model, t_end=0.02, output_step=1 / (11 * fastest), integrator="dopri5")
    assert finer.status == "finished" and not [n for n in finer.findings if "output_step" in n]


def test_a_run_that_diverges_says_nothing_of_its_samples_aliasing():
    """RK4 at 1 ms on the compliant pair (its mesh mode 1885 Hz) diverges. The aliasing note read the mesh frequency
    from the diverged speeds: '(4.06e+153 Hz at t = 0.049 s) 2.5e-151 times a period ... an output step of
    2.5e-155 s'. A failed run's last samples say nothing of the sampling: no note; the failure says why."""
    res = simulate(load(EXAMPLES / "compliant_mesh_pair.gdyn"), t_end=0.05, integrator="rk4", step=1e-3,
                   output_step=1e-3)
    assert res.status == "failed" and "divergence" in res.message and "RK4 is unstable at 0.001 s" in res.message
    assert not [n for n in res.findings if "output_step" in n]


def test_a_ramp_law_takes_its_slope_from_the_right_at_its_corners():
    """At t_start the ramp is starting (its slope), at t_end it has ended (0): the rate from the right, as a step's
    value and a table's slope are taken."""
    law = TimeLaw(kind="ramp", value=0.0, final=10.0, t_start=0.0, t_end=2.0)
    assert [law.derivative(t) for t in (-1.0, 0.0, 1.0, 2.0, 3.0)] == [0.0, 5.0, 5.0, 0.0, 0.0]


def test_a_motor_ramp_from_t_0_accelerates_the_wheel_from_the_first_sample():
    """A speed motor ramping gear 1 from rest at t = 0: the wheel's tooth force is I2 alpha2 / r2 at every sample of
    the ramp, the one at t = 0 included (it read 0 while the law's rate at its start was taken as 0)."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(SpeedMotor("drive", "gear1_joint", TimeLaw(kind="ramp", value=0.0, final=100.0, t_start=0.0,
                                                      t_end=0.5))).do(model)
    res = prepare(model, t_end=0.1, step=1e-3, output_step=0.05, integrator="rk4", formulation="joint").run()
    assert res.status == "finished", res.message
    pair, wheel = model.gear_pairs["pair"], model.bodies["gear2"]
    alpha2 = 100.0 / 0.5 * pair.z1 / pair.z2
    expected = wheel.inertia[2][2] * alpha2 / (pair.module * pair.z2 / 2)
    assert np.abs(res["pair.Ft [N]"]) == pytest.approx(np.full(len(res), expected), rel=1e-6)


@pytest.mark.parametrize("formulation", ["joint", "cartesian"])
def test_a_speed_motors_torque_and_power_are_the_reduced_inertia_times_its_acceleration(formulation):
    """The ramp turns gear 1 of the unloaded pair at alpha1 = 200 rad/s^2 from rest: the motor's torque is
    (I1 + I2 (z1 / z2)^2) alpha1 and its power that torque times alpha1 t; after the ramp both are 0."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(SpeedMotor("drive", "gear1_joint", TimeLaw(kind="ramp", value=0.0, final=100.0, t_start=0.0,
                                                      t_end=0.5))).do(model)
    res = prepare(model, t_end=0.6, step=1e-3, output_step=0.05, integrator="rk4", formulation=formulation).run()
    assert res.status == "finished", res.message
    pair = model.gear_pairs["pair"]
    i1, i2 = model.bodies["gear1"].inertia[2][2], model.bodies["gear2"].inertia[2][2]
    torque = (i1 + i2 * (pair.z1 / pair.z2) ** 2) * 200.0
    ramp = res.time < 0.5 - 1e-9
    assert res.record("drive.torque").unit == "N m" and res.record("drive.power").unit == "W"
    assert res["drive.torque"][ramp] == pytest.approx(np.full(ramp.sum(), torque), rel=1e-6)
    assert res["drive.power"][ramp] == pytest.approx(torque * 200.0 * res.time[ramp], rel=1e-6, abs=1e-9)
    assert np.abs(res["drive.torque"][~ramp]).max() < 1e-6 * torque


def test_a_start_the_constraints_change_names_the_body_whose_speed_changed_most_with_its_unit():
    """The helical example's gear1 starts at 100 rad/s and gear2 at -50 rad/s; a speed motor holding gear1's
    joint at 0 rad/s makes both rest at the start: gear1's angular velocity changes most, by exactly 100 rad/s
    (954.93 rpm)."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    AddItem(SpeedMotor("hold", "gear1_joint", TimeLaw("constant", 0.0))).do(model)
    for formulation in ("joint", "cartesian"):
        run = prepare(model, t_end=1e-3, step=1e-4, formulation=formulation)
        (note,) = [f for f in run.results.findings if f.startswith("initial speeds")]
        assert note == ("initial speeds were projected onto the constraints (joints, gear pairs, motors): the "
                        "largest change is to the angular velocity of 'gear1': 100 rad/s (954.93 rpm)"), formulation


def test_an_adaptive_run_stopped_at_a_jump_in_the_rate_names_atol_and_the_larger_atol_it_asks_for_passes():
    """Where a compliant mesh's teeth meet across its backlash, its damping force starts at once and the rate
    jumps: a step across the jump errs by its size times the jump, so relative to its increment the error does
    not fall with the step, and dop853 at atol 1e-12 shrank its step below 1e-14 s ("step size fell below 1e-14
    s", nothing more). The message says so and names atol; at 1e-10 the same run finishes. (The count of tooth
    pairs changing made such jumps too, until the waveform's interpolant had a continuous slope.)"""
    model = load(EXAMPLES / "helical_pair.gdyn")
    for body in list(model.bodies):
        replace_fields(model, body, angular_velocity=(0.0, 0.0, 0.0)).do(model)
    Macro("a pair that closes its backlash", [
        AddItem(builders.constant_torque("drive", "gear1_joint", 10.0)),
        AddItem(builders.held_joint("hold", "gear2_joint")),
        AddItem(CompliantMesh("mesh", "pair", stiffness="given", k_mean=1e8, backlash=2e-5))]).do(model)
    res = simulate(model, t_end=0.001, output_step=1e-4, step=1e-6, integrator="dop853", rtol=1e-9, atol=1e-12)
    assert res.status == "failed"
    assert res.message.startswith("step size fell below 1e-14 s at t = 6.45"), res.message
    assert "the rate jumps" in res.message and "a larger atol (now 1e-12) passes it" in res.message, res.message
    assert simulate(model, t_end=0.001, output_step=1e-4, step=1e-6, integrator="dop853", rtol=1e-9,
                    atol=1e-10).status == "finished"


def test_compacted_results_keep_their_samples_and_no_room_for_more():
    """Results double their room as samples come: 1001 samples appended one by one sit in room for 1024. Compacted
    (as a run that ends is), they take the room of their samples alone, and the samples are the same."""
    res = prepare(load(EXAMPLES / "planetary.gdyn"), t_end=0.1, output_step=1e-4, compiled="on").run()
    grown = Results(res.channels, res.bodies)
    for k in range(len(res)):
        grown.append(res.time[k], res.data[k], res.positions[k], res.orientations[k])
    per_sample = 8 * (1 + len(res.channels) + 7 * len(res.bodies))
    assert len(grown) == 1001 and grown.nbytes == 1024 * per_sample
    grown.compact()
    assert grown.nbytes == 1001 * per_sample
    for name in ("time", "data", "positions", "orientations"):
        np.testing.assert_array_equal(getattr(grown, name), getattr(res, name))
