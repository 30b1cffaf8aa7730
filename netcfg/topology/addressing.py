"""Loopbacks, /31 point-to-point addresses, ASNs and management addresses, deterministically.

Order is build order (leaves, then spines, then cores; links in cabling order), so the same
intent always gives the same addresses. On every /31 the higher-tier end takes the even
address, the lower-tier end (leaf toward spine, host toward leaf) the odd one.

Server links are numbered leaf by leaf, each leaf's run starting on a boundary of its own size
(the largest power of two not above it), so a leaf's server subnets form whole CIDR blocks it
can announce as one route (a leaf of 16 servers owns a /27): SONiC can announce them no other
way (Device.server_blocks), and every routing table shrinks to one route per leaf.
"""

from __future__ import annotations

import ipaddress

from netcfg.topology import prefixes
from netcfg.topology.build import FabricBuilder
from netcfg.topology.fabric import Device, Link


def assign_addresses(b: FabricBuilder) -> None:
    fabric = b.fabric
    addr = b.intent.addressing
    switches = sorted(fabric.switches(), key=lambda d: (d.tier, d.index))
    _loopbacks(b, switches, addr.loopbacks)
    fabric_links: list[Link] = []  # switch to switch
    host_links: list[Link] = []  # a host (tier 0) at one end
    for lk in fabric.links:
        (fabric_links if lk.a.device.tier > 0 and lk.b.device.tier > 0 else
         host_links).append(lk)
    for links, prefix, key in ((fabric_links, addr.fabric_links, "fabric_links"),
                               (host_links, addr.host_links, "host_links")):
        slots = _slots(links) if key == "host_links" else list(range(len(links)))
        need = 2 * (max(slots) + 1) if slots else 0
        if need > prefix.num_addresses:
            b.error("TOP003", f"{prefix} has {prefix.num_addresses:,} addresses; {len(links):,} "
                    f"point-to-point /31 links need {need:,} (use a shorter prefix)",
                    ("addressing", key))
            continue
        base = int(prefix.network_address)
        for slot, link in zip(slots, links, strict=True):
            end_a, end_b = link.a, link.b
            if end_a.device.tier >= end_b.device.tier:  # the upper end takes the even address
                end_a.address = base + 2 * slot
                end_b.address = base + 2 * slot + 1
            else:
                end_b.address = base + 2 * slot
                end_a.address = base + 2 * slot + 1
    if addr.management is not None:
        hosts = max(addr.management.num_addresses - 2, 0)
        if len(switches) > hosts:
            b.error("TOP003", f"{addr.management} has room for {hosts} management addresses; "
                    f"the fabric has {len(switches)} switches", ("addressing", "management"))
        else:
            plen = addr.management.prefixlen
            gateway = b.intent.management.gateway
            # the hosts of the pool in order (IPv4Network.hosts, as integers), the gateway
            # left out (it is the router's)
            skip = int(gateway) if gateway is not None else -1
            free = (prefixes.dotted(h) for h in _hosts(addr.management) if h != skip)
            for dev in switches:
                dev.management = f"{next(free, None) or _exhausted(b)}/{plen}"
    for name, entry in b.intent.devices.items():
        if entry.management is not None and name in fabric.devices:
            fabric.devices[name].management = str(entry.management.address)
    _gateways(b, switches)
    owner: dict[str, str] = {}
    for dev in switches:
        if dev.management is None:
            continue
        ip = dev.management.split("/")[0]
        if ip in owner:
            path = (("devices", dev.name, "management", "address")
                    if dev.name in b.intent.devices else ("addressing", "management"))
            b.error("TOP003", f"management address {ip} of {dev.name} is also used by "
                    f"{owner[ip]}", path, device=dev.name)
        owner.setdefault(ip, dev.name)


def _loopbacks(b: FabricBuilder, switches: list, prefix: ipaddress.IPv4Network) -> None:
    if len(switches) > prefix.num_addresses - 1:
        b.error("TOP003", f"{prefix} has room for {prefix.num_addresses - 1:,} loopbacks; the "
                f"fabric has {len(switches):,} switches", ("addressing", "loopbacks"))
        return
    base = int(prefix.network_address) + 1
    for i, dev in enumerate(switches):
        dev.loopback = base + i


