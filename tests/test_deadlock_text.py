"""The deadlock report a person reads: the verdict and the cycle first, the breaking turns
folded (one line per turn that recurs at many switches), the scenario and graph after.

The layout is written out by hand: on a report built here from hand-made cycles, and on the
public case C03, whose example cycle and breaking turns are the case's own expected values
(tests/deadlock_cases/C03_leafspine_bounce_two_failures/expected.yaml, from
../shared/cases/deadlock-public.yaml)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deadlock.check import Cycle, Report
from netcfg.deadlock.text import render

C03 = Path(__file__).parent / "deadlock_cases" / "C03_leafspine_bounce_two_failures"
FIXES = ["tagger_retag", "lossy_on_bounce", "valley_free_routing"]


def _turn(at: str, src: str, dst: str, fixes: list[str] = FIXES) -> dict:
    return {"turn_id": f"{src}>{at}@3 => {at}>{dst}@3", "at": at, "from": src, "to": dst,
            "turn": "down->up", "cause": f"bounce: {src} has no route to H0",
            "fixes": fixes}


def _hop(a: str, b: str, c: str, turn: str) -> dict:
    return {"switch": b, "in_from": a, "out_to": c, "in_port": "p1", "out_port": "p2",
            "prio_in": 3, "prio_out": 3, "turn": turn, "cause": f"ECMP towards {c}",
            "hop": f"{a}:p2 -> {b}:p1"}


def test_the_cycle_leads_and_a_turn_at_many_switches_is_one_line():
    leaves = [f"L{i}" for i in range(1, 11)]
    turns = ([_turn(leaf, "S1", "S2") for leaf in leaves]
             + [_turn(leaf, "S2", "S1") for leaf in leaves]
             + [_turn("X", f"A{i}", "B", ["lossy_on_link"]) for i in range(7)])
    hops = [_hop("L1", "S1", "L2", "up->down"), _hop("S1", "L2", "S2", "down->up"),
            _hop("L2", "S2", "L1", "up->down"), _hop("S2", "L1", "S1", "down->up")]
    channels = [f"L{i}>S{j}@3" for i in range(1, 11) for j in (1, 2)]
    report = Report("deadlock", "bounce_on_failure(max_bounces=1)", "given", [["L0", "S1"]],
                    nodes=40, edges=80, unsafe_turns=27, fast_path=False,
                    cycles=[Cycle(20, channels, hops, turns)])
    assert render(report).splitlines() == [
        "verdict: deadlock: 1 cyclic buffer dependency with failed links L0-S1",
        "cycle 1: 20 queues in the strongly connected component; the example cycle (each hop "
        "is the ingress queue that waits):",
        "    L1:p2 -> S1:p1  [up->down at S1, prio 3->3; ECMP towards L2]",
        "    S1:p2 -> L2:p1  [down->up at L2, prio 3->3; ECMP towards S2]",
        "    L2:p2 -> S2:p1  [up->down at S2, prio 3->3; ECMP towards L1]",
        "    S2:p2 -> L1:p1  [down->up at L1, prio 3->3; ECMP towards S1]",
        "  breaking turns: 27 (removing, dropping to lossy or re-tagging these suffices)",
        "    at 10 switches (L1, L2, L3, L4 and 6 more): S1 -> S2 (down->up; bounce: S1 has "
        "no route to H0); fixes: tagger_retag, lossy_on_bounce, valley_free_routing",
        "    at 10 switches (L1, L2, L3, L4 and 6 more): S2 -> S1 (down->up; bounce: S2 has "
        "no route to H0); fixes: tagger_retag, lossy_on_bounce, valley_free_routing",
        "    at X: A0 -> B (down->up; bounce: A0 has no route to H0); fixes: lossy_on_link",
        "    at X: A1 -> B (down->up; bounce: A1 has no route to H0); fixes: lossy_on_link",
        "    at X: A2 -> B (down->up; bounce: A2 has no route to H0); fixes: lossy_on_link",
        "    at X: A3 -> B (down->up; bounce: A3 has no route to H0); fixes: lossy_on_link",
        "    ... and 3 more turn(s) of 3 other kind(s) (--format json lists every turn)",
        "  channels (20): L1>S1@3, L1>S2@3, L2>S1@3, L2>S2@3, L3>S1@3, L3>S2@3, L4>S1@3, "
        "L4>S2@3 and 12 more",
        "routing model: bounce_on_failure(max_bounces=1) (given)",
        "failed links: L0-S1",
        "graph: 40 lossless queues, 80 dependencies; 27 unsafe turn(s), SCC search",
        "note: a cycle means deadlock is possible, not certain; keep the PFC watchdog on, but "
        "treat the cycle as an error",
    ]


def test_a_free_fabric_says_so_first():
    report = Report("deadlock_free", "updown", "given", [], nodes=16, edges=0, unsafe_turns=0,
                    fast_path=True)
    assert render(report).splitlines() == [
        "verdict: deadlock_free",
        "routing model: updown (given)",
        "failed links: none",
        "graph: 16 lossless queues, 0 dependencies; proven by the routing model (valley-free: "
        "only safe turns); graph not built",
    ]


def test_c03_leads_with_its_cycle():
    out = CliRunner().invoke(main, ["deadlock", str(C03)])
    assert out.exit_code == 1
    lines = out.output.splitlines()
    # the case's failed links ([S1, T1], [S0, T3]), as the fabric lists links
    assert lines[0] == "verdict: deadlock: 2 cyclic buffer dependencies with failed links " \
        "T1-S1, T3-S0"
    assert lines[1].startswith("cycle 1 of 2: 4 queues in the strongly connected component")
    # expected.yaml's example cycle S0>T0, T0>S1, S1>T2, T2>S0: each hop's ingress queue
    assert [ln.split("  [")[0].strip() for ln in lines[2:6]] == [
        "S0:swp1s0 -> T0:swp1s0", "T0:swp1s1 -> S1:swp1s0", "S1:swp2s0 -> T2:swp1s1",
        "T2:swp1s0 -> S0:swp2s0"]
    # expected.yaml's breaking turns of this cycle: S0>T0@3 => T0>S1@3, S1>T2@3 => T2>S0@3
    assert lines[6] == ("  breaking turns: 2 (removing, dropping to lossy or re-tagging these "
                        "suffices); fixes: tagger_retag, lossy_on_bounce, valley_free_routing")
    assert lines[7] == "    at T0: S0 -> S1 (down->up; bounce: S0 has no route to T3)"
    assert lines[8] == "    at T2: S1 -> S0 (down->up; bounce: S1 has no route to T1)"
    first_detail = lines.index("routing model: bounce_on_failure(max_bounces=1) (set in "
                               "routing.deadlock.model)")
    assert first_detail > lines.index(next(ln for ln in lines if ln.startswith("cycle 2 of 2")))


def test_a_sweep_decided_modulo_symmetry_leads_with_the_cycle_of_orbits():
    """No single failure state was built (gpu32768's pair sweep): the cycle is one turn per
    orbit pair, shown right after the verdict."""
    sweep = {"k": 2, "method": "modulo symmetry", "sets": 4_831_789_056, "checked": 28,
             "represented": 4_831_789_056, "complete": True, "cyclic_sets": 520_093_696,
             "cyclic_checked": 3, "symmetry": {"exact": ["rails within an SU"], "dropped": {},
                                               "summary": "28 sets checked, representing "
                                               "4,831,789,056 by symmetry (exact: rails "
                                               "within an SU)"},
             "examples": [[["leaf-su1-r1", "spine-pod1-1"], ["leaf-su1-r1", "spine-pod1-2"]]],
             "orbit_cycle": ["spine-pod1-1>leaf-su1-r8@3 => leaf-su1-r8>spine-pod1-2@3",
                             "spine-pod1-2>leaf-su1-r8@3 => leaf-su1-r8>spine-pod1-1@3"],
             "note": ""}
    report = Report("deadlock", "bounce_on_failure(max_bounces=1)", "given",
                    [["leaf-su1-r1", "spine-pod1-1"], ["leaf-su1-r1", "spine-pod1-2"]],
                    nodes=10, edges=0, unsafe_turns=0, fast_path=True, sweep=sweep)
    assert render(report).splitlines()[:3] == [
        "verdict: deadlock: 520,093,696 of 4,831,789,056 sets of 2 failed link(s) create a "
        "cyclic buffer dependency",
        "cycle by orbit (one turn per orbit pair): spine-pod1-1>leaf-su1-r8@3 => "
        "leaf-su1-r8>spine-pod1-2@3; spine-pod1-2>leaf-su1-r8@3 => leaf-su1-r8>spine-pod1-1@3",
        "routing model: bounce_on_failure(max_bounces=1) (given)",
    ]
    assert sum("cycle by orbit" in ln for ln in render(report).splitlines()) == 1
