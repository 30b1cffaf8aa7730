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

    def banner_refusal(self, text: str) -> str | None:
        """NAPALM's EOS driver strips every line it sends and drops blank ones and `!`
        comments, and the banner ends at a line `EOF` (napalm eos.py `_load_config`,
        `_multiline_convert`): such lines would not reach the switch as written."""
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip() or line != line.strip() or line.startswith("!") \
                    or line == "EOF":
                return (f"line {n} {line!r}: EOS banners cannot hold blank lines, leading or "
                        "trailing blanks, lines starting with '!' or a line 'EOF'")
        return None


VENDOR = Eos()
