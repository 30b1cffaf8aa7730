"""Waivers: a waived finding is still reported, marked waived, and does not fail the gate;
a waiver that matches nothing is a warning; one for an unknown rule an error."""

from __future__ import annotations

from lint.cases import EXAMPLE, edit, position, write
from netcfg.lint.run import lint

SEEDS = "seeds: {leaf: 10, spine: 25}"
SAME_SEEDS = edit(EXAMPLE, SEEDS, "seeds: {leaf: 10, spine: 10}")


def waivers(*entries: str) -> str:
    return "waivers:\n" + "".join(entries)


def waiver(rule: str, scope: str, reason: str = "accepted for the pilot") -> str:
    return f"  - rule: {rule}\n    {scope}\n    reason: {reason}\n"


def test_device_glob_waives_and_keeps_the_finding(tmp_path):
    result = lint(write(tmp_path, SAME_SEEDS + waivers(waiver("HSH001", 'devices: ["spine*"]'))))
    hits = [c for c in result.results if c.finding.rule == "HSH001"]
    assert hits and all(c.waived for c in hits)
    assert hits[0].waiver is not None and hits[0].waiver.reason == "accepted for the pilot"
    assert not result.failing("warning")


def test_glob_that_misses_the_device_does_not_waive(tmp_path):
    text = SAME_SEEDS + waivers(waiver("HSH001", 'devices: ["leaf-su9-*"]'))
    result = lint(write(tmp_path, text))
    assert [c for c in result.failing("error") if c.finding.rule == "HSH001"]
    unused = [c.finding for c in result.results if c.finding.rule == "SUP001"]
    assert unused and unused[0].severity == "warning"
    assert (unused[0].line, unused[0].column) == position(text, "rule: HSH001", None)


def test_port_glob_waiver(tmp_path):
    text = (EXAMPLE + 'overrides:\n  ports:\n    "leaf-su1-r1:swp32s1": {lossless: false}\n'
            + waivers(waiver("LNK004", 'ports: ["leaf-su1-r1:swp3*"]')))
    result = lint(write(tmp_path, text))
    hits = [c for c in result.results if c.finding.rule == "LNK004"]
    assert hits and all(c.waived for c in hits)
    assert not [c for c in result.results if c.finding.rule == "SUP001"]
    assert not result.failing("warning")


def test_unused_waiver_is_a_warning_at_its_line(tmp_path):
    text = EXAMPLE + waivers(waiver("HSH001", 'devices: ["spine*"]'))
    result = lint(write(tmp_path, text))
    hits = [c.finding for c in result.results if c.finding.rule == "SUP001"]
    assert len(hits) == 1 and hits[0].severity == "warning"
    assert (hits[0].line, hits[0].column) == position(text, "rule: HSH001", None)
    assert not result.failing("error") and result.failing("warning")


def test_used_waiver_is_not_reported_unused(tmp_path):
    result = lint(write(tmp_path, SAME_SEEDS + waivers(waiver("HSH001", 'devices: ["*"]'))))
    assert not [c for c in result.results if c.finding.rule in ("SUP001", "SUP002")]


def test_waiver_for_unknown_rule_is_an_error(tmp_path):
    text = EXAMPLE + waivers(waiver("XYZ123", 'devices: ["*"]'))
    result = lint(write(tmp_path, text))
    hits = [c.finding for c in result.results if c.finding.rule == "SUP002"]
    assert hits and hits[0].severity == "error"
    assert (hits[0].line, hits[0].column) == position(text, "XYZ123", None)
    near = lint(write(tmp_path / "near", SAME_SEEDS + waivers(waiver("HSH001", 'devices: ["*"]'))))
    assert not [c for c in near.results if c.finding.rule == "SUP002"]


def test_reason_is_mandatory(tmp_path):
    text = EXAMPLE + 'waivers:\n  - rule: HSH001\n    devices: ["*"]\n'
    result = lint(write(tmp_path, text))
    hits = [c.finding for c in result.results if c.finding.rule == "SCH002"]
    assert hits and "reason" in hits[0].message
    assert hits[0].line == position(text, "rule: HSH001", None)[0]


def test_scope_is_mandatory(tmp_path):
    text = EXAMPLE + "waivers:\n  - rule: HSH001\n    reason: why not\n"
    result = lint(write(tmp_path, text))
    hits = [c.finding for c in result.results if c.finding.rule == "SCH003"]
    assert hits and "devices" in hits[0].message


def test_waived_error_does_not_fail_but_others_still_do(tmp_path):
    text = (edit(SAME_SEEDS, "fields: [src_ip, dst_ip, ip_proto, l4_src_port, l4_dst_port]",
                 "fields: [src_ip, dst_ip, ip_proto, l4_dst_port]")
            + waivers(waiver("HSH001", 'devices: ["*"]')))
    result = lint(write(tmp_path, text))
    assert {c.finding.rule for c in result.failing("error")} == {"HSH002"}


def test_waiving_some_devices_leaves_the_others_reported(tmp_path):
    result = lint(write(tmp_path, SAME_SEEDS + waivers(waiver("HSH001", 'devices: ["spine4"]'))))
    hits = [c for c in result.results if c.finding.rule == "HSH001"]
    waived = [c for c in hits if c.waived]
    assert waived and {c.finding.device for c in waived} == {"spine4"}
    assert [c for c in result.failing("error") if c.finding.rule == "HSH001"]
    assert not [c for c in result.results if c.finding.rule == "SUP001"]
