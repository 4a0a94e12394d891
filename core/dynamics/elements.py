"""The element registry: for each kind of model entity, the builder that makes the solver's element of it.

A builder is a function ``builder(system, entity) -> element`` registered with
``@builds(EntityClass)`` next to the element it makes (core.dynamics.constraints
for joints, gear pairs and speed motors; core.dynamics.force_elements for the
force elements). `System` builds every joint, gear pair and force of a model by
looking its type up here, in that order, so a builder may use what the earlier
ones set up on the system:

- ``system.geometry[joint]``: a joint's JointGeometry (after the joints);
- ``system.angle_index[joint]``: the extra state holding a revolute joint's angle;
- ``system.gears[pair]``: a pair's GearConstraint (after the pairs);
- ``system.index[body]``, ``system.pose0(body_index)``, ``system.com``, ``system.model``;
- ``system.new_extra()``: a new extra state (an angle, a phase error, a motor error) and its index.

What the builder returns decides its place: a `Constraint` (rows of the
constraint equations, see core.dynamics.constraints) or a `ForceElement` (see
below); ``None`` adds nothing (a gear pair made soft by a compliant mesh is a
force, not a constraint). Adding a force element is: its entity in
core.model.entities, and its class with its builder in force_elements.py.
"""

from __future__ import annotations

from typing import Callable

#: entity class -> builder(system, entity) -> element or None
BUILDERS: dict[type, Callable] = {}


def builds(*entity_types: type):
    """Register the decorated function as the builder of the elements of `entity_types`."""

    def register(builder: Callable) -> Callable:
        for cls in entity_types:
            if cls in BUILDERS:
                raise ValueError(f"{cls.__name__} already has a builder: {BUILDERS[cls].__name__}")
            BUILDERS[cls] = builder
        return builder

    return register


def build(system, entity):
    """The element of `entity` on `system` (None when it adds nothing); TypeError for an entity without a builder."""
    try:
        builder = BUILDERS[type(entity)]
    except KeyError:
        raise TypeError(f"{entity.name}: no solver element is registered for a {type(entity).__name__}") from None
    return builder(system, entity)


class ForceElement:
    """A force element: forces and torques from the state, with its energies and its output channels.

    The contract, after scipy's OdeSolver style:

    1. ``name``: the model item it comes from (its channels are named after it).
    2. ``apply(t, s, loads, out)`` adds its forces and torques at time t [s] and
       snapshot s (core.dynamics.constraints.Snapshot) to `loads`
       (core.dynamics.force_elements.Loads: world axes, about the bodies'
       centres of mass, ground entries dropped): ``loads.force_at(body, force,
       arm)``, ``loads.torque(body, torque)``; and its share of
       ``loads.potential`` [J], ``loads.work_rate`` (power fed in from outside
       [W]) and ``loads.dissipation`` [W]. It is a pure function of (t, s):
       nothing is kept between calls.
    3. When `out` is not None (an output sample, not an evaluation of the
       equations), it adds its channels with ``out.add(item, quantity, unit,
       value, group, description)`` in the same order at every sample.
    """

    name = ""

    def apply(self, t, s, loads, out) -> None:
        raise NotImplementedError
