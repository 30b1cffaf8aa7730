"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.sonic import render, routing
from netcfg.vendors.sonic.capabilities import CAPABILITIES
from netcfg.vendors.sonic.deploy import SonicDeploy


class Sonic(ModuleVendor):
    name = "sonic"
    template = "sonic/device.j2"
    extension = "json"
    capabilities = CAPABILITIES
    deploy = SonicDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing


VENDOR = Sonic()
