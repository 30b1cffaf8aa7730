"""NX-OS routing facts: `router bgp` of a rendered or running config, as NX-OS reads it.

A neighbour exchanges IPv4 routes only with `address-family ipv4 unicast` (its own or its
peer template's, `inherit peer`), so one without is not counted. `network` and
`maximum-paths` live under the router's IPv4 unicast address family. An outbound route map
counts as no transit (not evaluated). BFD runs on a session whose neighbour or template says
`bfd`, with `feature bfd` on; single-hop BFD takes its timers from the interface the session
runs over (`bfd interval`), else the global `bfd interval`, else NX-OS's 50 ms x 3 (Cisco
Nexus 7000 NX-OS Interfaces Configuration Guide 5.x, table "Default BFD Parameters"; the
prerequisites there: `feature bfd`, BFD enabled in the client protocol, ICMP redirects off on
the interface). BGP timers are `timers K H` in the neighbour's block or its template's, else
the router's `timers bgp K H`.
"""

from __future__ import annotations

import ipaddress
import re

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.common import bgp_router
from netcfg.vendors.lineconfig import Statement, parse

AF = "address-family ipv4 unicast"
DEFAULT_BFD = (50, 3)
_TIMERS = re.compile(r"bfd interval (\d+) min_rx (\d+) multiplier (\d+)")
_BGP_TIMERS = re.compile(r"timers (\d+) (\d+)")


def _timers(line: str) -> tuple[int, int] | None:
    if m := _TIMERS.fullmatch(line):
        return max(int(m.group(1)), int(m.group(2))), int(m.group(3))
    return None


def _bfd_timers(text: str) -> tuple[bool, tuple[int, int], list[tuple[ipaddress.IPv4Network,
                                                                      tuple[int, int]]]]:
    """`feature bfd` on, the global timers, and the timers of each addressed interface."""
    feature, default = False, DEFAULT_BFD
    ports: list[tuple[ipaddress.IPv4Network, tuple[int, int]]] = []
    for block in parse(text):
        if block.text == "feature bfd":
            feature = True
        elif t := _timers(block.text):
            default = t
        elif block.text.startswith("interface "):
            lines = [c.text for c in block.children]
            nets = [ipaddress.IPv4Interface(m.group(1)).network for line in lines
                    if (m := re.fullmatch(r"ip address (\S+)", line))]
            timers = [t for line in lines if (t := _timers(line))]
            if nets and timers:
                ports.append((nets[0], timers[0]))
    return feature, default, ports


def read(text: str) -> RoutingFacts:
    asn, statements = bgp_router(text)
    router_id, paths, transit = "", None, True
    templates: dict[str, Statement] = {}
    neighbors: dict[str, int] = {}
    with_bfd: list[str] = []
    keyed: set[str] = set()
    originated: list[str] = []
    router_timers: tuple[int, int] | None = None
    timers: dict[str, tuple[int, int]] = {}
    for child in statements:
        if m := re.fullmatch(r"template peer (\S+)", child.text):
            templates[m.group(1)] = child
    for child in statements:
        if m := re.fullmatch(r"router-id (\S+)", child.text):
            router_id = m.group(1)
        elif m := re.fullmatch(r"timers bgp (\d+) (\d+)", child.text):
            router_timers = (int(m.group(1)), int(m.group(2)))
        elif child.text == AF:
            for line in (c.text for c in child.children):
                if m := re.fullmatch(r"maximum-paths (\d+)", line):
                    paths = int(m.group(1))
                elif m := re.fullmatch(r"network (\S+)", line):
                    originated.append(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+)", child.text):
            inherit = next((t.group(1) for c in child.children
                            if (t := re.fullmatch(r"inherit peer (\S+)", c.text))), None)
            blocks = [child] + ([templates[inherit]] if inherit in templates else [])
            remote, active, out_map, runs_bfd, key = _neighbor(blocks)
            if remote is not None and active:
                neighbors[m.group(1)] = remote
                if own := next((t for b in blocks for c in b.children
                                if (t := _BGP_TIMERS.fullmatch(c.text))), None):
                    timers[m.group(1)] = (int(own.group(1)), int(own.group(2)))
                if runs_bfd:
                    with_bfd.append(m.group(1))
                if key:
                    keyed.add(m.group(1))
            transit = transit and not out_map
    feature, default, ports = _bfd_timers(text)
    bfd = {}
    if feature:
        for addr in with_bfd:
            ip = ipaddress.IPv4Address(addr)
            bfd[addr] = next((t for net, t in ports if ip in net), default)
    if router_timers is not None:
        timers = {a: timers.get(a, router_timers) for a in neighbors}
    return RoutingFacts(asn, router_id, neighbors, tuple(originated), paths, transit, bfd,
                        frozenset(keyed), timers)


def _neighbor(blocks: list[Statement]) -> tuple[int | None, bool, bool, bool, bool]:
    """(remote AS, IPv4 unicast active, outbound route map, BFD, session key) of a
    neighbour, its own block first, then its template's."""
    remote, active, out_map, bfd, key = None, False, False, False, False
    for block in blocks:
        for child in block.children:
            if remote is None and (m := re.fullmatch(r"remote-as (\d+)", child.text)):
                remote = int(m.group(1))
            elif child.text == "bfd":
                bfd = True
            elif re.fullmatch(r"password (?:[037] )?\S+", child.text):
                key = True
            elif child.text == AF:
                active = True
                out_map = out_map or any(re.fullmatch(r"route-map \S+ out", c.text)
                                         for c in child.children)
    return remote, active, out_map, bfd, key
