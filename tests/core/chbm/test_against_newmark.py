"""HBM against the Newmark DTI reference (the paper's validation) and Hill against Floquet multipliers."""

import dataclasses
import math

import numpy as np
import pytest

from core.chbm.continuation import follow
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.lumped_model import (
    PAPER_CONTACT_RATIO,
    PAPER_CONTACT_STIFFNESS,
    paper_model,
    torsional_two_dof_model,
)
from core.chbm.newmark import NewmarkIntegrator
from core.chbm.stability import (
    floquet_multipliers,
    hill_determinant_multipliers,
    monodromy_multipliers,
)
from core.chbm.study import FOLD_SHARE, dti_check, hbm_solutions_at, period_comparison

# 14 mesh frequencies across 500-4000 Hz: the low range, the super-harmonic resonance near
# 1150 Hz (about half the main one), the main resonance's multi-valued band 1700-2200 Hz and above.
FREQUENCIES = [500.0, 800.0, 1000.0, 1150.0, 1200.0, 1400.0, 1700.0, 1900.0, 2100.0, 2200.0, 2500.0, 3000.0, 3250.0, 4000.0]


@pytest.fixture(scope="module")
def sweeps():
    nm = NewmarkIntegrator(paper_model(100.0))
    return nm.sweep(FREQUENCIES, "forward"), nm.sweep(FREQUENCIES, "backward")


def _match(result, dti):
    """Relative differences (half p2p, mean) to the closest stable HBM solution at the DTI frequency."""
    mean, half, _ = dti.summary()
    best = None
    for z, stable, _ in hbm_solutions_at(result, dti.frequency):
        if not stable:
            continue
        m, h, _ = result.hb.summary(z)
        cand = (abs(h / half - 1), abs(m / mean - 1))
        best = cand if best is None or cand[0] < best[0] else best
    return best


def test_hbm_agrees_with_dti_to_one_percent(paper_curve_100, sweeps):
    worst = [0.0, 0.0]
    for run in [*sweeps[0], *sweeps[1]]:
        assert run.converged, run.frequency
        d_half, d_mean = _match(paper_curve_100, run)
        worst = [max(worst[0], d_half), max(worst[1], d_mean)]
        assert d_half < 0.01 and d_mean < 0.01, (run.frequency, d_half, d_mean)
    print(f"largest HBM-DTI difference: half p2p {worst[0]:.2e}, mean {worst[1]:.2e}")


def test_both_stable_branches_of_the_main_resonance_are_reached(paper_curve_100, sweeps):
    forward = {r.frequency: r.summary()[1] for r in sweeps[0]}
    backward = {r.frequency: r.summary()[1] for r in sweeps[1]}
    for f in (1700.0, 1900.0, 2100.0):
        solutions = hbm_solutions_at(paper_curve_100, f)
        assert len(solutions) == 3 and sum(s for _, s, _ in solutions) == 2  # two stable, one unstable between
        assert backward[f] > 3 * forward[f]  # the run-down stays on the upper branch, the run-up on the lower


def test_super_harmonic_peak_is_near_half_the_main_resonance(paper_curve_100):
    pts = paper_curve_100.points
    folds = [a.frequency for a, b in zip(pts, pts[1:]) if a.segment != b.segment]
    # two softening resonances, each bending over with a pair of turning points
    assert len(folds) == 4
    sup_lo, sup_hi, main_jump, main_top = sorted(folds[:2]) + [folds[2], folds[3]]
    sup = max((p for p in pts if p.frequency < 1400), key=lambda p: p.half_p2p)
    assert sup_lo <= sup.frequency <= sup_hi + 1.0
    # the super-harmonic sits at about half the main resonance of the contact-keeping branch
    assert 0.45 < sup.frequency / main_jump < 0.55
    main = max((p for p in pts if p.frequency > 1400), key=lambda p: p.half_p2p)
    assert main.frequency == pytest.approx(main_top, rel=0.01) and main.half_p2p > sup.half_p2p


def test_mesh_stiffness_at_3250_hz_alternates_between_kc_and_2kc(paper_curve_100, sweeps):
    names, data = period_comparison(paper_curve_100, 3250.0)
    kc = PAPER_CONTACT_STIFFNESS
    for label in ("HBM", "DTI forward"):
        col = next(i for i, n in enumerate(names) if n.startswith(label) and "stiffness" in n)
        k = data[:, col]
        assert set(np.unique(np.round(k / kc, 9))) == {1.0, 2.0}
        assert np.mean(np.isclose(k, 2 * kc, rtol=1e-9)) == pytest.approx(PAPER_CONTACT_RATIO - 1, abs=0.01)
    hbm_x = data[:, names.index(next(n for n in names if n.startswith("HBM") and n.endswith("x [m]")))]
    dti_x = data[:, names.index("DTI forward x [m]")]
    assert np.abs(hbm_x - dti_x).max() < 0.01 * np.abs(dti_x).max()


def test_at_the_super_harmonic_peak_the_teeth_separate(paper_curve_100):
    pts = [p for p in paper_curve_100.points if p.frequency < 1400 and p.stable]
    peak = max(pts, key=lambda p: p.half_p2p)
    nm = NewmarkIntegrator(paper_curve_100.model)
    # start the DTI from the HBM state on that branch so it settles on the same solution
    run = nm.run(peak.frequency, paper_curve_100.hb.state_at_start(peak.z, 2 * math.pi * peak.frequency))
    for x, fc in ((paper_curve_100.hb.output_samples(peak.z, 512), None), (run.dte, run.contact_force)):
        assert (x > 0).any()  # positive TE: no tooth pair in contact, zero mesh stiffness
        assert (x < 0).any()
        if fc is not None:
            assert np.any(fc == 0.0)
    assert run.summary()[1] == pytest.approx(peak.half_p2p, rel=0.01)


