"""NX-OS emulator through the real NAPALM `nxos` driver: NX-API over HTTPS with the lab's CA
trusted, and netmiko SSH + SCP (host key checked) for the replace candidate upload."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import requests
from napalm.base import models
from napalm.base.exceptions import ConnectionException, MergeConfigException
from napalm.base.test.helpers import test_model as check_model
from napalm.nxapi_plumbing import NXAPICommandError, NXAPIConnectionError
from netmiko import ConnectHandler

from netcfg.lab import DeviceSpec

ROOT = Path(__file__).resolve().parents[2]

SPINE = """\
hostname nx1
feature nxapi
feature scp-server
feature bgp
feature lldp
system jumbomtu 9216
class-map type qos match-any ROCE
  match dscp 26
policy-map type qos CLASSIFY
  class ROCE
    set qos-group 3
policy-map type network-qos NQ
  class type network-qos c-8q-nq3
    mtu 9216
    pause pfc-cos 3
system qos
  service-policy type network-qos NQ
vrf context management
interface Ethernet1/1
  description to leaf1
  mtu 9216
  no switchport
  ip address 10.0.0.0/31
  service-policy type qos input CLASSIFY
  priority-flow-control mode on
interface mgmt0
  vrf member management
router bgp 65100
  router-id 10.1.1.1
  address-family ipv4 unicast
    maximum-paths 64
  neighbor 10.0.0.1
    remote-as 65001
    address-family ipv4 unicast
"""


@pytest.fixture
def spine(make_lab):
    lab = make_lab(DeviceSpec("nx1", "nxos"))
    return lab, lab["nx1"]


def _opened(drivers, dev, **kwargs):
    drv = drivers("nxos", dev, **kwargs)
    drv.open()
    return drv


def _nxapi(drv, command: str) -> str:
    """A raw CLI command over NX-API (cli_ascii), as netcfg's deploy layer sends them."""
    return drv.device.show(command, raw_text=True)


