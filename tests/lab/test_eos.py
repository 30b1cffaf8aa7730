"""EOS emulator through the real NAPALM `eos` driver over HTTPS with the lab's CA trusted."""

from __future__ import annotations

import time

import pytest
import requests
from napalm.base import models
from napalm.base.exceptions import (
    CommitError,
    ReplaceConfigException,
    SessionLockedException,
)
from napalm.base.test.helpers import test_model as check_model
from pyeapi.eapilib import CommandError
from pyeapi.eapilib import ConnectionError as EapiConnectionError

from netcfg.lab import DeviceSpec

LEAF = """\
hostname leaf1
username admin privilege 15 role network-admin secret sha512 $6$x$yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy
interface Ethernet1/1
   description to spine1
   mtu 9214
   no switchport
   ip address 10.0.0.1/31
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   qos trust dscp
   uc-tx-queue 3
      no priority
      bandwidth percent 50
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100
   uc-tx-queue 6
      priority strict
router bgp 65001
   router-id 10.1.1.1
   maximum-paths 64 ecmp 64
   neighbor 10.0.0.0 remote-as 65100
   address-family ipv4
      neighbor 10.0.0.0 activate
qos map dscp 26 to traffic-class 3
qos map dscp 48 to traffic-class 6
priority-flow-control pause watchdog default timeout 0.2
priority-flow-control pause watchdog action drop
lldp run
management api http-commands
   no shutdown
"""


@pytest.fixture
def leaf(make_lab):
    lab = make_lab(DeviceSpec("leaf1", "eos"))
    return lab, lab["leaf1"]


