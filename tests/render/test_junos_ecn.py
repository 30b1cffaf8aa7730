"""Junos ECN thresholds: netcfg's bytes written as fill levels, and the warning that their
base is netcfg's, not Juniper's (CAP028).

Outside truth: Juniper's `fill-level` page (a fill level is the "fullness of the queue ...
expressed as a percentage", 0-100) and Juniper's own AI configurations, which state percents
with no byte base: Apstra 6.1 "Create and Import a DCQCN Configlet" `fill-level [ 55 90 ]`,
the AI JVD configlet (terraform-apstra-examples ai-cluster-jvd/configlet_dcqcn.tf)
`fill-level [ 20 60 ]`. The conversion is checked by hand arithmetic: 150 KB and 1500 KB
(the multivendor RoCE class, 1 KB = 1000 B) over the queue limit the warning states."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Decimal

from render_cases import INVENTORIES

from netcfg.validate import validate


def test_the_base_is_named_unverified_once_with_junipers_own_values():
    result = validate(INVENTORIES / "multivendor")
    found = [f for f in result.findings if f.rule == "CAP028"]
    assert len(found) == 1 and found[0].severity == "warning"
    message = found[0].message
    assert "core1 and 7 more junos switches" in message
    assert "[ 55 90 ] (Apstra 6.1)" in message and "[ 20 60 ] (AI JVD)" in message
    limit = int(re.search(r"dynamic limit \((\d+)B on core1\)", message).group(1))
    # by hand: percent = 100 * bytes / limit, three digits in the message
    low, high = (Decimal(100 * b) / limit for b in (150_000, 1_500_000))
    assert f"fill-level [ {low:.3f} {high:.3f} ]" in message
    # the file writes nine fraction digits (junos-conf-class-of-service: decimal64,
    # fraction-digits 9), rounded half-even
    golden = (INVENTORIES.parent / "tests" / "render" / "golden" / "junos" / "core1.conf")
    nine = Decimal("0.000000001")
    assert (f"fill-level [ {low.quantize(nine, ROUND_HALF_EVEN)} "
            f"{high.quantize(nine, ROUND_HALF_EVEN)} ];") in golden.read_text()


def test_a_last_fill_level_of_100_percent_is_refused(tmp_path):
    """Juniper's fill-level page: "Do not configure the last fill level as 100 percent" (the
    YANG's range 0..100 would let it through). Kmax set to exactly the queue limit the
    warning states is 100 * limit / limit = 100 %: ECN006 on the Junos switches."""
    plain = validate(INVENTORIES / "multivendor")
    [basis] = [f for f in plain.findings if f.rule == "CAP028"]
    limit = int(re.search(r"dynamic limit \((\d+)B on core1\)", basis.message).group(1))
    (tmp_path / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
        + "qos:\n  classes:\n"
        "    roce: {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, "
        f"weight: 50}}, ecn: {{min: 150KB, max: {limit}B}}}}\n"
        "    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: strict}}\n"
        "    best-effort: {dscp: [], traffic_class: 0, scheduling: {mode: ets, weight: 50}}\n")
    refused = [f for f in validate(tmp_path).findings
               if f.rule == "ECN006" and f.device == "core1"]
    assert len(refused) == 1 and refused[0].severity == "error"
    assert "the last fill level must not be 100 percent" in refused[0].message
