"""Equal-cost paths the topology offers: the widths the routing design must not fall below.

A switch reaches a leaf's servers over the links to that leaf when adjacent, else over every
link to a lower switch that leads down to the leaf, else over every uplink: the up*down* paths
of RFC 7938's Clos, each link its own eBGP session and so its own BGP path. The twin compares
the next hops FRR installs with these widths and lint compares maximum-paths with them, so both
judge against the same count (computed once per switch, from the cabling only).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from netcfg.topology.fabric import Device, Fabric


class Paths:
    """Per switch: the leaves below it and the width toward each of them."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._below: dict[str, frozenset[str]] = {}

    @cached_property
    def leaves(self) -> list[Device]:
        """The switches that own server subnets (the destinations of GPU traffic)."""
        return [d for d in self.fabric.switches() if _faces_servers(d)]

    @cached_property
    def _leaf_names(self) -> frozenset[str]:
        return frozenset(d.name for d in self.leaves)

    def below(self, dev: Device) -> frozenset[str]:
        """The server-owning leaves `dev` reaches going only down (itself included)."""
        got = self._below.get(dev.name)
        if got is None:
            own = {dev.name} if _faces_servers(dev) else set()
            got = frozenset(own.union(*(self.below(d) for d in _lower(dev))))
            self._below[dev.name] = got
        return got

    def width(self, dev: Device, owner: str) -> int:
        """Links `dev` forwards over toward a subnet on leaf `owner` (0: none)."""
        peers = _switch_peers(dev)
        direct = sum(1 for d in peers if d.name == owner)
        if direct:
            return direct
        down = sum(1 for d in peers if d.tier < dev.tier and owner in self.below(d))
        if down:
            return down
        return sum(1 for d in peers if d.tier > dev.tier)

    def widest(self, dev: Device) -> tuple[int, str | None]:
        """The largest width `dev` has toward another leaf, and one leaf it has it toward:
        what maximum-paths must reach for every path to carry traffic."""
        counts: Counter[str] = Counter()
        for d in _switch_peers(dev):
            if d.tier < dev.tier:
                counts.update(self.below(d))
        counts.pop(dev.name, None)
        best, owner = 0, None
        for name, n in sorted(counts.items()):
            if n > best:
                best, owner = n, name
        elsewhere = len(self.leaves) - len(counts) - (dev.name in self._leaf_names)
        if elsewhere:  # some leaf is reached only up
            far = next(d.name for d in self.leaves
                       if d.name != dev.name and d.name not in counts)
            up = self.width(dev, far)
            if up > best:
                best, owner = up, far
        return best, owner


def _switch_peers(dev: Device) -> list[Device]:
    """The switch at the far end of each of `dev`'s links (once per link)."""
    return [p.peer.device for p in dev.ports if p.peer is not None and p.peer.device.is_switch]


def _faces_servers(dev: Device) -> bool:
    return any(p.peer is not None and not p.peer.device.is_switch and p.address is not None
               for p in dev.ports)


def _lower(dev: Device) -> set[Device]:
    return {d for d in _switch_peers(dev) if d.tier < dev.tier}
