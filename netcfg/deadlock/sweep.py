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
from netcfg.deadlock.analysis import analyse
from netcfg.deadlock.graph import Builder, Graph
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
        progress: Callable[[int, int], None] | None = None) -> Sweep:
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
        return _bounce_singles(intact, setup, links, base, progress)
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
                    base: tuple[int, ...], progress: Callable[[int, int], None] | None) -> Sweep:
    import numpy as np

    start = intact.with_failures(base) if base else intact
    b0 = Builder(start, setup, intact=intact, explain=False)
    b0.keep_states = True
    g0 = b0.run_tables()
    base_u = np.frombuffer(g0.src, dtype=np.int64).copy()
    base_v = np.frombuffer(g0.dst, dtype=np.int64).copy()
    sw = Sweep(1, "incremental: intact graph plus the bounce edges each failure adds, "
               "cyclic candidates rebuilt exactly", len(links), 0)
    for i, link in enumerate(links):
        extra = _bounce_edges(intact, setup, b0, base + (link,))
        sw.checked += 1
        if progress and i % 200 == 0:
            progress(i, len(links))
        if extra is None:
            continue
        g = Graph(start, setup, g0.prios)
        g.src.frombytes(np.concatenate([base_u, extra[0]]).astype(np.int64).tobytes())
        g.dst.frombytes(np.concatenate([base_v, extra[1]]).astype(np.int64).tobytes())
        if not analyse(g).cyclic:
            continue
        out = scenario.run(intact, setup, base + (link,))
        if out.cyclic:
            sw.cyclic.append((link,))
            sw.first = sw.first or out
    return sw


def _bounce_edges(intact: Network, setup: RoutingSetup, b0: Builder, failed: tuple[int, ...]):
    """Edges a failure state may add to the base graph, or None when it adds none."""
    import numpy as np

    net = intact.with_failures(failed)
    ends = {x for c, k in enumerate(net.link_of) if k in failed for x in (net.src[c], net.dst[c])}
    b = Builder(net, setup, intact=intact, explain=False)
    b.touched = ends
    for rep, members, sources, fwd0, seen in b0.reached:
        # Pruning only shrinks a next-hop set; new edges start where one may become empty.
        if not any(len([y for y in fwd0.table[x] if y in net.alive(x)]) <= 1 for x in ends):
            continue
        seeds = [st for st in seen if net.dst[st[0]] in ends and st[0] not in net.failed]
        fwd = copy.copy(fwd0)  # same stale tables, pruned against the failed network
        fwd.net = net
        b.bfs(fwd, rep, members, [s for s in sources if s in ends], seeds=seeds or None,
              known=seen)
    if not len(b.graph.src):
        return None
    return (np.frombuffer(b.graph.src, dtype=np.int64), np.frombuffer(b.graph.dst, dtype=np.int64))
