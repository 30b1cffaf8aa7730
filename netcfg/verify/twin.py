"""`netcfg verify --twin`: the BGP and ECMP checks run against real FRR, on the fabric's twin
(netcfg/twin: one FRR router per switch in a network namespace, running the routing each
switch's rendered file states), instead of against the switches.

What it reads is what a SONiC or Cumulus switch answers too (both run FRR): each router's
`show ip bgp summary json` (read by the drivers' own parser, netcfg/deploy/drivers/
linuxstate.py, into get_bgp_neighbors' model) and `show ip route bgp json`. The checks are
the switch checks' VFY007-VFY009 on the plan's sessions toward the switches the twin holds,
and VFY014: every server subnet another twinned switch originates is in the routing table
with the ECMP width the plan gives (the topology's paths toward that switch, at most the
plan's maximum-paths). Ports, LLDP, PFC and queues are not the twin's (it has no ASIC).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from netcfg.deploy.drivers.linuxstate import bgp_neighbors
from netcfg.render.plan import DevicePlan
from netcfg.topology.fabric import Fabric
from netcfg.topology.paths import Paths
from netcfg.verify import checks
from netcfg.verify.checks import Check
from netcfg.verify.collect import DeviceState, bgp_peers
from netcfg.verify.run import DeviceReport, VerifyResult, prefix_bounds

#: what every --twin report says it does not read
NOT_CHECKED = "ports, LLDP, PFC and queue state (the twin runs FRR, not the switch's ASIC)"


def ecmp(plan: DevicePlan, routes: dict[str, Any], owners: dict[str, str],
         widths: dict[str, int]) -> list[Check]:
    """VFY014: each server subnet another switch originates (`owners`: subnet -> switch) is
    a selected BGP route with `widths[switch]` active next hops."""
    out = []
    for net, leaf in sorted(owners.items()):
        if leaf == plan.hostname:
            continue
        want = widths[leaf]
        got = sum(1 for e in routes.get(net, []) if e.get("selected")
                  for h in e.get("nexthops", []) if h.get("active"))
        if net not in routes:
            message = f"{net} (servers of {leaf}) missing from the routing table, planned " \
                      f"{want} path(s)"
        else:
            message = f"{net} (servers of {leaf}): {got} path(s), planned {want}"
        out.append(Check("VFY014", plan.hostname, None, got == want, message))
    return out


def verify_on_twin(fabric: Fabric, plans: list[DevicePlan], file: str | None,
                   report: set[str] | None = None, timeout: float = 120.0,
                   run_plans: list[DevicePlan] | None = None,
                   progress: Callable[[int, int], None] | None = None) -> VerifyResult:
    """Build the twin of `plans` (the switches it holds: netcfg/twin/run.py
    `twinned_switches`), let BGP settle, check every switch of `report` (default: all)
    against its plan, tear the twin down. `run_plans` (default `plans`) are what the routers
    run: a test gives a plan that lost an announcement, the checks still expect `plans`'.
    Raises TwinError when the twin cannot be built here."""
    from netcfg.twin.held import HeldPrefixes
    from netcfg.twin.network import Twin
    from netcfg.twin.probe import RECHECKS
    from netcfg.twin.run import (
        SETTLE_S,
        among,
        build,
        converge,
        path_count,
        read_back,
        server_prefixes,
    )

    start = time.perf_counter()
    run_plans = run_plans or plans
    present = {p.hostname for p in plans}
    expected = {p.hostname: read_back(p) for p in plans}
    owners = {net: p.hostname for p in plans
              for net in server_prefixes(p, expected[p.hostname])}
    offered = Paths(fabric)
    origins = {p.hostname: checks.originated(p) for p in plans}
    bounds = prefix_bounds(fabric, present)
    with Twin() as twin:
        files = {p.hostname: read_back(p) for p in run_plans}
        facts = {p.hostname: among(files[p.hostname], p, present) for p in run_plans}
        routers, _ = build(twin, fabric, run_plans, facts)
        held = HeldPrefixes(twin)
        settled = converge(twin, routers, run_plans, facts, timeout, held, progress)
        by_name = {r.name: r for r in routers}

        def read() -> list[DeviceReport]:
            out = []
            for plan in plans:
                if report is None or plan.hostname in report:
                    out.append(_device(twin, by_name[plan.hostname], plan, present, origins,
                                       bounds, owners, widths(plan), settled is not None,
                                       timeout))
            return out

        def widths(plan: DevicePlan) -> dict[str, int]:
            return {leaf: min(offered.width(fabric.devices[plan.hostname], leaf),
                              path_count(plan, expected[plan.hostname]))
                    for leaf in set(owners.values()) if leaf != plan.hostname}

        devices = read()
        # as the twin's own checks do (netcfg/twin/probe.py `recheck`): on a busy machine
        # zebra may not have installed every path yet, or a session flapped; a failure is
        # read again once BGP has settled, and what persists is reported
        for _ in range(RECHECKS):
            failing = _failing(devices)
            if not failing or settled is None or converge(
                    twin, routers, run_plans, facts, SETTLE_S, held) is None:
                break
            devices = read()
            if _failing(devices) == failing:
                break
    return VerifyResult(fabric.name, file, devices, time.perf_counter() - start)


def _failing(devices: list[DeviceReport]) -> list[tuple[str, str, str | None, str]]:
    return [(c.device, c.rule, c.interface, c.message) for d in devices for c in d.checks
            if not c.ok]


def _device(twin: Any, router: Any, plan: DevicePlan, present: set[str],
            origins: dict[str, int], bounds: checks.PrefixBounds, owners: dict[str, str],
            widths: dict[str, int], settled: bool, timeout: float) -> DeviceReport:
    """One router's state, checked against its switch's plan."""
    t0 = time.perf_counter()
    dev = DeviceReport(plan.hostname, plan.nos, not_checked=[NOT_CHECKED])
    if not settled:
        dev.not_checked.append(f"BGP had not settled within {timeout:g} s: read as it stood")
    summary = twin.show(router, "bgpd", "show ip bgp summary json") or "{}"
    try:
        routes = json.loads(twin.show(router, "zebra", "show ip route bgp json") or "{}")
        state = DeviceState(bgp=bgp_peers(bgp_neighbors(summary)))
    except ValueError as exc:
        dev.errors.append(f"FRR's answer could not be read: {exc}")
        dev.checks.append(Check("VFY020", plan.hostname, None, False, dev.errors[-1]))
        return dev
    inside = replace(plan, bgp=replace(plan.bgp, neighbors=[
        n for n in plan.bgp.neighbors if n.name in present]))
    dev.checks += checks.bgp(inside, state, origins, bounds)
    dev.checks += ecmp(plan, routes, owners, widths)
    dev.seconds = time.perf_counter() - t0
    return dev
