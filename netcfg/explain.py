"""`explain`: every effective value of a device or port, and the place in the intent it came from.

Values the user wrote cite `file:line:col`; values nobody wrote say `default`; values that
come from the platform catalog cite it. Derived numbers (headroom, buffer budget, ECN) show
their inputs with sources, then each step as `= formula` with the term in bytes.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any

from netcfg.intent.reach import reach_of
from netcfg.intent.units import format_length, format_size, format_speed, format_time
from netcfg.intent.yamlsrc import PathKey, dotted
from netcfg.physics import Physics
from netcfg.physics.ports import lanes_of
from netcfg.physics.result import Step, fmt
from netcfg.render.plan import group_name
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric, Port
from netcfg.topology.paths import Paths
from netcfg.vendors import vendor


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


def _step_row(step: Step) -> Row:
    value = fmt(step.value) + ("" if step.unit == "x" else step.unit)
    return Row(step.name, value, "= " + step.formula)


class _Explainer:
    def __init__(self, fabric: Fabric, physics: Physics | None):
        self.fabric = fabric
        self.li = fabric.loaded
        self.physics = physics

    def src(self, path: PathKey | None) -> str:
        if not path:
            return "default"
        if self.li.is_set(path):
            return f"{self.li.pos(path)} ({dotted(path)})"
        return f"default ({dotted(path)})"

    def row(self, key: str, value: Any, path: PathKey | None) -> Row:
        return Row(key, value, self.src(path))

    def _reach(self, port: Port) -> list[Row]:
        """How far the link's medium reaches at its lane rate, where the catalog says (the
        bound LNK005 holds the cable to)."""
        if port.link is None:
            return []
        medium = effective.link_medium(self.fabric, port.link)[0]
        got = reach_of(self.fabric, port.link, medium)
        if got is None:
            return []
        rate, reach, source = got
        return [Row("medium reach", f"{format_length(reach)} ({medium}, {format_speed(rate)} "
                    "a lane)", f"catalog media.{medium}: {source}")]

    def _stated_mtu(self, nos: str, frame: int) -> Row:
        """The intent's MTU (the largest frame, its 14-byte header counted) beside the number
        the NOS's file states for it, in the NOS's own meaning, from the NOS's one conversion
        (Vendor.reported_mtu): 9216 becomes IP MTU 9202 where the NOS states the IP packet."""
        stated = vendor(nos).reported_mtu(frame)
        if stated is None:
            return Row(f"mtu in the {nos} file", "not stated", "the NOS keeps its own")
        what = ("the frame, header included (media MTU)" if stated == frame
                else f"the IP packet: {frame} - 14" if stated == frame - 14
                else f"the most {nos} states (the frame would carry IP {frame - 14})")
        return Row(f"mtu in the {nos} file", stated,
                   f"{what}; {nos}'s MTU conversion (docs/render-{nos}.md)")

    def _kept(self, nos: str) -> str:
        """The preserve policy a push applies to this switch (netcfg/deploy/preserve.py):
        the NOS's defaults, the intent's additions, and what the device owns."""
        from netcfg.deploy.preserve import device_wins

        nos_vendor = vendor(nos)
        deploy = nos_vendor.deploy
        # the intent's own (root's password) only where the NOS's files carry one
        owned = list(deploy.device_owned) + (list(device_wins(self.li.intent))
                                             if nos_vendor.capabilities.root_authentication
                                             else [])
        text = ", ".join(deploy.policy(self.li.intent.management.preserve).keep)
        if owned:
            text += f"; the device's own {', '.join(owned)}"
        return text

    def _aaa(self) -> str:
        aaa = self.li.intent.management.aaa
        if aaa is None:
            return "none: the switch's own"
        return (f"{aaa.protocol} {', '.join(str(s) for s in aaa.servers)} (group {aaa.group}), "
                "key by reference, local logins as fallback")

    def raw_config(self, dev: Device) -> Section:
        """The raw_config entries the switch's file takes, in order: where each goes and
        why (its description), at the intent line that holds it."""
        section = Section("raw config")
        for i in dev.raw:
            entry = self.li.intent.raw_config[i]
            if entry.lines is not None:
                count = len(entry.lines.rstrip("\n").splitlines())
                what = f"{count} line{'s' * (count != 1)} at the {entry.at}"
            else:
                what = f"merge of {', '.join(sorted(entry.merge or {}))}"
            if entry.description:
                what += f": {entry.description}"
            section.rows.append(self.row(f"raw_config[{i}]", what, ("raw_config", i)))
        return section

    # ------------------------------------------------------------------ device
    def device(self, dev: Device) -> list[Section]:
        cat = self.fabric.catalog
        ident = Section("device")
        ident.rows += [Row("name", dev.name, "topology"), Row("role", dev.role, "topology"),
                       Row("tier", dev.tier, "topology")]
        if dev.description is not None:
            ident.rows.append(self.row("description", dev.description,
                                       dev.origin.get("description")))
        if dev.is_switch:
            plat = cat.platforms[dev.platform]  # type: ignore[index]
            asic = cat.asics[plat.asic]
            ident.rows += [
                self.row("platform", dev.platform, dev.origin.get("platform")),
                Row("nos", plat.nos, f"catalog {dev.platform}"),
                Row("model", f"{plat.vendor} {plat.model}", f"catalog {dev.platform}"),
                Row("asic", f"{asic.vendor} {plat.asic}", f"catalog {dev.platform}"),
                Row(
                    "buffer",
                    format_size(asic.buffer),
                    f"catalog {plat.asic}: {asic.sources['buffer']}",
                ),
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
                self.row("management gateway", dev.management_gateway,
                         ("devices", dev.name, "management", "gateway")
                         if self.li.is_set(("devices", dev.name, "management", "gateway"))
                         else ("management", "gateway")),
                self.row("mtu", dev.mtu, dev.origin.get("mtu")),
                self._stated_mtu(plat.nos, dev.mtu),
                self.row("ntp servers", ", ".join(dev.ntp_servers) or "none",
                         dev.origin.get("ntp_servers")),
                self.row("dns servers", ", ".join(dev.dns_servers) or "none",
                         dev.origin.get("dns_servers")),
                self.row("syslog servers", ", ".join(dev.syslog_servers) or "none",
                         dev.origin.get("syslog_servers")),
                self.row("syslog severity", dev.syslog_severity or "-",
                         dev.origin.get("syslog_severity")),
                self.row("snmp agent", "yes" if dev.snmp else "none", dev.origin.get("snmp")),
                self.row("snmp location", dev.snmp_location or "-",
                         dev.origin.get("snmp_location")),
                self.row("gnmi server", "yes" if dev.gnmi else "none", dev.origin.get("gnmi")),
                self.row("aaa servers", self._aaa(), dev.origin.get("aaa")),
                self.row("logins", ", ".join(f"{n} ({u.role})" for n, u in sorted(
                    self.li.intent.management.users.items())) or "the switch's own",
                    dev.origin.get("users")),
                self.row("cloudvision agent", "yes" if dev.cloudvision else "none",
                         dev.origin.get("cloudvision")),
                self.row("push keeps", self._kept(plat.nos),
                         ("management", "preserve")
                         if self.li.intent.management.preserve else None),
                self.row("ecmp seed", dev.ecmp_seed, dev.origin.get("ecmp_seed")),
                self.row("ecmp fields", ", ".join(self.li.intent.ecmp.fields), ("ecmp", "fields")),
                self.row("ecmp mode", self.li.intent.ecmp.mode, ("ecmp", "mode")),
                self.row("max paths", effective.max_paths(self.fabric, dev),
                         ("routing", "max_paths")),
            ]
            routing.rows += self.announcements(dev, plat.nos)
            sections.append(routing)
            if dev.raw:
                sections.append(self.raw_config(dev))
            sections.append(self.qos(dev, None))
            if self.physics is not None:
                sections.append(self.budget(dev))
        else:
            sections.append(self.dcqcn())
        ports = Section("ports")
        by_speed: dict[int, int] = {}
        for p in dev.ports:
            by_speed[p.speed] = by_speed.get(p.speed, 0) + 1
        ports.rows += [
            Row(f"{format_speed(s)} ports", n, "topology") for s, n in sorted(by_speed.items())
        ]
        sections.append(ports)
        return sections

    def announcements(self, dev: Device, nos: str) -> list[Row]:
        """What the switch originates and how its NOS says it, the ECMP width the topology
        offers it, and BFD per tier of peers: the routing design in the switch's terms."""
        caps = vendor(nos).capabilities
        width, toward = Paths(self.fabric).widest(dev)
        rows = [Row("ecmp width offered", f"{width} links toward {toward}" if toward else 0,
                    "topology (netcfg/topology/paths.py)")]
        subnets, blocks = dev.server_subnets(), dev.server_blocks()
        if subnets:
            shown = ", ".join(_block(b, subnets) for b in blocks[:4])
            rows.append(Row("server blocks", shown + (" ..." if len(blocks) > 4 else ""),
                            "addressing.host_links, in link order"))
            if caps.server_subnets == "blocks":
                lone = [str(b) for b in blocks if b.prefixlen == 31]
                how = "the blocks of several subnets, as discard routes it announces" + (
                    f"; {', '.join(lone[:3])} form no block and are not announced (CAP009)"
                    if lone else "")
            else:
                how = f"each of its {len(subnets)} server /31s as it is"
            rows.append(Row("announces", f"loopback /32; {how}", f"{nos} (docs/render-{nos}.md)"))
        else:
            rows.append(Row("announces", "loopback /32", "no server ports"))
        if dev.tier > 1:
            rows.append(self.row("transit", "passes every BGP-learned route on (eBGP, "
                                 "valley-free by the ASN plan)", ("routing", "asn")))
        peers = sorted({p.peer.device.role for p in dev.ports
                        if p.peer is not None and p.peer.device.is_switch})
        for role in peers:
            timers = effective.bfd(self.fabric, dev.role, role)
            link = effective.LINK_TIER.get(frozenset({dev.role, role}))
            path: PathKey = ("routing", "bfd", "tiers", link) \
                if link and self.li.is_set(("routing", "bfd", "tiers", link)) \
                else ("routing", "bfd")
            value = "off" if timers is None else f"{timers[0]} ms x {timers[1]}" + (
                "" if caps.bfd else f" asked; {nos} renders none (CAP011)")
            plural = "leaves" if role == "leaf" else f"{role}s"
            rows.append(self.row(f"bfd to {plural} (group {group_name(role)})", value, path))
        return rows

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
                sizes = (("min", ecn.min), ("max", ecn.max))
                parts = [f"{k} {format_size(v) if isinstance(v, int) else v}"
                         for k, v in sizes if v is not None]
                if ecn.max_probability is not None:
                    parts.append(f"max_probability {ecn.max_probability}")
                text = ", ".join(parts) or "thresholds derived from the buffer"
                sec.rows.append(self.row(f"class {name} ecn", text, base + ("ecn",)))
            else:
                sec.rows.append(self.row(f"class {name} ecn", "off", base + ("ecn",)))
        sec.rows.append(
            self.row("pfc priorities", qos.pfc_priorities(), ("qos", "pfc", "priorities"))
        )
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
                path: PathKey = ("dcqcn", part, name)
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
        speed_path = (
            src + ("speed",)
            if src and self.li.is_set(src + ("speed",))
            else (
                ("topology", "link_defaults", "speed")
                if src[:2] == ("topology", "links")
                else src + ("speed",)
            )
        )
        cable_path = origin.get("cable") or (
            src + ("cable",)
            if self.li.is_set(src + ("cable",))
            else ("topology", "link_defaults", "cable")
            if src[:2] == ("topology", "links")
            else src + ("cable",)
        )
        sec.rows += [
            self.row("speed", format_speed(port.speed), speed_path),
            self.row("cable", format_length(port.cable), cable_path),
            *self._reach(port),
            self.row("mtu", port.mtu, origin.get("mtu") or port.device.origin.get("mtu")),
            *([self._stated_mtu(self.fabric.platform(port.device).nos, port.mtu)]
              if port.device.is_switch else []),
            self.row("lossless", port.lossless, origin.get("lossless") or (
                src + ("lossless",) if src[:2] == ("topology", "links") else None)),
            self.row("peer", port.peer.id if port.peer else None, src),
            self.row("address", port.ip, ("addressing", "host_links" if port.link and
                                          port.link.kind.startswith("host") else "fabric_links")),
        ]
        if port.description is not None:
            sec.rows.append(
                self.row("description", port.description, origin.get("description") or src)
            )
        out = [sec]
        if port.device.is_switch:
            out.append(self.qos(port.device, port))
            if self.physics is not None and port in self.physics.ports:
                out.append(self.headroom(port))
            if self.physics is not None:
                out += self.ecn(port)
        return out

    # ------------------------------------------------------------------ physics
    def catalog_row(self, key: str, value: Any, entry: str, sources: dict[str, str],
                    field_name: str) -> Row:
        return Row(key, value, f"catalog {entry}: {sources.get(field_name, '')}")

    def headroom(self, port: Port) -> Section:
        assert self.physics is not None
        cat = self.fabric.catalog
        h = self.physics.ports[port]
        x = self.physics.headroom.inputs(port)
        plat_name = port.device.platform
        plat = cat.platforms[plat_name]  # type: ignore[index]
        asic = cat.asics[x.asic]
        buf = ("qos", "buffer")
        sec = Section(f"pfc headroom per lossless priority ({h.model})")
        sec.rows += [
            Row("model", h.model, f"catalog {x.asic}: headroom_model"),
            self.catalog_row("cell", f"{asic.cell}B", x.asic, asic.sources, "cell"),
            Row(
                "lanes",
                lanes_of(self.fabric, port),
                f"catalog {plat_name}: {plat.lanes_per_cage} lanes per cage / ports per cage "
                f"at {format_speed(port.speed)}",
            ),
            Row(
                "mtu local / peer",
                f"{x.mtu_local} / {x.mtu_peer}",
                f"port {port.id} / {port.peer.id if port.peer else '-'}",
            ),
            self.row("traffic pattern mtu", x.lossless_mtu, buf + ("traffic_pattern", "mtu")),
            self.row(
                "small packets",
                f"{x.small_packet_percentage}%",
                buf + ("traffic_pattern", "small_packet_percentage"),
            ),
            self.row(
                "shared headroom pool", x.shared_headroom_pool, buf + ("shared_headroom_pool",)
            ),
        ]
        if asic.spectrum is not None and h.model == "sonic_spectrum":
            k = asic.spectrum
            for name in ("pipeline_latency_kib", "mac_phy_delay_kib", "peer_response_time_kib"):
                sec.rows.append(self.catalog_row(name, getattr(k, name), x.asic, k.sources, name))
            sec.rows.append(
                Row(
                    "pause quanta",
                    "SONiC table",
                    "sonic-net/sonic-swss "
                    "cfgmgr/buffer_headroom_mellanox.lua (netcfg/physics/sonic_spectrum.py)",
                )
            )
        else:
            phys = cat.physics
            medium, medium_path = effective.link_medium(self.fabric, port.link)  # type: ignore[arg-type]
            sec.rows.append(self.row("medium", medium or "unknown (default)", medium_path))
            for name in ("propagation_ns_per_m", "pause_quanta", "interface_delay_bits"):
                sec.rows.append(self.catalog_row(name, "see steps", "physics", phys.sources, name))
        sec.rows += [_step_row(s) for s in h.steps]
        nos = plat.nos
        for key, value, formula in vendor(nos).explain_headroom(
                h.size, h.xoff, max(x.mtu_local, x.mtu_peer)):
            sec.rows.append(Row(f"{nos} {key}", f"{value}B",
                                f"= {formula} (docs/render-{nos}.md)"))
        n = self.physics.budgets[port.device.name].pgs
        sec.rows.append(Row("port reserves", format_size(h.size * n),
                            f"= size {h.size} · {n} lossless priorities"))
        return sec

    def ecn(self, port: Port) -> list[Section]:
        assert self.physics is not None
        out = []
        for cls in self.li.intent.qos.classes:
            e = self.physics.ecn(port, cls)
            if not e.enabled:
                continue
            sec = Section(f"ecn class {cls} (egress queue)")
            for name, value in (("min", e.min), ("max", e.max), ("probability", e.probability)):
                if e.source(name) is not None:
                    shown = f"{value}%" if name == "probability" else format_size(value)
                    sec.rows.append(self.row(name, shown, e.source(name)))
            sec.rows.append(self.row("rtt", format_time(self.li.intent.qos.buffer.rtt),
                                     ("qos", "buffer", "rtt")))
            sec.rows += [_step_row(s) for s in e.steps]
            out.append(sec)
        return out

    def budget(self, dev: Device) -> Section:
        assert self.physics is not None
        b = self.physics.budgets[dev.name]
        plat = self.fabric.platform(dev)
        asic = self.fabric.catalog.asics[plat.asic]
        buf = ("qos", "buffer")
        sec = Section("buffer budget")
        sec.rows += [
            Row("buffer", format_size(b.buffer), b.source) if b.source else
            self.catalog_row("buffer", format_size(b.buffer), plat.asic, asic.sources, "buffer"),
            self.row("lossless priorities", b.pgs, ("qos", "pfc", "priorities")),
            Row("lossless ports", len(b.ports), "topology (links with PFC at both ends)"),
            Row("reserved headroom", format_size(b.reserved),
                f"= sum of per-PG size over {len(b.ports)} ports · {b.pgs} priorities"),
        ]
        if b.shp_ratio is not None:
            sec.rows.append(self.row("over-subscribe ratio", b.shp_ratio,
                                     buf + ("shared_headroom_pool", "over_subscribe_ratio")))
            sec.rows.append(Row("shared headroom pool", format_size(b.shp_pool),
                                f"= sum of xoff / {b.shp_ratio}" +
                                (" (less 10240 per port, as SONiC)"
                                 if asic.headroom_model == "sonic_spectrum" else "")))
        kept = ""
        if b.nos_reserved:
            sec.rows.append(Row(f"{plat.nos} reserves", format_size(b.nos_reserved),
                                b.reserves_source))
            kept = f" − {plat.nos} reserves {b.nos_reserved}"
        sec.rows.append(
            Row("shared pool", format_size(b.shared),
                f"= buffer {b.buffer} − reserved {b.reserved} − shared headroom {b.shp_pool}"
                + kept))
        shared = "shared"
        if b.lossless_pool < 100:
            sec.rows += [
                self.row("lossless pool", f"{b.lossless_pool}%", buf + ("lossless_pool",)),
                Row("lossless shared", format_size(b.lossless_shared),
                    f"= shared {b.shared} · {b.lossless_pool}% ({plat.nos} splits the shared "
                    "buffer into a lossless and a lossy pool)"),
            ]
            shared = "lossless shared"
        sec.rows += [
            self.row("alpha", fmt(b.alpha), buf + ("dynamic_threshold",)),
            self.row("congested queues", b.congested, buf + ("congested_queues",)),
            Row("queue limit", format_size(b.queue_limit),
                f"= alpha · {shared} / (1 + congested · alpha) = {fmt(b.alpha)} · "
                f"{b.lossless_shared} / (1 + {b.congested} · {fmt(b.alpha)}): XOFF point of a "
                "busy PG, ECN stays below"),
        ]
        for p, h in b.costliest(3):
            sec.rows.append(Row(f"costly port {p.name}", format_size(h.size * b.pgs),
                                f"{format_speed(p.speed)}, {format_length(p.cable)} cable"))
        return sec


def explain(fabric: Fabric, device: Device, port: Port | None = None,
            physics: Physics | None = None) -> list[Section]:
    ex = _Explainer(fabric, physics)
    return ex.port(port) if port is not None else ex.device(device)


def _block(block: ipaddress.IPv4Network, subnets: list[ipaddress.IPv4Network]) -> str:
    """A server block as an engineer counts it: the server links (one /31 each) inside it,
    and the /31s it covers that no device holds (a lone /31 takes its free neighbour
    along: `10.128.1.0/27 (15 server links + 1 unused /31)`)."""
    links = sum(1 for s in subnets if s.subnet_of(block))
    unused = block.num_addresses // 2 - links
    text = f"{block} ({links} server link{'s' if links != 1 else ''}"
    if unused:
        text += f" + {unused} unused /31{'s' if unused != 1 else ''}"
    return text + ")"
