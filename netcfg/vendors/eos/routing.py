"""EOS routing facts: `router bgp` of a rendered or running config, as EOS reads it.

EOS activates every neighbour for IPv4 unicast unless `no bgp default ipv4-unicast` is set,
announces a `network` prefix present in its routing table, and passes BGP-learned routes on to
other eBGP neighbours unless an outbound route map says otherwise (netcfg does not evaluate
route maps: a neighbour with one counts as no transit). A neighbour takes what it does not set
itself from its peer group (`neighbor X peer group G`). BFD timers are `bfd interval I min-rx
R multiplier M` (AVD eos_cli_config_gen router-bgp.j2); without them the reader assumes EOS's
300 ms x 3 ([M]: not re-verified; netcfg always renders the timers). BGP timers are `neighbor
X timers K H` (a neighbour's own, else its group's), else the router's `timers bgp K H`.
"""

from __future__ import annotations

import re

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.common import bgp_router

DEFAULT_BFD = (300, 3)


def read(text: str) -> RoutingFacts:
    asn, statements = bgp_router(text)
    router_id, paths = "", None
    neighbors: dict[str, int] = {}
    group: dict[str, str] = {}
    bfd: dict[str, tuple[int, int]] = {}  # timers; a bare `neighbor X bfd` has EOS's
    on: set[str] = set()  # `neighbor X bfd` (timers without it turn nothing on)
    out_map: set[str] = set()
    keyed: set[str] = set()  # `neighbor X password [0|7|8a] K`
    originated: list[str] = []
    timers: dict[str, tuple[int, int]] = {}  # "" = the router's `timers bgp`
    for child in statements:
        line = child.text
        if m := re.fullmatch(r"(?:neighbor (\S+) timers|timers bgp) (\d+) (\d+)", line):
            timers[m.group(1) or ""] = (int(m.group(2)), int(m.group(3)))
        elif m := re.fullmatch(r"router-id (\S+)", line):
            router_id = m.group(1)
        elif m := re.fullmatch(r"maximum-paths (\d+)( .*)?", line):
            paths = int(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+) remote-as (\d+)", line):
            neighbors[m.group(1)] = int(m.group(2))
        elif m := re.fullmatch(r"neighbor (\S+) peer group (\S+)", line):
            group[m.group(1)] = m.group(2)
        elif m := re.fullmatch(r"neighbor (\S+) bfd", line):
            on.add(m.group(1))
            bfd.setdefault(m.group(1), DEFAULT_BFD)
        elif m := re.fullmatch(r"neighbor (\S+) bfd interval (\d+) min-rx (\d+) "
                               r"multiplier (\d+)", line):
            bfd[m.group(1)] = (max(int(m.group(2)), int(m.group(3))), int(m.group(4)))
        elif m := re.fullmatch(r"neighbor (\S+) route-map \S+ out", line):
            out_map.add(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+) password (?:(?:0|7|8a) )?\S.*", line):
            keyed.add(m.group(1))
        elif m := re.fullmatch(r"network (\S+)", line):
            originated.append(m.group(1))

    def own_or_group(addr: str, names: set[str]) -> str | None:
        return addr if addr in names else group.get(addr) if group.get(addr) in names else None

    return RoutingFacts(
        asn, router_id, neighbors, tuple(originated), paths,
        transit=not any(own_or_group(a, out_map) for a in neighbors),
        bfd={a: bfd[src] for a in neighbors if (src := own_or_group(a, on))},
        keyed=frozenset(a for a in neighbors if own_or_group(a, keyed)),
        timers={a: t for a in neighbors
                if (t := timers.get(own_or_group(a, set(timers)) or "", timers.get("")))})
