"""Juniper Junos renderer and reader.

Goldens (tests/render/golden/junos/, multivendor cores on QFX5240-64OD) were read against the
Junos vendor notes; checked:
- the DSCP-based PFC chain has all three parts the notes require: a `no-loss` forwarding class
  with `pfc-priority` (`class roce queue-num 3 no-loss pfc-priority 3`), the DSCP classifier
  mapping 011010 to it, and the congestion-notification-profile `input dscp code-point 011010
  { pfc; }` bound on the physical interface [JVD/V];
- the CNP's `output ieee-802.1 code-point 011 { flow-control-queue 3; }` lists every lossless
  priority, since an explicit output replaces the default pause reaction on 3 and 4 [V];
- classifier: 6-bit code points, all 64 listed (no dependence on the unverified default
  classifier), bound per logical unit `unit 0 { classifiers { dscp ...; } }` [JVD];
- forwarding classes keep best-effort (queue 0) and network-control (queue 7), and every class
  is in the scheduler map (unmapped classes get no bandwidth) [notes pitfalls 6, 7];
- ECN: drop profile `interpolate { fill-level [ lo hi ]; drop-probability [ 0 Pmax ]; }`, fill
  levels as percents of the queue limit to the schema's nine fraction digits, scheduler
  `drop-profile-map loss-priority any protocol any drop-profile ...` +
  `explicit-congestion-notification` [JVD]; ETS classes
  `transmit-rate percent`, CNP `priority strict-high` [C];
- `pfc-watchdog { poll-interval 100; detection 2; recovery 200; }`: detection as a count of
  polls (200 ms / 100 ms) [V names, M values];
- media `mtu 9216` (includes the L2 header, unlike EOS/NX-OS) [M]; `description "..."` quoted;
  `unit 0 family inet address` /31; lo0; breakout parents `number-of-sub-ports 2; speed 400g;`;
- curly text only (full replace cannot be `set` format [V junos.py]); hash-key `family inet
  { layer-3; layer-4; }` and the forwarding-table `load-balance per-packet` export [JVD];
  eBGP group per peer role with `multipath multiple-as` and per-neighbor `peer-as`.
"""

from __future__ import annotations

import importlib
import os

import pytest
from render_cases import (
    GOLDEN,
    INVENTORIES,
    PlanBuilder,
    _fabric,
    check_strict_and_stable,
    plans_for,
)

from netcfg.render import render_plan

GOLDEN_DEVICES = ["core1", "core2"]
PLATFORM = "juniper-qfx5240-junos"
UPDATE = os.environ.get("NETCFG_UPDATE_GOLDEN") == "1"
junos = importlib.import_module("netcfg.vendors.junos.render")


def _multivendor_plan(name: str):
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    return PlanBuilder(fabric, physics).plan(fabric.devices[name])


@pytest.mark.parametrize("inventory,platform", [("example", PLATFORM), ("multivendor", None),
                                                ("gpu2048", PLATFORM)])
def test_roundtrip(inventory, platform, tmp_path):
    plans = plans_for(inventory, platform, "junos", tmp_path)
    assert plans, f"no junos device in {inventory}"
    for plan in plans:
        text = render_plan(plan)
        want, got = junos.expected(plan), junos.read(text, plan.qos.queue_limit)
        assert want.differences(got) == [], plan.hostname
        assert got == want, plan.hostname
        assert got.ecn and got.pfc_ports and got.watchdog, plan.hostname  # not vacuous


def test_golden():
    for name in GOLDEN_DEVICES:
        text = render_plan(_multivendor_plan(name))
        golden = GOLDEN / "junos" / f"{name}.conf"
        if UPDATE:
            golden.parent.mkdir(exist_ok=True)
            golden.write_text(text)
        assert golden.read_text() == text, f"{golden.name} differs from the rendered config"


def test_strict_undefined_and_stable():
    check_strict_and_stable("junos", _multivendor_plan("core1"))


def test_units():
    assert junos.code_point(26) == "011010" and junos.code_point(48) == "110000"
    assert junos.pcp(3) == "011"
    assert junos.media_mtu(9216) == 9216 and junos.media_mtu(9300) == 9216
    assert junos.fill_bytes(8, 20_000_000) == 1_600_000
    assert junos.quote('a "b"\\c\n d') == '"a \\"b\\"\\\\c d"'


