"""Ingress-aware forwarding `R(X, W, d, state)` for the table-driven models (spec section 2.2).

Rules come first (static route, flood, drop), then flooding towards dead hosts (route still
present, MAC aged out: Guo et al. 2016), then the routing policy. `bounce_on_failure` keeps the
intact topology's valley-free tables, prunes only failed links, and bounces a packet down to
another child when nothing is left (HotNets 2016 / Tagger failure model).
"""

from __future__ import annotations

from netcfg.routing import tables
from netcfg.routing.network import Network
from netcfg.routing.setup import FLOOD, RoutingSetup

#: why a hop was taken; shown as the cause of a turn in reports
ECMP, BOUNCE, BOUNCED, FLOODED, RULE = "ecmp", "bounce", "bounce_down", "flood", "rule"


class Forwarder:
    """Next hops of one destination `d` in one failure state."""

    def __init__(self, net: Network, setup: RoutingSetup, d: int,
                 intact: Network | None = None) -> None:
        self.net = net
        self.setup = setup
        self.d = d
        self.dead = {i for h in setup.dead_hosts for i in net.expand(h)}
        self.rules: dict[int, list] = {}
        for r in setup.rules:
            if d in net.expand(r.dst) and r.at in net.index:
                self.rules.setdefault(net.index[r.at], []).append(r)
        model = setup.model
        if model == "updown":
            self.table = tables.valley_free(net, d)
        elif model == "shortest_path":
            self.table = tables.shortest(net, d)
        elif model == "bounce_on_failure":
            # stale tables: computed on the intact topology, pruned locally below
            self.table = tables.valley_free(intact or net, d)
        else:
            raise ValueError(f"{model} is a path model, not table-driven")

    def _rule(self, x: int, w: int | None) -> list[int] | None:
        rules = self.rules.get(x)
        if not rules:
            return None
        names = self.net.names
        chosen = None
        for r in rules:
            if r.in_from is not None and w is not None and r.in_from == names[w]:
                chosen = r
                break
            if r.in_from is None and chosen is None:
                chosen = r
        if chosen is None:
            return None
        alive = self.net.alive(x)
        if chosen.out_to == FLOOD:
            return [y for y in alive if y != w]
        index = self.net.index
        return [index[n] for n in chosen.out_to if n in index and index[n] in alive]

    def hops(self, x: int, w: int | None, bounces: int) -> tuple[list[int], str, int]:
        """(next hops, cause, bounces after the hop) for a packet at `x` that came from `w`."""
        ruled = self._rule(x, w)
        if ruled is not None:
            return ruled, RULE, bounces
        alive = self.net.alive(x)
        if self.d in self.dead and self.d in alive:
            return [y for y in alive if y != w], FLOODED, bounces
        table = self.table[x]
        if self.setup.model != "bounce_on_failure":
            return table, ECMP, bounces
        # split horizon (the class representative may be a sibling source's own ingress)
        usable = [y for y in table if y in alive and (y != w or y == self.d)]
        if usable:
            return usable, ECMP, bounces
        if bounces >= self.setup.max_bounces:
            return [], ECMP, bounces
        tier = self.net.tier
        children = [y for y in alive if 0 < tier[y] < tier[x] and y != w]
        return children, BOUNCED, bounces + 1
