"""Flow witnesses: every edge of a reported cycle names a flow whose path makes that edge.

Each witness is checked against the fabric itself: the path starts at the flow's source and
ends at its destination, follows working links only (none of the failure set), and passes
through the edge's three devices in order, over the edge's channels.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deadlock.check import Report, check
from netcfg.validate import validate

HERE = Path(__file__).parent
CASES = HERE / "deadlock_cases"


def load(path: Path):
    v = validate(path)
    assert v.ok, [f.text() for f in v.findings]
    return v.fabric


def links_of(fabric) -> set[frozenset[str]]:
    return {frozenset((_node(link.a), _node(link.b))) for link in fabric.links}


def _node(port) -> str:
    """Name of the endpoint as the checker names it (a multi-NIC server per NIC)."""
    dev = port.device
    return f"{dev.name}:{port.name}" if dev.tier == 0 and len(dev.ports) > 1 else dev.name


def assert_witnesses_hold(fabric, r: Report) -> None:
    assert r.cycles
    alive = links_of(fabric) - {frozenset(f) for f in r.failures}
    for cyc in r.cycles:
        assert len(cyc.witnesses) == len(cyc.hops)
        for hop, nxt, w in zip(cyc.hops, cyc.hops[1:] + cyc.hops[:1], cyc.witnesses):
            assert w["flow"] is not None, w
            path = w["path"]
            assert path[0] == w["flow"][0]
            assert path[-1] == w["flow"][1] or not w["delivered"]
            assert w["failures"] == r.failures
            for a, b in zip(path, path[1:]):
                assert frozenset((a, b)) in alive, (a, b, w)
            hop_at = [(path[i], path[i + 1], path[i + 2]) for i in range(len(path) - 2)]
            assert (hop["in_from"], hop["switch"], hop["out_to"]) in hop_at, (hop, w)
            assert hop["switch"] == nxt["in_from"]
            src, dst = w["edge"].split(" -> ")
            assert src.startswith(f"{hop['in_from']}>{hop['switch']}@")
            assert dst.startswith(f"{hop['switch']}>{hop['out_to']}@")


@pytest.mark.parametrize("case", ["C03_leafspine_bounce_two_failures",
                                  "C06_leafspine_lateral_link_lossless_nonminimal",
                                  "C08_ring4_shortest_path"])
def test_witnesses_follow_the_cycle_over_working_links(case: str):
    fabric = load(CASES / case)
    assert_witnesses_hold(fabric, check(fabric))


def test_c03_witness_of_the_bounce_edge():
    r = check(load(CASES / "C03_leafspine_bounce_two_failures"))
    by_edge = {w["edge"]: w for w in r.cycles[0].witnesses}
    w = by_edge["T0>S1@3 -> S1>T2@3"]
    # S1 lost T1: T1-traffic reaching S1 bounces down to T2, which sends it up to S0
    assert w["flow"] == ["T0", "T1"] and w["path"] == ["T0", "S1", "T2", "S0", "T1"]
    assert w["delivered"] and w["source_port"]


def test_path_model_witnesses(tmp_path):
    data = yaml.safe_load((CASES / "C01_leafspine_updown_intact" / "fabric.yaml").read_text())
    data["routing"]["deadlock"]["model"] = "k_bounce"
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(data))
    fabric = load(tmp_path)
    r = check(fabric)
    assert r.verdict == "deadlock"  # Tagger: every one-bounce path in one priority is cyclic
    assert_witnesses_hold(fabric, r)


def test_sweep_cycle_witnesses_name_the_failure_set(tmp_path):
    example = HERE.parent / "inventories" / "example"
    data = yaml.safe_load((example / "fabric.yaml").read_text())
    data["topology"].update(scalable_units=2, nodes_per_su=2, spines=2,
                            node={"gpus": 2, "nics": 2, "nic": "connectx-7"})
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(data))
    fabric = load(tmp_path)
    r = check(fabric, failures=2, model="bounce_on_failure")
    assert r.verdict == "deadlock" and len(r.failures) == 2
    assert_witnesses_hold(fabric, r)
    hosts = {w["flow"][0].split(":")[0] for w in r.cycles[0].witnesses}
    assert all(h.startswith("gpu-") for h in hosts)  # NIC sources, named with their port


def test_witnesses_in_text_and_json():
    c03 = str(CASES / "C03_leafspine_bounce_two_failures")
    runner = CliRunner()
    doc = json.loads(runner.invoke(main, ["deadlock", c03, "--format", "json"]).output)
    w = doc["cycles"][0]["witnesses"]
    assert len(w) == 4 and all(x["flow"] and x["path"] and x["failures"] for x in w)
    text = runner.invoke(main, ["deadlock", c03]).output
    assert "flows behind each dependency" in text
    assert "T0>S1@3 -> S1>T2@3: T0 (port " in text and "failed: T1-S1, T3-S0" in text


def test_undelivered_witness_names_the_real_destination():
    """Both links of T0 fail: packets for T0 bounce until dropped, yet still wait in queues."""
    fabric = load(CASES / "C01_leafspine_updown_intact")
    r = check(fabric, failures=2, model="bounce_on_failure")
    assert r.verdict == "deadlock"
    assert_witnesses_hold(fabric, r)
    lost = [w for cyc in r.cycles for w in cyc.witnesses if not w["delivered"]]
    assert lost
    failed = {frozenset(pair) for pair in r.failures}
    cut_off = {d.name for d in fabric.switches()
               if all(frozenset((p.device.name, p.peer.device.name)) in failed
                      for p in d.ports if p.peer is not None)}
    assert cut_off == {"T0"}
    for w in lost:
        assert w["flow"][1] == "T0" and w["path"][-1] != "T0"
