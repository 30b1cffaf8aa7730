"""Each cross-device rule: an intent that triggers it (rule, severity, file:line:col of the
intent value at fault) and a near miss that does not. The bundled example is the base; the
change goes through the intent (overrides, explicit links, QoS/DCQCN/ECMP values)."""

from __future__ import annotations

import pytest

from lint.cases import (
    EXAMPLE,
    EXPLICIT,
    INVENTORIES,
    LATERAL,
    STORAGE_CLASSES,
    edit,
    position,
    with_classes,
    write,
)
from netcfg.lint.consistency import RULES
from netcfg.lint.run import lint

HOST_PORT = '"leaf-su1-r1:swp1s0"'  # faces gpu-su1-n1:eth0
UPLINK = '"leaf-su1-r1:swp32s1"'  # faces spine4
SEEDS = "seeds: {leaf: 10, spine: 25}"
FIELDS = "fields: [src_ip, dst_ip, ip_proto, l4_src_port, l4_dst_port]"
WATCHDOG = "watchdog: {detection: 200ms, restoration: 200ms, action: drop}"
CNP = "      dscp: [48]\n      traffic_class: 6\n      scheduling: {mode: strict}\n"
BEST = "      traffic_class: 0\n      scheduling: {mode: ets, weight: 50}\n"
EXAMPLE_BE40 = edit(EXAMPLE, BEST, BEST.replace("50", "40"))


def ports(spec: str) -> str:
    return f"overrides:\n  ports:\n    {spec}\n"


def devices(spec: str) -> str:
    return f"overrides:\n  devices:\n    {spec}\n"


# (id, base text, change (old, new) or None, near-miss change or None, anchor)
CASES = [
    ("LNK001", EXAMPLE + ports(f"{HOST_PORT}: {{lossless: false}}"), None,
     ("lossless: false", "lossless: true"), "false}"),
    ("LNK002", EXAMPLE + ports(f"{UPLINK}: {{mtu: 9000}}"), None,
     ("mtu: 9000", "mtu: 9216"), "9000"),
    ("LNK003", EXPLICIT, ("{ends: [H0, T0], speed: 400G}", "{ends: [H0, T0], speed: 800G}"),
     ("{ends: [H0, T0], speed: 400G}", "{ends: [H0, T0], speed: 200G}"), "800G"),
    ("LNK004", EXAMPLE + ports(f"{UPLINK}: {{lossless: false}}"), None,
     ("lossless: false", "lossless: true"), "false}"),
    ("LAT001", LATERAL, None, ("  - [T0, T1]\n", "  - {ends: [T0, T1], lossless: false}\n"),
     "[T0, T1]"),
    ("NIC001", EXAMPLE + "dcqcn: {np: {cnp_802p_prio: 5}}\n", None,
     ("cnp_802p_prio: 5", "cnp_802p_prio: 6"), "5}"),
    ("NIC001", EXAMPLE + "dcqcn: {np: {cnp_dscp: 0}}\n", None,
     ("cnp_dscp: 0", "cnp_dscp: 48"), "0}"),
    ("NIC001", EXAMPLE, ("      dscp: [26]\n", "      dscp: []\n"), None, "[]"),
    ("CNP001", EXAMPLE_BE40, (CNP, CNP.replace("{mode: strict}", "{mode: ets, weight: 10}")),
     None, "ets, weight: 10"),
    ("CNP001", EXAMPLE, (CNP, CNP + "      lossless: true\n"), None, "true\n"),
    ("ECN010", with_classes(EXAMPLE, STORAGE_CLASSES), None,
     ("ecn: {enabled: false}", "ecn: {enabled: true}"), "false}"),
    ("PWD001", EXAMPLE + devices("spine1: {pfc_watchdog: {enabled: false}}"), None,
     ("enabled: false", "enabled: true"), "false}"),
    ("PWD001", EXAMPLE + ports(f"{UPLINK}: {{pfc_watchdog: {{enabled: false}}}}"), None,
     ("enabled: false", "enabled: true"), "false}"),
    ("PWD002", EXAMPLE, (WATCHDOG, WATCHDOG.replace("detection: 200ms", "detection: 50ms")),
     (WATCHDOG, WATCHDOG.replace("detection: 200ms", "detection: 100ms")), "50ms"),
    ("PWD002", EXAMPLE, (WATCHDOG, WATCHDOG.replace("restoration: 200ms", "restoration: 90s")),
     (WATCHDOG, WATCHDOG.replace("restoration: 200ms", "restoration: 60s")), "90s"),
    ("HSH001", EXAMPLE, (SEEDS, "seeds: {leaf: 10, spine: 10}"),
     (SEEDS, "seeds: {leaf: 10, spine: 11}"), "10}"),
    ("HSH001", EXAMPLE + devices("spine1: {ecmp_seed: 10}"), None,
     ("ecmp_seed: 10", "ecmp_seed: 11"), "10}"),
    ("HSH002", EXAMPLE, (FIELDS, "fields: [src_ip, dst_ip, ip_proto, l4_dst_port]"), None,
     "[src_ip"),
    ("HSH003", EXAMPLE, (FIELDS, FIELDS + "\n  mode: per_packet"),
     (FIELDS, FIELDS + "\n  mode: flowlet"), "per_packet"),
]


