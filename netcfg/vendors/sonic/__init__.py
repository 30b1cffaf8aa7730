"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

import json
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import without_gateway
from netcfg.vendors.sonic import buffershow, pfcstate, render, routing
from netcfg.vendors.sonic.deploy import SonicDeploy
from netcfg.vendors.sonic.facts import FACTS

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.findings import Finding
    from netcfg.render.plan import DevicePlan, Interface
    from netcfg.topology.fabric import Device, Fabric
    from netcfg.verify.pfc import PfcState


class Sonic(ModuleVendor):
    facts = FACTS
    template = "sonic/device.j2"
    extension = "json"
    deploy = SonicDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    filters = {"sonic_json": render.to_json}

    def raw_document(self, text: str) -> dict[str, Any]:
        return cast(dict[str, Any], json.loads(text))

    def raw_text(self, document: dict[str, Any]) -> str:
        return render.to_json(document)

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP010 for a management address without a gateway: sonic-mgmt_interface.yang
        refuses an MGMT_INTERFACE entry without `gwaddr` of the address's family, so the file
        states none and the switch keeps its own eth0 (DHCP on a factory box).

        BGP timers of 60/180 s need no finding: bgpcfgd's instance.conf.j2 writes no `timers`
        line for them, and SONiC's FRR runs the `traditional` profile (docs/lab-sonic.md,
        "FRR"), whose defaults are exactly 60/180 (FRR bgpd/bgp_vty.c BGP_KEEPALIVE and
        BGP_HOLDTIME: 3/9 only under `datacenter`)."""
        return without_gateway(
            fabric, self.name, devices, "CAP010",
            f"{self.name} config does not state the management address: SONiC's MGMT_INTERFACE "
            "needs a gateway of the address's family; the switch keeps its own eth0",
            severity="info")

    def read_pfc(self, driver: NetworkDriver) -> PfcState | None:
        """sonic-utilities' own tables (netcfg/vendors/sonic/pfcstate.py), run in the
        switch's shell by netcfg_sonic's `cli`."""
        return pfcstate.parse(driver.cli(list(pfcstate.COMMANDS)))

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """netcfg_sonic reports the PORT table's mtu, the IP MTU the file states."""
        return int(render.port_mtu(l2_mtu))

    pfc_parts_unverifiable = (
        ("VFY021", "ECN marking as programmed: `show ecn` (sonic-utilities scripts/ecnconfig) "
         "prints CONFIG_DB's WRED profiles, the configuration VFY001 compares, not the "
         "queues' state, and no published output of a command that does was found"),)

    def read_buffers(self, driver: NetworkDriver) -> dict[str, dict[str, str]] | None:
        """`show buffer information`: the profiles STATE_DB holds (buffershow.py)."""
        return buffershow.read(driver)

    def buffer_profile_name(self, interface: Interface, plan: DevicePlan | None = None) -> str:
        """The name buffermgrd gives a lossless port's profile (buffershow.py)."""
        return buffershow.profile_name(interface, plan)


VENDOR = Sonic()