def test_ecn_fill_levels_are_exact_to_the_schemas_precision():
    """Juniper's YANG types fill-level decimal64 with 9 fraction digits: core1's 150 KB and
    1,500 KB of its 18,644,728 B queue limit, worked by hand, are 0.804516966 % and
    8.045169659 % (15,000,000 / 18,644,728 = 0.80451696587...), and they come back to the
    plan's bytes (whole percents would have written 1 % = 186,447 B)."""
    from decimal import Decimal

    from netcfg.render.facts import facts_of

    plan = _multivendor_plan("core1")
    assert plan.qos.queue_limit == 18_644_728
    name = plan.interfaces[0].name
    e = plan.interfaces[0].ecn[0]
    assert (e.min, e.max) == (150_000, 1_500_000)
    assert junos.fill_levels(e, plan.qos.queue_limit) == (Decimal("0.804516966"),
                                                          Decimal("8.045169659"))
    assert "fill-level [ 0.804516966 8.045169659 ];" in render_plan(plan)
    got = junos.expected(plan).ecn[name][e.queue]
    assert (got.min, got.max) == (150_000, 1_500_000)
    assert facts_of(plan).ecn[name][e.queue] == junos.Ecn(e.min, e.max, e.probability)


def test_reader_set_format_and_defaults():
    """`| display set` output, aliases and hidden defaults read as the same facts."""
    text = "\n".join([
        "set interfaces et-0/0/1 mtu 9216",
        "set class-of-service forwarding-classes class roce queue-num 3",
        "set class-of-service forwarding-classes class roce no-loss",
        "set class-of-service forwarding-classes class roce pfc-priority 3",
        "set class-of-service forwarding-classes class be queue-num 0",
        "set class-of-service classifiers dscp C forwarding-class roce loss-priority low "
        "code-points af31",
        "set class-of-service classifiers dscp C forwarding-class be loss-priority low "
        "code-points [ be cs1 ]",
        "set class-of-service congestion-notification-profile P input dscp code-point af31 pfc",
        "set class-of-service congestion-notification-profile P pfc-watchdog",
        "set class-of-service interfaces et-0/0/1 congestion-notification-profile P",
        "set class-of-service interfaces all unit * classifiers dscp C",
    ])
    f = junos.read(text)
    assert f.dscp_to_tc == {26: 3, 0: 0, 8: 0}
    assert f.lossless_priorities == (3,)
    # no `output`: Junos's default pause reaction covers priorities 3 and 4
    assert f.pfc_ports == {"et-0/0/1": (3,)}
    assert f.watchdog["et-0/0/1"] == junos.WatchdogFacts(200, 200, "drop")
    assert f.mtu == {"et-0/0/1": 9216}
    assert set(f.hash_fields) == set(junos.DEFAULT_HASH)


def test_reader_needs_queue_buffer_for_ecn():
    plan = _multivendor_plan("core1")
    with pytest.raises(ValueError, match="queue_buffer"):
        junos.read(render_plan(plan))


def test_reader_block_and_oneliner_forms_agree():
    text = render_plan(_multivendor_plan("core1"))
    block = text.replace("class roce queue-num 3 no-loss pfc-priority 3;",
                         "class roce {\n queue-num 3;\n no-loss;\n pfc-priority 3;\n }")
    assert block != text
    qb = _multivendor_plan("core1").qos.queue_limit
    assert junos.read(block, qb) == junos.read(text, qb)


def test_lab_junos_schema_accepts_rendered_config():
    """The lab's Junos statement hierarchy (written from Juniper's statement reference) takes
    the rendered config as `load override` text."""
    config = pytest.importorskip("netcfg.lab.junos.config",
                                 reason="device lab Junos schema not available")
    for name in GOLDEN_DEVICES:
        tree = config.parse_text(render_plan(_multivendor_plan(name)))
        assert tree.find(["class-of-service", "congestion-notification-profile"]) is not None


def test_two_strict_high_queues_are_flagged_where_unverified(tmp_path):
    """CNP strict (queue 6) beside network-control (queue 7, strict): Juniper documents several
    strict-high queues on QFX5200 (the higher queue first) and one on QFX5100, nothing for the
    QFX5240, so validate names the line (CAP019); with CNP as an ETS class only network-control
    is strict and nothing is said."""
    from render_cases import render_multivendor

    strict = render_multivendor(tmp_path, "")["findings"]
    assert "`priority strict-high` (on queues 6, 7:" in strict and "[CAP019]" in strict
    ets = render_multivendor(tmp_path, """qos:
  classes:
    roce: {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, weight: 40}}
    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: ets, weight: 50}}
    best-effort: {dscp: [0], traffic_class: 0, scheduling: {mode: ets, weight: 10}}
""")["findings"]
    assert "priority strict-high" not in ets
