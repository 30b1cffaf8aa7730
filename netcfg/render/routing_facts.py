"""Routing facts: what a config means for BGP, independent of syntax.

Each NOS's reader (netcfg/vendors/<nos>/routing.py) turns a rendered or running config into
these, by that NOS's own rules (a Junos export policy is evaluated term by term; SONiC's
announcements are what its bgpcfgd templates make of CONFIG_DB). `wanted(plan)` says what the
plan asks for. The twin builds each FRR router from the facts read back from the switch's own
NOS file, so what it proves about reachability holds for those files, not only for the plan.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from netcfg.render.plan import DevicePlan


@dataclass(frozen=True, slots=True)
class RoutingFacts:
    asn: int
    router_id: str
    #: neighbour address -> its AS
    neighbors: dict[str, int] = field(default_factory=dict)
    #: prefixes the switch announces of its own (loopback, server subnets or their blocks)
    originated: tuple[str, ...] = ()
    #: equal-cost BGP paths installed; None where the config does not state a number (the
    #: NOS's own default applies: CAP010 names it)
    maximum_paths: int | None = None
    #: routes learned from one BGP neighbour are passed on to the others (eBGP transit: what a
    #: spine or core exists for)
    transit: bool = True
    #: neighbour address -> (BFD interval in ms, multiplier), for the sessions running BFD
    bfd: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: neighbour addresses whose session has a TCP MD5 key (only that it has one: the key is
    #: the placeholder in a rendered file, the device's own form in a running config)
    keyed: frozenset[str] = frozenset()
    #: neighbour address -> (keepalive, hold time) in seconds, as the config states them for
    #: the session (its own, its group's, or the router's); a neighbour without is left to the
    #: NOS's default. What the twin runs (netcfg/twin/run.py `as_run`); `differences` does not
    #: compare it
    timers: dict[str, tuple[int, int]] = field(default_factory=dict)

    def covered(self) -> list[ipaddress.IPv4Network]:
        """The addresses the originated prefixes hold, as the fewest CIDR blocks: a leaf that
        announces 16 /31s and one that announces their /27 cover the same."""
        return list(ipaddress.collapse_addresses(
            ipaddress.IPv4Network(p) for p in self.originated))

    def differences(self, other: RoutingFacts) -> list[str]:
        """Human lines for each fact that differs (self = wanted, other = found)."""
        out: list[str] = []
        if self.asn != other.asn:
            out.append(f"BGP AS {other.asn} instead of {self.asn}")
        if self.router_id != other.router_id:
            out.append(f"router-id {other.router_id} instead of {self.router_id}")
        for addr in sorted(set(self.neighbors) | set(other.neighbors)):
            a, b = self.neighbors.get(addr), other.neighbors.get(addr)
            if b is None:
                out.append(f"neighbour {addr} (AS {a}) missing")
            elif a is None:
                out.append(f"neighbour {addr} (AS {b}) not in the plan")
            elif a != b:
                out.append(f"neighbour {addr}: AS {b} instead of {a}")
        want, got = set(self.covered()), set(other.covered())
        for net in sorted(want - got):
            out.append(f"{net} not announced")
        for net in sorted(got - want):
            out.append(f"{net} announced, not in the plan")
        if self.maximum_paths != other.maximum_paths:
            stated = ("none stated (the NOS's default)" if other.maximum_paths is None
                      else other.maximum_paths)
            out.append(f"maximum-paths {stated} instead of {self.maximum_paths}")
        for addr in sorted(set(self.bfd) | set(other.bfd)):
            asked, found = self.bfd.get(addr), other.bfd.get(addr)
            if asked != found:
                out.append(f"neighbour {addr}: " + (
                    "no BFD" if found is None else f"BFD {found[0]} ms x {found[1]}" + (
                        ", not in the plan" if asked is None
                        else f" instead of {asked[0]} ms x {asked[1]}")))
        for addr in sorted(self.keyed - other.keyed):
            out.append(f"neighbour {addr}: no session key")
        for addr in sorted(other.keyed - self.keyed):
            out.append(f"neighbour {addr}: session key, not in the plan")
        if self.transit != other.transit:
            out.append("BGP-learned routes are " + ("" if other.transit else "not ")
                       + "passed on to other neighbours")
        return out


def wanted(plan: DevicePlan, maximum_paths_stated: bool = True,
           bfd_stated: bool = True) -> RoutingFacts:
    """What the plan asks every NOS to state: its neighbours, its loopback and server subnets
    announced (as they are or as blocks), transit on, the plan's ECMP width and BFD where
    the NOS states them, and the session keys."""
    return RoutingFacts(
        asn=plan.bgp.asn, router_id=plan.bgp.router_id,
        neighbors={n.address: n.remote_as for n in plan.bgp.neighbors},
        originated=tuple(plan.bgp.networks),
        maximum_paths=plan.bgp.maximum_paths if maximum_paths_stated else None,
        transit=True,
        bfd={a: (b.interval_ms, b.multiplier) for a, b in plan.bgp.bfd().items()}
        if bfd_stated else {},
        keyed=frozenset(n.address for n in plan.bgp.neighbors if n.keyed))
