"""`netcfg docs`: fabric documentation for GitOps review, from the same DevicePlans the configs
render from (what AVD's fabric documentation gives EOS users, for all five NOSes).

    DIR/fabric.md          devices by role with platform, NOS and addresses; QoS classes;
                           the derived lossless chain (headroom, ECN, watchdog) per profile
    DIR/devices/NAME.md    one switch: interfaces (speed, peer, address, lossless), BGP peers,
                           QoS queues, headroom and ECN profiles, buffer pools, ECMP
    DIR/cabling.csv        one row per cable: both ends, speed, length, lossless

Values come from the plans, never from the rendered text, so a document and a config cannot
disagree about a value; Markdown tables escape `|` and line breaks in every cell.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from netcfg.render.plan import DevicePlan, PlanBuilder
from netcfg.topology.fabric import Fabric
from netcfg.validate import Validation


def documents(result: Validation) -> dict[str, str]:
    """Relative path -> text of every document for a valid intent."""
    fabric, physics = result.fabric, result.physics
    assert fabric is not None and physics is not None
    builder = PlanBuilder(fabric, physics)
    plans = [builder.plan(d) for d in sorted(fabric.switches(), key=lambda d: d.name)]
    files = {"fabric.md": _fabric(fabric, plans), "cabling.csv": cabling(fabric)}
    for plan in plans:
        files[f"devices/{plan.hostname}.md"] = _device(plan)
    return files


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return " ".join(text.replace("|", "\\|").split()) or "-"


def _table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return out + [""]


def _speed(mbps: int) -> str:
    return f"{mbps // 1000}G" if mbps % 1000 == 0 else f"{mbps}M"


def _bytes(n: int) -> str:
    return f"{n:,} B"


def _fabric(fabric: Fabric, plans: list[DevicePlan]) -> str:
    lines = [f"# Fabric {fabric.name}", ""]
    summary = fabric.summary()
    lines += [", ".join(f"{v} {k}" for k, v in summary.items()), ""]
    lines += ["## Switches", ""]
    lines += _table(("Switch", "Role", "Platform", "NOS", "Release", "Loopback", "Management",
                     "ASN"),
                    [(f"[{p.hostname}](devices/{p.hostname}.md)", p.role, p.platform, p.nos,
                      p.release, p.loopback, p.management, p.bgp.asn) for p in plans])
    if plans:
        qos = plans[0].qos
        lines += ["## Traffic classes", ""]
        lines += _table(("Class", "Traffic class", "DSCP", "Lossless", "Scheduling"),
                        [(c.name, c.tc, ", ".join(map(str, c.dscp)), "yes" if c.lossless
                          else "no", c.mode + (f" {c.weight}%" if c.weight else ""))
                         for c in qos.classes])
        lines += ["## Lossless chain per switch", ""]
        rows = []
        for p in plans:
            for h in p.qos.headroom_profiles:
                rows.append((p.hostname, h.name, _bytes(h.xoff), _bytes(h.size),
                             f"2^{h.dynamic_th}", h.model))
        lines += _table(("Switch", "Headroom profile", "XOFF", "Size", "Alpha", "Model"), rows)
    lines += ["Cabling: [cabling.csv](cabling.csv).", ""]
    return "\n".join(lines)


def _device(plan: DevicePlan) -> str:
    lines = [f"# {plan.hostname}", "", "[fabric](../fabric.md)", ""]
    lines += _table(("Role", "Platform", "Model", "NOS", "Release", "Loopback", "Management",
                     "MTU"),
                    [(plan.role, plan.platform, plan.model, plan.nos, plan.release,
                      plan.loopback, plan.management, plan.mtu)])
    lines += ["## Interfaces", ""]
    lines += _table(("Interface", "Speed", "Peer", "Address", "Cable", "Lossless", "PFC",
                     "Headroom", "Watchdog"),
                    [(i.name, _speed(i.speed), i.peer, i.address, f"{i.cable_m:g} m",
                      "yes" if i.lossless else "no", ",".join(map(str, i.pfc_priorities)),
                      i.headroom.name if i.headroom else None,
                      f"{i.watchdog.detection_ms} ms {i.watchdog.action}"
                      if i.watchdog and i.watchdog.enabled else None)
                     for i in plan.interfaces])
    bgp = plan.bgp
    lines += ["## BGP", "", f"AS {bgp.asn}, router id {bgp.router_id}, maximum-paths "
              f"{bgp.maximum_paths}; announces {', '.join(bgp.networks) or 'nothing'}", ""]
    lines += _table(("Neighbor", "Remote AS", "Peer", "Peer port", "Local port", "Group"),
                    [(n.address, n.remote_as, n.name, n.peer_port, n.interface, n.group)
                     for n in bgp.neighbors])
    qos = plan.qos
    lines += ["## QoS", ""]
    lines += _table(("Class", "Queue", "DSCP", "Lossless", "Scheduling"),
                    [(c.name, c.tc, ", ".join(map(str, c.dscp)), "yes" if c.lossless
                      else "no", c.mode + (f" {c.weight}%" if c.weight else ""))
                     for c in qos.classes])
    lines += _table(("Headroom profile", "XON", "XOFF", "Size", "Alpha"),
                    [(h.name, _bytes(h.xon), _bytes(h.xoff), _bytes(h.size), f"2^{h.dynamic_th}")
                     for h in qos.headroom_profiles])
    lines += _table(("ECN profile", "Queue", "Kmin", "Kmax", "Pmax"),
                    [(e.name, e.queue, _bytes(e.min), _bytes(e.max), f"{e.probability}%")
                     for e in qos.ecn_profiles])
    ecmp = plan.ecmp
    lines += ["## ECMP", "", f"{ecmp.mode} hashing on {', '.join(ecmp.fields)}, seed "
              f"{ecmp.seed}", ""]
    management = _management(plan)
    if management:
        lines += ["## Management", ""] + _table(("Setting", "Value"), management)
    return "\n".join(lines)


def _management(plan: DevicePlan) -> list[tuple[str, object]]:
    """The management plane the intent gives this switch, as the plan has it (what its NOS
    file states of it is docs/render-<nos>.md's; secrets are named, never shown)."""
    rows: list[tuple[str, object]] = []
    if plan.management_gateway:
        rows.append(("default route (management VRF)", plan.management_gateway))
    for what, servers in (("NTP servers", plan.ntp_servers), ("DNS servers", plan.dns_servers)):
        if servers:
            rows.append((what, ", ".join(servers)))
    if plan.syslog_servers:
        rows.append(("syslog servers", f"{', '.join(plan.syslog_servers)} "
                     f"({plan.syslog_severity} and more severe)"))
    if plan.snmp is not None:
        rows.append(("SNMP", "; ".join(x for x in (
            plan.snmp.location and f"location {plan.snmp.location}",
            plan.snmp.contact and f"contact {plan.snmp.contact}",
            plan.snmp.community and "read-only community (by reference)") if x) or "agent"))
    if plan.aaa is not None:
        rows.append(("AAA", f"{plan.aaa.protocol} group {plan.aaa.group}: "
                     f"{', '.join(plan.aaa.servers)}, key by reference; local logins as "
                     "fallback"))
    if plan.gnmi is not None:
        rows.append(("gNMI", f"port {plan.gnmi.port or 'the NOS default'}, TLS "
                     f"{plan.gnmi.certificate or 'the switch default'}"))
    if plan.cloudvision is not None:
        rows.append(("CloudVision", ", ".join(plan.cloudvision.addresses)))
    if plan.banners is not None:
        rows += [(f"{which} banner", text.splitlines()[0] + (" ..." if "\n" in text else ""))
                 for which, text in (("login", plan.banners.login), ("motd", plan.banners.motd))
                 if text]
    if plan.users:
        rows.append(("logins", ", ".join(f"{n} ({r})" for n, r in plan.users.items())))
    if plan.raw:
        rows.append(("raw_config", ", ".join(f"[{p.index}]" for p in plan.raw)))
    return rows


def cabling(fabric: Fabric) -> str:
    """One row per cable, ends in tier order (host before leaf before spine)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("device_a", "port_a", "device_b", "port_b", "speed", "cable_m",
                     "lossless", "kind"))
    rows = []
    for link in fabric.links:
        a, b = sorted((link.a, link.b), key=lambda p: (p.device.tier, p.device.name, p.name))
        rows.append((a.device.name, a.name, b.device.name, b.name, _speed(a.speed),
                     f"{a.cable:g}", "yes" if link.lossless else "no", link.kind))
    writer.writerows(sorted(rows))
    return out.getvalue()
