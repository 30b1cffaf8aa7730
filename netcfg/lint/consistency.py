"""Cross-device rules: what every DevicePlan and NIC profile must agree on.

One intent generates every device, so most of these hold by construction; overrides (role,
device, port), explicit topologies and NIC choices are how an intent breaks them. Each rule
reads the DevicePlans (the numbers the templates would print), so it judges what would be
deployed, and points at the intent value that made the difference.

Rules of shared/specs/dcqcn-ecn-ecmp.md section 6 already checked elsewhere: P3/P4 (BUF001,
BUF002; headroom itself is derived, never under-sized), P5 (cable is a required key, SCH002),
P6 (BUF003), P8/P11/P12 (DLK001-DLK003), E2-E6 (ECN001-ECN005), E8 (DCQ003), E9 (DCQ004).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netcfg.findings import Finding, Rule
from netcfg.intent.yamlsrc import PathKey
from netcfg.render.plan import TRUST, DevicePlan, Interface
from netcfg.topology import effective
from netcfg.topology.fabric import Fabric, Link, Port

#: PFC watchdog bounds in ms (SONiC pfcwd: detection 100-5000, restoration 100-60000).
DETECTION_MS = (100, 5000)
RESTORATION_MS = (100, 60000)
#: Hash inputs RoCEv2 ECMP needs: the UDP source port carries the entropy (dst port is 4791).
HASH_REQUIRED = ("src_ip", "dst_ip", "l4_src_port")

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("LNK001", "error", "the two ends of a link enable different PFC priorities",
         "a pause for a priority the peer ignores is useless, and lossless traffic crossing a "
         "hop without PFC is dropped; checked switch-switch and switch-NIC (the NIC profile)",
         "P1; IEEE 802.1Qbb"),
    Rule("LNK002", "error", "the two ends of a switch-switch link have different MTUs",
         "frames above the smaller MTU are dropped (or, routed, fragmented - RoCE is not)",
         "P1 (every hop of a lossless path); operational"),
    Rule("LNK003", "error", "the two ends of a link disagree on speed or QoS trust",
         "a NIC that cannot run the link speed never comes up at it, and a trust mismatch "
         "classifies RoCE into the wrong queue on one side", "P1, P2"),
    Rule("LNK004", "warning", "a lossy up/down link on lossless paths",
         "RoCE crossing a hop without PFC is dropped under congestion", "P1"),
    Rule("LAT001", "error", "a lateral (same-tier) link is lossless and not proven safe",
         "down-lateral-up turns create cyclic buffer dependencies; lossless lateral links "
         "pass only when the deadlock checker proves the fabric free at the chosen depth",
         "P10; cases C06/C07"),
    Rule("NIC001", "error", "switches and NICs disagree on RoCE or CNP classification",
         "the DSCP map, RoCE code point and CNP DSCP/priority must mean the same queue on "
         "every switch and NIC, or RoCE silently lands in a lossy queue", "P2, E7"),
    Rule("CNP001", "error", "the CNP class is not strict priority, or is lossless",
         "CNPs must overtake the data they slow down and never be paused with it",
         "E7; Cumulus TC6 strict; mlx5 defaults (48/6)"),
    Rule("ECN010", "error", "ECN off on a lossless queue other than RoCE's",
         "with DCQCN on, every lossless queue needs a congestion signal before PFC "
         "(the RoCE queue itself is DCQ001)", "E1; DCQCN 2015"),
    Rule("PWD001", "error", "PFC watchdog off on a lossless port",
         "a broken NIC's pause storm, or a residual deadlock, then spreads unchecked",
         "P7; Guo 2016"),
    Rule("PWD002", "error", "PFC watchdog times outside the accepted range",
         "detection 100-5000 ms and restoration 100-60000 ms (SONiC pfcwd limits)",
         "P7; sonic-utilities pfcwd/main.py"),
    Rule("HSH001", "error", "the same ECMP hash seed on two consecutive tiers",
         "identical hashing at consecutive tiers polarizes: a leaf's flows reach a spine "
         "already sorted and use one of its uplinks", "H2; SONiC switch.json.j2"),
    Rule("HSH002", "error", "ECMP hash lacks the IP addresses or the L4 source port",
         "RoCEv2's entropy is the UDP source port; the destination port is always 4791",
         "H1; include/rdma/ib_verbs.h"),
    Rule("HSH003", "error", "per-packet ECMP spraying of RoCE",
         "reordering triggers go-back-N retransmission on NICs without out-of-order "
         "delivery; no NIC of the catalog is modelled as tolerating it", "H4"),
)}


@dataclass
class Collect:
    """Every occurrence as its own finding (waivers match devices and ports one by one);
    `merge` folds the repeats afterwards."""

    fabric: Fabric
    rules: dict[str, Rule] = field(default_factory=lambda: RULES)
    out: list[Finding] = field(default_factory=list)

    def add(self, rule: str, path: PathKey | None, message: str, *, kind: str = "",
            device: str | None = None, interface: str | None = None) -> None:
        sev = self.rules[rule].severity
        if path is None:
            self.out.append(Finding.at(rule, message, None, severity=sev, device=device,
                                       interface=interface))
        else:
            self.out.append(self.fabric.loaded.finding(rule, message, path, severity=sev,
                                                       device=device, interface=interface))

    def findings(self) -> list[Finding]:
        return self.out


def merge(results: list[Any]) -> list[Any]:
    """Fold repeats of a cross-device finding (same rule, intent value and waiver) into the
    first one, "(and N more)": one intent line at fault is one finding, however many ports."""
    from dataclasses import replace

    from netcfg.lint.raw import RULES as RAW
    from netcfg.lint.routing import RULES as ROUTING

    groups: dict[tuple, list[Any]] = {}
    order: list[Any] = []
    for c in results:
        f = c.finding
        if f.rule not in RULES and f.rule not in ROUTING and f.rule not in RAW:
            order.append(c)
            continue
        key = (f.rule, f.path, f.file, f.line, f.column, c.waiver_index)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(c)
    out = []
    for item in order:
        if not isinstance(item, tuple):
            out.append(item)
            continue
        first, more = groups[item][0], len(groups[item]) - 1
        if more:
            f = first.finding
            first = replace(first, finding=replace(f, message=f"{f.message} (and {more} more)"))
        out.append(first)
    return out


class _Plans:
    """Interfaces of the DevicePlans by (device, port) for peer lookups."""

    def __init__(self, plans: dict[str, DevicePlan]):
        self.plans = plans
        self.ifaces = {name: {i.name: i for i in p.interfaces} for name, p in plans.items()}

    def iface(self, port: Port) -> Interface | None:
        got = self.ifaces.get(port.device.name)
        return got.get(port.name) if got is not None else None


def check(fabric: Fabric, plans: dict[str, DevicePlan], report: Any = None) -> list[Finding]:
    """All cross-device rules; `report` is the deadlock Report (None: the check did not run)."""
    c = Collect(fabric)
    p = _Plans(plans)
    nics = _nic_profiles(fabric)
    _links(fabric, p, nics, c)
    _lateral(fabric, report, c)
    _classification(fabric, plans, nics, c)
    _cnp_class(fabric, c)
    _ecn(fabric, plans, c)
    _watchdog(fabric, p, c)
    _hashing(fabric, plans, c)
    return c.findings()


def _nic_profiles(fabric: Fabric) -> dict[str, dict]:
    from netcfg.render.host import profile

    return {nic: profile(fabric, nic) for nic in sorted({h.platform for h in fabric.hosts()
                                                         if h.platform})}


def _link_path(fabric: Fabric, link: Link, fld: str) -> PathKey | None:
    """Where a link's `fld` (lossless, speed) was decided: a port override, else the link."""
    for port in (link.a, link.b):
        if port.origin and fld in port.origin:
            return port.origin[fld]
    src = link.source
    if not src:
        return None
    li = fabric.loaded
    if li.is_set(src + (fld,)):
        return src + (fld,)
    if src[:2] == ("topology", "links") and fld == "speed":
        return ("topology", "link_defaults", "speed")
    return src


