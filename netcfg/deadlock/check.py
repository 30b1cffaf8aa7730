"""`check(fabric) -> Report`: the public entry point (CLI `deadlock`, and later `lint`).

Finding rules (stable ids):
* DLK001 error   a cyclic buffer dependency exists in the configured scenario
* DLK002 error   a set of K failed links creates one (`--failures K`)
* DLK003 warning flows that cannot be delivered in the configured scenario
* DLK004 warning a rewrite tag maps to a priority without PFC (such packets are lossy)
* DLK005 info    the failure sweep could not enumerate every set
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from netcfg.deadlock import scenario as scen
from netcfg.deadlock import sweep as sweeps
from netcfg.deadlock.analysis import Analysis
from netcfg.deadlock.witness import witnesses
from netcfg.findings import Finding
from netcfg.routing.forward import BOUNCE, BOUNCED, FLOODED, RULE
from netcfg.routing.network import Network, from_fabric
from netcfg.routing.setup import RoutingSetup, from_intent, resolve_model

if TYPE_CHECKING:
    from netcfg.deadlock.graph import Graph
    from netcfg.topology.fabric import Fabric

TURNS = {1: "up", 0: "lateral", -1: "down"}
FIXES = {
    "bounce": ["tagger_retag", "lossy_on_bounce", "valley_free_routing"],
    "lateral": ["lossy_on_link"],
    "flood": ["no_lossless_flood"],
    "rule": ["fix_route"],
    "ring": ["dateline_priority", "lossy_on_link"],
    "valley": ["valley_free_routing", "tagger_retag"],
}


@dataclass
class Cycle:
    scc_size: int
    channels: list[str]
    hops: list[dict[str, Any]]
    breaking_turns: list[dict[str, Any]]
    #: per hop of the example cycle: one flow whose path creates that dependency
    witnesses: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Report:
    verdict: str
    model: str
    model_reason: str
    failures: list[list[str]]
    nodes: int
    edges: int
    unsafe_turns: int
    fast_path: bool
    cycles: list[Cycle] = field(default_factory=list)
    unroutable: list[list[str]] = field(default_factory=list)
    #: flows between endpoints (servers, or ports with `endpoints: port`) the graph was built
    #: from; None when the fast path proved the fabric without building it
    flows: int | None = None
    sweep: dict[str, Any] | None = None
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def cyclic_channels(self) -> list[str]:
        return sorted({c for cyc in self.cycles for c in cyc.channels})

    @property
    def breaking_turns(self) -> list[str]:
        return sorted({t["turn_id"] for cyc in self.cycles for t in cyc.breaking_turns})

    @property
    def deadlock(self) -> bool:
        return self.verdict == "deadlock"

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "scenario": {"failures": self.failures, "routing_model": self.model,
                         "model_reason": self.model_reason},
            "graph": {"nodes": self.nodes, "edges": self.edges,
                      "unsafe_turns": self.unsafe_turns, "fast_path": self.fast_path,
                      "flows": self.flows},
            "cyclic_channels": self.cyclic_channels,
            "breaking_turns": self.breaking_turns,
            "cycles": [cyc.__dict__ for cyc in self.cycles],
            "unroutable": self.unroutable,
            "sweep": self.sweep,
            "findings": [f.as_dict() for f in self.findings],
            "seconds": round(self.seconds, 3),
        }


def check(fabric: Fabric, *, failures: int = 0, model: str | None = None,
          setup: RoutingSetup | None = None, exhaustive: bool = False,
          progress: Callable[[int, int], None] | None = None,
          budget: int = sweeps.ENUMERATION_BUDGET, symmetry: bool = True,
          pool: sweeps.Pool | None = None) -> Report:
    """Prove the fabric free of cyclic buffer dependencies, or show a cycle and its fixes.

    Args:
        fabric: a built fabric (`netcfg.validate.validate(path).fabric`).
        failures: also check every set of this many failed links (0: only the intent's).
        model: override `routing.deadlock.model`.
        setup: a complete routing setup (overrides what the intent says).
        exhaustive: build the graph even where routing alone proves it acyclic.
        budget: most failure sets the sweep checks one by one before it reports DLK005.
        symmetry: check one failure set per orbit of the fabric's exact symmetry.
        pool: check the failure sets there (netcfg.deadlock.cluster); the same report.
    """
    t0 = time.perf_counter()
    intent = fabric.loaded.intent
    if setup is None:
        # the network's endpoints of tier 0 are the hosts' (one per NIC, or the host)
        setup = from_intent(intent, has_hosts=any(d.tier == 0
                                                  for d in fabric.devices.values()))
        reason = resolve_model(intent)[1]
    else:
        reason = "given"
    if model is not None:
        setup.model, reason = model, "set on the command line"
    if failures == 0 and not exhaustive and not _wanted_failures(fabric) and (
            scen.valley_free_proof(setup) or scen.proven(setup, ())):
        # the routing model proves the one state to check (scenario.run's fast path, which
        # builds no graph): the report needs only the count of lossless channels, so the
        # fabric is not indexed into a Network either (at gpu32768 most of the gate's time)
        report = _report(fabric, None, setup, reason, scen.Outcome(
            (), None, Analysis(_lossless_channels(fabric) * scen.lossless_priorities(setup),
                               0, 0, True)))
        report.findings += _rewrite_warnings(fabric, setup)
        report.seconds = time.perf_counter() - t0
        return report
    net = from_fabric(fabric)
    base = _intent_failures(fabric, net)
    sym = None
    if failures > 0 and symmetry and sweeps.enumerates(setup):
        from netcfg.deadlock.symmetry import derive

        sym = derive(fabric, net, setup, base)
    # the incremental sweep goes on from this state's BFS states; the quotient needs none
    start_graph = failures > 0 and not sweeps.use_quotient(net, setup, sym)
    out = scen.run(net, setup, base, exhaustive=exhaustive, keep_states=start_graph)
    report = _report(fabric, net, setup, reason, out)
    if failures > 0 and not out.cyclic:
        sw = sweeps.run(net, setup, failures, base, progress=progress, start=out,
                        symmetry=sym, budget=budget, pool=pool)
        report.sweep = _sweep_dict(net, sw)
        if sw.cyclic:
            report.verdict = "deadlock"
            report.failures = _link_names(net, base + sw.cyclic[0])
            said = (f"{sw.cyclic_represented} of {sw.total} sets of {failures} failed "
                    f"link(s){' (by symmetry)' if sw.symmetry else ''} create a cyclic "
                    f"buffer dependency, e.g. {_links(net, sw.cyclic[0])}")
            if sw.first is not None:
                trig = _report(fabric, net, setup, reason, sw.first)
                report.cycles = trig.cycles
                turns = trig.breaking_turns
                said += (f"; breaking turns: {', '.join(turns[:4])}"
                         f"{' ...' if len(turns) > 4 else ''}")
            else:  # decided modulo symmetry: the kinds of turn along the cycle
                said += (f"; a cycle of turns like {'; '.join(sw.orbit_cycle[:6])}"
                         f"{' ...' if len(sw.orbit_cycle) > 6 else ''} (one per orbit of "
                         "the symmetry that fixes the failed links)")
            report.findings.append(Finding.at("DLK002", said, None))
        if not sw.complete:
            report.findings.append(Finding.at("DLK005", sw.note, None, severity="info"))
    report.findings += _rewrite_warnings(fabric, setup)
    report.seconds = time.perf_counter() - t0
    return report


def _link_names(net: Network | None, links: tuple[int, ...]) -> list[list[str]]:
    """The two device names of each link, as reports list failed links."""
    if not links:
        return []  # without indexing every link (Network.links) for none
    assert net is not None
    pairs = net.links()
    return [[net.names[pairs[k][0]], net.names[pairs[k][1]]] for k in links]


def _links(net: Network, failed: tuple[int, ...]) -> str:
    return ", ".join("-".join(ends) for ends in _link_names(net, failed))


def _sweep_dict(net: Network, sw: sweeps.Sweep) -> dict[str, Any]:
    return {"k": sw.k, "method": sw.method, "sets": sw.total, "checked": sw.checked,
            "represented": sw.represented, "complete": sw.complete,
            "cyclic_sets": sw.cyclic_represented, "cyclic_checked": len(sw.cyclic),
            "symmetry": {"exact": sw.symmetry, "dropped": sw.dropped,
                         "summary": (f"{sw.checked:,} sets checked, representing "
                                     f"{sw.represented:,} by symmetry (exact: "
                                     f"{', '.join(sw.symmetry)})") if sw.symmetry else None},
            "examples": [_link_names(net, combo) for combo in sw.cyclic[:10]],
            "orbit_cycle": sw.orbit_cycle,
            "note": sw.note}


def _wanted_failures(fabric: Fabric) -> set[frozenset[str]]:
    """The failed links the intent names (`routing.deadlock.failures`), as device pairs."""
    return {frozenset(p) for p in fabric.loaded.intent.routing.deadlock.failures if len(p) == 2}


def _intent_failures(fabric: Fabric, net: Network) -> tuple[int, ...]:
    wanted = _wanted_failures(fabric)
    if not wanted:
        return ()
    return tuple(k for k, (a, b) in enumerate(net.links())
                 if frozenset((net.names[a], net.names[b])) in wanted)


def _lossless_channels(fabric: Fabric) -> int:
    """The channels `from_fabric` marks lossless (PFC on the link and at both its ends): two
    per such link."""
    return 2 * sum(1 for link in fabric.links
                   if link.lossless and link.a.lossless and link.b.lossless)


def _report(fabric: Fabric | None, net: Network | None, setup: RoutingSetup, reason: str,
            out: scen.Outcome) -> Report:
    a = out.analysis
    failures = _link_names(net, out.failed)
    rep = Report("deadlock" if a.cyclic else "deadlock_free", setup.label(), reason, failures,
                 a.nodes, a.edges, a.unsafe, a.fast_path)
    g = out.graph
    if g is not None:
        assert net is not None  # a graph is built on the network
        rep.unroutable = sorted([s, d] for s, d in g.unroutable)
        rep.flows = g.flows
        rep.cycles = [_cycle(g, comp) for comp in a.components]
        found = witnesses(g, [comp.cycle for comp in a.components], net, failures)
        for cyc, flows in zip(rep.cycles, found):
            cyc.witnesses = flows
    if fabric is not None:
        rep.findings += _findings(fabric, net, setup, rep)
    return rep


def turn_kind(net: Network, w: int, x: int, y: int) -> str:
    t = net.tier
    a = (t[x] > t[w]) - (t[x] < t[w])
    b = (t[y] > t[x]) - (t[y] < t[x])
    return f"{TURNS[a]}->{TURNS[b]}"


def _cause_class(g: Graph, u: int, v: int) -> str:
    net = g.net
    c1, c2 = u // g.width, v // g.width
    w, x, y = net.src[c1], net.dst[c1], net.dst[c2]
    cause = (g.cause(u, v) or ("ecmp", -1))[0]
    kind = turn_kind(net, w, x, y)
    if cause == FLOODED:
        return "flood"
    if cause == RULE:
        return "rule"
    if cause == BOUNCE or (kind == "down->up" and g.setup.model in ("bounce_on_failure",
                                                                  "k_bounce")):
        return "bounce"
    if "lateral" in kind:
        if len({net.tier[i] for i in range(net.n) if net.tier[i] > 0}) == 1:
            return "ring"
        return "lateral"
    return "valley"


def _cause_text(g: Graph, u: int, v: int) -> str:
    net = g.net
    c1 = u // g.width
    x = net.dst[c1]
    cause, d = g.cause(u, v) or ("ecmp", -1)
    dname = net.names[d] if d >= 0 else "?"
    if cause == BOUNCE:
        return f"bounce: {net.names[net.src[c1]]} has no route to {dname}"
    if cause == BOUNCED:
        return f"{net.names[x]} has no route to {dname}: bounces down"
    if cause == FLOODED:
        return f"flood: {net.names[x]} floods lossless traffic for {dname} (MAC unknown)"
    if cause == RULE:
        return f"rule at {net.names[x]} for {dname}"
    if cause == "path":
        return f"path towards {dname}"
    return f"ECMP towards {dname}"


def _cycle(g: Graph, comp: Any) -> Cycle:
    net = g.net
    hops = []
    cyc = comp.cycle
    for i, u in enumerate(cyc):
        v = cyc[(i + 1) % len(cyc)]
        c1, c2 = u // g.width, v // g.width
        w, x, y = net.src[c1], net.dst[c1], net.dst[c2]
        hops.append({
            "switch": net.names[x], "in_from": net.names[w], "out_to": net.names[y],
            "in_port": net.dst_port[c1], "out_port": net.src_port[c2],
            "prio_in": g.prios[u % g.width], "prio_out": g.prios[v % g.width],
            "turn": turn_kind(net, w, x, y), "cause": _cause_text(g, u, v),
            "hop": f"{net.names[w]}:{net.src_port[c1]} -> {net.names[x]}:{net.dst_port[c1]}",
        })
    breaking = []
    for u, v in comp.breaking:
        c1, c2 = u // g.width, v // g.width
        w, x, y = net.src[c1], net.dst[c1], net.dst[c2]
        kind = _cause_class(g, u, v)
        breaking.append({"turn_id": f"{g.node_name(u)} => {g.node_name(v)}",
                         "at": net.names[x], "from": net.names[w], "to": net.names[y],
                         "turn": turn_kind(net, w, x, y), "cause": _cause_text(g, u, v),
                         "fixes": FIXES[kind]})
    return Cycle(len(comp.nodes), sorted(g.node_name(n) for n in comp.nodes), hops, breaking)


def _findings(fabric: Fabric, net: Network | None, setup: RoutingSetup,
              rep: Report) -> list[Finding]:
    li = fabric.loaded
    base = ("routing", "deadlock")
    out = []
    for cyc in rep.cycles:
        path = _blame(fabric, setup, cyc)
        chain = " -> ".join(h["hop"] for h in cyc.hops)
        scenario = (" with failed links " + ", ".join("-".join(link) for link in rep.failures)
                    if rep.failures else "")
        msg = (f"cyclic buffer dependency ({cyc.scc_size} queues){scenario}: {chain}; "
               f"break it at: {'; '.join(t['turn_id'] for t in cyc.breaking_turns[:4])}"
               f"{' ...' if len(cyc.breaking_turns) > 4 else ''} "
               f"(fixes: {', '.join(sorted({f for t in cyc.breaking_turns for f in t['fixes']}))})")
        first = cyc.hops[0]
        f = li.finding("DLK001", msg, path) if path else Finding.at("DLK001", msg, None)
        out.append(Finding(f.rule, f.severity, f.message, f.file, f.line, f.column,
                           first["switch"], first["in_port"], f.path))
    if rep.unroutable:
        sample = ", ".join(f"{s}->{d}" for s, d in rep.unroutable[:5])
        more = f" and {len(rep.unroutable) - 5} more" if len(rep.unroutable) > 5 else ""
        path = base + ("failures",) if li.is_set(base + ("failures",)) else None
        msg = f"{len(rep.unroutable)} flow(s) cannot be delivered: {sample}{more}"
        out.append(li.finding("DLK003", msg, path, severity="warning") if path
                   else Finding.at("DLK003", msg, None, severity="warning"))
    return out


def _blame(fabric: Fabric, setup: RoutingSetup, cyc: Cycle) -> tuple | None:
    """The intent value most responsible for a cycle: a rule, a dead host, a failure, a link."""
    li = fabric.loaded
    base = ("routing", "deadlock")
    causes = {t["cause"].split(":")[0].split(" ")[0] for t in cyc.breaking_turns}
    for t in cyc.breaking_turns:
        if t["cause"].startswith("rule"):
            for r in setup.rules:
                if r.at == t["at"] and r.index is not None:
                    return base + ("rules", r.index)
    if "flood" in causes:
        if setup.dead_hosts:
            return base + ("dead_hosts", 0)
    if "bounce" in causes and li.is_set(base + ("failures",)):
        return base + ("failures",)
    for t in cyc.breaking_turns:
        if "lateral" in t["turn"]:
            for link in fabric.links:
                ends = {link.a.device.name, link.b.device.name}
                if ends == {t["at"], t["to"]} or ends == {t["at"], t["from"]}:
                    if link.source and li.pos(link.source):
                        return link.source
    if li.is_set(base + ("model",)):
        return base + ("model",)
    return None


def _rewrite_warnings(fabric: Fabric, setup: RoutingSetup) -> list[Finding]:
    li = fabric.loaded
    if setup.rewrite is None:
        return []
    out = []
    for i, p in enumerate(setup.tags_to_priorities):
        if p not in setup.pfc_priorities:
            out.append(li.finding(
                "DLK004", f"tag {i} is carried in priority {p}, which has no PFC: such "
                "packets are lossy (no deadlock, but they may be dropped)",
                ("routing", "deadlock", "priority_rewrite", "tags_to_priorities", i),
                severity="warning"))
    return out
