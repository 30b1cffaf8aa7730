"""QoS facts: what a config means for the lossless chain, independent of syntax.

Readers parse a rendered (or running) config of their NOS into these; `facts_of(plan)` says
what the plan asks for. Round-trip tests assert read(render(plan)) == facts_of(plan), and the
deploy layer reports drift as a difference of facts ("Ethernet1/5: PFC priority 3 off").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netcfg.render.plan import DevicePlan


@dataclass(frozen=True, slots=True)
class Ecn:
    min: int  # bytes
    max: int  # bytes
    probability: int  # percent


@dataclass(frozen=True, slots=True)
class WatchdogFacts:
    detection_ms: int
    restoration_ms: int
    action: str


@dataclass(slots=True)
class QosFacts:
    dscp_to_tc: dict[int, int] = field(default_factory=dict)
    lossless_priorities: tuple[int, ...] = ()
    #: interface -> PFC priorities enabled on it (only interfaces with PFC on)
    pfc_ports: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: interface -> queue -> ECN thresholds
    ecn: dict[str, dict[int, Ecn]] = field(default_factory=dict)
    #: interface -> watchdog (only interfaces with a watchdog on)
    watchdog: dict[str, WatchdogFacts] = field(default_factory=dict)
    #: interface -> L2 MTU
    mtu: dict[str, int] = field(default_factory=dict)
    hash_fields: tuple[str, ...] = ()

    def differences(self, other: QosFacts) -> list[str]:
        """Human lines for each fact that differs (self = wanted, other = found)."""
        out: list[str] = []
        for d in sorted(set(self.dscp_to_tc) | set(other.dscp_to_tc)):
            a, b = self.dscp_to_tc.get(d), other.dscp_to_tc.get(d)
            if a != b:
                out.append(f"DSCP {d}: traffic class {b} instead of {a}")
        if self.lossless_priorities != other.lossless_priorities:
            out.append(f"lossless priorities {list(other.lossless_priorities)} instead of "
                       f"{list(self.lossless_priorities)}")
        for name in sorted(set(self.pfc_ports) | set(other.pfc_ports)):
            want, got = set(self.pfc_ports.get(name, ())), set(other.pfc_ports.get(name, ()))
            for prio in sorted(want - got):
                out.append(f"{name}: PFC priority {prio} off")
            for prio in sorted(got - want):
                out.append(f"{name}: PFC priority {prio} on, not in the intent")
        for name in sorted(set(self.ecn) | set(other.ecn)):
            marks, seen = self.ecn.get(name, {}), other.ecn.get(name, {})
            for q in sorted(set(marks) | set(seen)):
                if marks.get(q) != seen.get(q):
                    out.append(f"{name}: queue {q} ECN {seen.get(q)} instead of {marks.get(q)}")
        for name in sorted(set(self.watchdog) | set(other.watchdog)):
            if self.watchdog.get(name) != other.watchdog.get(name):
                out.append(f"{name}: PFC watchdog {other.watchdog.get(name)} instead of "
                           f"{self.watchdog.get(name)}")
        for name in sorted(set(self.mtu) | set(other.mtu)):
            if self.mtu.get(name) != other.mtu.get(name):
                out.append(f"{name}: MTU {other.mtu.get(name)} instead of {self.mtu.get(name)}")
        if set(self.hash_fields) != set(other.hash_fields):
            out.append(f"ECMP hash fields {sorted(other.hash_fields)} instead of "
                       f"{sorted(self.hash_fields)}")
        return out


def facts_of(plan: DevicePlan) -> QosFacts:
    """What the plan asks for, in netcfg's units."""
    f = QosFacts(dscp_to_tc=dict(plan.qos.dscp_to_tc),
                 lossless_priorities=tuple(plan.qos.pfc_priorities),
                 hash_fields=tuple(plan.ecmp.fields))
    for i in plan.interfaces:
        f.mtu[i.name] = i.mtu
        if i.pfc_priorities:
            f.pfc_ports[i.name] = tuple(i.pfc_priorities)
        if i.ecn:
            f.ecn[i.name] = {e.queue: Ecn(e.min, e.max, e.probability) for e in i.ecn}
        if i.watchdog is not None and i.watchdog.enabled:
            f.watchdog[i.name] = WatchdogFacts(i.watchdog.detection_ms, i.watchdog.restoration_ms,
                                               i.watchdog.action)
    return f
