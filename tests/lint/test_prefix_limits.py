"""RTE006: the prefixes each BGP session carries, against the receiving NOS's limit.

Expected counts are hand arithmetic on the cabling of each fabric (comments below): every switch
announces its loopback and one /31 per server port; an eBGP speaker passes on its best path and
drops paths holding its own AS (RFC 4271 9.1.2). The EOS limits come from outside netcfg: the
rendered `maximum-routes 256000` is Arista AVD's underlay default (docs/render-eos.md), and
EOS's own 12,000 where a file states none is read from the factory capture of `show
running-config all` in ../shared/factory/eos.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from netcfg.lint import prefixes
from netcfg.validate import validate
from netcfg.vendors import vendor

ROOT = Path(__file__).resolve().parents[2]
SHOW_RUN_ALL = (ROOT.parent / "shared" / "factory" / "eos" / "captures"
                / "batfish__arista_bgp_show_run_all_2")

#: 48 scalable units of 32 eight-rail servers: 384 EOS leaves in 12 pods of 4 SUs, 32 spines per
#: pod, 256 cores in 32 groups of 8 (a spine's 32 uplinks go 4 to each core of its group)
EOS_384 = """\
fabric:
  name: eos384
topology:
  kind: rail_optimized
  tiers: 3
  scalable_units: 48
  sus_per_pod: 4
  nodes_per_su: 32
  node: {gpus: 8, nics: 8, nic: connectx-7}
  spines: 32
  cores: 256
  host_leaf: {speed: 400G, cable: 3m}
  leaf_spine: {speed: 400G, cable: 50m}
  spine_core: {speed: 400G, cable: 200m}
platforms:
  leaf: arista-7060x5-eos
  spine: arista-7060x5-eos
  core: arista-7060x5-eos
routing:
  asn: {leaf: unique, spine: per_pod, core: shared}
"""


def _by_roles(fabric) -> dict[tuple[str, str], set[int]]:
    """(receiver role, sender role) -> the prefix counts of those sessions."""
    out: dict[tuple[str, str], set[int]] = {}
    for s in prefixes.sessions(fabric):
        key = (fabric.devices[s.receiver].role, fabric.devices[s.sender].role)
        out.setdefault(key, set()).add(s.prefixes)
    return out


def test_two_tier_counts_by_hand():
    """example: 8 leaves with 32 servers each (32 /31s + a loopback = 33 prefixes), 4 spines
    in one AS. A leaf hears from a spine the 7 other leaves (7 x 33 = 231) and that spine's
    loopback: 232; the other spines' loopbacks never reach a spine (same AS). A spine hears
    from a leaf its 33 only (what the leaf learned from spines holds the spines' AS)."""
    result = validate(ROOT / "inventories" / "example")
    assert _by_roles(result.fabric) == {("leaf", "spine"): {7 * 33 + 1},
                                        ("spine", "leaf"): {33}}
    # Cumulus states no per-session limit: nothing to compare with
    assert prefixes.limits(result.fabric) == {}
    # gpu2048, all EOS: 64 leaves -> 63 x 33 + 1 = 2080 per leaf session, far below the limit
    result = validate(ROOT / "inventories" / "gpu2048")
    assert _by_roles(result.fabric) == {("leaf", "spine"): {63 * 33 + 1},
                                        ("spine", "leaf"): {33}}
    assert not [f for f in result.findings if f.rule == "RTE006"]


@pytest.fixture(scope="module")
def eos384(tmp_path_factory):
    inv = tmp_path_factory.mktemp("eos384")
    (inv / "fabric.yaml").write_text(EOS_384)
    return inv


def test_384_eos_leaves_past_12000_per_session(eos384, monkeypatch):
    """A leaf session carries 383 other leaves x 33 = 12,639, its spine's loopback, the
    loopbacks of the spines with the same index in the 11 other pods (they reach it through
    the cores of its group; other spines' paths cross its pod's AS or the core AS twice) and
    the 8 cores of its group: 12,639 + 1 + 11 + 8 = 12,659 > 12,000. A spine hears from a core
    the other 11 pods' leaves (352 x 33 = 11,616), those 11 spines and the core: 11,628; a
    core hears from a spine its pod's 32 leaves and the spine: 32 x 33 + 1 = 1,057."""
    result = validate(eos384)
    assert result.ok
    got = _by_roles(result.fabric)
    assert got == {("leaf", "spine"): {383 * 33 + 1 + 11 + 8},
                   ("spine", "leaf"): {33},
                   ("spine", "core"): {352 * 33 + 11 + 1},
                   ("core", "spine"): {32 * 33 + 1}}
    assert 383 * 33 + 1 + 11 + 8 == 12_659
    # the rendered maximum-routes (twice the fabric's 99,328 prefixes, rounded up to a
    # thousand: 199,000 is below AVD's underlay floor 256,000) holds them: validate is clean
    assert not [f for f in result.findings if f.rule == "RTE006"]
    assert vendor("eos").capabilities.prefix_limit == 256000
    assert {v[0] for v in prefixes.limits(result.fabric).values()} == {256000}

    # a file without the line leaves EOS's own limit: the factory `show running-config all`
    # prints it for a peer group that configures none
    if not SHOW_RUN_ALL.is_file():
        pytest.skip("../shared/factory/eos is absent: EOS's default limit comes from it")
    default = {int(n) for n in re.findall(r"^\s+neighbor \S+ maximum-routes (\d+)$",
                                          SHOW_RUN_ALL.read_text(), re.M)}
    assert default == {12000}
    monkeypatch.setattr(type(vendor("eos")), "prefix_limit", lambda self, total: (
        12000, "EOS's default, no maximum-routes line"))
    found = [f for f in validate(eos384).findings if f.rule == "RTE006"]
    assert len(found) == 1 and found[0].severity == "error"
    message = found[0].message
    assert "12659 prefixes" in message and "(12000: EOS's default" in message
    # every leaf's 32 spine sessions are past it (384 x 32); spines and cores are not
    assert "12288 sessions of 384 eos switches" in message
    assert found[0].device.startswith("leaf-")
    assert Counter(s.prefixes > 12000 for s in prefixes.sessions(result.fabric)) \
        == Counter({True: 384 * 32, False: 384 * 32 + 2 * 3072})
