"""A planetary train's forced response: Parker's planet-phasing rules and the harmonic balance against Newmark.

Parker (J. Sound Vib. 236, 2000, 561-573): with equally spaced planets and the meshes phased by their
position angles, the l-th mesh harmonic excites only rotational modes when l z_s / N is whole, only
translational modes when (l z_s +- 1) / N is whole, else only planet modes. For z_s = 25, N = 3 (the
compliant planetary example) the first and second harmonics move the sun only sideways and the third only
turns it.
"""

import dataclasses
import math

import numpy as np
import pytest
import scipy.linalg

from core.chbm.continuation import CurvePoint, follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.newmark import NewmarkIntegrator
from core.chbm.stability import floquet_multipliers, monodromy_multipliers
from core.chbm.study import CurveResult, hbm_solutions_at
from core.chbm.train_from_model import train_from_model
from core.chbm.modes import train_modes
from core.chbm.train_study import (
    body_responses,
    contact_lost,
    curve_header,
    curve_rows,
    mesh_forces,
    newmark_loads,
    newmark_reference,
    period_forces,
    static_mesh_forces,
    train_curve,
    unstable_spans,
)
from core.model.entities import BearingSpringDamper, CompliantMesh, SpringDamper
from core.model.files import load
from core.model.views import TRAIN_DEFAULT_HARMONICS
from tests.conftest import EXAMPLES
from tests.core.chbm.conftest import period_map_multiplier


@pytest.fixture(scope="module")
def phased():
    return train_from_model(load(EXAMPLES / "compliant_planetary.gdyn"))


def test_mesh_phases_follow_the_planets_position_angles(phased):
    """Both meshes of planet n are z_s psi_n / 2 pi of a period from planet 1's (the sign: the rolling's)."""
    phase = {m.name: m.phase for m in phased.meshes}
    signs = set()
    for k in (2, 3):
        step = 25 * (k - 1) / 3
        for name in (f"sun_planet{k}", f"planet{k}_ring"):
            diff = phase[name] - phase[name.replace(str(k), "1")]
            off = [abs(((diff - sign * step) + 0.5) % 1.0 - 0.5) for sign in (1, -1)]
            assert min(off) < 1e-9, (name, diff)
            signs.add(off.index(min(off)))
    assert len(signs) == 1


def test_first_mesh_harmonic_moves_the_sun_only_sideways_and_the_third_only_turns_it(phased):
    hb = HarmonicBalance(phased.lumped, 6)
    z, _, ok = hb.solve(2 * math.pi * 1000.0, hb.static_guess())
    assert ok
    q = hb.unpack(z) @ phased.basis.T  # (2H + 1, n) coefficients on the train's coordinates
    turn = q @ phased.rotation["sun"] * phased.body("sun").radius  # [m] of arc
    side = q @ phased.translation["sun"].T  # (2H + 1, 2) [m]

    def amp(c, h):
        return float(np.hypot(*c[2 * h - 1:2 * h + 1])) if c.ndim == 1 else float(np.abs(c[2 * h - 1:2 * h + 1]).max())

    scale = max(amp(turn, 3), amp(side, 1))
    assert amp(side, 1) > 1e-3 * scale and amp(side, 2) > 1e-6 * scale
    assert amp(turn, 1) < 1e-9 * scale and amp(turn, 2) < 1e-9 * scale
    assert amp(turn, 3) > 1e-3 * scale and amp(side, 3) < 1e-9 * scale
    assert amp(turn, 6) > 1e-9 * scale and amp(side, 6) < 1e-9 * scale  # 6 z_s / 3 is whole too


@pytest.fixture(scope="module")
def torsional():
    """The planetary example (sun 1 N m, ring held, carrier free) with ISO 6336 meshes and 10 um backlash."""
    model = load(EXAMPLES / "planetary.gdyn")
    for p in list(model.gear_pairs):
        model.forces[f"{p}_mesh"] = CompliantMesh(f"{p}_mesh", p, backlash=1e-5)
    return train_from_model(model)


