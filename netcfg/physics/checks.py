"""Judge the derived numbers: buffer fit, ECN before PFC, DCQCN consistent with the switches.

Every finding points at the intent value at fault. A problem that repeats on many switches
(the same class ECN on every leaf) is reported once, naming the first switch and the count.
"""

from __future__ import annotations

from typing import Any

from netcfg.findings import Finding
from netcfg.intent.units import format_size
from netcfg.intent.yamlsrc import PathKey
from netcfg.physics import Physics
from netcfg.physics.ecn import bdp
from netcfg.physics.rules import RULES
from netcfg.topology import effective
from netcfg.topology.fabric import Fabric, Port

PMAX_WARN = 20
COSTLIEST = 3


class _Collector:
    """Findings keyed by (rule, path, kind): the first occurrence is kept, the rest counted."""

    def __init__(self, fabric: Fabric):
        self.li = fabric.loaded
        self.first: dict[tuple[str, PathKey, str], dict[str, Any]] = {}
        self.count: dict[tuple[str, PathKey, str], int] = {}

    def add(self, rule: str, path: PathKey, message: str, kind: str = "",
            device: str | None = None, interface: str | None = None) -> None:
        key = (rule, path, kind)
        if key in self.first:
            self.count[key] += 1
            return
        self.first[key] = {"message": message, "device": device, "interface": interface}
        self.count[key] = 1

    def findings(self) -> list[Finding]:
        out = []
        for key, f in self.first.items():
            rule, path, _ = key
            more = self.count[key] - 1
            msg = f["message"] + (f" (and on {more} more)" if more else "")
            out.append(self.li.finding(rule, msg, path, severity=RULES[rule].severity,
                                       device=f["device"], interface=f["interface"]))
        return out


def check(physics: Physics) -> list[Finding]:
    fabric = physics.fabric
    c = _Collector(fabric)
    _buffers(physics, c)
    _ecn(physics, c)
    _dcqcn(fabric, c)
    return c.findings()


def _buffers(physics: Physics, c: _Collector) -> None:
    fabric = physics.fabric
    qos = fabric.loaded.intent.qos
    buf = qos.buffer
    for name, b in physics.budgets.items():
        dev = b.device
        if b.reserved + b.shp_pool > b.buffer:
            top = ", ".join(f"{p.name} {format_size(h.size * b.pgs)}"
                            for p, h in b.costliest(COSTLIEST))
            pool = f" + shared headroom pool {format_size(b.shp_pool)}" if b.shp_pool else ""
            c.add("BUF001", dev.platform_path,
                  f"PFC headroom {format_size(b.reserved)}{pool} exceeds the "
                  f"{format_size(b.buffer)} buffer of {dev.platform}; costliest ports: {top}. "
                  "Shorten cables, use fewer lossless priorities or a shared headroom pool "
                  "(qos.buffer.shared_headroom_pool)", kind=str(dev.platform), device=name)
        elif b.shared < b.buffer * buf.min_shared_pool / 100:
            c.add("BUF002", ("qos", "buffer", "min_shared_pool"),
                  f"only {format_size(b.shared)} of {format_size(b.buffer)} stays shared after "
                  f"{format_size(b.reserved + b.shp_pool)} of headroom, below the "
                  f"{buf.min_shared_pool}% floor", kind=str(dev.platform), device=name)
    prios = qos.pfc_priorities()
    if len(prios) > 2:
        path = (
            ("qos", "pfc", "priorities") if qos.pfc.priorities is not None else ("qos", "classes")
        )
        c.add("BUF003", path, f"{len(prios)} lossless priorities ({', '.join(map(str, prios))}): "
              "each reserves a full headroom on every port; two is the common maximum")


def _ecn(physics: Physics, c: _Collector) -> None:
    fabric = physics.fabric
    qos = fabric.loaded.intent.qos
    rtt = qos.buffer.rtt
    for dev in fabric.switches():
        b = physics.budgets[dev.name]
        # a queue's ECN follows from the switch and the port's speed (Physics.ecn): each
        # class once per speed, at the first port of that speed
        first: dict[int, Port] = {}
        for port in dev.ports:
            if port.speed not in first:
                first[port.speed] = port
        for port in first.values():
            for cls in qos.classes:
                e = physics.ecn(port, cls)
                if e.enabled:
                    _ecn_one(c, port, cls, e, b.queue_limit, rtt)


def _ecn_one(c: _Collector, port: Port, cls: str, e: Any, limit: int, rtt: float) -> None:
    dev = port.device.name
    base: PathKey = ("qos", "classes", cls, "ecn")
    at_min = e.source("min") or base
    at_max = e.source("max") or base
    frame = port.mtu
    if not 0 < e.min < e.max:
        c.add("ECN001", at_min if e.source("min") else at_max,
              f"class {cls}: ECN min {format_size(e.min)} must be below max "
              f"{format_size(e.max)}", kind="order", device=dev, interface=port.name)
        return
    if e.min < frame:
        c.add("ECN001", at_min, f"class {cls}: ECN min {format_size(e.min)} is less than one "
              f"{frame}-byte frame; marking a one-packet queue only adds noise",
              kind="frame", device=dev, interface=port.name)
    trigger = format_size(limit)
    if e.min >= limit:
        c.add("ECN003", at_min, f"class {cls}: ECN min {format_size(e.min)} is at or above "
              f"{trigger}, where a congested PG sends XOFF (alpha x free buffer with "
              "qos.buffer.congested_queues busy): PFC fires before the first mark",
              kind="limit", device=dev, interface=port.name)
    elif e.max >= limit:
        c.add("ECN002", at_max, f"class {cls}: ECN max {format_size(e.max)} is at or above the "
              f"queue's dynamic limit {trigger} (where PFC XOFF fires): marking never reaches "
              "100% before PFC", kind="limit", device=dev, interface=port.name)
    if e.probability > PMAX_WARN:
        c.add("ECN004", e.source("probability") or base,
              f"class {cls}: marking probability {e.probability}% is above {PMAX_WARN}%; "
              "DCQCN's paper uses 1%, SONiC's sample 5%")
    floor = bdp(port.speed, rtt) / 7
    if e.min < floor:
        c.add("ECN005", at_min, f"class {cls}: ECN min {format_size(e.min)} is below BDP/7 = "
              f"{format_size(int(floor))} at {port.speed // 1000}G and RTT {rtt:g} us "
              "(qos.buffer.rtt); expect throughput loss", kind=str(port.speed), device=dev,
              interface=port.name)


