"""The CHBM study's lumped pair (core.chbm.from_model) of an internal and of a bevel pair, against the hand formula
and against the lumped train of the same model (core.chbm.train_from_model: another construction of the same
equations)."""

import math

import pytest

from core.chbm.from_model import lumped_from_model
from core.chbm.harmonic_balance import HarmonicBalance
from core.chbm.modes import distinct, train_modes
from core.chbm.train_from_model import train_from_model
from core.commands import AddItem
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import mesh_in_model
from core.model.entities import CompliantMesh, TimeLaw, Torque
from core.model.files import load
from tests.conftest import EXAMPLES

T1 = 100.0  # N m on gear 1


@pytest.mark.parametrize("example, load_ratio", [("inner_pair", -3.0), ("bevel_pair", 2.0)])
def test_an_internal_and_a_bevel_pairs_lumped_pair_is_the_lumped_train_of_the_balanced_pair(example, load_ratio):
    """The study refused both kinds ("the lumped model covers external spur/helical pairs"). The pair is two
    inertias on a mesh spring whatever its kind, on its levers: the base radii (the inner example 20/60) or the
    mean cone's r_m cos(alpha) (the bevel example 20/40). Its Eq. (7) loads gear 1 by T1 against the output's
    balancing torque; the lumped train of the model with that load on gear 2 (-3 T1 on the ring, which turns the
    same way; +2 T1 on the bevel wheel, which turns about its own axis the other way) has the same static
    deflection T1 / (l1 k), the same mesh mode (mesh_in_model's, the Compliant Mesh note's) and, at 0.8 of that
    mode, the same periodic DTE."""
    model = load(EXAMPLES / f"{example}.gdyn")
    pair = next(iter(model.gear_pairs.values()))
    AddItem(Torque("drive", pair.joint1, TimeLaw(value=T1))).do(model)
    AddItem(Torque("load", pair.joint2, TimeLaw(value=load_ratio * T1))).do(model)
    ours = lumped_from_model(model, pair.name, T1)
    train = train_from_model(model)
    k = ours.contacts[0].mean_stiffness
    if example == "bevel_pair":
        lever = (0.030 - 0.010 * math.sin(math.atan(20 / 40))) * math.cos(math.radians(20))
    else:
        lever = 0.002 * 20 / 2 * math.cos(math.radians(20))
    static = ours.output @ ours.static_state()[0]
    assert abs(static) == pytest.approx(T1 / (lever * k), rel=1e-12)
    assert abs(train.lumped.output @ train.lumped.static_state()[0]) == pytest.approx(abs(static), rel=1e-12)
    f_n = mesh_in_model(model, CompliantMesh("mesh", pair.name))[1]
    i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
    assert math.sqrt(k / ours.mass[0, 0]) / (2 * math.pi) == pytest.approx(f_n, rel=1e-12)
    assert ours.mass[0, 0] == pytest.approx(i1 * i2 / (i1 * (lever * pair.z2 / pair.z1) ** 2 + i2 * lever ** 2),
                                            rel=1e-12)
    assert [m.frequency for m in distinct(train_modes(train)) if m.frequency > 0] == pytest.approx([f_n], rel=1e-9)
    spans = []
    for lumped in (ours, train.lumped):
        hb = HarmonicBalance(lumped, 32)
        z, _, ok = hb.solve(2 * math.pi * 0.8 * f_n, hb.static_guess())
        assert ok
        spans.append(hb.summary(z)[1])  # half the DTE's peak-to-peak [m]
    assert spans[0] > 0.01 * abs(static) and spans[1] == pytest.approx(spans[0], rel=1e-9)