def test_harmonic_balance_matches_newmark_on_the_lumped_planetary_within_one_percent(torsional):
    """Five mesh frequencies across the main resonances; the light load (1 N m) and 10 um backlash lose contact."""
    hb = HarmonicBalance(torsional.lumped, 32)  # the involute waveform's jumps and the contact loss need 32
    points = follow(hb, 2000.0, 7000.0, df_max=25.0, stability=True)
    result = CurveResult(1.0, torsional.lumped, hb, points)
    runs = NewmarkIntegrator(torsional.lumped).sweep([2500.0, 4000.0, 4700.0, 5500.0, 6500.0], "forward")
    lost = False
    for run in runs:
        assert run.converged, run.frequency
        ref = mesh_forces(torsional, np.roll(run.x, 1, axis=0), np.roll(run.velocity, 1, axis=0))
        best = None
        for z, stable, _ in hbm_solutions_at(result, run.frequency):
            if stable:  # as for the pair: each mesh force's half peak-to-peak and mean, relative
                f = period_forces(torsional, hb, z, run.frequency, ref.shape[1])
                half = np.ptp(f, axis=1) / np.ptp(ref, axis=1) - 1
                mean = f.mean(axis=1) / ref.mean(axis=1) - 1
                d = float(max(np.abs(half).max(), np.abs(mean).max()))
                best = d if best is None else min(best, d)
        assert best is not None and best < 0.01, (run.frequency, best)
        lost |= bool(contact_lost(torsional, np.roll(run.x, 1, axis=0)).any())
    assert lost, "no point loses contact: the comparison should include one"


def test_floquet_multipliers_of_the_planetary_match_the_newmark_period_map(torsional):
    """At 6474 Hz, above the main resonance with the backlash: the largest multiplier from the monodromy matrix
    against the one of Newmark's period map by central differences (8 states, from the HBM state at phase 0).
    Hill's eigenproblem in the Fourier basis, which the trains used before, chose the wrong exponents here
    (0.389 for 0.544)."""
    hb = HarmonicBalance(torsional.lumped, 32)
    f = 6474.0
    omega = 2 * math.pi * f
    z, _, ok = hb.solve(omega, hb.static_guess())
    assert ok
    theirs = period_map_multiplier(hb, z, f, 4096)
    ours = np.abs(floquet_multipliers(hb, z, omega)).max()
    assert 0.5 < theirs < 1.0
    assert ours == pytest.approx(theirs, rel=1e-4)


def test_monodromy_multipliers_on_bearings_are_the_product_of_one_exponential_per_sample_interval():
    """The compliant planetary (stepped involute stiffness, 22 coordinates) at 1500 Hz: the multipliers, which
    join the sample intervals of equal contact tangent into one exponential each, against the monodromy
    matrix by its definition, one exponential per sample interval of the period, multiplied in time order."""
    train = train_from_model(load(EXAMPLES / "compliant_planetary.gdyn"))
    hb = HarmonicBalance(train.lumped, 8)
    omega = 2 * math.pi * 1500.0
    z, _, ok = hb.solve(omega, hb.static_guess())
    assert ok
    model, n = train.lumped, train.lumped.dofs
    _, tangent = model.restoring(hb.coordinate_samples(z), hb.gaps, hb.stiff)
    m_inv = np.linalg.inv(model.mass)
    phi = np.eye(2 * n)
    for k_t in tangent:
        a = np.block([[np.zeros((n, n)), np.eye(n)],
                      [-m_inv @ (model.stiffness + k_t), -m_inv @ model.damping]])
        phi = scipy.linalg.expm(a * (2 * math.pi / omega / hb.samples)) @ phi
    theirs = np.sort_complex(np.linalg.eigvals(phi))
    ours = np.sort_complex(monodromy_multipliers(hb, z, omega))
    assert 0.1 < np.abs(theirs).max() < 1.0
    assert np.abs(ours - theirs).max() < 1e-9


