"""`--failures K`: every set of K failed links, checked without rebuilding what did not change.

How each model is swept (spec section 7):
* updown without rules/flooding: valley-free in every failure state -> proven, no enumeration.
* k_bounce, all_simple_paths: failures only remove paths, so the intact graph is a superset of
  every failure state's graph -> the intact verdict covers all sets.
* bounce_on_failure: tables stay those of the intact fabric; a failure only adds edges where a
  switch is left with no next hop and bounces. Each set is checked on the intact graph plus
  the edges re-derived from those bounce points (a superset); a cyclic superset is confirmed
  on the exact failure state.
* otherwise (shortest_path, rules, flooding): routing changes globally, every set is rebuilt.

With an exact symmetry of a generated fabric (netcfg.deadlock.symmetry) only one set per
orbit is checked; it stands for its whole orbit, as an automorphism maps graphs and cycles of
one set onto those of the other. Beyond QUOTIENT_CLASSES destination classes each such set's
state is decided modulo the symmetries that fix its links (netcfg.deadlock.quotient), with no
start graph. A `Pool` (netcfg.deadlock.cluster) checks the sets elsewhere, to the same Sweep.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from netcfg.deadlock import scenario
from netcfg.deadlock.graph import Builder
from netcfg.deadlock.symmetry import Symmetry
from netcfg.routing.forward import Forwarder
from netcfg.routing.network import Network
from netcfg.routing.setup import RoutingSetup

#: failure sets checked one by one (after any symmetry reduction) before the sweep refuses
ENUMERATION_BUDGET = 20_000


@dataclass
class Sweep:
    k: int
    method: str
    total: int  # number of K-sets of candidate links
    checked: int  # sets actually checked
    cyclic: list[tuple[int, ...]] = field(default_factory=list)  # checked sets found cyclic
    complete: bool = True
    note: str = ""
    first: scenario.Outcome | None = None
    #: sets the checked ones stand for (each checked set counts its orbit under `symmetry`)
    represented: int = 0
    #: cyclic sets among those represented
    cyclic_represented: int = 0
    #: exact symmetry factors used (empty: every set is checked itself)
    symmetry: list[str] = field(default_factory=list)
    #: symmetry factors dropped, and why
    dropped: dict[str, str] = field(default_factory=dict)
    #: decided modulo symmetry: one turn per quotient edge along a cycle of the first
    #: cyclic set (netcfg.deadlock.quotient.cycle)
    orbit_cycle: list[str] = field(default_factory=list)

    def found(self, combo: tuple[int, ...], weight: int) -> None:
        self.cyclic.append(combo)
        self.cyclic_represented += weight

    def explain_first(self, intact: Network, setup: RoutingSetup, base: tuple[int, ...],
                      modulo: Symmetry | None = None) -> None:
        """Build the first cyclic state with the causes and cycles a report needs (the
        checks themselves keep only a verdict). Decided modulo symmetry, the state is too
        large to build whole: its quotient cycle is kept instead (`orbit_cycle`)."""
        if not self.cyclic:
            return
        if modulo is None:
            self.first = scenario.run(intact, setup, base + self.cyclic[0])
            return
        from netcfg.deadlock import quotient

        self.orbit_cycle = quotient.cycle(intact, setup, base + self.cyclic[0], modulo) or []


def enumerates(setup: RoutingSetup) -> bool:
    """Whether a sweep under this setup checks failure sets one by one (no proof covers
    them all)."""
    return not scenario.valley_free_proof(setup) and setup.model not in (
        "k_bounce", "all_simple_paths")


def run(intact: Network, setup: RoutingSetup, k: int, base: tuple[int, ...] = (), *,
        progress: Callable[[int, int], None] | None = None,
        start: scenario.Outcome | None = None, symmetry: Symmetry | None = None,
        budget: int = ENUMERATION_BUDGET, pool: Pool | None = None) -> Sweep:
    """Check every set of `k` more failed links; `start` is the already checked state with
    only `base` failed, if the caller has it (built with `keep_states`). With an exact
    `symmetry` (built for this `base`), one set per orbit is checked and stands for the
    whole orbit; `budget` caps the sets actually checked. A `pool` checks the sets on other
    processes or machines (the same Sweep as the serial loop)."""
    links = [i for i in range(len(intact.links())) if i not in base]
    total = math.comb(len(links), k)
    if scenario.valley_free_proof(setup):
        return Sweep(k, "proof: valley-free routing makes only safe turns in every failure "
                     "state", total, 0, represented=total)
    if setup.model in ("k_bounce", "all_simple_paths"):
        out = scenario.run(intact, setup, base)
        sw = Sweep(k, "monotone: failures only remove paths, the intact graph covers every set",
                   total, 1, represented=total)
        if out.cyclic:
            sw.note = "cyclic without any failure"
        return sw
    sets, sym_used, dropped = _sets_to_check(symmetry, links, k, total, budget)
    count = len(sets) if sets is not None else total
    if count > budget or sets == []:
        sw = Sweep(k, "enumeration", total, 0, complete=False, symmetry=sym_used,
                   dropped=dropped)
        sw.note = (f"more than {budget:,} kinds of set by symmetry exceed the budget; not "
                   "checked" if sets == [] else f"{total:,} sets exceed the enumeration "
                   f"budget of {budget:,}; not checked")
        return sw
    weighted = sets if sets is not None else ((c, 1) for c in itertools.combinations(links, k))
    modulo = symmetry if sets is not None and use_quotient(intact, setup, symmetry) else None
    if pool is not None:
        sw = _distributed(pool, intact, setup, base, k, list(weighted), count, progress, start,
                          modulo)
    else:
        checker = SetChecker(intact, setup, base, start, modulo)
        sw = Sweep(k, checker.method, total, 0)
        for i, (combo, weight) in enumerate(weighted):
            sw.checked += 1
            sw.represented += weight
            if checker.check(combo):
                sw.found(combo, weight)
            if progress:
                progress(i + 1, count)
        sw.explain_first(intact, setup, base, modulo)
    sw.total, sw.symmetry, sw.dropped = total, sym_used, dropped
    return sw


def _sets_to_check(symmetry: Symmetry | None, links: list[int], k: int, total: int,
                   budget: int) -> tuple[list[tuple[tuple[int, ...], int]] | None, list[str],
                                         dict[str, str]]:
    """One set per orbit with its orbit size, None (check every set), or [] (more orbits
    than the budget). The orbit sizes must add up to the number of sets, else the reduction
    is not used."""
    if symmetry is None or not symmetry.active:
        return None, [], dict(symmetry.dropped) if symmetry else {}
    reps = symmetry.representatives(links, k, limit=budget)
    if reps is None:
        if total <= budget:
            return None, [], dict(symmetry.dropped)
        return [], symmetry.describe(), dict(symmetry.dropped)
    if sum(w for _, w in reps) != total:
        return None, [], {"all": "orbit sizes do not add up to the number of sets"}
    if len(reps) >= total:
        return None, [], dict(symmetry.dropped)
    return reps, symmetry.describe(), dict(symmetry.dropped)


class Pool(Protocol):
    """Checks failure sets on other processes or machines (netcfg.deadlock.cluster)."""

    def cyclic(self, checker: SetChecker, sets: list[tuple[tuple[int, ...], int]],
               progress: Callable[[int, int], None] | None) -> list[int]:
        """Positions in `sets` of the cyclic ones, in order, each checked by `checker`."""
        ...


def _distributed(pool: Pool, intact: Network, setup: RoutingSetup, base: tuple[int, ...],
                 k: int, sets: list[tuple[tuple[int, ...], int]], count: int,
                 progress: Callable[[int, int], None] | None,
                 start: scenario.Outcome | None, modulo: Symmetry | None) -> Sweep:
    """The sweep with its sets checked by `pool`; the same Sweep the serial loop gives.

    The checker is prepared here and shipped: its start state pickles and loads in a fifth
    of the time it takes to build (gpu2048: 123 MB, 0.6 s against 3 s)."""
    checker = SetChecker(intact, setup, base, start, modulo)
    sw = Sweep(k, checker.method, count, len(sets), represented=sum(w for _, w in sets))
    for i in pool.cyclic(checker, sets, progress):
        sw.found(*sets[i])
    sw.explain_first(intact, setup, base, modulo)
    return sw


REBUILD = "enumeration: every set rebuilt"
INCREMENTAL = ("incremental: start graph indexed once; per failure set its bounce edges "
               "added and the failed links' queues removed, cyclic candidates confirmed on "
               "the exact state")
QUOTIENT = ("quotient: each set's state decided on its dependency graph modulo the symmetry "
            "that fixes its failed links (one destination class searched per orbit)")
#: destination classes beyond which the sweep decides states modulo symmetry: the
#: incremental sweep keeps every class's BFS states (gpu2048, 64 classes: 0.3 GiB; gpu32768,
#: 1,024 classes of a graph 24 times larger: past 6 GiB before its start graph was done)
QUOTIENT_CLASSES = 256


def use_quotient(intact: Network, setup: RoutingSetup, symmetry: Symmetry | None) -> bool:
    """Whether a sweep checking one set per orbit of `symmetry` decides each state modulo
    symmetry (netcfg.deadlock.quotient) instead of from a start graph: where the quotient
    applies and the fabric has more than QUOTIENT_CLASSES destination classes."""
    from netcfg.deadlock import quotient

    if not quotient.applies(intact, setup, symmetry):
        return False
    b = Builder(intact, setup, explain=False)
    return len(b.groups(b.pair_ends()[0])) > QUOTIENT_CLASSES


class SetChecker:
    """Checks failure sets (on top of `base`) one after another.

    With a symmetry `modulo` (a sweep over one set per orbit of a large fabric), each state
    is decided on its quotient graph (netcfg.deadlock.quotient). Otherwise:
    bounce_on_failure keeps the intact fabric's tables (stale tables): the start graph is
    indexed once; per failure set only the bounce edges it adds are derived and the failed
    links' queues dropped (a superset of the exact failure graph); a cyclic superset is
    confirmed on the exact state. Other models rebuild every state."""

    def __init__(self, intact: Network, setup: RoutingSetup, base: tuple[int, ...],
                 start_state: scenario.Outcome | None = None,
                 modulo: Symmetry | None = None) -> None:
        self.intact, self.setup, self.base = intact, setup, base
        self.index: Any = None
        self.modulo = modulo
        if modulo is not None:
            self.method = QUOTIENT
            return
        if setup.model != "bounce_on_failure":
            self.method = REBUILD
            return
        import numpy as np

        from netcfg.deadlock.incremental import BaseIndex  # numpy/scipy only when sweeping

        start = intact.with_failures(base) if base else intact
        if start_state is None or start_state.builder is None or start_state.failed != base:
            start_state = scenario.run(intact, setup, base, keep_states=True)
        self.method = REBUILD if start_state.cyclic else INCREMENTAL
        if start_state.cyclic:  # cannot happen after a clean intact check; stay exact anyway
            return
        b0, g0 = start_state.builder, start_state.graph
        assert b0 is not None and g0 is not None
        self.b0, self.width = b0, g0.width
        self.index = BaseIndex(np.frombuffer(g0.src, dtype=np.int64),
                               np.frombuffer(g0.dst, dtype=np.int64), len(start.src) * g0.width)
        self.idx = _index_classes(start, b0)
        self.pairs = intact.links()
        self.chans = _channels_of_links(intact)

    def check(self, combo: tuple[int, ...]) -> bool:
        """Whether `base + combo` failed creates a cyclic buffer dependency (exactly)."""
        failed = self.base + combo
        if self.modulo is not None:
            from netcfg.deadlock import quotient

            return quotient.cycle(self.intact, self.setup, failed, self.modulo) is not None
        if self.index is None:
            return scenario.run(self.intact, self.setup, failed, explain=False).cyclic
        cycle = self._candidate(combo, failed)
        return cycle is not None and self._confirmed(failed, combo, cycle)

    def _candidate(self, combo: tuple[int, ...], failed: tuple[int, ...]) -> list[int] | None:
        """A cycle of the superset graph (start graph - failed queues + bounce edges), or
        None: then the exact state, a subgraph, is acyclic too."""
        import numpy as np

        extra = _bounce_edges(self.intact, self.setup, self.b0, self.idx, failed,
                              [self.pairs[c] for c in combo])
        removed = np.asarray([c * self.width + t for link in combo for c in self.chans[link]
                              for t in range(self.width)], dtype=np.int64)
        return self.index.cycle_with(extra[0], extra[1], removed)

    def _confirmed(self, failed: tuple[int, ...], combo: tuple[int, ...],
                   cycle: list[int]) -> bool:
        """Whether the exact failure state is cyclic.

        It is as soon as every edge of `cycle` (found in the superset) is one of its edges,
        so it is built one destination class at a time, the classes whose destinations hang
        off an end of a failed link first (theirs are the packets that bounce), and the
        build stops once the cycle is complete: a few classes instead of all (gpu2048: 0.2 s
        against 2.8 s for a whole state). Built whole without completing that cycle, the
        state's own SCCs decide."""
        import numpy as np

        from netcfg.deadlock.analysis import analyse

        net = self.intact.with_failures(failed)
        b = Builder(net, self.setup, intact=self.intact, explain=False)
        n = len(net.src) * self.width
        ring = np.asarray(cycle, dtype=np.int64)
        need = np.unique(ring * n + np.roll(ring, -1))
        ends = {x for k in combo for x in self.pairs[k]}
        classes = b.classes(b.demands())
        classes.sort(key=lambda cls: not any(m in ends or ends & net.alive(m).keys()
                                             for m in cls[1]))
        done = 0
        for rep, members, sources in classes:
            b.bfs(Forwarder(net, self.setup, rep, self.intact), rep, members, sources)
            made = (np.frombuffer(b.graph.src[done:], dtype=np.int64) * n
                    + np.frombuffer(b.graph.dst[done:], dtype=np.int64))
            done = len(b.graph.src)
            need = need[~np.isin(need, made)]
            if not len(need):
                return True
        return analyse(b.graph).cyclic


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
                  failed: tuple[int, ...], ends: list[tuple[int, int]]):
    """Edges the failure of the links with these `ends` (the last ones in `failed`) may add
    to the start graph.

    Pruning a failed link only shrinks a next-hop set, which adds nothing; new edges start
    only at a switch state at an end of a failed link whose next hops stop being a subset of
    the old ones (a bounce, or a bounce count that changes), or at a switch source there: a
    switch no failed link touches keeps its neighbours, so it forwards as before. Those
    states are re-expanded on the failed network; a state the start graph expanded with as
    few bounces is not expanded again (see `Builder.bfs`).
    """
    import numpy as np

    net = intact.with_failures(failed)
    turns = [(x, y) for a, b in ends for x, y in ((a, b), (b, a))]
    endpoints = {x for x, _ in turns}
    tier = net.tier
    b_new = Builder(net, setup, intact=intact, explain=False)
    for ci, (rep, members, _sources, fwd0, _seen) in enumerate(b0.reached):
        fwd = copy.copy(fwd0)  # same stale tables, pruned against the failed network
        fwd.net = net
        seeds = []
        seeded: set = set()
        for x, y in turns:
            if tier[x] == 0 or y in net.alive(x) or not _may_change(fwd0, net, x, y):
                continue  # hosts never forward; a parallel link survives; y does not matter
            for st in idx[ci].at.get(x, ()):
                c, _t, bounces = st
                if c in net.failed or st in seeded:
                    continue
                seeded.add(st)
                new, _, b2 = fwd.hops(x, net.src[c], bounces)
                if not new:
                    continue
                old, _, b1 = fwd0.hops(x, net.src[c], bounces)
                if b2 != b1 or not set(new) <= set(old):
                    seeds.append(st)
        srcs = sorted(s for s in endpoints if s in idx[ci].switch_sources)
        if seeds or srcs:
            b_new.bfs(fwd, rep, members, srcs, seeds=seeds, known=idx[ci].fewest)
    return (np.frombuffer(b_new.graph.src, dtype=np.int64),
            np.frombuffer(b_new.graph.dst, dtype=np.int64))


def _may_change(fwd: Forwarder, net: Network, x: int, y: int) -> bool:
    """Whether losing neighbour `y` (in the failure state `net`) can make `x` forward this
    class somewhere new.

    Rules and flooding towards dead hosts depend on which neighbours are alive; the stale
    table can only bounce once at most one of its entries is left (split horizon)."""
    if fwd.rules.get(x) or fwd.d in fwd.dead:
        return True
    table = fwd.table[x]
    if y not in table:
        return False
    alive = net.alive(x)
    return sum(1 for t in table if t in alive) <= 1
