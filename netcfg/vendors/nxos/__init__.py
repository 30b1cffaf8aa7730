"""Cisco NX-OS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from typing import Any

from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.vendors.base import Vendor
from netcfg.vendors.nxos import render
from netcfg.vendors.nxos.capabilities import CAPABILITIES
from netcfg.vendors.nxos.deploy import NxosDeploy


class Nxos(Vendor):
    name = "nxos"
    template = "nxos/device.j2"
    extension = "cfg"
    capabilities = CAPABILITIES
    deploy = NxosDeploy()

    def view(self, plan: DevicePlan) -> dict[str, Any]:
        return render.view(plan)

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        return render.read(text)

    def expected(self, plan: DevicePlan) -> QosFacts:
        return render.expected(plan)


VENDOR = Nxos()
