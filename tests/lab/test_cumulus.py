"""Cumulus NVUE emulator through netcfg's `netcfg_cumulus` NAPALM driver (netmiko over SSH)."""

from __future__ import annotations

from pathlib import Path

import napalm
import pytest
from napalm.base import models
from napalm.base.exceptions import (
    CommitError,
    ConnectionException,
    LockError,
    MergeConfigException,
    ReplaceConfigException,
)
from napalm.base.test.helpers import test_model as check_model

from netcfg.lab import DeviceSpec
from netcfg.vendors import vendor

ROOT = Path(__file__).resolve().parents[2]

MTU = "- set:\n    interface:\n      swp1:\n        link:\n          mtu: 9000\n"
DESC = "- set:\n    interface:\n      swp2:\n        description: \"to spine1\"\n"


@pytest.fixture
def leaf(make_lab):
    lab = make_lab(DeviceSpec("leaf1", "cumulus", username="cumulus", password="s3cret-pw"))
    lab.advance(30)
    return lab, lab["leaf1"]


def _driver(drivers, dev, **optional):
    drv = drivers("netcfg_cumulus", dev, **optional)
    drv.open()
    return drv


def test_facts_interfaces_config(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "leaf1" and facts["uptime"] == 30.0
    assert facts["os_version"] == "Cumulus Linux 5.15.0" and "swp1" in facts["interface_list"]
    interfaces = drv.get_interfaces()
    for iface in interfaces.values():
        check_model(models.InterfaceDict, iface)
    assert interfaces["swp1"]["speed"] == 400000.0
    config = drv.get_config()
    assert "hostname: leaf1" in config["running"] and config["running"] == config["startup"]
    assert config["candidate"] == ""
    assert drv.get_config(retrieve="startup")["running"] == ""


def test_replace_compare_commit(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    running = drv.get_config("running")["running"]
    drv.load_replace_candidate(config=vendor("cumulus").deploy.keep_device_local(running, MTU))
    diff = drv.compare_config()
    assert "mtu: 9000" in diff and "- unset:" in diff and "hostname" in diff  # replace drops it
    assert "mtu: 9000" in drv.get_config("candidate")["candidate"]
    drv.commit_config(message="mtu")
    assert "mtu: 9000" in dev.running_config() and "mtu: 9000" in dev.startup_config()
    assert "hostname" not in dev.running_config()
    assert drv.compare_config() == "" and dev.candidate_config() is None


def test_merge_discard_and_typo(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=DESC)
    assert drv.compare_config().startswith("- set:")
    drv.discard_config()
    assert drv.compare_config() == "" and dev.candidate_config() is None
    with pytest.raises(MergeConfigException, match=r"'descripton' was unexpected"):
        drv.load_merge_candidate(config=DESC.replace("description", "descripton"))
    with pytest.raises(MergeConfigException, match=r"9999 is greater than the maximum of 9216"):
        drv.load_merge_candidate(config=MTU.replace("9000", "9999"))
    with pytest.raises(ReplaceConfigException, match="is not one of"):
        drv.load_replace_candidate(config=MTU.replace("mtu: 9000", "speed: 401G"))
    out = drv.cli(["nv set interface swp3 link mtu 9100", "nv set interface swp3 lnk mtu 1",
                   "nv set interface swp3 link mtu 100", "show version"])
    assert out["nv set interface swp3 link mtu 9100"] == ""
    assert out["nv set interface swp3 lnk mtu 1"] == \
        "Error: Invalid Command: set interface swp3 lnk mtu 1"
    assert "100 is less than the minimum of 552" in out["nv set interface swp3 link mtu 100"]
    assert out["show version"] == "-bash: show: command not found"
    assert "mtu: 9100" in (dev.candidate_config() or "")
    assert "swp3" in drv.cli(["nv config diff"])["nv config diff"]
    drv.discard_config()
    assert dev.candidate_config() is None


def test_commit_with_revert_timer_reverts(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=MTU)
    drv.commit_config(revert_in=120)
    assert drv.has_pending_commit() and "mtu: 9000" in dev.running_config()
    assert "mtu: 9000" not in dev.startup_config()  # saved only once confirmed
    lab.advance(119)
    assert drv.has_pending_commit()
    lab.advance(2)
    assert not drv.has_pending_commit()
    assert "mtu: 9000" not in dev.running_config()
    assert any("confirm expired" in e.text for e in dev.log())


def test_commit_confirm_keeps(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=MTU)
    drv.commit_config(revert_in=60)
    with pytest.raises(CommitError, match="Pending commit confirm"):
        drv.load_merge_candidate(config=DESC) or drv.commit_config()
    drv.discard_config()
    drv.confirm_commit()
    assert not drv.has_pending_commit()
    lab.advance(120)
    assert "mtu: 9000" in dev.running_config() and "mtu: 9000" in dev.startup_config()


def test_rollback_after_commit_and_during_confirm(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    before = dev.running_config()
    drv.load_merge_candidate(config=MTU)
    drv.commit_config()
    drv.rollback()
    assert dev.running_config() == before
    drv.load_merge_candidate(config=DESC)
    drv.commit_config(revert_in=300)
    drv.rollback()
    assert not drv.has_pending_commit() and "to spine1" not in dev.running_config()


def test_plain_napalm_finds_the_driver():
    from netcfg.vendors.cumulus.driver import CumulusDriver
    assert napalm.get_network_driver("netcfg_cumulus") is CumulusDriver


# --- faults ---------------------------------------------------------------------------------------
def test_auth_failure_does_not_leak_the_password(leaf, drivers):
    lab, dev = leaf
    dev.inject("auth_failure")
    drv = drivers("netcfg_cumulus", dev)
    with pytest.raises(ConnectionException, match="Authentication") as info:
        drv.open()
    assert "s3cret-pw" not in str(info.value)


def test_unknown_host_key_is_refused(leaf, drivers, tmp_path):
    lab, dev = leaf
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    drv = drivers("netcfg_cumulus", dev, known_hosts=str(empty))
    with pytest.raises(ConnectionException, match="not found in known_hosts"):
        drv.open()
    drivers("netcfg_cumulus", dev, known_hosts=str(empty), ssh_strict=False).open()


def test_refused(leaf, drivers):
    lab, dev = leaf
    dev.inject("refused")
    with pytest.raises(ConnectionException):
        drivers("netcfg_cumulus", dev).open()
    dev.clear_faults()
    lab.advance(0)  # let the listener reopen
    _driver(drivers, dev)


@pytest.mark.parametrize("kind", ["slow", "hang"])
def test_slow_and_hang_time_out(leaf, drivers, kind):
    lab, dev = leaf
    drv = _driver(drivers, dev, timeout=2)
    dev.inject(kind, delay=5)
    with pytest.raises(ConnectionException, match="no answer"):
        drv.get_facts()
    dev.clear_faults()


def test_drop_before_apply(leaf, drivers):
    lab, dev = leaf
    # a long timeout: the closed session is seen when it closes, not taken for silence
    drv = _driver(drivers, dev, timeout=600)
    drv.load_merge_candidate(config=MTU)
    dev.inject("drop_before_apply", times=1)
    with pytest.raises(ConnectionException, match="connection lost"):
        drv.commit_config()
    assert "mtu: 9000" not in dev.running_config()


def test_drop_after_apply(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev, timeout=600)
    drv.load_merge_candidate(config=MTU)
    dev.inject("drop_after_apply", times=1)
    with pytest.raises(ConnectionException, match="may or may not"):
        drv.commit_config()
    assert "mtu: 9000" in dev.running_config()


def test_commit_error_carries_device_text(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=MTU)
    dev.inject("commit_error", message="switchd reload failed", times=1)
    with pytest.raises(CommitError, match="Error: switchd reload failed"):
        drv.commit_config()
    assert "mtu: 9000" not in dev.running_config()


def test_lock_held(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    dev.inject("lock_held")
    with pytest.raises(LockError, match="being applied by operator"):
        drv.load_merge_candidate(config=MTU)
    dev.clear_faults()
    drv.load_merge_candidate(config=MTU)


def test_stale_session_is_parked(leaf, drivers):
    lab, dev = leaf
    dev.inject("stale_session")
    assert "Etc/UTC" in (dev.candidate_config() or "")
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=MTU)
    diff = drv.compare_config()
    assert "mtu: 9000" in diff and "timezone" not in diff


def test_reboot_mid_commit(leaf, drivers):
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_merge_candidate(config=MTU)
    dev.inject("reboot_mid_commit", downtime=60, times=1)
    with pytest.raises(ConnectionException):
        drv.commit_config()
    with pytest.raises(ConnectionException):
        drivers("netcfg_cumulus", dev).open()
    lab.advance(61)
    assert _driver(drivers, dev).get_facts()["hostname"] == "leaf1"
    assert "mtu: 9000" not in dev.running_config()


def test_replace_that_drops_the_login_user_is_refused(leaf, drivers):
    """The lab refuses, as NVUE does, a replace that deletes the logged-in user (the driver
    told to pass the candidate as given)."""
    lab, dev = leaf
    drv = _driver(drivers, dev, keep_device_local=False)
    drv.load_replace_candidate(config=MTU)
    with pytest.raises(CommitError, match="Cannot delete user 'cumulus'"):
        drv.commit_config()


def test_the_driver_keeps_the_login_user_through_a_replace(leaf, drivers):
    """By default netcfg's Cumulus driver keeps the switch's users, eth0 and mgmt VRF in a
    replace, so plain NAPALM cannot lock anyone out."""
    lab, dev = leaf
    drv = _driver(drivers, dev)
    drv.load_replace_candidate(config=MTU)
    drv.commit_config()
    assert dev.do(lambda emu: emu.user_configured("cumulus"))


# --- every config netcfg renders for Cumulus ------------------------------------------------------
@pytest.fixture(scope="module", params=["5.14", "5.15"])
def rendered(request, tmp_path_factory):
    """(release, files): the multivendor Cumulus leaves rendered for one release."""
    import shutil

    from netcfg.render.engine import render_files, select
    from netcfg.validate import validate

    inventory = tmp_path_factory.mktemp("inventory")
    shutil.copytree(ROOT / "inventories" / "multivendor", inventory, dirs_exist_ok=True)
    fabric = inventory / "fabric.yaml"
    fabric.write_text(fabric.read_text() + f"\nreleases:\n  cumulus: '{request.param}'\n")
    result = validate(str(inventory))
    assert result.fabric is not None and result.physics is not None
    out = tmp_path_factory.mktemp("cumulus-render")
    for name, text in render_files(result.fabric, result.physics, select(result.fabric),
                                   with_hosts=False).items():
        if name.endswith(".yaml"):
            (out / name).write_text(text)
    files = sorted(out.glob("*.yaml"))
    assert files, "the multivendor inventory renders no Cumulus switch"
    return request.param, files


def _replace(dev, text):
    drv = napalm.get_network_driver("netcfg_cumulus")(**dev.napalm())
    drv.open()
    running = drv.get_config("running")["running"]
    drv.load_replace_candidate(config=vendor("cumulus").deploy.keep_device_local(running, text))
    return drv


def test_rendered_configs_commit_on_their_release(make_lab, rendered):
    release, files = rendered
    lab = make_lab(*[DeviceSpec(f.stem, "cumulus", version=f"{release}.0") for f in files])
    for f in files:
        dev = lab[f.stem]
        drv = _replace(dev, f.read_text())
        try:
            assert drv.compare_config()
            drv.commit_config()
            assert drv.compare_config() == ""
        finally:
            drv.close()
        assert f"hostname: {f.stem}" in dev.running_config()


def test_a_file_for_the_other_release_is_refused(make_lab, rendered):
    """NVIDIA's 5.15 change table renames attributes; neither release takes the other's."""
    release, files = rendered
    other = "5.14.0" if release == "5.15" else "5.15.0"
    lab = make_lab(DeviceSpec(files[0].stem, "cumulus", version=other))
    dev = lab[files[0].stem]
    before = dev.running_config()
    with pytest.raises(ReplaceConfigException, match="Invalid config"):
        _replace(dev, files[0].read_text())
    assert dev.running_config() == before


def _edited(text: str, edit) -> str:
    """`text` changed by `edit`; YAML 1.1 reads 5.14's on/off as booleans, written back so."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(bool, lambda d, v: d.represent_scalar(
        "tag:yaml.org,2002:bool", "on" if v else "off"))
    doc = yaml.safe_load(text)
    edit(doc[0]["set"])
    return yaml.dump(doc, Dumper=Dumper, sort_keys=False)


def _drop_pools(cfg):
    del cfg["qos"]["traffic-pool"]


def _lossless_only(cfg):
    del cfg["qos"]["traffic-pool"]["default-lossy"]  # default-lossy stays at 100 %


def _two_lossless(cfg):
    cfg["qos"]["traffic-pool"] = {"default-lossless": {"memory-percent": 30},
                                  "roce-lossless": {"memory-percent": 20},
                                  "default-lossy": {"memory-percent": 50}}


def _pause_at_the_top(cfg):
    """Hand-set thresholds (netcfg renders only cable-length): PAUSE at the reserve's top."""
    p = next(iter(cfg["qos"]["pfc"].values()))
    p["xoff-threshold"] = p["port-buffer"] = 116736


def _resume_below_empty(cfg):
    p = next(iter(cfg["qos"]["pfc"].values()))
    p.update({"port-buffer": 116736, "xoff-threshold": 19456, "xon-threshold": 19456})


@pytest.mark.parametrize("edit,message", [
    (_drop_pools, "needs the lossless traffic pool first"),
    (_lossless_only, "add up to 150%"),
    (_two_lossless, "only one lossless traffic pool"),
    (_pause_at_the_top, "leaves no room in port-buffer"),
    (_resume_below_empty, "must be smaller than it"),
], ids=["no-pool", "over-100", "two-lossless", "xoff-at-port-buffer", "xon-at-xoff"])
def test_buffer_rules_of_nvidia_are_enforced(make_lab, rendered, edit, message):
    """NVIDIA's QoS page: PFC after the lossless pool, pools at most 100 % (default-lossy is
    100 % unless set), one lossless pool; PFC fields with their documented meanings."""
    release, files = rendered
    lab = make_lab(DeviceSpec(files[0].stem, "cumulus", version=f"{release}.0"))
    dev = lab[files[0].stem]
    before = dev.running_config()
    with pytest.raises(ReplaceConfigException, match=message):
        _replace(dev, _edited(files[0].read_text(), edit))
    assert dev.running_config() == before


def test_a_neighbour_of_a_peer_group_that_is_not_there_is_refused(make_lab, rendered):
    """NVUE hands BGP to FRR, whose northbound refuses a member of a peer group it does not
    have ("Configure the peer-group first", bgpd/bgp_nb_config.c)."""
    release, files = rendered
    lab = make_lab(DeviceSpec(files[0].stem, "cumulus", version=f"{release}.0"))
    dev = lab[files[0].stem]
    before = dev.running_config()

    def no_groups(cfg):
        del cfg["vrf"]["default"]["router"]["bgp"]["peer-group"]

    with pytest.raises(ReplaceConfigException, match="Configure the peer-group first SPINE"):
        _replace(dev, _edited(files[0].read_text(), no_groups))
    assert dev.running_config() == before
