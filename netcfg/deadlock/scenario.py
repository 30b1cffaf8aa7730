"""One failure state: build its dependency graph and find its cycles.

`valley_free_proof` is the structural fast path: converged up*/down* routing without
ingress-aware rules or flooding only ever makes safe turns (spec section 2.3), in every failure
state, so no graph has to be built to know it is acyclic. `proven` adds the one state of
`bounce_on_failure` that forwards the same way: no link failed.
"""

from __future__ import annotations

from dataclasses import dataclass

from netcfg.deadlock.analysis import Analysis, analyse
from netcfg.deadlock.graph import Builder, Graph, build
from netcfg.routing.network import Network
from netcfg.routing.setup import RoutingSetup


@dataclass
class Outcome:
    failed: tuple[int, ...]  # link indices
    graph: Graph | None
    analysis: Analysis
    #: the builder, with its BFS states, when asked for (the failure sweep starts from it)
    builder: Builder | None = None

    @property
    def cyclic(self) -> bool:
        return self.analysis.cyclic


def valley_free_proof(setup: RoutingSetup) -> bool:
    """True when the routing model alone guarantees only safe turns."""
    return setup.model == "updown" and not setup.rules and not setup.dead_hosts


def proven(setup: RoutingSetup, failed: tuple[int, ...]) -> bool:
    """True when this failure state makes only safe turns: the valley-free proof, or
    `bounce_on_failure` with no link failed. Its stale tables are the intact topology's
    valley-free tables, nothing is pruned, so no switch is left without a next hop and none
    bounces: it forwards exactly as `updown` does."""
    return valley_free_proof(setup) or (
        setup.model == "bounce_on_failure" and not failed and not setup.rules
        and not setup.dead_hosts)


def lossless_priorities(setup: RoutingSetup) -> int:
    """The priorities lossless traffic is tagged with that PFC protects: a graph node per
    lossless channel and each of them."""
    return len({p for p in setup.tags_to_priorities if p in setup.pfc_priorities})


def lossless_nodes(net: Network, setup: RoutingSetup) -> int:
    return (sum(1 for c, ok in enumerate(net.lossless) if ok and c not in net.failed)
            * lossless_priorities(setup))


def run(intact: Network, setup: RoutingSetup, failed: tuple[int, ...] = (), *,
        exhaustive: bool = False, keep_states: bool = False, explain: bool = True) -> Outcome:
    """Check one failure state; `exhaustive` builds the graph even where a proof exists;
    `keep_states` keeps the builder of a table-driven model for the failure sweep;
    `explain=False` skips the per-edge causes (a verdict only, not a report)."""
    net = intact.with_failures(failed) if failed else intact
    # a failure sweep that goes on from this state needs its BFS states (`keep_states`)
    if not exhaustive and (valley_free_proof(setup)
                           or (not keep_states and proven(setup, failed))):
        return Outcome(failed, None, Analysis(lossless_nodes(net, setup), 0, 0, True))
    if keep_states and setup.model not in ("k_bounce", "all_simple_paths"):
        b = Builder(net, setup, intact=intact, explain=explain)
        b.keep_states = True
        g = b.run_tables()
        return Outcome(failed, g, analyse(g), b)
    g = build(net, setup, intact=intact, explain=explain)
    return Outcome(failed, g, analyse(g))
