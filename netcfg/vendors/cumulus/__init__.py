"""NVIDIA Cumulus Linux (NVUE): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from typing import Any

from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.vendors.base import Vendor
from netcfg.vendors.cumulus import render
from netcfg.vendors.cumulus.capabilities import CAPABILITIES
from netcfg.vendors.cumulus.deploy import CumulusDeploy


class Cumulus(Vendor):
    name = "cumulus"
    template = "cumulus/device.j2"
    extension = "yaml"
    capabilities = CAPABILITIES
    deploy = CumulusDeploy()

    def view(self, plan: DevicePlan) -> dict[str, Any]:
        return render.view(plan)

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        return render.read(text)

    def expected(self, plan: DevicePlan) -> QosFacts:
        return render.expected(plan)


VENDOR = Cumulus()
