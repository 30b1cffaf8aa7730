"""netcfg's SONiC NAPALM driver: found by plain NAPALM, NAPALM's getter models, host-key
checking, connection options, and the pure helpers (patch, diff, device-local tables)."""

from __future__ import annotations

import json

import napalm
import pytest
from napalm.base import models
from napalm.base.exceptions import CommitConfirmException, CommitError, ConnectionException
from napalm.base.test.helpers import test_model as check_model

from netcfg.lab import DeviceSpec
from netcfg.vendors.sonic.driver import (
    SonicDriver,
    config_diff,
    json_patch,
    merge_into,
)


@pytest.fixture
def leaf(make_lab):
    lab = make_lab(DeviceSpec("leaf1", "sonic", password="s3cret-pw"))
    return lab, lab["leaf1"]


def test_plain_napalm_finds_the_driver():
    assert napalm.get_network_driver("netcfg_sonic") is SonicDriver


def test_getters_follow_napalm_models(leaf, drivers):
    lab, dev = leaf
    drv = drivers("netcfg_sonic", dev)
    drv.open()
    assert drv.is_alive() == {"is_alive": True}
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "leaf1" and facts["vendor"] == "SONiC"
    assert facts["os_version"].startswith("SONiC.") and facts["model"] == \
        "Mellanox-SN5600-O128"  # the built-in factory's SKU: 2 x 400G ports
    assert facts["interface_list"][:3] == ["Ethernet0", "Ethernet4", "Ethernet8"]
    lab.advance(90)
    assert 90 <= drv.get_facts()["uptime"] < 100
    interfaces = drv.get_interfaces()
    for iface in interfaces.values():
        check_model(models.InterfaceDict, iface)
    assert interfaces["Ethernet0"]["speed"] == 400000.0 and interfaces["Ethernet0"]["is_up"]
    config = drv.get_config()
    check_model(models.ConfigDict, config)
    assert json.loads(config["running"]) == json.loads(config["startup"])
    assert "bgpraw" not in json.loads(config["running"]) and config["candidate"] == ""
    assert drv.get_config("startup")["running"] == ""
    assert drv.cli(["hostname"]) == {"hostname": "leaf1"}
    drv.close()
    assert drv.is_alive() == {"is_alive": False}


def test_host_key_is_checked(leaf, drivers, tmp_path):
    lab, dev = leaf
    other = tmp_path / "known_hosts"
    port = dev.napalm()["optional_args"]["port"]
    other.write_text(f"[{dev.address}]:{port} ssh-ed25519 "
                     "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n")
    with pytest.raises(ConnectionException) as err:
        drivers("netcfg_sonic", dev, known_hosts=str(other)).open()
    assert "s3cret-pw" not in str(err.value)
    empty = tmp_path / "empty"
    empty.write_text("")
    with pytest.raises(ConnectionException, match="not found in known_hosts"):
        drivers("netcfg_sonic", dev, known_hosts=str(empty)).open()
    drivers("netcfg_sonic", dev, known_hosts=str(empty), ssh_strict=False).open()


def test_connection_arguments_reach_netmiko():
    drv = SonicDriver("192.0.2.1", "admin", "pw", optional_args={
        "port": 2222, "known_hosts": "/k", "conn_timeout": 7, "not_a_netmiko_arg": 1})
    args = drv.netmiko_optional_args
    assert args["port"] == 2222 and args["ssh_strict"] is True and args["conn_timeout"] == 7
    assert args["alt_host_keys"] is True and args["alt_key_file"] == "/k"
    assert args["system_host_keys"] is False and "not_a_netmiko_arg" not in args
    default = SonicDriver("192.0.2.1", "admin", "pw").netmiko_optional_args
    assert default["ssh_strict"] is True and default["system_host_keys"] is True
    assert default["port"] == 22


def test_commit_without_candidate_and_bad_revert(leaf, drivers):
    lab, dev = leaf
    drv = drivers("netcfg_sonic", dev)
    drv.open()
    with pytest.raises(CommitError, match="load a candidate"):
        drv.commit_config()
    drv.load_merge_candidate(config=json.dumps({"PORT": {"Ethernet0": {"description": "x"}}}))
    with pytest.raises(CommitConfirmException):
        drv.commit_config(revert_in=-5)
    with pytest.raises(CommitError, match="nothing to roll back"):
        drv.rollback()


def test_second_commit_while_pending_is_refused(leaf, drivers):
    lab, dev = leaf
    drv = drivers("netcfg_sonic", dev)
    drv.open()
    drv.load_merge_candidate(config=json.dumps({"PORT": {"Ethernet0": {"description": "a"}}}))
    drv.commit_config(revert_in=60)
    drv.load_merge_candidate(config=json.dumps({"PORT": {"Ethernet0": {"description": "b"}}}))
    with pytest.raises(CommitError, match="pending confirmation"):
        drv.commit_config()
    other = drivers("netcfg_sonic", dev)  # a second client sees the pending commit too
    other.open()
    assert other.has_pending_commit()
    other.confirm_commit()
    assert not drv.has_pending_commit()


def test_revert_timer_survives_the_client(leaf, drivers):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers("netcfg_sonic", dev)
    drv.open()
    drv.load_merge_candidate(config=json.dumps({"PORT": {"Ethernet0": {"description": "gone"}}}))
    drv.commit_config(revert_in=30)
    drv.close()  # the client goes away; the switch still reverts
    lab.advance(31)
    assert dev.running_config() == before


def test_json_patch_and_diff_helpers():
    old = {"PORT": {"Ethernet0": {"mtu": "9100", "alias": "etp1"}, "Ethernet4": {"mtu": "9100"}},
           "OLD": {"x": {}}}
    new = {"PORT": {"Ethernet0": {"mtu": "9194", "description": "a/b"},
                    "Ethernet8": {"mtu": "9100"}}, "NEW": {"k": {"f": "v"}}}
    patch = json_patch(old, new)
    assert {"op": "remove", "path": "/OLD"} in patch
    assert {"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "9194"} in patch
    assert {"op": "remove", "path": "/PORT/Ethernet0/alias"} in patch
    assert {"op": "remove", "path": "/PORT/Ethernet4"} in patch
    assert config_diff(old, new).splitlines() == [
        "+ NEW|k|f: v", "- OLD|x",
        "- PORT|Ethernet0|alias: etp1", "+ PORT|Ethernet0|description: a/b",
        "~ PORT|Ethernet0|mtu: 9100 -> 9194", "- PORT|Ethernet4|mtu: 9100",
        "+ PORT|Ethernet8|mtu: 9100"]
    assert config_diff(new, new) == ""
    assert merge_into(old, {"PORT": {"Ethernet0": {"mtu": "1"}}})["PORT"]["Ethernet0"] == \
        {"mtu": "1", "alias": "etp1"}


