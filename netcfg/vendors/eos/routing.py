"""EOS routing facts: `router bgp` of a rendered or running config, as EOS reads it.

EOS activates every neighbour for IPv4 unicast unless `no bgp default ipv4-unicast` is set,
announces a `network` prefix present in its routing table, and passes BGP-learned routes on to
other eBGP neighbours unless an outbound route map says otherwise (netcfg does not evaluate
route maps: a neighbour with one counts as no transit).
"""

from __future__ import annotations

import re

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.common import bgp_router


def read(text: str) -> RoutingFacts:
    asn, statements = bgp_router(text)
    router_id, paths, transit = "", None, True
    neighbors: dict[str, int] = {}
    originated: list[str] = []
    for child in statements:
        line = child.text
        if m := re.fullmatch(r"router-id (\S+)", line):
            router_id = m.group(1)
        elif m := re.fullmatch(r"maximum-paths (\d+)( .*)?", line):
            paths = int(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+) remote-as (\d+)", line):
            neighbors[m.group(1)] = int(m.group(2))
        elif re.fullmatch(r"neighbor \S+ route-map \S+ out", line):
            transit = False
        elif m := re.fullmatch(r"network (\S+)", line):
            originated.append(m.group(1))
    return RoutingFacts(asn, router_id, neighbors, tuple(originated), paths, transit)
