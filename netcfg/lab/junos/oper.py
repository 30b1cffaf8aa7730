"""Junos operational state for the lab: the committed configuration's facts (ports, the BGP
speaker and its neighbours) the lab's Wiring reads (netcfg/lab/oper.py), so the sessions and
links of a switch cabled to a Junos device come up when both ends agree; and the operational
RPCs NAPALM's `junos` getters send, answered from it."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from lxml import etree

from netcfg.lab.junos.config import JNode
from netcfg.lab.oper import (
    ConfigFacts,
    NeighborFacts,
    PortFacts,
    Session,
    Wiring,
    answered,
    system_description,
)

if TYPE_CHECKING:
    from netcfg.lab.junos.emulator import JunosEmulator


def _value(node: JNode | None, name: str) -> str | None:
    child = node.get(name) if node is not None else None
    return child.value if child is not None else None


def facts(dev: JunosEmulator) -> ConfigFacts:
    root = dev.committed
    out = ConfigFacts(hostname=_value(root.get("system"), "host-name") or dev.name)
    for node in (root.find(["interfaces"]) or JNode("")).children or []:
        port = PortFacts(shutdown=node.get("disable") is not None)
        mtu = _value(node, "mtu")
        port.mtu = int(mtu) if mtu and mtu.isdigit() else None
        inet = node.find(["unit 0", "family inet"])
        for c in (inet.children or []) if inet is not None else []:
            if c.name.startswith("address "):
                port.address = c.name.split()[1]
        out.ports[node.name] = port
    options = root.find(["routing-options"])
    asn = _value(options, "autonomous-system")
    out.asn = int(asn) if asn and asn.isdigit() else None
    out.router_id = _value(options, "router-id")
    for group in (root.find(["protocols", "bgp"]) or JNode("")).children or []:
        if not group.name.startswith("group "):
            continue
        group_as = _value(group, "peer-as")
        for n in group.children or []:
            if not n.name.startswith("neighbor "):
                continue
            peer_as = _value(n, "peer-as") or group_as
            out.neighbors[n.name.split()[1]] = NeighborFacts(
                int(peer_as) if peer_as and peer_as.isdigit() else None,
                _value(n, "description") or "",
                n.get("shutdown") is not None or n.get("disable") is not None)
    # originated prefixes: the route-filters of the export policies' `originate` terms
    for policy in (root.find(["policy-options"]) or JNode("")).children or []:
        term = policy.get("term originate")
        source = term.get("from") if term is not None else None
        filters = (source.children or []) if source is not None else []
        out.networks += sum(1 for c in filters if c.name.startswith("route-filter "))
    return out


# --- operational RPCs ------------------------------------------------------------------------
# Shapes as real Junos answers them, per NAPALM's own test data (napalm-automation/napalm
# test/junos/mocked_data: test_get_bgp_neighbors/normal, test_get_lldp_neighbors_detail/
# qfx5110); the elements are the ones NAPALM's PyEZ tables read (napalm/junos/utils/
# junos_views.yml). tests/verify compares them.


@answered
def rpc(dev: JunosEmulator, wiring: Wiring, name: str, op: etree._Element) -> str | None:
    """The reply body of one operational RPC, None if not ours."""
    if name == "get-instance-information":
        return ('<instance-information junos:style="terse"><instance-core>'
                "<instance-name>master</instance-name><instance-type>forwarding</instance-type>"
                "</instance-core></instance-information>")
    if name in ("get-bgp-neighbor-information", "get-bgp-summary-information"):
        instance = _arg(op, "instance")
        if instance not in ("", "master"):
            return "<bgp-information/>"
        sessions = wiring.sessions(dev.name)
        return _bgp_detail(dev, wiring, sessions) if name.endswith("neighbor-information") \
            else _bgp_summary(sessions)
    if name == "get-lldp-neighbors-information":
        return _lldp(dev, wiring, None)
    if name in ("get-lldp-interface-neighbors", "get-lldp-interface-neighbors-information"):
        return _lldp(dev, wiring, _arg(op, "interface-device") or _arg(op, "interface-name"))
    if name == "command" and " ".join((op.text or "").split()) == "show interfaces queue":
        from netcfg.lab.junos.queues import show_interfaces_queue  # verify's queue drops

        return f"<output>{escape(show_interfaces_queue(dev, wiring))}</output>"
    return None


def _arg(op: etree._Element, name: str) -> str:
    found = op.find(f"{{*}}{name}")
    if found is None:
        found = op.find(name)
    return (found.text or "").strip() if found is not None else ""


def _bgp_detail(dev: JunosEmulator, wiring: Wiring, sessions: list[Session]) -> str:
    mine = wiring.facts(dev.name)
    local_id = (mine.router_id if mine else None) or "0.0.0.0"
    peers = []
    for s in sessions:
        local = (mine.ports[s.port].ip if mine and s.port and mine.ports[s.port].ip
                 else "0.0.0.0")
        up = s.state == "Established"
        state = s.state
        rib = (f'<bgp-rib junos:style="detail"><name>inet.0</name>'
               f"<send-state>in sync</send-state>"
               f"<active-prefix-count>{s.received}</active-prefix-count>"
               f"<received-prefix-count>{s.received}</received-prefix-count>"
               f"<accepted-prefix-count>{s.received}</accepted-prefix-count>"
               f"<advertised-prefix-count>{s.sent}</advertised-prefix-count></bgp-rib>"
               ) if up else ""
        options = "<bgp-options-extended>Shutdown</bgp-options-extended>" \
            if s.shut_down else ""
        peers.append(
            f'<bgp-peer junos:style="detail"><peer-address>{s.address}+179</peer-address>'
            f"<peer-as>{s.remote_as}</peer-as><local-address>{local}</local-address>"
            f"<local-as>{s.local_as}</local-as>"
            + (f"<description>{escape(s.description)}</description>" if s.description else "")
            + f"<peer-type>External</peer-type><peer-state>{state}</peer-state>"
            f"<bgp-option-information><bgp-options>Preference PeerAS Multipath Refresh"
            f"</bgp-options>{options}</bgp-option-information>"
            f"<flap-count>0</flap-count>"
            + (f"<peer-id>{s.remote_id}</peer-id>" if up else "")
            + f"<local-id>{local_id}</local-id>{rib}</bgp-peer>")
    return f"<bgp-information>{''.join(peers)}</bgp-information>"


def _bgp_summary(sessions: list[Session]) -> str:
    peers = []
    for s in sessions:
        up = s.state == "Established"
        seconds = 60 if up else 0
        peers.append(
            f'<bgp-peer junos:style="terse"><peer-address>{s.address}</peer-address>'
            f"<peer-as>{s.remote_as}</peer-as><flap-count>0</flap-count>"
            f'<elapsed-time junos:seconds="{seconds}">{seconds}</elapsed-time>'
            f"<peer-state>{s.state}</peer-state></bgp-peer>")
    down = sum(1 for s in sessions if s.state != "Established")
    return (f"<bgp-information><group-count>1</group-count><peer-count>{len(sessions)}"
            f"</peer-count><down-peer-count>{down}</down-peer-count>{''.join(peers)}"
            f"</bgp-information>")


def _lldp(dev: JunosEmulator, wiring: Wiring, only: str | None) -> str:
    items = []
    for port, n in wiring.lldp(dev.name, only or None).items():
        items.append(
            "<lldp-neighbor-information>"
            f"<lldp-local-port-id>{port}</lldp-local-port-id>"
            + (f"<lldp-local-interface>{port}</lldp-local-interface>" if only else "")
            + "<lldp-local-parent-interface-name>-</lldp-local-parent-interface-name>"
            "<lldp-remote-chassis-id-subtype>Mac address</lldp-remote-chassis-id-subtype>"
            f"<lldp-remote-chassis-id>{n.mac}</lldp-remote-chassis-id>"
            # the summary names the far port by its description only (the QFX5110 capture)
            + ("<lldp-remote-port-id-subtype>Interface name</lldp-remote-port-id-subtype>"
               f"<lldp-remote-port-id>{n.port}</lldp-remote-port-id>" if only else "")
            + f"<lldp-remote-port-description>{n.port}</lldp-remote-port-description>"
            f"<lldp-remote-system-name>{escape(n.device)}</lldp-remote-system-name>"
            + ("<lldp-system-description><lldp-remote-system-description>"
               f"{escape(system_description(n.nos))}</lldp-remote-system-description>"
               "</lldp-system-description>"
               "<lldp-remote-system-capabilities-supported>Bridge Router "
               "</lldp-remote-system-capabilities-supported>"
               "<lldp-remote-system-capabilities-enabled>Bridge Router "
               "</lldp-remote-system-capabilities-enabled>" if only else "")
            + "</lldp-neighbor-information>")
    return f"<lldp-neighbors-information>{''.join(items)}</lldp-neighbors-information>"


@answered
def link_up(dev: JunosEmulator, wiring: Wiring, port: str) -> bool:
    """Whether the wiring has `port`'s link up (the interface RPC's oper-status)."""
    return wiring.link_up(dev.name, port)
