"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from netcfg.vendors.base import ModuleVendor, PoolLayout
from netcfg.vendors.checks import which_switches
from netcfg.vendors.sonic import buffers, render, routing
from netcfg.vendors.sonic.capabilities import CAPABILITIES
from netcfg.vendors.sonic.deploy import SonicDeploy

if TYPE_CHECKING:
    from netcfg.findings import Finding
    from netcfg.topology.fabric import Device, Fabric


class Sonic(ModuleVendor):
    name = "sonic"
    template = "sonic/device.j2"
    extension = "json"
    capabilities = CAPABILITIES
    deploy = SonicDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    filters = {"sonic_json": render.to_json}
    raw_form = "tree"

    def raw_tree_refusal(self, merge: Mapping[str, Any]) -> str | None:
        """CONFIG_DB is tables of keys of fields: `{"SYSLOG_SERVER": {"10.0.0.5": {...}}}`."""
        for table, keys in merge.items():
            if not isinstance(keys, dict) or not all(isinstance(v, dict) for v in keys.values()):
                return f"{table}: a CONFIG_DB table maps keys to mappings of fields"
        return None

    def raw_document(self, text: str) -> dict[str, Any]:
        return cast(dict[str, Any], json.loads(text))

    def raw_text(self, document: dict[str, Any]) -> str:
        return render.to_json(document)

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP010 for a management address without a gateway: sonic-mgmt_interface.yang
        refuses an MGMT_INTERFACE entry without `gwaddr` of the address's family, so the file
        states none and the switch keeps its own eth0 (DHCP on a factory box)."""
        bare = [d for d in devices if d.management and d.management_gateway is None]
        if not bare:
            return []
        first = bare[0]
        path = (("devices", first.name, "management", "address")
                if first.name in fabric.loaded.intent.devices else ("addressing", "management"))
        return [fabric.loaded.finding(
            "CAP010", f"{self.name} config does not state the management address "
            f"({which_switches(self.name, bare)}): SONiC's MGMT_INTERFACE needs a gateway of the "
            "address's family (management.gateway); the switch keeps its own eth0",
            path, severity="info", device=first.name)]

    def pool_layout(self, fabric: Fabric, dev: Device, lossless_ports: int) -> PoolLayout:
        return buffers.pool_layout(fabric, dev, lossless_ports, render.DEVICE_TYPES[dev.role])


VENDOR = Sonic()
