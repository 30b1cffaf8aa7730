"""The device lab: emulated switches on loopback, speaking each NOS's real management protocol
(EOS eAPI, Junos NETCONF, NX-OS NX-API + SSH/SCP), so the real NAPALM drivers can be tested
and a push can be rehearsed without hardware. See docs/lab.md.

    from netcfg.lab import DeviceSpec, Lab
    with Lab([DeviceSpec("leaf1", "eos")]) as lab:
        driver = napalm.get_network_driver("eos")(**lab["leaf1"].napalm())
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# loaded on first use, so `netcfg --help` does not pay for asyncio servers and crypto
_EXPORTS = {
    "DeviceSpec": "netcfg.lab.device", "Emulator": "netcfg.lab.device",
    "Fault": "netcfg.lab.faults", "FaultKind": "netcfg.lab.faults",
    "Lab": "netcfg.lab.lab", "LabDevice": "netcfg.lab.lab",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(name)
