"""Arista EOS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import unverified
from netcfg.vendors.eos import capabilities, pfcstate, render, routing
from netcfg.vendors.eos.deploy import EosDeploy
from netcfg.vendors.eos.facts import FACTS

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.findings import Finding
    from netcfg.topology.fabric import Device, Fabric
    from netcfg.verify.pfc import PfcState


class Eos(ModuleVendor):
    facts = FACTS
    template = "eos/device.j2"
    extension = "cfg"
    deploy = EosDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    anta = True

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP019 for RADIUS keys: Arista's AVD writes `radius-server host ... key 7 <key>`
        only (radius_server.schema.yml: an encrypted key); `key 0` with the key in clear is
        the TACACS+ form AVD allows (tacacs_servers.schema.yml key_type 0, 7, 8a)."""
        aaa = fabric.loaded.intent.management.aaa
        if aaa is None or aaa.protocol != "radius":
            return []
        return unverified(fabric, self.name, devices,
                          "radius-server host <server> vrf MGMT key 0 <key>",
                          "AVD writes RADIUS keys only in type 7",
                          ("management", "aaa", "protocol"))

    def prefix_limit(self, fabric_prefixes: int) -> tuple[int, str] | None:
        """The `maximum-routes` the file renders for such a fabric (capabilities.py)."""
        return (capabilities.maximum_routes(fabric_prefixes),
                capabilities.prefix_limit_source(fabric_prefixes))

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """The value the file's `mtu` statement holds."""
        return render.ip_mtu(l2_mtu)

    def read_pfc(self, driver: NetworkDriver) -> PfcState | None:
        """PFC frames, queue drops and ECN marks over eAPI at ANTA's revisions (pfcstate.py)."""
        return pfcstate.read(driver)


VENDOR = Eos()
