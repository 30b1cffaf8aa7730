"""Shared machinery of the topology generators: devices, cabling, port names, feasibility."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from netcfg.findings import Finding, IntentError
from netcfg.intent.base import suggest
from netcfg.intent.load import LoadedIntent
from netcfg.intent.overrides import match_device
from netcfg.intent.units import format_speed
from netcfg.intent.yamlsrc import PathKey
from netcfg.platforms import Catalog
from netcfg.topology.fabric import Device, Fabric, Link, Port
from netcfg.topology.ports import CageAllocator


class FabricBuilder:
    """Accumulates devices and links; collects located findings instead of stopping at one."""

    def build(self) -> None:
        """Add the topology's devices and links (each kind of topology has its builder)."""
        raise NotImplementedError

    def __init__(self, loaded: LoadedIntent, catalog: Catalog):
        self.loaded = loaded
        self.intent = loaded.intent
        self.catalog = catalog
        self.fabric = Fabric(name=self.intent.fabric.name, loaded=loaded, catalog=catalog)
        self.findings: list[Finding] = []
        self._alloc: dict[str, CageAllocator] = {}
        self._role_index: dict[str, int] = {}

    # ------------------------------------------------------------------ findings
    def error(self, rule: str, message: str, path: PathKey, *, key: bool = False,
              **kw: Any) -> None:
        self.findings.append(self.loaded.finding(rule, message, path, key=key, **kw))

    def fail_if_errors(self) -> None:
        if self.findings:
            raise IntentError(self.findings)

    # ------------------------------------------------------------------ devices
    def platform_name(self, role: str, name: str, explicit: str | None,
                      explicit_path: PathKey | None) -> tuple[str | None, PathKey]:
        """The catalog platform of a switch: device override > explicit > platforms.<role>."""
        ov = self.device_setting(name, "platform")
        if ov is not None:
            return ov
        if explicit is not None and explicit_path is not None:
            return explicit, explicit_path
        role_ov = self.intent.overrides.roles.get(role)  # type: ignore[call-overload]
        if role_ov is not None and role_ov.platform is not None:
            return role_ov.platform, ("overrides", "roles", role, "platform")
        return self.intent.platforms.get(role), ("platforms", role)  # type: ignore[call-overload]

    def device_setting(self, name: str, field: str) -> tuple[Any, PathKey] | None:
        """Most specific `overrides.devices` entry (exact name beats glob) that sets `field`."""
        for key in match_device(self.intent.overrides.devices, name):
            value = getattr(self.intent.overrides.devices[key], field)
            if value is not None:
                return value, ("overrides", "devices", key, field)
        return None

    def check_platform(self, platform: str | None, path: PathKey, role: str, name: str) -> bool:
        if platform is None:
            self.error("REF002", f"no platform for {role} '{name}': set platforms.{role} "
                       f"(one of: {', '.join(sorted(self.catalog.platforms))})", path)
            return False
        if platform not in self.catalog.platforms:
            self.error("REF002", f"unknown platform '{platform}'"
                       f"{suggest(platform, tuple(self.catalog.platforms))}; known: "
                       f"{', '.join(sorted(self.catalog.platforms))}", path)
            return False
        return True

    def add_device(self, name: str, role: str, tier: int, platform: str | None,
                   platform_path: PathKey | None = None, **attrs: Any) -> Device:
        index = self._role_index.get(role, 0)
        self._role_index[role] = index + 1
        dev = Device(name=name, role=role, tier=tier, platform=platform, index=index,
                     mtu=self.intent.fabric.frame, **attrs)
        self.fabric.devices[name] = dev
        if platform_path is not None:
            dev.origin["platform"] = platform_path
        if tier > 0 and platform is not None:
            self._alloc[name] = CageAllocator(self.catalog.platforms[platform])
        return dev

    # ------------------------------------------------------------------ ports and links
    def need_cages(
        self, dev: Device, groups: Sequence[tuple[int, int, PathKey]], path: PathKey
    ) -> bool:
        """Check that port groups [(count, speed, where the speed is set)] fit the switch.

        An unsupported speed is reported at its own key, too few cages at `path`.
        """
        alloc = self._alloc.get(dev.name)
        if alloc is None:
            return False
        plat = alloc.platform
        total = 0
        for count, speed, speed_path in groups:
            cages = alloc.cages_for(count, speed)
            if cages is None:
                speeds = ", ".join(format_speed(s) for s in plat.speeds())
                self.error("TOP002", f"{dev.role} {dev.name}: platform {dev.platform} has no "
                           f"{format_speed(speed)} ports (speeds: {speeds})", speed_path,
                           device=dev.name)
                return False
            total += cages
        if total > alloc.free_cages:
            need = " + ".join(f"{c} x {format_speed(s)}" for c, s, _ in groups)
            self.error("TOP001", f"{dev.role} {dev.name} needs {need} = {total} cages but "
                       f"platform {dev.platform} has {alloc.free_cages} free of {plat.cages}",
                       path, device=dev.name)
            return False
        return True

    def take_names(self, dev: Device, count: int, speed: int) -> list[str]:
        return self._alloc[dev.name].take(count, speed)

    def switch_ports(self, dev: Device, count: int, speed: int, cable: float) -> list[Port]:
        names = self.take_names(dev, count, speed)
        mtu = dev.mtu
        # positional (device, name, speed, cable, lossless, mtu): keywords cost more, per port
        ports = [Port(dev, n, speed, cable, True, mtu) for n in names]
        dev.ports.extend(ports)
        return ports

    def named_port(self, dev: Device, name: str, speed: int, cable: float) -> Port:
        port = Port(dev, name, speed, cable, True, dev.mtu)
        dev.ports.append(port)
        return port

    def connect(self, a: Port, b: Port, lossless: bool = True, source: PathKey = ()) -> Link:
        a.peer = b
        b.peer = a
        a.link = b.link = link = Link(a, b, lossless, source)
        a.lossless = b.lossless = lossless
        self.fabric.links.append(link)
        return link
