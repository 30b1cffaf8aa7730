"""SONiC's and Cumulus's BGP and LLDP getters (FRR's `show ip bgp summary json` and lldpd's
`lldpctl -f json`, netcfg/deploy/drivers/linuxstate.py) on captures of the real programs
(tests/verify/fixtures/README.md: FRR 8.4.4 in netcfg's twin, lldpd 1.0.16 in two network
namespaces), with expected values written by hand from the captures; then the lab's SONiC
and Cumulus answers, key by key against the same captures, and both leaves verified."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import napalm
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deploy.drivers import linuxstate
from netcfg.verify import checks
from netcfg.verify.collect import DeviceState, bgp_peers

from .conftest import CUMULUS_LEAF, SONIC_LEAF, VerifyLab
from .test_outside import _shape

FIXTURES = Path(__file__).parent / "fixtures"


def _frr(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / "frr" / name).read_text())


def _lldpd(name: str) -> str:
    return (FIXTURES / "lldpd" / name).read_text()


def test_frr_summary_of_a_leaf_with_every_session_up():
    # the capture: leaf-su1-r1 of inventories/example (AS 4200000000, router id 10.0.0.1),
    # 32 sessions to four spines of AS 4200100000, each bringing the spine's loopback
    got = linuxstate.bgp_neighbors(json.dumps(_frr("leaf_show_ip_bgp_summary.json")))
    assert list(got) == ["global"] and got["global"]["router_id"] == "10.0.0.1"
    peers = got["global"]["peers"]
    assert len(peers) == 32
    first = peers["10.1.0.0"]
    assert first == {"local_as": 4200000000, "remote_as": 4200100000, "remote_id": "",
                     "is_up": True, "is_enabled": True, "description": "spine1:swp1s0",
                     "uptime": 8,
                     "address_family": {"ipv4": {"received_prefixes": 1,
                                                 "accepted_prefixes": 1,
                                                 "sent_prefixes": 37}}}
    assert all(p["is_up"] and p["remote_as"] == 4200100000 for p in peers.values())


def test_frr_summary_with_a_session_shut_at_one_end():
    # spine1 shut its session to the leaf (`neighbor 10.1.0.1 shutdown`): the leaf sees
    # 10.1.0.0 Active, spine1 sees 10.1.0.1 `Idle (Admin)`
    leaf = linuxstate.bgp_neighbors(_frr("leaf_show_ip_bgp_summary_spine1_shut.json"))
    down = leaf["global"]["peers"]["10.1.0.0"]
    assert (down["is_up"], down["is_enabled"], down["uptime"]) == (False, True, -1)
    assert down["address_family"]["ipv4"]["received_prefixes"] == -1
    assert sum(p["is_up"] for p in leaf["global"]["peers"].values()) == 31
    spine = linuxstate.bgp_neighbors(_frr("spine1_show_ip_bgp_summary_shut.json"))
    shut = spine["global"]["peers"]["10.1.0.1"]
    assert (shut["is_up"], shut["is_enabled"]) == (False, False)
    assert shut["remote_as"] == 4200000000
    assert shut["description"] == "leaf-su1-r1:swp17s0"

    neighbors = [SimpleNamespace(address="10.1.0.1", remote_as=4200000000,
                                 description="leaf-su1-r1:swp17s0", interface="swp1s0"),
                 SimpleNamespace(address="10.1.0.3", remote_as=4200000000,
                                 description="leaf-su1-r1:swp17s1", interface="swp1s1")]
    plan = SimpleNamespace(hostname="spine1", nos="sonic", interfaces=[],
                           bgp=SimpleNamespace(neighbors=neighbors))
    found = checks.bgp(plan, DeviceState(bgp=bgp_peers(spine)))
    failed = {(c.rule, c.interface): c.message for c in found if not c.ok}
    assert list(failed) == [("VFY007", "swp1s0")]
    assert "shut down" in failed[("VFY007", "swp1s0")]
    # 10.1.0.3 Established with 33 prefixes (the leaf's loopback and its 32 server /31s)
    up = [c.message for c in found if c.ok and c.rule == "VFY007"]
    assert up == ["BGP 10.1.0.3 AS 4200000000 (leaf-su1-r1:swp17s1) established, "
                  "33 prefix(es) received"]


def test_lldpctl_json_of_one_and_of_two_neighbours():
    # two ports of `leaf1` cabled to `spine1` (chassis 36:de:e8:15:c1:04, port IDs by name):
    # lldpd writes several interfaces as a list and one as an object
    two = linuxstate.lldp_neighbors_detail(_lldpd("lldpctl_two_neighbors.json"))
    assert {k: [(n["remote_system_name"], n["remote_port"]) for n in v]
            for k, v in two.items()} == {"Ethernet0": [("spine1", "Ethernet1_1")],
                                         "Ethernet8": [("spine1", "Ethernet2_1")]}
    [e0] = two["Ethernet0"]
    assert e0 == {"parent_interface": "", "remote_port": "Ethernet1_1",
                  "remote_port_description": "Ethernet1_1",
                  "remote_chassis_id": "36:de:e8:15:c1:04", "remote_system_name": "spine1",
                  "remote_system_description": "SONiC Software Version: SONiC.test",
                  "remote_system_capab": ["bridge", "router", "wlan", "station"],
                  "remote_system_enable_capab": ["station"]}
    one = linuxstate.lldp_neighbors_detail(_lldpd("lldpctl_one_neighbor.json"))
    assert list(one) == ["Ethernet0"] and one["Ethernet0"] == two["Ethernet0"]
    assert linuxstate.lldp_neighbors_detail('{"lldp": {}}') == {}


def _cli(v: VerifyLab, device: str, command: str) -> str:
    nos = {SONIC_LEAF: "netcfg_sonic", CUMULUS_LEAF: "netcfg_cumulus"}[device]
    driver = napalm.get_network_driver(nos)(**v.lab[device].napalm())
    driver.open()
    try:
        return driver.cli([command])[command]
    finally:
        driver.close()


def _entries(node: Any) -> list[tuple[str, Any]]:
    return list(node.items()) if isinstance(node, dict) else \
        [kv for one in node for kv in one.items()]


def test_lab_frr_and_lldpd_json_has_the_shape_of_the_real_programs(verify_lab: VerifyLab):
    real = _frr("leaf_show_ip_bgp_summary.json")["ipv4Unicast"]
    real_lldp = json.loads(_lldpd("lldpctl_two_neighbors.json"))["lldp"]["interface"]
    [(_, real_entry)] = real_lldp[0].items()
    [(_, real_chassis)] = real_entry["chassis"].items()
    for device in (SONIC_LEAF, CUMULUS_LEAF):
        summary = json.loads(_cli(verify_lab, device, linuxstate.BGP_SUMMARY))
        assert list(summary) == ["ipv4Unicast"]
        table = summary["ipv4Unicast"]
        _shape({k: v for k, v in table.items() if k not in ("peers", "bestPath")},
               {k: v for k, v in real.items() if k != "peers"}, "ipv4Unicast")
        assert len(table["peers"]) == 16
        for peer in table["peers"].values():
            _shape(peer, real["peers"]["10.1.0.0"], "peers")
            assert peer["state"] == "Established" and peer["hostname"].startswith("spine-pod2-")
        lldp = json.loads(_cli(verify_lab, device, linuxstate.LLDP_NEIGHBORS))
        entries = _entries(lldp["lldp"]["interface"])
        assert len(entries) == 16 and isinstance(lldp["lldp"]["interface"], list)
        for _, entry in entries:
            _shape({k: v for k, v in entry.items() if k != "chassis"},
                   {k: v for k, v in real_entry.items() if k != "chassis"}, "interface")
            [(name, chassis)] = entry["chassis"].items()
            assert name.startswith("spine-pod2-")
            _shape(chassis, real_chassis, "chassis")


def test_a_cumulus_leaf_from_its_own_state_and_its_faults(verify_lab: VerifyLab):
    """leaf-su2-r5 (Cumulus) after the push: its 16 uplinks to the pod's four NX-OS spines
    have the planned LLDP neighbour and an established session (exit 0). With a BGP session
    down and two uplinks' cables swapped, the report names the switch, the ports and rules."""
    def run() -> tuple[int, dict[str, Any]]:
        result = CliRunner().invoke(main, [
            "verify", str(verify_lab.inventory), "--device", CUMULUS_LEAF, "--connect",
            str(verify_lab.connect), "--state", str(verify_lab.state), "--format", "json"])
        [dev] = json.loads(result.stdout)["devices"]
        return result.exit_code, dev

    code, dev = run()
    assert code == 0 and dev["errors"] == [], dev
    ok = [c["rule"] for c in dev["checks"] if c["ok"]]
    for rule in ("VFY002", "VFY007", "VFY008", "VFY009"):
        assert ok.count(rule) == 16, rule
    assert all(c["ok"] for c in dev["checks"])
    # 32 ports at NVUE's link mtu: the 9216-byte frame less its 14-byte Ethernet header
    assert ok.count("VFY006") == 32
    assert {c["message"] for c in dev["checks"] if c["rule"] == "VFY006"} == {"MTU 9202"}
    # NVIDIA's `nv show ... qos roce` outputs may not be copied: not verifiable, and said
    [said] = [n for n in dev["not_checked"] if "not verifiable on cumulus" in n]
    assert "`nv show interface <port> qos roce status`" in said
    sessions = {c["interface"]: c["message"] for c in dev["checks"] if c["rule"] == "VFY007"}
    port, message = sorted(sessions.items())[0]
    address = message.split()[1]  # "BGP <address> AS ..."
    other = sorted(sessions)[1]
    lab, w = verify_lab.lab, verify_lab.wiring
    lab.call(w.bgp_down, CUMULUS_LEAF, address)
    lab.call(w.swap, CUMULUS_LEAF, port, other)
    try:
        code, dev = run()
    finally:
        lab.call(w.clear, verify_lab.links)
    failed = {(c["rule"], c["interface"]) for c in dev["checks"] if not c["ok"]}
    assert code == 1
    assert {("VFY007", port), ("VFY002", port), ("VFY002", other)} <= failed
    assert {r for r, _ in failed} <= {"VFY002", "VFY007", "VFY009"}


