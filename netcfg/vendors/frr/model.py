"""An FRR integrated configuration (frr.conf) as values: what `build(plan)` returns and
templates/frr/frr.conf.j2 prints. FRR is a routing suite: the file holds interfaces' addresses
and BGP, nothing of QoS (capabilities.py says so)."""

from __future__ import annotations

from dataclasses import dataclass

from netcfg.vendors.common import Bgp


@dataclass(frozen=True, slots=True)
class Interface:
    name: str
    description: str
    address: str


@dataclass(frozen=True, slots=True)
class FrrConfig:
    hostname: str
    loopback: str
    interfaces: tuple[Interface, ...]
    #: announced prefixes that are not a connected subnet: each gets a discard route (staticd)
    #: so that its `network` statement finds it in the routing table
    blackholes: tuple[str, ...]
    bgp: Bgp
    #: BGP-learned routes are passed on; False: an outbound filter lets only `networks` out
    transit: bool
    #: `timers bgp <keepalive> <hold>` (seconds, routing.timers): every session's, where the
    #: file states it rather than leave it to the `frr defaults` profile
    timers: tuple[int, int]
