"""Explicit topology: devices with tiers and links as written (brownfield fabrics, odd shapes)."""

from __future__ import annotations

from netcfg.intent.base import suggest
from netcfg.intent.model import ROLE_OF_TIER, Explicit
from netcfg.topology.build import FabricBuilder
from netcfg.topology.fabric import Device, Port


class ExplicitBuilder(FabricBuilder):
    def build(self) -> None:
        t = self.intent.topology
        assert isinstance(t, Explicit)
        for name, spec in t.devices.items():
            role = spec.role or ROLE_OF_TIER[spec.tier]
            path = ("topology", "devices", name)
            if spec.tier == 0:
                nic = spec.nic or "connectx-7"
                if nic not in self.catalog.nics:
                    self.error(
                        "REF002",
                        f"unknown NIC '{nic}'{suggest(nic, tuple(self.catalog.nics))}",
                        path + ("nic",),
                    )
                    continue
                self.add_device(name, role, 0, nic, path + ("nic",) if spec.nic else None)
                continue
            platform, ppath = self.platform_name(role, name, spec.platform, path + ("platform",))
            if self.check_platform(platform, ppath, role, name):
                self.add_device(name, role, spec.tier, platform, ppath)
        self.fail_if_errors()
        self._links(t)

    def _links(self, t: Explicit) -> None:
        # Feasibility first: count each switch's ports per speed.
        demand: dict[str, dict[int, int]] = {}
        wanted: dict[str, set[str]] = {}
        for i, link in enumerate(t.links):
            path = ("topology", "links", i)
            a, b = link.ends
            shorthand = isinstance(self.loaded.data["topology"]["links"][i], list)
            for end_no, end in enumerate((a, b)):
                if end not in self.fabric.devices:
                    self.error("REF003", f"link end '{end}' is not a device"
                               f"{suggest(end, tuple(self.fabric.devices))}",
                               path + ((end_no,) if shorthand else ("ends", end_no)))
            if a == b:
                self.error("TOP005", f"link connects '{a}' to itself", path)
            speed = link.speed or t.link_defaults.speed
            for end_no, end in enumerate((a, b)):
                if end in self.fabric.devices and self.fabric.devices[end].tier > 0:
                    demand.setdefault(end, {}).setdefault(speed, 0)
                    demand[end][speed] += 1
                    if link.ports:
                        wanted.setdefault(end, set()).add(link.ports[end_no])
        self.fail_if_errors()
        # Auto-assigned names come from per-speed pools that skip explicitly wanted names.
        self._pool: dict[str, dict[int, list[str]]] = {}
        for name, by_speed in demand.items():
            dev = self.fabric.devices[name]
            order = sorted(by_speed.items(), key=lambda kv: (-kv[0], -kv[1]))
            groups = [(count, speed, ("topology", "devices", name)) for speed, count in order]
            if self.need_cages(dev, groups, ("topology", "devices", name)):
                taken = wanted.get(name, set())
                self._pool[name] = {
                    speed: [n for n in self.take_names(dev, count, speed) if n not in taken][::-1]
                    for speed, count in order
                }
        self.fail_if_errors()
        used: dict[str, set[str]] = {}
        for i, link in enumerate(t.links):
            path = ("topology", "links", i)
            speed = link.speed or t.link_defaults.speed
            cable = link.cable if link.cable is not None else t.link_defaults.cable
            ends = []
            for end_no, name in enumerate(link.ends):
                dev = self.fabric.devices[name]
                want_port = link.ports[end_no] if link.ports else None
                port = self._port(dev, want_port, speed, cable)
                if want_port is not None and want_port in used.setdefault(name, set()):
                    self.error("TOP005", f"port {name}:{want_port} is used by two links",
                               path + ("ports", end_no))
                used.setdefault(name, set()).add(port.name)
                port.description = link.description
                ends.append(port)
            self.connect(ends[0], ends[1], link.lossless, source=path)
        self.fail_if_errors()

    def _port(self, dev: Device, wanted: str | None, speed: int, cable: float) -> Port:
        if wanted is not None:
            return self.named_port(dev, wanted, speed, cable)
        if dev.tier == 0:
            nic = self.catalog.nics[dev.platform]  # type: ignore[index]
            return self.named_port(dev, nic.port_name.format(port0=len(dev.ports)), speed, cable)
        return self.named_port(dev, self._pool[dev.name][speed].pop(), speed, cable)