def _ends(link: Link) -> tuple[Port, Port]:
    """(lower tier, upper tier) ends."""
    a, b = link.a, link.b
    return (a, b) if a.device.tier <= b.device.tier else (b, a)


def _links(fabric: Fabric, p: _Plans, nics: dict[str, dict], c: Collect) -> None:
    pfc = fabric.loaded.intent.qos.pfc_priorities()
    for link in fabric.links:
        low, high = _ends(link)
        if low.device.tier == 0:
            _host_link(fabric, link, low, high, p, nics, c)
            continue
        ia, ib = p.iface(low), p.iface(high)
        if ia is None or ib is None:
            continue
        if ia.pfc_priorities != ib.pfc_priorities:
            c.add("LNK001", _link_path(fabric, link, "lossless"),
                  f"{low.id} enables PFC on {list(ia.pfc_priorities)} but its peer {high.id} on "
                  f"{list(ib.pfc_priorities)}", device=low.device.name, interface=low.name)
        if ia.mtu != ib.mtu:
            port, other = (low, high) if _mtu_path(low) is not None else (high, low)
            c.add("LNK002", _mtu_path(port) or _mtu_path(other),
                  f"{port.id} has MTU {port.mtu} but its peer {other.id} has {other.mtu}: "
                  f"frames above {min(ia.mtu, ib.mtu)} bytes are dropped on this hop",
                  device=port.device.name, interface=port.name)
        if ia.speed != ib.speed:
            c.add("LNK003", _link_path(fabric, link, "speed"),
                  f"{low.id} runs at {ia.speed_text} but its peer {high.id} at {ib.speed_text}",
                  device=low.device.name, interface=low.name)
        if pfc and not link.lossless and low.device.tier != high.device.tier:
            c.add("LNK004", _link_path(fabric, link, "lossless"),
                  f"{low.id} - {high.id} ({link.kind}) is lossy: RoCE crossing it on priority "
                  f"{', '.join(map(str, pfc))} is dropped under congestion instead of paused",
                  device=low.device.name, interface=low.name)


