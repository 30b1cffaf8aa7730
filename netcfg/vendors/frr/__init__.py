"""FRR (frr.conf): routing for a white-box switch or a host, and the twin's routers."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from netcfg.vendors import raw
from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.frr import render, routing
from netcfg.vendors.frr.capabilities import CAPABILITIES
from netcfg.vendors.frr.deploy import FrrDeploy


class Frr(ModuleVendor):
    name = "frr"
    template = "frr/frr.conf.j2"
    extension = "conf"
    capabilities = CAPABILITIES
    deploy = FrrDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing

    def raw_line_refusal(self, lines: str) -> str | None:
        # frr.conf closes a router or route-map block with `exit` (as netcfg's own file does)
        return raw.exec_line(lines, raw.EXEC_WORDS - {"exit"})


VENDOR = Frr()
