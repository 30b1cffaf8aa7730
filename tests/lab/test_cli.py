"""`netcfg lab PATH` as a user runs it: a subprocess serving an inventory until interrupted."""

from __future__ import annotations

import re
import ssl
from pathlib import Path

import click
import napalm
import pytest
import yaml
from lab_fixtures import ROOT, lab_process

from netcfg.lab.cli import parse_fault


def test_serves_inventory_and_writes_devices_file(tmp_path):
    out = tmp_path / "devices.yaml"
    with lab_process(ROOT / "inventories" / "multivendor", out,
                     "--device", "leaf-su1-r[12]", "--device", "core1") as served:
        assert oct(out.stat().st_mode & 0o777) == "0o600"
        inventory = yaml.safe_load(out.read_text())
        devices = inventory["devices"]
        assert set(devices) == {"leaf-su1-r1", "leaf-su1-r2", "core1"}
        leaf = devices["leaf-su1-r1"]
        assert leaf["driver"] == "eos" and leaf["endpoints"]["https"]["proto"] == "https"
        driver = napalm.get_network_driver("eos")(
            leaf["address"], leaf["username"], leaf["password"],
            optional_args={"port": leaf["endpoints"]["https"]["port"],
                           "context": ssl.create_default_context(cafile=leaf["ca_file"])})
        driver.open()
        facts = driver.get_facts()
        assert facts["hostname"] == "leaf-su1-r1"
        assert "Ethernet1/1" in facts["interface_list"]
    assert served.returncode == 0, served.stderr
    assert "serving 3 device(s)" in served.stdout
    assert not out.exists()
    assert not Path(inventory["lab"]["trust_dir"]).exists()
    assert leaf["password"] not in served.stdout + served.stderr  # only in the 0600 file


@pytest.mark.parametrize("text, glob, kind, phase, times", [
    ("core1=commit_error", "core1", "commit_error", "commit", None),
    ("spine-*=commit_error::1", "spine-*", "commit_error", "commit", 1),
    ("leaf1=hang:load", "leaf1", "hang", "load", None),
    ("x=slow:any:3:2.5", "x", "slow", "any", 3),
])
def test_fault_option(text, glob, kind, phase, times):
    got_glob, fault = parse_fault(text)
    assert (got_glob, fault.kind.value, fault.phase, fault.times) == (glob, kind, phase, times)


def test_fault_values_reach_the_fault():
    assert parse_fault("x=slow:request::5")[1].delay == 5.0
    assert parse_fault("x=commit_error:::Error: TCAM exhausted")[1].message == \
        "Error: TCAM exhausted"  # a message may hold colons
    assert parse_fault("x=reboot_mid_commit:::30")[1].downtime == 30.0


@pytest.mark.parametrize("text, says", [
    ("core1", "GLOB=KIND"),
    ("=hang", "GLOB=KIND"),
    ("core1=", "GLOB=KIND"),
    ("core1=melt", "unknown fault kind 'melt'; allowed: auth_failure, refused"),
    ("core1=hang:later", "unknown fault phase 'later'; allowed: auth, request"),
    ("core1=hang::0", "TIMES must be a whole number above 0"),
    ("core1=hang::x", "TIMES must be a whole number above 0"),
    ("core1=hang:load:1:2", "hang takes no VALUE"),
    ("core1=slow", "slow needs its delay in seconds as VALUE"),
    ("core1=slow:::0", "VALUE must be seconds above 0"),
    ("core1=slow:::soon", "VALUE must be seconds above 0"),
])
def test_bad_fault_option_names_what_is_allowed(text, says):
    with pytest.raises(click.BadParameter, match=re.escape(says)):
        parse_fault(text)


def test_the_devices_file_stays_out_of_the_inventory_by_default(tmp_path, monkeypatch):
    """It holds the lab's passwords: by default it goes to the inventory's state directory
    (outside the inventory, like deploy runs), 0600 in a 0700 directory, and is gone after."""
    import os

    from netcfg.deploy.runs import default_state

    inventory = ROOT / "inventories" / "multivendor"
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    out = default_state(inventory) / "lab-devices.yaml"
    with lab_process(inventory, out, "--device", "core1", default_out=True,
                     env=dict(os.environ)) as served:
        assert oct(out.stat().st_mode & 0o777) == "0o600"
        assert oct(out.parent.stat().st_mode & 0o777) == "0o700"
        assert not (inventory / "lab-devices.yaml").exists()
    assert served.returncode == 0, served.stderr
    assert f"devices file: {out}" in served.stdout
    assert not out.exists()
