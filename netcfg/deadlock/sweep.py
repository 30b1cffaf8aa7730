"""`--failures K`: every set of K failed links, checked without rebuilding what did not change.

How each model is swept (spec section 7):
* updown without rules/flooding: valley-free in every failure state -> proven, no enumeration.
* k_bounce, all_simple_paths: failures only remove paths, so the intact graph is a superset of
  every failure state's graph -> the intact verdict covers all sets.
* bounce_on_failure: tables stay those of the intact fabric; a failure only adds edges where a
  switch is left with no next hop and bounces. Each set is checked on the intact graph plus
  the edges re-derived from those bounce points (a superset); a cyclic superset is confirmed
  by rebuilding that failure state exactly.
* otherwise (shortest_path, rules, flooding): routing changes globally, every set is rebuilt.
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass, field
from typing import Callable

from netcfg.deadlock import scenario
from netcfg.deadlock.graph import Builder
from netcfg.routing.forward import Forwarder
from netcfg.routing.network import Network
from netcfg.routing.setup import RoutingSetup

#: failure sets rebuilt one by one before the sweep refuses (and says so)
ENUMERATION_BUDGET = 20_000


@dataclass
class Sweep:
    k: int
    method: str
    total: int  # number of K-sets of candidate links
    checked: int
    cyclic: list[tuple[int, ...]] = field(default_factory=list)
    complete: bool = True
    note: str = ""
    first: scenario.Outcome | None = None


def run(intact: Network, setup: RoutingSetup, k: int, base: tuple[int, ...] = (), *,
        progress: Callable[[int, int], None] | None = None,
        start: scenario.Outcome | None = None) -> Sweep:
    """Check every set of `k` more failed links; `start` is the already checked state with
    only `base` failed, if the caller has it (built with `keep_states`)."""
    links = [i for i in range(len(intact.links())) if i not in base]
    total = math.comb(len(links), k)
    if scenario.valley_free_proof(setup):
        return Sweep(k, "proof: valley-free routing makes only safe turns in every failure "
                     "state", total, 0)
    if setup.model in ("k_bounce", "all_simple_paths"):
        out = scenario.run(intact, setup, base)
        sw = Sweep(k, "monotone: failures only remove paths, the intact graph covers every set",
                   total, 1)
        if out.cyclic:
            sw.note = "cyclic without any failure"
        return sw
    if setup.model == "bounce_on_failure" and k == 1:
        return _bounce_singles(intact, setup, links, base, progress, start)
    if total > ENUMERATION_BUDGET:
        return Sweep(k, "enumeration", total, 0, complete=False,
                     note=f"{total:,} sets exceed the enumeration budget of "
                          f"{ENUMERATION_BUDGET:,}; not checked")
    sw = Sweep(k, "enumeration: every set rebuilt", total, 0)
    for i, combo in enumerate(itertools.combinations(links, k)):
        out = scenario.run(intact, setup, base + combo)
        sw.checked += 1
        if out.cyclic:
            sw.cyclic.append(combo)
            sw.first = sw.first or out
        if progress and i % 200 == 0:
            progress(i, total)
    return sw


def _bounce_singles(intact: Network, setup: RoutingSetup, links: list[int],
                    base: tuple[int, ...], progress: Callable[[int, int], None] | None,
                    start_state: scenario.Outcome | None = None) -> Sweep:
    """K=1 under stale tables: index the start graph once, then per failure only derive the
    bounce edges it adds and drop the queues of the failed link (a superset of the exact
    failure graph); a cyclic superset is confirmed by rebuilding that state exactly."""
    import numpy as np

    from netcfg.deadlock.incremental import BaseIndex  # numpy/scipy only when sweeping

    start = intact.with_failures(base) if base else intact
    if start_state is None or start_state.builder is None or start_state.failed != base:
        start_state = scenario.run(intact, setup, base, keep_states=True)
    b0 = start_state.builder
    g0 = start_state.graph
    assert b0 is not None and g0 is not None
    u0 = np.frombuffer(g0.src, dtype=np.int64)
    v0 = np.frombuffer(g0.dst, dtype=np.int64)
    width = g0.width
    sw = Sweep(1, "incremental: start graph indexed once; per failure its bounce edges added "
               "and the failed link's queues removed, cyclic candidates rebuilt exactly",
               len(links), 0)
    if start_state.cyclic:  # cannot happen after a clean intact check; stay exact anyway
        return _rebuild_each(intact, setup, links, base, progress, sw)
    index = BaseIndex(u0, v0, len(start.src) * width)
    idx = _index_classes(start, b0)
    pairs = intact.links()
    chans = _channels_of_links(intact)
    for i, link in enumerate(links):
        sw.checked += 1
        if progress and i % 200 == 0:
            progress(i, len(links))
        failed = base + (link,)
        extra = _bounce_edges(intact, setup, b0, idx, failed, pairs[link])
        removed = np.asarray([c * width + k for c in chans[link] for k in range(width)],
                             dtype=np.int64)
        if not index.cyclic_with(extra[0], extra[1], removed):
            continue
        out = scenario.run(intact, setup, failed)
        if out.cyclic:
            sw.cyclic.append((link,))
            sw.first = sw.first or out
    return sw


def _rebuild_each(intact: Network, setup: RoutingSetup, links: list[int],
                  base: tuple[int, ...], progress: Callable[[int, int], None] | None,
                  sw: Sweep) -> Sweep:
    sw.method = "enumeration: every set rebuilt"
    for i, link in enumerate(links):
        out = scenario.run(intact, setup, base + (link,))
        sw.checked += 1
        if out.cyclic:
            sw.cyclic.append((link,))
            sw.first = sw.first or out
        if progress and i % 200 == 0:
            progress(i, len(links))
    return sw


def _channels_of_links(net: Network) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c, k in enumerate(net.link_of):
        out.setdefault(k, []).append(c)
    return out


@dataclass
class _ClassIndex:
    """What the start graph reached for one destination class, indexed for the sweep."""

    at: dict[int, list[tuple[int, int, int]]]  # switch -> states at it
    fewest: dict[tuple[int, int], int]  # (channel, tag) -> fewest bounces expanded with
    switch_sources: set[int]


def _index_classes(net: Network, b0: Builder) -> list[_ClassIndex]:
    dst, tier = net.dst, net.tier
    out = []
    for _rep, _members, sources, _fwd, seen in b0.reached:
        at: dict[int, list[tuple[int, int, int]]] = {}
        fewest: dict[tuple[int, int], int] = {}
        for st in seen:
            c, t, b = st
            at.setdefault(dst[c], []).append(st)
            if fewest.get((c, t), b + 1) > b:
                fewest[(c, t)] = b
        out.append(_ClassIndex(at, fewest, {s for s in sources if tier[s] > 0}))
    return out


def _bounce_edges(intact: Network, setup: RoutingSetup, b0: Builder, idx: list[_ClassIndex],
                  failed: tuple[int, ...], ends: tuple[int, int]):
    """Edges the failure of the last link in `failed` may add to the start graph.

    Pruning a failed link only shrinks a next-hop set, which adds nothing; new edges start
    only at a switch state at an end of the link whose next hops stop being a subset of the
    old ones (a bounce, or a bounce count that changes), or at a switch source there. Those
    are re-expanded on the failed network; a state the start graph expanded with as few
    bounces is not expanded again (see `Builder.bfs`).
    """
    import numpy as np

    net = intact.with_failures(failed)
    a, b = ends
    tier = net.tier
    b_new = Builder(net, setup, intact=intact, explain=False)
    for ci, (rep, members, _sources, fwd0, _seen) in enumerate(b0.reached):
        fwd = copy.copy(fwd0)  # same stale tables, pruned against the failed network
        fwd.net = net
        seeds = []
        for x, y in ((a, b), (b, a)):
            if tier[x] == 0 or y in net.alive(x) or not _may_change(fwd0, x, y):
                continue  # hosts never forward; a parallel link survives; y does not matter
            for st in idx[ci].at.get(x, ()):
                c, _t, bounces = st
                if c in net.failed:
                    continue
                new, _, b2 = fwd.hops(x, net.src[c], bounces)
                if not new:
                    continue
                old, _, b1 = fwd0.hops(x, net.src[c], bounces)
                if b2 != b1 or not set(new) <= set(old):
                    seeds.append(st)
        srcs = [s for s in ends if s in idx[ci].switch_sources]
        if seeds or srcs:
            b_new.bfs(fwd, rep, members, srcs, seeds=seeds, known=idx[ci].fewest)
    return (np.frombuffer(b_new.graph.src, dtype=np.int64),
            np.frombuffer(b_new.graph.dst, dtype=np.int64))


def _may_change(fwd: Forwarder, x: int, y: int) -> bool:
    """Whether losing neighbour `y` can make `x` forward this class somewhere new.

    Rules and flooding towards dead hosts depend on which neighbours are alive; the stale
    table can only bounce once at most one of its entries is left."""
    if fwd.rules.get(x) or fwd.d in fwd.dead:
        return True
    table = fwd.table[x]
    if y not in table:
        return False
    alive = fwd.net.alive(x)
    return sum(1 for t in table if t in alive and t != y) <= 1
