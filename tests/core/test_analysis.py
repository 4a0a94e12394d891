"""Spectra, mesh frequencies, order maps, derived channels and tooth passing against closed forms."""

import dataclasses
import math

import numpy as np
import pytest

from core.analysis import derived
from core.chbm.from_model import static_torque
from core.analysis.spectra import (WINDOWS, amplitude_spectrum, mesh_frequencies, mesh_frequency_spans, mesh_orders,
                                   order_map, shared_frequencies)
from core.analysis.tooth_passing import fastest_teeth, nice_below
from core.dynamics.results import Channel
from core.dynamics.results import Results
from core.dynamics.simulate import simulate
from core.model import entities as E
from core.model.files import load
from tests.conftest import EXAMPLES
from tests.core.dynamics.test_runs import _planetary_alpha


@pytest.mark.parametrize("window", list(WINDOWS))
def test_a_sine_on_a_bin_shows_its_amplitude(window):
    t = np.arange(4000) * 1e-4  # 0.4 s at 10 kHz: 2.5 Hz bins
    values = 3.0 + 0.7 * np.sin(2 * math.pi * 500.0 * t)
    spec = amplitude_spectrum(t, values, window=window)
    k = int(np.argmax(spec.amplitude))
    assert spec.frequency[k] == pytest.approx(500.0, abs=spec.resolution)
    tolerance = 1e-3 if window in ("flat-top", "rectangular") else 0.02
    assert spec.amplitude[k] == pytest.approx(0.7, rel=tolerance)
    assert spec.amplitude[0] < 1e-9  # the mean is removed


def test_a_spectrum_of_a_channel_constant_but_for_round_off_says_so():
    """A rigid pair's tooth force at constant speed: -31 N with a last-digit ripple of 1e-14 N. Its spectrum's
    amplitudes are femtonewtons of round-off, which a plot scaled to them shows as peaks; the spectrum says the
    channel is constant to round-off. A ripple of a millionth of the level is a signal."""
    t = np.arange(2000) * 1e-4
    ripple = np.random.default_rng(1).normal(size=len(t))
    assert amplitude_spectrum(t, -31.0 + 1e-14 * ripple).round_off
    assert not amplitude_spectrum(t, -31.0 + 31e-6 * np.sin(2 * math.pi * 500.0 * t)).round_off
    assert amplitude_spectrum(t, np.zeros(len(t))).round_off


def test_unequal_samples_are_resampled_before_the_transform():
    rng = np.random.default_rng(3)
    t = np.sort(np.concatenate([[0.0, 1.0], rng.uniform(0, 1, 3000)]))
    spec = amplitude_spectrum(t, np.sin(2 * math.pi * 40.0 * t), window="flat-top")
    assert spec.resampled
    assert spec.frequency[int(np.argmax(spec.amplitude))] == pytest.approx(40.0, abs=spec.resolution)
    assert spec.amplitude.max() == pytest.approx(1.0, rel=0.01)


def test_mesh_frequencies_of_the_planetary_are_those_of_the_carrier_frame():
    model = load(EXAMPLES / "planetary.gdyn")
    res = simulate(model, t_end=0.05)
    f = mesh_frequencies(res, model, 0.0, 0.05)
    w_sun, w_carrier = res["sun_joint.speed"].mean(), res["carrier_joint.speed"].mean()
    expected = 24 * (w_sun - w_carrier) / (2 * math.pi)  # z_s (w_s - w_c) / 2 pi, the same for every mesh
    assert set(f) == set(model.gear_pairs)
    for value in f.values():
        assert value == pytest.approx(expected, rel=1e-9)
    orders = mesh_orders(model, res, "sun_joint", 0.0, 0.05)
    assert orders["sun_planet1"] == pytest.approx(24 * (1 - w_carrier / w_sun), rel=1e-9)  # 24 (1 - 24/96) = 18


