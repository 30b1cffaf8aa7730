"""Cumulus Linux operational state for the lab: the applied NVUE revision's facts (ports, the
BGP speaker of the default VRF and its neighbours) the lab's Wiring reads
(netcfg/lab/oper.py), so the links and sessions of a switch cabled to a Cumulus switch come
up when both ends agree. (netcfg's Cumulus driver has no BGP or LLDP getter yet, so the lab
answers no state command of its own here.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from netcfg.lab.oper import ConfigFacts, NeighborFacts, PortFacts

if TYPE_CHECKING:
    from netcfg.lab.cumulus.emulator import CumulusEmulator


def _speed(text: Any) -> int | None:
    """NVUE link speed `400G`, `100G`, `25G`, `10G` -> Mb/s."""
    value = str(text or "").upper()
    return int(value[:-1]) * 1000 if value.endswith("G") and value[:-1].isdigit() else None


def inputs(dev: CumulusEmulator) -> object:
    """What `facts` reads (the lab's Wiring keeps the facts while this stays equal)."""
    return dev.hostname, dev.applied


def facts(dev: CumulusEmulator) -> ConfigFacts:
    tree: dict[str, Any] = dev.applied
    out = ConfigFacts(hostname=dev.hostname)
    for name, port in (tree.get("interface") or {}).items():
        port = port or {}
        link = port.get("link") or {}
        mtu = link.get("mtu")
        addresses = list((port.get("ipv4") or {}).get("address") or {})
        out.ports[name] = PortFacts(shutdown=link.get("state") in ("down", {"down": {}}),
                                    address=addresses[0] if addresses else None,
                                    mtu=int(mtu) if isinstance(mtu, int) else None,
                                    speed=_speed(link.get("speed")))
    router = ((tree.get("router") or {}).get("bgp")) or {}
    asn = router.get("autonomous-system")
    out.asn = int(asn) if isinstance(asn, int) else None
    out.router_id = router.get("router-id")
    bgp = (((tree.get("vrf") or {}).get("default") or {}).get("router") or {}).get("bgp") or {}
    family = ((bgp.get("address-family") or {}).get("ipv4-unicast")) or {}
    out.networks = len(family.get("network") or {})
    for address, n in (bgp.get("neighbor") or {}).items():
        n = n or {}
        remote = n.get("remote-as")
        out.neighbors[str(address)] = NeighborFacts(
            int(remote) if isinstance(remote, int) else None, str(n.get("description", "")),
            n.get("shutdown") == "on")
    return out
