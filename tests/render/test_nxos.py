"""Cisco NX-OS renderer and reader.

Goldens (tests/render/golden/nxos/, multivendor spines on N9364E-SG2) were read against the
NX-OS vendor notes; checked:
- the chain lines up: `match dscp 26` -> `set qos-group 3` -> network-qos `c-8q-nq3`
  (`pause pfc-cos 3`, `mtu 9216`) -> queuing `c-out-8q-q3` (DWRR share + WRED `... bytes ...
  drop-probability P weight 0 ecn`); qos-group 0 is spelled `c-8q-nq-default`/`c-out-8q-q-default`;
- CNP (intent traffic class 6) marked into qos-group 7, q7 `priority level 1` (Cisco's RoCE
  designs); unused queues, q6 among them, `bandwidth remaining percent 0`;
- `system qos` carries the network-qos and queuing output policies; per port:
  `service-policy type qos input`, `priority-flow-control mode on` (not auto/DCBX),
  `priority-flow-control watch-dog-interval on` plus the global enable;
- watchdog: poll interval in ms, detection and restoration as multipliers of it (200/100 = 2);
- 2-space indentation, interface `mtu` = IP MTU 9202 (<= 9216), `no switchport` and `no
  shutdown` on every routed port (an L3 port is shut by default on N9K), `ip load-sharing ...
  universal-id <seed>`, eBGP with `bestpath as-path multipath-relax` and maximum-paths.
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

GOLDEN_DEVICES = ["spine-pod1-1", "spine-pod2-4"]


@pytest.mark.parametrize("inventory,platform",
                         roundtrip_cases("nxos", "cisco-n9364e-sg2-nxos", {"multivendor"}))
def test_roundtrip(inventory, platform, tmp_path):
    check_roundtrip("nxos", inventory, platform, tmp_path)


def test_golden():
    check_golden("nxos", GOLDEN_DEVICES, "cfg")


def test_strict_undefined_and_stable():
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    check_strict_and_stable("nxos",
                            PlanBuilder(fabric, physics).plan(fabric.devices["spine-pod1-1"]))


def test_units_and_names():
    nxos = importlib.import_module("netcfg.vendors.nxos.render")
    assert nxos.ip_mtu(9216) == 9202 and nxos.ip_mtu(9300) == 9216
    assert nxos.multiplier(200, 100) == 2 and nxos.multiplier(10, 100) == 1
    assert nxos.qname(0, "nq") == "c-8q-nq-default" and nxos.qname(3, "out") == "c-out-8q-q3"


def test_reader_running_config_normalisation():
    """Ranges, other block order, kbytes and hidden default load-sharing read the same."""
    text = ("system qos\n  service-policy type queuing output Q\n"
            "  service-policy type network-qos N\n"
            "interface Ethernet1/1\n  priority-flow-control mode on\n  mtu 9216\n"
            "  service-policy type qos input C\n"
            "policy-map type qos C\n  class R\n    set qos-group 3\n"
            "class-map type qos match-all R\n  match dscp 24-27,30\n"
            "policy-map type network-qos N\n  class type network-qos c-8q-nq3\n"
            "    pause pfc-cos 3\n"
            "policy-map type queuing Q\n  class type queuing c-out-8q-q3\n"
            "    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes "
            "drop-probability 7 weight 0 ecn\n")
    f = importlib.import_module("netcfg.vendors.nxos.render").read(text)
    assert [d for d, tc in f.dscp_to_tc.items() if tc == 3] == [24, 25, 26, 27, 30]
    assert f.lossless_priorities == (3,) and f.pfc_ports == {"Ethernet1/1": (3,)}
    assert f.ecn["Ethernet1/1"][3].min == 150_000 and f.mtu["Ethernet1/1"] == 9230
    assert "l4_src_port" in f.hash_fields and f.watchdog == {}


def _with_port_watchdog(tmp_path, **watchdog):
    """The multivendor fabric with a watchdog override on one NX-OS spine port."""
    import shutil

    import yaml

    dst = tmp_path / "multivendor"
    shutil.copytree(INVENTORIES / "multivendor", dst)
    path = dst / "fabric.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["overrides"]["ports"]["spine-pod1-1:Ethernet1/1/2"] = {"pfc_watchdog": watchdog}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_port_detection_override_is_an_interface_multiplier(tmp_path):
    """detection 500 ms on one port, poll 100 ms: that port's interface multiplier is 5, the
    others keep the global shutdown multiplier 2; the reader gives the port 500 ms back."""
    from netcfg.render import render_plan
    from netcfg.validate import validate

    result = validate(str(_with_port_watchdog(tmp_path, detection="500ms")))
    assert result.ok, [f.text() for f in result.findings]
    plan = PlanBuilder(result.fabric, result.physics).plan(
        result.fabric.devices["spine-pod1-1"])
    text = render_plan(plan)
    block = text.split("interface Ethernet1/1/2\n", 1)[1].split("\ninterface ", 1)[0]
    assert "  priority-flow-control watch-dog interface-multiplier 5" in block.splitlines()
    assert text.count("watch-dog interface-multiplier") == 1
    assert "priority-flow-control watch-dog shutdown-multiplier 2" in text
    nxos = importlib.import_module("netcfg.vendors.nxos.render")
    got, want = nxos.read(text), nxos.expected(plan)
    assert got == want, want.differences(got)
    assert got.watchdog["Ethernet1/1/2"].detection_ms == 500
    assert got.watchdog["Ethernet1/1/1"].detection_ms == 200
    # no Cisco text spells the line (../shared/specs/vendors/nxos-sources.md, "Not found"):
    # validate names it at the override that asks for it
    [cap] = [f for f in result.findings if f.rule == "CAP019"
             and "watch-dog interface-multiplier" in f.message]
    assert cap.path is not None and "spine-pod1-1:Ethernet1/1/2" in cap.path
    # the lab takes the DME's range, 0-40 (40 x 100 ms polls = 4 s), and no more
    from netcfg.lab.cfgtree import ConfigError
    from netcfg.lab.nxos.config import parse

    parse(text.replace("interface-multiplier 5", "interface-multiplier 40"))
    with pytest.raises(ConfigError):
        parse(text.replace("interface-multiplier 5", "interface-multiplier 41"))


def test_port_restoration_override_is_a_capability_error(tmp_path):
    from netcfg.validate import validate

    result = validate(str(_with_port_watchdog(tmp_path, restoration="1s")))
    cap = [f for f in result.findings if f.rule == "CAP006"]
    assert not result.ok and len(cap) == 1
    assert "restoration" in cap[0].text() and "spine-pod1-1" in cap[0].text()


def test_split_cages_are_broken_out():
    """spine-pod1-1 (N9364E-SG2) runs cages 1-24 as 2 x 400G (Ethernet1/1/1 ... Ethernet1/24/2,
    as the inventory's cabling gives them): one line in Cisco's form `interface breakout module
    1 port <list> map 400g-2x` (NX-OS Interfaces Configuration Guide 10.6(x), ch. 3), and no
    split port configured outside it."""
    import re

    from netcfg.render import render_plan

    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    text = render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["spine-pod1-1"]))
    lines = [line for line in text.splitlines() if line.startswith("interface breakout")]
    assert lines == ["interface breakout module 1 port 1-24 map 400g-2x"]
    split = {(int(p), int(k)) for p, k in re.findall(r"^interface Ethernet1/(\d+)/(\d+)$", text,
                                                     re.M)}
    assert split == {(p, k) for p in range(1, 25) for k in (1, 2)}


def test_port_lists():
    from netcfg.vendors.nxos.render import breakout_map, port_list

    assert port_list([5, 1, 2, 3, 7, 8]) == "1-3,5,7-8"
    assert port_list([49]) == "49"
    assert breakout_map(2, 400_000) == "400g-2x" and breakout_map(4, 100_000) == "100g-4x"


def test_unverified_lines_are_named_and_really_rendered():
    """CAP019 names every NX-OS line no Cisco text confirms, and each named line is in the
    file (a warning about a line the file does not hold would not tell the truth)."""
    from netcfg.render import render_plan
    from netcfg.validate import validate
    from netcfg.vendors import vendor

    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    text = render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["spine-pod1-1"]))
    lines = vendor("nxos").capabilities.unverified_lines
    assert lines and all(any(row.startswith(line + " ") for row in text.splitlines())
                         for line in lines)
    found = [f for f in validate(INVENTORIES / "multivendor").findings
             if f.rule == "CAP019" and f.message.startswith("nxos")]
    assert len(found) == 1 and "cisco-n9364e-sg2-nxos" in found[0].message
    assert all(f"`{line}`" in found[0].message for line in lines)


def test_cnp_goes_to_q7_as_in_cisco_designs(tmp_path):
    """Cisco's RoCE designs (a Cisco engineer's roce_enable.py: `--cnp-dscp 48` -> qos-group 7,
    `c-out-8q-q7 priority level 1`) give CNP q7. The default intent's CNP class is traffic
    class 6: its DSCP 48 is marked into qos-group 7, q7 is its strict queue, q6 is unused (0 %),
    and nothing is reported. A CNP class that cannot move (here: another class holds q7) stays
    in its own queue and CAP020 says why."""
    from netcfg.render import render_plan
    from netcfg.validate import validate

    result = validate(INVENTORIES / "multivendor")
    assert not [f for f in result.findings if f.rule == "CAP020"]
    text = render_plan(PlanBuilder(result.fabric, result.physics).plan(
        result.fabric.devices["spine-pod1-1"]))
    cnp = text[text.index("  class CNP"):]
    assert cnp.splitlines()[1] == "    set qos-group 7"
    q6 = text[text.index("  class type queuing c-out-8q-q6"):]
    assert q6.splitlines()[1] == "    bandwidth remaining percent 0"
    q7 = text[text.index("  class type queuing c-out-8q-q7"):]
    assert q7.splitlines()[1] == "    priority level 1"
    assert text.count("priority level 1") == 1

    inventory = tmp_path / "q7taken"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text() + Q7_TAKEN)
    result = validate(inventory)
    found = [f for f in result.findings if f.rule == "CAP020"]
    assert len(found) == 1 and "keeps CNP (class cnp) in q6" in found[0].message
    assert "class ops uses q7" in found[0].message
    text = render_plan(PlanBuilder(result.fabric, result.physics).plan(
        result.fabric.devices["spine-pod1-1"]))
    cnp = text[text.index("  class CNP"):]
    assert cnp.splitlines()[1] == "    set qos-group 6"


Q7_TAKEN = """qos:
  classes:
    roce: {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, weight: 50}}
    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: strict}}
    ops: {dscp: [56], traffic_class: 7, scheduling: {mode: strict}}
    best-effort: {dscp: [0], traffic_class: 0, scheduling: {mode: ets, weight: 50}}