def assign_asns(b: FabricBuilder) -> None:
    """RFC 7938 section 5.2 ASN plan, per role; user overrides win."""
    plan = b.intent.routing.asn
    counters: dict[str, int] = {}
    used: dict[int, str] = {}
    for dev in sorted(b.fabric.switches(), key=lambda d: (d.tier, d.index)):
        role = dev.role if dev.role in ("leaf", "spine", "core") else "leaf"
        if "asn" in dev.origin:  # set by an override
            continue
        dev.origin["asn"] = ("routing", "asn", role)
        mode = getattr(plan, role)
        base = getattr(plan, f"{role}_base")
        if mode == "unique":
            n = counters.get(role, 0)
            counters[role] = n + 1
            dev.asn = base + n
        elif mode == "per_pod":
            dev.asn = base + dev.pod - 1
        else:
            dev.asn = base
        if dev.asn > 4_294_967_294:
            b.error("TOP003", f"ASN plan for {role} overflows the 32-bit ASN space at {dev.name}",
                    ("routing", "asn", f"{role}_base"))
            return
        owner = used.setdefault(dev.asn, role)
        if owner != role:
            b.error("TOP003", f"ASN {dev.asn} of {role} {dev.name} is also used by a {owner}; "
                    f"move routing.asn.{role}_base", ("routing", "asn", f"{role}_base"))
            return


def _slots(host_links: list[Link]) -> list[int]:
    """The /31 number of each server link: leaf by leaf in build order, cabling order within a
    leaf, each leaf's run aligned to the largest power of two not above its length."""
    by_leaf: dict[Device, list[int]] = {}
    for i, link in enumerate(host_links):
        leaf = link.a.device if link.a.device.tier > 0 else link.b.device
        by_leaf.setdefault(leaf, []).append(i)
    slots = [0] * len(host_links)
    nxt = 0
    for leaf in sorted(by_leaf, key=lambda d: (d.tier, d.index)):
        run = by_leaf[leaf]
        align = 1 << (len(run).bit_length() - 1)
        nxt = -(-nxt // align) * align
        for i in run:
            slots[i] = nxt
            nxt += 1
    return slots


def _hosts(net: ipaddress.IPv4Network) -> range:
    """IPv4Network.hosts() as integers: the addresses between the network and broadcast
    addresses; a /31's two addresses (RFC 3021) and a /32's one address."""
    first = int(net.network_address)
    if net.prefixlen >= 31:
        return range(first, first + net.num_addresses)
    return range(first + 1, first + net.num_addresses - 1)


def _subnet(text: str, known: dict[tuple[int, int], ipaddress.IPv4Network]
            ) -> ipaddress.IPv4Network:
    """The network of an interface address "a.b.c.d/len" (IPv4Interface(text).network),
    made once per network: every switch of a management pool has the same."""
    ip, _, length = text.partition("/")
    parts = ip.split(".")
    if not length.isdigit() or len(parts) != 4 or not all(x.isdigit() for x in parts):
        return ipaddress.IPv4Interface(text).network  # any other form: as ipaddress reads it
    bits = int(length)
    value = (int(parts[0]) << 24) | (int(parts[1]) << 16) | (int(parts[2]) << 8) | int(parts[3])
    key = (value & ((0xFFFFFFFF << (32 - bits)) & 0xFFFFFFFF), bits)
    net = known.get(key)
    if net is None:
        net = known[key] = ipaddress.IPv4Interface(text).network
    return net


def _exhausted(b: FabricBuilder) -> str:
    b.error("TOP003", "addressing.management has no address left once management.gateway is "
            "taken out", ("addressing", "management"))
    return "0.0.0.0"


def _gateways(b: FabricBuilder, switches: list) -> None:
    """Each switch's management default route: its own `devices.<name>.management.gateway`,
    else `management.gateway`; it must lie in the switch's management subnet and be no
    switch's address."""
    taken = {d.management.split("/")[0]: d.name for d in switches if d.management}
    subnets: dict[tuple[int, int], ipaddress.IPv4Network] = {}
    for dev in switches:
        entry = b.intent.devices.get(dev.name)
        own = entry.management.gateway if entry and entry.management else None
        gateway = own or b.intent.management.gateway
        if gateway is None or dev.management is None:
            continue
        path = ("devices", dev.name, "management", "gateway") if own else ("management",
                                                                           "gateway")
        subnet = _subnet(dev.management, subnets)
        if gateway not in subnet:
            b.error("SCH003", f"gateway {gateway} is outside {dev.name}'s management subnet "
                    f"{subnet}", path)
        elif str(gateway) in taken:
            b.error("SCH003", f"gateway {gateway} is {taken[str(gateway)]}'s management "
                    "address", path)
        else:
            dev.management_gateway = str(gateway)
