"""`netcfg twin`: the fabric's control plane on one machine (the CrystalNet idea), with real
FRR routers in network namespaces, then the checks that say whether GPUs reach each other.

What it proves: the routing design of the plans (what each switch originates and passes on,
ASNs, sessions, maximum-paths) gives every server NIC a route to every other, with the ECMP
width the topology offers, converging within the timeout. What it does not: forwarding is the
Linux kernel's, not the ASIC's; QoS, PFC and buffers are not emulated; each switch runs FRR,
so a NOS's own BGP implementation is represented by its rendered routing facts, not run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from netcfg.render.engine import environment, render_plan
from netcfg.render.plan import Bfd, DevicePlan
from netcfg.render.routing_facts import RoutingFacts
from netcfg.topology.fabric import Device, Fabric
from netcfg.topology.paths import Paths
from netcfg.twin.failures import Failure, fail_links
from netcfg.twin.held import HeldPrefixes
from netcfg.twin.network import Router, Twin, TwinError
from netcfg.twin.probe import Nic, recheck, unanswered
from netcfg.vendors import vendor
from netcfg.vendors.frr import VENDOR as FRR
from netcfg.vendors.units import ip_packet


@dataclass
class Report:
    switches: int = 0
    nics: int = 0
    converged_s: float | None = None
    pairs: int = 0
    unreachable: list[tuple[str, str]] = field(default_factory=list)
    ecmp: list[str] = field(default_factory=list)  # width mismatches, one line each
    bfd: list[str] = field(default_factory=list)  # switches whose BFD sessions are not up
    #: switch -> how the routing its NOS file states differs from its plan (what the twin ran)
    differences: dict[str, list[str]] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: prefix of the twin left running (`--keep`), for `netcfg twin exec` and `twin down`
    kept: str | None = None
    #: the one pod twinned (`--pod`), None for the whole fabric
    pod: int | None = None
    #: the rails whose leaves were twinned (`--rail`), empty for every rail
    rails: list[int] = field(default_factory=list)
    #: whether any session ran BFD (none: `--without-bfd`, or no NOS file states it), so
    #: that an empty `bfd` is not read as every session up
    bfd_run: bool = False

    @property
    def ok(self) -> bool:
        return (self.converged_s is not None and not self.unreachable and not self.ecmp
                and not self.bfd and all(f.ok for f in self.failures))

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "switches": self.switches, "nics": self.nics,
                "converged_s": self.converged_s, "pairs": self.pairs,
                "unreachable": [list(p) for p in self.unreachable], "ecmp": self.ecmp,
                "bfd": self.bfd, "bfd_run": self.bfd_run,
                "differences": self.differences,
                "failures": [f.as_dict() for f in self.failures],
                "timings": self.timings, "kept": self.kept, "pod": self.pod,
                "rails": self.rails or None}

    def text(self) -> str:
        lines = [f"twin: {self.switches} FRR switches, {self.nics} server NICs"]
        if self.pod is not None:
            lines[0] += f" (pod {self.pod}: its leaves and spines; sessions to the cores left out)"
        if self.rails:
            rails = ("rails " if len(self.rails) > 1 else "rail ") + _ranges(self.rails)
            lines[0] += (f" (the leaves of {rails} and every switch above them; the other "
                         "rails' leaves left out)")
        for name, diff in sorted(self.differences.items())[:20]:
            lines.append(f"  {name}: its NOS file differs from the plan: {'; '.join(diff[:5])}")
        if self.converged_s is None:
            lines.append("BGP did not converge within the timeout")
        else:
            lines.append(f"BGP converged in {self.converged_s:.1f} s")
        lines.append(f"reachability: {self.pairs - len(self.unreachable)}/{self.pairs} NIC "
                     "pairs answer")
        for src, dst in self.unreachable[:20]:
            lines.append(f"  {src} cannot reach {dst}")
        if len(self.unreachable) > 20:
            lines.append(f"  ... and {len(self.unreachable) - 20} more pairs")
        lines.append("ECMP width: " + ("as the topology offers" if not self.ecmp else
                                       f"{len(self.ecmp)} mismatches"))
        lines += [f"  {m}" for m in self.ecmp[:20]]
        lines.append("BFD: " + ("not run (no session states it; --without-bfd turns it "
                                "off)" if not self.bfd_run else
                                "every planned session up" if not self.bfd else
                                f"{len(self.bfd)} switches with sessions not up"))
        lines += [f"  {m}" for m in self.bfd[:20]]
        for f in self.failures:
            took = "not within the bound" if f.reconverged_s is None else \
                f"reconverged in {f.reconverged_s:.1f} s"
            back = "" if f.restored else "; did not settle again after the cable came back"
            lines.append(f"link down {f.link}: {took}, {f.pairs - f.unreachable}/{f.pairs} "
                         f"pairs answer{back}")
        if self.kept:
            lines.append(f"kept running ({self.kept}): `netcfg twin exec SWITCH -- vtysh -c "
                         "'show ip route'` looks inside, `netcfg twin down` removes it")
        lines.append("PASS" if self.ok else "FAIL")
        return "\n".join(lines)


def linux_names(plan: DevicePlan) -> dict[str, str]:
    """Port name -> a Linux interface name (`e0`, `e1`, ...; NOS names hold `/` and `:`)."""
    return {i.name: f"e{n}" for n, i in enumerate(plan.interfaces)}


def read_back(plan: DevicePlan) -> RoutingFacts:
    """The routing the switch's own NOS file states, read by that NOS's rules: what the twin
    runs, so its verdict holds for the rendered files, not only for the plan."""
    return vendor(plan.nos).read_routing(render_plan(plan))


def among(facts: RoutingFacts, plan: DevicePlan, present: set[str]) -> RoutingFacts:
    """`facts` with only the sessions toward switches the twin holds (all of them, unless
    it twins a slice: `twinned_switches`)."""
    outside = {n.address for n in plan.bgp.neighbors if n.name not in present}
    if not outside:
        return facts
    return replace(facts, neighbors={a: n for a, n in facts.neighbors.items() if a not in outside},
                   bfd={a: t for a, t in facts.bfd.items() if a not in outside},
                   keyed=facts.keyed - outside)


class SliceError(ValueError):
    """A `--pod` or `--rail` that names nothing in the fabric (the message lists what does)."""


def twinned_switches(fabric: Fabric, pod: int | None = None,
                     rails: Collection[int] = ()) -> list[Device]:
    """The switches a twin holds when the whole fabric does not fit on the machine.

    `pod`: the leaves and spines of that pod. The cores join every pod and are left out with
    their sessions, so the twin proves the pod's own routing (every NIC of the pod reaches
    every other, with the pod's ECMP width), not the paths between pods.
    `rails`: only the leaves of those rails, with every switch above them (of the pod, when
    one is named). Each leaf keeps all its uplinks, so the ECMP width toward every twinned
    leaf is the whole fabric's; what is left out is the other rails' leaves and the upper
    tiers' sessions toward them. Neither: every switch."""
    switches = fabric.switches()
    if pod is not None:
        pods = sorted({d.pod for d in switches if d.role == "leaf"})
        if pod not in pods:
            raise SliceError(f"no pod {pod} (pods: {_ranges(pods)})")
        switches = [d for d in switches if d.role in ("leaf", "spine") and d.pod == pod]
    if rails:
        known = sorted({d.rail for d in switches if d.role == "leaf" and d.rail is not None})
        if missing := sorted(set(rails) - set(known)):
            where = "" if pod is None else f" in pod {pod}"
            have = f"rails: {_ranges(known)}" if known else "its leaves have no rails"
            raise SliceError(f"no rail {_ranges(missing)}{where} ({have})")
        switches = [d for d in switches if d.role != "leaf" or d.rail in rails]
    return switches


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5"."""
    out: list[str] = []
    for n in numbers:
        if out and n == int(out[-1].rsplit("-", 1)[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def server_prefixes(plan: DevicePlan, facts: RoutingFacts) -> list[str]:
    """What the switch announces besides its loopback."""
    return [p for p in facts.originated if p != plan.loopback]


def path_count(plan: DevicePlan, facts: RoutingFacts) -> int:
    """The ECMP width the twin's router installs: the file's, or where the file states none
    (the NOS default: SONiC 514, Junos all equal paths) the plan's."""
    return facts.maximum_paths or plan.bgp.maximum_paths


def bgp_timers(plan: DevicePlan, facts: RoutingFacts) -> tuple[int, int]:
    """The BGP keepalive and hold time the twin's router runs: the pair the NOS file states
    for its sessions (one pair, as netcfg renders every NOS; Junos states the hold time and
    sends keepalives at a third of it); the plan's where the file states none (the NOS's own
    default is not modelled; every rendered file states them), or different pairs for
    different sessions (the twin's FRR router runs one pair: `timers bgp`)."""
    pairs = {facts.timers[a] for a in facts.neighbors if a in facts.timers}
    return pairs.pop() if len(pairs) == 1 else (plan.bgp.keepalive_s, plan.bgp.hold_s)


def as_run(plan: DevicePlan, facts: RoutingFacts) -> DevicePlan:
    """The switch as the twin runs it: an FRR router (the FRR vendor renders it) on the
    twin's interface names, with the routing its NOS file states (`facts`): AS, router-id,
    neighbours, announcements, path count, BFD, session keys (the placeholder on both ends:
    TCP MD5 between the namespaces, as on the fabric), BGP timers (`bgp_timers`). Transit is
    the one fact the plan has no field for; `frr_config` applies it."""
    names = linux_names(plan)
    keepalive, hold = bgp_timers(plan, facts)
    # every NOS file states BFD per group (or the same for each neighbour): a group's first
    # neighbour the router runs tells (one outside a slice of the fabric has no facts left:
    # `among`); a neighbour that differs shows in the twin's differences report
    first: dict[str, tuple[int, int] | None] = {}
    for n in plan.bgp.neighbors:
        if n.address in facts.neighbors:
            first.setdefault(n.group, facts.bfd.get(n.address))
    groups = [replace(g, bfd=Bfd(*t) if (t := first.get(g.name)) else None)
              for g in plan.bgp.groups]
    neighbors = [replace(n, remote_as=facts.neighbors[n.address],
                         keyed=n.address in facts.keyed)
                 for n in plan.bgp.neighbors if n.address in facts.neighbors]
    return replace(
        plan, nos=FRR.name,
        interfaces=[replace(i, name=names[i.name], description=f"{i.name} to {i.peer}")
                    for i in plan.interfaces],
        bgp=replace(plan.bgp, asn=facts.asn, router_id=facts.router_id, groups=groups,
                    neighbors=neighbors, networks=list(facts.originated),
                    maximum_paths=path_count(plan, facts), keepalive_s=keepalive, hold_s=hold))


def frr_config(plan: DevicePlan, facts: RoutingFacts) -> str:
    """The frr.conf the twin's router for `plan` runs: the FRR vendor's rendering of
    `as_run`, with transit off where the NOS file passes no BGP-learned route on."""
    config = FRR.build(as_run(plan, facts))
    if not facts.transit:
        config = replace(config, transit=False)
    return environment().get_template(FRR.template).render(c=config)


def build(twin: Twin, fabric: Fabric, plans: list[DevicePlan],
          facts: dict[str, RoutingFacts]) -> tuple[list[Router], list[Nic]]:
    """Namespaces, cables, addresses and FRR for every switch plan and every server NIC."""
    by_name = {p.hostname: p for p in plans}
    ns_of = {p.hostname: f"{twin.prefix}s{n}" for n, p in enumerate(plans)}
    nics: list[Nic] = []
    nic_ns: dict[str, str] = {}
    servers = sorted((d for d in fabric.devices.values() if not d.is_switch),
                     key=lambda d: d.name)
    for server in servers:
        for port in server.ports:
            if port.peer is None or port.ip is None or port.peer.device.name not in by_name:
                continue
            ns = f"{twin.prefix}n{len(nics)}"
            nic_ns[port.id] = ns
            nics.append(Nic(port.id, ns, port.ip.split("/")[0]))
    if len(nics) > 0xFFFF:
        raise TwinError(f"{len(nics)} server NICs: the twin holds at most 65,535")
    twin.add_namespaces(list(ns_of.values()) + [n.netns for n in nics])

    names = {p.hostname: linux_names(p) for p in plans}
    links, seen = [], set()
    for plan in plans:
        for i in plan.interfaces:
            peer_dev, peer_port = i.peer.split(":", 1)
            key = tuple(sorted((f"{plan.hostname}:{i.name}", i.peer)))
            if key in seen:
                continue
            seen.add(key)
            here = (ns_of[plan.hostname], names[plan.hostname][i.name])
            if peer_dev in by_name:
                links.append(here + (ns_of[peer_dev], names[peer_dev][peer_port]))
            elif i.peer in nic_ns:
                links.append(here + (nic_ns[i.peer], "e0"))
    twin.wire(links)

    for plan in plans:
        ns = ns_of[plan.hostname]
        twin.configure(ns, ["link set lo up"] + [
            f"link set {names[plan.hostname][i.name]} mtu {ip_packet(i.mtu)} up"
            for i in plan.interfaces if i.peer.split(":", 1)[0] in by_name or i.peer in nic_ns])
    for server in servers:
        for port in server.ports:
            if port.id not in nic_ns:
                continue
            gateway = str(port.peer.ip).split("/")[0] if port.peer and port.peer.ip else None
            twin.configure(nic_ns[port.id], [
                "link set lo up", f"link set e0 mtu {ip_packet(port.mtu)} up",
                f"addr add {port.ip} dev e0"]
                + ([f"route add default via {gateway}"] if gateway else []))
    routers = [Router(plan.hostname, ns_of[plan.hostname], frr_config(plan, facts[plan.hostname]))
               for plan in plans]
    twin.start(routers)
    return routers, nics


#: seconds every switch's BGP state must stay the same before the fabric counts as settled:
#: a switch that holds a route for every server subnet may still be taking further paths for
#: them (an ECMP set fills one update at a time)
QUIET_S = 1.0
#: seconds between two looks at every switch
POLL_S = 0.25


def converge(twin: Twin, routers: list[Router], plans: list[DevicePlan],
             facts: dict[str, RoutingFacts], timeout: float, held: HeldPrefixes,
             progress: Callable[[int, int], None] | None = None,
             down: dict[str, int] | None = None, since: float | None = None) -> float | None:
    """Seconds from `since` (default: the call) to the last change of any switch's BGP state
    (sessions established, paths received, table version), once every switch has all its
    BGP sessions established, holds a BGP route for every server subnet another switch
    originates and has not changed for QUIET_S; None when `timeout` passes first.
    (Loopbacks are left out: a spine does not take another spine's loopback through a leaf,
    both being in the spines' ASN.) `down` counts the sessions per switch that must have
    dropped (a failed link's two ends). `held` keeps what each table holds between calls.

    With a link down only the leaves must hold every server subnet: they are where the
    servers' traffic enters, and a leaf without a route loses pairs. A spine or core may
    rightly drop the subnets it reached only through the cut cable: with RFC 7938's shared
    spine ASN a pod's other spines cannot pass them back to it (AS-path loop), and a core
    wired to one spine per pod has no other way down. The pings from the NICs nearest the
    cut prove the rest."""
    down = down or {}
    origin = {p.hostname: server_prefixes(p, facts[p.hostname]) for p in plans}
    wanted = {net for nets in origin.values() for net in nets}
    must_hold = {p.hostname for p in plans if not down or p.role == "leaf"}
    start = time.monotonic()
    since = start if since is None else since
    seen: dict[str, tuple[int, int, int]] = {}
    changed: dict[str, float] = {}
    holding: set[str] = set()  # sessions up, prefixes held, unchanged for QUIET_S: settled
    while True:
        now = time.monotonic()
        for router in routers:
            state = bgp_state(twin, router)
            if state != seen.get(router.name):
                seen[router.name], changed[router.name] = state, now
                holding.discard(router.name)
            want = len(facts[router.name].neighbors) - down.get(router.name, 0)
            # what a table holds is asked once it has stopped moving: while paths stream in,
            # bgpd counts some it has not yet given a version, and every look would read
            # the whole table (held.py)
            if router.name in holding or state[0] != want or now - changed[router.name] < QUIET_S:
                continue
            if router.name not in must_hold:
                holding.add(router.name)
                continue
            prefixes = held.of(router, state[2])
            if prefixes is not None and wanted - set(origin[router.name]) <= prefixes:
                holding.add(router.name)
        if progress is not None:
            progress(len(holding), len(routers))
        if len(holding) == len(routers):
            return max(changed.values()) - since
        if time.monotonic() - start >= timeout:
            return None
        time.sleep(POLL_S)


def bgp_state(twin: Twin, router: Router) -> tuple[int, int, int]:
    """(sessions Established, paths received over them, BGP table version) of a router:
    while any of the three moves, BGP is still at work there."""
    try:
        summary = json.loads(twin.show(router, "bgpd", "show bgp summary json") or "{}")
    except json.JSONDecodeError:
        summary = {}
    unicast = summary.get("ipv4Unicast", {})
    peers = [p for p in unicast.get("peers", {}).values() if p.get("state") == "Established"]
    return len(peers), sum(p.get("pfxRcd", 0) for p in peers), unicast.get("tableVersion", 0)


def both_ends_bfd(plans: list[DevicePlan], facts: dict[str, RoutingFacts]
                  ) -> dict[str, dict[str, tuple[int, int]]]:
    """Switch -> the sessions whose NOS files on both ends state BFD (a session with BFD on
    one end only never comes up: validate reports the NOS that renders none, CAP011)."""
    asked = {addr for f in facts.values() for addr in f.bfd}
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for plan in plans:
        mine = {i.name: i.address.split("/")[0] for i in plan.interfaces if i.address}
        out[plan.hostname] = {n.address: t for n in plan.bgp.neighbors
                              if (t := facts[plan.hostname].bfd.get(n.address))
                              and mine.get(n.interface) in asked}
    return out


def check_bfd(twin: Twin, routers: list[Router], wanted: dict[str, dict[str, tuple[int, int]]],
              timeout: float) -> list[str]:
    """Every session both NOS files give BFD has a BFD session up in bfdd, with the files'
    timers (bfdd runs the larger interval of the two ends)."""
    pending = {r.name: r for r in routers if wanted[r.name]}
    problems: dict[str, str] = {}
    start = time.monotonic()
    while pending:
        for name, router in list(pending.items()):
            try:
                peers = json.loads(twin.show(router, "bfdd", "show bfd peers json") or "[]")
            except json.JSONDecodeError:
                peers = []
            want = wanted[name]
            up = {p.get("peer"): p for p in peers if p.get("status") == "up"}
            wrong = [f"{addr} {'down' if addr not in up else 'at other timers'}"
                     for addr, (interval, mult) in sorted(want.items())
                     if addr not in up or (up[addr].get("transmit-interval"),
                                           up[addr].get("detect-multiplier")) != (interval, mult)]
            if wrong:
                problems[name] = f"{name}: BFD {len(want) - len(wrong)}/{len(want)} sessions " \
                                 f"up as planned ({', '.join(wrong[:3])})"
            else:
                problems.pop(name, None)
                del pending[name]
        if not pending or time.monotonic() - start > timeout:
            break
        time.sleep(POLL_S)
    return [problems[n] for n in sorted(problems)]


def check_ecmp(twin: Twin, fabric: Fabric, routers: list[Router], plans: list[DevicePlan],
               facts: dict[str, RoutingFacts]) -> list[str]:
    """Next hops FRR installed for each remote server subnet vs the topology's width."""
    owner = {net: p.hostname for p in plans for net in server_prefixes(p, facts[p.hostname])}
    paths = {p.hostname: path_count(p, facts[p.hostname]) for p in plans}
    offered = Paths(fabric)
    out = []
    for router in routers:
        try:
            routes = json.loads(twin.show(router, "zebra", "show ip route bgp json") or "{}")
        except json.JSONDecodeError:
            routes = {}
        for net, leaf in sorted(owner.items()):
            if leaf == router.name:
                continue
            entries = routes.get(net, [])
            got = sum(1 for e in entries if e.get("selected")
                      for h in e.get("nexthops", []) if h.get("active"))
            want = min(offered.width(fabric.devices[router.name], leaf), paths[router.name])
            if got != want:
                out.append(f"{router.name}: {net} (on {leaf}) has {got} next hops, the "
                           f"topology offers {want}")
    return out


#: seconds the fabric gets to settle again before a failed check is asked once more
SETTLE_S = 30.0


def run(fabric: Fabric, plans: list[DevicePlan], timeout: float = 120.0,
        progress: Callable[[int, int], None] | None = None,
        keep: bool = False, sources: int | None = None, failures: int = 2,
        bound: float = 30.0) -> Report:
    """Build, converge, check, tear down (`keep`: leave it running for `netcfg twin exec`
    and `netcfg twin down`; teardown still runs on an error). `sources`
    limits the reachability check to the first N NICs (in server order) as sources, each to
    every other NIC; None checks all pairs. `failures` cables of each tier are then failed one
    at a time, each to reconverge within `bound` seconds with no pair lost."""
    report = Report(switches=len(plans))
    twin = Twin()
    try:
        t0 = time.monotonic()
        files = {p.hostname: read_back(p) for p in plans}
        for plan in plans:
            wanted = vendor(plan.nos).expected_routing(plan)
            if diff := wanted.differences(files[plan.hostname]):
                report.differences[plan.hostname] = diff
        present = set(files)
        facts = {p.hostname: among(files[p.hostname], p, present) for p in plans}
        routers, nics = build(twin, fabric, plans, facts)
        report.nics = len(nics)
        report.timings["build_s"] = round(time.monotonic() - t0, 1)
        held = HeldPrefixes(twin)
        report.converged_s = converge(twin, routers, plans, facts, timeout, held, progress)
        if report.converged_s is not None:
            report.converged_s = round(report.converged_s, 1)
        t1 = time.monotonic()
        senders = range(len(nics) if sources is None else min(sources, len(nics)))
        pairs = [(a, b) for a in senders for b in range(len(nics)) if a != b]
        report.pairs = len(pairs)
        lost = unanswered(nics, pairs)

        def settled() -> bool:
            return report.converged_s is not None and converge(
                twin, routers, plans, facts, SETTLE_S, held) is not None

        lost = recheck(lost, lambda: unanswered(nics, lost), settled)
        report.unreachable = [(nics[a].name, nics[b].name) for a, b in lost]
        report.timings["reachability_s"] = round(time.monotonic() - t1, 1)
        report.ecmp = recheck(check_ecmp(twin, fabric, routers, plans, facts),
                              lambda: check_ecmp(twin, fabric, routers, plans, facts), settled)
        planned_bfd = both_ends_bfd(plans, facts)
        report.bfd_run = any(planned_bfd.values())
        report.bfd = check_bfd(twin, routers, planned_bfd, timeout=30.0)
        if failures and report.converged_s is not None:
            t3 = time.monotonic()
            names = {p.hostname: linux_names(p) for p in plans}
            report.failures = fail_links(
                twin, fabric, routers, plans, facts, nics, failures, bound,
                linux=lambda dev, port: names[dev][port],
                settled=lambda down, since: converge(twin, routers, plans, facts, bound, held,
                                                     down=down, since=since))
            report.timings["failures_s"] = round(time.monotonic() - t3, 1)
        if keep:
            twin.keep({**{r.name: r.netns for r in routers}, **{n.name: n.netns for n in nics}})
            report.kept = twin.prefix
            twin = Twin()  # handed over: nothing left to close here
        return report
    finally:
        t2 = time.monotonic()
        twin.close()
        report.timings["teardown_s"] = round(time.monotonic() - t2, 1)


def without_bfd(plans: list[DevicePlan]) -> list[DevicePlan]:
    """The plans with BFD off on every session (what `routing.bfd.enabled: false` gives):
    `netcfg twin --without-bfd`, for fabrics whose BFD sessions are more than the machine can
    keep to their timers (bfdd of 32 routers with 384 sessions at 300 ms takes a core)."""
    return [replace(p, bgp=replace(p.bgp, groups=[replace(g, bfd=None) for g in p.bgp.groups]))
            for p in plans]


def with_loopback_only(plans: list[DevicePlan]) -> list[DevicePlan]:
    """The design before server subnets were announced (for tests and comparisons)."""
    return [replace(p, bgp=replace(p.bgp, networks=p.bgp.networks[:1], server_blocks=[]))
            for p in plans]


