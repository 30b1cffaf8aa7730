"""NVIDIA Cumulus Linux (NVUE): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.cumulus import render, routing
from netcfg.vendors.cumulus.capabilities import CAPABILITIES
from netcfg.vendors.cumulus.deploy import CumulusDeploy


class Cumulus(ModuleVendor):
    name = "cumulus"
    template = "cumulus/device.j2"
    extension = "yaml"
    capabilities = CAPABILITIES
    deploy = CumulusDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing

    def explain_headroom(self, size: int, xoff: int, frame: int) -> list[tuple[str, int, str]]:
        return render.explain_headroom(size, xoff, frame)


VENDOR = Cumulus()
