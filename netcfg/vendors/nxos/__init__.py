"""Cisco NX-OS: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from netcfg.findings import Finding
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import unverified, which_switches, without_gateway
from netcfg.vendors.nxos import render, routing
from netcfg.vendors.nxos.deploy import NxosDeploy
from netcfg.vendors.nxos.facts import FACTS
from netcfg.vendors.nxos.render import CNP_QUEUE


class Nxos(ModuleVendor):
    facts = FACTS
    template = "nxos/device.j2"
    extension = "cfg"
    deploy = NxosDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    pfc_unverifiable = (
        "`show interface priority-flow-control`, `show queuing interface` and `show queuing "
        "pfc-queue`: no published capture of their NX-API JSON or text to test a parser on")

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        if not devices:
            return []
        return (self._logins(fabric, devices) + self._cnp(fabric, devices)
                + self._management_route(fabric, devices) + self._banners(fabric, devices)
                + self._port_multiplier(fabric, devices))

    def _port_multiplier(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP019 where a port's watchdog detection differs from its switch's, so the file
        holds `priority-flow-control watch-dog interface-multiplier <n>`: Cisco's DME has
        the attribute (`interfaceMutiplier`, 0-40) and the QoS guide's watchdog workflow
        names it, but no Cisco text found spells the CLI line
        (../shared/specs/vendors/nxos-sources.md, "Not found")."""
        if not fabric.loaded.intent.overrides.ports:
            return []
        for dev in devices:
            base = effective.watchdog(fabric, dev)["detection"][0]
            for port in dev.ports:
                if not port.lossless or port.peer is None:
                    continue
                value, path = effective.watchdog(fabric, dev, port)["detection"]
                if value != base:
                    return unverified(
                        fabric, self.name, devices,
                        "priority-flow-control watch-dog interface-multiplier",
                        "a port's watchdog detection in polls; Cisco's DME has it "
                        "(interfaceMutiplier, 0-40), no Cisco text spells the line", path)
        return []

    def _banners(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP010 for the post-login banner: NX-OS's is `banner exec` (Cisco's DME
        `aaaPostLoginBanner`), a CLI spelling no Cisco text found confirms, so none is
        rendered. CAP019 for a login banner of several lines: `banner motd <d>` is entered
        with its lines and `<d>` (Cisco's cisco.nxos nxos_banner, tested on NX-OS), but how
        `show running-config` prints such a banner, and so what a diff compares, is not
        verified (../shared/specs/vendors/nxos-sources.md)."""
        li = fabric.loaded
        banners = li.intent.management.banners
        if banners is None:
            return []
        out = []
        if banners.motd is not None:
            out.append(li.finding(
                "CAP010", f"nxos config does not state the post-login banner "
                f"({which_switches(self.name, devices)}): NX-OS's `banner exec` is confirmed "
                "by no Cisco text found; management.banners.login becomes its `banner motd`, "
                "shown before the login prompt", ("management", "banners", "motd"),
                severity="info", device=devices[0].name))
        if banners.login is not None and "\n" in banners.login:
            out += unverified(fabric, self.name, devices, "banner motd <d> ... <d>",
                              "how show running-config prints a banner of several lines is "
                              "not verified", ("management", "banners", "login"))
        return out

    def _management_route(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP021: a management address without a gateway renders no `vrf context
        management` (nor its default route). A push keeps the switch's own (deploy
        device_local), but the file alone, as a `configure replace` target, would remove the
        route the setup script gave the switch, which then answers only its management
        subnet."""
        return without_gateway(
            fabric, self.name, devices, "CAP021",
            f"{self.name} files state no management default route: without management.gateway "
            "netcfg push keeps the switch's own `vrf context management` and its "
            "`ip route 0.0.0.0/0`, but the file alone as a configure replace target removes them")

    def _logins(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP010 for the logins NX-OS gets no line for: `username ... password 5` takes a
        SHA-256 crypt hash (the SHA-512 one every other NOS takes is longer than the 64
        characters NX-OS allows), so a login without `sha256` stays off NX-OS switches,
        which keep their own."""
        li = fabric.loaded
        lacking = [n for n, u in sorted(li.intent.management.users.items()) if u.sha256 is None]
        if not lacking:
            return []
        return [li.finding(
            "CAP010", f"nxos config does not state the logins {', '.join(lacking)} "
            f"({which_switches(self.name, devices)}): NX-OS's `username ... password 5` takes "
            "a SHA-256 crypt hash; give "
            f"management.users.{lacking[0]}.sha256 (openssl passwd -5); the switches keep "
            "their own logins", ("management", "users", lacking[0]), severity="info",
            device=devices[0].name)]

    def _cnp(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP020: Cisco's RoCE designs mark CNP into qos-group 7 (a Cisco engineer's
        `roce_enable.py`: `--cnp-dscp 48` -> qos-group 7, `c-out-8q-q7 priority level 1`), the
        queue NX-OS's default policy already makes strict; the file puts a strict, lossy CNP
        class there whatever its traffic class (render.queue_of). Where it cannot (the class is
        ETS or lossless, or another class holds q7), CNP stays in its class's queue at
        priority level 1 beside q7, and this says why."""
        li = fabric.loaded
        qos = li.intent.qos
        cnp = qos.classes.get(qos.cnp_class)
        if cnp is None or cnp.traffic_class == CNP_QUEUE:
            return []
        other = next((n for n, c in sorted(qos.classes.items())
                      if c.traffic_class == CNP_QUEUE), None)
        if cnp.scheduling.mode != "strict":
            why = "its class is not strict"
        elif cnp.lossless:
            why = "its class is lossless"
        elif other is not None:
            why = f"class {other} uses q7"
        else:
            return []
        return [li.finding(
            "CAP020", f"nxos keeps CNP (class {qos.cnp_class}) in q{cnp.traffic_class}, not in "
            f"q7 where Cisco's RoCE designs put it, because {why} "
            f"({which_switches(self.name, devices)})",
            ("qos", "classes", qos.cnp_class, "traffic_class"),
            severity="warning", device=devices[0].name)]

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """The value the file's `mtu` statement holds."""
        return render.ip_mtu(l2_mtu)


VENDOR = Nxos()