"""


SHARED = INVENTORIES.parents[1] / "shared"


def test_every_routed_port_is_brought_up():
    """A routed (`no switchport`) Ethernet port on a Nexus 9000 is `shutdown` unless the file
    says `no shutdown`: ../shared/factory/DEFAULTS.md (NX-OS table, from a 10.5(2) capture and
    Cisco's cisco.nxos collection, `default_intf_enabled`: "Most L3 intfs default to
    'shutdown'"). Every port of the plan is a routed port of the file with `no shutdown`; the
    loopback (default `no shutdown`, same source) needs none."""
    import re

    from netcfg.render import render_plan

    defaults = SHARED / "factory" / "DEFAULTS.md"
    if defaults.is_file():  # the vendor row this test rests on
        row = next(line for line in defaults.read_text().splitlines()
                   if line.startswith("| L3 (`no switchport`) Ethernet admin state"))
        assert "**shutdown**" in row
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    for name in GOLDEN_DEVICES:
        dev = fabric.devices[name]
        text = render_plan(PlanBuilder(fabric, physics).plan(dev))
        blocks = dict(re.findall(r"^interface (\S+)\n((?:  .*\n)*)", text, re.M))
        routed = {n for n, b in blocks.items() if "  no switchport\n" in b}
        assert routed == {p.name for p in dev.ports}
        assert all(blocks[n].splitlines().count("  no shutdown") == 1 for n in routed)
        assert "shutdown" not in blocks["loopback0"]


def test_without_a_gateway_the_management_vrf_is_the_switchs(tmp_path):
    """No management.gateway: the file has no `vrf context management` block, so a push keeps
    the switch's own with the default route its setup gave it (the deploy adapter's
    device_local), and validate warns that the file alone would remove it (CAP021); with a
    gateway the block and its route are rendered (tests/render/test_management_gateway.py)."""
    from netcfg.render import render_plan
    from netcfg.validate import validate
    from netcfg.vendors import vendor

    result = validate(INVENTORIES / "multivendor")
    found = [f for f in result.findings if f.rule == "CAP021"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "management.gateway" in found[0].message and "spine" in found[0].message
    text = render_plan(PlanBuilder(result.fabric, result.physics).plan(
        result.fabric.devices["spine-pod1-1"]))
    assert "vrf context management" not in text
    assert "interface mgmt0\n  vrf member management\n" in text
    adapter = vendor("nxos").deploy
    running = "hostname s\nvrf context management\n  ip route 0.0.0.0/0 192.0.2.1\n"
    from netcfg.deploy.preserve import keep

    kept = keep(adapter, running, text, adapter.policy()).text
    assert "vrf context management\n  ip route 0.0.0.0/0 192.0.2.1\n" in kept
