"""EOS operational state for the lab: the running config's facts, and the eAPI JSON of the
show commands NAPALM's getters run, shaped as EOS answers them.

The shapes (keys and value types) are those of real EOS output as NAPALM's own test data
captures it (napalm-automation/napalm test/eos/mocked_data: test_get_bgp_neighbors/normal,
test_get_lldp_neighbors_detail/normal, test_get_interfaces/normal); tests/verify compares
them key by key. Values come from the lab's Wiring (netcfg/lab/oper.py).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from netcfg.lab.oper import (
    ConfigFacts,
    NeighborFacts,
    PortFacts,
    Wiring,
    answered,
    dotted_mac,
    system_description,
)

if TYPE_CHECKING:
    from netcfg.lab.eos.emulator import EosEmulator


def _speed(text: str) -> int | None:
    """EOS `speed 400g-4`, `speed forced 100gfull`, `speed 25g` -> Mb/s."""
    m = re.search(r"(\d+)(g|m)", text.lower())
    if m is None:
        return None
    return int(m.group(1)) * (1000 if m.group(2) == "g" else 1)


def facts(dev: EosEmulator) -> ConfigFacts:
    out = ConfigFacts(hostname=dev.hostname)
    for node in dev.running.children:
        toks = node.line.split()
        low = [t.lower() for t in toks]
        if low[:1] == ["interface"] and len(toks) == 2:
            port = PortFacts()
            for c in node.children:
                t = c.line.split()
                word = t[0].lower()
                if word == "shutdown":
                    port.shutdown = True
                elif word == "mtu" and len(t) == 2 and t[1].isdigit():
                    port.mtu = int(t[1])
                elif word == "speed" and len(t) >= 2:
                    port.speed = _speed(" ".join(t[1:]))
                elif t[:2] == ["ip", "address"] and len(t) == 3:
                    port.address = t[2]
            out.ports[toks[1]] = port
        elif low[:2] == ["router", "bgp"] and len(toks) == 3:
            out.asn = int(toks[2])
            limits: dict[str, int] = {}
            groups: dict[str, str] = {}
            _bgp(node, out, limits, groups)
            _limits(out, limits, groups, dev.factory.maximum_routes)
    return out


def _bgp(node: Any, out: ConfigFacts, limits: dict[str, int], groups: dict[str, str]) -> None:
    for c in node.children:
        t = c.line.split()
        if t[:1] == ["router-id"] and len(t) == 2:
            out.router_id = t[1]
        elif t[:1] == ["network"]:
            out.networks += 1
        elif t[:1] == ["neighbor"] and len(t) >= 4 and t[2] == "maximum-routes":
            limits[t[1]] = int(t[3])  # a neighbour's or a peer group's
        elif t[:1] == ["neighbor"] and len(t) >= 3 and t[1][0].isdigit():
            n = out.neighbors.setdefault(t[1], NeighborFacts(None))
            if t[2] == "remote-as" and len(t) == 4:
                n.remote_as = int(t[3])
            elif t[2] == "description":
                n.description = c.line.split(None, 3)[3] if len(t) > 3 else ""
            elif t[2:] == ["shutdown"]:
                n.shutdown = True
            elif t[2:4] == ["peer", "group"] or t[2] == "peer-group":
                groups[t[1]] = t[-1]
        elif t[:2] == ["address-family", "ipv4"]:
            _bgp(c, out, limits, groups)


def _limits(out: ConfigFacts, limits: dict[str, int], groups: dict[str, str],
            default: int) -> None:
    """Each neighbour's prefix limit: its own `maximum-routes`, else its peer group's, else
    EOS's default (the factory's, netcfg/lab/eos/factory.py); 0 is no limit (AVD schema:
    "0 means unlimited")."""
    for address, n in out.neighbors.items():
        group = groups.get(address)
        limit = limits.get(address, limits.get(group, default) if group else default)
        n.maximum_routes = limit or None


@answered
def show(dev: EosEmulator, wiring: Wiring, args: list[str]) -> dict[str, Any] | None:
    """The JSON of one show command (words after `show`, lower case), None if not ours."""
    if args == ["ip", "bgp", "summary", "vrf", "all"]:
        return _summary(dev, wiring)
    if args == ["ipv6", "bgp", "summary", "vrf", "all"]:
        mine = wiring.facts(dev.name)
        return {"vrfs": {"default": {"vrf": "default", "routerId": _rid(mine),
                                     "asn": str(mine.asn if mine else 0), "peers": {}}}}
    if args == ["ip", "bgp", "neighbors", "vrf", "all"]:
        return {"vrfs": {"default": {"peerList": _peers(dev, wiring)}}}
    if args == ["ipv6", "bgp", "peers", "vrf", "all"]:
        return {"vrfs": {"default": {"peerList": []}}}
    if args[:2] == ["lldp", "neighbors"] and args[-1:] == ["detail"]:
        return _lldp(dev, wiring, args[2:-1])
    from netcfg.lab.eos import pfcstate  # PFC, queue drops, ECN (netcfg verify)

    if args == ["priority-flow-control", "counters"]:
        return pfcstate.pfc_counters(dev, wiring)
    if args == ["interfaces", "counters", "queue", "detail"]:
        return pfcstate.queue_detail(dev, wiring)
    if args == ["qos", "interfaces", "ecn", "counters", "queue"]:
        return pfcstate.ecn_counters(dev)
    return None


def _rid(mine: ConfigFacts | None) -> str:
    return (mine.router_id if mine else None) or "0.0.0.0"


def _summary(dev: EosEmulator, wiring: Wiring) -> dict[str, Any]:
    mine = wiring.facts(dev.name)
    peers = {}
    for s in wiring.sessions(dev.name):
        up = s.state == "Established"
        peers[s.address] = {
            "version": 4, "msgReceived": 5 if up else 0, "msgSent": 4 if up else 0,
            "inMsgQueue": 0, "outMsgQueue": 0, "asn": str(s.remote_as),
            "prefixAccepted": s.received, "prefixReceived": s.received,
            "upDownTime": time.time() - 60, "underMaintenance": False, "peerState": s.state}
    return {"vrfs": {"default": {"vrf": "default", "routerId": _rid(mine),
                                 "asn": str(mine.asn if mine else 0), "peers": peers}}}


def _peers(dev: EosEmulator, wiring: Wiring) -> list[dict[str, Any]]:
    mine = wiring.facts(dev.name)
    out = []
    for s in wiring.sessions(dev.name):
        up = s.state == "Established"
        peer: dict[str, Any] = {
            "peerAddress": s.address, "asn": str(s.remote_as), "linkType": "external",
            "routerId": s.remote_id, "vrf": "default", "version": 4,
            "state": s.state, "establishedTransitions": 1 if up else 0,
            "prefixesSent": s.sent, "prefixesReceived": s.received,
            "v6PrefixesSent": 0, "v6PrefixesReceived": 0,
            "localAsn": str(s.local_as), "localRouterId": _rid(mine), "ttl": 1,
            "remotePort": 179}
        if up:
            peer["establishedTime"] = 60
        if s.state == "Idle":
            peer["idleReason"] = s.idle_reason
        if s.description:
            peer["description"] = s.description
        out.append(peer)
    return out


def _lldp(dev: EosEmulator, wiring: Wiring, only: list[str]) -> dict[str, Any]:
    mine = wiring.facts(dev.name)
    seen = wiring.lldp(dev.name)
    out: dict[str, Any] = {}
    for port in (mine.ports if mine else {}):
        if not port.lower().startswith("ethernet") or (only and port.lower() != only[0]):
            continue
        n = seen.get(port)
        info = [] if n is None else [{
            "systemCapabilities": {"bridge": True, "router": True},
            "lastChangeTime": time.time() - 60,
            "neighborInterfaceInfo": {
                "interfaceIdType": "interfaceName", "interfaceId": f'"{n.port}"',
                "interfaceDescription": "", "unknownTlvs": [], "unknownOrgDefinedTlvs": [],
                "maxFrameSize": 0},
            "neighborDiscoveryTime": time.time() - 60,
            "lastContactTime": time.time(),
            "chassisId": dotted_mac(n.mac), "systemName": n.device,
            "systemDescription": system_description(n.nos), "ttl": 120,
            "managementAddresses": [], "chassisIdType": "macAddress"}]
        out[port] = {"lldpNeighborInfo": info}
    return {"lldpNeighbors": out}


@answered
def interfaces(dev: EosEmulator, wiring: Wiring, data: dict[str, Any]) -> None:
    """`show interfaces` with the link state and speed the wiring gives (in place)."""
    mine = wiring.facts(dev.name)
    if mine is None:
        return
    for name, row in data.items():
        port = mine.ports.get(name)
        if port is None or not name.lower().startswith("ethernet"):
            continue
        if not port.shutdown:
            up = wiring.link_up(dev.name, name, mine)
            row["interfaceStatus"] = "connected" if up else "notconnect"
            row["lineProtocolStatus"] = "up" if up else "down"
        if port.speed is not None:
            row["bandwidth"] = port.speed * 1_000_000
