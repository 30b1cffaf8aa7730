"""Arista EOS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.eos import render, routing
from netcfg.vendors.eos.capabilities import CAPABILITIES
from netcfg.vendors.eos.deploy import EosDeploy


class Eos(ModuleVendor):
    name = "eos"
    template = "eos/device.j2"
    extension = "cfg"
    capabilities = CAPABILITIES
    deploy = EosDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing


VENDOR = Eos()
