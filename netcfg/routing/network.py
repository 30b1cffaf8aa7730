"""The fabric as integer-indexed arrays: what routing and the deadlock graph work on.

Devices become indices 0..N-1 and every directed link end becomes a *channel* id. Keeping the
hot loops on small ints (not on Port objects) is what lets the checker scale to fabrics with
hundreds of thousands of ports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from netcfg.topology.fabric import Fabric


@dataclass(slots=True)
class Network:
    """Devices, tiers, adjacency and channels of a fabric in one failure state.

    A channel `c` is one direction of one physical link: `src[c] -> dst[c]`. It is the ingress
    queue of `dst[c]` on port `dst_port[c]` (the PFC unit, spec section 2.1).
    """

    names: list[str]
    tier: list[int]
    #: per device: neighbour index -> channel ids towards that neighbour (parallel links)
    out: list[dict[int, list[int]]]
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    src_port: list[str] = field(default_factory=list)
    dst_port: list[str] = field(default_factory=list)
    #: PFC on at both ends (the link is in the lossless class)
    lossless: list[bool] = field(default_factory=list)
    #: index of the link (in the source list) each channel belongs to
    link_of: list[int] = field(default_factory=list)
    #: channels removed by the failure state (kept indexed so ids stay stable)
    failed: set[int] = field(default_factory=set)
    index: dict[str, int] = field(default_factory=dict)
    #: device name -> its endpoint nodes (a multi-NIC server has one per NIC)
    aliases: dict[str, list[int]] = field(default_factory=dict)
    #: alive() per device, filled lazily: a failure state is queried thousands of times
    _alive: dict[int, dict[int, list[int]]] = field(default_factory=dict, repr=False)

    def expand(self, name: str) -> list[int]:
        """Nodes a device name in the intent stands for."""
        if name in self.aliases:
            return self.aliases[name]
        return [self.index[name]] if name in self.index else []

    @property
    def n(self) -> int:
        return len(self.names)

    def alive(self, x: int) -> dict[int, list[int]]:
        """Neighbours of `x` reachable over at least one working link, with those channels."""
        if not self.failed:
            return self.out[x]
        res = self._alive.get(x)
        if res is None:
            res = {}
            for y, chans in self.out[x].items():
                ok = [c for c in chans if c not in self.failed]
                if ok:
                    res[y] = ok
            self._alive[x] = res
        return res

    def is_switch(self, x: int) -> bool:
        return self.tier[x] > 0

    def channel_name(self, c: int) -> str:
        return f"{self.names[self.src[c]]}>{self.names[self.dst[c]]}"

    def links(self) -> list[tuple[int, int]]:
        """(a, b) device pairs of every physical link, in link order (a channel's reverse too)."""
        seen: dict[int, tuple[int, int]] = {}
        for c, k in enumerate(self.link_of):
            seen.setdefault(k, (self.src[c], self.dst[c]))
        return [seen[k] for k in sorted(seen)]

    def with_failures(self, failed_links: Iterable[int]) -> Network:
        """The same network with these link indices failed (both channels)."""
        dead = set(failed_links)
        chans = {c for c, k in enumerate(self.link_of) if k in dead}
        return Network(self.names, self.tier, self.out, self.src, self.dst, self.src_port,
                       self.dst_port, self.lossless, self.link_of, chans | self.failed, self.index,
                       self.aliases)


def from_fabric(fabric: Fabric) -> Network:
    """Index a built Fabric (devices in insertion order, links in cabling order).

    Endpoints are NICs, not servers: a server with one NIC per rail is as many endpoints
    (named `server:port`), because a NIC never forwards to its sibling NICs over the fabric.
    A single-NIC host keeps its own name. `aliases` maps a server name to its NIC nodes.
    """
    names: list[str] = []
    tier: list[int] = []
    node_of: dict[int, int] = {}  # id(port) -> node: ports are identity-hashed, never copied
    aliases: dict[str, list[int]] = {}
    for dev in fabric.devices.values():
        if dev.tier == 0 and len(dev.ports) > 1:
            for p in dev.ports:
                node_of[id(p)] = len(names)
                aliases.setdefault(dev.name, []).append(len(names))
                names.append(f"{dev.name}:{p.name}")
                tier.append(0)
        else:
            node = len(names)
            for p in dev.ports:
                node_of[id(p)] = node
            aliases[dev.name] = [node]
            names.append(dev.name)
            tier.append(dev.tier)
    index = {n: i for i, n in enumerate(names)}
    for alias, nodes in aliases.items():
        index.setdefault(alias, nodes[0])
    net = Network(names, tier, [{} for _ in names], index=index, aliases=aliases)
    src, dst, src_port, dst_port = net.src, net.dst, net.src_port, net.dst_port
    kind, link_of, out = net.lossless, net.link_of, net.out
    for k, link in enumerate(fabric.links):
        pa, pb = link.a, link.b
        lossless = bool(link.lossless and pa.lossless and pb.lossless)
        a, b = node_of[id(pa)], node_of[id(pb)]
        # channel 2k runs a -> b, 2k + 1 runs b -> a
        c = len(src)
        src += (a, b)
        dst += (b, a)
        src_port += (pa.name, pb.name)
        dst_port += (pb.name, pa.name)
        kind += (lossless, lossless)
        link_of += (k, k)
        out[a].setdefault(b, []).append(c)
        out[b].setdefault(a, []).append(c + 1)
    return net


def from_edges(nodes: dict[str, int], links: list[tuple[str, str, bool]]) -> Network:
    """A network from names, tiers and (a, b, lossless) links; ports are named after peers.

    Used by tests and benchmarks that do not need a full intent.
    """
    names = list(nodes)
    index = {n: i for i, n in enumerate(names)}
    net = Network(names, [nodes[n] for n in names], [{} for _ in names], index=index)
    for k, (a, b, lossless) in enumerate(links):
        ia, ib = index[a], index[b]
        for u, v in ((ia, ib), (ib, ia)):
            c = len(net.src)
            net.src += [u]
            net.dst += [v]
            net.src_port += [f"to-{names[v]}"]
            net.dst_port += [f"to-{names[u]}"]
            net.lossless += [lossless]
            net.link_of += [k]
            net.out[u].setdefault(v, []).append(c)
    return net
