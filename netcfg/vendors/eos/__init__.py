"""Arista EOS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import unverified
from netcfg.vendors.eos import render, routing
from netcfg.vendors.eos.capabilities import CAPABILITIES
from netcfg.vendors.eos.deploy import EosDeploy

if TYPE_CHECKING:
    from netcfg.findings import Finding
    from netcfg.topology.fabric import Device, Fabric


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

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP019 for RADIUS keys: Arista's AVD writes `radius-server host ... key 7 <key>`
        only (radius_server.schema.yml: an encrypted key); `key 0` with the key in clear is
        the TACACS+ form AVD allows (tacacs_servers.schema.yml key_type 0, 7, 8a)."""
        aaa = fabric.loaded.intent.management.aaa
        if aaa is None or aaa.protocol != "radius":
            return []
        return unverified(fabric, self.name, devices,
                          "radius-server host <server> vrf MGMT key 0 <key>",
                          "AVD writes RADIUS keys only in type 7",
                          ("management", "aaa", "protocol"))


VENDOR = Eos()
