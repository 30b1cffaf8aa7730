"""Cumulus routing facts: the BGP of an NVUE YAML config (`nv config show -o yaml`).

The switch's AS and router-id sit under `router bgp`, the IPv4 unicast networks, multipaths
and neighbours under `vrf default router bgp` (render.sets merges the `set` documents). A
neighbour in a peer group inherits what it does not set itself (NVUE reference, BGP: "The BGP
neighbor inherits the group's configuration"), BFD and keys included. No NVUE route map is
rendered; one on a neighbour's IPv4 address family (`policy outbound route-map`) counts as no
transit (not evaluated). BFD is a neighbour's (or its group's) `bfd` with `enable on` and its
timers (5.14), or naming a `router bfd profile` that holds them (5.15); timers default to
300 ms x 3 (Cumulus Linux "Bidirectional Forwarding Detection - BFD", 5.14 and 5.15). BGP
timers are a neighbour's (or its group's) `timers` `keepalive` and `hold` in seconds; a value
NVUE does not give as a number (`auto`) is left to the switch's default.
"""

from __future__ import annotations

from typing import Any

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.cumulus.render import sets

#: YAML reads `on` as True; NVUE also writes on/enabled
ON = (True, "on", "enabled")
DEFAULT_BFD = (300, 3)


def read(text: str) -> RoutingFacts:
    merged = sets(text)
    router = _get(merged, "router", "bgp") or {}
    vrf = _get(merged, "vrf", "default", "router", "bgp") or {}
    af = _get(vrf, "address-family", "ipv4-unicast") or {}
    neighbors, transit, bfd, keyed = {}, True, {}, set()
    timers: dict[str, tuple[int, int]] = {}
    groups = _get(vrf, "peer-group") or {}
    for addr, n in (_get(vrf, "neighbor") or {}).items():
        n = n or {}
        if n.get("peer-group") is not None:  # what the neighbour does not set, its group does
            n = {**(groups.get(str(n["peer-group"])) or {}), **n}
        if "remote-as" in n:
            neighbors[str(addr)] = int(n["remote-as"])
        b = n.get("bfd") or {}
        if b.get("profile") is not None:  # 5.15: the timers live in `router bfd profile`,
            # and bfdd runs only with `router bfd state enabled`
            running = _get(merged, "router", "bfd", "state") in ON
            b = {"state": "enabled" if running else "disabled",
                 **(_get(merged, "router", "bfd", "profile", str(b["profile"])) or {})}
        if b.get("enable") in ON or b.get("state") in ON:
            rx = int(b.get("min-rx-interval", DEFAULT_BFD[0]))
            tx = int(b.get("min-tx-interval", DEFAULT_BFD[0]))
            bfd[str(addr)] = (max(rx, tx), int(b.get("detect-multiplier", DEFAULT_BFD[1])))
        t = n.get("timers") or {}
        if str(t.get("keepalive", "")).isdigit() and str(t.get("hold", "")).isdigit():
            timers[str(addr)] = (int(t["keepalive"]), int(t["hold"]))
        if n.get("password"):
            keyed.add(str(addr))
        if _get(n, "address-family", "ipv4-unicast", "policy", "outbound", "route-map"):
            transit = False
    paths = _get(af, "multipaths", "ebgp")
    return RoutingFacts(
        asn=int(router.get("autonomous-system") or 0), router_id=str(router.get("router-id", "")),
        neighbors=neighbors, originated=tuple(str(p) for p in (af.get("network") or {})),
        maximum_paths=None if paths is None else int(paths), transit=transit, bfd=bfd,
        keyed=frozenset(keyed), timers={a: t for a, t in timers.items() if a in neighbors})


def _get(d: Any, *keys: str) -> Any:
    """The value at `keys`, or None where a level is missing."""
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d

