"""One mesh model for both solvers: the CHBM curve and a multibody run of the same pair at steady speed agree.

The seed-002 pair made helical (15 deg, so the involute waveform is continuous: eps_beta 0.64) with the
default compliant mesh: ISO 6336-1 stiffness, involute waveform, 7 % of critical damping, no backlash.
The CHBM solves the lumped pair built from the model (`lumped_from_model`, contact 'mesh'); the
multibody run turns the gears at the same mesh frequency with balanced torques (T1 on gear 1, T1 z2 / z1
against gear 2) by RK4 at 1/40 of the mesh mode's period, 40 mesh periods, the last 10 measured.
"""

import math

import numpy as np
import pytest

from core.chbm.from_model import lumped_from_model
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.study import period_comparison, run_study
from core.commands import replace_fields
from core.dynamics.simulate import simulate
from core.model.entities import CompliantMesh
from core.model.files import load
from tests.conftest import EXAMPLES

T1 = 100.0


@pytest.fixture(scope="module")
def pair_model():
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    del model.forces["mesh"]
    model.forces["mesh"] = CompliantMesh("mesh", "pair")
    replace_fields(model, "pair", helix_angle=math.radians(15.0)).do(model)
    return model


@pytest.mark.parametrize("share", [0.3, 0.45, 0.7])
def test_chbm_and_multibody_agree_at_steady_speed(pair_model, share):
    model = pair_model.copy()
    lumped = lumped_from_model(model, "pair", T1)
    assert "mesh model of the compliant mesh 'mesh'" in lumped.notes[0]
    law = lumped.contacts[0].law
    f_n = math.sqrt(law.k_mean / lumped.mass[0, 0]) / (2 * math.pi)  # mesh mode, about 2.9 kHz
    f_mesh = share * f_n
    hb = HarmonicBalance(lumped, 30)
    z, _, converged = hb.solve(2 * math.pi * f_mesh, hb.static_guess())
    assert converged
    hb_mean, hb_half, _ = hb.summary(z)
    z1, z2 = model.gear_pairs["pair"].z1, model.gear_pairs["pair"].z2
    w1 = 2 * math.pi * f_mesh / z1
    replace_fields(model, "gear1", angular_velocity=(0.0, 0.0, w1)).do(model)
    replace_fields(model, "gear2", angular_velocity=(0.0, 0.0, -w1 * z1 / z2)).do(model)
    period = 1.0 / f_mesh
    h = period / round(period * 40 * f_n)
    res = simulate(model, t_end=40 * period, step=h, output_step=h, integrator="rk4")
    assert res.status == "finished", res.message
    delta = res.channel("mesh.deflection")  # along the line of action, positive on the drive flanks
    last = res.time > res.time[-1] - 10 * period - 1e-12
    dae_mean, dae_half = float(delta[last].mean()), 0.5 * float(np.ptp(delta[last]))
    # the CHBM's x = theta2 r_b2 - theta1 r_b1 is the same deflection with the opposite sign
    print(f"f_mesh {f_mesh:.0f} Hz: mean {hb_mean:.5e} / {-dae_mean:.5e}, half p-p {hb_half:.5e} / {dae_half:.5e}")
    assert -dae_mean == pytest.approx(hb_mean, rel=0.01)
    assert dae_half == pytest.approx(hb_half, rel=0.01)


def test_the_period_plots_coast_flank_force_is_negative_and_its_mesh_stiffness_the_meshs():
    """The example's mesh has no backlash: at its main resonance (about 1637 Hz at 200 N m) the DTE swings
    through zero, and the coast flank carries the load while x > 0. The period plot summed the two flanks'
    force magnitudes, so Fc / (-x) read -k there (about -250 N/um against +150 to +230 N/um on the drive
    flank). Along the DTE the coast flank pushes the other way: Fc = -k(t) x on both flanks (the contact is
    linear when both flanks close at zero gap), and the mesh stiffness Fc / (-x) is the mesh's k(t)."""
    model = load(EXAMPLES / "compliant_mesh_pair.gdyn")
    (result,) = run_study(lambda torque: lumped_from_model(model, "pair", torque), [200.0], 1550.0, 1700.0,
                          harmonics=14)
    peak = max(result.points, key=lambda p: p.half_p2p)
    names, data = period_comparison(result, peak.frequency, dti=False)
    x, fc, k = (data[:, names.index(f"HBM seg{peak.segment} stable {q}")] for q in ("x [m]", "Fc [N]",
                                                                                   "mesh stiffness [N/m]"))
    assert (x > 0).any() and (x < 0).any()  # both flanks carry in the period
    lumped = result.model
    stiffness = lumped.stiffnesses(np.arange(len(x)) / len(x))[0]  # drive and coast flank: the same k(t)
    assert fc == pytest.approx(-stiffness * x, rel=1e-9, abs=1e-9 * np.abs(fc).max())
    assert k[x != 0] == pytest.approx(stiffness[x != 0], rel=1e-6)