def test_facts_config_and_interfaces_over_verified_tls(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "leaf1" and facts["vendor"] == "Arista"
    assert 0 <= facts["uptime"] < 60
    assert "Ethernet1/1" in facts["interface_list"]
    for iface in drv.get_interfaces().values():
        check_model(models.InterfaceDict, iface)
    config = drv.get_config()
    assert "hostname leaf1" in config["running"] and config["candidate"] == ""


def test_replace_diff_commit_idempotent(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_replace_candidate(config=LEAF)
    diff = drv.compare_config()
    assert "+   mtu 9214" in diff and "+router bgp 65001" in diff
    assert "+management api" not in diff and "-management api" not in diff  # unchanged
    drv.commit_config()
    running = dev.running_config()
    assert "      random-detect ecn minimum-threshold 150 kbytes" in running
    assert dev.startup_config() == running  # commit writes memory
    drv.load_replace_candidate(config=LEAF)
    assert drv.compare_config() == ""
    drv.discard_config()


def test_merge_then_discard_leaves_running_untouched(leaf, drivers):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet2/1\n description merged\n")
    assert "+   description merged" in drv.compare_config()
    assert "description merged" in dev.candidate_config()
    drv.discard_config()
    assert dev.candidate_config() is None
    assert dev.running_config() == before


def test_commit_timer_reverts_unless_confirmed(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description temporary\n")
    drv.commit_config(revert_in=300)
    assert "description temporary" in dev.running_config()
    assert drv.has_pending_commit()
    lab.advance(299)
    assert drv.has_pending_commit()
    lab.advance(2)
    assert not drv.has_pending_commit()
    assert "description temporary" not in dev.running_config()
    with pytest.raises(CommitError):
        drv.confirm_commit()


def test_commit_timer_confirmed_survives_expiry(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description kept\n")
    drv.commit_config(revert_in=60)
    drv.confirm_commit()
    assert not drv.has_pending_commit()
    lab.advance(3600)
    assert "description kept" in dev.running_config()
    assert "description kept" in dev.startup_config()


def test_new_sessions_json_shape_from_432(make_lab, drivers):
    lab = make_lab(DeviceSpec("leaf2", "eos", version="4.32.1F"))
    dev = lab["leaf2"]
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description t\n")
    drv.commit_config(revert_in=120)
    raw = drv.device.run_commands(["show configuration sessions detail"])[0]
    assert raw["commitTimerSessionName"] == drv.config_session
    assert drv.has_pending_commit()
    drv.rollback()  # aborts the pending session
    assert not drv.has_pending_commit()
    assert "description t" not in dev.running_config()


def test_rollback_restores_previous_commit(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description first\n")
    drv.commit_config()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description second\n")
    drv.commit_config()
    drv.rollback()
    assert "description first" in dev.running_config()
    assert "description second" not in dev.running_config()


@pytest.mark.parametrize("typo, token", [
    ("interface Ethernet1/1\n mtuu 9214\n", "at token 0: 'mtuu'"),
    ("router bgp 65001\n neighbor 10.0.0.0 remote-as\n", "Incomplete command"),
    ("maximum-paths 64\n", "at token 0: 'maximum-paths'"),  # only valid under router bgp
    ("interface Ethernet1/1\n priority-flow-control priority 9 no-drop\n", "at token 2: '9'"),
    # no public EOS text has a `protocol` field keyword for `fields ip`
    ("ip load-sharing trident fields ip source-ip protocol\n", "at token 6: 'protocol'"),
    # `secret sha512` takes a SHA-512 crypt hash (AVD's sha512_password): not a SHA-256 one
    ("username ops secret sha512 $5$salt$" + "a" * 43 + "\n", r"at token 4: '\$5\$salt\$"),
])
def test_typo_or_misplaced_line_rejected(leaf, drivers, typo, token):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers("eos", dev)
    drv.open()
    with pytest.raises(ReplaceConfigException, match=token):
        drv.load_replace_candidate(config=typo)
    assert dev.candidate_config() is None  # napalm aborted the session
    assert dev.running_config() == before


def test_auth_failure(leaf, drivers):
    lab, dev = leaf
    dev.inject("auth_failure")
    with pytest.raises(EapiConnectionError, match="Unauthorized"):
        drivers("eos", dev).open()


def test_refused_then_back(leaf, drivers):
    lab, dev = leaf
    dev.inject("refused")
    with pytest.raises(EapiConnectionError, match="refused"):
        drivers("eos", dev).open()
    dev.clear_faults()
    drivers("eos", dev).open()


@pytest.mark.parametrize("kind", ["slow", "hang"])
def test_slow_or_hung_device_times_out(leaf, drivers, kind):
    lab, dev = leaf
    dev.inject(kind, delay=3.0)
    start = time.monotonic()
    with pytest.raises(EapiConnectionError, match="timed out"):
        drivers("eos", dev, timeout=1).open()
    assert time.monotonic() - start < 2.5


@pytest.mark.parametrize("kind, applied", [("drop_before_apply", False),
                                           ("drop_after_apply", True)])
def test_connection_dropped_during_commit(leaf, drivers, kind, applied):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description dropped\n")
    dev.inject(kind)
    with pytest.raises(EapiConnectionError, match="closed connection"):
        drv.commit_config()
    assert ("description dropped" in dev.running_config()) is applied


def test_commit_error_keeps_running(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description rejected\n")
    dev.inject("commit_error", message="Error: TCAM resources exhausted")
    with pytest.raises(CommandError, match="TCAM resources exhausted"):
        drv.commit_config()
    assert "description rejected" not in dev.running_config()


def test_stale_session_blocks_then_cleanup(leaf, drivers):
    """A session orphaned by a dead client blocks NAPALM's lock check; aborting it frees it."""
    lab, dev = leaf
    dev.inject("stale_session")
    drv = drivers("eos", dev)
    drv.open()
    sessions = drv.device.run_commands(["show configuration sessions"])[0]["sessions"]
    stale = [n for n, s in sessions.items() if s["state"] == "pending"]
    assert len(stale) == 1 and stale[0].startswith("napalm_")
    drv.lock_disable = False
    with pytest.raises(SessionLockedException):
        drv._lock()  # the check load_*_candidate retries for 10 s before giving up
    drv.device.run_commands([f"configure session {stale[0]} abort"])
    drv.load_merge_candidate(config="interface Ethernet1/1\n description after cleanup\n")
    drv.commit_config()
    assert "description after cleanup" in dev.running_config()


def test_reboot_mid_commit_loses_unsaved_change(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_merge_candidate(config="interface Ethernet1/1\n description lost\n")
    dev.inject("reboot_mid_commit", downtime=90)
    with pytest.raises(EapiConnectionError):
        drv.commit_config()
    with pytest.raises(EapiConnectionError, match="refused"):
        drivers("eos", dev).open()
    lab.advance(91)
    again = drivers("eos", dev)
    again.open()
    assert again.get_facts()["uptime"] < 5
    assert "description lost" not in dev.running_config()
    assert dev.candidate_config() is None


def test_a_replace_without_the_login_locks_the_client_out(leaf, drivers):
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    drv.load_replace_candidate(config=LEAF.replace("username admin", "username other"))
    drv.commit_config()  # eAPI authenticates every request: the next one is refused
    with pytest.raises(EapiConnectionError, match="Unauthorized"):
        drv.get_facts()


def test_reboot_cuts_idle_keep_alive_connections(leaf):
    """A pooled HTTP connection kept open between requests must not outlive a reboot: the
    next request on it fails instead of reaching a device that is still booting."""
    lab, dev = leaf
    kwargs = dev.napalm()
    url = f"https://{kwargs['hostname']}:{kwargs['optional_args']['port']}/command-api"
    body = {"jsonrpc": "2.0", "method": "runCmds", "id": 1,
            "params": {"version": 1, "cmds": ["show version"], "format": "json"}}
    ca = lab.inventory()["lab"]["ca_file"]
    auth = (kwargs["username"], kwargs["password"])
    with requests.Session() as session:
        def call() -> int:
            return session.post(url, json=body, auth=auth, verify=ca, timeout=10).status_code

        assert call() == 200
        dev.reboot(downtime=60)
        with pytest.raises(requests.ConnectionError):
            call()
        lab.advance(60)
        assert call() == 200


def test_documented_load_sharing_fields_are_taken(leaf, drivers):
    """The field set EOS shows (and hides as its default), as public configs give it."""
    lab, dev = leaf
    drv = drivers("eos", dev)
    drv.open()
    line = "ip load-sharing trident fields ip source-ip source-port destination-ip " \
           "destination-port ingress-interface"
    drv.load_merge_candidate(config=line + "\n")
    drv.commit_config()
    assert line in dev.running_config()


def test_aristas_own_eapi_client_finds_the_endpoint_and_runs_a_command(leaf):
    """Arista's eAPI client (asynceapi, which ANTA runs against every switch) checks the
    endpoint with a HEAD it wants answered 2xx (its docstring), then runs a command."""
    import asyncio
    import ssl

    asynceapi = pytest.importorskip("asynceapi", reason="asynceapi comes with anta (test extra)")
    lab, dev = leaf
    kwargs = dev.napalm()
    ca = lab.inventory()["lab"]["ca_file"]

    async def run() -> tuple[bool, str]:
        async with asynceapi.Device(host=kwargs["hostname"], username=kwargs["username"],
                                    password=kwargs["password"], proto="https",
                                    port=kwargs["optional_args"]["port"],
                                    verify=ssl.create_default_context(cafile=ca)) as eapi:
            found = await eapi.check_api_endpoint()
            version = await eapi.cli(command="show version")
            return found, version["modelName"]

    found, model = asyncio.run(run())
    assert found is True and model