def test_a_run_up_from_rest_sweeps_its_mesh_frequency_from_zero_linearly():
    """The planetary starts at rest under a constant torque: its speeds rise linearly, so each mesh frequency
    sweeps from 0 at the start to 24 (w_s - w_c) / 2 pi at the end, its mean halfway."""
    model = load(EXAMPLES / "planetary.gdyn")
    res = simulate(model, t_end=0.05)
    end = 24 * (res["sun_joint.speed"][-1] - res["carrier_joint.speed"][-1]) / (2 * math.pi)
    spans = mesh_frequency_spans(res, model, 0.0, 0.05)
    assert set(spans) == set(model.gear_pairs) and end > 1.0
    for mean, low, high in spans.values():
        assert low == pytest.approx(0.0, abs=1e-9 * end)
        assert high == pytest.approx(end, rel=1e-9)
        assert mean == pytest.approx(end / 2, rel=1e-6)


def test_order_map_follows_a_run_up():
    t = np.arange(40000) * 1e-4  # 4 s
    speed = 2 * math.pi * (5.0 + 5.0 * t)  # 5 to 25 rev/s
    angle = 2 * math.pi * (5.0 * t + 2.5 * t * t)
    values = np.sin(10 * angle)  # order 10
    om = order_map(t, values, speed, segment=1024, overlap=0.5)
    peak_f = om.frequency[np.argmax(om.amplitude, axis=1)]
    assert np.allclose(peak_f, 10 * om.speed_rpm / 60, atol=2 * (om.frequency[1] - om.frequency[0]))


def _results(t, columns):
    res = Results([Channel("x", name, unit, "body") for name, (unit, _) in columns.items()])
    res.append(t, np.column_stack([v for _, v in columns.values()]))
    return res


def test_derivative_integral_moving_average_difference():
    t = np.linspace(0.0, 2.0, 2001)
    res = _results(t, {"a": ("m", 3 * t * t), "b": ("m", 2 * t), "c": ("N", t)})
    c, v = derived.derivative(res, "x.a")
    assert c.unit == "m/s" and np.allclose(v[1:-1], 6 * t[1:-1], rtol=1e-9)
    c, v = derived.integral(res, "x.b")
    assert c.unit == "m s" and np.allclose(v, t * t, atol=1e-12)
    c, v = derived.moving_average(res, "x.b", 0.2)
    inner = (t > 0.1) & (t < 1.9)
    assert np.allclose(v[inner], 2 * t[inner], rtol=1e-9)  # the mean of a straight line over a centred span
    c, v = derived.difference(res, "x.a", "x.b")
    assert np.allclose(v, 3 * t * t - 2 * t)
    with pytest.raises(ValueError, match="must have the unit"):
        derived.difference(res, "x.a", "x.c")
    index = res.add_channel(*derived.derivative(res, "x.a"))
    assert res.channels[index].group == "derived" and res.names[index] == "x.d(a)/dt [m/s]"


def test_a_ratio_of_two_channels_is_undefined_where_the_divisor_is_zero():
    """A speed ratio (rad/s over rad/s: unit 1) and a torque per speed (N m over rad/s); at t = 0 the divisor
    2 t is zero and the ratio has no value there (NaN), not an infinity."""
    t = np.linspace(0.0, 2.0, 2001)
    res = _results(t, {"w_in": ("rad/s", 2 * t), "w_out": ("rad/s", 0.4 * t), "T": ("N m", 3 * t * t)})
    c, v = derived.ratio(res, "x.w_out", "x.w_in")
    assert (c.name, c.unit) == ("x.w_out/x.w_in", "1") and np.isnan(v[0])
    assert np.allclose(v[1:], 0.2, rtol=1e-12)
    c, v = derived.ratio(res, "x.T", "x.w_in")
    assert c.unit == "N m/(rad/s)" and np.allclose(v[1:], 1.5 * t[1:], rtol=1e-12)


def test_a_planetary_meshs_dynamic_factor_shares_the_torque_among_its_planets_at_every_instant():
    """The planetary from rest under a ramp torque on the sun (0 to 2 N m over the run), ring held, carrier free:
    a rigid one-degree-of-freedom train, so its acceleration follows the torque, alpha(t) = T(t) / J_eq (the
    energy method's J_eq), and each of the three sun meshes carries a third of what is left after accelerating
    the sun: Ft(t) = T(t) (1 - J_sun / J_eq) / (3 r_sun). Against T(t) / (3 r_sun) the factor is 1 - J_sun / J_eq
    at every sample; where T(t) is 0 (the start) it has no value."""
    model = load(EXAMPLES / "planetary.gdyn")
    ramp = E.TimeLaw(kind="ramp", value=0.0, final=2.0, t_start=0.0, t_end=0.02)
    model.forces["sun_torque"] = dataclasses.replace(model.forces["sun_torque"], law=ramp)
    res = simulate(model, t_end=0.02)
    channel, factor = derived.dynamic_factor(res, model, "sun_planet1")
    expected = 1.0 - model.bodies["sun"].inertia[2][2] * _planetary_alpha(model)
    assert np.isnan(factor[0]) and factor[1:] == pytest.approx(expected, rel=1e-9)
    assert "shared by its 3 gear pairs" in channel.description
    with pytest.raises(ValueError, match="no torque acts on planet1_joint"):
        derived.dynamic_factor(res, model, "planet1_ring")