def test_hill_verdict_agrees_with_floquet_multipliers_from_time_integration(paper_curve_100):
    """Monodromy matrix of the Newmark period map by central differences, from the HBM state at phase 0."""
    hb, model = paper_curve_100.hb, paper_curve_100.model
    nm = NewmarkIntegrator(model, steps_per_period=4096)
    checked = {True: 0, False: 0}
    for f in (1900.0, 2100.0, 3250.0, 1150.0):
        omega = 2 * math.pi * f
        for z, stable, _ in hbm_solutions_at(paper_curve_100, f):
            y0 = np.concatenate(hb.state_at_start(z, omega))
            scale = np.array([hb.x_scale, hb.x_scale * omega])
            cols = []
            for i in range(2):
                e = np.zeros(2)
                e[i] = 1e-4 * scale[i]
                plus = np.concatenate(nm.advance(f, (y0[:1] + e[:1], y0[1:] + e[1:])))
                minus = np.concatenate(nm.advance(f, (y0[:1] - e[:1], y0[1:] - e[1:])))
                cols.append((plus - minus) / (2 * e[i]))
            multipliers = np.linalg.eigvals(np.column_stack(cols))
            floquet_stable = np.abs(multipliers).max() < 1.0
            hill = floquet_multipliers(hb, z, omega)
            assert floquet_stable == stable, (f, multipliers, hill)
            # and the largest multiplier modulus matches Hill's
            assert np.abs(multipliers).max() == pytest.approx(np.abs(hill).max(), rel=0.05)
            checked[stable] += 1
    assert checked[True] >= 3 and checked[False] >= 2


def test_hill_determinant_and_the_monodromy_matrix_agree_on_the_curve(paper_curve_100):
    """The one-DOF determinant route against the n-DOF monodromy route, at every point of the curve: the same
    verdict, and the largest multiplier within 0.01 (the determinant is truncated at H, the monodromy matrix
    holds the stiffness over each sample interval)."""
    hb = paper_curve_100.hb
    for p in paper_curve_100.points:
        omega = 2 * math.pi * p.frequency
        by_determinant = np.abs(hill_determinant_multipliers(hb, p.z, omega)).max()
        by_monodromy = np.abs(monodromy_multipliers(hb, p.z, omega)).max()
        assert (by_determinant < 1.0) == (by_monodromy < 1.0) == p.stable, p.frequency
        assert by_monodromy == pytest.approx(by_determinant, abs=0.01), p.frequency


def test_two_dof_model_runs_through_the_same_code():
    model = torsional_two_dof_model(0.0158, 0.03, 0.0705, 0.09, 4038.2, 100.0, 1.75, 2.6e8, shaft_stiffness=5e7, shaft_damping=2000.0)
    hb = HarmonicBalance(model, 14)
    pts = follow(hb, 600.0, 3000.0)
    assert len(pts) > 20
    nm = NewmarkIntegrator(model)
    for f in (700.0, 1500.0):
        run = nm.run(f)
        mean, half, _ = run.summary()
        omega = 2 * math.pi * f
        best = min((abs(hb.summary(z)[1] / half - 1), abs(hb.summary(z)[0] / mean - 1))
                   for z, _ in [(hb.solve(omega, p.z)[0], 0) for p in pts if abs(p.frequency - f) < 60])
        assert best[0] < 0.01 and best[1] < 0.01, (f, best)


def test_the_dti_check_says_the_largest_difference_from_the_nearest_stable_solution_and_names_what_it_cannot_compare(
        paper_curve_100, sweeps):
    """The note a study gives of its DTI sweeps (the CHBM window shows it, `geardyn chbm --dti` prints it): the
    largest half peak-to-peak difference of the steady runs from the nearest stable HBM solution, the one
    `_match` finds here, and a run beyond the curve (4200 Hz) named as having no stable solution to compare with."""
    beyond = NewmarkIntegrator(paper_model(100.0)).run(4200.0, sweeps[0][-1].state)
    result = dataclasses.replace(paper_curve_100, forward=[*sweeps[0], beyond], backward=sweeps[1])
    pts = paper_curve_100.points
    folds = [a.frequency for a, b in zip(pts, pts[1:]) if a.segment != b.segment]
    far = [run for run in [*sweeps[0], *sweeps[1]] if all(abs(run.frequency / f - 1) >= FOLD_SHARE for f in folds)]
    worst = max(far, key=lambda run: _match(paper_curve_100, run)[0])
    note = dti_check(result)
    assert note.startswith(f"DTI at {2 * len(FREQUENCIES) + 1} runs: half peak-to-peak DTE within "
                           f"{100 * _match(paper_curve_100, worst)[0]:.2g} % of the nearest stable HBM solution "
                           f"(the most at {worst.frequency:.0f} Hz)"), note
    assert note.endswith("; no stable HBM solution at 4200 Hz"), note
    near = 2 * len(FREQUENCIES) - len(far)
    assert (f"; {near} within 0.5 % of a turning point" in note) == (near > 0), note
