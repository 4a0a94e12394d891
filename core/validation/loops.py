"""Closed loops in the model's topology: of gear pairs (a planetary set has N - 1) and of joints (a shaft held
twice), and which item closes each."""

from __future__ import annotations

from core.model.entities import CompliantMesh
from core.model.model import Model


def closing_pairs(model: Model) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rigid gear pairs that close a loop of gear pairs, each with its loop's other steps (gear, pair): the
    pairs of a spanning forest of the gears first, in model order, then each pair whose gears it joins already."""
    soft = {f.pair for f in model.forces.values() if isinstance(f, CompliantMesh)}
    return _closing([(model.joints[p.joint1].body_j, model.joints[p.joint2].body_j, p.name)
                     for p in model.gear_pairs.values() if p.name not in soft])


def closing_joints(model: Model) -> list[tuple[str, list[tuple[str, str]]]]:
    """The joints that close a loop of joints (the ground one of its nodes), each with its loop's other steps
    (body, joint), in the same way: a body held by a joint of its own and welded to a body that has one too."""
    return _closing([(j.body_i, j.body_j, j.name) for j in model.joints.values()])


def _closing(edges: list[tuple[str, str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The edges (node, node, name) that close a loop, each with the path (node, edge) that the edges before it
    make between its nodes: a spanning forest of the edges taken in order, and the rest."""
    parent: dict[str, str] = {}
    tree: dict[str, list[tuple[str, str]]] = {}  # node -> [(neighbour, edge)]

    def root(n):
        parent.setdefault(n, n)
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    closing = []
    for a, b, name in edges:
        ra, rb = root(a), root(b)
        if ra == rb:
            closing.append((name, _tree_path(tree, a, b)))
        else:
            parent[ra] = rb
            tree.setdefault(a, []).append((b, name))
            tree.setdefault(b, []).append((a, name))
    return closing


def _tree_path(tree: dict, a: str, b: str) -> list[tuple[str, str]]:
    """(node, edge) steps from a to b along the spanning forest."""
    back = {a: None}
    queue = [a]
    while queue:
        g = queue.pop(0)
        if g == b:
            break
        for nxt, edge in tree.get(g, []):
            if nxt not in back:
                back[nxt] = (g, edge)
                queue.append(nxt)
    path = []
    g = b
    while back.get(g) is not None:
        prev, edge = back[g]
        path.append((g, edge))
        g = prev
    return path[::-1]
