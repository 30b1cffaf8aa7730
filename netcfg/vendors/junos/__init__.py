"""Juniper Junos OS Evolved: capabilities, rendering, reading and deployment."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from netcfg.findings import Finding
from netcfg.intent.units import format_size
from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import raw
from netcfg.vendors.base import ModuleVendor
from netcfg.vendors.checks import unstated, unverified, which_switches, without_gateway
from netcfg.vendors.junos import pfcstate, render, routing, syntax
from netcfg.vendors.junos.deploy import JunosDeploy
from netcfg.vendors.junos.facts import FACTS, banner

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.verify.pfc import PfcState


class Junos(ModuleVendor):
    facts = FACTS
    template = "junos/device.j2"
    extension = "conf"
    deploy = JunosDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    filters = {"junos_string": render.quote, "junos_banner": banner}

    def add_raw(self, text: str, pieces: Sequence[raw.RawPiece]) -> str:
        """Raw statements merged into netcfg's hierarchy (syntax.merge_statements), not a
        second `system { }` after it: no Juniper text found says how one loaded file that
        states a block twice is read."""
        for piece in pieces:
            text = syntax.merge_statements(text, piece.lines or "", piece.at == "start")
        return text

    def raw_settings(self, text: str) -> list[raw.Setting]:
        return [((), statement) for statement in syntax.statements(text)]

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        # drop-profile fill levels are percents of the queue buffer, which the text omits
        return render.read(text, queue_buffer=plan.qos.queue_limit)

    def _strict_queues(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """Juniper, "Defining CoS Queue Scheduling Priority" (traffic-mgmt-qfx), platform
        table: on QFX5200 several strict-high queues are taken, each served strictly, the
        higher-numbered first; on QFX5100 and EX4600 only one forwarding-class set may be
        strict-high; the CLI reference's `priority` page says one queue per interface. No text
        found says which holds on the QFX5220/5230/5240 (Junos OS Evolved)."""
        classes = fabric.loaded.intent.qos.classes
        strict = sorted(c.traffic_class for c in classes.values()
                        if c.scheduling.mode == "strict")
        name, queue = render.NETWORK_CONTROL
        if queue not in {c.traffic_class for c in classes.values()} and name not in classes:
            strict.append(queue)  # the routing engine's own class, strict (render.py)
        if len(strict) < 2:
            return []
        return unverified(fabric, self.name, devices, "priority strict-high",
                          f"on queues {', '.join(map(str, strict))}: Juniper documents several "
                          "strict-high queues on QFX5200, the highest queue served first, and "
                          "one on QFX5100", ("qos", "classes"))

    def _management_instance(self, fabric: Fabric, devices: list[Device]) -> list[Finding]:
        """CAP027: a management address without a gateway renders no `system
        management-instance` and no `mgmt_junos` route. A push keeps the switch's own
        (deploy.device_local), but the file alone would take them away, and the management
        agents (NTP, DNS, syslog, AAA) are rendered in inet.0, where the switch has no route
        to them if its management port sits in mgmt_junos."""
        return without_gateway(
            fabric, self.name, devices, "CAP027",
            f"{self.name} files move no management instance or route: without "
            "management.gateway netcfg push keeps the switch's own `system management-instance` "
            "and `routing-instances mgmt_junos`, but the file loaded alone removes them, and "
            "NTP, DNS, syslog and AAA are rendered in the default instance")

    def _ecn_basis(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """CAP028, once: Juniper's fill-level page defines a fill level as the "fullness of
        the queue ... expressed as a percentage", but no Juniper text says what a queue's
        100 % is on the QFX5230/5240, whose queues draw on a dynamic shared buffer. netcfg
        keeps the intent's byte thresholds (one number for every NOS of the fabric) and
        converts them against the queue's dynamic limit; Juniper's own AI configs state
        percents instead (Apstra 6.1 DCQCN configlet fill-level [ 55 90 ], the AI JVD
        configlet [ 20 60 ]). So the bytes are unverified on Junos, and validate says so with
        the numbers written."""
        for dev in devices:
            limit = physics.budgets[dev.name].queue_limit
            for port in dev.ports:
                for cls in fabric.loaded.intent.qos.classes:
                    e = physics.ecn(port, cls)
                    levels = render.writable_levels(e.min, e.max, limit) if e.enabled else None
                    if levels is None:
                        continue
                    path = e.source("min") or ("qos", "classes", cls, "ecn")
                    return [fabric.loaded.finding(
                        "CAP028", f"{self.name} writes ECN thresholds as fill levels, percents "
                        f"of the queue's fullness ({which_switches(self.name, devices)}): class "
                        f"{cls}'s {format_size(e.min)}/{format_size(e.max)} become fill-level "
                        f"[ {levels[0]:.3f} {levels[1]:.3f} ] of the queue's dynamic limit "
                        f"({format_size(limit)} on {dev.name}), a base no Juniper text states; "
                        "Juniper's own AI configs mark at [ 55 90 ] (Apstra 6.1) or [ 20 60 ] "
                        "(AI JVD). The byte thresholds are unverified on Junos",
                        path, severity="warning", device=dev.name, interface=port.name)]
        return []

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """ECN006: Junos writes ECN thresholds as percents of the queue buffer (nine fraction
        digits); a pair outside (0, 100) % of it (Juniper's fill-level page: "Do not configure
        the last fill level as 100 percent"), or not in order, cannot be written. CAP010
        for a gNMI server asked without a certificate (Junos takes gRPC over TLS only). CAP019
        for `priority strict-high` on more than one queue (_strict_queues). CAP027 for a
        management address without a gateway (_management_instance). CAP028 for the ECN
        thresholds' unverified base (_ecn_basis). (CAP032, a keepalive Junos cannot state, is
        the capability table's: bgp_keepalive.)"""
        out: list[Finding] = self._strict_queues(fabric, devices)
        out += self._management_instance(fabric, devices)
        telemetry = fabric.loaded.intent.management.telemetry
        if telemetry is not None and telemetry.gnmi is not None \
                and telemetry.gnmi.certificate is None:
            out += unstated(fabric, self.name, devices, "gnmi", "Junos OS Evolved's gRPC "
                            "server takes TLS only (extension-service request-response grpc "
                            "ssl); set management.telemetry.gnmi.certificate to a local "
                            "certificate on the switches")
        if physics is None:
            return out
        out += self._ecn_basis(fabric, devices, physics)
        li, classes = fabric.loaded, fabric.loaded.intent.qos.classes
        first: dict[tuple, tuple[str, str, str]] = {}
        count: dict[tuple, int] = {}
        seen: set[tuple[str, int, str]] = set()
        for dev in devices:
            limit = physics.budgets[dev.name].queue_limit
            for port in dev.ports:
                for cls in classes:
                    if (dev.name, port.speed, cls) in seen:
                        continue
                    seen.add((dev.name, port.speed, cls))
                    e = physics.ecn(port, cls)
                    if not e.enabled or not 0 < e.min < e.max \
                            or render.writable_levels(e.min, e.max, limit) is not None:
                        continue
                    path = e.source("min") or ("qos", "classes", cls, "ecn")
                    count[path] = count.get(path, 0) + 1
                    first.setdefault(path, (
                        f"class {cls}: Junos writes ECN thresholds as percents of the "
                        f"queue buffer ({format_size(limit)}); {format_size(e.min)}/"
                        f"{format_size(e.max)} do not map to two distinct fill levels in "
                        "(0, 100) % (Juniper: the last fill level must not be 100 percent)",
                        dev.name, port.name))
        for path, (message, device, interface) in first.items():
            more = count[path] - 1
            out.append(li.finding("ECN006", message + (f" (and on {more} more)" if more else ""),
                                  path, device=device, interface=interface))
        return out

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """The value the file's `mtu` statement holds."""
        return render.media_mtu(l2_mtu)

    def read_pfc(self, driver: NetworkDriver) -> PfcState | None:
        """Lossless-queue drops from `show interfaces queue` (pfcstate.py)."""
        return pfcstate.read(driver)


VENDOR = Junos()
