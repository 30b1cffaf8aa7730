"""The incremental single-failure sweep gives the same verdicts as rebuilding every state.

`sweep.run` (bounce_on_failure, K=1) checks each failure as "start graph - the failed link's
queues + the bounce edges it adds". These tests rebuild every failure state from scratch with
`scenario.run` and compare the sets of cyclic failures, on random small Clos fabrics (with
parallel links, hosts, dead hosts, Tagger tags, already failed links) and on a sample of the
example inventory.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from netcfg.deadlock import scenario, sweep
from netcfg.deadlock.incremental import BaseIndex
from netcfg.routing.network import Network, from_edges, from_fabric
from netcfg.routing.setup import RoutingSetup, from_intent
from netcfg.validate import validate

ROOT = Path(__file__).resolve().parents[1]


def random_clos(rng: random.Random) -> tuple[Network, list[tuple[str, str, bool]], bool]:
    """A 2- or 3-tier Clos with random (possibly parallel, possibly lossy) links."""
    tiers = rng.choice([2, 3])
    width = {1: rng.randint(3, 5), 2: rng.randint(2, 4), 3: rng.randint(1, 2)}
    nodes = {f"t{t}n{i}": t for t in range(1, tiers + 1) for i in range(width[t])}
    links = []
    for t in range(1, tiers):
        lows = [n for n, k in nodes.items() if k == t]
        highs = [n for n, k in nodes.items() if k == t + 1]
        for lo in lows:
            ups = rng.sample(highs, rng.randint(1, len(highs)))
            for hi in ups:
                for _ in range(rng.choice([1, 1, 1, 2])):
                    links.append((lo, hi, rng.random() > 0.05))
        for hi in highs:  # every upper switch has at least one child
            if not any(h == hi for _, h, _ in links):
                links.append((rng.choice(lows), hi, True))
    hosts = rng.random() < 0.5
    if hosts:
        for i, leaf in enumerate(n for n, k in list(nodes.items()) if k == 1):
            for j in range(rng.randint(1, 2)):
                nodes[f"h{i}x{j}"] = 0
                links.append((f"h{i}x{j}", leaf, True))
    return from_edges(nodes, links), links, hosts


def random_setup(rng: random.Random, net: Network, hosts: bool) -> RoutingSetup:
    setup = RoutingSetup(model="bounce_on_failure", max_bounces=rng.choice([1, 1, 2]),
                         traffic="all_host_pairs" if hosts else "all_leaf_pairs")
    if rng.random() < 0.3:
        setup.rewrite = "tag_on_bounce"
        setup.tags_to_priorities = [3, 4]
        setup.pfc_priorities = {3, 4} if rng.random() < 0.7 else {3}
    if hosts and rng.random() < 0.3:
        setup.dead_hosts = [rng.choice([n for i, n in enumerate(net.names) if net.tier[i] == 0])]
    return setup


def exact(net: Network, setup: RoutingSetup, base: tuple[int, ...]) -> set[int]:
    """Links whose failure (on top of `base`) leaves a cyclic graph, each state rebuilt."""
    return {k for k in range(len(net.links())) if k not in base
            and scenario.run(net, setup, base + (k,)).cyclic}


def test_incremental_sweep_matches_rebuilding_every_state():
    rng = random.Random(4)
    checked = cyclic = 0
    for _ in range(300):
        net, links, hosts = random_clos(rng)
        setup = random_setup(rng, net, hosts)
        base = tuple(sorted(rng.sample(range(len(links)), rng.choice([0, 1, 2, 2]))))
        if scenario.run(net, setup, base).cyclic:
            continue  # the sweep only runs after a clean start state
        sw = sweep.run(net, setup, 1, base)
        assert sw.method.startswith("incremental")
        want = exact(net, setup, base)
        assert {c[0] for c in sw.cyclic} == want, (links, base, setup)
        checked += 1
        cyclic += bool(want)
    assert checked >= 200 and cyclic >= 20  # both verdicts are exercised


def test_incremental_sweep_finds_the_c03_family():
    nodes = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "S0": 2, "S1": 2}
    links = [(t, s, True) for t in ("T0", "T1", "T2", "T3") for s in ("S0", "S1")]
    net = from_edges(nodes, links)
    base = (links.index(("T1", "S1", True)),)
    setup = RoutingSetup(model="bounce_on_failure")
    sw = sweep.run(net, setup, 1, base)
    found = {(net.names[net.links()[c[0]][0]], net.names[net.links()[c[0]][1]])
             for c in sw.cyclic}
    assert ("T3", "S0") in found
    assert {c[0] for c in sw.cyclic} == exact(net, setup, base)
    assert sw.first is not None and sw.first.cyclic


@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_sweep_matches_on_the_example_inventory(seed: int):
    fabric = validate(ROOT / "inventories" / "example").fabric
    net = from_fabric(fabric)
    setup = from_intent(fabric.loaded.intent, has_hosts=True)
    setup.model = "bounce_on_failure"
    rng = random.Random(seed)
    pairs = net.links()
    spine_links = [k for k, (a, b) in enumerate(pairs) if min(net.tier[a], net.tier[b]) > 0]
    base = (rng.choice(spine_links),) if seed else ()
    sample = sorted(set(rng.sample(range(len(pairs)), 12) + rng.sample(spine_links, 12))
                    - set(base))
    checker = sweep.SetChecker(net, setup, base)
    got = [k for k in sample if checker.check((k,))]
    want = {k for k in sample if scenario.run(net, setup, base + (k,)).cyclic}
    assert checker.method.startswith("incremental")
    assert set(got) == want


def test_base_index_cycle_check_agrees_with_a_full_scc():
    """scipy's SCC on the whole changed graph decides; a cycle the index returns is a
    closed walk over that graph's edges, each node once."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(4, 40))
        order = rng.permutation(n)
        u = rng.integers(0, n, 3 * n)
        v = rng.integers(0, n, 3 * n)
        fwd = order[u] < order[v]  # the base is a DAG
        base = BaseIndex(u[fwd], v[fwd], n)
        au, av = rng.integers(0, n, 3), rng.integers(0, n, 3)
        au, av = au[au != av], av[au != av]
        removed = rng.choice(n, int(rng.integers(0, 3)), replace=False)
        keep = ~np.isin(base.u, removed) & ~np.isin(base.v, removed)
        eu = np.concatenate([base.u[keep], au])
        ev = np.concatenate([base.v[keep], av])
        ok = ~np.isin(eu, removed) & ~np.isin(ev, removed)
        mat = csr_matrix((np.ones(int(ok.sum())), (eu[ok], ev[ok])), shape=(n, n))
        labels = connected_components(mat, directed=True, connection="strong")[1]
        cyclic = bool((np.bincount(labels) > 1).any())
        assert base.cyclic_with(au, av, removed) == cyclic
        cycle = base.cycle_with(au, av, removed)
        assert (cycle is not None) == cyclic
        if cycle is not None:
            edges = set(zip(eu[ok].tolist(), ev[ok].tolist()))
            assert len(cycle) >= 2 and len(set(cycle)) == len(cycle)
            assert all((x, y) in edges for x, y in zip(cycle, cycle[1:] + cycle[:1]))


