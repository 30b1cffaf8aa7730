"""Whether one failure state is cyclic, decided on its dependency graph modulo symmetry.

Let H be a group of automorphisms of the failure state: here the elements of the fabric's
exact symmetry (netcfg.deadlock.symmetry) that fix every failed link. H maps the dependency
graph G onto itself, so it acts on the queues; G/H has the H-orbits of queues as nodes and an
edge [u] -> [v] for every edge u -> v of G.

G has a cycle iff G/H has a cycle or a loop. A cycle of G projects onto a closed walk of
G/H. Conversely, if [a1] -> [a2] -> ... -> [a1] in G/H, every queue of an orbit [ai] has an
edge into [ai+1] (an element of H maps the edge that made the quotient edge onto it), so a
walk along the quotient cycle can go on for ever inside the finite G and must repeat a queue.

G/H needs the edges of only one destination class per H-orbit of classes: the edges of the
class g(c) are g applied to those of c, the same orbit pairs. A 32,768-GPU fabric with one
failed link has a handful of class orbits instead of 1,024 classes, and no graph of the
whole fabric is ever held: this is what makes its failure sweep possible at all.
"""

from __future__ import annotations

from array import array
from typing import Any

from netcfg.deadlock.graph import Builder
from netcfg.deadlock.symmetry import Symmetry
from netcfg.routing.forward import Forwarder
from netcfg.routing.network import Network
from netcfg.routing.setup import RoutingSetup


def applies(net: Network, setup: RoutingSetup, sym: Symmetry | None) -> bool:
    """Whether the quotient can decide states of this fabric: an exact symmetry with device
    coordinates, a table-driven model, all-pairs traffic (listed pairs name devices, whose
    classes the orbits of devices do not describe), and no link within a tier (its two
    directions could not be told apart by orbit alone)."""
    return (sym is not None and sym.active and bool(sym.nodes)
            and setup.model in ("updown", "shortest_path", "bounce_on_failure")
            and not isinstance(setup.traffic, list)
            and all(net.tier[a] != net.tier[b] for a, b in net.links()))


def cycle(intact: Network, setup: RoutingSetup, failed: tuple[int, ...],
          sym: Symmetry) -> list[str] | None:
    """A cycle of G/H for the state with `failed` links down, as one dependency of G per
    quotient edge along it (`queue => queue`: turns whose orbits close the cycle), or None
    when the state is acyclic (see the module's docstring; `applies` must hold)."""
    import numpy as np

    from netcfg.deadlock.incremental import cycle_in

    net = intact.with_failures(failed)
    link_orbit, node_orbit = sym.orbits_fixing(failed)
    up = [net.tier[net.src[c]] < net.tier[net.dst[c]] for c in range(len(net.src))]
    chan_ids: dict[tuple[int, bool], int] = {}
    chan_orbit = np.asarray([chan_ids.setdefault((link_orbit[k], up[c]), len(chan_ids))
                             for c, k in enumerate(net.link_of)], dtype=np.int64)
    b = Builder(net, setup, intact=intact, explain=False)
    width = b.graph.width
    n = len(chan_ids) * width
    dests, live = b.pair_ends()
    done: set[Any] = set()
    keys, made = [], []  # per class: its distinct orbit pairs, and one edge of G for each
    for key, members in b.groups(dests):
        # a class hanging off one switch is in the orbit of every class whose switch is in
        # that switch's orbit; a class of several switches is searched itself (finer is
        # always safe: only skipping a class needs an element of H to stand for it)
        label: Any = ("alone", node_orbit[members[0]]) if key is None else (
            ("group", node_orbit[key[0]]) if len(key) == 1 else ("own", key))
        if label in done:
            continue
        done.add(label)
        rep = members[0]
        b.graph.src, b.graph.dst = array("q"), array("q")  # this class's edges only
        b.bfs(Forwarder(net, setup, rep, intact), rep, members, b.sources_to(members, live))
        u = np.frombuffer(b.graph.src, dtype=np.int64)
        v = np.frombuffer(b.graph.dst, dtype=np.int64)
        pair = (chan_orbit[u // width] * width + u % width) * n + (
            chan_orbit[v // width] * width + v % width)
        distinct, at = np.unique(pair, return_index=True)
        keys.append(distinct)
        made.append(np.stack([u[at], v[at]]))
    if not keys:
        return None
    distinct, at = np.unique(np.concatenate(keys), return_index=True)
    edge = np.concatenate(made, axis=1)[:, at]
    qu, qv = np.divmod(distinct, n)
    loops = np.flatnonzero(qu == qv)
    # an edge within one orbit is a loop of G/H: a cycle of G through that orbit
    ring = [int(qu[loops[0]])] if len(loops) else cycle_in(qu, qv, n)
    if ring is None:
        return None
    turns = []
    for i, q in enumerate(ring):
        j = int(np.searchsorted(distinct, q * n + ring[(i + 1) % len(ring)]))
        turns.append(f"{b.graph.node_name(int(edge[0, j]))} => "
                     f"{b.graph.node_name(int(edge[1, j]))}")
    return turns
