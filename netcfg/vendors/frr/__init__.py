"""FRR (frr.conf): routing for a white-box switch or a host, and the twin's routers."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.frr import render, routing
from netcfg.vendors.frr.deploy import FrrDeploy
from netcfg.vendors.frr.facts import FACTS


class Frr(ModuleVendor):
    facts = FACTS
    template = "frr/frr.conf.j2"
    extension = "conf"
    deploy = FrrDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing


VENDOR = Frr()
