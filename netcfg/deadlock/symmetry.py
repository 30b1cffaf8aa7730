"""Exact symmetry of a generated (rail-optimized) fabric, for failure sweeps.

The rail generator builds a fabric from interchangeable parts: planes, scalable units (SUs)
within a pod, servers within an SU, rails within an SU, spines within a plane (with their core
groups in 3 tiers), cores within a core group, and the parallel links of one bundle. Every
device and link gets coordinates from how the generator placed it; a *factor* permutes one
coordinate freely within its scope (e.g. `node` within one `su`).

Nothing is assumed: a factor is kept only if its generators (a transposition and a cycle of
each scope's values) are automorphisms of everything the checker reads: tiers, adjacency,
parallel links, lossless flags, link classes, speeds, cables, per-device and per-port
settings with the intent paths that decided them, every override key that matches, and every
device the routing setup names (rules, dead hosts, traffic pairs, datelines, failed links).
Any override or per-device difference that breaks a factor drops that factor, so the group
kept is always a group of exact automorphisms, and a failure set and its image get the same
verdict.

Canonical form of a set of links: for every order of its links, relabel each kept
coordinate by first appearance within its scope; the smallest relabelled sequence is the
form. Two sets have the same form iff one is an image of the other, because the kept group is
the full product of symmetric groups on those coordinates.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from netcfg.intent.overrides import matching_keys
from netcfg.routing.network import Network
from netcfg.routing.setup import FLOOD, RoutingSetup

if TYPE_CHECKING:
    from netcfg.topology.fabric import Fabric

#: coordinates, outermost first; a scope only uses coordinates before its own
COORDS = ("plane", "pod", "su", "rail", "node", "spine", "core", "par")
#: coordinate -> (scope coordinates, description); `par`'s scope is the rest of the link
FACTORS: dict[str, tuple[tuple[str, ...], str]] = {
    "plane": ((), "planes"),
    "pod": ((), "pods"),
    "su": (("pod",), "SUs within a pod"),
    "rail": (("plane", "pod", "su"), "rails within an SU"),
    "node": (("pod", "su"), "servers within an SU"),
    "spine": (("plane",), "spines within a plane (with their core groups)"),
    "core": (("plane", "spine"), "cores within a core group"),
    "par": ((), "parallel links within a bundle"),
}

Coords = tuple[Any, ...]
#: grouping candidates allowed per set the budget lets the sweep check (bounds the work of
#: finding representatives on very large fabrics)
CANDIDATES_PER_SET = 500


@dataclass
class Symmetry:
    """The exact factors of one fabric and the coordinates they act on."""

    links: list[Coords]  # per link index: kind + one value per COORD (None = absent)
    kept: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)  # factor -> why
    domain: dict[tuple, int] = field(default_factory=dict)  # (coord, scope) -> size
    #: link permutations (moved links only) generating the kept group, when asked for
    generators: list[dict[int, int]] = field(default_factory=list)
    #: per device index: its tier as kind + one value per COORD, as links carry them
    nodes: list[Coords] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return bool(self.kept)

    def describe(self) -> list[str]:
        return [FACTORS[c][1] for c in self.kept]

    # ------------------------------------------------------------------ canonical forms
    def _scope(self, coord: str, tup: Coords) -> tuple:
        if coord == "par":
            i = COORDS.index("par")
            return tup[: i + 1]  # kind and every other coordinate: the bundle
        return tuple(tup[1 + COORDS.index(s)] for s in FACTORS[coord][0])

    def _pattern(self, seq: list[Coords]) -> tuple[tuple, list[tuple]]:
        """Relabelled sequence and the (coord, scope) instances with how many labels used."""
        labels: dict[tuple, dict[Any, int]] = {}
        out = []
        for tup in seq:
            row: list[Any] = [tup[0]]
            for i, coord in enumerate(COORDS):
                value = tup[1 + i]
                if value is None or coord not in self.kept:
                    row.append(value)
                    continue
                key = (coord, self._scope(coord, tup))
                m = labels.setdefault(key, {})
                row.append(("#", m.setdefault(value, len(m))))
            out.append(tuple(row))
        return tuple(out), [(key, len(m)) for key, m in labels.items()]

    def canonical(self, combo: tuple[int, ...]) -> tuple:
        tups = [self.links[k] for k in combo]
        return min(self._pattern(list(p))[0] for p in itertools.permutations(tups))

    def orbits_fixing(self, fixed: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """Orbit ids of every link and of every device under the kept group's elements
        that fix each link of `fixed` (its pointwise stabilizer). Two rows are in one
        orbit iff they relabel alike after `fixed`: the same argument as for canonical
        forms, with the prefix held in place."""
        prefix = [self.links[k] for k in fixed]
        ids: dict[tuple, int] = {}

        def orbit(row: Coords) -> int:
            return ids.setdefault(self._pattern(prefix + [row])[0][-1], len(ids))

        return [orbit(row) for row in self.links], [orbit(row) for row in self.nodes]

    def orbit_size(self, combo: tuple[int, ...]) -> int:
        """Number of distinct link sets the kept group maps `combo` to."""
        tups = [self.links[k] for k in combo]
        sizes: dict[tuple, int] = {}
        for p in itertools.permutations(tups):
            pat, used = self._pattern(list(p))
            if pat not in sizes:
                n = 1
                for key, m in used:
                    n *= math.perm(self.domain[key], m)
                sizes[pat] = n
        return sum(sizes.values()) // math.factorial(len(combo))

    def representatives(self, links: list[int], k: int, limit: int | None = None
                        ) -> list[tuple[tuple[int, ...], int]] | None:
        """One set per orbit of k-sets of `links` (the smallest by link index), with the
        orbit's size; None once more than `limit` orbits (or candidates to group) show up.
        Every orbit holds a set that extends a representative of a smaller orbit, so
        candidates grow one link at a time from the representatives."""
        level: dict[tuple, tuple[int, ...]] = {(): ()}
        for _ in range(k):
            if limit is not None and len(level) * len(links) > CANDIDATES_PER_SET * limit:
                return None
            nxt: dict[tuple, tuple[int, ...]] = {}
            for rep in level.values():
                have = set(rep)
                for link in links:
                    if link in have:
                        continue
                    combo = tuple(sorted(rep + (link,)))
                    form = self.canonical(combo)
                    if form not in nxt or combo < nxt[form]:
                        nxt[form] = combo
                if limit is not None and len(nxt) > limit:
                    return None
            level = nxt
        return sorted((combo, self.orbit_size(combo)) for combo in level.values())


# ---------------------------------------------------------------------- derivation


def derive(fabric: Fabric, net: Network, setup: RoutingSetup,
           base: tuple[int, ...] = (), *, keep_generators: bool = False) -> Symmetry | None:
    """The exact symmetry of a rail-optimized fabric, or None (explicit topologies, or
    links the generator's coordinates do not describe). `keep_generators` keeps the link
    permutations that were verified (for tests: they generate the group the canonical forms
    stand for)."""
    if fabric.loaded.intent.topology.kind != "rail_optimized":
        return None
    dev_coords = _device_coords(fabric)
    node_coords: list[dict[str, Any] | None] = [None] * net.n
    node_dev: list[Any] = [None] * net.n
    for dev in fabric.devices.values():
        for x in net.aliases.get(dev.name, []):
            node_dev[x] = dev
    links: list[Coords] = []
    bundle: dict[tuple, int] = {}
    pairs = net.links()
    for k, link in enumerate(fabric.links):
        ca = dict(dev_coords.get(link.a.device.name, {}))
        cb = dict(dev_coords.get(link.b.device.name, {}))
        low, high = sorted((link.a.device, link.b.device), key=lambda d: d.tier)
        if low.tier == 0:  # a NIC takes its leaf's plane and rail
            cl = dev_coords.get(high.name, {})
            (ca if link.a.device is low else cb).update(
                plane=cl.get("plane"), rail=cl.get("rail"))
        merged = dict(ca)
        for key, value in cb.items():
            if key in merged and merged[key] != value:
                return None  # the ends disagree: not a generated link
            merged[key] = value
        kind = f"{low.role}-{high.role}"
        ends = tuple(sorted((link.a.device.name, link.b.device.name)))
        merged["par"] = bundle.get(ends, 0)
        bundle[ends] = merged["par"] + 1
        links.append((kind,) + tuple(merged.get(c) for c in COORDS))
        for x, coords in zip(pairs[k], (ca, cb)):  # a channel's first link runs a -> b
            node_coords[x] = coords
    if any(c is None for c in node_coords):
        return None
    sym = Symmetry(links)
    sym.nodes = [(f"tier{net.tier[x]}",) + tuple((c or {}).get(k) for k in COORDS)
                 for x, c in enumerate(node_coords)]
    domains: dict[tuple, set[Any]] = {}
    for tup in links:
        for coord in COORDS:
            value = tup[1 + COORDS.index(coord)]
            if value is not None:
                domains.setdefault((coord, sym._scope(coord, tup)), set()).add(value)
    values = {scope: sorted(vals) for scope, vals in domains.items()}
    sym.domain = {scope: len(vals) for scope, vals in values.items()}
    checker = _Verifier(fabric, net, setup, base, links, node_coords, node_dev)
    for coord in COORDS:
        gens: list[dict[int, int]] = []
        why = checker.verify(coord, {k: v for k, v in values.items() if k[0] == coord}, sym,
                             gens)
        if why is None:
            if any(len(v) > 1 for k, v in values.items() if k[0] == coord):
                sym.kept.append(coord)
                if keep_generators:
                    sym.generators += gens
        else:
            sym.dropped[FACTORS[coord][1]] = why
    return sym


def _device_coords(fabric: Fabric) -> dict[str, dict[str, Any]]:
    """Coordinates of every device, as the rail generator placed it."""
    topo = fabric.loaded.intent.topology
    out: dict[str, dict[str, Any]] = {}
    spines: dict[tuple, list] = {}
    cores: dict[int, list] = {}
    per_pod: int = (getattr(topo, "sus_per_pod", None) or getattr(topo, "scalable_units", None)
                    or 1)
    for dev in fabric.devices.values():
        su = None if dev.su is None else (dev.su - 1) % per_pod  # SU within its pod
        if dev.role == "host":
            out[dev.name] = {"pod": dev.pod, "su": su, "node": dev.node}
        elif dev.role == "leaf":
            out[dev.name] = {"plane": dev.plane, "pod": dev.pod, "su": su, "rail": dev.rail}
        elif dev.role == "spine":
            spines.setdefault((dev.plane, dev.pod), []).append(dev)
        elif dev.role == "core":
            cores.setdefault(dev.plane, []).append(dev)
    for (plane, pod), row in spines.items():
        for j, dev in enumerate(sorted(row, key=lambda d: d.index)):
            out[dev.name] = {"plane": plane, "pod": pod, "spine": j}
    per_group = max(1, (getattr(topo, "cores", None) or 1) // max(1, getattr(topo, "spines", 1)))
    for plane, row in cores.items():
        for c, dev in enumerate(sorted(row, key=lambda d: d.index)):
            out[dev.name] = {"plane": plane, "spine": c // per_group, "core": c % per_group}
    return out


class _Verifier:
    """Checks that permuting one coordinate is an automorphism of what the checker reads."""

    def __init__(self, fabric: Fabric, net: Network, setup: RoutingSetup,
                 base: tuple[int, ...], links: list[Coords],
                 node_coords: list[dict[str, Any] | None], node_dev: list[Any]) -> None:
        self.net = net
        self.links = links
        self.link_at = {tup: k for k, tup in enumerate(links)}
        self.pairs = net.links()
        self.fabric_links = fabric.links
        self.base = set(base)
        self.node_coords = node_coords
        ov = fabric.loaded.intent.overrides
        self._dev_keys = list(ov.devices)
        self._port_keys = list(ov.ports)
        self._roles = dict(ov.roles)
        self.node_sig = [self._device_sig(d, x) for x, d in enumerate(node_dev)]
        self.node_at = {(net.tier[x], tuple(sorted(c.items()))): x
                        for x, c in enumerate(node_coords) if c is not None}
        self.named = _named_nodes(net, setup)

    def _device_sig(self, dev: Any, x: int) -> tuple:
        if dev is None:
            return (self.net.tier[x],)
        return (dev.role, dev.tier, dev.platform, dev.mtu, dev.ecmp_seed,
                tuple(sorted(dev.origin.items())),
                tuple(matching_keys(self._dev_keys, dev.name)) if self._dev_keys else ())

    def _port_sig(self, port: Any) -> tuple:
        return (port.speed, port.cable, port.lossless, port.mtu,
                tuple(sorted((port.origin or {}).items())),
                tuple(matching_keys(self._port_keys, port.id)) if self._port_keys else ())

    def verify(self, coord: str, scopes: dict[tuple, list], sym: Symmetry,
               gens: list[dict[int, int]]) -> str | None:
        """None when every generator of this factor is an automorphism (their link
        permutations go to `gens`), else why not."""
        i = 1 + COORDS.index(coord)
        by_scope: dict[tuple, list[int]] = {}
        for k, tup in enumerate(self.links):
            if tup[i] is not None:
                by_scope.setdefault((coord, sym._scope(coord, tup)), []).append(k)
        for key, vals in scopes.items():
            if len(vals) < 2:
                continue
            perms = [{vals[0]: vals[1], vals[1]: vals[0]}]  # a swap and a rotation
            if len(vals) > 2:
                perms.append({v: vals[(j + 1) % len(vals)] for j, v in enumerate(vals)})
            for perm in perms:
                link_map: dict[int, int] = {}
                why = self._automorphism(i, perm, by_scope.get(key, []), link_map)
                gens.append(link_map)
                if why:
                    return why
        return None

    def _automorphism(self, i: int, perm: dict, moved: list[int],
                      link_map: dict[int, int]) -> str | None:
        coord = COORDS[i - 1]
        node_map: dict[int, int] = {}
        for k in moved:
            tup = self.links[k]
            img = tup[:i] + (perm.get(tup[i], tup[i]),) + tup[i + 1:]
            k2 = self.link_at.get(img)
            if k2 is None:
                return f"no link matches the image of {self._link_name(k)}"
            if k2 == k:
                continue
            link_map[k] = k2
            if k in self.base or k2 in self.base:
                return f"failed link {self._link_name(k)} is named in the intent"
            la, lb = self.fabric_links[k], self.fabric_links[k2]
            if la.lossless != lb.lossless or la.source != lb.source:
                return f"{self._link_name(k)} and {self._link_name(k2)} differ (class or PFC)"
            a, b = self.pairs[k]
            for x in (a, b):
                y = self._image_node(x, coord, perm)
                if y is None:
                    return f"no device matches the image of {self.net.names[x]}"
                if node_map.setdefault(x, y) != y:
                    return f"{self.net.names[x]} has no single image"
            a2, b2 = self.pairs[k2]
            if {node_map[a], node_map[b]} != {a2, b2}:
                return f"{self._link_name(k)} does not map onto {self._link_name(k2)}"
            pa, pb = la.a, la.b
            qa, qb = (lb.a, lb.b) if node_map[a] == a2 else (lb.b, lb.a)
            if (self._port_sig(pa), self._port_sig(pb)) != (
                    self._port_sig(qa), self._port_sig(qb)):
                return f"ports of {self._link_name(k)} and {self._link_name(k2)} differ"
        for x, y in node_map.items():
            if x == y:
                continue
            if self.node_sig[x] != self.node_sig[y]:
                return f"{self.net.names[x]} and {self.net.names[y]} differ (settings or " \
                       "overrides)"
            if x in self.named or y in self.named:
                name = self.net.names[x if x in self.named else y]
                return f"{name} is named in routing.deadlock"
            if len(self.net.out[x]) != len(self.net.out[y]):
                return f"{self.net.names[x]} and {self.net.names[y]} differ in neighbours"
        return None

    def _image_node(self, x: int, coord: str, perm: dict) -> int | None:
        c = self.node_coords[x]
        if c is None:
            return None
        if coord == "par" or coord not in c:
            return x
        img = dict(c)
        img[coord] = perm.get(c[coord], c[coord])
        return self.node_at.get((self.net.tier[x], tuple(sorted(img.items()))))

    def _link_name(self, k: int) -> str:
        a, b = self.pairs[k]
        return f"{self.net.names[a]}-{self.net.names[b]}"


def _named_nodes(net: Network, setup: RoutingSetup) -> set[int]:
    """Devices the routing setup refers to by name: a symmetry must leave them in place."""
    names: set[str] = set(setup.dead_hosts)
    for r in setup.rules:
        names |= {r.at, r.dst} | ({r.in_from} if r.in_from else set())
        if r.out_to != FLOOD:
            names |= set(r.out_to)
    if isinstance(setup.traffic, list):
        names |= {n for pair in setup.traffic for n in pair}
    names |= {n for pair in setup.dateline for n in pair}
    return {x for n in names for x in net.expand(n)} | {
        x for n in names if n in net.aliases for x in net.aliases[n]}
