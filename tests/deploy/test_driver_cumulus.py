"""netcfg's Cumulus NVUE driver as plain NAPALM code uses it: found by name, optional_args,
host-key checking, the device-local paths a replace must keep."""

from __future__ import annotations

import napalm
import pytest
from napalm.base.exceptions import CommitConfirmException, CommitError, ConnectionException

from netcfg.lab import DeviceSpec
from netcfg.vendors.cumulus.driver import CumulusDriver


def test_found_by_platform_name():
    assert napalm.get_network_driver("netcfg_cumulus") is CumulusDriver


def test_optional_args_to_netmiko(tmp_path):
    kh = tmp_path / "known_hosts"
    drv = CumulusDriver("sw1", "u", "p", optional_args={"known_hosts": str(kh), "port": 2222,
                                                         "conn_timeout": 7, "unknown": 1})
    args = drv.netmiko_optional_args
    assert args["ssh_strict"] is True and args["alt_host_keys"] is True
    assert args["alt_key_file"] == str(kh) and args["port"] == 2222 and args["conn_timeout"] == 7
    assert "unknown" not in args
    default = CumulusDriver("sw1", "u", "p").netmiko_optional_args
    assert default["ssh_strict"] is True and default["system_host_keys"] is True
    assert default["port"] == 22
    loose = CumulusDriver("sw1", "u", "p", optional_args={"ssh_strict": False})
    assert loose.netmiko_optional_args["ssh_strict"] is False


def test_missing_known_hosts_file_is_an_error(tmp_path):
    drv = CumulusDriver("127.0.0.1", "u", "pw", optional_args={
        "known_hosts": str(tmp_path / "absent")})
    with pytest.raises(ConnectionException, match="does not exist"):
        drv.open()


def test_lifecycle_against_the_lab(make_lab, drivers):
    lab = make_lab(DeviceSpec("leaf9", "cumulus", password="pw-not-in-messages"))
    dev = lab["leaf9"]
    drv = drivers("netcfg_cumulus", dev)
    assert drv.is_alive() == {"is_alive": False}
    drv.open()
    assert drv.is_alive() == {"is_alive": True}
    assert drv.compare_config() == ""
    with pytest.raises(CommitError, match="no candidate"):
        drv.commit_config()
    with pytest.raises(CommitConfirmException, match="No pending commit-confirm"):
        drv.confirm_commit()
    with pytest.raises(CommitError, match="nothing to roll back"):
        drv.rollback()
    drv.load_merge_candidate(config="- set:\n    system:\n      hostname: leaf9b\n")
    drv.commit_config(revert_in=30)
    # the prompt follows the new hostname; the driver keeps working
    assert drv.get_facts()["hostname"] == "leaf9b"
    drv.close()  # the client goes away; the timer on the switch still reverts
    lab.advance(31)
    again = drivers("netcfg_cumulus", dev)
    again.open()
    assert again.get_facts()["hostname"] == "leaf9" and not again.has_pending_commit()
