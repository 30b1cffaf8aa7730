"""NVIDIA Cumulus Linux (NVUE): capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import unstated, unverified
from netcfg.vendors.cumulus import render, routing
from netcfg.vendors.cumulus.deploy import CumulusDeploy
from netcfg.vendors.cumulus.facts import FACTS

if TYPE_CHECKING:
    from netcfg.findings import Finding
    from netcfg.topology.fabric import Device, Fabric


class Cumulus(ModuleVendor):
    facts = FACTS
    template = "cumulus/device.j2"
    extension = "yaml"
    deploy = CumulusDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    pfc_unverifiable = (
        "`nv show interface <port> qos roce status` and `... qos roce counters`: NVIDIA's "
        "documented outputs may not be copied (no licence) and no other capture was found")

    def raw_document(self, text: str) -> dict[str, Any]:
        """The `set` mapping of the NVUE document (`- set: {...}`)."""
        return render.sets(text)

    def raw_text(self, document: dict[str, Any]) -> str:
        return render.nvue_document(document)

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP010 for a gNMI server or an SNMP agent on switches without a management address:
        NVUE's needs the address it listens on. CAP019 for a banner of several lines."""
        bare = [d for d in devices if d.management is None]
        out = [finding for field, agent in (("gnmi", "gNMI server"), ("snmp", "SNMP agent"))
               for finding in unstated(
                   fabric, self.name, bare, field,
                   f"NVUE's {agent} needs a listening address, and these switches have no "
                   "management address (devices.<name>.management or addressing.management)")]
        banners = fabric.loaded.intent.management.banners
        for which in ("login", "motd"):
            text = getattr(banners, which) if banners is not None and devices else None
            if text is not None and "\n" in text:
                out += unverified(
                    fabric, self.name, devices,
                    f"system message {'pre-login' if which == 'login' else 'post-login'}",
                    "a banner of several lines; NVIDIA's examples show one line",
                    ("management", "banners", which))
        return out

    def explain_headroom(self, size: int, xoff: int, frame: int) -> list[tuple[str, int, str]]:
        return render.explain_headroom(size, xoff, frame)

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """netcfg_cumulus reports NVUE's `link mtu` (`nv show interface`), the Linux
        interface MTU the file states (render.link_mtu)."""
        return int(render.link_mtu(l2_mtu))


VENDOR = Cumulus()
