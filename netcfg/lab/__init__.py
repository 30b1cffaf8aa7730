"""The device lab: emulated switches on loopback, speaking each NOS's real management protocol
(EOS eAPI, Junos NETCONF, NX-OS NX-API + SSH/SCP), so the real NAPALM drivers can be tested
and a push can be rehearsed without hardware. See docs/lab.md.

    from netcfg.lab import DeviceSpec, Lab
    with Lab([DeviceSpec("leaf1", "eos")]) as lab:
        driver = napalm.get_network_driver("eos")(**lab["leaf1"].napalm())
"""

from netcfg.lab.device import DeviceSpec, Emulator
from netcfg.lab.faults import Fault, FaultKind
from netcfg.lab.lab import Lab, LabDevice

__all__ = ["DeviceSpec", "Emulator", "Fault", "FaultKind", "Lab", "LabDevice"]
