"""A switch's operational state, read through NAPALM getters over the deploy layer's
connection (the same connection file, trust and drivers as diff and push).

Only the getters' documented models are read (napalm/base/base.py): get_bgp_neighbors,
get_lldp_neighbors_detail, get_interfaces. Each NOS's driver maps its own commands to them
(docs/verify.md lists the commands). PFC and queue state has no getter: it is read with the
NOS's own commands where netcfg reads them (`Vendor.read_pfc`: EOS, Junos, SONiC).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from netcfg.deploy.connect import Connection, DeviceError, describe
from netcfg.deploy.targets import Target
from netcfg.vendors import vendor
from netcfg.verify.pfc import PfcState


@dataclass
class DeviceState:
    """What one switch reports; each part None when its getter failed (`errors` says why)."""

    #: peer address -> NAPALM BGPStateNeighborDict, over every VRF
    bgp: dict[str, dict[str, Any]] | None = None
    #: local port -> NAPALM LLDPNeighborDetailDict list
    lldp: dict[str, list[dict[str, Any]]] | None = None
    #: port -> NAPALM InterfaceDict
    interfaces: dict[str, dict[str, Any]] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    #: getters the switch's driver does not implement (those parts are not checked)
    missing: list[str] = field(default_factory=list)
    #: PFC and queue state (netcfg/verify/pfc.py) where verify reads it, and a second
    #: reading `interval` seconds later when one was asked
    pfc: PfcState | None = None
    pfc_after: PfcState | None = None
    interval: float = 0.0
    #: buffer profiles as programmed, by name (`Vendor.read_buffers`: SONiC), where read
    buffers: dict[str, dict[str, str]] | None = None


def bgp_peers(getter: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """get_bgp_neighbors' VRFs flattened to peer address -> peer (a fabric's sessions all
    live in the default VRF, `global` in NAPALM's model; a peer in another VRF is kept too)."""
    peers: dict[str, dict[str, Any]] = {}
    for vrf in getter.values():
        for address, peer in (vrf.get("peers") or {}).items():
            peers.setdefault(str(address), peer)
    return peers


def collect(target: Target, timeout: int, interval: float = 0.0) -> DeviceState:
    """Open one connection and run the getters; a getter that raises is recorded, the others
    still run; one the driver does not implement is noted as missing. Where netcfg reads PFC
    state on the NOS (`Vendor.read_pfc`), it does so once, and again `interval` seconds
    later (counters are compared over that interval). A failed connection raises DeviceError."""
    with Connection(target, timeout) as driver:
        return read_state(driver, target, interval)


def read_state(driver: Any, target: Target, interval: float = 0.0) -> DeviceState:
    """`collect` over a connection already open (verify's config check opened it: one login
    per switch, not two)."""
    state = DeviceState(interval=interval)
    for part, call in (("interfaces", driver.get_interfaces),
                       ("lldp", driver.get_lldp_neighbors_detail),
                       ("bgp", lambda: bgp_peers(driver.get_bgp_neighbors()))):
        try:
            setattr(state, part, call())
        except NotImplementedError:
            state.missing.append(part)
        except DeviceError:
            raise
        except Exception as exc:  # noqa: BLE001 - every driver has its own exceptions
            state.errors[part] = describe(exc)
    nos = vendor(target.nos)
    read_pfc = nos.read_pfc
    try:
        state.pfc = read_pfc(driver)
        if state.pfc is not None and interval > 0:
            time.sleep(interval)
            state.pfc_after = read_pfc(driver)
    except Exception as exc:  # noqa: BLE001
        state.errors["pfc"] = describe(exc)
    try:
        state.buffers = nos.read_buffers(driver)
    except Exception as exc:  # noqa: BLE001
        state.errors["buffers"] = describe(exc)
    return state
