"""Cisco NX-OS (Nexus 9000): unit conversions for the template and a reader into QoS facts.

Vendor facts from the project's NX-OS notes ([V] verbatim, [C] consistent configs, [M] not
re-verified). qos-group N = network-qos class c-8q-nqN = egress queue c-out-8q-qN, with N = 0
spelled `-default` [C]. Watchdog timers are multiples of the poll interval; the port MTU is
the IP MTU (L2 frame minus 14, at most 9216).
"""

from __future__ import annotations

import re

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import SHA256, DevicePlan, user_hash
from netcfg.vendors.lineconfig import parse
from netcfg.vendors.nxos.capabilities import CAPABILITIES
from netcfg.vendors.nxos.facts import BANNER_DELIMITERS
from netcfg.vendors.nxos.model import (
    Bgp,
    BreakoutLine,
    ClassMap,
    EcnMark,
    Interface,
    LoadSharing,
    NetworkQos,
    NoDropClass,
    NxosConfig,
    OutputQueue,
    QueuingPolicy,
    Watchdog,
)
from netcfg.vendors.units import frame_size, ip_packet, syslog_level, whole_polls

#: interface-multiplier range (DME pfcwdInterfaceMultiplier 0-40; 0 = use the global one)
INTERFACE_MULTIPLIER_MAX = 40

CONTROL_QUEUE = 7
#: the queue Cisco's RoCE designs give CNP: qos-group 7, strict (a Cisco engineer's
#: roce_enable.py: `--cnp-dscp 48` -> qos-group 7, `c-out-8q-q7 priority level 1`)
CNP_QUEUE = CONTROL_QUEUE
#: strict queues take priority level 1 (DME range 1-8) [V Cisco roce_enable.py, per the
#: project's NX-OS notes]
STRICT_LEVEL = 1
#: ECN marks on the instantaneous queue depth (`weight` 0-15), as DCQCN's congestion point
#: expects: an averaged depth marks late on microbursts [V roce_enable.py, Azure configs]
WRED_WEIGHT = 0
MTU_MAX = 9216  # interface and network-qos class [V Cisco 118994, DME 576-9216]
CLASSIFY, NETQOS, QUEUING = "NETCFG-CLASSIFY", "NETCFG-NQ", "NETCFG-OUT"




def banner_delimiter(text: str) -> str | None:
    """A delimiter for `banner motd <d>`: the first of BANNER_DELIMITERS the text does not
    hold (None: it holds them all, and NX-OS would end the banner early)."""
    return next((d for d in BANNER_DELIMITERS if d not in text), None)


def ip_mtu(l2: int) -> int:
    return min(ip_packet(l2), MTU_MAX)


def qname(tc: int, kind: str) -> str:
    """System class of a qos-group: kind "nq" (network-qos) or "out" (egress queuing)."""
    suffix = "default" if tc == 0 else str(tc)
    return f"c-8q-nq-{suffix}" if kind == "nq" and tc == 0 else (
        f"c-8q-nq{suffix}" if kind == "nq" else f"c-out-8q-q-{suffix}" if tc == 0
        else f"c-out-8q-q{suffix}")


def multiplier(ms: int, poll_ms: int) -> int:
    """A watchdog time as a multiple of the poll interval."""
    return whole_polls(ms, poll_ms)


def cnp_stays(plan: DevicePlan) -> str | None:
    """Why the CNP class cannot go to q7 on this plan (None: it goes, or is there): only a
    strict, lossy CNP class moves, and only into a q7 no other class uses."""
    q = plan.qos
    cnp = next((c for c in q.classes if c.tc == q.cnp_tc), None)
    if cnp is None or cnp.tc == CNP_QUEUE:
        return None
    if cnp.mode != "strict":
        return "its class is not strict"
    if cnp.tc in q.pfc_priorities:
        return "its class is lossless (its pause class follows its traffic class)"
    if any(c.tc == CNP_QUEUE for c in q.classes):
        return f"class {next(c.name for c in q.classes if c.tc == CNP_QUEUE)} uses q7"
    return None


def queue_of(plan: DevicePlan) -> dict[int, int]:
    """Traffic class -> NX-OS qos-group (= egress queue): the same number, except the CNP
    class, which goes to q7 where cnp_stays allows (Cisco's RoCE designs)."""
    out = {tc: tc for tc in range(8)}
    cnp = plan.qos.cnp_tc
    if cnp is not None and cnp != CNP_QUEUE and cnp_stays(plan) is None:
        out[cnp] = CNP_QUEUE
    return out


