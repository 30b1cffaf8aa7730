"""Arista EOS: unit conversions for the template and a reader of EOS configs into QoS facts.

Vendor facts come from the project's EOS notes (AVD templates/schemas, tagged [AVD]; [M] =
not re-verified on a device). Conversions live only here: EOS takes the IP MTU of a routed
port (L2 frame minus the 14-byte Ethernet header, at most 9214), watchdog timers in seconds,
ECN thresholds with an explicit unit (we always write bytes, so nothing is rounded).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import DevicePlan, Interface, QosClass, Watchdog, user_hash
from netcfg.vendors.eos.capabilities import CAPABILITIES, maximum_routes
from netcfg.vendors.eos.model import (
    Bgp,
    EcnMark,
    EosConfig,
    PortQos,
    PortWatchdog,
    QueueProfile,
    TxQueue,
)
from netcfg.vendors.eos.model import Interface as EosInterface
from netcfg.vendors.eos.model import Watchdog as EosWatchdog
from netcfg.vendors.lineconfig import Statement, parse
from netcfg.vendors.units import frame_size, ip_packet, syslog_level

#: netcfg hash field -> `ip load-sharing trident fields ip` keyword: the documented set only
#: (capabilities.py; ip_proto has none and is not stated)
HASH_KEYWORDS = {"src_ip": "source-ip", "dst_ip": "destination-ip",
                 "l4_src_port": "source-port", "l4_dst_port": "destination-port",
                 "ingress_port": "ingress-interface"}
IP_MTU_MAX = 9214
#: watchdog timeout/recovery take 2 decimals of a second [AVD schema]: 10 ms steps
TIMER_STEP_MS = 10
PROFILE = "NETCFG-LOSSLESS"
#: the VRF eAPI and Management1 live in
MGMT_VRF = "MGMT"
#: EOS watchdog actions: global line (drop|no-drop), port line (drop|notify-only)
GLOBAL_ACTION = {"drop": "drop", "forward": "no-drop"}
PORT_ACTION = {"drop": "drop", "alert": "notify-only"}


@lru_cache(maxsize=256)
def _asic_family(platform: str) -> str:
    from netcfg.platforms import load_catalog

    cat = load_catalog()
    p = cat.platforms.get(platform)
    asic = cat.asics.get(p.asic) if p is not None else None
    return asic.family if asic is not None else ""


def ip_mtu(l2: int) -> int:
    return min(ip_packet(l2), IP_MTU_MAX)


def _timer_ms(ms: int) -> int:
    return int(round(ms / TIMER_STEP_MS)) * TIMER_STEP_MS


def seconds(ms: int) -> str:
    """Milliseconds as EOS seconds without trailing zeros: 200 -> 0.2, 1000 -> 1."""
    text = f"{ms / 1000:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def alpha(dynamic_th: int) -> str:
    """alpha = 2^dynamic_th as EOS writes it: 1/128 .. 1 .. 8."""
    return str(2 ** dynamic_th) if dynamic_th >= 0 else f"1/{2 ** -dynamic_th}"


def speed(iface: Interface) -> str:
    """`speed 400g-4`: rate and SerDes lanes [M: EOS spelling not re-verified]."""
    return f"{iface.speed // 1000}g-{iface.lanes}"


def _port_watchdog(w: Watchdog, default: Watchdog) -> PortWatchdog:
    """The port's watchdog: its action where EOS has a port form, its timers where they differ
    from the switch's (after EOS's 10 ms rounding)."""
    if w.action not in PORT_ACTION and w.action != default.action:
        raise ValueError(f"EOS cannot set watchdog action {w.action!r} on one port only")
    timers = (_timer_ms(w.detection_ms), _timer_ms(w.restoration_ms))
    same = timers == (_timer_ms(default.detection_ms), _timer_ms(default.restoration_ms))
    return PortWatchdog(PORT_ACTION.get(w.action),
                        None if same else seconds(timers[0]),
                        None if same else seconds(timers[1]))


#: `logging trap` levels by RFC 5424 number (AVD eos_cli_config_gen logging.schema.yml,
#: `logging.level[].severity`: emergencies=0 ... debugging=7)
SYSLOG_TRAP = ("emergencies", "alerts", "critical", "errors", "warnings", "notifications",
               "informational", "debugging")


#: management.users roles as EOS's privilege and role (EOS's predefined network-admin and
#: network-operator roles)
USER_ROLES = {"admin": (15, "network-admin"), "operator": (1, "network-operator")}


def _port_qos(i: Interface, classes: list[QosClass], default: Watchdog,
              tx_queue: str) -> PortQos:
    """A port's QoS lines as EOS values: its queues with their ECN marks, PFC, watchdog."""
    marks = {e.queue: EcnMark(e.min, e.max, e.probability) for e in i.ecn}
    queues = tuple(TxQueue(c.tc, c.mode == "strict", None if c.mode == "strict" else c.weight,
                           marks.get(c.tc)) for c in classes)
    watchdog = None
    if i.watchdog is not None and i.watchdog.enabled:
        watchdog = _port_watchdog(i.watchdog, default)
    return PortQos(tx_queue, tuple(i.pfc_priorities), watchdog, queues)


