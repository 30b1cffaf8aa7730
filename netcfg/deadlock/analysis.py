"""Cycle analysis of a dependency graph: turn safety, SCCs, canonical cycle, breaking turns.

Spec section 2.3: a turn is safe iff the potential `(tag, up(tier asc) < lateral <
down(tier desc))` strictly increases; safe edges alone form a DAG, so a graph without unsafe
turns is proven acyclic without an SCC search. Otherwise SCCs come from
`scipy.sparse.csgraph` (C speed, no per-edge Python objects).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from netcfg.deadlock.graph import Graph


@dataclass
class Component:
    """One cyclic strongly connected component."""

    nodes: list[int]
    cycle: list[int]
    breaking: list[tuple[int, int]]


@dataclass
class Analysis:
    nodes: int
    edges: int
    unsafe: int
    fast_path: bool
    components: list[Component] = field(default_factory=list)

    @property
    def cyclic(self) -> bool:
        return bool(self.components)


def potentials(g: Graph):  # noqa: ANN201 - numpy array
    """Potential of every node as one integer, ordered like the spec's tuple."""
    import numpy as np

    net = g.net
    tier_src = np.asarray([net.tier[s] for s in net.src], dtype=np.int64)
    tier_dst = np.asarray([net.tier[d] for d in net.dst], dtype=np.int64)
    # rank: up (0, tier) -> tier; lateral (1, 0) -> 10; down (2, -tier) -> 20 - tier
    rank = np.where(tier_dst > tier_src, tier_dst,
                    np.where(tier_dst == tier_src, 10, 20 - tier_dst))
    tag_of_k = np.asarray([g.setup.tags_to_priorities.index(p) for p in g.prios], dtype=np.int64)
    width = g.width
    chan = np.repeat(rank, width)
    tags = np.tile(tag_of_k, len(rank))
    return tags * 32 + chan


def analyse(g: Graph) -> Analysis:
    import numpy as np

    u = np.frombuffer(g.src, dtype=np.int64) if len(g.src) else np.zeros(0, np.int64)
    v = np.frombuffer(g.dst, dtype=np.int64) if len(g.dst) else np.zeros(0, np.int64)
    if len(u):
        keys = np.unique(u * (len(g.net.src) * g.width) + v)
        u, v = np.divmod(keys, len(g.net.src) * g.width)
    pot = potentials(g)
    unsafe = pot[v] <= pot[u] if len(u) else np.zeros(0, bool)
    res = Analysis(nodes=g.lossless_nodes(), edges=int(len(u)), unsafe=int(unsafe.sum()),
                   fast_path=not unsafe.any())
    if res.fast_path:
        return res
    res.components = components(g, u, v, unsafe)
    return res


def components(g: Graph, u, v, unsafe) -> list[Component]:  # noqa: ANN001 - numpy arrays
    """Cyclic SCCs with their canonical cycle and breaking turns (spec section 6)."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    # Compact ids over nodes that have edges; int32 keeps the CSR small.
    ids, inv = np.unique(np.concatenate([u, v]), return_inverse=True)
    cu, cv = inv[: len(u)].astype(np.int32), inv[len(u):].astype(np.int32)
    n = len(ids)
    mat = csr_matrix((np.ones(len(cu), dtype=np.int8), (cu, cv)), shape=(n, n))
    _, labels = connected_components(mat, directed=True, connection="strong")
    sizes = np.bincount(labels)
    cyclic_labels = np.nonzero(sizes > 1)[0]
    out = []
    same = labels[cu] == labels[cv]
    for lab in cyclic_labels:
        members = ids[labels == lab]
        in_comp = same & (labels[cu] == lab)
        eu, ev = ids[cu[in_comp]], ids[cv[in_comp]]
        brk = [(int(a), int(b)) for a, b in zip(eu[unsafe[in_comp]], ev[unsafe[in_comp]])]
        cycle = canonical_cycle(g, [int(x) for x in members], list(zip(eu.tolist(), ev.tolist())))
        out.append(Component(sorted(int(x) for x in members), cycle, sorted(brk)))
    out.sort(key=lambda comp: min(g.node_name(x) for x in comp.nodes))
    return out


def canonical_cycle(g: Graph, members: list[int], edges: list[tuple[int, int]]) -> list[int]:
    """Shortest cycle through the lexicographically smallest node, successors in name order."""
    name = g.node_name
    succ: dict[int, list[int]] = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    for a in succ:
        succ[a].sort(key=name)
    start = min(members, key=name)
    parent: dict[int, int] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        x = queue.popleft()
        for y in succ.get(x, ()):
            if y == start:
                path = [x]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if y not in seen:
                seen.add(y)
                parent[y] = x
                queue.append(y)
    return [start]  # unreachable for a cyclic SCC
