"""The spanning tree of joint coordinates: every body hangs from the ground on revolute and fixed joints.

Breadth first from the ground, in model order: each edge is a joint whose child hangs from its parent and turns
by sign * q[coordinate] about the joint's axis (a fixed joint's edge has no coordinate). The joints left over
close loops: they keep their rows.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from core.errors import GearDynError
from core.model import entities as E
from core.model.model import Model


class TreeError(GearDynError, ValueError):
    """The model's bodies do not all hang from the ground on revolute and fixed joints."""


class Edge:
    """A tree joint: `child` hangs from `parent` (-1: ground) and turns by sign * q[coordinate] about the axis."""

    def __init__(self, joint: str, parent: int, child: int, sign: float, axis, point, coordinate: int | None):
        self.joint, self.parent, self.child, self.sign, self.coordinate = joint, parent, child, sign, coordinate
        self.axis0 = np.asarray(axis, float) / np.linalg.norm(axis)
        self.point0 = np.asarray(point, float)
        self.subtree: list[int] = []


def spanning_tree(model: Model, index: dict[str, int]) -> list[Edge]:
    """Tree edges from the ground, breadth first, in model order; raises TreeError if a body is left over."""
    touching: dict[str, list] = {name: [] for name in index}
    floating = [j for j in model.joints.values() if getattr(j, "on_bearing", False)]
    for j in model.joints.values():
        if j in floating:  # it holds nothing: a bearing's springs carry its body
            continue
        touching[j.body_i].append(j)
        touching[j.body_j].append(j)
    edges, seen, queue, coordinates = [], {E.GROUND}, deque([E.GROUND]), 0
    while queue:
        here = queue.popleft()
        for j in touching[here]:
            other = j.body_j if j.body_i == here else j.body_i
            if other in seen:
                continue
            seen.add(other)
            queue.append(other)
            revolute = isinstance(j, E.RevoluteJoint)
            edges.append(Edge(j.name, index[here], index[other], 1.0 if other == j.body_j else -1.0,
                              j.axis if revolute else (0.0, 0.0, 1.0), j.position, coordinates if revolute else None))
            coordinates += revolute
    left = [name for name in model.bodies if name not in seen]
    if left:
        on = next((f" (joint {j.name!r} is carried by a bearing)" for j in floating if left[0] in (j.body_i, j.body_j)),
                  "")
        raise TreeError(f"body {left[0]!r} is not joined to the ground by revolute or fixed joints{on}, "
                        "so it has no joint coordinates (use the cartesian formulation)")
    children: dict[int, list[Edge]] = {}
    for e in edges:
        children.setdefault(e.parent, []).append(e)
    for e in reversed(edges):  # leaves first: a subtree is the child and its children's subtrees
        e.subtree = [e.child] + [b for c in children.get(e.child, []) for b in c.subtree]
    return edges
