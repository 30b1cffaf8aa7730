"""Arista EOS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from typing import Any

from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.vendors.base import Vendor
from netcfg.vendors.eos import render
from netcfg.vendors.eos.capabilities import CAPABILITIES
from netcfg.vendors.eos.deploy import EosDeploy


class Eos(Vendor):
    name = "eos"
    template = "eos/device.j2"
    extension = "cfg"
    capabilities = CAPABILITIES
    deploy = EosDeploy()

    def view(self, plan: DevicePlan) -> dict[str, Any]:
        return render.view(plan)

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        return render.read(text)

    def expected(self, plan: DevicePlan) -> QosFacts:
        return render.expected(plan)


VENDOR = Eos()