def _dscp_lines(dscp_to_tc: dict[int, int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Traffic class -> its DSCP values, in class order: one `qos map` line each."""
    by_tc: dict[int, list[int]] = {}
    for d in sorted(dscp_to_tc):
        by_tc.setdefault(dscp_to_tc[d], []).append(d)
    return tuple((tc, tuple(ds)) for tc, ds in sorted(by_tc.items()))


@lru_cache(maxsize=16)
def _trap(severity: str) -> str:
    """`logging trap`'s level for an RFC 5424 severity name."""
    return SYSLOG_TRAP[syslog_level(severity)]


_new_interface: Callable[[tuple[Any, ...]], EosInterface] = partial(tuple.__new__, EosInterface)


def build(plan: DevicePlan) -> EosConfig:
    """The plan as an EOS configuration: values in EOS's units and spellings."""
    q = plan.qos
    xgs = _asic_family(plan.platform) in ("trident", "tomahawk")
    tx_queue = "uc-tx-queue" if xgs else "tx-queue"
    classes = sorted(q.classes, key=lambda c: c.tc)
    interfaces = []
    # What a port states besides its name, description and address follows from its speed,
    # lanes and MTU and from its ECN profiles, watchdog and PFC priorities, which the plan's
    # ports share as objects (PlanBuilder makes each once per switch; all immutable, and held
    # by the plan for the whole build, so an id is never reused within it). Ports are grouped
    # by those values and objects' identity, so no port's values are hashed field by field,
    # and each group's spellings and QoS lines are made (and rendered) once per switch.
    kinds: dict[tuple[int, int, int, int, int, int], tuple[str, int, int]] = {}
    port_qos: list[PortQos] = []
    for i in plan.interfaces:
        key = (id(i.ecn), id(i.watchdog), id(i.pfc_priorities), i.speed, i.lanes, i.mtu)
        kind = kinds.get(key)
        if kind is None:
            qos = _port_qos(i, classes, q.watchdog_default, tx_queue)
            if qos not in port_qos:
                port_qos.append(qos)
            kind = kinds[key] = (speed(i), ip_mtu(i.mtu), port_qos.index(qos))
        rate, mtu, block = kind
        # the named tuple made as a tuple (its generated __new__ is one more Python call
        # per port): fields in EosInterface's order
        interfaces.append(_new_interface((i.name, i.description, rate, mtu, i.address, block)))
    default = q.watchdog_default
    watchdog = EosWatchdog(seconds(_timer_ms(default.detection_ms)),
                        seconds(_timer_ms(default.restoration_ms)),
                        seconds(q.watchdog_poll_ms), GLOBAL_ACTION.get(default.action))
    profile = None
    if xgs and q.headroom_profiles:
        # One switch-wide profile: the largest headroom any port needs covers every port.
        worst = max(q.headroom_profiles, key=lambda h: (h.xoff, h.xon, h.name))
        profile = QueueProfile(PROFILE, alpha(q.dynamic_th), worst.xoff, worst.xon)
    missing = set(plan.ecmp.fields) - CAPABILITIES.hash_fields
    if missing:
        raise ValueError(f"EOS cannot hash on {sorted(missing)}")
    bgp = Bgp.of(plan.bgp)
    return EosConfig(
        hostname=plan.hostname, model=plan.model, role=plan.role, management_vrf=MGMT_VRF,
        management_address=plan.management, management_gateway=plan.management_gateway,
        ntp_servers=tuple(plan.ntp_servers), ntp_source=plan.ntp_source,
        dns_servers=tuple(plan.dns_servers),
        syslog_servers=tuple(plan.syslog_servers),
        syslog_trap=None if plan.syslog_severity is None else _trap(plan.syslog_severity),
        snmp=plan.snmp,
        gnmi=plan.gnmi, cloudvision=plan.cloudvision, banners=plan.banners,
        users=tuple((name, *USER_ROLES[role], user_hash(name))
                    for name, role in plan.users.items()),
        aaa=plan.aaa, loopback=plan.loopback, queue_profile=profile,
        interfaces=tuple(interfaces), port_qos=tuple(port_qos), lldp=plan.lldp,
        tx_queue=tx_queue,
        dscp_to_tc=_dscp_lines(q.dscp_to_tc),
        traffic_classes=tuple(c.tc for c in classes), watchdog=watchdog,
        hash_fields=tuple(HASH_KEYWORDS[f] for f in HASH_KEYWORDS if f in plan.ecmp.fields),
        bgp=bgp, maximum_routes=maximum_routes(plan.bgp.fabric_prefixes),
        bgp_timers=(plan.bgp.keepalive_s, plan.bgp.hold_s), wait_install=True)


def expected(plan: DevicePlan) -> QosFacts:
    """facts_of(plan), with what EOS rounds: timers to 10 ms, IP MTU capped at 9214, and
    lossless priorities as the union of the ports' no-drop priorities (EOS has no global list),
    and only the hash fields the file can state."""
    f = facts_of(plan)
    f.mtu = {n: frame_size(ip_mtu(m)) for n, m in f.mtu.items()}
    f.watchdog = {n: WatchdogFacts(_timer_ms(w.detection_ms), _timer_ms(w.restoration_ms),
                                   w.action) for n, w in f.watchdog.items()}
    f.pfc_ports = {n: tuple(sorted(ps)) for n, ps in f.pfc_ports.items()}
    f.lossless_priorities = tuple(sorted({p for ps in f.pfc_ports.values() for p in ps}))
    f.hash_fields = tuple(sorted(set(f.hash_fields) - CAPABILITIES.unstated_hash_fields))
    return f


# --------------------------------------------------------------------------- reader

#: EOS default DSCP -> TC: the class selector (DSCP >> 3) with TC 0 and 1 swapped [M]
DEFAULT_DSCP_TC = {d: {0: 1, 1: 0}.get(d >> 3, d >> 3) for d in range(64)}
_UNITS = {"bytes": 1, "kbytes": 1000, "mbytes": 1000 ** 2}  # kilo = 1000 [M]
_ECN = re.compile(r"random-detect ecn minimum-threshold (\d+) (\w+) maximum-threshold (\d+) "
                  r"(\w+)(?: max-mark-probability (\d+))?")
_FIELD_OF = {v: k for k, v in HASH_KEYWORDS.items()}
#: hashed when `ip load-sharing` is absent (EOS hides the default) [V comment, per the notes]
DEFAULT_HASH = ("src_ip", "dst_ip", "l4_src_port", "l4_dst_port")


def _ms(text: str) -> int:
    return int(round(float(text) * 1000))


def _interface(block: Statement) -> dict[str, Any]:
    """What an `interface` block states about PFC, its watchdog, ECN per queue and MTU."""
    i: dict[str, Any] = {"pfc_on": False, "prios": set(), "ecn": {}, "wd": False,
                         "action": None, "timer": None, "mtu": 1500}
    for child in block.children:
        line = child.text
        if m := re.fullmatch(r"(?:uc-)?tx-queue (\d)", line):
            for queue_line in child.walk():
                if e := _ECN.fullmatch(queue_line.text):
                    i["ecn"][int(m.group(1))] = Ecn(int(e.group(1)) * _UNITS[e.group(2)],
                                                    int(e.group(3)) * _UNITS[e.group(4)],
                                                    int(e.group(5) or 100))
        elif line in ("priority-flow-control on", "priority-flow-control mode on"):
            i["pfc_on"] = True
        elif m := re.fullmatch(r"priority-flow-control priority (\d) no-drop", line):
            i["prios"].add(int(m.group(1)))
        elif line == "priority-flow-control pause watchdog":
            i["wd"] = True
        elif m := re.fullmatch(r"priority-flow-control pause watchdog port action (\S+)", line):
            i["action"] = {"drop": "drop", "notify-only": "alert"}.get(m.group(1), m.group(1))
        elif m := re.fullmatch(r"priority-flow-control pause watchdog port timer timeout "
                               r"([\d.]+) polling-interval \S+ recovery-time ([\d.]+).*", line):
            i["timer"] = (_ms(m.group(1)), _ms(m.group(2)))
        elif m := re.fullmatch(r"mtu (\d+)", line):
            i["mtu"] = int(m.group(1))
    return i


def read(text: str) -> QosFacts:
    """QoS facts of an EOS config (rendered or `show running-config`, indented as EOS prints
    it): order-free, tolerant of collapsed `qos map` lines and hidden defaults."""
    f = QosFacts(dscp_to_tc=dict(DEFAULT_DSCP_TC))
    g_timeout = g_recovery = None
    g_action = "errdisable"  # EOS default on a stuck queue [AVD schema]
    hash_fields: tuple[str, ...] = DEFAULT_HASH
    ifaces: dict[str, dict] = {}
    for block in parse(text):
        line = block.text
        if line.startswith("interface "):
            ifaces[line.split()[1]] = _interface(block)
        elif m := re.fullmatch(r"qos map dscp ([\d ]+) to traffic-class (\d)( .*)?", line):
            for d in m.group(1).split():
                f.dscp_to_tc[int(d)] = int(m.group(2))
        elif m := re.fullmatch(
            r"priority-flow-control pause watchdog default (timeout|recovery-time)"
            r" ([\d.]+)",
            line,
        ):
            if m.group(1) == "timeout":
                g_timeout = _ms(m.group(2))
            else:
                g_recovery = _ms(m.group(2))
        elif m := re.fullmatch(r"priority-flow-control pause watchdog action (\S+)", line):
            g_action = {"drop": "drop", "no-drop": "forward"}.get(m.group(1), m.group(1))
        elif m := re.fullmatch(r"ip load-sharing \w+ fields ip (.*)", line):
            hash_fields = tuple(sorted(_FIELD_OF[w] for w in m.group(1).split() if w in _FIELD_OF))
    lossless: set[int] = set()
    for name in sorted(ifaces):
        i = ifaces[name]
        if not name.lower().startswith("ethernet"):
            continue
        f.mtu[name] = frame_size(i["mtu"])
        if i["ecn"]:
            f.ecn[name] = dict(sorted(i["ecn"].items()))
        if i["pfc_on"] and i["prios"]:
            f.pfc_ports[name] = tuple(sorted(i["prios"]))
            lossless |= i["prios"]
            timeout, recovery = i["timer"] or (g_timeout, g_recovery)
            if i["wd"] and timeout:  # inactive until a timeout is configured [M]
                f.watchdog[name] = WatchdogFacts(timeout, recovery or 0, i["action"] or g_action)
    f.lossless_priorities = tuple(sorted(lossless))
    f.hash_fields = hash_fields
    return f
