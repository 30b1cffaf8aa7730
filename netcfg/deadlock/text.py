"""Human-readable deadlock report (the JSON form is `Report.as_dict`)."""

from __future__ import annotations

from netcfg.deadlock.check import Report


def render(r: Report) -> str:
    lines = [f"verdict: {r.verdict}",
             f"routing model: {r.model} ({r.model_reason})",
             f"failed links: {', '.join('-'.join(f) for f in r.failures) or 'none'}"]
    how = ("no unsafe turn: acyclic without SCC search" if r.fast_path
           else f"{r.unsafe_turns} unsafe turn(s), SCC search")
    if r.edges == 0 and r.fast_path:
        why = ("no link failed, so no switch bounces: valley-free forwarding"
               if r.model.startswith("bounce_on_failure") else "valley-free")
        how = f"proven by the routing model ({why}: only safe turns); graph not built"
    flows = f" from {r.flows:,} flows" if r.flows is not None else ""
    lines.append(f"graph: {r.nodes} lossless queues, {r.edges} dependencies{flows}; {how}")
    for i, cyc in enumerate(r.cycles, 1):
        lines.append(f"cycle {i}: {cyc.scc_size} queues in the strongly connected component")
        lines.append("  example cycle (each hop is the ingress queue that waits):")
        for h in cyc.hops:
            lines.append(f"    {h['hop']}  [{h['turn']} at {h['switch']}, prio "
                         f"{h['prio_in']}->{h['prio_out']}; {h['cause']}]")
        if cyc.witnesses:
            lines.append("  flows behind each dependency (one per edge):")
        for w in cyc.witnesses:
            if w["flow"] is None:
                lines.append(f"    {w['edge']}: no single flow found")
                continue
            src, dst = w["flow"]
            lines.append(f"    {w['edge']}: {src} (port {w['source_port']}) -> {dst} via "
                         f"{' > '.join(w['path'])}"
                         + ("" if w["delivered"] else " (not delivered)")
                         + (f"; failed: {', '.join('-'.join(f) for f in w['failures'])}"
                            if w["failures"] else ""))
        lines.append("  breaking turns (removing, dropping-to-lossy or re-tagging these "
                     "suffices):")
        for t in cyc.breaking_turns:
            lines.append(f"    at {t['at']}: {t['from']} -> {t['to']} ({t['turn']}; "
                         f"{t['cause']}); fixes: {', '.join(t['fixes'])}")
        lines.append(f"  channels: {', '.join(cyc.channels)}")
    if r.unroutable:
        more = f" ... ({len(r.unroutable)} in all)" if len(r.unroutable) > 8 else ""
        lines.append("unroutable: " + ", ".join(f"{s}->{d}" for s, d in r.unroutable[:8]) + more)
    if r.sweep:
        s = r.sweep
        by = f"{s['symmetry']['summary']}; " if s["symmetry"]["summary"] else ""
        lines.append(f"failure sweep K={s['k']}: {s['sets']:,} set(s); {by}{s['method']}; "
                     f"cyclic sets: {s['cyclic_sets']:,}"
                     + (f" ({s['cyclic_checked']} checked)" if by else "")
                     + ("" if s["complete"] else f" (incomplete: {s['note']})"))
        for factor, why in s["symmetry"]["dropped"].items():
            lines.append(f"  symmetry not used: {factor}: {why}")
        for ex in s["examples"][:3]:
            lines.append("  e.g. " + ", ".join("-".join(p) for p in ex))
        if s["orbit_cycle"]:
            lines.append("  cycle by orbit (one turn per orbit pair): "
                         + "; ".join(s["orbit_cycle"]))
    if r.deadlock:
        lines.append("note: a cycle means deadlock is possible, not certain; keep the PFC "
                     "watchdog on, but treat the cycle as an error")
    for f in r.findings:
        lines.append(f"{f.severity}: {f.text()}")
    return "\n".join(lines)
