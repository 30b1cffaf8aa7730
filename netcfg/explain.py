"""`explain`: every effective value of a device or port, and the place in the intent it came from.

Values the user wrote cite `file:line:col`; values nobody wrote say `default`; values that
come from the platform catalog cite it. Derived numbers (headroom, ECN) join this tree as
their layers land.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netcfg.intent.units import format_length, format_size, format_speed, format_time
from netcfg.intent.yamlsrc import PathKey, dotted
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric, Port


@dataclass
class Row:
    key: str
    value: Any
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "source": self.source}


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.title, "rows": [r.as_dict() for r in self.rows]}


class _Explainer:
    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self.li = fabric.loaded

    def src(self, path: PathKey | None) -> str:
        if not path:
            return "default"
        if self.li.is_set(path):
            return f"{self.li.pos(path)} ({dotted(path)})"
        return f"default ({dotted(path)})"

    def row(self, key: str, value: Any, path: PathKey | None) -> Row:
        return Row(key, value, self.src(path))

    # ------------------------------------------------------------------ device
    def device(self, dev: Device) -> list[Section]:
        cat = self.fabric.catalog
        ident = Section("device")
        ident.rows += [Row("name", dev.name, "topology"), Row("role", dev.role, "topology"),
                       Row("tier", dev.tier, "topology")]
        if dev.is_switch:
            plat = cat.platforms[dev.platform]  # type: ignore[index]
            asic = cat.asics[plat.asic]
            ident.rows += [
                self.row("platform", dev.platform, dev.origin.get("platform")),
                Row("nos", plat.nos, f"catalog {dev.platform}"),
                Row("model", f"{plat.vendor} {plat.model}", f"catalog {dev.platform}"),
                Row("asic", f"{asic.vendor} {plat.asic}", f"catalog {dev.platform}"),
                Row("buffer", format_size(asic.buffer), f"catalog {plat.asic}: {asic.sources['buffer']}"),
                Row("cell", f"{asic.cell}B", f"catalog {plat.asic}: {asic.sources['cell']}"),
            ]
        else:
            ident.rows.append(self.row("nic", dev.platform, dev.origin.get("platform")))
        sections = [ident]
        if dev.is_switch:
            a = self.li.intent.addressing
            routing = Section("routing and addressing")
            routing.rows += [
                self.row("asn", dev.asn, dev.origin.get("asn")),
                self.row("loopback", f"{dev.loopback_ip}/32", ("addressing", "loopbacks")),
                self.row("management", dev.management,
                         ("devices", dev.name, "management", "address")
                         if self.li.is_set(("devices", dev.name, "management"))
                         else ("addressing", "management") if a.management else None),
                self.row("mtu", dev.mtu, dev.origin.get("mtu")),
                self.row("ecmp seed", dev.ecmp_seed, dev.origin.get("ecmp_seed")),
                self.row("ecmp fields", ", ".join(self.li.intent.ecmp.fields), ("ecmp", "fields")),
                self.row("ecmp mode", self.li.intent.ecmp.mode, ("ecmp", "mode")),
                self.row("max paths", effective.max_paths(self.fabric, dev),
                         ("routing", "max_paths")),
            ]
            sections.append(routing)
            sections.append(self.qos(dev, None))
        else:
            sections.append(self.dcqcn())
        ports = Section("ports")
        by_speed: dict[int, int] = {}
        for p in dev.ports:
            by_speed[p.speed] = by_speed.get(p.speed, 0) + 1
        ports.rows += [Row(f"{format_speed(s)} ports", n, "topology") for s, n in sorted(by_speed.items())]
        sections.append(ports)
        return sections

    def qos(self, dev: Device, port: Port | None) -> Section:
        intent = self.li.intent
        qos = intent.qos
        sec = Section("qos")
        for name, cls in qos.classes.items():
            base = ("qos", "classes", name)
            dscp = ",".join(map(str, cls.dscp)) or "-"
            if name == qos.default_class:
                dscp += " + unmapped"
            sec.rows.append(self.row(f"class {name}", f"dscp {dscp} -> tc {cls.traffic_class}",
                                     base + ("dscp",)))
            sec.rows.append(self.row(f"class {name} lossless", cls.lossless, base + ("lossless",)))
            sched = cls.scheduling
            sec.rows.append(self.row(f"class {name} scheduling", sched.mode +
                                     (f" {sched.weight}%" if sched.weight else ""),
                                     base + ("scheduling",)))
            ecn = qos.ecn_of(name)
            if ecn.enabled:
                text = ", ".join(f"{k} {format_size(v) if isinstance(v, int) and k != 'max_probability' else v}"
                                 for k, v in (("min", ecn.min), ("max", ecn.max),
                                              ("max_probability", ecn.max_probability))
                                 if v is not None) or "thresholds derived from the buffer"
                sec.rows.append(self.row(f"class {name} ecn", text, base + ("ecn",)))
            else:
                sec.rows.append(self.row(f"class {name} ecn", "off", base + ("ecn",)))
        sec.rows.append(self.row("pfc priorities", qos.pfc_priorities(), ("qos", "pfc", "priorities")))
        for key, (value, path) in effective.watchdog(self.fabric, dev, port).items():
            shown = format_time(value) if isinstance(value, float) else value
            sec.rows.append(self.row(f"pfc watchdog {key}", shown, path))
        return sec

    def dcqcn(self) -> Section:
        """NIC congestion control; CNP marking defaults to the intent's CNP class."""
        intent = self.li.intent
        dc = intent.dcqcn
        sec = Section("nic dcqcn (mlx5)")
        sec.rows.append(self.row("enabled", dc.enabled, ("dcqcn", "enabled")))
        for part in ("rp", "np"):
            for name, value in getattr(dc, part):
                path = ("dcqcn", part, name)
                if name in ("cnp_dscp", "cnp_802p_prio"):
                    value, path = effective.cnp_marking(intent)[name]
                sec.rows.append(self.row(f"roce_{part} {name}", value, path))
        return sec

    # ------------------------------------------------------------------ port
    def port(self, port: Port) -> list[Section]:
        sec = Section(f"port {port.id}")
        link = port.link
        src = link.source if link else ()
        origin = port.origin or {}
        speed_path = src + ("speed",) if src and self.li.is_set(src + ("speed",)) else (
            ("topology", "link_defaults", "speed") if src[:2] == ("topology", "links") else src + ("speed",))
        cable_path = origin.get("cable") or (src + ("cable",) if self.li.is_set(src + ("cable",))
                                             else ("topology", "link_defaults", "cable")
                                             if src[:2] == ("topology", "links") else src + ("cable",))
        sec.rows += [
            self.row("speed", format_speed(port.speed), speed_path),
            self.row("cable", format_length(port.cable), cable_path),
            self.row("mtu", port.mtu, origin.get("mtu") or port.device.origin.get("mtu")),
            self.row("lossless", port.lossless, origin.get("lossless") or (
                src + ("lossless",) if src[:2] == ("topology", "links") else None)),
            self.row("peer", port.peer.id if port.peer else None, src),
            self.row("address", port.ip, ("addressing", "host_links" if port.link and
                                          port.link.kind.startswith("host") else "fabric_links")),
        ]
        if port.description is not None:
            sec.rows.append(self.row("description", port.description, origin.get("description") or src))
        out = [sec]
        if port.device.is_switch:
            out.append(self.qos(port.device, port))
        return out


def explain(fabric: Fabric, device: Device, port: Port | None = None) -> list[Section]:
    ex = _Explainer(fabric)
    return ex.port(port) if port is not None else ex.device(device)
