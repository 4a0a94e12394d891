"""Closed loops of gear pairs, from the model's topology: which pairs close them (a planetary set has N - 1)."""

from __future__ import annotations

from core.model.entities import CompliantMesh
from core.model.model import Model


def closing_pairs(model: Model) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rigid gear pairs that close a loop of gear pairs, each with its loop's other steps (gear, pair): the
    pairs of a spanning forest of the gears first, in model order, then each pair whose gears it joins already."""
    gears: set[str] = set()
    edges = []
    soft = {f.pair for f in model.forces.values() if isinstance(f, CompliantMesh)}
    for p in model.gear_pairs.values():
        if p.name in soft:
            continue
        g1, g2 = model.joints[p.joint1].body_j, model.joints[p.joint2].body_j
        gears |= {g1, g2}
        edges.append((g1, g2, p.name))
    parent = {g: g for g in gears}
    tree: dict[str, list[tuple[str, str]]] = {g: [] for g in gears}  # gear -> [(neighbour, pair)]

    def root(g):
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    closing = []
    for a, b, name in edges:
        ra, rb = root(a), root(b)
        if ra == rb:
            closing.append((name, _tree_path(tree, a, b)))
        else:
            parent[ra] = rb
            tree[a].append((b, name))
            tree[b].append((a, name))
    return closing


def _tree_path(tree: dict, a: str, b: str) -> list[tuple[str, str]]:
    """(gear, pair) steps from a to b along the spanning forest of gear pairs."""
    back = {a: None}
    queue = [a]
    while queue:
        g = queue.pop(0)
        if g == b:
            break
        for nxt, pair in tree[g]:
            if nxt not in back:
                back[nxt] = (g, pair)
                queue.append(nxt)
    path = []
    g = b
    while back.get(g) is not None:
        prev, pair = back[g]
        path.append((g, pair))
        g = prev
    return path[::-1]

