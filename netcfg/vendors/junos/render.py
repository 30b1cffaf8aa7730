"""Juniper Junos / Junos OS Evolved (QFX52xx): unit conversions and a reader into QoS facts.

Vendor facts come from the project's Junos notes ([JVD] Juniper's own AI-cluster configlets,
[V] Juniper documentation, [C] other public configs, [M] not re-verified on a device). All
conversions live here:
- DSCP code points are 6-bit strings (26 -> `011010`), PFC priorities 3-bit (3 -> `011`);
- a traffic class is a forwarding class with `queue-num` = TC, lossless ones `no-loss` +
  `pfc-priority` = TC;
- ECN thresholds are drop-profile `fill-level`s in percents of the queue's buffer, which netcfg
  takes as the queue's dynamic limit (`plan.qos.queue_limit`, the number ECN006 checks). The
  schema's type is decimal64 with nine fraction digits, so the percent is written exact to
  that precision (core1: 150 KB of 18,644,728 B is 0.804516966, not 1). The config does not
  state the buffer, so `read` needs it to turn percents back into bytes, and `expected` runs
  the plan's bytes through the same percents (rounded to nearest);
- watchdog detection is a count of poll intervals, recovery in ms;
- `mtu` is the media MTU, which includes the L2 header: the plan's L2 frame MTU as is.
"""

from __future__ import annotations

import re
from decimal import Decimal

from netcfg.physics.ecn import junos_fill_levels
from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import ROOT_HASH, DevicePlan, EcnProfile, Watchdog, user_hash
from netcfg.vendors.junos.capabilities import CAPABILITIES
from netcfg.vendors.junos.model import (
    BgpGroup,
    Channelized,
    ClassifierEntry,
    CongestionProfile,
    DropProfile,
    DynamicLoadBalancing,
    FlowControlQueue,
    ForwardingClass,
    Interface,
    JunosConfig,
    Neighbor,
    PfcWatchdog,
    Scheduler,
    SchedulerMap,
    SharedBuffer,
)
from netcfg.vendors.junos.syntax import statements
from netcfg.vendors.units import syslog_level, whole_polls

#: the management port of Junos OS Evolved (QFX5220/5230/5240, PTX) [M: not in the notes;
#: classic Junos QFX uses em0, MX/EX fxp0]
MGMT_INTERFACE = "re0:mgmt-0"
#: the dedicated management instance's reserved name (Juniper, "Management Interface in a
#: Dedicated Instance", Junos OS Evolved getting-started guide)
MGMT_INSTANCE = "mgmt_junos"
#: media MTU ceiling [M]
MTU_MAX = 9216
#: media MTU when an interface sets none [M]
MTU_DEFAULT = 1514
#: queue 7 is network-control by default [M]; kept so routing-engine traffic keeps a class
NETWORK_CONTROL = ("network-control", 7)
CLASSIFIER = "NETCFG-DSCP"
CNP_NAME = "NETCFG-PFC"
SCHEDULER_MAP = "NETCFG-SM"
EXPORT_POLICY = "NETCFG-EXPORT"
ECMP_POLICY = "NETCFG-ECMP"
#: `hash-key family inet` keyword -> netcfg hash fields it covers [JVD keywords, M contents]
HASH_GROUPS = {"layer-3": ("src_ip", "dst_ip", "ip_proto"),
               "layer-4": ("l4_src_port", "l4_dst_port")}
