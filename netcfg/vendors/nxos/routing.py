"""NX-OS routing facts: `router bgp` of a rendered or running config, as NX-OS reads it.

A neighbour exchanges IPv4 routes only with `address-family ipv4 unicast` under it, so one
without is not counted. `network` and `maximum-paths` live under the router's IPv4 unicast
address family. An outbound route map on a neighbour counts as no transit (not evaluated).
"""

from __future__ import annotations

import re

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.common import bgp_router
from netcfg.vendors.lineconfig import Statement

AF = "address-family ipv4 unicast"


def read(text: str) -> RoutingFacts:
    asn, statements = bgp_router(text)
    router_id, paths, transit = "", None, True
    neighbors: dict[str, int] = {}
    originated: list[str] = []
    for child in statements:
        if m := re.fullmatch(r"router-id (\S+)", child.text):
            router_id = m.group(1)
        elif child.text == AF:
            for line in (c.text for c in child.children):
                if m := re.fullmatch(r"maximum-paths (\d+)", line):
                    paths = int(m.group(1))
                elif m := re.fullmatch(r"network (\S+)", line):
                    originated.append(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+)", child.text):
            remote, active, out_map = _neighbor(child)
            if remote is not None and active:
                neighbors[m.group(1)] = remote
            transit = transit and not out_map
    return RoutingFacts(asn, router_id, neighbors, tuple(originated), paths, transit)


def _neighbor(block: Statement) -> tuple[int | None, bool, bool]:
    """(remote AS, IPv4 unicast active, outbound route map) of one `neighbor` block."""
    remote, active, out_map = None, False, False
    for child in block.children:
        if m := re.fullmatch(r"remote-as (\d+)", child.text):
            remote = int(m.group(1))
        elif child.text == AF:
            active = True
            out_map = out_map or any(re.fullmatch(r"route-map \S+ out", c.text)
                                     for c in child.children)
    return remote, active, out_map
