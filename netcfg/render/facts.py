"""QoS facts: what a config means for the lossless chain, independent of syntax.

Readers parse a rendered (or running) config of their NOS into these; `facts_of(plan)` says
what the plan asks for. Round-trip tests assert read(render(plan)) == facts_of(plan), and the
deploy layer reports drift as a difference of facts ("Ethernet1/5: PFC priority 3 off").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netcfg.intent.units import format_size
from netcfg.render.plan import DevicePlan


@dataclass(frozen=True, slots=True)
class Ecn:
    min: int  # bytes
    max: int  # bytes
    probability: int  # percent

    def parts(self) -> list[tuple[str, str]]:
        """Each threshold as a person writes it, in the intent's units (`150KB`)."""
        return [("min", format_size(self.min)), ("max", format_size(self.max)),
                ("probability", f"{self.probability}%")]

    def __str__(self) -> str:
        return spoken(self)


@dataclass(frozen=True, slots=True)
class WatchdogFacts:
    detection_ms: int
    restoration_ms: int
    action: str

    def parts(self) -> list[tuple[str, str]]:
        """Each setting as a person writes it (`200ms`); a restoration of 0 is a file that
        states none (NVUE has no restoration time)."""
        return [("detection", f"{self.detection_ms}ms"),
                ("restoration", f"{self.restoration_ms}ms" if self.restoration_ms else "none"),
                ("action", self.action)]

    def __str__(self) -> str:
        return spoken(self)


def spoken(value: object) -> str:
    """A fact's value as a person writes it, the one way facts are printed (drift lines, the
    docs, reports): `detection 200ms, restoration 200ms, action drop`, `min 150KB, max 1500KB,
    probability 5%`, `3, 4` for a tuple, `none` for nothing."""
    if value is None:
        return "none"
    if isinstance(value, (Ecn, WatchdogFacts)):
        return ", ".join(f"{name} {text}" for name, text in value.parts())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(spoken(v) for v in items) or "none"
    return str(value)


def _changed(want: Ecn | WatchdogFacts, got: Ecn | WatchdogFacts) -> str:
    """Only the settings that differ: `detection 400ms instead of 200ms`."""
    return "; ".join(f"{name} {b} instead of {a}"
                     for (name, a), (_, b) in zip(want.parts(), got.parts()) if a != b)


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
                out.append(f"DSCP {d}: " + (
                    f"not mapped, the intent has traffic class {a}" if b is None
                    else f"traffic class {b}, not in the intent" if a is None
                    else f"traffic class {b} instead of {a}"))
        if self.lossless_priorities != other.lossless_priorities:
            out.append(f"lossless priorities {spoken(other.lossless_priorities)} instead of "
                       f"{spoken(self.lossless_priorities)}")
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
                    out.append(f"{name}: queue {q} ECN "
                               + _setting(marks.get(q), seen.get(q)))
        for name in sorted(set(self.watchdog) | set(other.watchdog)):
            if self.watchdog.get(name) != other.watchdog.get(name):
                out.append(f"{name}: PFC watchdog "
                           + _setting(self.watchdog.get(name), other.watchdog.get(name)))
        for name in sorted(set(self.mtu) | set(other.mtu)):
            a, b = self.mtu.get(name), other.mtu.get(name)
            if a != b:
                out.append(f"{name}: " + (f"no MTU stated, the intent has {a}" if b is None
                                          else f"MTU {b}, not in the intent" if a is None
                                          else f"MTU {b} instead of {a}"))
        if set(self.hash_fields) != set(other.hash_fields):
            out.append(f"ECMP hash fields {spoken(sorted(other.hash_fields))} instead of "
                       f"{spoken(sorted(self.hash_fields))}")
        return out


def _setting(want: Ecn | WatchdogFacts | None, got: Ecn | WatchdogFacts | None) -> str:
    """A port's ECN or watchdog that differs: off, on where the intent has none, or the
    settings that differ."""
    if got is None:
        return f"off, the intent has {spoken(want)}"
    if want is None:
        return f"on ({spoken(got)}), not in the intent"
    return _changed(want, got)


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
