"""`netcfg docs`: fabric documentation for GitOps review, from the same DevicePlans the configs
render from (what AVD's fabric documentation gives EOS users, for all five NOSes).

    DIR/fabric.md          devices by role with platform, NOS and addresses; QoS classes;
                           the PFC headroom each switch's file states
    DIR/devices/NAME.md    one switch: interfaces (speed, peer, address, lossless, watchdog),
                           BGP peers, QoS queues, headroom and ECN profiles, ECMP, and what
                           the file leaves to the switch
    DIR/cabling.csv        one row per cable: both ends, speed, length, lossless

Values come from the plans, never from the rendered text, so a document and a config cannot
disagree about a value; Markdown tables escape `|` and line breaks in every cell. A switch's
page describes what its NOS file states, not every value of the plan: one switch-wide headroom
where the NOS sets one (EOS), no hash seed where it has none, the watchdog and hash fields as
the NOS's reader finds them in the file, and a list of what the file leaves to the switch. Those
facts come from each NOS's capabilities (netcfg/vendors/<nos>/capabilities.py, with
netcfg.vendors.checks.reported_fields) and its `expected` facts, each stated in one place.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from netcfg.nos import Capabilities
from netcfg.nos import facts as nos_facts
from netcfg.render.facts import QosFacts, spoken
from netcfg.render.plan import DevicePlan, HeadroomProfile, PlanBuilder
from netcfg.topology.fabric import Fabric
from netcfg.validate import Validation


def documents(result: Validation) -> dict[str, str]:
    """Relative path -> text of every document for a valid intent."""
    fabric, physics = result.fabric, result.physics
    assert fabric is not None and physics is not None
    builder = PlanBuilder(fabric, physics)
    plans = [builder.plan(d) for d in sorted(fabric.switches(), key=lambda d: d.name)]
    said = {p.hostname: stated(p) for p in plans}
    files = {"fabric.md": _fabric(fabric, plans, said), "cabling.csv": cabling(fabric)}
    for plan in plans:
        files[f"devices/{plan.hostname}.md"] = _device(plan, said[plan.hostname])
    return files


@dataclass(frozen=True)
class Stated:
    """What one switch's NOS file states of its plan."""

    caps: Capabilities
    #: plan field path (`qos.headroom_profiles[].size`) -> why the file does not state it
    unstated: dict[str, str]
    #: the QoS facts the file states, as the NOS's reader finds them (its `expected`)
    facts: QosFacts

    def states(self, path: str) -> bool:
        return path not in self.unstated

    def headroom(self, plan: DevicePlan) -> list[tuple[str, HeadroomProfile]]:
        """The headroom the file states, labelled: every profile where the NOS sets one per
        port, else the one value for the whole switch: the largest port's (CAP004)."""
        profiles = plan.qos.headroom_profiles
        if self.caps.per_port_headroom or not profiles:
            return [(h.name, h) for h in profiles]
        worst = max(profiles, key=lambda h: (h.xoff, h.xon, h.name))
        return [(f"switch-wide (the largest port's, {worst.name})", worst)]

    def seed(self, plan: DevicePlan) -> str:
        if self.caps.hash_seed == "configured":
            return f"seed {plan.ecmp.seed}"
        if self.caps.hash_seed == "by_role" and plan.role in self.caps.seed_by_role:
            return (f"seed {self.caps.seed_by_role[plan.role]}, which the NOS derives from "
                    "the switch's role (none is stated)")
        return "no seed stated: the switch keeps its own"


def stated(plan: DevicePlan) -> Stated:
    """The NOS's capabilities and reader applied to the plan (imports stay here: the
    vendor packages load only for `netcfg docs`)."""
    from netcfg.vendors import vendor
    from netcfg.vendors.checks import RULES, reported_fields

    caps = nos_facts(plan.nos).capabilities
    unstated = {path: caps.unrendered.get(path)
                or f"{RULES[rule].summary}: {RULES[rule].rationale}"
                for path, rule in reported_fields(caps).items() if _asked(plan, path)}
    says = Stated(caps, unstated, vendor(plan.nos).expected(plan))
    if "ecmp.seed" in unstated:
        unstated["ecmp.seed"] = says.seed(plan)
    return says


def _asked(plan: DevicePlan, path: str) -> bool:
    """The plan holds a value at `path` (a management setting the intent gives, BFD on a
    peer group, ...): only then is its absence from the file worth a line."""
    objs: list[Any] = [plan]
    for part in path.split("."):
        if part.endswith("[]"):
            objs = [x for o in objs for x in (getattr(o, part[:-2], None) or ())]
        else:
            objs = [getattr(o, part, None) for o in objs]
        objs = [o for o in objs if o is not None]
    return any(o is not False and o != [] and o != () and o != {} for o in objs)


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


def _fabric(fabric: Fabric, plans: list[DevicePlan], said: dict[str, Stated]) -> str:
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
        lines += ["## Lossless chain per switch", "",
                  "The PFC headroom each switch's NOS file states: per port where the NOS sets "
                  "one per port, one value for the whole switch where it sets one, nothing "
                  "where the switch derives its own (its page says why).", ""]
        rows: list[Sequence[object]] = []
        for p in plans:
            says = said[p.hostname]
            shown = says.headroom(p) if says.states("qos.headroom_profiles[].xoff") else []
            if not shown and p.qos.headroom_profiles:
                rows.append((p.hostname, p.nos, "not stated", None, None, None, None))
            for label, h in shown:
                rows.append((p.hostname, p.nos, label, _bytes(h.xoff), _stated(
                    says, "qos.headroom_profiles[].size", _bytes(h.size)), _stated(
                    says, "qos.headroom_profiles[].dynamic_th", f"2^{h.dynamic_th}"), h.model))
        lines += _table(("Switch", "NOS", "Headroom", "XOFF", "Size", "Alpha", "Model"), rows)
    lines += ["Cabling: [cabling.csv](cabling.csv).", ""]
    return "\n".join(lines)


