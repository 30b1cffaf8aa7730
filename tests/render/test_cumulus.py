"""Cumulus Linux (NVUE) renderer and reader.

Goldens (golden/cumulus/) were read against the vendor notes (cumulus-nvue.md,
SUMMARY-cumulus-sonic.md); checked by hand:
- One `- set:` document (what `nv config replace` takes); object names as NVUE paths:
  system hostname, system forwarding ecmp-hash <field> enabled|disabled and hash-seed,
  interface lo / eth0 / swpN with description, link speed "400G" and mtu (Linux MTU = L2
  frame - 18, within 552..9216), ipv4 address, link breakout on each split cage (the goldens
  are 5.15 files, the platforms' release; the 5.14 spelling is tested in
  test_cumulus_releases.py against NVIDIA's change table).
- qos mapping default-global: trust l3 and all 64 DSCP code points -> switch-priority
  (26 -> 3, 48 -> 6); egress-queue-mapping switch-priority N -> traffic-class N.
- qos pfc <profile>: switch-priority 3, tx/rx enable, xoff-threshold / xon-threshold /
  port-buffer in bytes equal to the plan's headroom (not NVUE's cable-length auto mode).
- qos congestion-control <profile> traffic-class 3: ecn enable, red disable, min/max in bytes,
  probability 1..100. egress-scheduler: CNP TC 6 strict, the others dwrr with bw-percent.
- pfc-watchdog: polling-interval ms (100..5000) and robustness = ceil(detection / poll);
  per-port `qos pfc-watchdog state enable` only on ports with PFC.
- Per-port bindings: interface qos mapping/pfc/congestion-control profile.
- BGP: router bgp state enabled, autonomous-system/router-id; vrf default neighbors with
  remote-as and `bfd profile <GROUP>` (router bfd profile per peer group), ipv4-unicast
  multipaths ebgp = maximum-paths, path-selection multipath aspath-ignore enabled.
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
    assert cumulus.link_mtu(9216) == 9198
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
