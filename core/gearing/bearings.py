"""A gear carried by its bearing: the edit that lets a Bearing Spring-Damper hold the shaft a joint held, the
bearing between two bodies, and the Compliant Mesh a pair on such a gear needs.

A revolute joint holds its gear rigidly, so a bearing beside it carries no load. Marked `on_bearing`, the joint
keeps only its axis (what its gear pairs, torques and motors act about) and the bearing's springs hold the
gear; a gear whose centre moves needs its meshes compliant (a rigid pair holds only the gears' speeds), so the
edit gives each rigid pair on the joint a Compliant Mesh with its defaults (ISO 6336 stiffness, involute
waveform, 7 % damping).
"""

from __future__ import annotations

from core.commands import AddItem, Command, Macro, replace_fields
from core.errors import ModelError
from core.model.entities import BearingSpringDamper, CompliantMesh, RevoluteJoint
from core.model.model import Model


def carry_on_bearing(model: Model, bearing: str) -> Command:
    """The edit that lets `bearing` carry the shaft of the rigid revolute joint between its two bodies; raises
    ModelError when there is no such joint."""
    b = model.forces.get(bearing)
    joint = next((j for j in model.joints.values() if isinstance(b, BearingSpringDamper)
                  and isinstance(j, RevoluteJoint) and not j.on_bearing
                  and {j.body_i, j.body_j} == {b.body_i, b.body_j}), None)
    if joint is None:
        raise ModelError(bearing, "has no rigid revolute joint between its bodies for it to take over")
    meshed = {f.pair for f in model.forces.values() if isinstance(f, CompliantMesh)}
    added: list[str] = []  # names the edit takes before it is done
    edits: list[Command] = [replace_fields(model, joint.name, on_bearing=True)]
    for pair in model.gear_pairs.values():
        if joint.name in (pair.joint1, pair.joint2) and pair.name not in meshed:
            edits.append(AddItem(mesh_for(model, pair.name, added)))
            added.append(edits[-1].item.name)
    return Macro(f"Let {bearing} carry {joint.body_j}", edits)


def bearing_between(model: Model, body_a: str, body_b: str) -> BearingSpringDamper | None:
    """The Bearing Spring-Damper that joins bodies `body_a` and `body_b` (either way round), or None: a revolute
    joint between them keeps only its axis (`on_bearing`), the bearing holding the shaft."""
    return next((f for f in model.forces.values() if isinstance(f, BearingSpringDamper)
                 and {f.body_i, f.body_j} == {body_a, body_b}), None)


def mesh_for(model: Model, pair: str, taken=()) -> CompliantMesh:
    """A Compliant Mesh with its defaults (ISO 6336 stiffness) on gear pair `pair`, named after it: `pair`_mesh, or
    the next name free in `model` and not in `taken`."""
    return CompliantMesh(model.free_name(f"{pair}_mesh", taken), pair)
