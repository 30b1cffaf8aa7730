"""Junos routing facts: BGP groups and their export policies, evaluated as Junos does.

A route leaves through a BGP group when the group's export policy chain accepts it: each
policy's terms in order, a term matching when every `from` condition holds (`protocol`,
`route-filter ... exact`), its `then accept`/`reject` deciding; a term without an action falls
through; after the terms the policy's own final `then`; a chain that decides nothing ends in
the BGP default policy, which advertises active BGP routes and no direct or static ones
(Junos "Default Routing Policies"). Originated = the lo0 and interface subnets and static
routes the chain accepts as direct/static routes; transit = a BGP route outside every route
filter is accepted. Junos states no path count: `multipath` means as many as the platform
installs (None), none means one. BFD runs where the group or the neighbour has
`bfd-liveness-detection` with a `minimum-interval` (the neighbour's own first), the multiplier
3 where none is stated (Junos "bfd-liveness-detection (Protocols BGP)"). A session's BGP
timers are the `hold-time` of its neighbour, else its group, else all of `bgp` (Juniper,
`hold-time (Protocols BGP)`): "The hold time is three times the interval at which keepalive
messages are sent", so the keepalive is a third of it; none stated leaves Junos's 90 s.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.junos.syntax import statements


@dataclass
class _Term:
    protocols: set[str] = field(default_factory=set)
    exact: set[str] = field(default_factory=set)  # route-filter <prefix> exact
    other_filter: bool = False  # a route-filter this reader does not evaluate: never matches
    action: str | None = None


@dataclass
class _Policy:
    terms: dict[str, _Term] = field(default_factory=dict)  # in order
    final: str | None = None


def read(text: str) -> RoutingFacts:
    asn, router_id = 0, ""
    neighbors: dict[str, int] = {}
    group_as: dict[str, int] = {}
    group_nbrs: dict[str, dict[str, int | None]] = {}
    exports: dict[str, list[str]] = {}
    multipath: dict[str, bool] = {}
    bfd: dict[str, dict[str, int]] = {}  # group or "group neighbor" -> its BFD statements
    keys: set[str] = set()  # "" (all of bgp), group or "group neighbor" with authentication-key
    hold: dict[str, int] = {}  # "" (all of bgp), group or "group neighbor" -> hold-time
    policies: dict[str, _Policy] = {}
    local: list[str] = []  # candidate direct routes: interface subnets and lo0
    static: list[str] = []
    for s in statements(text):
        if s[:2] == ("routing-options", "router-id") and len(s) > 2:
            router_id = s[2]
        elif s[:2] == ("routing-options", "autonomous-system") and len(s) > 2:
            asn = int(s[2])
        elif s[:3] == ("routing-options", "static", "route") and len(s) > 3:
            static.append(s[3])
        elif s[:3] == ("protocols", "bgp", "group") and len(s) > 4:
            _group(s[3], s[4:], group_as, group_nbrs, exports, multipath)
            _bfd(s[3], s[4:], bfd)
            if s[4] == "hold-time" and len(s) > 5:
                hold[s[3]] = int(s[5])
            elif s[4] == "neighbor" and s[6:7] == ("hold-time",) and len(s) > 7:
                hold[f"{s[3]} {s[5]}"] = int(s[7])
            if s[4] == "authentication-key" or s[4:5] == ("neighbor",) and \
                    s[6:7] == ("authentication-key",):
                keys.add(s[3] if s[4] == "authentication-key" else f"{s[3]} {s[5]}")
        elif s[:3] == ("protocols", "bgp", "authentication-key"):
            keys.add("")
        elif s[:3] == ("protocols", "bgp", "hold-time") and len(s) > 3:
            hold[""] = int(s[3])
        elif s[:2] == ("policy-options", "policy-statement") and len(s) > 3:
            _policy(policies.setdefault(s[2], _Policy()), s[3:])
        elif s[0] == "interfaces" and "address" in s and "inet" in s:
            addr = s[s.index("address") + 1]
            net = ipaddress.IPv4Interface(addr)
            local.append(str(net.network if s[1] != "lo0" else ipaddress.IPv4Network(net.ip)))
    chains = []
    for g, nbrs in group_nbrs.items():
        for addr, peer_as in nbrs.items():
            if (remote := peer_as or group_as.get(g)) is not None:
                neighbors[addr] = remote
        chains.append([policies.get(p, _Policy()) for p in exports.get(g, [])])
    if not chains:
        chains = [[]]
    # what every group announces: a fabric switch exports the same to all its peers
    originated = sorted(
        {p for p in local if all(_accepts(c, "direct", p) for c in chains)}
        | {p for p in static if all(_accepts(c, "static", p) for c in chains)},
        key=lambda p: ipaddress.IPv4Network(p))
    transit = all(_accepts(c, "bgp", None) for c in chains)
    paths = None if multipath and all(multipath.get(g) for g in group_nbrs) else 1
    sessions = {}
    for g, nbrs in group_nbrs.items():
        for addr in nbrs:
            own = bfd.get(f"{g} {addr}", {})
            timers = own if "minimum-interval" in own else bfd.get(g, {})
            if addr in neighbors and "minimum-interval" in timers:
                sessions[addr] = (timers["minimum-interval"], timers.get("multiplier", 3))
    keyed = frozenset(addr for g, nbrs in group_nbrs.items() for addr in nbrs
                      if addr in neighbors and keys & {"", g, f"{g} {addr}"})
    held: dict[str, tuple[int, int]] = {}
    for g, nbrs in group_nbrs.items():
        for addr in nbrs:
            h = hold.get(f"{g} {addr}", hold.get(g, hold.get("")))
            if addr in neighbors and h is not None:
                held[addr] = (h // 3, h)
    return RoutingFacts(asn, router_id, neighbors, tuple(originated), paths, transit, sessions,
                        keyed, held)


def _bfd(group: str, rest: tuple[str, ...], bfd: dict[str, dict[str, int]]) -> None:
    """`bfd-liveness-detection minimum-interval|multiplier N` of a group or its neighbour."""
    owner = group
    if rest[0] == "neighbor" and len(rest) > 2:
        owner, rest = f"{group} {rest[1]}", rest[2:]
    if len(rest) == 3 and rest[0] == "bfd-liveness-detection" \
            and rest[1] in ("minimum-interval", "multiplier"):
        bfd.setdefault(owner, {})[rest[1]] = int(rest[2])


def _group(name: str, rest: tuple[str, ...], group_as: dict[str, int],
           group_nbrs: dict[str, dict[str, int | None]], exports: dict[str, list[str]],
           multipath: dict[str, bool]) -> None:
    nbrs = group_nbrs.setdefault(name, {})
    if rest[0] == "peer-as" and len(rest) > 1:
        group_as[name] = int(rest[1])
    elif rest[0] == "export":
        exports.setdefault(name, []).extend(rest[1:])
    elif rest[0] == "multipath":
        multipath[name] = True
    elif rest[0] == "neighbor" and len(rest) > 1:
        nbrs.setdefault(rest[1], None)
        if len(rest) > 3 and rest[2] == "peer-as":
            nbrs[rest[1]] = int(rest[3])


def _policy(policy: _Policy, rest: tuple[str, ...]) -> None:
    if rest[0] == "then" and len(rest) > 1 and rest[1] in ("accept", "reject"):
        policy.final = rest[1]
        return
    if rest[0] != "term" or len(rest) < 3:
        return
    term = policy.terms.setdefault(rest[1], _Term())
    kind, words = rest[2], rest[3:]
    if kind == "from" and words:
        if words[0] == "protocol":
            term.protocols |= set(words[1:])
        elif words[0] == "route-filter" and len(words) == 3 and words[2] == "exact":
            term.exact.add(words[1])
        elif words[0] == "route-filter":
            term.other_filter = True
    elif kind == "then" and words and words[0] in ("accept", "reject"):
        term.action = words[0]


def _accepts(chain: list[_Policy], protocol: str, prefix: str | None) -> bool:
    """Whether the export chain advertises a route of `protocol` (`prefix` None: one that no
    route filter names, as a transit route is)."""
    for policy in chain:
        for term in policy.terms.values():
            if term.protocols and protocol not in term.protocols:
                continue
            if term.other_filter or (term.exact and prefix not in term.exact):
                continue
            if term.action is not None:
                return term.action == "accept"
        if policy.final is not None:
            return policy.final == "accept"
    return protocol == "bgp"  # the BGP default export policy