def _queuing(plan: DevicePlan, ecn: tuple) -> tuple[OutputQueue, ...]:
    group = queue_of(plan)
    by_tc = {group[c.tc]: c for c in plan.qos.classes}
    marks = {group[e.queue]: EcnMark(e.min, e.max, e.probability) for e in ecn}
    out = []
    for tc in range(8):
        c = by_tc.get(tc)
        # an unused q7 keeps the system default (strict): it carries control traffic [M]
        strict = c.mode == "strict" if c is not None else tc == CONTROL_QUEUE
        weight = c.weight if c is not None and c.weight is not None else 0
        out.append(OutputQueue(qname(tc, "out"), STRICT_LEVEL if strict else None, weight,
                               marks.get(tc), WRED_WEIGHT))
    return tuple(out)


def breakout_map(ports: int, speed: int) -> str:
    """The map keyword of a cage split into `ports` ports of `speed` Mb/s: 2 x 400G ->
    `400g-2x` (Cisco's form: 10g-4x, 25g-4x, 50g-2x, 100g-4x, 200g-2x, 400g-2x)."""
    return f"{speed // 1000}g-{ports}x"


def breakout_lines(plan: DevicePlan) -> tuple[BreakoutLine, ...]:
    """One `interface breakout` line per module and map, the cages as an NX-OS port list
    (consecutive ports as a range)."""
    cages: dict[tuple[int, str], list[int]] = {}
    for b in plan.breakouts:
        m = re.fullmatch(r"Ethernet(\d+)/(\d+)", b.parent or "")
        if m is None:
            raise ValueError(f"cage {b.cage}: no NX-OS parent port name ({b.parent!r})")
        cages.setdefault((int(m.group(1)), breakout_map(b.ports, b.speed)), []).append(
            int(m.group(2)))
    return tuple(BreakoutLine(module, port_list(ports), keyword)
                 for (module, keyword), ports in sorted(cages.items()))


