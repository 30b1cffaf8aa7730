"""Human-readable deadlock report (the JSON form is `Report.as_dict`).

It leads with the verdict and the cycle a reader has to break; the breaking turns follow,
folded: the same turn (from, to, kind, cause) at many switches is one line naming a few of
them, as a fabric of a few hundred leaves has the same bounce at every one. The scenario, the
graph and the sweep come after, and `--format json` lists everything unfolded."""

from __future__ import annotations

from typing import Any

from netcfg.deadlock.check import Cycle, Report

#: breaking-turn groups shown per cycle, switches named per group, channels named per cycle
GROUPS = 6
SWITCHES = 4
CHANNELS = 8


def render(r: Report) -> str:
    lines = [_verdict(r)]
    for i, cyc in enumerate(r.cycles, 1):
        lines += _cycle(i, len(r.cycles), cyc)
    if r.sweep and r.sweep["orbit_cycle"] and not r.cycles:
        lines.append("cycle by orbit (one turn per orbit pair): "
                     + "; ".join(r.sweep["orbit_cycle"]))
    lines += _details(r)
    if r.deadlock:
        lines.append("note: a cycle means deadlock is possible, not certain; keep the PFC "
                     "watchdog on, but treat the cycle as an error")
    for f in r.findings:
        lines.append(f"{f.severity}: {f.text()}")
    return "\n".join(lines)


def _links(failures: list[list[str]]) -> str:
    return ", ".join("-".join(f) for f in failures)


def _verdict(r: Report) -> str:
    """`verdict: deadlock_free`, or the deadlock with what makes it in one line."""
    if not r.deadlock:
        return f"verdict: {r.verdict}"
    s = r.sweep
    if s and s["cyclic_sets"]:
        said = (f"{s['cyclic_sets']:,} of {s['sets']:,} sets of {s['k']} failed link(s) "
                "create a cyclic buffer dependency")
        return f"verdict: {r.verdict}: {said}" + (
            f"; below the first, with failed links {_links(r.failures)}" if r.cycles else "")
    n = len(r.cycles)
    said = f"{n} cyclic buffer dependenc{'y' if n == 1 else 'ies'}"
    return f"verdict: {r.verdict}: {said}" + (
        f" with failed links {_links(r.failures)}" if r.failures else "")


def _cycle(i: int, of: int, cyc: Cycle) -> list[str]:
    lines = [f"cycle {i}{f' of {of}' if of > 1 else ''}: {cyc.scc_size} queues in the "
             "strongly connected component; the example cycle (each hop is the ingress queue "
             "that waits):"]
    for h in cyc.hops:
        lines.append(f"    {h['hop']}  [{h['turn']} at {h['switch']}, prio "
                     f"{h['prio_in']}->{h['prio_out']}; {h['cause']}]")
    lines += _breaking(cyc.breaking_turns)
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
                     + (f"; failed: {_links(w['failures'])}" if w["failures"] else ""))
    shown = ", ".join(cyc.channels[:CHANNELS])
    more = (f" and {len(cyc.channels) - CHANNELS} more" if len(cyc.channels) > CHANNELS
            else "")
    lines.append(f"  channels ({len(cyc.channels)}): {shown}{more}")
    return lines


def _breaking(turns: list[dict[str, Any]]) -> list[str]:
    """The breaking turns, one line per turn that recurs at several switches."""
    groups: dict[tuple, list[str]] = {}
    for t in turns:
        key = (t["from"], t["to"], t["turn"], t["cause"], tuple(t["fixes"]))
        groups.setdefault(key, []).append(t["at"])
    fixes = {key[4] for key in groups}
    same = len(fixes) == 1
    lines = [f"  breaking turns: {len(turns)} (removing, dropping to lossy or re-tagging these "
             "suffices)" + (f"; fixes: {', '.join(next(iter(fixes)))}" if same else "")]
    for (src, dst, kind, cause, fix), where in list(groups.items())[:GROUPS]:
        at = (f"at {where[0]}" if len(where) == 1 else
              f"at {len(where)} switches ({', '.join(where[:SWITCHES])}"
              + (f" and {len(where) - SWITCHES} more)" if len(where) > SWITCHES else ")"))
        lines.append(f"    {at}: {src} -> {dst} ({kind}; {cause})"
                     + ("" if same else f"; fixes: {', '.join(fix)}"))
    if len(groups) > GROUPS:
        rest = list(groups.values())[GROUPS:]
        lines.append(f"    ... and {sum(len(w) for w in rest)} more turn(s) of "
                     f"{len(rest)} other kind(s) (--format json lists every turn)")
    return lines


def _details(r: Report) -> list[str]:
    """What was checked: the routing model, the failed links, the graph, the sweep."""
    # a cyclic sweep reports its first cyclic set's cycle; the graph line stays the intent's
    swept = bool(r.sweep and r.sweep["cyclic_sets"] and r.cycles)
    lines = [f"routing model: {r.model} ({r.model_reason})",
             f"failed links{' (the cycle above)' if swept else ''}: "
             f"{_links(r.failures) or 'none'}"]
    how = ("no unsafe turn: acyclic without SCC search" if r.fast_path
           else f"{r.unsafe_turns} unsafe turn(s), SCC search")
    if r.edges == 0 and r.fast_path:
        why = ("no link failed, so no switch bounces: valley-free forwarding"
               if r.model.startswith("bounce_on_failure") else "valley-free")
        how = f"proven by the routing model ({why}: only safe turns); graph not built"
    flows = f" from {r.flows:,} flows" if r.flows is not None else ""
    scenario = " (the intent's scenario)" if swept else ""
    lines.append(f"graph{scenario}: "
                 f"{r.nodes} lossless queues, {r.edges} dependencies{flows}; {how}")
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
            lines.append("  e.g. " + _links(ex))
        if s["orbit_cycle"] and r.cycles:
            lines.append("  cycle by orbit (one turn per orbit pair): "
                         + "; ".join(s["orbit_cycle"]))
    return lines