#: believed hashed when no hash-key is configured [M]
DEFAULT_HASH = ("dst_ip", "ip_proto", "l4_dst_port", "l4_src_port", "src_ip")
#: PFC priorities a port pauses for when its CNP has no `output` [V `code-point` page]
DEFAULT_PAUSE_REACTION = frozenset({3, 4})
#: shared-buffer partitions for lossless traffic, percents of the ingress and egress shared
#: buffer, as Juniper configures them on QFX5220/5230/5240 for RoCEv2 (Apstra 6.1, "Create and
#: Import a DCQCN Configlet": ingress lossless 66, lossless-headroom 24, lossy 10; egress
#: lossless 66). Egress lossy takes the rest: Juniper's egress `buffer-partition` page says the
#: egress partitions "must total exactly 100 percent" or the commit fails, and its AI JVD
#: configlet (terraform-apstra-examples ai-cluster-jvd/configlet_dcqcn.tf) gives egress lossy
#: what lossless leaves (80/20), ingress and egress lossless equal ("must match" on
#: QFX5220/5230). docs/render-junos.md, "Shared-buffer partitions".
INGRESS_PARTITIONS = (("lossless", 66), ("lossless-headroom", 24), ("lossy", 10))
EGRESS_PARTITIONS = (("lossless", 66), ("lossy", 34))
#: `shaping-rate percent` of every strict-high queue: Juniper recommends always shaping a
#: strict-high queue so it cannot starve the others ("Defining CoS Queue Scheduling
#: Priority", QFX); the share is the one Juniper's RoCE configlet gives its strict-high CNP
#: scheduler (Apstra 6.1, "Create and Import a DCQCN Configlet": `s2-cnp { transmit-rate
#: percent 5; priority strict-high; }`). docs/render-junos.md, "Strict-high queues".
STRICT_SHAPING = 5
#: pfc-watchdog defaults: poll 100 ms, detection 2 polls, recovery 200 ms [V]
WD_DEFAULTS = (100, 2, 200)


def code_point(dscp: int) -> str:
    """DSCP as a 6-bit Junos code point: 26 -> 011010."""
    return format(dscp, "06b")


def pcp(priority: int) -> str:
    """PFC priority as a 3-bit IEEE 802.1 code point: 3 -> 011."""
    return format(priority, "03b")


def media_mtu(l2: int) -> int:
    return min(l2, MTU_MAX)


def fill_bytes(percent: Decimal, queue_buffer: int) -> int:
    """A fill level (percent of the queue buffer) in bytes, rounded to the nearest byte."""
    return round(percent * queue_buffer / 100)


def writable_levels(kmin: int, kmax: int, queue_buffer: int) -> tuple[Decimal, Decimal] | None:
    """The two fill levels Junos is given for kmin/kmax, or None where there are not two in
    (0, 100) %: Juniper's `fill-level` page says "Do not configure the last fill level as 100
    percent" (the YANG's range 0..100 lets it through)."""
    levels = junos_fill_levels(kmin, kmax, queue_buffer)
    return levels if levels is not None and levels[1] < 100 else None


def fill_levels(e: EcnProfile, queue_buffer: int) -> tuple[Decimal, Decimal]:
    levels = writable_levels(e.min, e.max, queue_buffer)
    if levels is None:  # the ECN006 finding; validate stops before rendering
        raise ValueError(f"{e.name}: ECN {e.min}/{e.max} B are not two fill levels of "
                         f"{queue_buffer} B in (0, 100) %")
    return levels


def quote(text: str) -> str:
    """A Junos string: always double-quoted, backslash and quote escaped, one line."""
    text = " ".join(text.split())
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _sub_ports(plan: DevicePlan) -> dict[str, tuple[int, str]]:
    """Channelised parent port -> (number-of-sub-ports, speed) for the `et-0/0/N:M` names: the
    plan's split cages, at the speed their channels run."""
    speeds = {i.name.split(":")[0]: i.speed for i in plan.interfaces if ":" in i.name}
    out: dict[str, tuple[int, str]] = {}
    for b in plan.breakouts:
        if b.parent is None:
            raise ValueError(f"cage {b.cage}: no Junos parent port name")
        out[b.parent] = (b.ports, f"{speeds.get(b.parent, b.speed) // 1000}g")
    return dict(sorted(out.items(), key=lambda kv: _port_key(kv[0])))


def _port_key(name: str) -> tuple:
    return tuple(int(n) if n.isdigit() else n for n in re.split(r"(\d+)", name))


def _watchdog_key(w: Watchdog | None, poll: int) -> tuple[int, int] | None:
    if w is None or not w.enabled:
        return None
    if w.action not in CAPABILITIES.watchdog_actions:
        raise ValueError(f"Junos PFC watchdog cannot {w.action}")
    return whole_polls(w.detection_ms, poll), w.restoration_ms


#: syslog levels by RFC 5424 number, as junos-conf-system's `syslog-object` level choice names
#: them (24.4R1-EVO: emergency, alert, critical, error, warning, notice, info; `any` is every
#: level, so debug)
SYSLOG_LEVEL = ("emergency", "alert", "critical", "error", "warning", "notice", "info", "any")


