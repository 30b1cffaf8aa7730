"""The verify checks on NAPALM getter results of real EOS devices, and the lab's EOS output
against the same captures (tests/verify/fixtures/README.md: NAPALM's own test data).

Expected values are written by hand from the captures: which peer is Established, which
port sees which neighbour, which MTU and speed a port reports.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from netcfg.verify import checks
from netcfg.verify.collect import DeviceState, bgp_peers

EOS = Path(__file__).parent / "fixtures" / "napalm-eos"


def _load(*parts: str) -> Any:
    return json.loads(EOS.joinpath(*parts).read_text())


def _port(name: str, peer: str, role: str = "spine", speed: int = 400_000,
          mtu: int = 9216) -> SimpleNamespace:
    return SimpleNamespace(name=name, peer=peer, peer_role=role, speed=speed, mtu=mtu)


def _plan(interfaces: list[SimpleNamespace] = (), neighbors: list[SimpleNamespace] = ()
          ) -> Any:
    return SimpleNamespace(hostname="leaf1", nos="eos", interfaces=list(interfaces),
                           bgp=SimpleNamespace(neighbors=list(neighbors)))


def _failed(found: list[checks.Check]) -> dict[tuple[str, str | None], str]:
    return {(c.rule, c.interface): c.message for c in found if not c.ok}


def test_bgp_on_a_real_eos_getter_result():
    # the capture: 10.0.0.1 (AS 65002) Established, 10.0.0.3 (AS 65003) Active
    state = DeviceState(bgp=bgp_peers(_load("test_get_bgp_neighbors", "normal",
                                            "expected_result.json")))
    n = [SimpleNamespace(address="10.0.0.1", remote_as=65002, description="s1:e1",
                         interface="Ethernet1"),
         SimpleNamespace(address="10.0.0.3", remote_as=65003, description="s2:e1",
                         interface="Ethernet2"),
         SimpleNamespace(address="10.0.0.5", remote_as=65005, description="s3:e1",
                         interface="Ethernet3"),
         SimpleNamespace(address="2001:fb8:200::2", remote_as=65009, description="s4:e1",
                         interface="Ethernet4")]
    found = checks.bgp(_plan(neighbors=n), state)
    failed = _failed(found)
    assert set(failed) == {("VFY007", "Ethernet2"), ("VFY008", "Ethernet3"),
                           ("VFY008", "Ethernet4")}
    assert "not established" in failed[("VFY007", "Ethernet2")]
    assert "no such session" in failed[("VFY008", "Ethernet3")]
    assert "peers with AS 65003" in failed[("VFY008", "Ethernet4")]
    ok = [c for c in found if c.ok and c.rule == "VFY007"]
    assert [c.interface for c in ok] == ["Ethernet1"]
    assert "3 prefix(es) received" in ok[0].message


def test_prefix_bounds_on_a_real_eos_getter_result():
    # the capture: 10.0.0.1 (AS 65002) Established with 3 prefixes received; the bounds are
    # written here: the plan lets s1 announce 2 on that session, then 3; the NOS allows 3,
    # then 2
    state = DeviceState(bgp=bgp_peers(_load("test_get_bgp_neighbors", "normal",
                                            "expected_result.json")))
    n = [SimpleNamespace(address="10.0.0.1", remote_as=65002, description="s1:e1",
                         interface="Ethernet1", name="s1")]
    what = "BGP 10.0.0.1 AS 65002 (s1:e1): 3 prefix(es) received"
    found = checks.bgp(_plan(neighbors=n), state, None,
                       checks.PrefixBounds({("leaf1", "s1"): 2}, {"leaf1": (3, "a limit")}))
    assert [(c.rule, c.ok, c.message) for c in found if c.rule in ("VFY022", "VFY023")] == [
        ("VFY022", False, f"{what}, the plan announces at most 2 on this session"),
        ("VFY023", True, f"{what}, the switch's limit is 3 (a limit)")]
    found = checks.bgp(_plan(neighbors=n), state, None,
                       checks.PrefixBounds({("leaf1", "s1"): 3}, {"leaf1": (2, "a limit")}))
    assert [(c.rule, c.ok) for c in found if c.rule in ("VFY022", "VFY023")] == [
        ("VFY022", True), ("VFY023", False)]


def test_cabling_on_a_real_eos_getter_result():
    # the capture: Ethernet7 sees 78m3 port 000f.532e.ced0, Ethernet8 78m3 000f.532e.ced1,
    # Ethernet1 78m1 000f.532e.f180; Ethernet12 has no neighbour
    state = DeviceState(lldp=_load("test_get_lldp_neighbors_detail", "normal",
                                   "expected_result.json"))
    plan = _plan([_port("Ethernet1", "78m1:000f.532e.f180"),
                  _port("Ethernet7", "78m3:000f.532e.ced1"),
                  _port("Ethernet8", "78m3:000f.532e.ced0"),
                  _port("Ethernet9", "78m9:000f.532e.f290"),
                  _port("Ethernet12", "78m12:x"),
                  _port("Ethernet30", "server1:eth0", role="server")])
    found = checks.cabling(plan, state)
    failed = _failed(found)
    assert set(failed) == {("VFY002", "Ethernet7"), ("VFY002", "Ethernet8"),
                           ("VFY002", "Ethernet9"), ("VFY003", "Ethernet12")}
    assert "cables swapped between leaf1:Ethernet7 (to 78m3:000f.532e.ced0) and " \
           "leaf1:Ethernet8 (to 78m3:000f.532e.ced1)" in failed[("VFY002", "Ethernet7")]
    assert failed[("VFY002", "Ethernet9")] == \
        "LLDP neighbour 78m4:000f.532e.f290, planned 78m9:000f.532e.f290"
    assert [c.interface for c in found if c.ok] == ["Ethernet1"]
    assert "Ethernet30" not in {c.interface for c in found}  # server links are not checked


def test_interfaces_on_a_real_eos_getter_result():
    # the capture: Ethernet1 up, MTU 9214, speed 0.0; Ethernet5 up, MTU 9214, speed 2.5
    state = DeviceState(interfaces=_load("test_get_interfaces", "normal",
                                         "expected_result.json"))
    # EOS's `mtu` is the IP MTU: the L2 frame less the 14-byte Ethernet header
    plan = _plan([_port("Ethernet1", "s:1", speed=0, mtu=9214 + 14),
                  _port("Ethernet5", "s:5", speed=400_000, mtu=9216),
                  _port("Ethernet9", "s:9")])
    failed = _failed(checks.interfaces(plan, state))
    assert failed == {
        ("VFY005", "Ethernet5"): "speed 2 Mb/s, planned 400000 Mb/s",
        ("VFY006", "Ethernet5"): "MTU 9214, planned 9202 (L2 frame 9216)",
        ("VFY004", "Ethernet9"): "planned port (to s:9) is not on the switch"}


def _shape(ours: Any, theirs: Any, where: str = "") -> None:
    """Every key the lab prints is one the real device prints, with a value of the same
    type (recursively; a list is compared item by item with the device's first item)."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        extra = set(ours) - set(theirs)
        assert not extra, f"{where}: keys a real EOS does not print here: {extra}"
        for k in ours:
            _shape(ours[k], theirs[k], f"{where}.{k}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list), where
        if theirs:
            for item in ours:
                _shape(item, theirs[0], f"{where}[]")
    elif isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
        assert isinstance(ours, (int, float)) and not isinstance(ours, bool), where
    else:
        assert type(ours) is type(theirs), (where, ours, theirs)


NXOS = Path(__file__).parent / "fixtures" / "napalm-nxos"


def test_bgp_and_cabling_on_real_nxos_getter_results():
    # the captures: 10.1.1.169 (AS 64862) up in VRF RED-PROD; Ethernet1/1 sees
    # n9k2.ntc.com (a domain name: the plan names the host) port Ethernet1/1
    peers = bgp_peers(json.loads((NXOS / "test_get_bgp_neighbors" / "normal" /
                                  "expected_result.json").read_text()))
    lldp = json.loads((NXOS / "test_get_lldp_neighbors_detail" / "normal" /
                       "expected_result.json").read_text())
    plan = _plan([_port("Ethernet1/1", "n9k2:Ethernet1/1"),
                  _port("Ethernet1/2", "n9k2:Ethernet1/3")],
                 [SimpleNamespace(address="10.1.1.169", remote_as=64862, description="x",
                                  interface="Ethernet1/1")])
    found = checks.bgp(plan, DeviceState(bgp=peers)) + checks.cabling(
        plan, DeviceState(lldp=lldp))
    assert _failed(found) == {("VFY002", "Ethernet1/2"):
                              "LLDP neighbour n9k2:Ethernet1/2, planned n9k2:Ethernet1/3"}
    assert {(c.rule, c.interface) for c in found if c.ok} == {
        ("VFY008", "Ethernet1/1"), ("VFY007", "Ethernet1/1"), ("VFY002", "Ethernet1/1")}


JUNOS = Path(__file__).parent / "fixtures" / "napalm-junos"


def test_bgp_and_cabling_on_real_junos_getter_results():
    # the captures: 192.168.0.0 (AS 30000) up, 192.169.1.0 (AS 30000) down; on a QFX5110,
    # ge-2/0/0 sees EX9208 with a locally assigned port ID "549" and the port's name,
    # ge-3/3/1, in its description
    peers = bgp_peers(json.loads((JUNOS / "test_get_bgp_neighbors" / "normal" /
                                  "expected_result.json").read_text()))
    lldp = json.loads((JUNOS / "test_get_lldp_neighbors_detail" / "qfx5110" /
                       "expected_result.json").read_text())
    plan = _plan([_port("ge-2/0/0", "EX9208:ge-3/3/1")],
                 [SimpleNamespace(address="192.168.0.0", remote_as=30000, description="a",
                                  interface="xe-0/1/0"),
                  SimpleNamespace(address="192.169.1.0", remote_as=30000, description="b",
                                  interface="xe-0/1/1")])
    found = checks.bgp(plan, DeviceState(bgp=peers)) + checks.cabling(
        plan, DeviceState(lldp=lldp))
    assert _failed(found) == {("VFY007", "xe-0/1/1"):
                              "BGP 192.169.1.0 AS 30000 (b) not established"}
    assert ("VFY002", "ge-2/0/0") in {(c.rule, c.interface) for c in found if c.ok}


SONIC = Path(__file__).parent / "fixtures" / "sonic-utilities"


def test_sonic_tables_as_sonic_utilities_prints_them():
    # pfcwd: Ethernet0:3 stormed 1/0 with 300 dropped each way; Ethernet4:3 operational 2/2;
    # pfcstat: Ethernet4 received 403 and sent 413 PFC3 frames, Ethernet0 1,200 PFC0;
    # queuestat: Ethernet0 UC3 dropped 19 packets, UC7 94; MC and ALL queues are not unicast
    from netcfg.vendors.sonic import pfcstate as sonic

    wd = sonic.pfcwd_stats((SONIC / "pfcwd_show_stats.txt").read_text())
    assert wd[("Ethernet0", 3)] == sonic.WatchedQueue("stormed", 1, 0, 300, 300)
    assert wd[("Ethernet4", 3)] == sonic.WatchedQueue("operational", 2, 2, 100, 100)
    assert set(wd) == {("Ethernet0", 3), ("Ethernet4", 3), ("Ethernet8", 4)}
    pfc = sonic.pfc_counters((SONIC / "show_pfc_counters.txt").read_text())
    assert pfc.rx["Ethernet4"][3] == 403 and pfc.tx["Ethernet4"][3] == 413
    assert pfc.rx["Ethernet0"][0] == 1200
    drops = sonic.queue_drops((SONIC / "show_queue_counters.txt").read_text())
    assert drops["Ethernet0"][3] == 19 and drops["Ethernet0"][7] == 94
    assert sorted(drops["Ethernet0"]) == list(range(10))  # UC0-UC9


def test_the_lab_prints_sonic_tables_byte_for_byte():
    """The lab's printer, given the rows of sonic-utilities' expected outputs, prints them
    exactly (tabulate's `simple` format, right aligned, as pfcwd, pfcstat and queuestat)."""
    from netcfg.lab.sonic.oper import simple_table
    from netcfg.vendors.sonic.pfcstate import tables

    for name in ("pfcwd_show_stats.txt", "show_pfc_counters.txt", "show_queue_counters.txt"):
        text = (SONIC / name).read_text()
        for table in tables(text):
            header = list(table[0])
            printed = simple_table([list(r.values()) for r in table], header)
            assert printed in text, (name, printed.splitlines()[:3])


def _lossless(name: str, wd: bool = True) -> SimpleNamespace:
    return SimpleNamespace(name=name, lossless=True, pfc_priorities=(3,),
                           watchdog=SimpleNamespace(enabled=wd))


def test_pfc_checks_on_sonic_utilities_outputs():
    """A plan with priority 3 lossless on Ethernet0, 4 and 8, read against sonic-utilities'
    outputs: Ethernet0's queue 3 is stormed; Ethernet8's queue 3 is not watched (its
    watchdog row is queue 4); over an interval, Ethernet4 received 10 more PFC3 frames and
    dropped 5 more packets on UC3 (a second reading written by hand from the first)."""
    from netcfg.vendors.sonic import pfcstate as sonic
    from netcfg.verify.collect import DeviceState

    first = sonic.parse({
        sonic.COMMANDS[0]: (SONIC / "pfcwd_show_stats.txt").read_text(),
        sonic.COMMANDS[1]: (SONIC / "show_pfc_counters.txt").read_text(),
        sonic.COMMANDS[2]: (SONIC / "show_queue_counters.txt").read_text()})
    after = sonic.PfcState(first.watchdog, sonic.PfcCounters(
        {**first.pfc.rx, "Ethernet4": [1400, 401, 402, 403 + 10, 404, 405, 406, 407]},
        first.pfc.tx), {**first.drops, "Ethernet4": {**first.drops["Ethernet4"], 3: 48 + 5}})
    plan = SimpleNamespace(hostname="leaf1", interfaces=[
        _lossless("Ethernet0"), _lossless("Ethernet4"), _lossless("Ethernet8")])
    found = checks.pfc(plan, DeviceState(pfc=first, pfc_after=after, interval=2), 0)
    failed = _failed(found)
    assert set(failed) == {("VFY011", "Ethernet0"), ("VFY010", "Ethernet8"),
                           ("VFY012", "Ethernet4"), ("VFY013", "Ethernet4")}
    assert failed[("VFY011", "Ethernet0")].startswith("queue 3: PFC storm (detected 1, "
                                                      "restored 0; 300 received")
    assert failed[("VFY012", "Ethernet4")] == \
        "10 PFC pause frame(s) received on priority 3 in 2 s (more than 0)"
    assert failed[("VFY013", "Ethernet4")] == \
        "5 packet(s) dropped on lossless queue 3 in 2 s"
    assert {c.severity for c in found if not c.ok and c.rule == "VFY012"} == {"warning"}
    relaxed = checks.pfc(plan, DeviceState(pfc=first, pfc_after=after, interval=2), 10)
    assert ("VFY012", "Ethernet4") not in _failed(relaxed)


def test_lint_reports_do_not_claim_the_verify_rules():
    """The VFY rules are in the one registry (docs/rules.md, SARIF descriptors), but lint never
    checks a running switch: its JUnit lists no VFY testcase as passed."""
    from xml.etree import ElementTree as ET

    from netcfg.lint import formats
    from netcfg.lint.run import LintResult

    root = ET.fromstring(formats.junit(LintResult("x", []), "error"))
    names = [c.get("name", "") for c in root.iter("testcase")]
    assert names and not [n for n in names if n.startswith("VFY")]