def test_a_link_down_on_the_sonic_and_cumulus_leaves(verify_lab: VerifyLab):
    """A `port_down` fault on one uplink of each leaf: the port is down in `show interfaces
    status` (SONiC) and `nv show interface` (Cumulus), its LLDP neighbour is gone and its
    session is not established: VFY004, VFY003 and VFY007 name that port, nothing else."""
    from netcfg import api

    ports = {SONIC_LEAF: "Ethernet100", CUMULUS_LEAF: "swp10s0"}
    first = api.verify(verify_lab.inventory, verify_lab.connect,
                       devices=(SONIC_LEAF, CUMULUS_LEAF))
    assert first.exit_code == 0
    planned = {(c.device, c.interface) for c in first.checks() if c.rule == "VFY007"}
    assert set(ports.items()) <= planned
    lab, w = verify_lab.lab, verify_lab.wiring
    for device, port in ports.items():
        lab.call(w.port_down, device, port)
    try:
        result = api.verify(verify_lab.inventory, verify_lab.connect,
                            devices=(SONIC_LEAF, CUMULUS_LEAF))
    finally:
        lab.call(w.clear, verify_lab.links)
    failed = {(c.device, c.rule, c.interface) for c in result.failed()}
    assert failed == {(d, r, p) for d, p in ports.items() for r in ("VFY003", "VFY004",
                                                                     "VFY007")}