def _mtu_path(port: Port) -> PathKey | None:
    if port.origin and "mtu" in port.origin:
        return port.origin["mtu"]
    got = port.device.origin.get("mtu")
    return got if got is not None and got != ("fabric", "mtu") else None


def _host_link(fabric: Fabric, link: Link, host: Port, switch: Port, p: _Plans,
               nics: dict[str, dict], c: Collect) -> None:
    iface = p.iface(switch)
    nic = nics.get(host.device.platform or "")
    if iface is None or nic is None:
        return
    nic_pfc = tuple(nic["pfc_priorities"])
    if iface.pfc_priorities != nic_pfc:
        c.add("LNK001", _link_path(fabric, link, "lossless"),
              f"{switch.id} enables PFC on {list(iface.pfc_priorities)} but the {nic['nic']} NIC "
              f"of {host.device.name} pauses priorities {list(nic_pfc)} (one NIC profile per "
              "model): its pauses are ignored and RoCE is dropped on this hop",
              device=switch.device.name, interface=switch.name)
    speeds = fabric.catalog.nics[nic["nic"]].speeds
    if link.a.speed not in speeds:
        c.add("LNK003", _link_path(fabric, link, "speed"),
              f"{switch.id} runs at {iface.speed_text} but the {nic['nic']} NIC of "
              f"{host.device.name} supports only {', '.join(f'{s // 1000}G' for s in speeds)}",
              device=switch.device.name, interface=switch.name)
    plan_trust = TRUST
    if plan_trust != nic["trust"]:
        c.add("LNK003", None, f"{switch.id} trusts {plan_trust} but the {nic['nic']} NIC of "
              f"{host.device.name} trusts {nic['trust']}", device=switch.device.name,
              interface=switch.name)