#: management.users roles as Junos's predefined login classes (junos-conf-system `login class`
#: names; super-user and read-only are Junos's own)
USER_CLASSES = {"admin": "super-user", "operator": "read-only"}


def build(plan: DevicePlan) -> JunosConfig:
    """The plan as a Junos configuration: values in Junos's units and spellings."""
    q = plan.qos
    by_tc = {c.tc: c for c in q.classes}
    fcs = [ForwardingClass(c.name, c.tc, c.tc in q.pfc_priorities) for c in q.classes]
    nc_name, nc_queue = NETWORK_CONTROL
    if nc_queue not in by_tc and all(c.name != nc_name for c in q.classes):
        fcs.append(ForwardingClass(nc_name, nc_queue, False))
    code_points: dict[int, list[str]] = {}
    for d in sorted(q.dscp_to_tc):
        code_points.setdefault(q.dscp_to_tc[d], []).append(code_point(d))
    classifier = tuple(ClassifierEntry(by_tc[tc].name, tuple(cps))
                       for tc, cps in sorted(code_points.items()))
    pfc_dscps = tuple(code_point(d) for d in sorted(q.dscp_to_tc)
                      if q.dscp_to_tc[d] in q.pfc_priorities)
    # one congestion-notification profile per distinct watchdog (None = lossless, no watchdog)
    poll = q.watchdog_poll_ms
    wd_keys = [_watchdog_key(i.watchdog, poll) for i in plan.interfaces if i.pfc_priorities]
    wd_order = sorted(set(wd_keys), key=lambda k: (-wd_keys.count(k), k is None, k or (0, 0)))
    cnp_names = {k: CNP_NAME if n == 0 else f"{CNP_NAME}-{n + 1}" for n, k in enumerate(wd_order)}
    cnps = tuple(CongestionProfile(cnp_names[k], None if k is None else
                                   PfcWatchdog(poll, k[0], k[1])) for k in wd_order)
    # drop profiles per ECN profile; schedulers per class (and ECN profile); one scheduler map
    # per distinct set of ECN profiles on a port
    drop_profiles = []
    for e in sorted({e for i in plan.interfaces for e in i.ecn}, key=lambda e: e.name):
        lo, hi = fill_levels(e, q.queue_limit)
        # the DCQCN marking ramp: nothing below Kmin, rising linearly to Pmax at Kmax
        drop_profiles.append(DropProfile(e.name, lo, hi, 0, e.probability))
    schedulers: dict[str, Scheduler] = {}

    def scheduler(tc: int, ecn: EcnProfile | None) -> str:
        c = by_tc.get(tc)
        name = f"S-{c.name if c is not None else nc_name}" + (f"-{ecn.name}" if ecn else "")
        if name not in schedulers:
            strict = c is None or c.mode == "strict"
            schedulers[name] = Scheduler(name, strict, None if c is None or strict else c.weight,
                                         ecn.name if ecn is not None else None,
                                         STRICT_SHAPING if strict else None)
        return name

    ecn_sets = [tuple(sorted(i.ecn, key=lambda e: e.queue)) for i in plan.interfaces]
    set_order = sorted(set(ecn_sets), key=lambda k: (-ecn_sets.count(k), [e.name for e in k]))
    map_names = {k: SCHEDULER_MAP if n == 0 else f"{SCHEDULER_MAP}-{n + 1}"
                 for n, k in enumerate(set_order)}
    scheduler_maps = []
    for k in set_order:
        marks = {e.queue: e for e in k}
        scheduler_maps.append(SchedulerMap(map_names[k], tuple(
            (fc.name, scheduler(fc.queue, marks.get(fc.queue))) for fc in fcs)))
    interfaces = tuple(
        Interface(i.name, i.description, media_mtu(i.mtu), i.address, map_names[ecn_set],
                  cnp_names[_watchdog_key(i.watchdog, poll)] if i.pfc_priorities else None)
        for i, ecn_set in zip(plan.interfaces, ecn_sets))
    missing = set(plan.ecmp.fields) - CAPABILITIES.hash_fields
    if missing:
        raise ValueError(f"Junos cannot hash on {sorted(missing)}")
    if plan.ecmp.mode not in CAPABILITIES.ecmp_modes:
        raise ValueError(f"Junos has no {plan.ecmp.mode} ECMP mode")
    dlb = {"static": None,
           "per_packet": DynamicLoadBalancing("per-packet", None),
           "flowlet": DynamicLoadBalancing("flowlet", round(plan.ecmp.flowlet_inactivity_us)),
           }[plan.ecmp.mode]
    bfd = {g.name: g.bfd for g in plan.bgp.groups}
    # the route needs the management port's address: without one nothing is moved
    gateway = plan.management_gateway if plan.management else None
    groups: dict[str, list[Neighbor]] = {}
    for n in plan.bgp.neighbors:
        groups.setdefault(n.group, []).append(
            Neighbor(n.address, n.remote_as, n.description, n.keyed))
    return JunosConfig(
        hostname=plan.hostname, root_hash=ROOT_HASH if plan.root_authentication else None,
        ntp_servers=tuple(plan.ntp_servers),
        ntp_source=plan.management_ip if plan.ntp_source else None,
        management_ip=plan.management_ip,
        dns_servers=tuple(plan.dns_servers),
        syslog_servers=tuple(plan.syslog_servers),
        syslog_level=None if plan.syslog_severity is None
        else SYSLOG_LEVEL[syslog_level(plan.syslog_severity)], snmp=plan.snmp,
        users=tuple((name, USER_CLASSES[role], user_hash(name))
                    for name, role in plan.users.items()),
        login_message=plan.banners.login if plan.banners else None,
        announcement=plan.banners.motd if plan.banners else None, aaa=plan.aaa,
        # Junos OS Evolved's gRPC server takes TLS only: none without a certificate (check())
        gnmi=plan.gnmi if plan.gnmi is not None and plan.gnmi.certificate else None,
        banner=f"{plan.hostname}: {plan.model}, {plan.role}".replace("*/", "* /"),
        channelized=tuple(Channelized(port, count, speed)
                          for port, (count, speed) in _sub_ports(plan).items()),
        interfaces=interfaces, loopback=plan.loopback, management_interface=MGMT_INTERFACE,
        management_address=plan.management,
        management_gateway=gateway,
        management_instance=MGMT_INSTANCE if gateway else None,
        router_id=plan.bgp.router_id, asn=plan.bgp.asn,
        ecmp_policy=ECMP_POLICY, export_policy=EXPORT_POLICY,
        bgp_groups=tuple(BgpGroup(name, tuple(ns), bfd.get(name))
                         for name, ns in sorted(groups.items())),
        hold_time=plan.bgp.hold_s,
        multipath_multiple_as=plan.bgp.multipath_relax, originated=tuple(plan.bgp.networks),
        lldp=plan.lldp, classifier=CLASSIFIER, classifier_entries=classifier,
        forwarding_classes=tuple(fcs), pfc_code_points=pfc_dscps,
        flow_control_queues=tuple(FlowControlQueue(pcp(p), p) for p in q.pfc_priorities),
        congestion_profiles=cnps, drop_profiles=tuple(drop_profiles),
        shared_buffer=SharedBuffer(INGRESS_PARTITIONS, EGRESS_PARTITIONS)
        if q.pfc_priorities else None,
        schedulers=tuple(v for _, v in sorted(schedulers.items())),
        scheduler_maps=tuple(scheduler_maps), dynamic_load_balancing=dlb,
        hash_keys=tuple(k for k, fields in HASH_GROUPS.items()
                        if set(fields) & set(plan.ecmp.fields)))


