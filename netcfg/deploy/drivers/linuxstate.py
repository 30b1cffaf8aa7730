"""Operational state from the Linux programs SONiC and Cumulus Linux both run, read into
NAPALM's getter models (napalm/base/models.py): FRR's `show ip bgp summary json` (through
vtysh) for get_bgp_neighbors, and lldpd's `lldpctl -f json` for get_lldp_neighbors_detail.

Both switches run the same programs (SONiC: FRR in its bgp container, lldpd in its lldp
container, reached by `sudo vtysh` and `sudo lldpctl` from the host, as sonic-utilities' `show
ip bgp summary` and `show lldp neighbors` do; Cumulus Linux: FRR and lldpd on the host), so
both drivers parse them here. The formats are the programs' own: tests/verify reads captures
of real FRR and real lldpd (tests/verify/fixtures/README.md).
"""

from __future__ import annotations

import json
from typing import Any

#: what each driver runs (the lab's SONiC and Cumulus shells answer the same lines)
BGP_SUMMARY = "sudo vtysh -c 'show ip bgp summary json'"
LLDP_NEIGHBORS = "sudo lldpctl -f json"


def _json(text: str | dict[str, Any], what: str) -> Any:
    if isinstance(text, dict):
        return text
    try:
        return json.loads(text or "{}")
    except ValueError as exc:
        raise ValueError(f"unreadable {what} ({exc}; it starts with {text[:60]!r})") from None


def bgp_neighbors(summary: str | dict[str, Any]) -> dict[str, Any]:
    """FRR's `show ip bgp summary json` -> get_bgp_neighbors' model (the default VRF as
    `global`).

    FRR 8 nests the IPv4 unicast summary under `ipv4Unicast` (older releases print it bare;
    both are read). A peer's `state` is FRR's FSM state (`Established`, `Active`, `Connect`,
    `Idle (Admin)` for one shut down by configuration: `peerState` `Admin`); `pfxRcd` counts
    the prefixes accepted after inbound policy, `pfxSnt` those sent. The summary has no remote
    router id: `remote_id` is empty (verify does not read it)."""
    data = _json(summary, "BGP summary")
    table = data.get("ipv4Unicast", data) if isinstance(data, dict) else {}
    peers: dict[str, Any] = {}
    for address, p in (table.get("peers") or {}).items():
        state = str(p.get("state", ""))
        up = state == "Established"
        received = int(p.get("pfxRcd") or 0)
        peers[str(address)] = {
            "local_as": int(p.get("localAs") or table.get("as") or 0),
            "remote_as": int(p.get("remoteAs") or 0),
            "remote_id": "",
            "is_up": up,
            "is_enabled": p.get("peerState") != "Admin" and not state.startswith("Idle (Admin"),
            "description": str(p.get("desc", "")),
            "uptime": int(p.get("peerUptimeMsec") or 0) // 1000 if up else -1,
            "address_family": {"ipv4": {"received_prefixes": received if up else -1,
                                        "accepted_prefixes": received if up else -1,
                                        "sent_prefixes": int(p.get("pfxSnt") or 0)
                                        if up else -1}},
        }
    if not table:
        return {"global": {"router_id": "", "peers": {}}}
    return {"global": {"router_id": str(table.get("routerId", "")), "peers": peers}}


def _items(node: Any) -> list[tuple[str, Any]]:
    """lldpctl's JSON keyed lists: one entry is an object keyed by its name, several are a
    list of such objects (lldpd's JSON writer, as its own tests show)."""
    if isinstance(node, dict):
        return list(node.items())
    if isinstance(node, list):
        return [kv for one in node if isinstance(one, dict) for kv in one.items()]
    return []


def _as_list(node: Any) -> list[Any]:
    return node if isinstance(node, list) else [node] if node is not None else []


def lldp_neighbors_detail(output: str | dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """lldpd's `lldpctl -f json` -> get_lldp_neighbors_detail's model.

    Per local interface the neighbour's chassis is keyed by its system name (a chassis that
    sends none has its fields directly under `chassis`), the port's `id` is a {type, value}
    pair (`ifname`, `mac`, `local`, ...) and `descr` its description; capabilities are a list
    of {type, enabled}."""
    data = _json(output, "lldpctl output")
    lldp = data.get("lldp") if isinstance(data, dict) else None
    out: dict[str, list[dict[str, Any]]] = {}
    for local, entry in _items((lldp or {}).get("interface") if isinstance(lldp, dict) else {}):
        chassis = entry.get("chassis") or {}
        if "id" in chassis:
            name, body = "", chassis
        else:
            name, body = next(iter(chassis.items()), ("", {}))
        port = entry.get("port") or {}
        caps = [c for c in _as_list(body.get("capability")) if isinstance(c, dict)]
        out.setdefault(str(local), []).append({
            "parent_interface": "",
            "remote_port": str((port.get("id") or {}).get("value", "")),
            "remote_port_description": str(port.get("descr", "")),
            "remote_chassis_id": str((body.get("id") or {}).get("value", "")),
            "remote_system_name": str(name),
            "remote_system_description": str(body.get("descr", "")),
            "remote_system_capab": [str(c.get("type", "")).lower() for c in caps],
            "remote_system_enable_capab": [str(c.get("type", "")).lower() for c in caps
                                           if c.get("enabled")],
        })
    return out
