"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from typing import Any

from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.vendors.base import Vendor
from netcfg.vendors.sonic import render
from netcfg.vendors.sonic.capabilities import CAPABILITIES
from netcfg.vendors.sonic.deploy import SonicDeploy


class Sonic(Vendor):
    name = "sonic"
    template = "sonic/device.j2"
    extension = "json"
    capabilities = CAPABILITIES
    deploy = SonicDeploy()

    def view(self, plan: DevicePlan) -> dict[str, Any]:
        return render.view(plan)

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        return render.read(text)

    def expected(self, plan: DevicePlan) -> QosFacts:
        return render.expected(plan)


VENDOR = Sonic()
