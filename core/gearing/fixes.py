"""The one-click fixes a model check offers: a key of FIXES in a finding's `fix`, applied to its item."""

from __future__ import annotations

import dataclasses

from core.commands import AddItem, Command, Macro, SetSettings
from core.gearing.bearings import carry_on_bearing, mesh_for
from core.gearing.compound import hold_once
from core.gearing.gear_bodies import own_axis_joint
from core.gearing.pair_gears import face_from_gears, pair_from_gears
from core.gearing.placement import place_gear1, place_gear2
from core.model.model import Model

#: key -> (what the fix does, in the words of a menu entry; the command it makes of the model and the item)
FIXES = {
    "place_gear2": ("Move gear 2 into mesh",
                    lambda model, item: Macro(f"Move gear 2 of {item} into mesh",
                                              place_gear2(model, model.gear_pairs[item]))),
    "place_gear1": ("Move gear 1 into mesh",
                    lambda model, item: Macro(f"Move gear 1 of {item} into mesh",
                                              place_gear1(model, model.gear_pairs[item]))),
    "pair_from_gears": ("Take the gears' teeth into the pair and put the gears into mesh", pair_from_gears),
    "face_from_gears": ("Narrow the pair's face to its narrower gear's", face_from_gears),
    "hold_once": ("Hold the shaft by one joint", hold_once),
    "own_axis_joint": ("Turn it on a revolute joint to the ground about its own axis",
                       lambda model, item: AddItem(own_axis_joint(model, item))),
    "carry_on_bearing": ("Let the bearing carry the shaft", carry_on_bearing),
    "compliant_mesh": ("Make the pair compliant (Compliant Mesh, ISO 6336 stiffness)",
                       lambda model, item: AddItem(mesh_for(model, item))),
    # the model's step stays dop853's first one; its tolerances are the model's (on compliant meshes, stiff, it
    # takes fewer evaluations than dopri5 at the same tolerances, to about the same error: test_validation.py)
    "adaptive_steps": ("Integrate with dop853 (adaptive steps)",
                       lambda model, item: SetSettings(model, dataclasses.replace(model.settings, integrator="dop853"))),
}


def fix_command(model: Model, finding) -> Command | None:
    """The command of the fix a validation finding offers, or None; raises ModelError when it cannot be made."""
    entry = FIXES.get(getattr(finding, "fix", ""))
    return entry[1](model, finding.item) if entry else None
