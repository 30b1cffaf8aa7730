"""Plan against state: one Check per planned thing (a port, a link, a session), held or not.

Every planned item yields a Check either way, so a report can list what passed as well as
what failed; a failed Check becomes a Finding with its rule, device and port. Values are
compared in the unit the NAPALM getter reports (speed in Mb/s; MTU in the NOS's own unit,
converted from the plan's L2 frame MTU by the same function the NOS's renderer uses).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from netcfg.findings import Severity
from netcfg.render.plan import DevicePlan, Interface
from netcfg.vendors import vendor
from netcfg.verify.collect import DeviceState
from netcfg.verify.pfc import PfcState, WatchedQueue

SWITCH_ROLES = ("leaf", "spine", "core")


@dataclass(frozen=True)
class Check:
    """One planned item checked on one switch."""

    rule: str
    device: str
    interface: str | None
    ok: bool
    message: str
    #: how bad a failure is, where that has a measure (pause frames): reports put the worst
    #: first
    amount: float = 0.0

    @property
    def subject(self) -> str:
        return self.device + (f":{self.interface}" if self.interface else "")

    @property
    def severity(self) -> Severity:
        from netcfg.verify.rules import RULES

        return RULES[self.rule].severity


def interfaces(plan: DevicePlan, state: DeviceState) -> list[Check]:
    """Every planned port up, at the planned speed and MTU (VFY004-VFY006)."""
    if state.interfaces is None:
        return []
    out: list[Check] = []
    mtu_of = vendor(plan.nos).reported_mtu
    for i in plan.interfaces:
        got = state.interfaces.get(i.name)
        dev, port = plan.hostname, i.name
        if got is None:
            out.append(Check("VFY004", dev, port, False,
                             f"planned port (to {i.peer}) is not on the switch"))
            continue
        if not got.get("is_up"):
            why = "administratively down" if got.get("is_enabled") is False else "down"
            out.append(Check("VFY004", dev, port, False, f"link to {i.peer} is {why}"))
            continue
        out.append(Check("VFY004", dev, port, True, f"up, to {i.peer}"))
        speed = int(round(float(got.get("speed") or 0)))
        out.append(Check("VFY005", dev, port, speed == i.speed,
                         f"speed {speed} Mb/s" + ("" if speed == i.speed
                                                  else f", planned {i.speed} Mb/s")))
        want = mtu_of(i.mtu)
        if want is not None:
            mtu = int(got.get("mtu") or 0)
            out.append(Check("VFY006", dev, port, mtu == want,
                             f"MTU {mtu}" + ("" if mtu == want else
                                             f", planned {want} (L2 frame {i.mtu})")))
    return out


def _host(name: str) -> str:
    """LLDP system names may carry a domain; the plan names the host."""
    return name.split(".", 1)[0]


def cabling(plan: DevicePlan, state: DeviceState) -> list[Check]:
    """The LLDP neighbour of every planned link between switches is the planned device and
    port (VFY002/VFY003); two ports that see each other's planned peers are named as one
    swapped pair. Links to servers are left out: a server's LLDP agent is the host's
    business, and the lab serves none."""
    if state.lldp is None:
        return []
    links = [i for i in plan.interfaces if i.peer_role in SWITCH_ROLES]
    seen = {i.name: _neighbour(state.lldp.get(i.name) or [], i.peer) for i in links}
    planned = {i.name: i.peer for i in links}
    out: list[Check] = []
    for i in links:
        got = seen[i.name]
        if got is None:
            out.append(Check("VFY003", plan.hostname, i.name, False,
                             f"no LLDP neighbour; planned {i.peer}"))
        elif got == i.peer:
            out.append(Check("VFY002", plan.hostname, i.name, True, f"LLDP neighbour {got}"))
        else:
            out.append(Check("VFY002", plan.hostname, i.name, False,
                             _misplaced(plan.hostname, i, got, seen, planned)))
    return out


def _neighbour(entries: list[dict[str, Any]], planned: str) -> str | None:
    """`host:port` of the first LLDP neighbour. A port ID may be locally assigned (Junos
    sends an ifIndex, with the name in the port description; NAPALM's junos qfx5110 capture):
    the description counts when it names the planned port."""
    if not entries:
        return None
    e = entries[0]
    host = _host(str(e.get("remote_system_name", "")))
    port, described = str(e.get("remote_port", "")), str(e.get("remote_port_description", ""))
    if f"{host}:{described}" == planned and f"{host}:{port}" != planned:
        port = described
    return f"{host}:{port}"


def _misplaced(device: str, i: Interface, got: str, seen: dict[str, str | None],
               planned: dict[str, str]) -> str:
    where = f"{device}:{i.name}"
    other = next((p for p, peer in planned.items() if peer == got and p != i.name), None)
    text = f"LLDP neighbour {got}, planned {i.peer}"
    if other is not None and seen.get(other) == i.peer:
        return (f"{text}: cables swapped between {where} (to {got}) and {device}:{other} "
                f"(to {i.peer})")
    if other is not None:
        return f"{text} ({got} belongs on {device}:{other})"
    return text


def originated(plan: DevicePlan) -> int:
    """How many prefixes a switch announces itself: its loopback and server subnets; a NOS
    that announces server subnets as blocks (SONiC) announces the blocks holding them instead,
    each as an advertised blackhole route, and no block of one subnet (CAP009)."""
    if vendor(plan.nos).capabilities.server_subnets == "blocks":
        return 1 + len(plan.bgp.merged_blocks())
    return len(plan.bgp.networks)


@dataclass(frozen=True)
class PrefixBounds:
    """What the plan lets a session bring (netcfg/lint/prefixes.py, the count lint's RTE006
    judges by): at most the prefixes the sender holds and passes to the receiver, and at most
    the receiving NOS's per-session limit as its file leaves it."""

    #: (receiver, sender) -> the most prefixes the sender announces on that session
    carried: dict[tuple[str, str], int]
    #: receiver -> (its per-session prefix limit, where that comes from)
    limits: dict[str, tuple[int, str]]


def bgp(plan: DevicePlan, state: DeviceState,
        origins: dict[str, int] | None = None,
        bounds: PrefixBounds | None = None) -> list[Check]:
    """Every planned session present with the planned AS (VFY008) and established (VFY007);
    with `origins` (peer -> prefixes it originates), receiving at least those (VFY009); with
    `bounds`, at most what the plan announces on it (VFY022) and at most the NOS's limit
    (VFY023)."""
    if state.bgp is None:
        return []
    out: list[Check] = []
    for n in plan.bgp.neighbors:
        peer: dict[str, Any] | None = state.bgp.get(n.address)
        what = f"BGP {n.address} AS {n.remote_as} ({n.description})"
        if peer is None:
            out.append(Check("VFY008", plan.hostname, n.interface, False,
                             f"{what}: no such session on the switch"))
            continue
        asn = int(peer.get("remote_as") or 0)
        if asn != n.remote_as:
            out.append(Check("VFY008", plan.hostname, n.interface, False,
                             f"{what}: the switch peers with AS {asn}"))
            continue
        out.append(Check("VFY008", plan.hostname, n.interface, True, f"{what} configured"))
        if peer.get("is_up"):
            got = sum(int(af.get("received_prefixes") or 0) for af in
                      (peer.get("address_family") or {}).values()
                      if int(af.get("received_prefixes") or 0) > 0)
            out.append(Check("VFY007", plan.hostname, n.interface, True,
                             f"{what} established, {got} prefix(es) received"))
            want = origins.get(n.name) if origins else None
            if want is not None:
                out.append(Check("VFY009", plan.hostname, n.interface, got >= want,
                                 f"{what}: {got} prefix(es) received, {n.name} originates "
                                 f"{want}"))
            if bounds is not None:
                out += _upper_bounds(plan.hostname, n.name, n.interface, what, got, bounds)
        else:
            why = "shut down" if peer.get("is_enabled") is False else "not established"
            out.append(Check("VFY007", plan.hostname, n.interface, False, f"{what} {why}"))
    return out


def _upper_bounds(device: str, peer: str, port: str, what: str, got: int,
                  bounds: PrefixBounds) -> list[Check]:
    out = []
    most = bounds.carried.get((device, peer))
    if most is not None:
        out.append(Check("VFY022", device, port, got <= most,
                         f"{what}: {got} prefix(es) received, the plan announces at most "
                         f"{most} on this session"))
    limit = bounds.limits.get(device)
    if limit is not None:
        out.append(Check("VFY023", device, port, got <= limit[0],
                         f"{what}: {got} prefix(es) received, the switch's limit is "
                         f"{limit[0]} ({limit[1]})"))
    return out


def config(device: str, status: str, meaning: list[str], diff: str) -> list[Check]:
    """VFY001 from what `netcfg diff` computed: one line per drifted device."""
    if status == "unchanged":
        return [Check("VFY001", device, None, True, "running configuration is the rendered one")]
    lines = sum(1 for line in diff.splitlines() if line[:1] in "+-"
                and not line.startswith(("+++", "---")))
    first = f"; {meaning[0]}" if meaning else ""
    return [Check("VFY001", device, None, False,
                  f"running configuration differs from the rendered one ({lines} line(s) of "
                  f"the device's diff{first}; see `netcfg diff`)")]


def pfc(plan: DevicePlan, state: DeviceState, max_pauses: int = 0) -> list[Check]:
    """Every planned lossless queue watched by the PFC watchdog (VFY010) and not in a storm
    (VFY011); over the interval, pause frames received at most `max_pauses` (VFY012) and no
    drop on a lossless queue (VFY013). The lossless queue is the PFC priority's own number
    (netcfg maps priority n to queue n on every NOS)."""
    first, after = state.pfc, state.pfc_after
    if first is None:
        return []
    out: list[Check] = []
    dev = plan.hostname
    for i in plan.interfaces:
        if not i.lossless:
            continue
        for prio in i.pfc_priorities:
            if first.watchdog is not None:
                out += _watchdog(dev, i, prio, first.watchdog)
            if after is not None:
                out += _over_interval(dev, i.name, prio, first, after, state.interval,
                                      max_pauses)
        if after is not None and i.pfc_priorities:
            out += _port_pauses(dev, i.name, first, after, state.interval, max_pauses)
    return out + ecn(plan, state)


def ecn(plan: DevicePlan, state: DeviceState) -> list[Check]:
    """VFY021: ECN marking configured, as the switch runs it, on every queue the plan marks
    (its ECN profiles: the lossless queue) on every planned port."""
    got = state.pfc.ecn if state.pfc is not None else None
    if got is None:
        return []
    out = []
    for i in plan.interfaces:
        for profile in i.ecn:
            queues = got.get(i.name)
            if queues is None:
                out.append(Check("VFY021", plan.hostname, i.name, False,
                                 f"queue {profile.queue}: the switch shows no ECN state for "
                                 "the port"))
                continue
            on = queues.get(profile.queue, False)
            out.append(Check("VFY021", plan.hostname, i.name, on,
                             f"queue {profile.queue}: ECN marking "
                             + ("configured" if on else "not configured (planned "
                                f"{profile.min}-{profile.max} bytes)")))
    return out


def _watchdog(dev: str, i: Interface, prio: int,
              watchdog: dict[tuple[str, int], WatchedQueue]) -> list[Check]:
    if i.watchdog is None or not i.watchdog.enabled:
        return []
    q = watchdog.get((i.name, prio))
    if q is None or q.status not in ("operational", "stormed"):
        return [Check("VFY010", dev, i.name, False,
                      f"queue {prio}: the PFC watchdog does not watch it (status "
                      f"{q.status if q else 'absent'}): PFC or the watchdog is off there")]
    out = [Check("VFY010", dev, i.name, True, f"queue {prio} watched by the PFC watchdog")]
    if q.status == "stormed":
        out.append(Check("VFY011", dev, i.name, False,
                         f"queue {prio}: PFC storm (detected {q.storms_detected}, restored "
                         f"{q.storms_restored}; {q.rx_drop} received and {q.tx_drop} sent "
                         "packets dropped by the watchdog)"))
    else:
        out.append(Check("VFY011", dev, i.name, True, f"queue {prio}: no PFC storm"))
    return out


def _over_interval(dev: str, port: str, prio: int, first: PfcState, after: PfcState,
                   seconds: float, max_pauses: int) -> list[Check]:
    out = []
    before_rx, now_rx = first.pfc.rx.get(port), after.pfc.rx.get(port)
    if before_rx is not None and now_rx is not None:
        pauses = now_rx[prio] - before_rx[prio]
        out.append(Check("VFY012", dev, port, pauses <= max_pauses,
                         f"{pauses} PFC pause frame(s) received on priority {prio} in "
                         f"{seconds:g} s" + ("" if pauses <= max_pauses
                                              else f" (more than {max_pauses})"), pauses))
    before_q, now_q = first.drops.get(port, {}), after.drops.get(port, {})
    if prio in before_q and prio in now_q:
        drops = now_q[prio] - before_q[prio]
        out.append(Check("VFY013", dev, port, drops == 0,
                         f"{drops} packet(s) dropped on lossless queue {prio} in {seconds:g} s"))
    return out


def headroom(plan: DevicePlan, state: DeviceState,
             name_of: Callable[[Interface], str] | None = None) -> list[Check]:
    """VFY024: every planned lossless port's PG profile is programmed, with at least the
    headroom after PAUSE (xoff) netcfg derives for the port (docs/physics.md): less, and the
    bytes in flight after a PAUSE overflow the PG and drop. The programmed xon, xoff and size
    are shown beside netcfg's. `name_of` gives the profile's name for a port (default: the
    NOS's, Vendor.buffer_profile_name)."""
    if state.buffers is None:
        return []
    from netcfg.vendors import vendor

    nos = vendor(plan.nos)
    name_of = name_of or (lambda i: nos.buffer_profile_name(i, plan))
    out = []
    for i in plan.interfaces:
        h = i.headroom
        if not i.lossless or h is None:
            continue
        name = name_of(i)
        got = state.buffers.get(name)
        derived = f"netcfg derives xon {h.xon}, xoff {h.xoff}, size {h.size}"
        if got is None:
            out.append(Check("VFY024", plan.hostname, i.name, False,
                             f"lossless PG profile {name} is not programmed ({derived})"))
            continue
        xoff = _number(got.get("xoff"))
        shown = ", ".join(f"{f} {got[f]}" for f in ("xon", "xoff", "size") if f in got)
        ok = xoff is not None and xoff >= h.xoff
        out.append(Check("VFY024", plan.hostname, i.name, ok,
                         f"{name} programmed with {shown}; {derived}"
                         + ("" if ok else ": the programmed xoff is below it")))
    return out


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.strip().isdigit() else None


def _port_pauses(dev: str, port: str, first: PfcState, after: PfcState, seconds: float,
                 max_pauses: int) -> list[Check]:
    """VFY012 where the NOS counts PFC frames per port only (EOS): those received on the
    port, every priority together, over the interval."""
    before, now = first.port_frames.get(port), after.port_frames.get(port)
    if before is None or now is None:
        return []
    pauses = now[0] - before[0]
    return [Check("VFY012", dev, port, pauses <= max_pauses,
                  f"{pauses} PFC pause frame(s) received on the port (all priorities) in "
                  f"{seconds:g} s" + ("" if pauses <= max_pauses
                                      else f" (more than {max_pauses})"), pauses)]


def state_checks(plan: DevicePlan, state: DeviceState, max_pauses: int = 0,
                 origins: dict[str, int] | None = None,
                 bounds: PrefixBounds | None = None) -> list[Check]:
    return (interfaces(plan, state) + cabling(plan, state)
            + bgp(plan, state, origins, bounds) + pfc(plan, state, max_pauses)
            + headroom(plan, state))