def test_facts_config_and_interfaces_over_verified_tls(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "nx1" and facts["vendor"] == "Cisco"
    assert facts["os_version"] == "10.3(4a)" and facts["serial_number"]
    assert "Ethernet1/1" in facts["interface_list"] and "mgmt0" in facts["interface_list"]
    for iface in drv.get_interfaces().values():
        check_model(models.InterfaceDict, iface)
    config = drv.get_config()
    assert "hostname nx1" in config["running"] and "!Command" not in config["running"]
    assert "feature nxapi" in config["startup"]


def test_untrusted_certificate_is_refused(spine, drivers):
    lab, dev = spine
    drv = drivers("nxos", dev, ssl_verify=True)  # system CAs only: the lab CA is unknown
    with pytest.raises(ConnectionException):
        drv.open()


def test_replace_diff_commit_idempotent(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE)
    diff = drv.compare_config()
    assert "router bgp 65100" in diff and "  description to leaf1" in diff
    assert "hostname nx1" not in diff  # unchanged lines are not in a rollback patch
    drv.commit_config()
    running = dev.running_config()
    assert "interface Ethernet1/1\n  description to leaf1\n  mtu 9216" in running
    assert "  neighbor 10.0.0.1\n    remote-as 65001" in running
    assert "router bgp 65100" in dev.startup_config()  # napalm saved it
    drv.load_replace_candidate(config=SPINE)
    assert drv.compare_config() == ""
    # a replace removes what the candidate does not have, as `no` lines in the patch
    drv.load_replace_candidate(config=SPINE.replace("feature lldp\n", "")
                               .replace("  description to leaf1\n", ""))
    diff = drv.compare_config()
    assert "no feature lldp" in diff and "  no description to leaf1" in diff
    drv.commit_config()
    assert "description to leaf1" not in dev.running_config()


def test_merge_diff_commit_and_discard(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_merge_candidate(config="interface Ethernet1/2\n  description merged\n  mtu 9216\n")
    assert "description merged" in drv.compare_config()
    drv.commit_config()
    assert "interface Ethernet1/2\n  description merged\n  mtu 9216" in dev.running_config()
    drv.load_merge_candidate(config="interface Ethernet1/3\n  description discarded\n")
    drv.discard_config()
    assert drv.compare_config() == ""
    assert "discarded" not in dev.running_config()


def test_rollback_restores_previous_commit(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE)
    drv.commit_config()
    drv.load_merge_candidate(config="interface Ethernet1/1\n  description changed\n")
    drv.commit_config()
    assert "description changed" in dev.running_config()
    drv.rollback()
    running = dev.running_config()
    assert "description to leaf1" in running and "description changed" not in running
    assert "description to leaf1" in dev.startup_config()


@pytest.mark.parametrize("typo", [
    "interface Ethernet1/1\n  descriptin typo\n",        # unknown keyword
    "interface Ethernet1/1\n  mtu 99999\n",              # out of range
    "router bgp 65001\n  router-id 1.1.1.1\n",           # feature bgp is off
    "interface Ethernet1/1\n  set qos-group 3\n",        # valid only in a policy-map class
])
def test_typo_or_misplaced_line_rejected_on_merge(spine, drivers, typo):
    lab, dev = spine
    before = dev.running_config().split("!Time:")[1].split("\n", 1)[1]
    drv = _opened(drivers, dev)
    drv.load_merge_candidate(config=typo)
    with pytest.raises(MergeConfigException, match="Invalid command"):
        drv.commit_config()
    # napalm rolled back to its checkpoint: nothing of the merge stays
    assert dev.running_config().split("!Time:")[1].split("\n", 1)[1] == before


def test_typo_rejected_on_replace_atomically(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE.replace("  mtu 9216\n  no switchport",
                                                    "  mtu 9216\n  no switchprt"))
    assert "no switchprt" in drv.compare_config()  # a patch is text; the device has not run it
    with pytest.raises(NXAPICommandError, match="Rollback failed"):
        drv.commit_config()
    assert "router bgp" not in dev.running_config()


def test_cli_errors_as_nxos_prints_them(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    with pytest.raises(NXAPICommandError) as err:
        drv.device.config_list(["interface Ethernet1/1", "bogus words"])
    assert err.value.message == "% Invalid command at '^' marker.\n"
    with pytest.raises(NXAPICommandError, match="Invalid command"):
        _nxapi(drv, "show bogus")
    # a `;`-joined command in one JSON-RPC call runs in one configuration context
    drv.device.config("interface Ethernet1/4 ; description joined")
    assert "interface Ethernet1/4\n  description joined" in dev.running_config()


def _replace_with_timeout(drv, seconds: int) -> str:
    drv.load_replace_candidate(config=SPINE)
    return _nxapi(drv, f"configure replace bootflash:candidate_config.txt commit-timeout {seconds}")


def test_configure_replace_commit_timeout_reverts_on_the_lab_clock(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    out = _replace_with_timeout(drv, 120)
    assert "completed successfully" in out
    assert "router bgp 65100" in dev.running_config()
    assert "pending commit" in _nxapi(drv, "show config-replace status")
    with pytest.raises(NXAPICommandError, match="pending"):
        _nxapi(drv, "configure replace bootflash:candidate_config.txt")
    lab.advance(119)
    assert "router bgp 65100" in dev.running_config()
    lab.advance(2)
    assert "router bgp" not in dev.running_config()
    assert "no operation pending" in _nxapi(drv, "show config-replace status")
    with pytest.raises(NXAPICommandError, match="no configure replace"):
        _nxapi(drv, "configure replace commit")


def test_configure_replace_committed_survives_expiry(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    _replace_with_timeout(drv, 60)
    _nxapi(drv, "configure replace commit")
    lab.advance(600)
    assert "router bgp 65100" in dev.running_config()
    with pytest.raises(NXAPICommandError):
        _nxapi(drv, "configure replace bootflash:candidate_config.txt commit-timeout 10")


def test_named_checkpoints_diff_and_rollback(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    _nxapi(drv, "checkpoint before description baseline")
    drv.device.config_list(["interface Ethernet1/1", "description after"])
    diff = _nxapi(drv, "show diff rollback-patch checkpoint before running-config")
    head = ["Collecting Running-Config", "#Generating Rollback Patch", "!!"]
    assert diff.splitlines()[:3] == head
    assert "interface Ethernet1/1\n  description after" in diff
    summary = _nxapi(drv, "show checkpoint summary")
    assert "1) before:" in summary and "Description: baseline" in summary
    with pytest.raises(NXAPICommandError, match="already exists"):
        _nxapi(drv, "checkpoint before")
    assert "completed successfully" in _nxapi(drv, "rollback running-config checkpoint before")
    assert "description after" not in dev.running_config()
    assert "Rollback Patch is Empty" in _nxapi(
        drv, "show diff rollback-patch checkpoint before running-config")
    _nxapi(drv, "no checkpoint before")
    assert "before" not in _nxapi(drv, "show checkpoint summary")


def test_ssh_cli_for_netmiko(spine):
    lab, dev = spine
    kwargs = dev.napalm()["optional_args"]
    conn = ConnectHandler(device_type="cisco_nxos", host=dev.address, port=dev.port("ssh"),
                          username=dev.username, password=dev.password, ssh_strict=True,
                          system_host_keys=False, alt_host_keys=True,
                          alt_key_file=kwargs["alt_key_file"])
    try:
        assert conn.find_prompt() == "nx1#"
        out = conn.send_command("interface Ethernet1/1")
        assert "% Invalid command at '^' marker." in out  # exec mode needs `configure terminal`
        out = conn.send_config_set(["interface Ethernet1/5", "description over ssh", "mtu 9216"])
        assert "nx1(config-if)#" in out and "Invalid" not in out
        out = conn.send_config_set(["interface Ethernet1/5", "speed fast"])
        assert "^\n% Invalid command at '^' marker." in out.replace("\r", "")
        assert "interface Ethernet1/5\n  description over ssh\n  mtu 9216" in dev.running_config()
        conn.send_command("checkpoint file bootflash:cp1")
        assert "cp1" in conn.send_command("dir bootflash:")
        assert "Copy complete." in conn.save_config()
        assert "description over ssh" in dev.startup_config()
    finally:
        conn.disconnect()


def test_nxos_ssh_driver_facts_replace_and_typo(spine, drivers):
    lab, dev = spine
    drv = drivers("nxos_ssh", dev, port=dev.port("ssh"))  # CLI only, over the SSH port
    drv.open()
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "nx1" and facts["os_version"] == "10.3(4a)"
    assert "Ethernet1/1" in facts["interface_list"] and facts["serial_number"]
    drv.load_replace_candidate(config=SPINE)
    assert "router bgp 65100" in drv.compare_config()
    drv.commit_config()
    assert "router bgp 65100" in dev.running_config()
    drv.load_merge_candidate(config="interface Ethernet1/2\n  descriptin typo\n")
    with pytest.raises(MergeConfigException):
        drv.commit_config()
    assert "typo" not in dev.running_config()


# --- faults ---------------------------------------------------------------------------------


def test_auth_failure(spine, drivers):
    lab, dev = spine
    dev.inject("auth_failure")
    with pytest.raises(ConnectionException):
        drivers("nxos", dev).open()


def test_refused_then_back(spine, drivers):
    lab, dev = spine
    dev.inject("refused")
    lab.advance(0)
    with pytest.raises(ConnectionException):
        drivers("nxos", dev).open()
    dev.clear_faults()
    _opened(drivers, dev)


@pytest.mark.parametrize("kind", ["slow", "hang"])
def test_slow_or_hung_device_times_out(spine, drivers, kind):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.device.api.timeout = 1
    dev.inject(kind, delay=3.0)
    with pytest.raises(requests.exceptions.ReadTimeout):
        drv.get_facts()
    dev.clear_faults()


@pytest.mark.parametrize("kind, applied", [("drop_before_apply", False),
                                           ("drop_after_apply", True)])
def test_connection_dropped_during_replace_commit(spine, drivers, kind, applied):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE)
    dev.inject(kind, times=1)
    # napalm only tolerates requests' ConnectionError here; NX-API's wrapper is not caught
    with pytest.raises(NXAPIConnectionError):
        drv.commit_config()
    assert ("router bgp 65100" in dev.running_config()) is applied
    assert "router bgp" not in dev.startup_config()  # the save never ran


def test_drop_after_apply_on_merge_is_rolled_back_by_napalm(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_merge_candidate(config="interface Ethernet1/2\n  description dropped\n")
    dev.inject("drop_after_apply", times=1)
    with pytest.raises(MergeConfigException, match="automatic rollback"):
        drv.commit_config()
    assert "description dropped" not in dev.running_config()


def test_commit_error_keeps_running(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE)
    dev.inject("commit_error", message="% TCAM region is not configured", times=1)
    with pytest.raises(NXAPICommandError, match="TCAM region"):
        drv.commit_config()
    assert "router bgp" not in dev.running_config()
    drv.load_merge_candidate(config="interface Ethernet1/2\n  description x\n")
    dev.inject("commit_error", message="% TCAM region is not configured", times=1)
    with pytest.raises(MergeConfigException, match="TCAM region"):
        drv.commit_config()
    assert "description x" not in dev.running_config()


def test_lock_held_blocks_checkpoint_and_commit(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE)
    dev.inject("lock_held")
    with pytest.raises(NXAPICommandError, match="in progress"):
        drv.commit_config()
    dev.clear_faults()
    drv.commit_config()
    assert "router bgp 65100" in dev.running_config()


def test_stale_session_leaves_files_and_a_pending_replace(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    dev.inject("stale_session")
    assert "candidate_config.txt" in _nxapi(drv, "dir bootflash:")
    assert "pending commit" in _nxapi(drv, "show config-replace status")
    # napalm's upload replaces the stale candidate (md5 differs) and its replace commits
    drv.load_replace_candidate(config=SPINE)
    assert "hostname stale" not in drv.compare_config()
    drv.commit_config()
    assert "router bgp 65100" in dev.running_config()
    # ...until the dead client's commit timer fires and restores what was running before it
    lab.advance(600)
    assert "router bgp" not in dev.running_config()


def test_reboot_mid_commit_loses_unsaved_change(spine, drivers):
    lab, dev = spine
    drv = _opened(drivers, dev)
    drv.load_merge_candidate(config="interface Ethernet1/2\n  description unsaved\n")
    dev.inject("reboot_mid_commit", downtime=90, times=1)
    # napalm's automatic rollback after the failed merge cannot reach the rebooting device
    with pytest.raises(NXAPIConnectionError, match="refused"):
        drv.commit_config()
    lab.advance(0)  # the listeners' closing has finished
    with pytest.raises(ConnectionException):
        drivers("nxos", dev).open()
    lab.advance(90)
    drv = _opened(drivers, dev)
    assert drv.get_facts()["uptime"] < 5
    assert "description unsaved" not in dev.running_config()


# --- netcfg's own NX-OS renders ----------------------------------------------------------------


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("render")
    subprocess.run([sys.executable, "-m", "netcfg", "render", str(ROOT / "inventories/multivendor"),
                    "--out", str(out)], check=True, capture_output=True, timeout=300)
    configs = {p.stem: p.read_text() for p in sorted(out.glob("*.cfg"))}
    return {name: text for name, text in configs.items() if " Cisco " in text.splitlines()[0]}


def test_every_rendered_nxos_config_replaces_and_commits(rendered, make_lab, drivers):
    assert rendered, "the multivendor inventory has NX-OS switches"
    lab = make_lab(*(DeviceSpec(name, "nxos") for name in rendered))
    for name, text in rendered.items():
        dev = lab[name]
        drv = _opened(drivers, dev)
        drv.load_replace_candidate(config=text)
        assert "router bgp" in drv.compare_config()
        drv.commit_config()
        drv.load_replace_candidate(config=text)
        assert drv.compare_config() == "", name
        assert "router bgp" in dev.startup_config()


def test_own_addresses_are_valid_and_distinct_past_254_devices(tmp_path):
    """NX-OS needs port 22 to itself, so each device gets its own loopback address."""
    import ipaddress

    from netcfg.lab import Lab
    from netcfg.lab.registry import emulator_class

    lab, cls = Lab([], directory=tmp_path), emulator_class("nxos")
    addresses = [lab._address_for(DeviceSpec(f"s{i}", "nxos"), cls) for i in range(256 * 254)]
    assert len(set(addresses)) == len(addresses)
    assert all(ipaddress.IPv4Address(a).is_loopback for a in addresses)
    assert not any(a.endswith((".0", ".255")) for a in addresses)
    with pytest.raises(ValueError, match="at most 65024 addresses for nxos"):
        lab._address_for(DeviceSpec("one-too-many", "nxos"), cls)


SPLIT = "interface Ethernet1/3/2\n  description split\n  no switchport\n"


@pytest.mark.parametrize("breakout,accepted", [
    ("", False),  # no breakout line: Ethernet1/3/2 does not exist
    ("interface breakout module 1 port 1-4 map 400g-2x\n", True),
    ("interface breakout module 1 port 3 map 400g-1x\n", False),  # one port: no /2
    ("interface breakout module 1 port 1,5 map 400g-2x\n", False),  # not cage 3
    ("interface breakout module 1 port 3 map four-by-100\n", False),  # not Cisco's map form
])
def test_split_ports_exist_only_after_a_breakout(make_lab, drivers, breakout, accepted):
    lab = make_lab(DeviceSpec("nx1", "nxos", interfaces=["Ethernet1/1", "Ethernet1/3/1",
                                                         "Ethernet1/3/2"]))
    dev = lab["nx1"]
    assert "Ethernet1/3/2" not in dev.running_config()  # the factory config splits nothing
    drv = _opened(drivers, dev)
    drv.load_replace_candidate(config=SPINE + breakout + SPLIT)
    if accepted:
        drv.commit_config()
        assert "interface Ethernet1/3/2" in dev.running_config()
        assert "interface Ethernet1/3/1" in dev.running_config()
    else:
        with pytest.raises(NXAPICommandError, match="Rollback failed"):
            drv.commit_config()
        assert "Ethernet1/3/2" not in dev.running_config()


@pytest.mark.parametrize(("hashed", "accepted"), [
    ("$5$salt$" + "a" * 43, True),
    ("$6$salt$" + "a" * 86, False),  # SHA-512: longer than the 64 characters `password 5` takes
    ("Not-a-hash-1", False),  # 5 says the password is encrypted already
])
def test_an_encrypted_password_is_a_sha256_hash(make_lab, drivers, hashed, accepted):
    lab = make_lab(DeviceSpec("nx1", "nxos"))
    dev = lab["nx1"]
    drv = _opened(drivers, dev)
    line = f"username ops password 5 {hashed} role network-operator"
    drv.load_replace_candidate(config=SPINE + line + "\n")
    if accepted:
        drv.commit_config()
        assert line in dev.running_config()
    else:
        with pytest.raises(NXAPICommandError, match="Rollback failed"):
            drv.commit_config()
        assert "username ops" not in dev.running_config()
