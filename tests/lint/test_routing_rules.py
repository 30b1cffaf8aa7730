"""Each routing-design rule: an intent that breaks the routing, what the rule says about it
(figures counted by hand from the intent) and a near miss that passes."""

from __future__ import annotations

import pytest
import yaml

from lint.cases import EXAMPLE, EXPLICIT, INVENTORIES, edit, write
from netcfg.lint.routing import RULES
from netcfg.lint.run import lint

ASN = "  asn: {leaf: unique, spine: shared}\n"
SPINE_AS = 4_200_100_000  # routing.asn.spine_base's default: every example spine shares it


def hits(path, rule: str) -> list:
    return [c.finding for c in lint(path, deadlock=False).results if c.finding.rule == rule]


def test_max_paths_below_the_uplinks(tmp_path):
    """The example's leaves have 32 uplinks (8 to each of 4 spines): 16 paths leave 16 idle.
    A spine reaches a leaf over 8 parallel links, within 16."""
    found = hits(write(tmp_path / "hit", edit(EXAMPLE, ASN, ASN + "  max_paths: 16\n")),
                 "RTE001")
    assert len(found) == 1 and found[0].severity == "warning"
    assert "installs at most 16 equal BGP paths but has 32 toward" in found[0].message
    assert "16 of those links stay idle (and 7 more)" in found[0].message  # 8 leaves
    assert found[0].device.startswith("leaf-")
    assert (found[0].line, found[0].file.endswith("fabric.yaml")) == (
        EXAMPLE.splitlines().index("routing:") + 3, True)
    assert not hits(write(tmp_path / "near", edit(EXAMPLE, ASN, ASN + "  max_paths: 32\n")),
                    "RTE001")


def test_server_subnet_no_nos_announces(tmp_path):
    """One server per SONiC leaf: its /31 (10.128.0.16/31 on leaf-su2-r1) shares its /30
    with the next leaf's (tests/render/test_sonic.py counts it), so it forms no block SONiC
    can announce. With 15 servers the lone last /31 takes its free /30 partner along and
    every subnet is announced."""
    doc = yaml.safe_load((INVENTORIES / "multivendor" / "fabric.yaml").read_text())
    doc["topology"]["nodes_per_su"] = 1
    doc["overrides"].pop("ports")
    found = hits(write(tmp_path / "hit", yaml.safe_dump(doc, sort_keys=False)), "RTE002")
    assert len(found) == 1 and found[0].severity == "error"
    assert ("leaf-su2-r1's sonic config announces 1 of its server subnets nowhere "
            "(10.128.0.16/31)" in found[0].message)
    assert found[0].message.endswith("(and 3 more)")  # rails 2-4 of the SONiC leaves
    doc["topology"]["nodes_per_su"] = 15
    assert not hits(write(tmp_path / "near", yaml.safe_dump(doc, sort_keys=False)), "RTE002")


def test_leaves_without_a_common_spine_need_a_valley(tmp_path):
    """T0 only on S0, T1 only on S1: no switch is above both."""
    split = edit(edit(EXPLICIT, "  - [T0, S1]\n", ""), "  - [T1, S0]\n", "")
    found = hits(write(tmp_path / "hit", split), "RTE003")
    assert len(found) == 1 and found[0].severity == "error"
    assert "T0 and T1 (1 leaf pairs) share no switch above them" in found[0].message
    joined = edit(EXPLICIT, "  - [T0, S1]\n", "")  # T0 on S0, T1 on both: S0 is common
    assert not hits(write(tmp_path / "near", joined), "RTE003")


def test_bfd_on_one_end_only():
    """multivendor: the 4 SONiC leaves (rails 1-4 of pod 2) render no BFD, their NX-OS
    spines do; 16 uplinks each = 64 one-sided sessions. Cumulus and EOS leaves have it."""
    found = hits(INVENTORIES / "multivendor", "RTE004")
    assert len(found) == 1 and found[0].severity == "warning"
    assert "runs no BFD at leaf-su2-r" in found[0].message and "one-sided" in found[0].message
    assert found[0].message.endswith("(and 63 more)")


def test_bfd_off_raises_nothing(tmp_path):
    doc = yaml.safe_load((INVENTORIES / "multivendor" / "fabric.yaml").read_text())
    doc["routing"]["bfd"] = {"enabled": False}
    assert not hits(write(tmp_path, yaml.safe_dump(doc, sort_keys=False)), "RTE004")


def test_spines_in_different_ases_pass_routes_through_a_leaf(tmp_path):
    """spine1 moved to its own AS: every leaf (8) now peers up with two ASes."""
    over = "overrides:\n  devices:\n    spine1: {asn: %d}\n"
    found = hits(write(tmp_path / "hit", EXAMPLE + over % (SPINE_AS + 99)), "RTE005")
    assert len(found) == 1 and found[0].severity == "warning"
    assert f"(AS {SPINE_AS + 99})" in found[0].message and f"(AS {SPINE_AS})" in found[0].message
    assert found[0].message.endswith("(and 7 more)")
    text = EXAMPLE + over % (SPINE_AS + 99)
    assert found[0].line == text.splitlines().index(f"    spine1: {{asn: {SPINE_AS + 99}}}") + 1
    assert not hits(write(tmp_path / "near", EXAMPLE + over % SPINE_AS), "RTE005")


@pytest.mark.parametrize("name", ["example", "gpu2048"])
def test_bundled_single_vendor_inventories_route_cleanly(name):
    found = [c.finding.text() for c in lint(INVENTORIES / name, deadlock=False).results
             if c.finding.rule in RULES]
    assert not found
