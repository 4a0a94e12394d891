"""The pitch point lies in the mid-face plane of the gear that meshes: a compound shaft's second gear.

Two-stage train on the ground: gear 1 (z 20) drives gear 2 (z 40) at z = 0; gear 3 (z 20) is welded to
gear 2's body 40 mm further along the shaft and drives gear 4 (z 40) in that plane. Gear 4's joint sits
in its own mid-face plane, so by the free-body diagram its bearing carries the tooth force and no
tilting moment.
"""

import math

import numpy as np
import pytest

from core.commands import AddItem
from core.dynamics.formulations import FORMULATIONS, assemble
from core.geometry.macro import GearSpec
from core.model import builders
from core.model.entities import FixedJoint, GearPair, RevoluteJoint
from core.model.model import Model
from core.validation import validate

M, B, OFFSET = 0.002, 0.02, 0.04
A = M * (20 + 40) / 2  # 60 mm


def compound_train(name_gear3: bool = True) -> Model:
    model = Model(name="compound")
    spur = lambda z: GearSpec(kind="helical", module=M, teeth=z, face_width=B, bore_diameter=0.01)  # noqa: E731
    for body in (builders.gear_body("gear1", spur(20), (0.0, 0.0, 0.0)),
                 builders.gear_body("gear2", spur(40), (A, 0.0, 0.0)),
                 builders.gear_body("gear3", spur(20), (A, 0.0, OFFSET)),
                 builders.gear_body("gear4", spur(40), (A, A, OFFSET))):
        AddItem(body).do(model)
    # gear 4 placed in mesh with gear 3 (tooth in a space): turn it half a pitch like the builders do
    for joint in (RevoluteJoint("j1", "ground", "gear1", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
                  RevoluteJoint("j2", "ground", "gear2", (A, 0.0, 0.0), (0.0, 0.0, 1.0)),
                  FixedJoint("weld", "gear2", "gear3", (A, 0.0, OFFSET)),
                  RevoluteJoint("j4", "ground", "gear4", (A, A, OFFSET), (0.0, 0.0, 1.0))):
        AddItem(joint).do(model)
    AddItem(GearPair("stage1", "j1", "j2", "ground", z1=20, z2=40, module=M, face_width=B)).do(model)
    AddItem(GearPair("stage2", "j2", "j4", "ground", z1=20, z2=40, module=M, face_width=B,
                     gear1="gear3" if name_gear3 else "")).do(model)
    AddItem(builders.constant_torque("drive", "j1", 10.0)).do(model)
    AddItem(builders.held_joint("hold", "j4")).do(model)
    return model


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_second_stage_force_lands_in_gear_4s_plane(formulation):
    model = compound_train()
    system = assemble(model, formulation)
    ch = system.channels(0.0, system.initial_state())
    r1, alpha = M * 20 / 2, math.radians(20)
    ft1 = 10.0 / r1  # 1000 N on stage 1
    ft2 = ft1 * 2.0  # gear 2 turns the torque up by 2: 20 N m on gear 3, r3 = 20 mm
    assert abs(ch["stage1.Ft [N]"]) == pytest.approx(ft1, rel=1e-9)
    assert abs(ch["stage2.Ft [N]"]) == pytest.approx(ft2, rel=1e-9)
    force4 = np.array([ch[f"j4.F{k} [N]"] for k in "xyz"])
    moment4 = np.array([ch[f"j4.T{k} [N m]"] for k in "xyz"])
    assert np.linalg.norm(force4) == pytest.approx(ft2 / math.cos(alpha), rel=1e-9)  # Ft and Fr, nothing axial
    # no tilting moment on gear 4's bearing (the x and y components; z is what holds the gear)
    assert np.abs(moment4[:2]).max() <= 1e-9 * ft2 * OFFSET
    assert abs(moment4[2]) <= 1e-9 * ft2 * OFFSET  # about the axis the hold motor takes the torque, not the joint
    # the compound shaft: stage-1 force in z = 0 and stage-2 force in z = 40 mm; its bearing at z = 0 holds
    # the moment of the second about the joint point: 40 mm times the in-plane force, perpendicular to z
    moment2 = np.array([ch[f"j2.T{k} [N m]"] for k in "xyz"])
    assert math.hypot(moment2[0], moment2[1]) == pytest.approx(OFFSET * ft2 / math.cos(alpha), rel=1e-9)


def test_a_welded_gear_left_unnamed_is_a_finding():
    text = [str(f) for f in validate(compound_train(name_gear3=False))]
    assert any("mid-face planes of 'gear2' and 'gear4' are 40 mm apart" in t for t in text), text
    assert not any("mid-face" in str(f) for f in validate(compound_train()))


def test_a_gear_body_not_welded_is_an_error():
    model = compound_train()
    from core.commands import replace_fields
    replace_fields(model, "stage2", gear1="gear1").do(model)
    found = [f for f in validate(model) if f.severity == "error"]
    assert any("stage2.gear1" == f.item and "not welded" in f.message for f in found), [str(f) for f in found]
