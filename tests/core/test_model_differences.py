"""What changed between two versions of a model (core.model.differences), in the units people read."""

import dataclasses

from core.commands import replace_fields
from core.model import builders
from core.model.differences import differences, in_short
from core.model.entities import TimeLaw, Torque
from core.model.files import load
from tests.conftest import EXAMPLES


def test_a_loads_law_and_the_settings_are_said_in_their_units():
    old = load(EXAMPLES / "planetary.gdyn")
    new = old.copy()
    replace_fields(new, "sun_torque", law=TimeLaw(value=2.0)).do(new)
    new.settings = dataclasses.replace(new.settings, t_end=0.5, integrator="dop853")
    assert differences(old, new) == ["sun_torque.law.value: 1 -> 2 N m", "settings.t_end: 1 -> 0.5 s",
                                     "settings.integrator: rk4 -> dop853"]
    assert differences(old, old.copy()) == []


def test_a_gears_geometry_is_said_as_its_own_field_without_the_mass_that_follows_it_and_items_in_mm():
    """Regenerated 5 mm wider, gear1's mass and inertia change with it: they are not said apart. A position in mm,
    a load taken away and another added are."""
    old = load(EXAMPLES / "two_stage_reducer.gdyn")
    new = old.copy()
    gear = new.bodies["gear1"]
    new.bodies["gear1"] = builders.regenerated(gear, dataclasses.replace(gear.visual.spec, face_width=0.025))
    new.bodies["gear2"] = dataclasses.replace(new.bodies["gear2"], position=(0.0, 0.07, 0.0))
    del new.forces["load"]
    new.forces["brake"] = Torque("brake", "output_joint", TimeLaw(value=-3.0))
    changes = differences(old, new)
    assert changes == ["gear1.face_width: 20 -> 25 mm", "gear2.position: (60, 0, 0) -> (0, 70, 0) mm",
                       "removed load", "added brake"]
    assert in_short(changes, 2) == ("gear1.face_width: 20 -> 25 mm; gear2.position: (60, 0, 0) -> (0, 70, 0) mm; "
                                    "and 2 more")