def test_a_motor_driven_reducers_dynamic_factor_against_its_static_torque_is_one_at_constant_speed():
    """The two-stage reducer: a speed motor holds the input at 100 rad/s and 10 N m load the output, so no torque
    element acts on either stage's gear 1. Against the torque its mesh passes under the model's mean loads (the
    gear train's static solution: 10 x 20/40 x 18/45 = 2 N m and 10 x 18/45 = 4 N m), the rigid run at constant
    speed carries exactly the static force: the factor is 1 at every sample."""
    model = load(EXAMPLES / "two_stage_reducer.gdyn")
    res = simulate(model, t_end=0.02)
    for pair, torque in (("stage1", 2.0), ("stage2", 4.0)):
        static, _ = static_torque(model, pair)
        assert static == pytest.approx(torque, rel=1e-12)
        channel, factor = derived.dynamic_factor(res, model, pair, static)
        assert factor == pytest.approx(np.ones(len(res)), rel=1e-9), pair
        assert f"T = {torque:.6g} N m given" in channel.description
    with pytest.raises(ValueError, match="no torque acts on input_joint"):
        derived.dynamic_factor(res, model, "stage1")


def test_meshes_sharing_a_frequency_are_grouped_and_others_kept_apart():
    """The planetary's six meshes run at one mesh frequency (a run's mean speeds differ by 1e-4 relative at
    most): one group; pairs 2 % apart, two groups, whose means are their members' means."""
    values = {"sun_planet1": 294.363, "planet1_ring": 294.323, "sun_planet2": 294.363, "stage2": 300.0,
              "stage2b": 300.2}
    groups = shared_frequencies(values, 0.5)
    assert [names for _, names in groups] == [["sun_planet1", "planet1_ring", "sun_planet2"], ["stage2", "stage2b"]]
    assert groups[0][0] == pytest.approx((294.363 * 2 + 294.323) / 3, rel=1e-12)
    assert groups[1][0] == pytest.approx(300.1, rel=1e-12)
    assert [names for _, names in shared_frequencies(values, 0.01)] == [["planet1_ring"], ["sun_planet1", "sun_planet2"],
                                                           ["stage2"], ["stage2b"]]


def test_the_fastest_teeth_of_a_pair_pass_at_its_mesh_frequency_and_a_frame_moves_them_by_the_hand_count():
    """The helical example turns free at 100 rad/s on its 20-tooth pinion (50 rad/s on the 40-tooth wheel): both
    gears pass 20 x 100 / 2 pi = 318.31 teeth a second, its mesh frequency. At 30 frames a second of its real
    speed a frame moves them 10.61 pitches; a quarter pitch a frame is 0.25 x 30 / 318.31 = 0.02356x."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    res = simulate(model, t_end=0.01)
    fastest = fastest_teeth(model, res)
    assert fastest.rate == pytest.approx(2000 / (2 * math.pi), rel=1e-9)
    assert fastest.per_frame(30, 1.0) == pytest.approx(2000 / (2 * math.pi) / 30, rel=1e-9)
    assert fastest.true_speed(30) == pytest.approx(0.25 * 30 * 2 * math.pi / 2000, rel=1e-9)
    assert [nice_below(v) for v in (0.02356, 1.0, 7.3, 0.0999, 0.2)] == [0.02, 1.0, 5.0, 0.05, 0.2]
    still = load(EXAMPLES / "helical_pair.gdyn")
    for name in ("gear1", "gear2"):  # at rest, no teeth pass
        still.bodies[name] = dataclasses.replace(still.bodies[name], angular_velocity=(0.0, 0.0, 0.0))
    assert fastest_teeth(still, simulate(still, t_end=0.01)) is None
