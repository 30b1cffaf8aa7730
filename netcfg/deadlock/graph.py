"""Build the buffer dependency graph (spec section 2): nodes are lossless ingress queues.

A node is `channel * P + k`: channel id times the number of distinct lossless priorities in
play plus the priority's index. Edges are collected into flat integer arrays; the only
per-edge record kept is why it exists (first writer wins, two more arrays) for reporting.

Table-driven models (updown, shortest_path, bounce_on_failure) run a BFS per destination class
over `channel x tag x bounces` from the traffic sources, so only reachable pairs contribute
edges. Path models (k_bounce, all_simple_paths) enumerate simple paths per flow.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from netcfg.routing.forward import BOUNCE, BOUNCED, ECMP, FLOODED, RULE, Forwarder
from netcfg.routing.network import Network
from netcfg.routing.setup import FLOOD, RoutingSetup

PATH = "path"
#: the causes an edge records, by index (Graph.why)
CAUSES = (ECMP, BOUNCE, BOUNCED, FLOODED, RULE, PATH)
CAUSE = {name: i for i, name in enumerate(CAUSES)}


@dataclass
class Graph:
    """Edges of the dependency graph plus what reports need to explain them."""

    net: Network
    setup: RoutingSetup
    #: distinct priorities of the graph; node id = channel * len(prios) + index
    prios: list[int]
    src: array = field(default_factory=lambda: array("q"))
    dst: array = field(default_factory=lambda: array("q"))
    #: per edge, in `src`/`dst` order, when `explain` is on: why it exists (an index into
    #: CAUSES) and the destination device index of the flow that made it. Arrays, not a
    #: dict per edge: an explained build makes millions of edges, few are ever asked about
    why: array = field(default_factory=lambda: array("b"))
    why_dest: array = field(default_factory=lambda: array("q"))
    _first: Any = field(default=None, repr=False)
    unroutable: set[tuple[str, str]] = field(default_factory=set)
    #: flows that were checked (pairs), for the report
    flows: int = 0

    @property
    def width(self) -> int:
        return len(self.prios)

    def cause(self, u: int, v: int) -> tuple[str, int] | None:
        """(cause, destination index) of edge u -> v as its first maker recorded it, or
        None when the graph was built without `explain` or has no such edge."""
        import numpy as np

        if not len(self.why):
            return None
        if self._first is None:  # sorted distinct edges, each with its first position
            keys = (np.frombuffer(self.src, dtype=np.int64) * (1 << 32)
                    + np.frombuffer(self.dst, dtype=np.int64))
            self._first = np.unique(keys, return_index=True)
        keys, first = self._first
        key = u * (1 << 32) + v
        at = int(np.searchsorted(keys, key))
        if at == len(keys) or keys[at] != key:
            return None
        i = int(first[at])
        return CAUSES[self.why[i]], self.why_dest[i]

    def node_name(self, node: int) -> str:
        c, k = divmod(node, self.width)
        return f"{self.net.channel_name(c)}@{self.prios[k]}"

    def lossless_nodes(self) -> int:
        """How many ingress queues exist (channels x usable lossless priorities)."""
        alive = sum(1 for c, ok in enumerate(self.net.lossless)
                    if ok and c not in self.net.failed)
        return alive * sum(1 for p in self.prios if p in self.setup.pfc_priorities)


class Builder:
    """Accumulates edges for one network state and one routing setup."""

    def __init__(self, net: Network, setup: RoutingSetup, *, intact: Network | None = None,
                 explain: bool = True) -> None:
        self.net = net
        self.setup = setup
        self.intact = intact
        self.explain = explain
        self.keep_states = False
        #: keep each BFS's parent links (flow witnesses walk them back to a source)
        self.trace = False
        self.traced: tuple[dict, dict, set] | None = None
        #: called with (source, destination, channels, tags) for every path a path model emits
        self.path_hook: Callable[[int, int, list[int], list[int]], None] | None = None
        tags = setup.tags_to_priorities
        prios: list[int] = []
        for p in tags:
            if p not in prios:
                prios.append(p)
        #: tag -> priority index, or -1 when the priority has no PFC (lossy)
        self.tag_k = [prios.index(p) if p in setup.pfc_priorities else -1 for p in tags]
        self.graph = Graph(net, setup, prios)
        self.dead = {i for h in setup.dead_hosts for i in net.expand(h)}
        tier = net.tier
        self.dateline = {(net.index[a], net.index[b]) for a, b in setup.dateline
                         if a in net.index and b in net.index}
        self.tag_on_bounce = setup.rewrite == "tag_on_bounce"
        self._tier = tier
        #: the endpoint a node's flows count for (its server, where a server is one
        #: endpoint), by the endpoint's first node: integers keep the per-pair count cheap
        self.endpoint = list(range(net.n))
        if setup.endpoints == "host":
            for nodes in net.aliases.values():
                for i in nodes:
                    self.endpoint[i] = nodes[0]
        #: source endpoint * n + destination endpoint -> delivered over some pair of nodes
        self._delivered: dict[int, bool] = {}

    # ------------------------------------------------------------------ nodes and tags

    def node(self, c: int, t: int) -> int:
        """Graph node of channel `c` carrying tag `t`, or -1 when that queue is lossy."""
        if t >= len(self.tag_k) or not self.net.lossless[c]:
            return -1
        k = self.tag_k[t]
        return -1 if k < 0 else c * self.graph.width + k

    def bump(self, w: int | None, x: int, y: int) -> int:
        """Tag increase for the turn w -> x -> y (Tagger bounce, or crossing a dateline)."""
        inc = 0
        tier = self._tier
        if self.tag_on_bounce and w is not None and tier[w] > tier[x] < tier[y]:
            inc += 1
        if self.dateline and (x, y) in self.dateline:
            inc += 1
        return inc

    def edge(self, u: int, v: int, cause: str, d: int) -> None:
        if u < 0 or v < 0:
            return
        self.graph.src.append(u)
        self.graph.dst.append(v)
        if self.explain:
            self.graph.why.append(CAUSE[cause])
            self.graph.why_dest.append(d)

    # ------------------------------------------------------------------ traffic

    def demands(self) -> dict[int, list[int]]:
        """Destination -> sources, from the traffic pattern (dead hosts send nothing)."""
        net = self.net
        traffic = self.setup.traffic
        out: dict[int, list[int]] = {}
        end = self.endpoint
        if isinstance(traffic, list):
            for s, d in traffic:
                for si in net.expand(s):
                    for di in net.expand(d):
                        if end[si] != end[di]:
                            out.setdefault(di, []).append(si)
            for dst in out:
                out[dst] = [s for s in out[dst] if s not in self.dead]
        else:
            # the nodes of one endpoint (a server's ports) share one list of sources (read
            # only), so a 2,048-GPU fabric builds 256 lists of 2,040 sources, not 2,048
            ends, live = self.pair_ends()
            shared: dict[int, list[int]] = {}
            for e in ends:
                srcs = shared.get(end[e])
                if srcs is None:
                    srcs = shared[end[e]] = self.sources_to([e], live)
                out[e] = srcs
        return {d: s for d, s in out.items() if s}

    def pair_ends(self) -> tuple[list[int], list[int]]:
        """All-pairs traffic: its destinations (every host, or every leaf, that some live
        end of another endpoint sends to) and its live sources (the ends without the dead
        hosts)."""
        tier = 0 if self.setup.traffic == "all_host_pairs" else 1
        ends = [i for i in range(self.net.n) if self.net.tier[i] == tier]
        live = [x for x in ends if x not in self.dead]
        senders = {self.endpoint[x] for x in live}
        if len(senders) > 1:  # every end hears from an endpoint other than its own
            return ends, live
        return [e for e in ends if senders - {self.endpoint[e]}], live

    def sources_to(self, members: list[int], live: list[int]) -> list[int]:
        """All-pairs sources towards these destinations: every live end of another
        endpoint than theirs (members of two endpoints hear from every live end)."""
        own = {self.endpoint[m] for m in members}
        if len(own) > 1:
            return live
        e = own.pop()
        return [x for x in live if self.endpoint[x] != e]

    def groups(self, dests: Iterable[int]) -> list[tuple[tuple[int, ...] | None, list[int]]]:
        """Destinations that share one BFS, with the live switches they hang off (None:
        a destination searched alone). Only all-pairs host traffic is grouped; members must
        hang off the same live switches and be neither dead nor named by a rule, so
        grouping is exact."""
        net = self.net
        special = self.dead | {i for r in self.setup.rules for i in net.expand(r.dst)}
        grouped: dict[tuple[int, ...], list[int]] = {}
        singles: list[tuple[tuple[int, ...] | None, list[int]]] = []
        for d in dests:
            if (self.setup.traffic == "all_host_pairs" and net.tier[d] == 0
                    and d not in special):
                grouped.setdefault(tuple(sorted(net.alive(d))), []).append(d)
            else:
                singles.append((None, [d]))
        return [(key, members) for key, members in grouped.items()] + singles

    def classes(self, demands: dict[int, list[int]]) -> list[tuple[int, list[int], list[int]]]:
        """(representative, members, sources) per destination class (`groups`)."""
        out = []
        for key, members in self.groups(demands):
            if key is None:
                out.append((members[0], members, demands[members[0]]))
                continue
            lists = {id(demands[m]): demands[m] for m in members}  # shared lists once
            srcs = sorted({s for got in lists.values() for s in got})
            out.append((members[0], members, srcs))
        return out

    # ------------------------------------------------------------------ table-driven models

    def run_tables(self) -> Graph:
        demands = self.demands()
        #: per destination class: (rep, members, sources, forwarder, reached states)
        self.reached: list[tuple[int, list[int], list[int], Forwarder, set]] = []
        for rep, members, sources in self.classes(demands):
            fwd = Forwarder(self.net, self.setup, rep, self.intact)
            delivered = self.bfs(fwd, rep, members, sources)
            if self.keep_states:
                self.reached.append((rep, members, sources, fwd, self.last_seen))
            # _flow for every pair, written out: all-pairs traffic makes millions of them
            end, n, got = self.endpoint, self.net.n, self._delivered
            for m in members:
                to = end[m]
                for s in demands[m]:
                    if s in delivered:
                        got[end[s] * n + to] = True
                    else:
                        got.setdefault(end[s] * n + to, False)
        return self._counted()

    def _flow(self, s: int, d: int, delivered: bool) -> None:
        key = self.endpoint[s] * self.net.n + self.endpoint[d]
        self._delivered[key] = self._delivered.get(key, False) or delivered

    def _counted(self) -> Graph:
        """The flows between endpoints, and those no pair of their nodes delivers (named
        after the server, or the node where each node is its own endpoint)."""
        net = self.net
        named = {nodes[0]: host for host, nodes in net.aliases.items()} \
            if self.setup.endpoints == "host" else {}
        self.graph.flows = len(self._delivered)
        self.graph.unroutable = {
            (named.get(a, net.names[a]), named.get(b, net.names[b]))
            for a, b in (divmod(k, net.n) for k, ok in self._delivered.items() if not ok)}
        return self.graph

    def bfs(self, fwd: Forwarder, rep: int, members: list[int], sources: list[int],
            seeds: list | None = None, known: dict | None = None) -> set[int]:
        """BFS over (channel, tag, bounces) for one destination class; returns the sources
        whose packets can be delivered.

        `seeds`/`known` restart it from given states (the incremental failure sweep). `known`
        maps (channel, tag) to the fewest bounces the start graph expanded it with; a state
        with at least that many is not expanded again (its hops are a subset: more bounces
        only forbid a further bounce), except a seed.

        Inside, a state is one integer, ((channel * (tags + 1)) + tag) * NB + bounces, which
        orders as the (channel, tag, bounces) tuple does: a large fabric pushes millions of
        states, and an int costs neither a tuple's allocation nor its hash. `last_seen` and
        `traced` give them back as tuples."""
        net = self.net
        alive_out = net.alive
        dst_of, src_of = net.dst, net.src
        member_set = set(members)
        ntags = len(self.tag_k)
        t1 = ntags + 1
        nb = max(self.setup.max_bounces, 0) + 2  # bounces never pass max_bounces + 1

        def key(c: int, t: int, b: int) -> int:
            return (c * t1 + t) * nb + b

        seen: set[int] = set()
        parents: dict[int, list[int]] = {}
        delivered_states: set[int] = set()
        stack: list[int] = []
        origin: dict[int, set[int | None]] = {}
        track = self.trace or (seeds is None and len(sources) * net.n < 4_000_000)

        def push(state: int, parent: int | None, src: int | None) -> None:
            if track:
                if parent is None:
                    origin.setdefault(state, set()).add(src)
                else:
                    parents.setdefault(state, []).append(parent)
            if state not in seen:
                seen.add(state)
                stack.append(state)

        for s in sources:
            if s in member_set:  # a sibling of the destination: same attachments
                hops, b = [y for y in alive_out(s) if self._tier[y] > 0], 0
            else:
                hops, _cause, b = fwd.hops(s, None, 0)
            hops = self._deliver(hops, rep, members, None)
            out = alive_out(s)
            for y in hops:
                for c in out.get(y, ()):
                    push(key(c, min(self.bump(None, s, y), ntags), b), None, s)
        seed_set = set()
        for st in seeds or ():
            k = key(*st)
            seed_set.add(k)
            if k not in seen:
                seen.add(k)
                stack.append(k)
        # the loop below runs once per (state, next hop, channel): millions of times on a
        # large fabric, so node(), bump(), edge() and push() are written out with local names
        lossless, tag_k, width = net.lossless, self.tag_k, self.graph.width
        add_src, add_dst = self.graph.src.append, self.graph.dst.append
        add_srcs, add_dsts = self.graph.src.extend, self.graph.dst.extend
        explain = self.explain
        add_why, add_whys = self.graph.why.append, self.graph.why.extend
        add_dest, add_dests = self.graph.why_dest.append, self.graph.why_dest.extend
        bumps = self.tag_on_bounce or bool(self.dateline)
        tier = self._tier
        while stack:
            state = stack.pop()
            ct, b = divmod(state, nb)
            c, t = divmod(ct, t1)
            x = dst_of[c]
            if x in member_set:
                delivered_states.add(state)
                continue
            if tier[x] == 0:
                continue  # hosts never forward
            if known is not None and known.get((c, t), b + 1) <= b and state not in seed_set:
                continue
            w = src_of[c]
            hops, cause, b2 = fwd.hops(x, w, b)
            hops = self._deliver(hops, rep, members, w)
            u = c * width + tag_k[t] if t < ntags and lossless[c] and tag_k[t] >= 0 else -1
            out = alive_out(x)
            if not bumps and not (b and cause == ECMP):
                # one tag and one cause for every next hop: the whole fan-out at once (the
                # same edges and pushes, in the same order, as the general loop below)
                outs = [c2 for y in hops for c2 in out.get(y, ())]
                if u >= 0:
                    k = u - c * width
                    vs = [c2 * width + k for c2 in outs if lossless[c2]]
                    add_srcs(repeat(u, len(vs)))
                    add_dsts(vs)
                    if explain:
                        add_whys(repeat(CAUSE[cause], len(vs)))
                        add_dests(repeat(rep, len(vs)))
                tb = t * nb + b2
                if track:
                    for c2 in outs:
                        push(c2 * t1 * nb + tb, state, None)
                    continue
                fresh = [st2 for st2 in [c2 * t1 * nb + tb for c2 in outs] if st2 not in seen]
                seen.update(fresh)
                stack.extend(fresh)
                continue
            for y in hops:
                # a tag past the last priority is lossy for good: still delivered, no edges
                t2 = min(t + self.bump(w, x, y), ntags) if bumps else t
                why = cause
                if b and cause == ECMP and tier[w] > tier[x] < tier[y]:
                    why = BOUNCE  # the bounced packet going up again: the unsafe turn
                k2 = tag_k[t2] if u >= 0 and t2 < ntags else -1
                for c2 in out.get(y, ()):
                    if k2 >= 0 and lossless[c2]:
                        v = c2 * width + k2
                        add_src(u)
                        add_dst(v)
                        if explain:
                            add_why(CAUSE[why])
                            add_dest(rep)
                    push(key(c2, t2, b2), state, None)

        def state_of(k: int) -> tuple[int, int, int]:
            ct, b = divmod(k, nb)
            return (*divmod(ct, t1), b)

        if self.keep_states:
            self.last_seen = {state_of(k) for k in seen}
        if self.trace:
            self.traced = ({state_of(k): [state_of(p) for p in ps] for k, ps in parents.items()},
                           {state_of(k): srcs for k, srcs in origin.items()},
                           {state_of(k) for k in delivered_states})
        if not track:
            return set(sources)
        return self._sources_delivering(parents, origin, delivered_states)

    @staticmethod
    def _deliver(hops: list[int], rep: int, members: list[int], w: int | None) -> list[int]:
        """Replace the class representative by every member host (except the ingress)."""
        if len(members) == 1 or rep not in hops:
            return hops
        return [y for y in hops if y != rep] + [m for m in members if m != w]

    @staticmethod
    def _sources_delivering(parents: dict, origin: dict, delivered: set) -> set[int]:
        good: set = set(delivered)
        stack = list(delivered)
        while stack:
            st = stack.pop()
            for p in parents.get(st, ()):
                if p not in good:
                    good.add(p)
                    stack.append(p)
        return {s for st, srcs in origin.items() if st in good for s in srcs}

    # ------------------------------------------------------------------ path models

    def run_paths(self) -> Graph:
        """k_bounce / all_simple_paths: every qualifying simple path of every flow."""
        net = self.net
        for d, sources in self.demands().items():
            fwd_rules = Forwarder.__new__(Forwarder)
            fwd_rules.net, fwd_rules.setup, fwd_rules.d = net, self.setup, d
            fwd_rules.rules = {}
            for r in self.setup.rules:
                if d in net.expand(r.dst) and r.at in net.index:
                    fwd_rules.rules.setdefault(net.index[r.at], []).append(r)
            for s in sources:
                self._flow(s, d, self._paths(s, d, fwd_rules))
        return self._counted()

    def _paths(self, s: int, d: int, fwd: Forwarder) -> bool:
        net, tier, setup = self.net, self._tier, self.setup
        k_bounce = setup.model == "k_bounce"
        found = False
        visited = {s}
        chans: list[int] = []
        tags: list[int] = []

        def candidates(x: int, w: int | None) -> list[int]:
            ruled = fwd._rule(x, w)
            if ruled is not None:
                return ruled
            alive = net.alive(x)
            if d in self.dead and d in alive:
                return [y for y in alive if y != w]
            return list(alive)

        def emit() -> None:
            if self.path_hook is not None:
                self.path_hook(s, d, chans, tags)
            for i in range(1, len(chans)):
                self.edge(self.node(chans[i - 1], tags[i - 1]), self.node(chans[i], tags[i]),
                          PATH, d)

        def walk(x: int, w: int | None, bounces: int, last: int) -> None:
            nonlocal found
            if not k_bounce and len(chans) >= setup.max_hops:
                return
            t = tags[-1] if tags else 0
            for y in candidates(x, w):
                if y in visited or (tier[y] == 0 and y != d):
                    continue
                step = (tier[y] > tier[x]) - (tier[y] < tier[x])  # 1 up, -1 down, 0 lateral
                b = bounces
                if k_bounce:
                    if step == 0:
                        continue
                    if last == -1 and step == 1:
                        b += 1
                        if b > setup.k:
                            continue
                t2 = t + self.bump(w, x, y)
                if t2 >= len(self.tag_k):
                    t2 = len(self.tag_k)  # lossy from here on; the path still counts
                for c in net.alive(x)[y]:
                    chans.append(c)
                    tags.append(t2)
                    if y == d:
                        found = True
                        emit()
                    else:
                        visited.add(y)
                        walk(y, x, b, step)
                        visited.discard(y)
                    chans.pop()
                    tags.pop()

        walk(s, None, 0, 1)
        return found


def build(net: Network, setup: RoutingSetup, *, intact: Network | None = None,
          explain: bool = True) -> Graph:
    """The dependency graph of `net` (a failure state of `intact`) under `setup`."""
    b = Builder(net, setup, intact=intact, explain=explain)
    if setup.model in ("k_bounce", "all_simple_paths"):
        return b.run_paths()
    return b.run_tables()


__all__ = ["Graph", "Builder", "build", "ECMP", "FLOOD", "PATH"]
