"""FRR routing facts: the `router bgp` block of an frr.conf, as bgpd reads it.

A neighbour takes its group's settings (`neighbor X peer-group G`); `bfd profile P` takes its
timers from the `bfd` node's profile P (FRR's defaults, 300 ms x 3, where the profile sets
none). Only a neighbour or group with an outbound route map counts as "no transit" (route
maps are not evaluated), as for EOS and NX-OS. BGP timers are `neighbor X timers K H` (the
neighbour's own, else its group's), else the router's `timers bgp K H`, else the `frr
defaults` profile's (not stated here).
"""

from __future__ import annotations

import re

from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.lineconfig import Statement, parse

#: bfdd's defaults for a profile field it does not state (FRR bfdd documentation)
DEFAULT_INTERVAL_MS, DEFAULT_MULTIPLIER = 300, 3


def _profiles(blocks: list[Statement]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for block in blocks:
        if block.text != "bfd":
            continue
        for prof in block.children:
            if m := re.fullmatch(r"profile (\S+)", prof.text):
                fields = dict(c.text.rsplit(" ", 1) for c in prof.children if " " in c.text)
                rx = int(fields.get("receive-interval", DEFAULT_INTERVAL_MS))
                tx = int(fields.get("transmit-interval", DEFAULT_INTERVAL_MS))
                out[m.group(1)] = (max(rx, tx), int(fields.get("detect-multiplier",
                                                                 DEFAULT_MULTIPLIER)))
    return out


def read(text: str) -> RoutingFacts:
    blocks = parse(text)
    router = next((b for b in blocks if re.fullmatch(r"router bgp \d+", b.text)), None)
    if router is None:
        return RoutingFacts(0, "")
    profiles = _profiles(blocks)
    asn, router_id, paths = int(router.text.split()[2]), "", None
    remote_as: dict[str, int] = {}
    member: dict[str, str] = {}
    bfd: dict[str, tuple[int, int]] = {}
    filtered: set[str] = set()
    keyed: set[str] = set()
    originated: list[str] = []
    timers: dict[str, tuple[int, int]] = {}  # "" = the router's `timers bgp`
    lines = [c.text for c in router.children]
    for family in router.children:
        if family.text == "address-family ipv4 unicast":
            lines += [c.text for c in family.children]
    for line in lines:
        if m := re.fullmatch(r"bgp router-id (\S+)", line):
            router_id = m.group(1)
        elif m := re.fullmatch(r"(?:neighbor (\S+) timers|timers bgp) (\d+) (\d+)", line):
            timers[m.group(1) or ""] = (int(m.group(2)), int(m.group(3)))
        elif m := re.fullmatch(r"maximum-paths (\d+)", line):
            paths = int(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+) remote-as (\d+)", line):
            remote_as[m.group(1)] = int(m.group(2))
        elif m := re.fullmatch(r"neighbor (\S+) peer-group (\S+)", line):
            member[m.group(1)] = m.group(2)
        elif m := re.fullmatch(r"neighbor (\S+) bfd profile (\S+)", line):
            bfd[m.group(1)] = profiles.get(m.group(2), (DEFAULT_INTERVAL_MS, DEFAULT_MULTIPLIER))
        elif m := re.fullmatch(r"neighbor (\S+) bfd", line):
            bfd.setdefault(m.group(1), (DEFAULT_INTERVAL_MS, DEFAULT_MULTIPLIER))
        elif m := re.fullmatch(r"neighbor (\S+) route-map \S+ out", line):
            filtered.add(m.group(1))
        elif m := re.fullmatch(r"neighbor (\S+) password \S+", line):
            keyed.add(m.group(1))
        elif m := re.fullmatch(r"network (\S+)", line):
            originated.append(m.group(1))
    sessions = {a: n for a, n in remote_as.items() if re.fullmatch(r"[\d.]+", a)}

    def inherited(addr: str, table: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
        return table.get(addr) or table.get(member.get(addr, ""))

    return RoutingFacts(
        asn, router_id, sessions, tuple(originated), paths,
        transit=not any(a in filtered or member.get(a) in filtered for a in sessions),
        bfd={a: t for a in sessions if (t := inherited(a, bfd))},
        keyed=frozenset(a for a in sessions if a in keyed or member.get(a) in keyed),
        timers={a: t for a in sessions if (t := inherited(a, timers) or timers.get(""))})