def _lateral(fabric: Fabric, report: Any, c: Collect) -> None:
    if not fabric.loaded.intent.qos.pfc_priorities():
        return
    if report is not None and not report.deadlock:
        return  # proven free at the depth checked
    why = ("the deadlock check was skipped" if report is None
           else "the deadlock checker found a cyclic buffer dependency")
    for link in fabric.links:
        a, b = link.a.device, link.b.device
        if link.lossless and a.tier == b.tier and a.tier > 0:
            c.add("LAT001", _link_path(fabric, link, "lossless"),
                  f"lateral link {link.a.id} - {link.b.id} is lossless and {why}: make it "
                  "lossy (lossless: false) or prove it safe", device=a.name,
                  interface=link.a.name)


def _classification(fabric: Fabric, plans: dict[str, DevicePlan], nics: dict[str, dict],
                    c: Collect) -> None:
    intent = fabric.loaded.intent
    qos = intent.qos
    if not plans:
        return
    ref_name = min(plans)
    ref = plans[ref_name].qos
    for name, plan in plans.items():
        if plan.qos.dscp_to_tc != ref.dscp_to_tc:
            diff = sorted(d for d in range(64) if plan.qos.dscp_to_tc[d] != ref.dscp_to_tc[d])
            c.add("NIC001", ("qos", "classes"), f"{name} classifies DSCP {diff[:8]} differently "
                  f"from {ref_name}", kind="switch", device=name)
    roce = qos.classes.get(qos.roce_class)
    if roce is not None and not roce.dscp:
        c.add("NIC001", ("qos", "classes", qos.roce_class, "dscp"),
              f"RoCE class '{qos.roce_class}' has no DSCP: NICs have no code point to mark RoCE "
              f"with, and switches put it in the default class (traffic class {ref.default_tc})")
    cnp_tc = qos.classes[qos.cnp_class].traffic_class
    for nic, prof in nics.items():
        nic_map = {int(d): p for d, p in prof["dscp_to_priority"].items()}
        if nic_map != ref.dscp_to_tc:
            c.add("NIC001", ("qos", "classes"), f"the {nic} NIC profile maps DSCP to priorities "
                  f"differently from the switches", kind=nic)
        cnp = prof["cnp"]
        marking = effective.cnp_marking(intent)
        if cnp["dscp"] is not None and ref.dscp_to_tc[cnp["dscp"]] != cnp_tc:
            c.add("NIC001", marking["cnp_dscp"][1],
                  f"NICs mark CNPs with DSCP {cnp['dscp']}, which the switches classify into "
                  f"traffic class {ref.dscp_to_tc[cnp['dscp']]}, not the CNP class "
                  f"'{qos.cnp_class}' (traffic class {cnp_tc})", kind="cnp_dscp")
        if cnp["priority"] is not None and cnp["priority"] != cnp_tc:
            c.add("NIC001", marking["cnp_802p_prio"][1],
                  f"NICs send CNPs on priority {cnp['priority']} but the switches' CNP class "
                  f"'{qos.cnp_class}' is traffic class {cnp_tc}", kind="cnp_prio")


def _cnp_class(fabric: Fabric, c: Collect) -> None:
    qos = fabric.loaded.intent.qos
    cls = qos.classes.get(qos.cnp_class)
    if cls is None:
        return
    base = ("qos", "classes", qos.cnp_class)
    if cls.scheduling.mode != "strict":
        c.add("CNP001", base + ("scheduling", "mode"),
              f"CNP class '{qos.cnp_class}' is scheduled by ETS weight {cls.scheduling.weight}%: "
              "CNPs wait behind bulk data; make it strict priority")
    if cls.lossless:
        c.add("CNP001", base + ("lossless",),
              f"CNP class '{qos.cnp_class}' is lossless: CNPs are paused together with the data "
              "they are meant to slow down")


