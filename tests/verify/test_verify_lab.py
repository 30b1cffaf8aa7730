"""`netcfg verify` on the lab after a push: every check holds (exit 0); with a swapped cable,
a BGP session down and a port down it names device, port and rule in every format (exit 1);
drift is VFY001; a switch that refuses connections is VFY020 (exit 4).

Expected counts are the multivendor inventory's, by hand: leaf-su1-r1 has 16 server ports
(16 nodes per SU, one NIC per rail) and 16 uplinks (leaf_uplinks: 16) to the 4 spines of pod
1, each uplink a BGP session: 32 ports up at 400G with MTU 9202 (EOS's IP MTU: the 9216-byte
frame less the 14-byte Ethernet header), 16 LLDP neighbours, 16 sessions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from xml.etree import ElementTree as ET

import jsonschema
import napalm
import pytest
from click.testing import CliRunner
from lint.test_formats import SCHEMA, _xsd_valid

from netcfg.cli import main

from .conftest import LEAF, VerifyLab
from .test_outside import EOS, _shape


def _verify(v: VerifyLab, fmt: str, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [
        "verify", str(v.inventory), "--device", LEAF, "--connect", str(v.connect),
        "--state", str(v.state), "--format", fmt, "--timeout", "20", *extra])
    return result.exit_code, result.stdout


def test_after_a_push_every_check_holds(verify_lab: VerifyLab):
    code, out = _verify(verify_lab, "json")
    assert code == 0, out
    doc = json.loads(out)
    [dev] = doc["devices"]
    assert dev["device"] == LEAF and dev["errors"] == []
    assert all(c["ok"] for c in dev["checks"])
    count = {}
    for c in dev["checks"]:
        count[c["rule"]] = count.get(c["rule"], 0) + 1
    # VFY009: each spine sends at least what it originates itself, its loopback
    # VFY021: every port (servers and uplinks) marks ECN on its lossless queue 3; VFY022 and
    # VFY023: every session's prefixes within the plan's bound and EOS's limit
    assert count == {"VFY001": 1, "VFY004": 32, "VFY005": 32, "VFY006": 32, "VFY002": 16,
                     "VFY007": 16, "VFY008": 16, "VFY009": 16, "VFY021": 32, "VFY022": 16,
                     "VFY023": 16}
    bound = {c["interface"]: c["message"] for c in dev["checks"] if c["rule"] == "VFY022"}
    # what spine-pod1-1 may announce to the leaf, counted by hand from the intent: the 7
    # other EOS leaves of pod 1 (a loopback and 16 server subnets each: 7 x 17 = 119), the
    # spine's loopback (1), core1 and core2, the cores it links to (2: the cores share one
    # AS, so none passes on another's loopback), the 4 Cumulus leaves of pod 2 (4 x 17 =
    # 68), the 4 SONiC leaves (a loopback and the /27 block of their 16 /31s: 4 x 2 = 8),
    # and spine-pod2-1, the pod-2 spine on those cores (1; the other pod-2 spines reach only
    # through pod-1 spines, whose AS spine-pod1-1 shares): 199. The lab's spine announces
    # its loopback alone (the lab models no transit).
    assert bound["Ethernet9/1"] == ("BGP 10.64.0.0 AS 4200100000 (spine-pod1-1:Ethernet1/1/1): "
                                    "1 prefix(es) received, the plan announces at most 199 "
                                    "on this session")
    limit = {c["message"] for c in dev["checks"] if c["rule"] == "VFY023"}
    assert all("the switch's limit is 256000" in m for m in limit), limit
    mtu = {c["message"] for c in dev["checks"] if c["rule"] == "VFY006"}
    assert mtu == {"MTU 9202"}
    code, text = _verify(verify_lab, "text")
    assert code == 0 and "225 check(s), 0 failed" in text
    assert "ok    VFY007 BGP session established: 16" in text


@contextmanager
def faulted(verify_lab: VerifyLab, *faults: tuple[str, ...]) -> Iterator[None]:
    """The lab's state faults (its wiring's fault name, then that fault's arguments) for the
    block, every fault cleared after it."""
    lab, w = verify_lab.lab, verify_lab.wiring
    for name, *args in faults:
        lab.call(getattr(w, name), *args)
    try:
        yield
    finally:
        lab.call(w.clear, verify_lab.links)


def test_state_faults_are_named_in_every_format(verify_lab: VerifyLab):
    # the cables of Ethernet9/1 (to spine-pod1-1) and Ethernet11/1 (to spine-pod1-2) swapped;
    # the session to 10.64.0.16 (spine-pod1-3 over Ethernet13/1) down; server port
    # Ethernet1/1 down
    with faulted(verify_lab, ("swap", LEAF, "Ethernet9/1", "Ethernet11/1"),
                 ("bgp_down", LEAF, "10.64.0.16"), ("port_down", LEAF, "Ethernet1/1")):
        outputs = {fmt: _verify(verify_lab, fmt)
                   for fmt in ("json", "text", "sarif", "junit", "github")}
    assert {code for code, _ in outputs.values()} == {1}
    doc = json.loads(outputs["json"][1])
    failed = {(f["rule"], f["interface"]): f["message"] for f in doc["findings"]}
    assert set(failed) == {
        ("VFY002", "Ethernet9/1"), ("VFY002", "Ethernet11/1"),
        # the swapped ports' sessions find the wrong far end
        ("VFY007", "Ethernet9/1"), ("VFY007", "Ethernet11/1"),
        ("VFY007", "Ethernet13/1"), ("VFY004", "Ethernet1/1")}
    assert failed[("VFY002", "Ethernet9/1")] == (
        "LLDP neighbour spine-pod1-2:Ethernet1/1/1, planned spine-pod1-1:Ethernet1/1/1: "
        "cables swapped between leaf-su1-r1:Ethernet9/1 (to spine-pod1-2:Ethernet1/1/1) and "
        "leaf-su1-r1:Ethernet11/1 (to spine-pod1-1:Ethernet1/1/1)")
    assert "10.64.0.16" in failed[("VFY007", "Ethernet13/1")]
    assert failed[("VFY004", "Ethernet1/1")].startswith("link to gpu-su1-n1:")
    assert failed[("VFY004", "Ethernet1/1")].endswith(" is down")
    named = [(r, f"{LEAF}:{p}") for r, p in failed]
    text = outputs["text"][1]
    for rule, subject in named:
        port = subject.split(":", 1)[1]
        assert f"FAIL  {rule} {port}: " in text
    sarif = json.loads(outputs["sarif"][1])
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    got = {(r["ruleId"], r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"])
           for r in sarif["runs"][0]["results"]}
    assert got == set(named)
    root = ET.fromstring(outputs["junit"][1])
    _xsd_valid(root)
    fails = {case.get("name") for case in root.iter("testcase")
             if case.find("failure") is not None}
    assert fails == {f"{r} {s}" for r, s in named}
    # a port that is down has no speed or MTU to check, a session down no prefix count
    # (VFY009, VFY022, VFY023): 225 checks less those two and those nine
    assert root.get("failures") == "6" and root.get("tests") == "214"
    github = outputs["github"][1].splitlines()
    assert len(github) == 6 and all(line.startswith("::error ") for line in github)
    assert any("title=VFY002" in line and "leaf-su1-r1%3AEthernet9/1" not in line
               and "leaf-su1-r1:Ethernet9/1: " in line for line in github)


def test_drift_and_an_unreachable_switch(verify_lab: VerifyLab):
    leaf = verify_lab.lab[LEAF]
    driver = napalm.get_network_driver("eos")(**leaf.napalm())
    driver.open()
    try:
        before = driver.get_config(retrieve="running")["running"]
        # by hand: a description, and the session to spine-pod1-1 over Ethernet9/1 shut
        driver.load_merge_candidate(config="interface Ethernet2/1\n   description by hand\n"
                                    "router bgp 4200000000\n   neighbor 10.64.0.0 shutdown\n")
        driver.commit_config()
        code, out = _verify(verify_lab, "json")
        # the spine's side of the leaf's sessions, with one of the leaf's subnets no longer
        # announced (`no network`): the three sessions still up bring 16 of its 17 prefixes
        driver.load_merge_candidate(config="router bgp 4200000000\n"
                                    "   no network 10.128.0.0/31\n")
        driver.commit_config()
        spine = CliRunner().invoke(main, [
            "verify", str(verify_lab.inventory), "--device", "spine-pod1-1", "--connect",
            str(verify_lab.connect), "--state", str(verify_lab.state), "--format", "json"])
        driver.load_replace_candidate(config=before)
        driver.commit_config()
    finally:
        driver.close()
    assert code == 1
    drift, down = json.loads(out)["findings"]
    assert drift["rule"] == "VFY001" and drift["device"] == LEAF
    assert "differs from the rendered one" in drift["message"]
    assert (down["rule"], down["interface"]) == ("VFY007", "Ethernet9/1")
    assert down["message"].endswith(" shut down")
    spine_found = {(f["rule"], f["interface"]): f["message"]
                   for f in json.loads(spine.stdout)["findings"]
                   if f["interface"] in ("Ethernet1/1/1", "Ethernet1/1/2", "Ethernet1/2/1",
                                         "Ethernet1/2/2")}
    assert spine_found[("VFY007", "Ethernet1/1/1")].endswith(" not established")
    for port in ("Ethernet1/1/2", "Ethernet1/2/1", "Ethernet1/2/2"):
        assert spine_found[("VFY009", port)].endswith(
            "16 prefix(es) received, leaf-su1-r1 originates 17")
    assert len(spine_found) == 4
    leaf.inject("refused")
    try:
        code, out = _verify(verify_lab, "json")
    finally:
        leaf.clear_faults()
    assert code == 4
    rules = {f["rule"] for f in json.loads(out)["findings"]}
    assert rules == {"VFY020"}


@pytest.mark.parametrize("fmt", ["sarif"])
def test_sarif_describes_the_verify_rules(verify_lab: VerifyLab, fmt: str):
    code, out = _verify(verify_lab, fmt)
    assert code == 0
    rules = {r["id"] for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]}
    assert {f"VFY00{i}" for i in range(1, 9)} | {"VFY020"} <= rules


def test_lab_eos_output_has_the_shape_of_real_eos(eos_outputs):
    """The lab's eAPI answers against real EOS captures (NAPALM's test data)."""
    bgp = EOS / "test_get_bgp_neighbors" / "normal"
    real = {name: json.loads((bgp / f"{name}.json").read_text()) for name in (
        "show_ip_bgp_summary_vrf_all", "show_ip_bgp_neighbors_vrf_all")}
    ours = eos_outputs
    summary = ours["show ip bgp summary vrf all"]["vrfs"]["default"]
    real_summary = real["show_ip_bgp_summary_vrf_all"]["vrfs"]["default"]
    _shape({k: v for k, v in summary.items() if k != "peers"},
           {k: v for k, v in real_summary.items() if k != "peers"}, "summary")
    assert summary["peers"]
    for peer in summary["peers"].values():
        _shape(peer, real_summary["peers"]["10.0.0.1"], "summary.peers")
    peers = ours["show ip bgp neighbors vrf all"]["vrfs"]["default"]["peerList"]
    real_up, real_active = real["show_ip_bgp_neighbors_vrf_all"]["vrfs"]["default"]["peerList"]
    for peer in peers:
        model = real_up if peer["state"] == "Established" else real_active
        # EOS prints `description` for a peer that has one (the captured peers have none;
        # NAPALM reads it with .get)
        _shape({k: v for k, v in peer.items() if k != "description"}, model, "peerList")
    lldp = ours["show lldp neighbors detail"]["lldpNeighbors"]
    real_lldp = json.loads((EOS / "test_get_lldp_neighbors_detail" / "normal" /
                            "show_lldp_neighbors__detail.json").read_text())["lldpNeighbors"]
    assert any(v["lldpNeighborInfo"] for v in lldp.values())
    for entry in lldp.values():
        _shape(entry, real_lldp["Ethernet8"], "lldpNeighbors")
    real_if = json.loads((EOS / "test_get_interfaces" / "normal" /
                          "show_interfaces.json").read_text())["interfaces"]["Ethernet1"]
    for name, row in ours["show interfaces"]["interfaces"].items():
        if name.startswith("Ethernet"):
            _shape(row, real_if, "interfaces")


def test_an_nxos_spine_from_its_own_state(verify_lab: VerifyLab):
    """spine-pod1-1's side, through NAPALM's nxos driver: its four links to leaf-su1-r1
    (Ethernet1/1/1, 1/1/2, 1/2/1, 1/2/2, as the leaf's sessions name them) and its eight to
    core1 (Ethernet1/17/1 to 1/20/2, core1's et-0/0/0:0 to et-0/0/3:1) hold; the lab serves
    none of its other leaves and core2, so those have no LLDP neighbour and no session, and
    nothing else fails."""
    result = CliRunner().invoke(main, [
        "verify", str(verify_lab.inventory), "--device", "spine-pod1-1", "--connect",
        str(verify_lab.connect), "--state", str(verify_lab.state), "--format", "json"])
    assert result.exit_code == 1
    [dev] = json.loads(result.stdout)["devices"]
    assert dev["errors"] == []
    to_leaf = {"Ethernet1/1/1": "Ethernet9/1", "Ethernet1/1/2": "Ethernet9/5",
               "Ethernet1/2/1": "Ethernet10/1", "Ethernet1/2/2": "Ethernet10/5"}
    ok = {(c["rule"], c["interface"]): c["message"] for c in dev["checks"] if c["ok"]}
    for port, leaf_port in to_leaf.items():
        assert ok[("VFY002", port)] == f"LLDP neighbour leaf-su1-r1:{leaf_port}"
        assert ok[("VFY007", port)].endswith("established, 17 prefix(es) received")
    to_core = {f"Ethernet1/{cage}/{sub}": f"et-0/0/{cage - 17}:{sub - 1}"
               for cage in range(17, 21) for sub in (1, 2)}
    for port, core_port in to_core.items():
        assert ok[("VFY002", port)] == f"LLDP neighbour core1:{core_port}"
        # a core originates its loopback only
        assert ok[("VFY007", port)].endswith("established, 1 prefix(es) received")
    # 16 leaves x 2 + 2 cores x 8 = 48 planned ports, all up at 400G, NX-OS MTU 9202
    assert sum(1 for r, _ in ok if r == "VFY004") == 48
    assert {m for (r, _), m in ok.items() if r == "VFY005"} == {"speed 400000 Mb/s"}
    assert {m for (r, _), m in ok.items() if r == "VFY006"} == {"MTU 9202"}
    failed = {(c["rule"], c["interface"]) for c in dev["checks"] if not c["ok"]}
    assert {r for r, _ in failed} == {"VFY003", "VFY007"}
    assert not {p for _, p in failed} & (set(to_leaf) | set(to_core))
    # no published NX-OS output to read PFC or queues with: said, naming the commands
    [said] = [n for n in dev["not_checked"] if "not verifiable on nxos" in n]
    assert "`show interface priority-flow-control`" in said
    assert len(failed) == 2 * (48 - 4 - 8)


def test_lab_nxos_output_has_the_shape_of_real_nxos(verify_lab: VerifyLab):
    """The lab spine's NX-API answers against real NX-OS captures (NAPALM's test data)."""
    from .test_outside import NXOS

    driver = napalm.get_network_driver("nxos")(**verify_lab.lab["spine-pod1-1"].napalm())
    driver.open()
    try:
        bgp = driver._send_command("show bgp all summary vrf all")
        lldp = driver._send_command("show lldp neighbors detail", raw_text=True)
    finally:
        driver.close()
    real = json.loads((NXOS / "test_get_bgp_neighbors" / "normal" /
                       "show_bgp_all_summary_vrf_all.json").read_text())
    real_vrf = real["TABLE_vrf"]["ROW_vrf"][1]
    real_af = real_vrf["TABLE_af"]["ROW_af"][0]
    real_row = real_af["TABLE_saf"]["ROW_saf"]["TABLE_neighbor"]["ROW_neighbor"][0]
    [vrf] = bgp["TABLE_vrf"]["ROW_vrf"]
    _shape({k: v for k, v in vrf.items() if k != "TABLE_af"},
           {k: v for k, v in real_vrf.items() if k != "TABLE_af"}, "vrf")
    [af] = vrf["TABLE_af"]["ROW_af"]
    saf = af["TABLE_saf"]["ROW_saf"]
    _shape({k: v for k, v in saf.items() if k != "TABLE_neighbor"},
           {k: v for k, v in real_af["TABLE_saf"]["ROW_saf"].items()
            if k != "TABLE_neighbor"}, "saf")
    for row in saf["TABLE_neighbor"]["ROW_neighbor"]:
        _shape(row, real_row, "neighbor")
    # LLDP detail: every block has the captured device's lines, in its order
    real_text = (NXOS / "test_get_lldp_neighbors_detail" / "normal" /
                 "show_lldp_neighbors_detail.json").read_text()
    real_keys = _block_keys(real_text)[1]  # the NX-OS neighbour's block
    ours = _block_keys(str(lldp))
    assert len(ours) == 4 + 8  # the links to leaf-su1-r1 and core1
    for keys in ours:
        assert [k for k in real_keys if k in keys] == keys, keys


def _block_keys(text: str) -> list[list[str]]:
    """The `Key:` of each line of each `Chassis id:` block (continuation lines skipped)."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("Chassis id:"):
            blocks.append([])
        if line.startswith("Total entries displayed:"):  # after the last block
            break
        if blocks and ":" in line and not line.startswith(("Copyright", "TAC", "Compiled")):
            blocks[-1].append(line.split(":", 1)[0])
    return blocks


def test_a_junos_core_from_its_own_state(verify_lab: VerifyLab):
    """core1's side, through NAPALM's junos driver (RPCs over NETCONF): its eight links to
    spine-pod1-1 and its eight to spine-pod2-1 hold, with Junos's media MTU (the 9216-byte
    frame itself)."""
    result = CliRunner().invoke(main, [
        "verify", str(verify_lab.inventory), "--device", "core1", "--connect",
        str(verify_lab.connect), "--state", str(verify_lab.state), "--format", "json"])
    assert result.exit_code == 0, result.stdout
    [dev] = json.loads(result.stdout)["devices"]
    assert dev["errors"] == []
    ok = {(c["rule"], c["interface"]): c["message"] for c in dev["checks"] if c["ok"]}
    to_spine = {f"et-0/0/{cage}:{sub}": f"spine-pod1-1:Ethernet1/{cage + 17}/{sub + 1}"
                for cage in range(4) for sub in (0, 1)}
    to_spine |= {f"et-0/0/{cage}:{sub}": f"spine-pod2-1:Ethernet1/{cage + 13}/{sub + 1}"
                 for cage in range(4, 8) for sub in (0, 1)}
    for port, spine_port in to_spine.items():
        assert ok[("VFY002", port)] == f"LLDP neighbour {spine_port}"
        assert ok[("VFY007", port)].endswith("established, 1 prefix(es) received")
    assert {m for (r, _), m in ok.items() if r == "VFY006"} == {"MTU 9216"}
    assert sum(1 for r, _ in ok if r == "VFY004") == 16
    assert all(c["ok"] for c in dev["checks"])


def test_lab_junos_output_has_the_shape_of_real_junos(verify_lab: VerifyLab):
    """Every element the lab's Junos RPC replies hold is one a real Junos reply holds there
    (NAPALM's captures: an MX's BGP, a QFX5110's LLDP)."""
    from lxml import etree

    from .test_outside import JUNOS

    driver = napalm.get_network_driver("junos")(**verify_lab.lab["core1"].napalm())
    driver.open()
    try:
        rpc = driver.device.rpc
        ours = {"instance": rpc.get_instance_information(),
                "detail": rpc.get_bgp_neighbor_information(instance="master"),
                "summary": rpc.get_bgp_summary_information(instance="master"),
                "lldp": rpc.get_lldp_neighbors_information(),
                "lldp-port": rpc.get_lldp_interface_neighbors(interface_device="et-0/0/0:0")}
    finally:
        driver.close()
    bgp, lldp = JUNOS / "test_get_bgp_neighbors" / "normal", \
        JUNOS / "test_get_lldp_neighbors_detail" / "qfx5110"
    # the second BGP capture is a fabric underlay whose peers have descriptions
    underlay = JUNOS / "test_get_bgp_neighbors" / "use-send-state-pr209"
    real = {"instance": [bgp / "get-instance-information.xml"],
            "detail": [bgp / "get-bgp-neighbor-informationmaster.xml",
                       underlay / "get-bgp-neighbor-informationmaster.xml"],
            "summary": [bgp / "get-bgp-summary-informationmaster.xml"],
            "lldp": [lldp / "get-lldp-neighbors-information.xml"],
            "lldp-port": [lldp / "get-lldp-interface-neighbors.xml"]}
    for what, paths in real.items():
        replies = [etree.fromstring(p.read_bytes()) for p in paths]
        mine = ours[what]
        assert {etree.QName(mine).localname} == {r.tag for r in replies}, what
        assert len(mine), what
        for item in mine:
            allowed = {c.tag for theirs in replies for t in theirs
                       if t.tag == etree.QName(item).localname for c in t.iter()}
            got = {etree.QName(c).localname for c in item.iter()}
            assert got <= allowed, (what, got - allowed)


def test_the_api_verifies_like_the_command(verify_lab: VerifyLab):
    from netcfg import api

    result = api.verify(verify_lab.inventory, verify_lab.connect, devices=(LEAF,))
    assert result.exit_code == 0 and len(result.checks()) == 225
    assert result.findings() == [] and result.file is not None
    assert result.file.endswith("multivendor/fabric.yaml")


def test_sonic_pfc_state_and_its_faults_in_every_format(verify_lab: VerifyLab):
    """leaf-su2-r1 (SONiC; 16 server ports and 16 uplinks, all lossless on priority 3): the
    PFC watchdog watches every lossless queue, no storm, no pause, no drop over the interval
    (exit 0), and its 16 uplinks to the pod's four NX-OS spines have the planned LLDP
    neighbour and an established session (FRR's and lldpd's JSON through netcfg_sonic).
    Then a PFC storm on Ethernet0, PFC off on Ethernet8 and a lossless queue dropping on
    Ethernet16: named with device, port and rule in every format (exit 1)."""
    from netcfg import api
    from netcfg.verify import report

    from .conftest import SONIC_LEAF

    def run(fmt: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, [
            "verify", str(verify_lab.inventory), "--device", SONIC_LEAF, "--connect",
            str(verify_lab.connect), "--state", str(verify_lab.state), "--format", fmt,
            "--interval", "0.01"])
        return result.exit_code, result.stdout

    code, out = run("json")
    assert code == 0, out
    [dev] = json.loads(out)["devices"]
    ok = [c["rule"] for c in dev["checks"] if c["ok"]]
    for rule in ("VFY010", "VFY011", "VFY012", "VFY013", "VFY004", "VFY005", "VFY006"):
        assert ok.count(rule) == 32, rule
    assert [c for c in dev["checks"] if not c["ok"]] == []
    for rule in ("VFY002", "VFY007", "VFY008", "VFY009"):
        assert ok.count(rule) == 16, rule
    # VFY024: every lossless port's PG profile programmed with at least the derived xoff;
    # an uplink's (40 m) is the SKU's pg_profile_lookup.ini row `400000 40m 18796 0 612140 0
    # 3556` (../shared/sonic-skus, Arista-7060X6-64PE-O128S2: size, xon, xoff, threshold,
    # xon_offset), the profile the file names and buffermgrd keeps
    assert ok.count("VFY024") == 32
    uplink = next(c["message"] for c in dev["checks"]
                  if c["rule"] == "VFY024" and c["interface"] == "Ethernet64")
    assert uplink.startswith("pg_lossless_400000_40m_profile programmed with xon 0, xoff "
                             "612140, size 18796; netcfg derives "), uplink
    assert {m for c in dev["checks"] if c["rule"] == "VFY006" for m in [c["message"]]} == \
        {"MTU 9202"}  # SONiC's PORT mtu: the 9216-byte frame less 14
    with faulted(verify_lab, ("pfc_storm", SONIC_LEAF, "Ethernet0"),
                 ("pfc_off", SONIC_LEAF, "Ethernet8"),
                 ("lossless_drops", SONIC_LEAF, "Ethernet16")):
        # one reading (the command's formats are the report's: test_state_faults_... runs
        # each through the command line)
        result = api.verify(verify_lab.inventory, verify_lab.connect, devices=(SONIC_LEAF,),
                            interval=0.01)
    assert result.exit_code == 1
    outputs = {fmt: (1, report.render(result, fmt, lambda t, _c: t))
               for fmt in ("json", "text", "sarif", "junit", "github")}
    found = {(f["rule"], f["interface"]): f for f in json.loads(outputs["json"][1])["findings"]}
    errors = {("VFY011", "Ethernet0"), ("VFY010", "Ethernet8"), ("VFY013", "Ethernet16")}
    assert set(found) == errors | {("VFY012", "Ethernet0")}
    assert found[("VFY012", "Ethernet0")]["severity"] == "warning"
    assert found[("VFY012", "Ethernet0")]["message"].startswith(
        "1000 PFC pause frame(s) received on priority 3")
    assert found[("VFY013", "Ethernet16")]["message"].startswith(
        "100 packet(s) dropped on lossless queue 3")
    text = outputs["text"][1]
    for rule, port in errors:
        assert f"FAIL  {rule} {port}: " in text
    sarif = json.loads(outputs["sarif"][1])
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    named = {(r["ruleId"], r["locations"][0].get("logicalLocations", [{}])[0].get(
        "fullyQualifiedName")) for r in sarif["runs"][0]["results"] if r["level"] == "error"}
    assert named == {(r, f"{SONIC_LEAF}:{p}") for r, p in errors}
    root = ET.fromstring(outputs["junit"][1])
    _xsd_valid(root)
    assert {c.get("name") for c in root.iter("testcase") if c.find("failure") is not None} \
        == {f"{r} {SONIC_LEAF}:{p}" for r, p in errors}
    github = outputs["github"][1]
    for rule, port in errors:
        assert f"title={rule}::{SONIC_LEAF}:{port}: " in github


def test_eos_pfc_queue_and_ecn_state_and_its_faults(verify_lab: VerifyLab):
    """leaf-su1-r1 (EOS; 32 ports lossless on priority 3, ECN on queue 3) over an interval:
    no pause frame, no lossless drop, ECN configured on every port (exit 0); the watchdog is
    not verifiable on EOS and the report says so. Then a PFC storm on Ethernet9/1 (1,000
    frames on its one lossless priority between the two readings) and lossless drops on
    Ethernet1/1 (100 on queue 3): named with rule and port."""
    from netcfg import api

    code, out = _verify(verify_lab, "json", "--interval", "0.01")
    assert code == 0, out
    [dev] = json.loads(out)["devices"]
    ok = [c["rule"] for c in dev["checks"] if c["ok"]]
    for rule in ("VFY012", "VFY013", "VFY021"):
        assert ok.count(rule) == 32, rule
    assert "VFY010" not in ok and "VFY011" not in ok
    assert [n for n in dev["not_checked"] if n.startswith("VFY010, VFY011: not verifiable "
                                                          "on eos")], dev["not_checked"]
    with faulted(verify_lab, ("pfc_storm", LEAF, "Ethernet9/1"),
                 ("lossless_drops", LEAF, "Ethernet1/1")):
        result = api.verify(verify_lab.inventory, verify_lab.connect, devices=(LEAF,),
                            interval=0.01)
    assert result.exit_code == 1
    found = {(c.rule, c.interface): c for c in result.failed()}
    assert set(found) == {("VFY012", "Ethernet9/1"), ("VFY013", "Ethernet1/1")}
    assert found[("VFY012", "Ethernet9/1")].severity == "warning"
    assert found[("VFY012", "Ethernet9/1")].message == (
        "1000 PFC pause frame(s) received on the port (all priorities) in 0.01 s "
        "(more than 0)")
    assert found[("VFY013", "Ethernet1/1")].message == \
        "100 packet(s) dropped on lossless queue 3 in 0.01 s"


def _like(ours: object, theirs: object, where: str, named: tuple[str, ...]) -> None:
    """Field by field: at a level whose keys are names (ports, classes, queues: `named`,
    by path) each of ours has the shape of the capture's first; elsewhere the same keys and
    value types."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours, where
        if where in named:
            first = next(iter(theirs.values()))
            for v in ours.values():
                _like(v, first, f"{where}.*", named)
            return
        assert set(ours) == set(theirs), (where, set(ours) ^ set(theirs))
        for k in ours:
            _like(ours[k], theirs[k], f"{where}.{k}", named)
    else:
        assert type(ours) is type(theirs), (where, ours, theirs)


def test_lab_eos_pfc_output_has_the_shape_of_anta_captures(verify_lab: VerifyLab):
    from netcfg.vendors.eos import pfcstate as eos

    from .test_outside_pfc import ANTA

    driver = napalm.get_network_driver("eos")(**verify_lab.lab[LEAF].napalm())
    driver.open()
    try:
        got = driver.cli(list(eos.COMMANDS), encoding="json")
    finally:
        driver.close()
    pairs = [(eos.PFC_COUNTERS, "show_priority-flow-control_counters.json",
              (".interfaceCounters",)),
             (eos.QUEUE_DROPS, "show_interfaces_counters_queue_detail.json",
              (".egressQueueCounters.interfaces",
               ".egressQueueCounters.interfaces.*.ucastQueues.trafficClasses",
               ".egressQueueCounters.interfaces.*.mcastQueues.trafficClasses")),
             (eos.ECN_COUNTERS, "show_qos_interfaces_ecn_counters_queue.json",
              (".intfQueueCounters", ".intfQueueCounters.*.queueCounters"))]
    for command, name, named in pairs:
        _like(got[str(command)], json.loads((ANTA / name).read_text()), "", named)
    ecn = got[str(eos.ECN_COUNTERS)]["intfQueueCounters"]["Ethernet9/1"]["queueCounters"]
    # the rendered uplink marks ECN on uc-tx-queue 3 only
    assert ecn == {"0": "-", "1": "-", "2": "-", "3": "0", "4": "-", "5": "-", "6": "-",
                   "7": "-"}


def test_junos_queue_drops_and_a_lossless_queue_dropping(verify_lab: VerifyLab):
    """core1 (Junos; 16 ports lossless on priority and queue 3) over an interval: no drop on
    any lossless queue (`show interfaces queue`, the text a real Junos prints); then
    et-0/0/0:0 tail-drops 100 packets on queue 3 between the readings: VFY013 names it. The
    watchdog, pause frames and ECN are not verifiable on Junos and the report says so."""
    from netcfg import api

    def run() -> api.VerifyResult:
        return api.verify(verify_lab.inventory, verify_lab.connect, devices=("core1",),
                          interval=0.01)

    result = run()
    assert result.exit_code == 0, [c.message for c in result.failed()]
    [dev] = result.devices
    drops = [c for c in dev.checks if c.rule == "VFY013"]
    assert len(drops) == 16 and all(c.ok for c in drops)
    assert [n for n in dev.not_checked
            if n.startswith("VFY010, VFY011, VFY012, VFY021: not verifiable on junos")]
    with faulted(verify_lab, ("lossless_drops", "core1", "et-0/0/0:0")):
        result = run()
    assert [(c.rule, c.interface, c.message) for c in result.failed()] == [
        ("VFY013", "et-0/0/0:0", "100 packet(s) dropped on lossless queue 3 in 0.01 s")]


def test_lab_junos_queue_blocks_are_a_real_junos_s(verify_lab: VerifyLab):
    """The lab's queue block, line by line, is the one a real Junos prints (genieparser's
    capture, queue 1, all zero; the capture is indented 8 spaces by its test file)."""
    from netcfg.lab.junos.queues import queue_block
    from netcfg.vendors.junos import pfcstate as junos

    from .test_outside_pfc import GENIE

    real = (GENIE / "junos_show_interfaces_queue.txt").read_text().splitlines()
    start = real.index("        Queue: 1, Forwarding classes: Platinum-FC")
    block = [line[8:] for line in real[start:start + 18]]
    assert queue_block(1, "Platinum-FC") == block
    driver = napalm.get_network_driver("junos")(**verify_lab.lab["core1"].napalm())
    driver.open()
    try:
        text = driver.cli([junos.COMMAND])[junos.COMMAND]
    finally:
        driver.close()
    assert "\n".join(queue_block(3, "roce")) in text
    got = junos.queue_drops(text)
    assert len(got) == 16 and {tuple(q) for q in got.values()} == {(0, 3, 6, 7)}


def test_a_port_s_lldp_is_its_row_of_the_whole_table(verify_lab: VerifyLab):
    """NAPALM's Junos driver asks LLDP a port at a time: the lab answers that port's row
    alone (not the whole table for each port), the row the whole table has."""
    from .conftest import CORE

    w = verify_lab.wiring

    def rows() -> tuple[dict, dict, dict]:
        table = w.lldp(CORE)
        return table, {p: w.lldp(CORE, p) for p in table}, w.lldp(CORE, "et-9/9/9")

    table, each, unknown = verify_lab.lab.call(rows)
    assert table and unknown == {}
    assert all(each[p] == {p: table[p]} for p in table)


def test_sonic_facts_are_kept_while_the_config_is_the_same(verify_lab: VerifyLab):
    """The lab keeps a SONiC switch's config facts across answers while the CONFIG_DB tables
    they come from are equal to a copy of them, and reads them again once they differ -- an
    edit in place too (`config load` merges fields into the running tables)."""
    from netcfg.lab.sonic.oper import facts

    from .conftest import SONIC_LEAF

    w = verify_lab.wiring

    def probe() -> tuple[bool, bool, bool, bool, bool]:
        emu = w.emulators[SONIC_LEAF]
        first, again = w.facts(SONIC_LEAF), w.facts(SONIC_LEAF)
        port = emu.running["PORT"]["Ethernet0"]
        before = port["admin_status"]
        port["admin_status"] = "down"
        try:
            edited = w.facts(SONIC_LEAF)
        finally:
            port["admin_status"] = before
        back = w.facts(SONIC_LEAF)
        assert first is not None and edited is not None and back is not None
        return (first is again, first == facts(emu), edited.ports["Ethernet0"].shutdown,
                back.ports["Ethernet0"].shutdown, back == first)

    kept, fresh, down, up_again, same = verify_lab.lab.call(probe)
    assert kept and fresh and same
    assert down and not up_again
