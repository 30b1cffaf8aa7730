"""Cumulus Linux (NVUE) renderer and reader.

Goldens (golden/cumulus/) were read against the vendor notes (cumulus-nvue.md,
SUMMARY-cumulus-sonic.md); checked by hand:
- One `- set:` document (what `nv config replace` takes); object names as NVUE paths:
  system hostname, system forwarding ecmp-hash <field> enabled|disabled and hash-seed,
  interface lo / eth0 / swpN with description, link speed "400G" and mtu (Linux MTU = the
  9216-byte frame less its 14-byte header = 9202, within 552..9216), ipv4 address, link
  breakout on each split cage (the goldens are 5.15 files, the platforms' release; the 5.14
  spelling is tested in
  test_cumulus_releases.py against NVIDIA's change table).
- qos mapping default-global: trust l3 and all 64 DSCP code points -> switch-priority
  (26 -> 3, 48 -> 6); egress-queue-mapping switch-priority N -> traffic-class N.
- qos traffic-pool default-lossless / default-lossy memory-percent 50 / 50 (QoS page 5.14,
  "Flow Control Buffers": the lossless pool before PFC, at most 100 % together).
- qos pfc <profile>: switch-priority 3, tx/rx enable, port-buffer = the plan's size,
  xoff-threshold = size - xoff (NVIDIA: buffer consumed before PAUSE), xon-threshold = one
  9216-byte frame (NVIDIA: a delta below the xoff threshold); checked by hand for 3 m:
  116736 - 97280 = 19456, and 30 m: 133120 - 113664 = 19456.
- qos congestion-control <profile> traffic-class 3: ecn enable, red disable, min/max in bytes,
  probability 1..100. egress-scheduler: CNP TC 6 strict, the others dwrr with bw-percent.
- pfc-watchdog: polling-interval ms (100..5000) and robustness = ceil(detection / poll);
  per-port `qos pfc-watchdog state enable` only on ports with PFC.
- Per-port bindings: interface qos mapping/pfc/congestion-control profile.
- BGP: router bgp state enabled, autonomous-system/router-id; vrf default peer-group per tier
  (LEAF on a spine, SPINE on a leaf) with `bfd profile <GROUP>` (5.15 NVUE reference: `peer-group
  <id> bfd profile`, new in 5.15; router bfd profile per peer group); neighbors with remote-as,
  `peer-group <GROUP>` (NVUE reference, BGP, 5.0: the neighbour inherits the group's
  configuration) and `description` "peer:peer-port" (NVUE reference, BGP, 5.1; the example's
  spine1 neighbour 10.1.0.1 is leaf-su1-r1's swp17s0); ipv4-unicast multipaths ebgp =
  maximum-paths, path-selection multipath aspath-ignore enabled.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest
import yaml
from render_cases import nos_plans, swapped

from netcfg.render import environment, render_plan
from netcfg.render.facts import facts_of
from netcfg.render.plan import DevicePlan
from netcfg.vendors import vendor
from netcfg.vendors.cumulus import render as cumulus

REPO = Path(__file__).resolve().parents[2]
INVENTORIES = REPO / "inventories"
GOLDEN = Path(__file__).parent / "golden" / "cumulus"
PLATFORM = "nvidia-sn5600-cumulus"
UPDATE = os.environ.get("NETCFG_UPDATE_GOLDEN") == "1"


def plans(path: Path, sample: int = 12) -> list[DevicePlan]:
    return nos_plans(path, "cumulus", sample)


@pytest.fixture(scope="module")
def example() -> list[DevicePlan]:
    return plans(INVENTORIES / "example" / "fabric.yaml")


@pytest.fixture(scope="module")
def multivendor() -> list[DevicePlan]:
    return plans(INVENTORIES / "multivendor" / "fabric.yaml")


@pytest.fixture(scope="module")
def all_plans(tmp_path_factory, example, multivendor) -> list[DevicePlan]:
    tmp = tmp_path_factory.mktemp("inv")
    return (example + multivendor + plans(swapped(tmp, "multivendor", PLATFORM))
            + plans(swapped(tmp, "gpu2048", PLATFORM)))


def test_multivendor_cumulus_leaves(multivendor):
    assert sorted(p.hostname for p in multivendor) == [f"leaf-su2-r{i}" for i in range(5, 9)]


@pytest.mark.parametrize("inventory,host", [("example", None), ("multivendor", "leaf-su2-r5")])
def test_golden(example, multivendor, inventory, host):
    pool = example if inventory == "example" else multivendor
    targets = [p for p in pool if host in (None, p.hostname)]
    if host is None:  # first leaf and first spine of the example
        targets = [next(p for p in pool if p.role == r) for r in ("leaf", "spine")]
    for plan in targets:
        text = render_plan(plan)
        golden = GOLDEN / f"{inventory}-{plan.hostname}.yaml"
        if UPDATE:
            golden.write_text(text)
        assert text == golden.read_text()


def test_round_trip_every_inventory(all_plans):
    assert len(all_plans) > 20
    for plan in all_plans:
        text = render_plan(plan)
        assert isinstance(yaml.safe_load(text)[0]["set"], dict)
        got, want = cumulus.read(text), cumulus.expected(plan)
        assert got == want, (plan.hostname, want.differences(got))


def test_expected_differs_from_plan_only_in_watchdog(example):
    plan = example[0]
    want, plain = cumulus.expected(plan), facts_of(plan)
    assert want.watchdog.keys() == plain.watchdog.keys()
    plain.watchdog = want.watchdog
    assert want == plain
    for w in want.watchdog.values():
        assert w.action == "drop" and w.restoration_ms == 0
        assert w.detection_ms >= plan.qos.watchdog_default.detection_ms


def test_render_is_deterministic(example):
    assert render_plan(example[0]) == render_plan(example[0])


def test_missing_value_fails(example):
    with pytest.raises(jinja2.UndefinedError):
        environment().get_template(vendor("cumulus").template).render(plan=example[0], v={})


def test_conversions():
    assert cumulus.link_mtu(9216) == 9202  # the Linux MTU: 9216-byte frame less its 14-B header
    # a shared headroom pool's PG reserves only xon: no NVUE form, nothing to explain (CAP015)
    assert cumulus.explain_headroom(19456, 97280, 9216) == []
    with pytest.raises(ValueError, match="shared headroom pool"):
        cumulus.expected_pfc(19456, 97280, 9216)
    # `cable-length` 1-100000 whole metres (QoS page 5.9, 5.14)
    assert [cumulus.cable_length(m) for m in (0.5, 3.0, 3.2, 2e5)] == [1, 3, 4, 100000]
    assert cumulus.robustness(200, 100) == 2 and cumulus.robustness(250, 100) == 3
    assert cumulus.robustness(50, 100) == 1


def test_hostile_description_stays_one_value(example):
    plan = example[0]
    old = plan.interfaces[0].description
    evil = 'x"\n    system: {hostname: pwned}\n# ;{}\'[]&*!|>%@`'
    plan.interfaces[0].description = evil
    try:
        doc = yaml.safe_load(render_plan(plan))
    finally:
        plan.interfaces[0].description = old
    cfg = doc[0]["set"]
    assert cfg["interface"][plan.interfaces[0].name]["description"] == evil
    assert cfg["system"]["hostname"] == plan.hostname


def test_capabilities_name_known_fields():
    from typing import get_args

    from netcfg.intent.qos import HashField
    assert vendor("cumulus").capabilities.hash_fields <= set(get_args(HashField))
    assert vendor("cumulus").capabilities.watchdog_actions == {"drop"}


@pytest.fixture(scope="module")
def sonic_table_fabric(tmp_path_factory):
    """The example with the cables and MTU of rows of SONiC's own Spectrum-4 headroom table
    (../shared/specs/headroom-sonic-spectrum.md: SPC4, 400G, 4 lanes, port MTU 9100, defaults
    1024/50, no shared headroom pool): 5 m -> xon 19456, xoff 98304, size 117760;
    40 m -> xon 19456, xoff 119808, size 139264), and a 70 % lossless pool."""
    import shutil

    dst = tmp_path_factory.mktemp("inv") / "example"
    shutil.copytree(INVENTORIES / "example", dst)
    path = dst / "fabric.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["fabric"]["mtu"] = 9100
    doc["topology"]["host_leaf"]["cable"] = "5m"
    doc["topology"]["leaf_spine"]["cable"] = "40m"
    doc["qos"]["buffer"] = {"lossless_pool": 70}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_pfc_states_the_cable_length_and_leaves_the_thresholds_to_cumulus(sonic_table_fabric):
    """NVIDIA's QoS page (5.14 @0d142afe, PFC): "NVIDIA recommends that you do not change
    these settings but, instead, let Cumulus Linux configure the settings dynamically": each
    profile gives its priority and its ports' cable length (5 m to the hosts, 40 m to the
    spines here), no threshold and no port buffer."""
    plan = next(p for p in plans(sonic_table_fabric) if p.role == "leaf")
    qos = yaml.safe_load(render_plan(plan))[0]["set"]["qos"]
    assert sorted(p["cable-length"] for p in qos["pfc"].values()) == [5, 40]
    for p in qos["pfc"].values():
        assert p == {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable",
                     "cable-length": p["cable-length"]}


def test_explain_gives_what_the_switch_must_reach(sonic_table_fabric):
    """The headroom netcfg proved stays the target: in NVIDIA's field names (5.9/5.14 meanings:
    PAUSE at xoff-threshold inside port-buffer, resume xon-threshold below it), the rows of
    SONiC's own Spectrum-4 table for the same port (5 m: size 117760, xoff 98304; 40 m:
    139264, 119808)."""
    for size, in_flight in ((117760, 98304), (139264, 119808)):
        rows = {k: v for k, v, _ in cumulus.explain_headroom(size, in_flight, 9100)}
        assert rows == {"port-buffer": size, "xoff-threshold": 19456,
                        "xon-threshold": 9100}  # one 9100-byte frame, below half of 19456


def test_lossless_pool_before_pfc(sonic_table_fabric, example):
    """NVIDIA's Flow Control Buffers: the lossless pool next to the lossy one, at most 100 %
    together; 50/50 as NVIDIA's example where the intent is silent."""
    leaf = next(p for p in plans(sonic_table_fabric) if p.role == "leaf")
    pools = yaml.safe_load(render_plan(leaf))[0]["set"]["qos"]["traffic-pool"]
    assert pools == {"default-lossless": {"memory-percent": 70},
                     "default-lossy": {"memory-percent": 30}}
    pools = yaml.safe_load(render_plan(example[0]))[0]["set"]["qos"]["traffic-pool"]
    assert pools == {"default-lossless": {"memory-percent": 50},
                     "default-lossy": {"memory-percent": 50}}


def test_no_pool_no_lossless_priorities(example):
    """Read back: PFC priorities without a lossless pool stay in the 100 % lossy pool."""
    text = render_plan(example[0])
    doc = yaml.safe_load(text)
    del doc[0]["set"]["qos"]["traffic-pool"]
    facts = cumulus.read(yaml.safe_dump(doc))
    assert facts.lossless_priorities == () and facts.pfc_ports
    assert cumulus.read(text).lossless_priorities == (3,)