def _stated(says: Stated, path: str, value: object) -> object:
    return value if says.states(path) else "not stated"


def _device(plan: DevicePlan, says: Stated) -> str:
    lines = [f"# {plan.hostname}", "", "[fabric](../fabric.md)", ""]
    lines += _table(("Role", "Platform", "Model", "NOS", "Release", "Loopback", "Management",
                     "MTU"),
                    [(plan.role, plan.platform, plan.model, plan.nos, plan.release,
                      plan.loopback, plan.management, plan.mtu)])
    qos_file = not says.caps.routing_only
    # a port's headroom profile is the file's only where it states each port's xoff
    per_port = qos_file and says.caps.per_port_headroom and says.states(
        "interfaces[].headroom.xoff") and says.states("qos.headroom_profiles[].xoff")
    one = qos_file and not says.caps.per_port_headroom and says.states(
        "qos.headroom_profiles[].xoff")
    lines += ["## Interfaces", ""]
    lines += _table(("Interface", "Speed", "Peer", "Address", "Cable", "Lossless", "PFC",
                     "Headroom", "Watchdog"),
                    [(i.name, _speed(i.speed), i.peer, i.address, f"{i.cable_m:g} m",
                      "yes" if i.lossless else "no", ",".join(map(str, i.pfc_priorities)),
                      (i.headroom.name if per_port else "switch-wide" if one else None)
                      if i.headroom else None,
                      spoken(says.facts.watchdog[i.name]) if i.name in says.facts.watchdog
                      else None)
                     for i in plan.interfaces])
    bgp = plan.bgp
    paths = (f"maximum-paths {bgp.maximum_paths}" if says.states("bgp.maximum_paths")
             else "maximum-paths not stated (the NOS's own)")
    lines += ["## BGP", "", f"AS {bgp.asn}, router id {bgp.router_id}, {paths}; announces "
              f"{', '.join(bgp.networks) or 'nothing'}", ""]
    lines += _table(("Neighbor", "Remote AS", "Peer", "Peer port", "Local port", "Group"),
                    [(n.address, n.remote_as, n.name,
                      _stated(says, "bgp.neighbors[].peer_port", n.peer_port), n.interface,
                      _stated(says, "bgp.neighbors[].group", n.group))
                     for n in bgp.neighbors])
    if qos_file:
        lines += _qos(plan, says)
    else:
        lines += ["## QoS", "", f"The {plan.nos} file holds routing only: QoS, PFC, buffers "
                  "and hashing are configured outside it.", ""]
    lines += _left_to_the_switch(plan, says)
    management = _management(plan)
    if management:
        lines += ["## Management", ""] + _table(("Setting", "Value"), management)
    return "\n".join(lines)


def _qos(plan: DevicePlan, says: Stated) -> list[str]:
    qos = plan.qos
    lines = ["## QoS", ""]
    lines += _table(("Class", "Queue", "DSCP", "Lossless", "Scheduling"),
                    [(c.name, c.tc, ", ".join(map(str, c.dscp)), "yes" if c.lossless
                      else "no", c.mode + (f" {c.weight}%" if c.weight else ""))
                     for c in qos.classes])
    if says.states("qos.headroom_profiles[].xoff"):
        lines += _table(("Headroom", "XON", "XOFF", "Size", "Alpha"),
                        [(label, _stated(says, "qos.headroom_profiles[].xon", _bytes(h.xon)),
                          _bytes(h.xoff), _stated(says, "qos.headroom_profiles[].size",
                                                  _bytes(h.size)),
                          _stated(says, "qos.headroom_profiles[].dynamic_th",
                                  f"2^{h.dynamic_th}"))
                         for label, h in says.headroom(plan)])
    elif qos.headroom_profiles:
        lines += ["Headroom: the file states none; "
                  f"{says.unstated['qos.headroom_profiles[].xoff']}.", ""]
    lines += _table(("ECN profile", "Queue", "Kmin", "Kmax", "Pmax"),
                    [(e.name, e.queue, _bytes(e.min), _bytes(e.max), f"{e.probability}%")
                     for e in qos.ecn_profiles])
    ecmp = plan.ecmp
    fields = [f for f in ecmp.fields if f in says.facts.hash_fields]
    unstated = [f for f in ecmp.fields if f not in says.facts.hash_fields]
    lines += ["## ECMP", "", f"{ecmp.mode} hashing on {', '.join(fields) or 'nothing stated'}"
              + (f" ({', '.join(unstated)}: not stated, the switch's own choice)"
                 if unstated else "") + f", {says.seed(plan)}", ""]
    return lines


def _left_to_the_switch(plan: DevicePlan, says: Stated) -> list[str]:
    """Every value of the plan the NOS file does not state, and why (the switch keeps or
    derives its own)."""
    if not says.unstated:
        return []
    return (["## Left to the switch", "",
             f"Values of the plan the {plan.nos} file does not state:", ""]
            + _table(("Plan value", "Why"), sorted(says.unstated.items())))


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
