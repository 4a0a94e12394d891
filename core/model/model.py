"""The model: named bodies, joints, gear pairs and forces, and its structural checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from core.model.kinds import COLLECTIONS, kind_title
from core.model.views import Views
from core.model.entities import (
    GROUND,
    MAX_NAME,
    FixedJoint,
    GearPair,
    RevoluteJoint,
    RigidBody,
    SimulationSettings,
    collection_of,
    name_problem,
)
from core.wording import short_repr


def cached(item, key: str, compute):
    """compute(item), worked out once per entity: entities are frozen, so the answer cannot change.

    Validation runs on every edit; this keeps its cost to the items the edit replaced.
    """
    attr = f"_cached_{key}"
    value = item.__dict__.get(attr)
    if value is None:
        value = compute(item)
        object.__setattr__(item, attr, value)
    return value


def shown_name(name: str) -> str:
    """An item's name as a path shows it (its repr), cut only when it is far too long to be a valid name: a
    file may hold a name of thousands of characters, and the error that names it stays one readable line."""
    return short_repr(name, 2 * MAX_NAME)


def own_problems(item) -> list[tuple[str, str]]:
    """item.problems(), once per entity."""
    return list(cached(item, "problems", lambda it: tuple(it.problems())))


@dataclass
class Model:
    """A gear-train model. Item names are unique across all collections.

    ``ground`` is the fixed world body; it is never stored in `bodies`.
    """

    name: str = "untitled"
    description: str = ""
    bodies: dict[str, RigidBody] = field(default_factory=dict)
    joints: dict = field(default_factory=dict)
    gear_pairs: dict[str, GearPair] = field(default_factory=dict)
    forces: dict = field(default_factory=dict)
    settings: SimulationSettings = field(default_factory=SimulationSettings)
    views: Views = field(default_factory=Views)

    def collection(self, name: str) -> dict:
        return getattr(self, name)

    def items(self) -> Iterator[tuple[str, object]]:
        """(collection, item) for every item, in collection and insertion order."""
        for coll in COLLECTIONS:
            for item in self.collection(coll).values():
                yield coll, item

    def find(self, name: str):
        """The item called `name`, or None."""
        for coll in COLLECTIONS:
            item = self.collection(coll).get(name)
            if item is not None:
                return item
        return None

    def names(self) -> set[str]:
        return {item.name for _, item in self.items()}

    def free_name(self, name: str, also=()) -> str:
        """`name`, else name2, name3, ...: the first that no item of the model, nor any of `also`, has."""
        taken = self.names() | set(also)
        free, k = name, 1
        while free in taken:
            k += 1
            free = f"{name}{k}"
        return free

    def numbered(self, stem: str, also=()) -> str:
        """stem1, else stem2, stem3, ...: the first that no item of the model, nor any of `also`, has ('gear3')."""
        taken, k = self.names() | set(also), 1
        while f"{stem}{k}" in taken:
            k += 1
        return f"{stem}{k}"

    def rigid_piece(self, body: str) -> set[str]:
        """The bodies welded to `body` through fixed joints, itself included (the ground too, when it is one of them:
        the search ends there, bodies welded to the ground are not one piece with one another through it)."""
        seen, todo = {body}, [body]
        while todo:
            here = todo.pop()
            if here == GROUND:
                continue
            for j in self.joints.values():
                if isinstance(j, FixedJoint) and here in (j.body_i, j.body_j):
                    other = j.body_j if here == j.body_i else j.body_i
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
        return seen

    def gear_body(self, pair, k: int) -> str:
        """The body carrying gear k (1 or 2) of `pair`: the one it names in gear1/gear2 (a gear welded to a compound
        shaft), else its joint's body_j."""
        named = pair.gear1 if k == 1 else pair.gear2
        return named or self.joints[pair.joint1 if k == 1 else pair.joint2].body_j

    def dependents(self, name: str) -> list:
        """Items that reference `name`, directly or through other dependents, in removal order."""
        out: list = []
        seen = {name}
        frontier = [name]
        while frontier:
            target = frontier.pop()
            for _, item in self.items():
                if item.name not in seen and target in item.references():
                    seen.add(item.name)
                    out.append(item)
                    frontier.append(item.name)
        return out

    def copy(self) -> "Model":
        return Model(self.name, self.description, dict(self.bodies), dict(self.joints),
                     dict(self.gear_pairs), dict(self.forces), self.settings, self.views)

    def simulates_like(self, other: "Model") -> bool:
        """Whether a run of `other` is a run of this model: the same items and settings (the name, the
        description and how results are looked at, `views`, do not enter a simulation)."""
        return (self.bodies, self.joints, self.gear_pairs, self.forces, self.settings) == \
            (other.bodies, other.joints, other.gear_pairs, other.forces, other.settings)

    def draws_like(self, other: "Model") -> bool:
        """Whether `other` has this model's bodies, by name and shape: the poses of a run of one put the other's
        bodies where that run had its own (positions, loads and joints may differ)."""
        return self.bodies.keys() == other.bodies.keys() and all(
            b.visual == other.bodies[name].visual for name, b in self.bodies.items())

    def is_empty(self) -> bool:
        return not any(True for _ in self.items())

    def start_speed(self, joint: str) -> float:
        """The relative speed of revolute joint `joint` at the start [rad/s]: body j's initial angular velocity
        less body i's, about the joint's axis (the ground stands still)."""
        j = self.joints[joint]
        spins = [self.bodies[b].angular_velocity if b in self.bodies else (0.0, 0.0, 0.0)
                 for b in (j.body_i, j.body_j)]
        return float(j.unit_axis() @ (np.subtract(spins[1], spins[0])))

    # ----------------------------------------------------------------- checks

    def reference_problem(self, item, field_name: str) -> str | None:
        """Why the reference `field_name` of `item` does not resolve, or None (a name thousands of characters long,
        from a damaged file, cut)."""
        kind = item.REFERENCE_FIELDS[field_name]
        target_name = getattr(item, field_name)
        if kind == "optional body":
            if target_name == "" or target_name in self.bodies:
                return None
            return f"names an unknown body {short_repr(target_name)} (leave it empty for the joint's body)"
        if kind == "body":
            if target_name == GROUND or target_name in self.bodies:
                return None
            return f"names an unknown body {short_repr(target_name)}"
        target = self.find(target_name)
        if target is None:
            return f"names an unknown {kind} {short_repr(target_name)}"
        if kind == "revolute" and not isinstance(target, RevoluteJoint):
            return f"must name a revolute joint; {short_repr(target_name)} is a {kind_title(type(target))}"
        if kind == "gear pair" and not isinstance(target, GearPair):
            return f"must name a gear pair; {short_repr(target_name)} is a {kind_title(type(target))}"
        return None

    def item_problems(self, item) -> list[tuple[str, str]]:
        """Field problems and unresolved references of one item (which need not be in the model)."""
        msg = name_problem(item.name)
        if msg:
            return [("name", msg)]
        found = own_problems(item)
        for f in item.REFERENCE_FIELDS:
            msg = self.reference_problem(item, f)
            if msg:
                found.append((f, msg))
        return found

    def structural_problems(self) -> list[tuple[str, str]]:
        """(path, message) for everything that makes the model inconsistent.

        Paths look like ``joints['sun_joint'].axis``. An empty list means the
        model can be assembled; engineering rules are `validate()`'s job.
        """
        found = [(f"settings.{n}", m) for n, m in self.settings.problems()]
        msg = name_problem(self.name)
        if msg:
            found.append(("name", msg))
        seen: dict[str, str] = {}
        for coll, item in self.items():
            if item.name == GROUND:
                found.append((f"{coll}['{GROUND}'].name", f"'{GROUND}' is reserved for the world body"))
            if item.name in seen:
                found.append((f"{coll}[{shown_name(item.name)}].name", f"duplicates the name of an item in {seen[item.name]}"))
            seen[item.name] = coll
            if collection_of(item) != coll:
                found.append((f"{coll}[{shown_name(item.name)}]", f"a {type(item).__name__} does not belong in {coll}"))
            found += [(f"{coll}[{shown_name(item.name)}].{n}", m) for n, m in self.item_problems(item)]
        for coll in COLLECTIONS:
            for key, item in self.collection(coll).items():
                if key != item.name:
                    found.append((f"{coll}[{shown_name(key)}].name",
                                  f"is {shown_name(item.name)}, not its key {shown_name(key)}"))
        return found