def expected(plan: DevicePlan) -> QosFacts:
    """facts_of(plan) with what Junos rounds: ECN thresholds through nine-digit percents of the
    queue limit and back (nearest byte), watchdog detection to whole poll intervals, media MTU
    capped at 9216, hashing by whole layer-3/layer-4 groups."""
    f = facts_of(plan)
    qb, poll = plan.qos.queue_limit, plan.qos.watchdog_poll_ms
    ecn_of = {(i.name, e.queue): e for i in plan.interfaces for e in i.ecn}
    for name, marks in f.ecn.items():
        for queue, e in marks.items():
            lo, hi = fill_levels(ecn_of[(name, queue)], qb)
            marks[queue] = Ecn(fill_bytes(lo, qb), fill_bytes(hi, qb), e.probability)
    f.mtu = {n: media_mtu(m) for n, m in f.mtu.items()}
    f.watchdog = {n: WatchdogFacts(whole_polls(w.detection_ms, poll) * poll,
                                   w.restoration_ms, w.action) for n, w in f.watchdog.items()}
    f.pfc_ports = {n: tuple(sorted(ps)) for n, ps in f.pfc_ports.items()}
    f.lossless_priorities = tuple(sorted(f.lossless_priorities))
    f.hash_fields = tuple(sorted({x for fields in HASH_GROUPS.values()
                                  if set(fields) & set(f.hash_fields) for x in fields}))
    return f