@pytest.mark.parametrize("rule,base,change,near,anchor", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fires_at_the_value(tmp_path, rule, base, change, near, anchor):
    text = edit(base, *change) if change else base
    result = lint(write(tmp_path / "hit", text))
    hits = [c.finding for c in result.results if c.finding.rule == rule]
    assert hits, [c.finding.text() for c in result.results]
    line, col = position(text, anchor, change[1] if change else None)
    assert any((f.line, f.column) == (line, col) for f in hits), (
        f"want {line}:{col}", [f.text() for f in hits])
    assert all(f.severity == RULES[rule].severity for f in hits)
    assert all(f.file and f.file.endswith("fabric.yaml") for f in hits)
    assert bool(result.failing("warning"))
    assert bool(result.failing("error")) is (RULES[rule].severity == "error")

    if near is not None:
        miss = lint(write(tmp_path / "near", edit(base, *near)))
        assert not [c for c in miss.results if c.finding.rule == rule], [
            c.finding.text() for c in miss.results]


def test_every_consistency_rule_has_a_case():
    assert {c[0] for c in CASES} == set(RULES)


@pytest.mark.parametrize("name", ["example", "multivendor", "gpu2048"])
def test_bundled_inventories_are_consistent(name):
    result = lint(INVENTORIES / name)
    assert result.deadlock is not None and result.deadlock["verdict"] == "deadlock_free"
    assert not [c.finding.text() for c in result.results if c.finding.rule in RULES]


def test_lateral_link_without_deadlock_check_is_not_proven(tmp_path):
    text = edit(LATERAL, "model: all_simple_paths, max_hops: 3", "model: updown")
    inv = write(tmp_path, text)
    proven = lint(inv)
    assert proven.deadlock and proven.deadlock["verdict"] == "deadlock_free"
    assert not [c for c in proven.results if c.finding.rule == "LAT001"]
    skipped = lint(inv, deadlock=False)
    hits = [c.finding for c in skipped.results if c.finding.rule == "LAT001"]
    assert hits and "skipped" in hits[0].message


def test_lateral_cycle_is_also_a_deadlock_finding(tmp_path):
    result = lint(write(tmp_path, LATERAL))
    rules = {c.finding.rule for c in result.results}
    assert {"DLK001", "LAT001"} <= rules
    assert result.deadlock is not None and result.deadlock["verdict"] == "deadlock"


def test_repeated_problem_reported_once_with_count(tmp_path):
    text = EXAMPLE + ports('"leaf-su1-r1:swp3*": {lossless: false}')
    result = lint(write(tmp_path, text))
    hits = [c.finding for c in result.results if c.finding.rule == "LNK004"]
    assert len(hits) == 1 and "more)" in hits[0].message
