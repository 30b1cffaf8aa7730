"""Flow witnesses: for each dependency of a reported cycle, one flow whose path creates it.

A cycle is easier to believe (and to fix) when every edge `W>X@p -> X>Y@q` comes with a
concrete packet: which source sends it, to which destination, along which path, in which
failure state. Table-driven models re-run the BFS of the edge's destination class with its
parent links kept, find a state pair that makes the edge, walk back to a traffic source and
forward to a delivery; path models re-enumerate the class's paths until one holds the edge.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from netcfg.deadlock.graph import Builder, Graph
from netcfg.routing.forward import Forwarder
from netcfg.routing.network import Network

State = tuple[int, int, int]


class _Found(Exception):
    """Stops a path enumeration at the first path that holds the edge."""


def witnesses(g: Graph, cycles: list[list[int]], intact: Network,
              failed: list[list[str]]) -> list[list[dict[str, Any]]]:
    """Per cycle (node ids of `g`, in order): one flow per edge, in the failure state of `g`
    (`failed` names its failed links). Classes traced once serve every cycle."""
    finder = _Finder(g, intact)
    return [_cycle_witnesses(finder, g, cycle, failed) for cycle in cycles]


def _cycle_witnesses(finder: _Finder, g: Graph, cycle: list[int],
                     failed: list[list[str]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, u in enumerate(cycle):
        v = cycle[(i + 1) % len(cycle)]
        edge = f"{g.node_name(u)} -> {g.node_name(v)}"
        found = finder.flow(u, v)
        if found is None:
            out.append({"edge": edge, "flow": None, "failures": failed})
            continue
        chans, delivered, d = found
        net = g.net
        # an undelivered packet is still headed for its destination (dropped on the way)
        src, dst = net.src[chans[0]], net.dst[chans[-1]] if delivered else d
        out.append({"edge": edge, "flow": [net.names[src], net.names[dst]],
                    "source_port": net.src_port[chans[0]],
                    "path": [net.names[src]] + [net.names[net.dst[c]] for c in chans],
                    "delivered": delivered, "failures": failed})
    return out


class _Finder:
    def __init__(self, g: Graph, intact: Network) -> None:
        self.g = g
        self.intact = intact
        self.builder = Builder(g.net, g.setup, intact=intact, explain=False)
        self.demands = self.builder.demands()
        self.classes = {rep: (rep, members, sources)
                        for rep, members, sources in self.builder.classes(self.demands)}
        self._traced: dict[int, tuple[dict, dict, set, set[int]]] = {}

    def flow(self, u: int, v: int) -> tuple[list[int], bool, int] | None:
        """(channels of the path, delivered?, destination) of one flow making edge u -> v."""
        d = (self.g.cause(u, v) or ("", -1))[1]
        if d < 0:
            return None
        if self.g.setup.model in ("k_bounce", "all_simple_paths"):
            found = self._path_flow(u, v, d)
        else:
            found = self._table_flow(u, v, d)
        return None if found is None else (found[0], found[1], d)

    # ------------------------------------------------------------------ table models
    def _trace(self, d: int) -> tuple[dict, dict, set, set[int]] | None:
        if d not in self._traced:
            cls = self.classes.get(d)
            if cls is None:
                return None
            rep, members, sources = cls
            b = Builder(self.g.net, self.g.setup, intact=self.intact, explain=False)
            b.trace = True
            b.bfs(Forwarder(self.g.net, self.g.setup, rep, self.intact), rep, members, sources)
            assert b.traced is not None
            parents, origin, delivered = b.traced
            self._traced[d] = (parents, origin, delivered, set(members))
        return self._traced[d]

    def _table_flow(self, u: int, v: int, d: int) -> tuple[list[int], bool] | None:
        traced = self._trace(d)
        if traced is None:
            return None
        parents, origin, delivered, _members = traced
        node = self.builder.node
        for s2, ps in sorted(parents.items()):
            if node(s2[0], s2[1]) != v:
                continue
            for s1 in ps:
                if node(s1[0], s1[1]) == u:
                    back = _back(s1, parents, origin)
                    fwd, ok = _forward(s2, parents, delivered)
                    return [s[0] for s in back + fwd], ok
        return None

    # ------------------------------------------------------------------ path models
    def _path_flow(self, u: int, v: int, d: int) -> tuple[list[int], bool] | None:
        b = Builder(self.g.net, self.g.setup, intact=self.intact, explain=False)
        found: list[list[int]] = []

        def hook(_s: int, _d: int, chans: list[int], tags: list[int]) -> None:
            nodes = [b.node(c, t) for c, t in zip(chans, tags)]
            if any(a == u and z == v for a, z in zip(nodes, nodes[1:])):
                found.append(list(chans))
                raise _Found

        b.path_hook = hook
        fwd = Forwarder.__new__(Forwarder)
        fwd.net, fwd.setup, fwd.d, fwd.rules = self.g.net, self.g.setup, d, {}
        net = self.g.net
        for r in self.g.setup.rules:
            if d in net.expand(r.dst) and r.at in net.index:
                fwd.rules.setdefault(net.index[r.at], []).append(r)
        for s in sorted(self.demands.get(d, [])):
            try:
                b._paths(s, d, fwd)
            except _Found:
                return found[0], True
        return None


def _back(state: State, parents: dict, origin: dict) -> list[State]:
    """States from a traffic source to `state` along the links that first reached each."""
    chain = [state]
    seen = {state}
    while chain[-1] not in origin:
        ps = parents.get(chain[-1])
        if not ps or ps[0] in seen:
            break
        chain.append(ps[0])
        seen.add(ps[0])
    return chain[::-1]


def _forward(state: State, parents: dict, delivered: set) -> tuple[list[State], bool]:
    """States from `state` to the nearest delivery (or just `state` if none is reached)."""
    children: dict[State, list[State]] = {}
    for child, ps in parents.items():
        for p in ps:
            children.setdefault(p, []).append(child)
    prev: dict[State, State | None] = {state: None}
    queue = deque([state])
    while queue:
        x = queue.popleft()
        if x in delivered:
            path = [x]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])  # type: ignore[arg-type]
            return path[::-1], True
        for y in sorted(children.get(x, ())):
            if y not in prev:
                prev[y] = x
                queue.append(y)
    return [state], False
