"""Config values several NOS models share: eBGP as EOS, NX-OS and FRR write it (a router with
peer groups per tier of peers, numbered neighbours in them, each with a description, and the
prefixes it originates), and ECN
marking on a queue with byte thresholds; and where their readers find the BGP router."""

from __future__ import annotations

import re
from dataclasses import dataclass

from netcfg.render import plan
from netcfg.vendors.lineconfig import Statement, parse


@dataclass(frozen=True, slots=True)
class EcnMark:
    """ECN marking on an egress queue: thresholds in bytes, probability in percent."""

    min_bytes: int
    max_bytes: int
    probability: int


@dataclass(frozen=True, slots=True)
class Bgp:
    asn: int
    router_id: str
    maximum_paths: int
    multipath_relax: bool
    groups: tuple[plan.PeerGroup, ...]
    #: the plan's own sessions (address, remote AS, description, group, keyed: what the
    #: templates print), not copies: a copy per session cost a tenth of an EOS build
    neighbors: tuple[plan.Neighbor, ...]
    networks: tuple[str, ...]

    @classmethod
    def of(cls, b: plan.Bgp) -> Bgp:
        return cls(b.asn, b.router_id, b.maximum_paths, b.multipath_relax, tuple(b.groups),
                   tuple(b.neighbors), tuple(b.networks))


def bgp_router(text: str) -> tuple[int, list[Statement]]:
    """The AS and the statements of an EOS/NX-OS config's `router bgp` block ((0, []) when
    it has none)."""
    for block in parse(text):
        if m := re.fullmatch(r"router bgp (\d+)", block.text):
            return int(m.group(1)), block.children
    return 0, []
