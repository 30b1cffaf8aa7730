"""Routing-design rules: what the switches' BGP, as each NOS file states it, does to the fabric.

Each switch's routing is taken as its NOS states it (`Vendor.expected_routing`: the plan less
what the NOS cannot say; the tests read every rendered file back and require exactly these
facts), and judged against the cabling: every server subnet announced, maximum-paths as wide
as the equal-cost paths the topology offers, leaves joined by up*down* paths only, BFD on both
ends of every session the intent asks it for. The twin proves the same on real FRR for small
fabrics; these rules hold for any size, in seconds.
"""

from __future__ import annotations

from netcfg.findings import Finding, Rule
from netcfg.lint.consistency import Collect
from netcfg.render.plan import DevicePlan
from netcfg.render.routing_facts import RoutingFacts
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric, ipv4
from netcfg.topology.paths import Paths
from netcfg.vendors import vendor

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("RTE001", "warning", "maximum-paths below the ECMP width the topology offers",
         "BGP installs no more equal paths than maximum-paths: the other links carry no GPU "
         "traffic toward that destination and the rest run hotter", "RFC 7938 section 6.1"),
    Rule("RTE002", "error", "a server subnet is not announced",
         "a GPU NIC whose subnet no switch announces is reachable only from its own leaf",
         "RFC 7938 section 5.2.3"),
    Rule("RTE003", "error", "leaves joined by no up*down* path",
         "their traffic needs a valley (a lower switch as transit): routes that RFC 7938's "
         "ASN plan rejects by design, and down-up turns that can deadlock PFC",
         "RFC 7938 section 5.2.1; P8"),
    Rule("RTE004", "warning", "a BGP session without BFD at one or both ends where the "
         "intent asks for it", "a failed link is then noticed only when the BGP hold timer "
         "expires (180 s by default); BFD on one end never comes up", "RFC 5880, RFC 5882"),
    Rule("RTE005", "warning", "a switch's upper neighbours are in different ASes",
         "it then passes routes learned from one up to the other: after a link failure the "
         "fabric routes through a valley (RFC 7938 gives a pod's spines one AS to stop it)",
         "RFC 7938 section 5.2.1; P12"),
)}


def check(fabric: Fabric, plans: dict[str, DevicePlan]) -> list[Finding]:
    """All routing-design rules on the switches of `plans`."""
    c = Collect(fabric, RULES)
    facts = {name: vendor(p.nos).expected_routing(p) for name, p in plans.items()}
    switches = [fabric.devices[name] for name in plans]
    paths = Paths(fabric)
    _width(fabric, switches, facts, paths, c)
    _announced(switches, plans, facts, c)
    _valleys(fabric, switches, paths, c)
    _bfd(fabric, facts, c)
    _upper_ases(switches, facts, c)
    return c.findings()


def _width(fabric: Fabric, switches: list[Device], facts: dict[str, RoutingFacts],
           paths: Paths, c: Collect) -> None:
    stated = ("routing", "max_paths") if fabric.loaded.intent.routing.max_paths else None
    for dev in switches:
        have = facts[dev.name].maximum_paths
        width, toward = paths.widest(dev)
        if have is not None and have < width:
            c.add("RTE001", stated, f"{dev.name} installs at most {have} equal BGP paths but "
                  f"has {width} toward {toward}: {width - have} of those links stay idle",
                  device=dev.name)


def _announced(switches: list[Device], plans: dict[str, DevicePlan],
               facts: dict[str, RoutingFacts], c: Collect) -> None:
    """Every server-facing port's /31 inside a prefix the switch announces (integer
    arithmetic: a 32,768-GPU fabric has 65,536 such ports)."""
    for dev in switches:
        blocks = [_prefix(p) for p in facts[dev.name].originated]
        lost = [f"{ipv4(a & ~1)}/31" for a in _server_addresses(dev)
                if not any(a >> (32 - n) == net >> (32 - n) for net, n in blocks)]
        if lost:
            c.add("RTE002", dev.platform_path, f"{dev.name}'s {plans[dev.name].nos} config "
                  f"announces {len(lost)} of its server subnets nowhere ({', '.join(lost[:3])}"
                  f"{' ...' if len(lost) > 3 else ''}): those GPUs are unreachable from "
                  "other leaves", device=dev.name)