# --------------------------------------------------------------------------- reader

_ALIAS = {"be": 0, "ef": 46, **{f"cs{n}": 8 * n for n in range(8)},
          **{f"af{x}{y}": 8 * x + 2 * y for x in range(1, 5) for y in range(1, 4)}}


def _dscp(cp: str) -> int | None:
    if re.fullmatch(r"[01]{6}", cp):
        return int(cp, 2)
    return _ALIAS.get(cp.lower())


def _after(words: tuple[str, ...], key: str) -> str | None:
    return words[words.index(key) + 1] if key in words[:-1] else None


def read(text: str, queue_buffer: int | None = None) -> QosFacts:
    """QoS facts of a Junos config (rendered, `show configuration` or `| display set`).

    `queue_buffer` is the buffer the drop profiles' fill levels are percents of (for a netcfg
    plan, `plan.qos.queue_limit`); the config does not state it, so ECN facts need it and a
    config with ECN read without it is an error rather than a guess."""
    cos: dict[str, list[tuple[str, ...]]] = {}
    ifaces: dict[str, list[tuple[str, ...]]] = {}
    hash_keys: set[str] | None = None
    for s in statements(text):
        if s[0] == "class-of-service" and len(s) > 1:
            cos.setdefault(s[1], []).append(s[2:])
        elif s[0] == "interfaces" and len(s) > 2:
            ifaces.setdefault(s[1], []).append(s[2:])
        elif s[:4] == ("forwarding-options", "hash-key", "family", "inet") and len(s) > 4:
            hash_keys = (hash_keys or set()) | {s[4]}
    # forwarding classes: name -> queue, lossless PFC priority
    fc_queue: dict[str, int] = {}
    fc_pfc: dict[str, int] = {}
    fc_noloss: set[str] = set()
    for s in cos.get("forwarding-classes", []):
        if s[0] == "class" and len(s) > 2:
            if (v := _after(s, "queue-num")) is not None:
                fc_queue[s[1]] = int(v)
            if (v := _after(s, "pfc-priority")) is not None:
                fc_pfc[s[1]] = int(v)
            if "no-loss" in s:
                fc_noloss.add(s[1])
    lossless = {fc: p for fc, p in fc_pfc.items() if fc in fc_noloss}
    # classifiers: name -> dscp -> forwarding class
    classifiers: dict[str, dict[int, str]] = {}
    for s in cos.get("classifiers", []):
        if s[0] == "dscp" and "forwarding-class" in s and "code-points" in s:
            table = classifiers.setdefault(s[1], {})
            for cp in s[s.index("code-points") + 1:]:
                if (d := _dscp(cp)) is not None:
                    table[d] = s[s.index("forwarding-class") + 1]
    # CoS interface bindings
    bind: dict[str, dict[str, str]] = {}
    for s in cos.get("interfaces", []):
        b = bind.setdefault(s[0], {})
        for key in ("congestion-notification-profile", "scheduler-map"):
            if (v := _after(s, key)) is not None and s[1] == key:
                b[key] = v
        if "classifiers" in s and (v := _after(s, "dscp")) is not None:
            b["classifier"] = v
    f = QosFacts()
    bound = [b["classifier"] for n, b in sorted(bind.items()) if "classifier" in b]
    table = classifiers.get(bound[0], {}) if bound else {}
    f.dscp_to_tc = {d: fc_queue[fc] for d, fc in sorted(table.items()) if fc in fc_queue}
    f.lossless_priorities = tuple(sorted(set(lossless.values())))
    cnps = _cnps(cos.get("congestion-notification-profile", []))
    drops = _drop_profiles(cos.get("drop-profiles", []))
    scheds = _schedulers(cos.get("schedulers", []))
    smaps: dict[str, dict[str, str]] = {}
    for s in cos.get("scheduler-maps", []):
        if (fc := _after(s, "forwarding-class")) is not None and (v := _after(s, "scheduler")):
            smaps.setdefault(s[0], {})[fc] = v
    for name in sorted(ifaces, key=_port_key):
        kids = ifaces[name]
        if not re.match(r"(et|xe|ge|mge)-", name) or any(k[0] == "number-of-sub-ports"
                                                          for k in kids):
            continue
        f.mtu[name] = next((int(k[1]) for k in kids if k[0] == "mtu"), MTU_DEFAULT)
        b = bind.get(name, {})
        cnp = cnps.get(b.get("congestion-notification-profile", ""))
        if cnp is not None:
            prios = {lossless[table[d]] for d in cnp["input"] if table.get(d) in lossless}
            prios &= cnp["output"] if cnp["output"] is not None else DEFAULT_PAUSE_REACTION
            if prios:
                f.pfc_ports[name] = tuple(sorted(prios))
                if cnp["watchdog"] is not None:
                    poll, det, rec = cnp["watchdog"]
                    f.watchdog[name] = WatchdogFacts(det * poll, rec, "drop")
        marks = {}
        for fc, sched in smaps.get(b.get("scheduler-map", ""), {}).items():
            sd = scheds.get(sched, {})
            dp = drops.get(sd.get("drop-profile", ""))
            if sd.get("ecn") and dp is not None and fc in fc_queue:
                if queue_buffer is None:
                    raise ValueError("ECN fill levels are percents: read() needs queue_buffer")
                lo, hi, prob = dp
                marks[fc_queue[fc]] = Ecn(fill_bytes(lo, queue_buffer),
                                          fill_bytes(hi, queue_buffer), prob)
        if marks:
            f.ecn[name] = dict(sorted(marks.items()))
    f.hash_fields = (DEFAULT_HASH if hash_keys is None else
                     tuple(sorted(x for k in hash_keys for x in HASH_GROUPS.get(k, ()))))
    return f


