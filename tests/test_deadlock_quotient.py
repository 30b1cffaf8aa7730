"""A failure state decided modulo symmetry gets the verdict of building it whole.

`quotient.cycle` searches one destination class per orbit of the symmetry that fixes the
failed links and looks for a cycle among orbits of queues; the reference is
`scenario.run`, which builds every class of the state. Compared on every pair and a sample of
triples of failed links of small rail fabrics (one and two planes), under the two models
whose tables differ (stale valley-free tables that bounce, and shortest paths).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from deadlock_fabrics import small_rail

from netcfg.deadlock import quotient, scenario, sweep
from netcfg.deadlock.check import check
from netcfg.deadlock.symmetry import derive
from netcfg.routing.network import from_fabric
from netcfg.routing.setup import from_intent
from netcfg.validate import validate


def rail(tmp_path: Path, **topology):  # noqa: ANN201 - a Fabric
    v = validate(small_rail(tmp_path, **topology))
    assert v.ok, [f.text() for f in v.findings]
    return v.fabric


def state(fabric, model: str):
    net = from_fabric(fabric)
    setup = from_intent(fabric.loaded.intent, has_hosts=True)
    setup.model = model
    sym = derive(fabric, net, setup)
    assert quotient.applies(net, setup, sym), sym.dropped if sym else None
    return net, setup, sym


@pytest.mark.parametrize("model", ["bounce_on_failure", "shortest_path"])
@pytest.mark.parametrize("planes", [1, 2])
def test_the_quotient_agrees_with_building_every_class(tmp_path: Path, model: str,
                                                       planes: int):
    extra = {"planes": 2, "node": {"gpus": 2, "nics": 2, "nic": "connectx-8"}} \
        if planes == 2 else {}
    net, setup, sym = state(rail(tmp_path, **extra), model)
    links = range(len(net.links()))
    rng = random.Random(planes)
    sets = list(itertools.combinations(links, 2))
    sets += rng.sample(list(itertools.combinations(links, 3)), 20)
    cyclic = 0
    for failed in sets:
        want = scenario.run(net, setup, failed, explain=False).cyclic
        assert (quotient.cycle(net, setup, failed, sym) is not None) == want, failed
        cyclic += want
    assert cyclic >= 5  # both verdicts are exercised


def test_the_orbit_cycle_is_made_of_dependencies_of_the_failure_state(tmp_path: Path):
    """The HotNets pattern on rails (two leaf-spine links at different spines): every turn
    the quotient names is an edge of the state's whole graph, and the orbits of those
    turns close a cycle (each turn ends in the orbit where the next begins)."""
    from netcfg.deadlock.graph import build

    fabric = rail(tmp_path)
    net, setup, sym = state(fabric, "bounce_on_failure")
    exact = check(fabric, failures=2, model="bounce_on_failure")
    failed = tuple(k for k, (a, b) in enumerate(net.links())
                   if sorted([net.names[a], net.names[b]]) in
                   [sorted(p) for p in exact.failures])
    turns = quotient.cycle(net, setup, failed, sym)
    assert turns and len(failed) == 2
    g = build(net.with_failures(failed), setup, intact=net, explain=False)
    names = {(g.node_name(u), g.node_name(v)) for u, v in zip(g.src, g.dst)}
    pairs = [tuple(t.split(" => ")) for t in turns]
    assert all(p in names for p in pairs), pairs
    link_orbit, _ = sym.orbits_fixing(failed)
    index = {net.channel_name(c): c for c in range(len(net.src))}

    def orbit(queue: str) -> tuple[int, bool, str]:
        c = index[queue.split("@")[0]]
        return (link_orbit[net.link_of[c]], net.tier[net.src[c]] < net.tier[net.dst[c]],
                queue.split("@")[1])

    for (_, v), (u2, _) in zip(pairs, pairs[1:] + pairs[:1]):
        assert orbit(v) == orbit(u2)


def test_a_sweep_modulo_symmetry_finds_the_sets_the_incremental_sweep_finds(tmp_path: Path,
                                                                          monkeypatch):
    """With the class threshold at 0 the small fabric is swept modulo symmetry: the same
    cyclic sets and counts as the incremental sweep, a DLK002 naming the failed links and
    the cycle by orbit, and no graph of the whole fabric built (the intact state proven)."""
    fabric = rail(tmp_path)
    incremental = check(fabric, failures=2, model="bounce_on_failure")
    monkeypatch.setattr(sweep, "QUOTIENT_CLASSES", 0)
    modulo = check(fabric, failures=2, model="bounce_on_failure")
    a, b = incremental.sweep, modulo.sweep
    assert b["method"].startswith("quotient") and a["method"].startswith("incremental")
    for key in ("sets", "checked", "represented", "cyclic_sets", "cyclic_checked", "examples"):
        assert a[key] == b[key], key
    assert modulo.verdict == "deadlock" and modulo.failures == incremental.failures
    assert modulo.edges == 0 and modulo.fast_path  # the no-failure state: a proof
    assert b["orbit_cycle"] and not a["orbit_cycle"]
    (msg,) = [f.message for f in modulo.findings if f.rule == "DLK002"]
    assert "a cycle of turns like" in msg and " => " in msg
