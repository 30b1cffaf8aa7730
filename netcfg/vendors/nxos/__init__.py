"""Cisco NX-OS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.nxos import render, routing
from netcfg.vendors.nxos.capabilities import CAPABILITIES
from netcfg.vendors.nxos.deploy import NxosDeploy


class Nxos(ModuleVendor):
    name = "nxos"
    template = "nxos/device.j2"
    extension = "cfg"
    capabilities = CAPABILITIES
    deploy = NxosDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing


VENDOR = Nxos()