def test_every_bodys_vibration_matches_newmark_on_the_planetary_on_bearings():
    """The compliant planetary example with a smooth mesh stiffness (4e8 N/m, 20 % cosine) and its bearings and
    arms damped more (8000 N s/m, so Newmark settles in a few hundred periods) at 1500 Hz, near its first
    translational modes: each body's rotation (arc at its rho) and centre translation against Newmark's steady
    state, within 1e-3 of the largest of its kind (the sun, carrier and ring turn 500x less than the planets)."""
    model = load(EXAMPLES / "compliant_planetary.gdyn")
    for name, f in list(model.forces.items()):
        if isinstance(f, CompliantMesh):
            model.forces[name] = dataclasses.replace(f, stiffness="given", k_mean=4e8, k_amplitude=0.8e8,
                                                     waveform="cosine")
        elif isinstance(f, BearingSpringDamper):
            model.forces[name] = dataclasses.replace(f, radial_damping=8000.0)
        elif isinstance(f, SpringDamper):
            model.forces[name] = dataclasses.replace(f, damping=8000.0)
    train = train_from_model(model)
    hb = HarmonicBalance(train.lumped, 6)
    z, _, ok = hb.solve(2 * math.pi * 1500.0, hb.static_guess())
    assert ok
    ours = body_responses(train, hb.coordinate_samples(z, 512))
    run, = NewmarkIntegrator(train.lumped).sweep([1500.0], "forward")
    assert run.converged
    theirs = body_responses(train, run.x)
    for kind in ("rotation", "translation"):
        a = np.array([getattr(r, kind) for r in ours])
        b = np.array([getattr(r, kind) for r in theirs])
        assert b.max() > 1e-8  # [m]: a real vibration of every kind, not round-off
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-3 * b.max(), err_msg=kind)


def test_pairs_without_a_compliant_mesh_are_named_in_one_note():
    """The planetary has six rigid pairs: one note names them all and says which mesh law stands in."""
    notes = train_from_model(load(EXAMPLES / "planetary.gdyn")).notes
    defaulted = [n for n in notes if "no compliant mesh" in n]
    assert defaulted == ["sun_planet1, sun_planet2, sun_planet3, planet1_ring, planet2_ring, planet3_ring: no "
                         "compliant mesh; the compliant mesh's defaults (ISO 6336, involute) are used"]


@pytest.fixture(scope="module")
def planetary():
    """The planetary example as it is: sun 1 N m, ring held, carrier free, the compliant mesh's defaults."""
    return train_from_model(load(EXAMPLES / "planetary.gdyn"))


def _dynamic_factors(train, harmonics, frequency):
    hb = HarmonicBalance(train.lumped, harmonics)
    z, _, ok = hb.solve(2 * math.pi * frequency, hb.static_guess())
    assert ok
    forces = period_forces(train, hb, z, frequency, 4096)
    return np.abs(forces).max(axis=1) / np.abs(static_mesh_forces(train))


def test_the_default_harmonics_give_the_planetarys_dynamic_factors_within_three_percent_of_newmark(planetary):
    """At 1200 Hz, on the superharmonic peaks of the planetary's modes (9.8 to 16.2 kHz): the involute waveform's
    jumps ring at those modes, which 8 harmonics (the default before) do not reach: 30 % low."""
    run, = NewmarkIntegrator(planetary.lumped).sweep([1200.0], "forward")
    assert run.converged
    forces = mesh_forces(planetary, np.roll(run.x, 1, axis=0), np.roll(run.velocity, 1, axis=0))
    newmark = np.abs(forces).max(axis=1) / np.abs(static_mesh_forces(planetary))
    assert newmark.min() > 1.5  # a dynamic load, not the static one
    ours = _dynamic_factors(planetary, TRAIN_DEFAULT_HARMONICS, 1200.0)
    np.testing.assert_allclose(ours, newmark, rtol=0.03)
    assert np.abs(_dynamic_factors(planetary, 8, 1200.0) / newmark - 1).max() > 0.2