def port_list(ports: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3,5"."""
    runs: list[list[int]] = []
    for p in sorted(set(ports)):
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def build(plan: DevicePlan) -> NxosConfig:
    """The plan as an NX-OS configuration: values in NX-OS's units and spellings."""
    q = plan.qos
    poll = q.watchdog_poll_ms
    wd = q.watchdog_default
    shut = multiplier(wd.detection_ms, poll)
    port_shut: dict[str, int | None] = {}
    for i in plan.interfaces:
        w = i.watchdog
        port_shut[i.name] = None
        if w is None or not w.enabled:
            continue
        if (w.restoration_ms, w.action) != (wd.restoration_ms, wd.action):
            raise ValueError(f"{i.name}: NX-OS watchdog restore time and action are global "
                             "only (validate reports this as CAP006)")
        mult = multiplier(w.detection_ms, poll)
        if mult != shut:
            if mult > INTERFACE_MULTIPLIER_MAX:
                raise ValueError(f"{i.name}: watchdog detection {w.detection_ms} ms is above "
                                 f"{INTERFACE_MULTIPLIER_MAX} polls of {poll} ms")
            port_shut[i.name] = mult
    if wd.action not in CAPABILITIES.watchdog_actions:
        raise ValueError(f"NX-OS watchdog cannot {wd.action}")
    # one egress queuing policy per distinct ECN set; the most common one goes under system qos
    keys = [i.ecn for i in plan.interfaces]
    distinct = sorted(set(keys), key=lambda k: (-keys.count(k), [e.name for e in k]))
    names = {k: QUEUING if n == 0 else f"{QUEUING}-{n + 1}" for n, k in enumerate(distinct)}
    if not distinct:
        distinct, names = [()], {(): QUEUING}
    l2 = max([plan.mtu] + [i.mtu for i in plan.interfaces])
    bfd = plan.bgp.port_bfd()
    interfaces = tuple(
        Interface(i.name, i.description, i.speed, ip_mtu(i.mtu), i.address,
                  bool(i.pfc_priorities), i.watchdog is not None and i.watchdog.enabled,
                  port_shut[i.name], None if names[i.ecn] == QUEUING else names[i.ecn],
                  bfd.get(i.name))
        for i in plan.interfaces)
    missing = set(plan.ecmp.fields) - CAPABILITIES.hash_fields
    if missing:
        raise ValueError(f"NX-OS cannot hash on {sorted(missing)}")
    f = set(plan.ecmp.fields)
    group = queue_of(plan)
    return NxosConfig(
        hostname=plan.hostname, model=plan.model, role=plan.role, lldp=plan.lldp,
        jumbomtu=MTU_MAX, breakouts=breakout_lines(plan),
        load_sharing=LoadSharing(_pair(f, "src_ip", "dst_ip"),
                                 _pair(f, "l4_src_port", "l4_dst_port"), plan.ecmp.seed),
        watchdog=Watchdog(poll, shut, multiplier(wd.restoration_ms, poll)),
        class_maps=tuple(ClassMap(c.name.upper(), tuple(c.dscp), group[c.tc])
                         for c in q.classes if c.dscp),
        classify_policy=CLASSIFY, default_qos_group=group[q.default_tc],
        queuing_policies=tuple(QueuingPolicy(names[k], _queuing(plan, k)) for k in distinct),
        system_queuing=QUEUING,
        network_qos=NetworkQos(NETQOS, min(l2, MTU_MAX),
                               tuple(NoDropClass(qname(tc, "nq"), tc)
                                     for tc in q.pfc_priorities), qname(0, "nq")),
        interfaces=interfaces, loopback=plan.loopback, management_address=plan.management,
        management_gateway=plan.management_gateway, ntp_servers=tuple(plan.ntp_servers),
        ntp_source=plan.ntp_source,
        dns_servers=tuple(plan.dns_servers), syslog_servers=tuple(plan.syslog_servers),
        syslog_level=None if plan.syslog_severity is None
        else syslog_level(plan.syslog_severity), snmp=plan.snmp, gnmi=plan.gnmi,
        aaa=plan.aaa,
        users=tuple((name, USER_ROLES[plan.users[name]], user_hash(name, SHA256))
                    for name in plan.sha256_users),
        bgp=Bgp.of(plan.bgp), bgp_timers=(plan.bgp.keepalive_s, plan.bgp.hold_s),
        banner_motd=_banner(plan))


def _banner(plan: DevicePlan) -> tuple[str, str] | None:
    """(delimiter, text) of `banner motd`: the intent's login banner, which NX-OS's MOTD
    banner is (shown before the login prompt: Cisco's DME class `aaaPreLoginBanner` is the
    CLI `banner motd`); the post-login one is not rendered (CAP010)."""
    text = plan.banners.login if plan.banners is not None else None
    if text is None:
        return None
    d = banner_delimiter(text)
    if d is None:
        raise ValueError("the login banner holds every NX-OS banner delimiter "
                         f"({BANNER_DELIMITERS})")
    return d, text


#: management.users roles as NX-OS's predefined roles (Cisco Nexus 9000 NX-OS Security
#: Configuration Guide, "Configuring User Accounts and RBAC": network-admin, complete read and
#: write access; network-operator, complete read access)
USER_ROLES = {"admin": "network-admin", "operator": "network-operator"}


def _pair(fields: set[str], a: str, b: str) -> str:
    return {(True, True): "source-destination", (True, False): "source",
            (False, True): "destination"}.get((a in fields, b in fields), "")


def expected(plan: DevicePlan) -> QosFacts:
    """facts_of(plan) with NX-OS rounding: timers to whole poll intervals, IP MTU capped, only
    the hash fields the line can state (no IP protocol keyword), and CNP's code points in q7
    where queue_of moves them."""
    f = facts_of(plan)
    poll = plan.qos.watchdog_poll_ms
    f.mtu = {n: frame_size(ip_mtu(m)) for n, m in f.mtu.items()}
    f.watchdog = {n: WatchdogFacts(multiplier(w.detection_ms, poll) * poll,
                                   multiplier(w.restoration_ms, poll) * poll, w.action)
                  for n, w in f.watchdog.items()}
    f.hash_fields = tuple(sorted(set(f.hash_fields) - CAPABILITIES.unstated_hash_fields))
    f.lossless_priorities = tuple(sorted(f.lossless_priorities))
    group = queue_of(plan)
    f.dscp_to_tc = {d: group[tc] for d, tc in f.dscp_to_tc.items()}
    f.ecn = {n: {group[tc]: e for tc, e in marks.items()} for n, marks in f.ecn.items()}
    return f


# --------------------------------------------------------------------------- reader

_UNITS = {"bytes": 1, "kbytes": 1000, "mbytes": 1000 ** 2}  # kilo = 1000 [M]


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """Top-level lines with every (stripped) line below them, in order."""
    return [(s.text, [c.text for c in s.walk()]) for s in parse(text)]


def _qnum(name: str) -> int:
    m = re.search(r"(\d+|-default)$", name)
    return 0 if m is None or m.group(1) == "-default" else int(m.group(1))


def _policy(children: list[str]) -> dict[str, list[str]]:
    classes: dict[str, list[str]] = {}
    cur = None
    for line in children:
        if line.startswith("class "):
            cur = classes.setdefault(line.split()[-1], [])
        elif cur is not None:
            cur.append(line)
    return classes


def read(text: str) -> QosFacts:
    """QoS facts of an NX-OS config (rendered or running); block order does not matter."""
    blocks = _blocks(text)
    class_dscp: dict[str, list[int]] = {}
    qos_pol: dict[str, dict] = {}
    nq_pol: dict[str, dict] = {}
    queuing: dict[str, dict] = {}
    system: dict[str, str] = {}
    glob: set[str] = set()
    ifaces: dict[str, list[str]] = {}
    poll, shut, restore = 100, 1, 10  # defaults [M]
    for head, kids in blocks:
        if m := re.fullmatch(r"class-map type qos (?:match-\w+ )?(\S+)", head):
            class_dscp[m.group(1)] = [d for k in kids if k.startswith("match dscp ")
                                      for d in _dscps(k.split(None, 2)[2])]
        elif m := re.fullmatch(r"policy-map type (qos|network-qos|queuing) (\S+)", head):
            {"qos": qos_pol, "network-qos": nq_pol, "queuing": queuing}[m.group(1)][
                m.group(2)] = _policy(kids)
        elif head == "system qos":
            for k in kids:
                if m := re.fullmatch(r"service-policy type (network-qos|queuing output) (\S+)", k):
                    system[m.group(1)] = m.group(2)
        elif head.startswith("interface "):
            ifaces[head.split()[1]] = kids
        elif m := re.fullmatch(r"priority-flow-control watch-dog interval (\d+)", head):
            poll = int(m.group(1))
        elif m := re.fullmatch(r"priority-flow-control watch-dog shutdown-multiplier (\d+)", head):
            shut = int(m.group(1))
        elif m := re.fullmatch(r"priority-flow-control auto-restore multiplier (\d+)", head):
            restore = int(m.group(1))
        else:
            glob.add(head)
    f = QosFacts()
    lossless = sorted({int(p) for cls in nq_pol.get(system.get("network-qos", ""), {}).values()
                       for line in cls if line.startswith("pause pfc-cos ")
                       for p in line.split()[2:]})
    f.lossless_priorities = tuple(lossless)
    wd_global = "priority-flow-control watch-dog-interval on" in glob
    for name in sorted(ifaces):
        kids = ifaces[name]
        if not name.lower().startswith("ethernet"):
            continue
        mtu = next((int(k.split()[1]) for k in kids if re.fullmatch(r"mtu \d+", k)), 1500)
        f.mtu[name] = frame_size(mtu)
        pol = next((k.split()[-1] for k in kids if k.startswith("service-policy type qos input")),
                   None)
        if pol is not None and not f.dscp_to_tc:
            f.dscp_to_tc = _dscp_map(qos_pol.get(pol, {}), class_dscp)
        if "priority-flow-control mode on" in kids and lossless:
            f.pfc_ports[name] = tuple(lossless)
            if wd_global and "priority-flow-control watch-dog-interval on" in kids:
                own = next((int(k.split()[-1]) for k in kids if re.fullmatch(
                    r"priority-flow-control watch-dog interface-multiplier [1-9]\d*", k)), shut)
                f.watchdog[name] = WatchdogFacts(own * poll, restore * poll, "drop")
        out = next((k.split()[-1] for k in kids
                    if k.startswith("service-policy type queuing output")),
                   system.get("queuing output"))
        marks = {}
        for cls, lines in queuing.get(out or "", {}).items():
            for line in lines:
                if m := re.fullmatch(
                    r"random-detect minimum-threshold (\d+) (\w+) maximum-threshold"
                    r" (\d+) (\w+) drop-probability (\d+).* ecn",
                    line,
                ):
                    marks[_qnum(cls)] = Ecn(int(m.group(1)) * _UNITS[m.group(2)],
                                            int(m.group(3)) * _UNITS[m.group(4)], int(m.group(5)))
        if marks:
            f.ecn[name] = dict(sorted(marks.items()))
    f.hash_fields = _hash(glob)
    return f


def _dscps(text: str) -> list[int]:
    out: list[int] = []
    for part in text.replace(" ", ",").split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        elif part.isdigit():
            out.append(int(part))
    return out


def _dscp_map(policy: dict[str, list[str]], class_dscp: dict[str, list[int]]) -> dict[int, int]:
    group = {cls: int(line.split()[-1]) for cls, lines in policy.items() for line in lines
             if line.startswith("set qos-group ")}
    default = group.get("class-default", 0)
    out = {d: default for d in range(64)}
    for cls, tc in group.items():  # a DSCP in two classes: the first class wins, as MQC does
        for d in class_dscp.get(cls, []):
            if out[d] == default:
                out[d] = tc
    return out


def _hash(glob: set[str]) -> tuple[str, ...]:
    line = next((g for g in glob if g.startswith("ip load-sharing ")), None)
    if line is None:  # believed default: source-destination address and ports [M]
        line = "ip load-sharing address source-destination port source-destination"
    fields: set[str] = set()
    for kind, a, b in (("address", "src_ip", "dst_ip"), ("port", "l4_src_port", "l4_dst_port")):
        if m := re.search(rf"\b{kind} (source-destination|source|destination)\b", line):
            fields |= {a, b} if m.group(1) == "source-destination" else {
                a if m.group(1) == "source" else b}
    return tuple(sorted(fields))