def _dcqcn(fabric: Fabric, c: _Collector) -> None:
    intent = fabric.loaded.intent
    qos = intent.qos
    dc = intent.dcqcn
    roce = qos.classes.get(qos.roce_class)
    if roce is not None and not roce.lossless:
        c.add("DCQ005", ("qos", "classes", qos.roce_class, "lossless"),
              f"RoCE class '{qos.roce_class}' is not lossless: RoCE relies on ECN alone and "
              "drops under incast")
    if not dc.enabled:
        if dc.design_note is None:
            c.add("DCQ001", ("dcqcn", "enabled"),
                  "DCQCN is off: say what controls congestion instead in dcqcn.design_note "
                  "(e.g. receiver-driven admission in the collective library)")
        return
    if roce is not None and not qos.ecn_of(qos.roce_class).enabled:
        c.add("DCQ001", ("qos", "classes", qos.roce_class, "ecn", "enabled"),
              f"DCQCN is on but ECN is off on RoCE class '{qos.roce_class}': no switch marks "
              "CE, so the NICs never slow down (set dcqcn.enabled false, with a design note, "
              "if that is the design)")
    _cnp_path(fabric, c)
    rp = dc.rp
    if dc.np.min_time_between_cnps > rp.rate_reduce_monitor_period:
        c.add("DCQ003", ("dcqcn", "np", "min_time_between_cnps"),
              f"min_time_between_cnps {dc.np.min_time_between_cnps} us is longer than "
              f"rate_reduce_monitor_period {rp.rate_reduce_monitor_period} us: some reduction "
              "periods get no CNP")
    _rates(fabric, c)


def _cnp_path(fabric: Fabric, c: _Collector) -> None:
    qos = fabric.loaded.intent.qos
    marking = effective.cnp_marking(fabric.loaded.intent)
    dscp, dscp_path = marking["cnp_dscp"]
    prio, prio_path = marking["cnp_802p_prio"]
    pfc = set(qos.pfc_priorities())
    if prio is not None and prio in pfc:
        c.add("DCQ002", prio_path, f"CNP priority {prio} is a PFC priority: CNPs would be "
              "paused together with the data they are meant to slow down")
    if dscp is None:
        return
    cls_name = next((n for n, k in qos.classes.items() if dscp in k.dscp), qos.default_class)
    cls = qos.classes.get(cls_name)
    if cls is None:
        return
    strongest = max((k.scheduling.weight or 0 for k in qos.classes.values()), default=0)
    problems = []
    if cls_name == qos.roce_class:
        problems.append("it is the RoCE data class")
    if cls.lossless or cls.traffic_class in pfc:
        problems.append("it is lossless (paused with the data)")
    if cls.scheduling.mode != "strict" and (cls.scheduling.weight or 0) < strongest:
        problems.append("it is neither strict priority nor the heaviest ETS class")
    if problems:
        c.add("DCQ002", dscp_path, f"NICs mark CNPs with DSCP {dscp}, which the switches put in "
              f"class '{cls_name}', but {' and '.join(problems)}")


def _rates(fabric: Fabric, c: _Collector) -> None:
    rp = fabric.loaded.intent.dcqcn.rp
    base = ("dcqcn", "rp")
    if rp.rpg_min_rate <= 0:
        c.add("DCQ004", base + ("rpg_min_rate",), "rpg_min_rate must be above 0 Mb/s, or a "
              "flow can be throttled to a standstill")
    if rp.rpg_ai_rate >= rp.rpg_hai_rate:
        c.add("DCQ004", base + ("rpg_ai_rate",), f"rpg_ai_rate {rp.rpg_ai_rate} Mb/s must be "
              f"below rpg_hai_rate {rp.rpg_hai_rate} Mb/s (additive below hyper increase)")
    speeds = {p.speed for h in fabric.hosts() for p in h.ports if p.peer is not None}
    if not speeds:
        return
    line = min(speeds)
    if rp.rpg_hai_rate >= line:
        c.add("DCQ004", base + ("rpg_hai_rate",), f"rpg_hai_rate {rp.rpg_hai_rate} Mb/s must be "
              f"below the NIC line rate {line} Mb/s")
    if rp.rpg_max_rate and rp.rpg_max_rate < max(speeds):
        c.add("DCQ004", base + ("rpg_max_rate",), f"rpg_max_rate {rp.rpg_max_rate} Mb/s caps "
              f"NICs below their {max(speeds)} Mb/s line rate; use 0 (line rate) or at least it")