def test_a_curve_says_below_which_mesh_frequency_its_harmonics_do_not_resolve_the_train(planetary):
    """Resolved from twice the highest natural frequency over H; at 514 Hz, below that bound for H = 32, the
    dynamic factors are more than 10 % from Newmark's (and within 3 % from the bound up, the test above)."""
    top = max(m.frequency for m in train_modes(planetary))
    curve = train_curve(planetary, 480.0, 1100.0, 32, df_max=20.0)
    assert curve.resolved_from == pytest.approx(2 * top / 32, rel=1e-12) and 1000 < curve.resolved_from < 1020
    note = curve.resolution_note()
    assert f"below {curve.resolved_from:.0f} Hz the 32 harmonics" in note and f"({top:.0f} Hz)" in note
    rows = list(curve_rows([curve]))
    head = curve_header(planetary)
    for row in rows:
        assert row[head.index("resolved")] == int(row[head.index("mesh frequency [Hz]")] >= curve.resolved_from)
    run, = NewmarkIntegrator(planetary.lumped).sweep([514.0], "forward")
    forces = mesh_forces(planetary, np.roll(run.x, 1, axis=0), np.roll(run.velocity, 1, axis=0))
    newmark = np.abs(forces).max(axis=1) / np.abs(static_mesh_forces(planetary))
    assert np.abs(_dynamic_factors(planetary, 32, 514.0) / newmark - 1).max() > 0.1
    assert train_curve(planetary, 1020.0, 1100.0, 32, df_max=20.0).resolution_note() == ""


def test_unstable_spans_are_frequency_bands_however_the_path_folds_through_them():
    """A path that folds back and forth while unstable (the reducer with backlash near 2530 Hz) gave the summary
    'unstable (2529-2522 Hz, 2522-2532 Hz, 2532-2536 Hz)': runs in the path's order, some downwards, one band
    told three times. Each run now spans its lowest to highest frequency, and runs that overlap are one band."""
    def point(f, stable, segment=0):
        return CurvePoint(f, 0.0, 0.0, 0.0, stable, segment, 1, np.zeros(1))

    path = [point(1550, True), point(1556, False), point(1560, False), point(1562, True),  # a run upwards
            point(2500, True), point(2529, False, 1), point(2522, False, 1), point(2525, True, 2),  # folds down
            point(2522, False, 2), point(2532, False, 2), point(2536, False, 3), point(2531, False, 3),
            point(2540, True, 4), point(6648, False, 4), point(6911, False, 4)]  # the last run ends the curve
    assert unstable_spans(path) == [(1556, 1560), (2522, 2536), (6648, 6911)]


def test_newmarks_check_says_how_it_agrees_with_the_curve_and_where_the_curve_has_no_stable_point():
    """The compliant pair's curve from 330 to 2000 Hz checked by Newmark at 330, 1165 and 2000 Hz and at 2100 Hz,
    beyond the curve: the note compares each steady run with the balance solved at its own frequency (0.1 % at
    most here) and names the run it has nothing to compare with instead of leaving it out."""
    curve = train_curve(train_from_model(load(EXAMPLES / "compliant_mesh_pair.gdyn")), 330.0, 2000.0, 32, 10.0)
    runs = newmark_reference(curve, [330.0, 1165.0, 2000.0, 2100.0])
    assert all(run.converged for run in runs)
    for run in runs[:3]:  # the balance at the run's frequency, by the curve's own Newton
        (loads,) = curve.stable_loads_at(run.frequency)
        theirs = [ld.factor for ld in newmark_loads(curve, run)]
        assert [ld.factor for ld in loads] == pytest.approx(theirs, rel=1e-3)
    assert curve.stable_loads_at(2100.0) == []
    assert curve.check.startswith("Newmark check at 4 frequencies: dynamic factors within ")
    assert curve.check.endswith("; no stable point of the curve at 2100 Hz")
    assert float(curve.check.split("within ")[1].split(" %")[0]) < 0.1
