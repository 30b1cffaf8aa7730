"""NX-OS operational state for the lab: the running config's facts (ports, BGP speaker and
neighbours) the lab's Wiring reads (netcfg/lab/oper.py), and the show commands NAPALM's
`nxos` getters run, answered from it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from netcfg.lab.nxos.config import admin_up
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
    from netcfg.lab.nxos.emulator import NxosEmulator


def facts(dev: NxosEmulator) -> ConfigFacts:
    out = ConfigFacts(hostname=dev.hostname)
    for node in dev.running.children:
        toks = node.line.split()
        if node.mode == "if" and len(toks) == 2:
            # admin state by NX-OS's defaults: a routed port without `no shutdown` is down
            port = PortFacts(shutdown=not admin_up(node, dev.running, dev.factory.l3_enabled))
            for c in node.children:
                t = c.line.split()
                if t[:1] == ["mtu"] and len(t) == 2 and t[1].isdigit():
                    port.mtu = int(t[1])
                elif t[:1] == ["speed"] and len(t) == 2 and t[1].isdigit():
                    port.speed = int(t[1])  # NX-OS speed is in Mb/s
                elif t[:2] == ["ip", "address"] and len(t) >= 3:
                    port.address = t[2]
            out.ports[toks[1]] = port
        elif toks[:2] == ["router", "bgp"] and len(toks) == 3:
            out.asn = int(toks[2])
            _bgp(node, out)
    return out


def _bgp(node: Any, out: ConfigFacts) -> None:
    for c in node.children:
        t = c.line.split()
        if t[:1] == ["router-id"] and len(t) == 2:
            out.router_id = t[1]
        elif t[:2] == ["address-family", "ipv4"]:
            out.networks += sum(1 for g in c.children if g.line.split()[:1] == ["network"])
        elif t[:1] == ["neighbor"] and len(t) == 2:
            n = out.neighbors.setdefault(t[1], NeighborFacts(None))
            for g in c.children:
                w = g.line.split()
                if w[:1] == ["remote-as"] and len(w) == 2:
                    n.remote_as = int(w[1])
                elif w[:1] == ["description"]:
                    n.description = g.line.split(None, 1)[1] if len(w) > 1 else ""
                elif w == ["shutdown"]:
                    n.shutdown = True


# --- show commands ---------------------------------------------------------------------------
# Shapes as real NX-OS prints them, per NAPALM's own test data (napalm-automation/napalm
# test/nxos/mocked_data: test_get_bgp_neighbors/normal, test_get_lldp_neighbors_detail/normal);
# tests/verify compares them.


@answered
def show(dev: NxosEmulator, wiring: Wiring, args: list[str]
         ) -> tuple[dict[str, Any] | None, str] | None:
    """(structured body, text) of one show command (words after `show`), None if not ours."""
    if args == ["bgp", "all", "summary", "vrf", "all"]:
        data = _bgp_summary(dev, wiring)
        return data, json.dumps(data, indent=1) + "\n"
    if args[:2] == ["lldp", "neighbors"] and args[-1:] == ["detail"]:
        only = args[3] if args[2:3] == ["interface"] and len(args) == 5 else None
        return None, _lldp_text(dev, wiring, only)
    return None


def _bgp_summary(dev: NxosEmulator, wiring: Wiring) -> dict[str, Any]:
    mine = wiring.facts(dev.name)
    sessions = wiring.sessions(dev.name)
    rows = [{"neighborid": s.address, "neighborversion": "4",
             "msgrecvd": 5 if s.state == "Established" else 0,
             "msgsent": 4 if s.state == "Established" else 0,
             "neighbortableversion": "1", "inq": "0", "outq": "0",
             "neighboras": str(s.remote_as),
             "time": "00:01:00" if s.state == "Established" else "never",
             "state": "Shutdown" if s.shut_down else s.state,
             "prefixreceived": str(s.received)} for s in sessions]
    up = sum(1 for s in sessions if s.state == "Established")
    vrf = {"vrf-name-out": "default", "vrf-router-id": (mine.router_id if mine else None)
           or "0.0.0.0", "vrf-local-as": str(mine.asn if mine and mine.asn else 0),
           "TABLE_af": {"ROW_af": [{"af-id": "1", "TABLE_saf": {"ROW_saf": {
               "safi": 1, "af-name": "IPv4 Unicast", "configuredpeers": str(len(rows)),
               "capablepeers": str(up), "TABLE_neighbor": {"ROW_neighbor": rows}}}}]}}
    return {"TABLE_vrf": {"ROW_vrf": [vrf]}}


_LLDP_HEAD = """Capability codes:
  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device
  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other
Device ID            Local Intf      Hold-time  Capability  Port ID
"""


def _short(port: str) -> str:
    """NX-OS names the local port `Eth1/1/1` in LLDP detail."""
    return "Eth" + port[len("Ethernet"):] if port.startswith("Ethernet") else port


def _lldp_text(dev: NxosEmulator, wiring: Wiring, only: str | None) -> str:
    blocks = []
    for port, n in wiring.lldp(dev.name).items():
        if only is not None and only.lower() not in (port.lower(), _short(port).lower()):
            continue
        blocks.append(
            f"Chassis id: {dotted_mac(n.mac)}\nPort id: {n.port}\nLocal Port id: {_short(port)}\n"
            f"Port Description: {n.port}\nSystem Name: {n.device}\n"
            f"System Description: {system_description(n.nos)}\nTime remaining: 103 seconds\n"
            "System Capabilities: B, R\nEnabled Capabilities: B, R\n"
            "Management Address: not advertised\nVlan ID: not advertised\n\n")
    return (_LLDP_HEAD + "\n" + "\n".join(blocks)
            + f"Total entries displayed: {len(blocks)}\n")


@answered
def interfaces(dev: NxosEmulator, wiring: Wiring, data: dict[str, Any]) -> None:
    """`show interface` rows with the link state the wiring gives (in place)."""
    mine = wiring.facts(dev.name)
    if mine is None:
        return
    for row in data["TABLE_interface"]["ROW_interface"]:
        name = row["interface"]
        if name.startswith("Ethernet") and row.get("admin_state") == "up" \
                and not wiring.link_up(dev.name, name, mine):
            row["state"] = "down"
