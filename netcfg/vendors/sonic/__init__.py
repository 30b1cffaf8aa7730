"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, ClassVar

from netcfg.vendors.base import ModuleVendor, PoolLayout
from netcfg.vendors.sonic import buffers, render, routing
from netcfg.vendors.sonic.capabilities import CAPABILITIES
from netcfg.vendors.sonic.deploy import SonicDeploy

if TYPE_CHECKING:
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

    def pool_layout(self, fabric: Fabric, dev: Device, lossless_ports: int) -> PoolLayout:
        return buffers.pool_layout(fabric, dev, lossless_ports, render.DEVICE_TYPES[dev.role])


VENDOR = Sonic()