def _cnps(lines: list[tuple[str, ...]]) -> dict[str, dict]:
    """CNP name -> DSCPs that generate PFC, priorities that pause on receipt (None = default
    3 and 4), watchdog (poll ms, detection polls, recovery ms) or None."""
    out: dict[str, dict] = {}
    for s in lines:
        c = out.setdefault(s[0], {"input": set(), "output": None, "watchdog": None})
        if s[1:3] == ("input", "dscp") and "pfc" in s and (cp := _after(s, "code-point")):
            if (d := _dscp(cp)) is not None:
                c["input"].add(d)
        elif s[1:3] == ("output", "ieee-802.1") and (cp := _after(s, "code-point")):
            if "flow-control-queue" in s:
                c["output"] = (c["output"] or set()) | {int(cp, 2)}
        elif s[1] == "pfc-watchdog":
            w = list(c["watchdog"] or WD_DEFAULTS)
            for n, key in enumerate(("poll-interval", "detection", "recovery")):
                if (v := _after(s, key)) is not None:
                    w[n] = int(v)
            c["watchdog"] = tuple(w)
    return out


def _drop_profiles(lines: list[tuple[str, ...]]) -> dict[str, tuple[Decimal, Decimal, int]]:
    """Drop profile -> (first fill level, last fill level, drop probability at the last)."""
    fill: dict[str, list[Decimal]] = {}
    prob: dict[str, list[int]] = {}
    for s in lines:
        if "fill-level" in s:
            fill[s[0]] = [Decimal(x) for x in s[s.index("fill-level") + 1:]]
        if "drop-probability" in s:
            prob[s[0]] = [int(x) for x in s[s.index("drop-probability") + 1:]]
    return {n: (lv[0], lv[-1], prob.get(n, [0, 100])[-1]) for n, lv in fill.items() if lv}


def _schedulers(lines: list[tuple[str, ...]]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for s in lines:
        d = out.setdefault(s[0], {})
        if s[1] == "explicit-congestion-notification":
            d["ecn"] = True
        elif s[1] == "drop-profile-map" and (v := _after(s, "drop-profile")) is not None:
            d["drop-profile"] = v
    return out
