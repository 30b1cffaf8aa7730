"""Link failures on the twin: take a cable down, wait for BGP to route around it, check that
no server pair lost reachability, bring it back.

A sample of every tier's cables is failed one at a time (`ip link set ... down` on one end; the
veth peer loses carrier too, as a fibre cut does). Reconvergence is measured from the moment
the link goes down until the last change of any switch's BGP state once the two switches at its
ends have dropped the session over it and every leaf again holds a BGP route for every server
prefix (run.converge says why only the leaves); then the NICs nearest the cut (those of the
first server under the leaf end, or of the pod's first server for an upper tier) ping every
NIC. The cable is restored and
the fabric must settle again within the bound before the next (a fabric that does not stops the
series and fails it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from netcfg.render.plan import DevicePlan
from netcfg.render.routing_facts import RoutingFacts
from netcfg.topology.fabric import Fabric
from netcfg.twin.network import Router, Twin
from netcfg.twin.probe import Nic, recheck, unanswered


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed cable and what the fabric did about it."""

    link: str  # "leaf-su1-r1:Ethernet9/1 - spine-pod1-1:Ethernet1/1/1"
    tier: str  # "leaf-spine" | "spine-core"
    reconverged_s: float | None  # None: not within the bound
    pairs: int
    unreachable: int
    #: the fabric settled again (every session up) within the bound once the cable was back
    restored: bool

    @property
    def ok(self) -> bool:
        return self.reconverged_s is not None and self.unreachable == 0 and self.restored

    def as_dict(self) -> dict[str, object]:
        return {"link": self.link, "tier": self.tier, "reconverged_s": self.reconverged_s,
                "pairs": self.pairs, "unreachable": self.unreachable,
                "restored": self.restored}


def sample(fabric: Fabric, plans: list[DevicePlan], per_tier: int) -> list[tuple[str, str, str]]:
    """Up to `per_tier` cables of each switch tier, spread over it: (tier, lower end `dev:port`,
    upper end `dev:port`), the same every run."""
    names = {p.hostname for p in plans}
    tiers: dict[str, list[tuple[str, str]]] = {}
    for plan in plans:
        dev = fabric.devices[plan.hostname]
        for port in dev.ports:
            peer = port.peer
            if peer is None or peer.device.name not in names or peer.device.tier <= dev.tier:
                continue
            tier = f"{dev.role}-{peer.device.role}"
            tiers.setdefault(tier, []).append((f"{dev.name}:{port.name}", peer.id))
    out = []
    for tier, links in sorted(tiers.items()):
        step = max(1, len(links) // max(1, per_tier))
        out += [(tier, a, b) for a, b in links[::step][:per_tier]]
    return out


def fail_links(twin: Twin, fabric: Fabric, routers: list[Router], plans: list[DevicePlan],
               facts: dict[str, RoutingFacts], nics: list[Nic], per_tier: int, bound: float,
               linux: Callable[[str, str], str],
               settled: Callable[[dict[str, int], float], float | None]) -> list[Failure]:
    """Fail each sampled cable in turn. `linux(device, port)` names the port's Linux interface;
    `settled(down, since)` waits (up to the bound) until every switch has its sessions but
    `down[name]` of them established and has stopped changing, and every leaf holds every
    server prefix, returning the seconds from `since` to its last change."""
    ns_of = {r.name: r.netns for r in routers}
    out = []
    for tier, lower, upper in sample(fabric, plans, per_tier):
        ldev, lport = lower.split(":", 1)
        udev, uport = upper.split(":", 1)
        start = time.monotonic()
        twin.configure(ns_of[ldev], [f"link set {linux(ldev, lport)} down"])
        took = settled({ldev: 1, udev: 1}, start)
        elapsed = None if took is None else round(took, 1)
        sources = _near(fabric, ldev, nics, set(ns_of))
        pairs = [(a, b) for a in sources for b in range(len(nics)) if a != b]
        lost = recheck(unanswered(nics, pairs), partial(unanswered, nics, pairs),
                       partial(_settled_again, settled, took, {ldev: 1, udev: 1}))
        twin.configure(ns_of[ldev], [f"link set {linux(ldev, lport)} up"])
        restored = settled({}, time.monotonic()) is not None
        out.append(Failure(f"{lower} - {upper}", tier, elapsed, len(pairs), len(lost),
                           restored))
        if not restored:
            break  # later measurements would start from a broken fabric
    return out


def _settled_again(settled: Callable[[dict[str, int], float], float | None], took: float | None,
                   down: dict[str, int]) -> bool:
    """The cut fabric settles again (a fabric that never did is not asked again)."""
    return took is not None and settled(down, time.monotonic()) is not None


def _near(fabric: Fabric, switch: str, nics: list[Nic], twinned: set[str]) -> list[int]:
    """Indexes of the NICs of the first server under `switch` (through lower tiers) that the
    twin holds: a twin of some rails (`--rail`) leaves a spine's first leaf out when that
    leaf's rail is not among them."""
    dev = fabric.devices[switch]
    while dev.tier > 1:
        below = [p.peer.device for p in dev.ports if p.peer is not None
                 and p.peer.device.tier == dev.tier - 1 and p.peer.device.name in twinned]
        dev = below[0]
    held = {nic.name: i for i, nic in enumerate(nics)}
    server = next(p.peer.device for p in dev.ports if p.peer is not None
                  and not p.peer.device.is_switch and p.peer.id in held)
    return [held[p.id] for p in server.ports if p.id in held]