def test_a_candidate_cycle_the_exact_state_lacks_leaves_the_verdict_to_its_sccs():
    """The confirmation stops early only on a cycle whose every edge the exact state makes;
    given a cycle it does not make, it builds the whole state and its SCCs decide: cyclic
    for the HotNets pattern (T1-S1 and T3-S0 failed), acyclic with one link failed."""
    nodes = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "S0": 2, "S1": 2}
    links = [(t, s, True) for t in ("T0", "T1", "T2", "T3") for s in ("S0", "S1")]
    net = from_edges(nodes, links)
    setup = RoutingSetup(model="bounce_on_failure")
    checker = sweep.SetChecker(net, setup, ())
    hotnets = (links.index(("T1", "S1", True)), links.index(("T3", "S0", True)))
    # channel 0 is T0>S0, channel 1 S0>T0: no packet turns from one into the other
    bogus = [0, 1]
    assert checker._confirmed(hotnets, hotnets, bogus)
    assert scenario.run(net, setup, hotnets).cyclic
    one = (links.index(("T1", "S1", True)),)
    assert not checker._confirmed(one, one, bogus)
    assert not scenario.run(net, setup, one).cyclic


def test_the_serial_sweep_reports_progress_after_every_set():
    nodes = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "S0": 2, "S1": 2}
    net = from_edges(nodes, [(t, s, True) for t in ("T0", "T1", "T2", "T3")
                             for s in ("S0", "S1")])
    seen: list[tuple[int, int]] = []
    sw = sweep.run(net, RoutingSetup(model="bounce_on_failure"), 2,
                   progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 28) for i in range(1, 29)] and sw.checked == 28  # C(8, 2) sets
