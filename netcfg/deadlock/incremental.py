"""Cycle check of "an acyclic base graph, minus some queues, plus a few edges".

The failure sweep checks thousands of graphs that differ from one base graph by a handful of
edges. Re-sorting and re-searching the whole base for each would cost O(E) per failure, so the
base is indexed once: deduplicated CSR arrays and a topological level per node (longest path
from a root; every base edge goes strictly up a level).

A cycle of the changed graph must use an added edge that does not go up a level ("backward"
edge), and all its nodes lie at or below the highest backward tail (the cycle's top node is
left by a backward edge). So only nodes reachable from backward heads below that level are
searched, and the SCC search runs on that small part alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = Any  # numpy int64 array


class BaseIndex:
    """An acyclic dependency graph as CSR arrays with topological levels."""

    def __init__(self, u: Array, v: Array, n: int) -> None:
        keys = np.unique(u.astype(np.int64) * n + v.astype(np.int64))
        u, v = np.divmod(keys, n)  # sorted by tail: ready for CSR
        self.n = n
        self.u, self.v = u, v
        self.indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(u, minlength=n), out=self.indptr[1:])
        self.indices = v
        self.level = _levels(u, v, n)

    @property
    def edges(self) -> int:
        return len(self.u)

    def cyclic_with(self, add_u: Array, add_v: Array, removed: Array) -> bool:
        """Whether base - `removed` nodes + edges (add_u -> add_v) has a cycle (an SCC of
        two or more nodes, as `analysis.analyse` counts them)."""
        return self.cycle_with(add_u, add_v, removed) is not None

    def cycle_with(self, add_u: Array, add_v: Array, removed: Array) -> list[int] | None:
        """One cycle (its nodes in order) of base - `removed` nodes + edges (add_u ->
        add_v), or None when that graph is acyclic."""
        if not len(add_u):
            return None
        gone = np.zeros(self.n, dtype=bool)
        gone[removed] = True
        keep = ~(gone[add_u] | gone[add_v])
        add_u, add_v = add_u[keep], add_v[keep]
        lvl = self.level
        back = lvl[add_v] <= lvl[add_u]
        if not back.any():
            return None  # the levels still order every edge
        top = lvl[add_u[back]].max()
        reach = self._reach(add_v[back], add_u, add_v, gone, top)
        if not reach[add_u[back]].any():
            return None  # no backward edge closes a loop
        return _one_cycle(self, reach, add_u, add_v)

    def _reach(self, start: Array, add_u: Array, add_v: Array, gone: Array, top: int) -> Array:
        """Nodes reachable from `start` over base and added edges, without leaving the
        levels <= `top` or entering removed nodes."""
        lvl = self.level
        seen = np.zeros(self.n, dtype=bool)
        allowed = ~gone & (lvl <= top)
        seen[start[allowed[start]]] = True
        frontier = np.flatnonzero(seen)
        order = np.argsort(add_u, kind="stable")
        add_u, add_v = add_u[order], add_v[order]
        while len(frontier):
            lo, hi = self.indptr[frontier], self.indptr[frontier + 1]
            a, b = np.searchsorted(add_u, frontier), np.searchsorted(add_u, frontier, "right")
            cand = np.concatenate([self.indices[_ranges(lo, hi)], add_v[_ranges(a, b)]])
            new = np.zeros(self.n, dtype=bool)  # a mask dedupes faster than np.unique here
            new[cand[allowed[cand]]] = True
            new &= ~seen
            seen |= new
            frontier = np.flatnonzero(new)
        return seen


def _ranges(lo: Array, hi: Array) -> Array:
    """Concatenation of arange(lo[i], hi[i]) for all i, without a Python loop."""
    lens = hi - lo
    total = int(lens.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    starts = np.repeat(lo - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
    return starts + np.arange(total)


def _levels(u: Array, v: Array, n: int) -> Array:
    """Longest-path level of every node; raises if the graph has a cycle."""
    level = np.zeros(n, dtype=np.int64)
    for _ in range(n + 1):
        cand = level.copy()
        np.maximum.at(cand, v, level[u] + 1)
        if np.array_equal(cand, level):
            return level
        level = cand
    raise ValueError("base graph is cyclic")


def _one_cycle(base: BaseIndex, inside: Array, add_u: Array, add_v: Array) -> list[int] | None:
    """A cycle among the `inside` nodes (base edges between them plus the added ones)."""
    nodes = np.nonzero(inside)[0]
    rows = _ranges(base.indptr[nodes], base.indptr[nodes + 1])
    eu = np.concatenate([base.u[rows], add_u])
    ev = np.concatenate([base.v[rows], add_v])
    keep = inside[eu] & inside[ev]
    ids = np.full(base.n, -1, dtype=np.int64)
    ids[nodes] = np.arange(len(nodes))
    found = cycle_in(ids[eu[keep]], ids[ev[keep]], len(nodes))
    return None if found is None else [int(nodes[i]) for i in found]


def cycle_in(a: Array, b: Array, m: int) -> list[int] | None:
    """One cycle (nodes in order) of the graph on nodes 0..m-1 with edges a -> b: a strongly
    connected component of two or more nodes (scipy), walked from one of its nodes back to
    it; None when there is none."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order, connected_components

    mat = csr_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(m, m))
    _, labels = connected_components(mat, directed=True, connection="strong")
    big = np.flatnonzero(np.bincount(labels) > 1)
    if not len(big):
        return None
    inner = (labels[a] == big[0]) & (labels[b] == big[0])
    a, b = a[inner], b[inner]  # the component's own edges
    sub = csr_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(m, m))
    start = int(a[0])
    _, pred = breadth_first_order(sub, start, directed=True, return_predecessors=True)
    last = int(a[(b == start) & (a != start)][0])  # back into start: every node reaches it
    walk = [last]
    while walk[-1] != start:
        walk.append(int(pred[walk[-1]]))
    return walk[::-1]