def _ecn(fabric: Fabric, plans: dict[str, DevicePlan], c: Collect) -> None:
    intent = fabric.loaded.intent
    qos = intent.qos
    if not intent.dcqcn.enabled:
        return  # DCQCN off by design (DCQ001 asks for the design note)
    for name, cls in qos.classes.items():
        if not cls.lossless or name == qos.roce_class:
            continue
        if qos.ecn_of(name).enabled:
            continue
        path = ("qos", "classes", name, "ecn", "enabled")
        hit = next(((p, i) for p in plans.values() for i in p.interfaces
                    if i.lossless and cls.traffic_class in i.pfc_priorities), None)
        if hit is None:
            continue
        plan, iface = hit
        n = sum(1 for p in plans.values() for i in p.interfaces if i.lossless)
        c.add("ECN010", path, f"lossless class '{name}' (traffic class {cls.traffic_class}) has "
              f"ECN off on {n} lossless ports while DCQCN is on: PFC is its only congestion "
              "signal", device=plan.hostname, interface=iface.name)


def _watchdog(fabric: Fabric, p: _Plans, c: Collect) -> None:
    per_port = bool(fabric.loaded.intent.overrides.ports)
    for dev in fabric.switches():
        eff = None
        for port in dev.ports:
            iface = p.iface(port)
            if iface is None or not iface.lossless or iface.watchdog is None:
                continue
            wd = iface.watchdog
            if wd.enabled and DETECTION_MS[0] <= wd.detection_ms <= DETECTION_MS[1] and \
                    RESTORATION_MS[0] <= wd.restoration_ms <= RESTORATION_MS[1]:
                continue
            if eff is None or per_port:
                eff = effective.watchdog(fabric, dev, port if per_port else None)
            if not wd.enabled:
                c.add("PWD001", eff["enabled"][1], f"PFC watchdog is off on lossless port "
                      f"{port.id}", device=dev.name, interface=port.name)
                continue
            for key, value, (lo, hi) in (("detection", wd.detection_ms, DETECTION_MS),
                                         ("restoration", wd.restoration_ms, RESTORATION_MS)):
                if not lo <= value <= hi:
                    c.add("PWD002", eff[key][1], f"PFC watchdog {key} {value} ms on {port.id} is "
                          f"outside {lo}-{hi} ms", kind=key, device=dev.name,
                          interface=port.name)


def _hashing(fabric: Fabric, plans: dict[str, DevicePlan], c: Collect) -> None:
    intent = fabric.loaded.intent
    ecmp = intent.ecmp
    missing = [f for f in HASH_REQUIRED if f not in ecmp.fields]
    if missing:
        c.add("HSH002", ("ecmp", "fields"), f"ECMP hash fields {list(ecmp.fields)} lack "
              f"{', '.join(missing)}: RoCEv2 flows between two NICs then share one path")
    if ecmp.mode == "per_packet":
        c.add("HSH003", ("ecmp", "mode"), "per-packet ECMP sprays one RoCE flow over many paths: "
              "reordered packets trigger go-back-N retransmission; use flowlet or static")
    seen: set[tuple[str, str]] = set()
    for link in fabric.links:
        low, high = _ends(link)
        if low.device.tier == 0 or low.device.tier == high.device.tier:
            continue
        pair = (low.device.name, high.device.name)
        if pair in seen:
            continue
        seen.add(pair)
        a, b = plans.get(pair[0]), plans.get(pair[1])
        if a is None or b is None:
            continue
        if a.ecmp.seed == b.ecmp.seed and a.ecmp.algorithm == b.ecmp.algorithm:
            dev = _seed_owner(low, high)
            c.add("HSH001", dev.origin.get("ecmp_seed"),
                  f"{low.device.name} ({low.device.role}) and {high.device.name} "
                  f"({high.device.role}) hash with the same seed {a.ecmp.seed}: traffic "
                  "polarizes onto few uplinks", device=dev.name)


def _seed_owner(low: Port, high: Port) -> Any:
    """The end whose seed an override set (that is the line to change), else the upper one."""
    for dev in (high.device, low.device):
        if dev.origin.get("ecmp_seed", ("",))[0] == "overrides":
            return dev
    return high.device
