"""Arista EOS renderer and reader.

Goldens (tests/render/golden/eos/) were read against the EOS vendor notes; checked:
- global `qos map dscp <list> to traffic-class <tc>`: one line per TC, all 64 code points, as
  EOS prints the collapsed map; `qos map traffic-class N to uc-tx-queue N` on XGS (7060X6 = TH5);
- per routed port: description, `speed`, `mtu` = IP MTU (9216 L2 - 14 = 9202, <= 9214),
  `no switchport`, /31, `qos trust dscp`, the two-part PFC (`priority-flow-control on` +
  `priority ... no-drop`), port watchdog with `port action drop` (default would errdisable);
- interface-level lines come before the `uc-tx-queue` sub-blocks (NAPALM strips indentation);
- RoCE queue: `no priority` + `bandwidth percent` (ETS) + `random-detect ecn ... bytes ...
  max-mark-probability`; CNP queue `priority strict` and numerically above the ETS queues;
- global watchdog in seconds (200 ms -> 0.2, poll 100 ms -> 0.1) with `action drop`;
- `platform trident mmu queue profile` (threshold = alpha, headroom = largest xoff, resume =
  xon) defined before and applied at the end; eBGP with router-id, maximum-paths,
  `bgp bestpath as-path multipath-relax`, loopback `network`; eAPI kept on in the MGMT VRF.
"""

from __future__ import annotations

import importlib

import pytest
from render_cases import (
    INVENTORIES,
    PlanBuilder,
    _fabric,
    check_golden,
    check_roundtrip,
    check_strict_and_stable,
    roundtrip_cases,
)

from netcfg.render import render_plan
from netcfg.vendors import vendor

# --------------------------------------------------------------------------- EOS

EOS_GOLDEN = ["leaf-su1-r1", "leaf-su1-r8"]


@pytest.mark.parametrize("inventory,platform",
                         roundtrip_cases("eos", "arista-7060x6-eos", {"multivendor", "gpu2048"}))
def test_roundtrip(inventory, platform, tmp_path):
    check_roundtrip("eos", inventory, platform, tmp_path)


def test_golden():
    check_golden("eos", EOS_GOLDEN, "cfg")


def test_strict_undefined_and_stable():
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    check_strict_and_stable("eos", PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su1-r1"]))


def test_units():
    eos = importlib.import_module("netcfg.vendors.eos.render")
    assert eos.ip_mtu(9216) == 9202 and eos.ip_mtu(9300) == 9214
    assert eos.seconds(200) == "0.2" and eos.seconds(1000) == "1" and eos.seconds(5) == "0.005"
    assert eos.alpha(0) == "1" and eos.alpha(-3) == "1/8" and eos.alpha(2) == "4"


def test_reader_running_config_normalisation():
    """Hidden defaults and re-ordered, collapsed lines read as the same facts."""
    eos = importlib.import_module("netcfg.vendors.eos.render")
    text = ("priority-flow-control pause watchdog action drop\n"
            "interface Ethernet1/1\n   mtu 9202\n   uc-tx-queue 3\n"
            "      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes\n"
            "   priority-flow-control priority 3 no-drop\n   priority-flow-control on\n"
            "qos map dscp 26 to traffic-class 3\n"
            "priority-flow-control pause watchdog default timeout 0.2\n")
    f = eos.read(text)
    assert f.dscp_to_tc[26] == 3 and f.dscp_to_tc[48] == 6 and f.dscp_to_tc[0] == 1
    assert f.pfc_ports == {"Ethernet1/1": (3,)} and f.mtu == {"Ethernet1/1": 9216}
    assert f.ecn["Ethernet1/1"][3].max == 1_500_000 and f.ecn["Ethernet1/1"][3].probability == 100
    assert f.watchdog == {}  # no per-port watchdog line
    assert set(f.hash_fields) == {"src_ip", "dst_ip", "l4_src_port", "l4_dst_port"}


def test_lab_grammar_accepts_rendered_config():
    """The lab's strict EOS grammar takes the config both indented and flattened (as NAPALM
    sends it, indentation stripped)."""
    grammar_mod = pytest.importorskip("netcfg.lab.eos.grammar",
                                      reason="device lab EOS grammar not available")
    from netcfg.lab.cfgtree import ModalEditor, Node, parse_indented

    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    text = render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su1-r1"]))
    grammar = grammar_mod.eos_grammar()
    parse_indented(text, grammar, "config", strict=True)
    editor = ModalEditor(grammar, Node("", "config"), strict=True)
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("!") and line != "end":
            editor.apply(line)


def test_seed_not_applied_is_reported():
    """No verified EOS hash-seed command: validate warns once for the EOS switches (CAP005)
    and points at ecmp.seeds; the config carries no seed line. (Junos has none either; the
    SONiC leaves get SONiC's ToRRouter seed 0, not the intent's 10.)"""
    from netcfg.validate import validate

    result = validate(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    cap = {f.text().split(": ", 3)[-1].split()[0]: f for f in result.findings
           if f.rule == "CAP005"}
    assert result.ok and set(cap) == {"eos", "junos", "sonic"}
    assert cap["eos"].severity == "warning" and "ecmp.seeds" in cap["eos"].text()
    assert vendor("eos").capabilities.hash_seed == "unsupported"
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    text = render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su1-r1"]))
    assert "seed" not in text


def test_load_sharing_states_only_documented_keywords():
    """leaf-su1-r1 hashes on the intent's default fields (addresses, IP protocol, L4 ports):
    the line names only keywords public EOS configs show, and the IP protocol, which has none,
    is reported (CAP018) instead of written."""
    from netcfg.validate import validate

    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    text = render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su1-r1"]))
    lines = [line for line in text.splitlines() if line.startswith("ip load-sharing")]
    assert lines == ["ip load-sharing trident fields ip source-ip destination-ip source-port "
                     "destination-port"]
    found = [f for f in validate(INVENTORIES / "multivendor").findings if f.rule == "CAP018"]
    # one finding per NOS that cannot state it: EOS here, NX-OS (spines) likewise
    assert sorted(f.device for f in found) == ["leaf-su1-r1", "spine-pod1-1"]
    assert all("ip_proto" in f.message for f in found)