def _prefix(text: str) -> tuple[int, int]:
    """"a.b.c.d/n" as (address as int, n)."""
    addr, _, length = text.partition("/")
    a, b, c, d = (int(x) for x in addr.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d, int(length or 32)


def _server_addresses(dev: Device) -> list[int]:
    return sorted(p.address for p in dev.ports if p.address is not None
                  and p.peer is not None and not p.peer.device.is_switch)


def _tops(dev: Device, memo: dict[str, frozenset[str]]) -> frozenset[str]:
    """The highest switches `dev` reaches going only up (itself when it has no uplink)."""
    got = memo.get(dev.name)
    if got is None:
        ups = {p.peer.device for p in dev.ports
               if p.peer is not None and p.peer.device.tier > dev.tier}
        got = frozenset({dev.name}) if not ups else frozenset().union(
            *(_tops(u, memo) for u in ups))
        memo[dev.name] = got
    return got


def _valleys(fabric: Fabric, switches: list[Device], paths: Paths, c: Collect) -> None:
    """Two leaves have an up*down* path exactly when some switch is above both, that is when
    the highest switches they reach going up overlap (what is above a common switch is
    common too). Leaves are grouped by that set, so the test is per pair of groups."""
    memo: dict[str, frozenset[str]] = {}
    leaves = {d.name for d in paths.leaves}
    groups: dict[frozenset[str], list[str]] = {}
    for dev in switches:
        if dev.name in leaves:
            groups.setdefault(_tops(dev, memo), []).append(dev.name)
    keys = list(groups)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if not a & b:
                c.add("RTE003", ("topology",), f"{groups[a][0]} and {groups[b][0]} "
                      f"({len(groups[a]) * len(groups[b])} leaf pairs) share no switch above "
                      "them: their GPUs reach each other only through a valley",
                      device=groups[a][0])


def _bfd(fabric: Fabric, facts: dict[str, RoutingFacts], c: Collect) -> None:
    for link in fabric.links:
        a, b = link.a, link.b
        if not (a.device.is_switch and b.device.is_switch) or a.address is None \
                or b.address is None or a.device.name not in facts \
                or b.device.name not in facts:
            continue
        if effective.bfd(fabric, a.device.role, b.device.role) is None:
            continue
        # each end keys its BFD by the neighbour's address
        at_a = ipv4(b.address) in facts[a.device.name].bfd
        at_b = ipv4(a.address) in facts[b.device.name].bfd
        if at_a and at_b:
            continue
        ends = "either end" if not (at_a or at_b) else \
            f"{(b if at_a else a).device.name}'s end (one-sided: it never comes up)"
        c.add("RTE004", ("routing", "bfd"), f"the session {a.id} - {b.id} runs no BFD at "
              f"{ends}", device=(b if at_a else a).device.name, interface=(b if at_a else a).name)


def _upper_ases(switches: list[Device], facts: dict[str, RoutingFacts], c: Collect) -> None:
    for dev in switches:
        if not facts[dev.name].transit:
            continue
        ups = {p.peer.device.name: p.peer.device for p in dev.ports
               if p.peer is not None and p.peer.device.tier > dev.tier}
        by_as: dict[int | None, Device] = {}
        for name in sorted(ups):
            by_as.setdefault(ups[name].asn, ups[name])
        if len(by_as) < 2:
            continue
        first, second = list(by_as.values())[:2]
        # the line to change: an override that moved one of them, else the ASN plan
        path = next((d.origin["asn"] for d in by_as.values()
                     if d.origin.get("asn", ("",))[0] == "overrides"),
                    first.origin.get("asn") or ("routing", "asn"))
        c.add("RTE005", path, f"{dev.name} peers up with {first.name} (AS {first.asn}) and "
              f"{second.name} (AS {second.asn}) and passes routes from one to the other: "
              f"after a link failure traffic can turn down at {dev.name} and up again",
              device=dev.name)
