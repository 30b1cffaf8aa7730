"""PFC deadlock checker: the public reference cases and the behaviours the spec describes.

Reference: shared/specs/deadlock.md and shared/cases/deadlock-public.yaml (each public case is
an explicit inventory under tests/deadlock_cases/ with its expected results).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from deadlock_fabrics import small_rail

from netcfg.cli import main
from netcfg.deadlock.analysis import analyse
from netcfg.deadlock.check import check
from netcfg.deadlock.graph import build
from netcfg.routing.network import from_edges
from netcfg.routing.setup import RoutingSetup, Rule
from netcfg.validate import validate

HERE = Path(__file__).parent
CASES = sorted(p for p in (HERE / "deadlock_cases").iterdir() if p.is_dir())
SHARED_CASES = Path(__file__).resolve().parents[2] / "shared" / "cases" / "deadlock-public.yaml"


def load(path: Path):
    v = validate(path)
    assert v.ok, [f.text() for f in v.findings]
    return v.fabric


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_public_case(case: Path):
    expected = yaml.safe_load((case / "expected.yaml").read_text())
    r = check(load(case))
    assert r.verdict == expected["verdict"]
    assert r.cyclic_channels == sorted(expected["cyclic_channels"])
    assert r.breaking_turns == sorted(expected["breaking_turns"])
    assert sorted(map(list, r.unroutable)) == sorted(map(list, expected["unroutable"]))
    if "example_cycle" in expected:
        first = r.cycles[0]
        names = [f"{h['in_from']}>{h['switch']}@{h['prio_in']}" for h in first.hops]
        assert names == expected["example_cycle"]
    assert (r.verdict == "deadlock") == any(f.rule == "DLK001" for f in r.findings)


@pytest.mark.skipif(not SHARED_CASES.exists(), reason="shared/cases/deadlock-public.yaml is "
                    "not checked out beside the repository")
def test_case_inventories_match_the_shared_file():
    cases = {c["id"]: c for c in yaml.safe_load(SHARED_CASES.read_text())["cases"]}
    assert sorted(cases) == [c.name for c in CASES]
    for case in CASES:
        want = cases[case.name]
        got = yaml.safe_load((case / "expected.yaml").read_text())
        assert got["verdict"] == want["expected"]["verdict"]
        assert sorted(got["cyclic_channels"]) == sorted(want["expected"].get("cyclic_channels", []))
        assert sorted(got["breaking_turns"]) == sorted(want["expected"].get("breaking_turns", []))
        fabric = yaml.safe_load((case / "fabric.yaml").read_text())
        assert fabric["topology"]["links"] == want["topology"]["links"]
        assert fabric["routing"]["deadlock"]["model"] == want["routing"]["policy"]


# --------------------------------------------------------------------------- spec behaviours

LS = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "S0": 2, "S1": 2}
LS_LINKS = [(t, s, True) for t in ("T0", "T1", "T2", "T3") for s in ("S0", "S1")]
POD3 = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "A0": 2, "A1": 2, "A2": 2, "A3": 2, "C0": 3, "C1": 3}
POD3_LINKS = [(t, a, True) for t, aggs in (("T0", "A0A1"), ("T1", "A0A1"), ("T2", "A2A3"),
                                           ("T3", "A2A3")) for a in (aggs[:2], aggs[2:])]
POD3_LINKS += [("A0", "C0", True), ("A1", "C1", True), ("A2", "C0", True), ("A3", "C1", True)]


def verdict(nodes, links, failed=(), **kw):
    net = from_edges(nodes, links)
    idx = [k for k, (a, b, _) in enumerate(links) if (a, b) in failed or (b, a) in failed]
    g = build(net.with_failures(idx), RoutingSetup(**kw), intact=net)
    a = analyse(g)
    cyc = sorted(g.node_name(n) for c in a.components for n in c.nodes)
    return ("deadlock" if a.cyclic else "deadlock_free"), cyc, g


def test_valley_free_routing_turns_failures_into_unroutable_pairs():  # C02
    v, _, g = verdict(LS, LS_LINKS, [("S1", "T1"), ("S0", "T3")], model="updown")
    assert v == "deadlock_free"
    assert g.unroutable == {("T1", "T3"), ("T3", "T1")}


@pytest.mark.parametrize("failed,expect", [
    ([("S1", "T1")], "deadlock_free"),  # one bounce direction cannot close a loop
    ([("S1", "T1"), ("S1", "T3")], "deadlock_free"),  # both at the same spine
    ([("S1", "T1"), ("S0", "T1")], "deadlock"),  # leaf isolated while routes are stale
    ([("S0", "T1"), ("S1", "T0")], "deadlock"),  # the other member of the C03 family
])
def test_bounce_failure_patterns(failed, expect):
    assert verdict(LS, LS_LINKS, failed, model="bounce_on_failure")[0] == expect


def test_tagger_elp_needs_a_second_priority():  # C05 / C04
    assert verdict(LS, LS_LINKS, model="k_bounce", k=1)[0] == "deadlock"
    assert verdict(LS, LS_LINKS, model="k_bounce", k=1, rewrite="tag_on_bounce",
                   tags_to_priorities=[3, 4], pfc_priorities={3, 4})[0] == "deadlock_free"
    # one lossless priority: bounced packets become lossy, also free
    assert verdict(LS, LS_LINKS, model="k_bounce", k=1, rewrite="tag_on_bounce",
                   tags_to_priorities=[3, 5], pfc_priorities={3})[0] == "deadlock_free"


def test_lateral_link_out_of_the_lossless_class():  # C07, C06 notes
    lossy = LS_LINKS + [("T0", "T1", False)]
    assert verdict(LS, lossy, model="all_simple_paths", max_hops=3)[0] == "deadlock_free"
    lossless = LS_LINKS + [("T0", "T1", True)]
    assert verdict(LS, lossless, model="shortest_path")[0] == "deadlock_free"
    assert verdict(LS, LS_LINKS, model="all_simple_paths", max_hops=3)[0] == "deadlock_free"


RING = {"R0": 1, "R1": 1, "R2": 1, "R3": 1}
RING_LINKS = [("R0", "R1", True), ("R1", "R2", True), ("R2", "R3", True), ("R3", "R0", True)]


def test_ring_dateline_priority():  # C09
    """A 4-ring with shortest paths: opposite nodes have one path each way round, so both
    directions of the ring close a cycle. A dateline on both channels of the R3-R0 link (the
    packet crossing it moves to the second priority) breaks both."""
    assert verdict(RING, RING_LINKS, model="shortest_path")[0] == "deadlock"
    assert verdict(RING, RING_LINKS, model="shortest_path", rewrite="increment_on_channel",
                   dateline={("R3", "R0"), ("R0", "R3")}, tags_to_priorities=[3, 4],
                   pfc_priorities={3, 4})[0] == "deadlock_free"


def test_a_one_way_dateline_leaves_the_other_direction_cyclic():
    """By hand: with the dateline on R3>R0 only, the clockwise cycle R0>R1, R1>R2, R2>R3,
    R3>R0 is cut, and the counter-clockwise one, R0>R3, R3>R2, R2>R1, R1>R0 (priority 3: no
    packet going that way crosses a dateline), is not."""
    v, cyc, _ = verdict(RING, RING_LINKS, model="shortest_path", rewrite="increment_on_channel",
                        dateline={("R3", "R0")}, tags_to_priorities=[3, 4],
                        pfc_priorities={3, 4})
    assert v == "deadlock"
    assert {"R0>R3@3", "R3>R2@3", "R2>R1@3", "R1>R0@3"} <= set(cyc)
    assert not {"R0>R1@3", "R1>R2@3", "R2>R3@3"} & set(cyc)


def test_three_tier_bounces_in_two_pods():  # C12, C13
    assert verdict(POD3, POD3_LINKS, [("A0", "T1")], model="bounce_on_failure")[0] == \
        "deadlock_free"
    v, cyc, _ = verdict(POD3, POD3_LINKS, [("A0", "T1"), ("A3", "T2")],
                        model="bounce_on_failure")
    assert v == "deadlock" and len(cyc) == 8
    assert {"A0>T0@3", "T0>A1@3", "A1>C1@3", "C1>A3@3"} <= set(cyc)
    # Tagger with a single lossless priority: bounced packets go lossy
    assert verdict(POD3, POD3_LINKS, [("A0", "T1"), ("A3", "T2")], model="bounce_on_failure",
                   rewrite="tag_on_bounce", tags_to_priorities=[3])[0] == "deadlock_free"


HOSTS = {"T0": 1, "T1": 1, "S0": 2, "S1": 2, "h0": 0, "h1": 0, "h2": 0, "h3": 0}
HOST_LINKS = [(t, s, True) for t in ("T0", "T1") for s in ("S0", "S1")]
HOST_LINKS += [("h0", "T0", True), ("h2", "T0", True), ("h1", "T1", True), ("h3", "T1", True)]


def test_flooding_towards_dead_hosts_and_the_drop_fix():  # C10, C11
    v, cyc, _ = verdict(HOSTS, HOST_LINKS, model="updown", traffic="all_host_pairs",
                        dead_hosts=["h0", "h1"])
    assert v == "deadlock" and {"T0>S0@3", "S0>T1@3", "T1>S1@3", "S1>T0@3"} <= set(cyc)
    drop = [Rule("T0", "h0", None, ()), Rule("T1", "h1", None, ())]
    assert verdict(HOSTS, HOST_LINKS, model="updown", traffic="all_host_pairs",
                   dead_hosts=["h0", "h1"], rules=drop)[0] == "deadlock_free"


def test_static_route_loop():  # C15
    v, cyc, _ = verdict(LS, LS_LINKS, model="updown", rules=[Rule("S0", "T3", None, ("T0",))])
    assert v == "deadlock" and cyc == ["S0>T0@3", "T0>S0@3"]


# --------------------------------------------------------------------------- generated fabrics

EXAMPLE = HERE.parent / "inventories" / "example"


def test_rail_fabric_valley_free_is_proven_and_the_graph_agrees():
    fabric = load(EXAMPLE)
    proof = check(fabric)
    assert proof.verdict == "deadlock_free" and proof.fast_path and proof.edges == 0
    built = check(fabric, exhaustive=True)
    assert built.verdict == "deadlock_free" and built.unsafe_turns == 0
    assert built.edges > 30_000 and built.nodes == 1024 and not built.unroutable


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_bounce_on_failure_without_a_failure_is_proven_and_is_updown(inventory):
    """No link failed: nothing is pruned, no switch bounces, so the stale tables forward as
    converged valley-free routing does. The proof answers without a graph; built anyway, both
    models give the same dependencies and no unsafe turn."""
    fabric = load(HERE.parent / "inventories" / inventory)
    proof = check(fabric, model="bounce_on_failure")
    assert proof.verdict == "deadlock_free" and proof.fast_path and proof.edges == 0
    bounce = check(fabric, model="bounce_on_failure", exhaustive=True)
    updown = check(fabric, model="updown", exhaustive=True)
    assert bounce.unsafe_turns == 0 and bounce.verdict == "deadlock_free"
    assert (bounce.nodes, bounce.edges, bounce.flows) == (updown.nodes, updown.edges,
                                                          updown.flows)


def two_planes(tmp_path: Path, endpoints: str | None) -> Path:
    """2 SUs x 2 servers x 2 NICs of 2 ports (ConnectX-8: 2 x 400GbE), the two ports of a NIC
    in two planes: 4 servers x 4 ports = 16 server ports, 8 per plane."""
    data = yaml.safe_load((EXAMPLE / "fabric.yaml").read_text())
    data["topology"].update(scalable_units=2, nodes_per_su=2, spines=2, planes=2,
                            node={"gpus": 2, "nics": 2, "nic": "connectx-8"})
    dl = data["routing"].setdefault("deadlock", {})
    dl.update(model="shortest_path", traffic="all_host_pairs")
    if endpoints is not None:
        dl["endpoints"] = endpoints
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(data))
    return tmp_path


@pytest.mark.parametrize("endpoints", [None, "host"])
def test_servers_are_endpoints_so_two_planes_cut_nothing_off(tmp_path, endpoints):
    """By hand: 4 servers, 4 x 3 = 12 flows between them, all delivered (each pair of
    servers meets in both planes); the graph is built (shortest_path), nothing is lost."""
    r = check(load(two_planes(tmp_path, endpoints)), exhaustive=True)
    assert r.verdict == "deadlock_free" and r.unroutable == []
    assert r.flows == 12
    assert not any(f.rule == "DLK003" for f in r.findings)


def test_port_endpoints_count_the_pairs_across_planes_as_cut_off(tmp_path):
    """`endpoints: port`: 16 ports, each paired with the 8 of the other plane: 16 x 8 = 128
    pairs have no path (two planes share no switch); 16 x 7 = 112 within a plane do."""
    r = check(load(two_planes(tmp_path, "port")), exhaustive=True)
    assert r.flows == 16 * 15 and len(r.unroutable) == 16 * 8
    assert any(f.rule == "DLK003" for f in r.findings)


def test_rail_fabric_failure_sweeps(tmp_path):
    fabric = load(small_rail(tmp_path))
    up = check(fabric, failures=1)
    assert up.verdict == "deadlock_free" and up.sweep["method"].startswith("proof")
    one = check(fabric, failures=1, model="bounce_on_failure")
    assert one.verdict == "deadlock_free" and one.sweep["represented"] == one.sweep["sets"]
    assert one.sweep["checked"] < one.sweep["sets"]  # one set per orbit of the symmetry
    two = check(fabric, failures=2, model="bounce_on_failure")
    assert two.verdict == "deadlock" and two.sweep["cyclic_sets"] > 0
    assert len(two.failures) == 2 and any(f.rule == "DLK002" for f in two.findings)


def test_cli_exit_codes_and_json(tmp_path):
    runner = CliRunner()
    c03 = str(HERE / "deadlock_cases" / "C03_leafspine_bounce_two_failures")
    res = runner.invoke(main, ["deadlock", c03, "--format", "json"])
    assert res.exit_code == 1
    doc = json.loads(res.output)
    assert doc["verdict"] == "deadlock" and doc["scenario"]["failures"]
    assert doc["findings"][0]["rule"] == "DLK001" and doc["findings"][0]["line"]
    c01 = str(HERE / "deadlock_cases" / "C01_leafspine_updown_intact")
    assert runner.invoke(main, ["deadlock", c01]).exit_code == 0
    assert runner.invoke(main, ["deadlock", c01, "--failures", "x"]).exit_code == 2
    svg = tmp_path / "c.svg"
    res = runner.invoke(main, ["graph", c03, "--out", str(svg), "--dot", str(tmp_path / "c.dot")])
    assert res.exit_code == 1 and "<svg" in svg.read_text() and "#d62728" in svg.read_text()
