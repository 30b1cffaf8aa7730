"""SONiC emulator through netcfg's `netcfg_sonic` NAPALM driver (netmiko over SSH, host key
checked against the lab's known_hosts) and through a plain netmiko shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from napalm.base.exceptions import (
    CommitError,
    ConnectionClosedException,
    ConnectionException,
    LockError,
    ReplaceConfigException,
)
from netmiko import ConnectHandler

from netcfg.lab import DeviceSpec
from netcfg.vendors import vendor


def keep_device_local(candidate: dict, running: dict) -> dict:
    """`candidate` with what SONiC's preserve policy keeps of `running` (the deploy adapter's)."""
    return json.loads(vendor("sonic").deploy.keep_device_local(json.dumps(running),
                                                              json.dumps(candidate)))


REPO = Path(__file__).resolve().parents[2]
SONIC_YANG = REPO.parent / "shared" / "sonic-yang" / "yang"
SONIC_SKUS = REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage" / "device"
#: the multivendor fabric's SONiC leaves run on arista-7060x6-sonic (catalog model)
MULTIVENDOR_MODEL = "DCS-7060X6-64PE"
DRIVER = "netcfg_sonic"


@pytest.fixture
def drivers(drivers):
    """These tests hold the lab to SONiC's own refusals, so the driver passes each replace
    candidate as given (`keep_device_local: False`: no device tables merged in)."""
    return lambda name, device, **kw: drivers(name, device, **{"keep_device_local": False, **kw})


def _yang_skip_reason() -> str | None:
    if not SONIC_YANG.is_dir():
        return "SONiC YANG models (../shared/sonic-yang) not present next to the repo"
    try:
        import libyang  # noqa: F401
    except ImportError:
        return "the libyang binding is not installed (extra 'yang')"
    return None


@pytest.fixture
def leaf(make_lab):
    lab = make_lab(DeviceSpec("leaf1", "sonic"))
    return lab, lab["leaf1"]


def running(dev) -> dict:
    return json.loads(dev.running_config())


def merge(drv, partial: dict) -> None:
    drv.load_merge_candidate(config=json.dumps(partial))


def shell(dev):
    kw = dev.napalm()
    return ConnectHandler(device_type="linux", host=kw["hostname"], username=kw["username"],
                          password=kw["password"], port=kw["optional_args"]["port"],
                          ssh_strict=True, alt_host_keys=True,
                          alt_key_file=kw["optional_args"]["known_hosts"])


# --- the shell itself -----------------------------------------------------------------------------
def test_shell_commands_and_errors(leaf):
    lab, dev = leaf
    conn = shell(dev)
    try:
        assert conn.find_prompt() == "admin@leaf1:~$"
        db = json.loads(conn.send_command("show runningconfiguration all"))
        assert "bgpraw" in db and db["DEVICE_METADATA"]["localhost"]["hostname"] == "leaf1"
        assert "command not found" in conn.send_command("bogus-command")
        assert conn.send_command("config save -y") == \
            "Root privileges are required for this operation"
        assert "Checkpoint created successfully." in conn.send_command("sudo config checkpoint cp1")
        assert json.loads(conn.send_command("sudo config list-checkpoints")) == ["cp1"]
        out = conn.send_command("sudo config rollback nope")
        assert "Error: Checkpoint 'nope' does not exist" in out
        assert conn.send_command("false && echo yes; echo rc=$?") == "rc=1"
        out = conn.send_command("sudo systemd-run --on-active=30 --unit=t1 config rollback cp1")
        assert out.startswith("Running timer as unit: t1.timer")
        assert "already loaded" in conn.send_command(
            "sudo systemd-run --on-active=30 --unit=t1 config rollback cp1")
        assert conn.send_command("systemctl is-active t1.timer") == "active"
        assert conn.send_command("sudo systemctl stop t1.timer; echo $?") == "0"
        assert "not loaded" in conn.send_command("sudo systemctl stop t1.timer")
        status = conn.send_command("show interfaces status").splitlines()
        assert status[0].split()[:3] == ["Interface", "Lanes", "Speed"]
        assert status[2].split()[:3] == ["Ethernet0", "0,1,2,3", "400G"]
    finally:
        conn.disconnect()


# --- NAPALM flows ---------------------------------------------------------------------------------
def test_replace_diff_commit_idempotent(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev)
    drv.open()
    target = running(dev)
    target["PORT"]["Ethernet0"]["description"] = "to spine1"
    target["PORT"]["Ethernet4"]["mtu"] = "9194"
    del target["PORT"]["Ethernet8"]["index"]
    drv.load_replace_candidate(config=json.dumps(target))
    diff = drv.compare_config()
    assert diff.splitlines() == ["+ PORT|Ethernet0|description: to spine1",
                                 "~ PORT|Ethernet4|mtu: 9100 -> 9194",
                                 "- PORT|Ethernet8|index: 3"]
    assert json.loads(drv.get_config("candidate")["candidate"]) == target
    drv.commit_config()
    assert running(dev) == target
    assert json.loads(dev.startup_config()) == target  # saved after a final commit
    drv.load_replace_candidate(config=json.dumps(target))
    assert drv.compare_config() == ""
    drv.discard_config()
    assert drv.get_config()["candidate"] == ""


def test_merge_then_discard_leaves_running_untouched(leaf, drivers):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "merged"}}})
    assert drv.compare_config() == "+ PORT|Ethernet0|description: merged\n"
    drv.discard_config()
    assert drv.compare_config() == ""
    assert dev.running_config() == before


def test_merge_accepts_a_json_patch(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev)
    drv.open()
    drv.load_merge_candidate(config=json.dumps(
        [{"op": "add", "path": "/PORT/Ethernet4/description", "value": "patched"}]))
    drv.commit_config()
    assert running(dev)["PORT"]["Ethernet4"]["description"] == "patched"


def test_revert_timer_reverts_unless_confirmed(leaf, drivers):
    lab, dev = leaf
    before = running(dev)
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "temporary"}}})
    drv.commit_config(revert_in=300)
    assert running(dev)["PORT"]["Ethernet0"]["description"] == "temporary"
    assert json.loads(dev.startup_config()) == before  # not saved before the confirm
    assert drv.has_pending_commit()
    lab.advance(299)
    assert drv.has_pending_commit()
    lab.advance(2)
    assert not drv.has_pending_commit()
    assert running(dev) == before
    with pytest.raises(CommitError):
        drv.confirm_commit()


def test_confirmed_commit_survives_expiry_and_is_saved(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "kept"}}})
    drv.commit_config(revert_in=120)
    drv.confirm_commit()
    assert not drv.has_pending_commit()
    lab.advance(600)
    assert running(dev)["PORT"]["Ethernet0"]["description"] == "kept"
    assert json.loads(dev.startup_config())["PORT"]["Ethernet0"]["description"] == "kept"


def test_reboot_before_confirm_comes_back_with_the_old_config(leaf, drivers):
    lab, dev = leaf
    before = running(dev)
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "unconfirmed"}}})
    drv.commit_config(revert_in=300)
    dev.reboot(downtime=60)
    lab.advance(61)
    assert running(dev) == before


def test_rollback_undoes_the_last_commit(leaf, drivers):
    lab, dev = leaf
    before = running(dev)
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "to undo"}}})
    drv.commit_config()
    drv.rollback()
    assert running(dev) == before
    assert json.loads(dev.startup_config()) == before


def test_rollback_of_a_pending_commit_stops_the_timer(leaf, drivers):
    lab, dev = leaf
    before = running(dev)
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "pending"}}})
    drv.commit_config(revert_in=300)
    drv.rollback()
    assert running(dev) == before and not drv.has_pending_commit()


@pytest.mark.parametrize("change, expected", [
    (lambda db: db["PORT"]["Ethernet0"].update(descripton="typo"),
     "All Keys are not parsed in PORT"),
    (lambda db: db.update(PORTT={"Ethernet0": {"mtu": "9100"}}),
     "tables without YANG models"),
    (lambda db: db["PORT"]["Ethernet0"].update(mtu="99999"),
     "does not satisfy the range constraint"),
    (lambda db: db.update(QUEUE={"Ethernet0|3": {"scheduler": "missing"}}),
     "Invalid leafref value"),
    (lambda db: db.update(PFC_WD={}), "will result in empty tables"),
])
def test_invalid_replace_is_rejected_at_load(leaf, drivers, change, expected):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers(DRIVER, dev)
    drv.open()
    target = running(dev)
    change(target)
    with pytest.raises(ReplaceConfigException, match=expected):
        drv.load_replace_candidate(config=json.dumps(target))
    assert dev.running_config() == before


def test_pfcwd_global_cannot_be_removed(make_lab, drivers):
    start = {"DEVICE_METADATA": {"localhost": {"hostname": "leaf1"}},
             "PORT": {"Ethernet0": {"lanes": "0,1,2,3", "speed": "400000"}},
             "PFC_WD": {"GLOBAL": {"POLL_INTERVAL": "200"},
                        "Ethernet0": {"action": "drop", "detection_time": "200"}}}
    lab = make_lab(DeviceSpec("leaf1", "sonic", startup_config=json.dumps(start)))
    drv = drivers(DRIVER, lab["leaf1"])
    drv.open()
    target = json.loads(json.dumps(start))
    del target["PFC_WD"]["GLOBAL"]
    with pytest.raises(ReplaceConfigException, match="remove is illegal on field: /PFC_WD/GLOBAL"):
        drv.load_replace_candidate(config=json.dumps(target))


def test_lenient_device_accepts_unknown_fields(make_lab, drivers):
    lab = make_lab(DeviceSpec("leaf1", "sonic", strict=False))
    drv = drivers(DRIVER, lab["leaf1"])
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"vendor_knob": "1"}}})
    drv.commit_config()
    assert running(lab["leaf1"])["PORT"]["Ethernet0"]["vendor_knob"] == "1"


# --- faults ---------------------------------------------------------------------------------------
def test_auth_failure_and_refused(leaf, drivers):
    lab, dev = leaf
    dev.inject("auth_failure", times=1)
    with pytest.raises(ConnectionException, match="Authentication") as err:
        drivers(DRIVER, dev).open()
    assert dev.password not in str(err.value)
    dev.inject("refused")
    with pytest.raises(ConnectionException, match="Cannot connect"):
        drivers(DRIVER, dev).open()
    dev.clear_faults()
    lab.advance(0)  # the listener reopens
    drivers(DRIVER, dev).open()


@pytest.mark.parametrize("kind", ["slow", "hang"])
def test_slow_and_hung_device_time_out(leaf, drivers, kind):
    lab, dev = leaf
    drv = drivers(DRIVER, dev, timeout=1)
    drv.open()
    dev.inject(kind, delay=3.0, times=1)
    with pytest.raises(ConnectionClosedException, match="no answer"):
        drv.get_facts()
    dev.clear_faults()


def test_drop_before_apply_changes_nothing(leaf, drivers):
    lab, dev = leaf
    before = dev.running_config()
    # a long timeout: the closed session is seen when it closes, not taken for silence
    drv = drivers(DRIVER, dev, timeout=600)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "dropped"}}})
    dev.inject("drop_before_apply", times=1)
    with pytest.raises(ConnectionClosedException, match="closed the session"):
        drv.commit_config()
    assert dev.running_config() == before


def test_drop_after_apply_leaves_the_change_running(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev, timeout=600)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "applied"}}})
    dev.inject("drop_after_apply", times=1)
    with pytest.raises(ConnectionClosedException):
        drv.commit_config()
    assert running(dev)["PORT"]["Ethernet0"]["description"] == "applied"
    assert "applied" not in dev.startup_config()  # never saved


def test_commit_error_carries_the_device_text(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "x"}}})
    dev.inject("commit_error", message="Failed to apply patch: SAI_STATUS_INSUFFICIENT_RESOURCES",
               times=1)
    with pytest.raises(CommitError, match="SAI_STATUS_INSUFFICIENT_RESOURCES"):
        drv.commit_config()


def test_lock_held_by_another_commit_confirm(leaf, drivers):
    lab, dev = leaf
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "x"}}})
    dev.inject("lock_held")
    with pytest.raises(LockError, match="netcfg-revert.timer is active"):
        drv.commit_config()
    dev.clear_faults()
    drv.commit_config()


def test_stale_session_leftovers_do_not_disturb_a_push(leaf, drivers):
    lab, dev = leaf
    dev.inject("stale_session")
    drv = drivers(DRIVER, dev)
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "after stale"}}})
    drv.commit_config()
    assert running(dev)["PORT"]["Ethernet0"]["description"] == "after stale"


def test_reboot_mid_commit(leaf, drivers):
    lab, dev = leaf
    before = dev.running_config()
    drv = drivers(DRIVER, dev, timeout=3)  # a dropped channel shows as silence
    drv.open()
    merge(drv, {"PORT": {"Ethernet0": {"description": "lost"}}})
    dev.inject("reboot_mid_commit", downtime=90, times=1)
    with pytest.raises(ConnectionClosedException):
        drv.commit_config()
    with pytest.raises(ConnectionException):
        drivers(DRIVER, dev).open()
    lab.advance(91)
    again = drivers(DRIVER, dev)
    again.open()
    assert dev.running_config() == before


# --- what netcfg renders --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("sonic")
    subprocess.run([sys.executable, "-m", "netcfg", "render", str(REPO / "inventories" /
                    "multivendor"), "--out", str(out), "--device", "leaf-su2-*"],
                   check=True, capture_output=True, cwd=REPO, timeout=300)
    found = {p.stem: json.loads(p.read_text()) for p in sorted(out.glob("*.json"))}
    assert found, "the multivendor inventory renders no SONiC device"
    return found


@pytest.mark.parametrize("check", ["own-checks", "yang", "sku"])
def test_every_rendered_config_replaces_and_commits(make_lab, drivers, rendered, check):
    if check == "yang" and _yang_skip_reason():
        pytest.skip(_yang_skip_reason())
    if check == "sku" and not SONIC_SKUS.is_dir():
        pytest.skip("SONiC SKU files (../shared/sonic-skus) not present next to the repo")
    options = {"own-checks": {}, "yang": {"yang_dir": str(SONIC_YANG)},
               "sku": {"sku_dir": str(SONIC_SKUS)}}[check]
    specs = [DeviceSpec(name, "sonic", interfaces=list(db["PORT"]), options=options,
                        model=MULTIVENDOR_MODEL) for name, db in rendered.items()]
    lab = make_lab(*specs)
    for name, db in rendered.items():
        dev = lab[name]
        drv = drivers(DRIVER, dev)
        drv.open()
        candidate = keep_device_local(db, running(dev))
        drv.load_replace_candidate(config=json.dumps(candidate))
        assert "+ BUFFER_PG|Ethernet0|3|profile" in drv.compare_config()
        drv.commit_config(revert_in=300)
        drv.confirm_commit()
        assert running(dev) == candidate
        drv.load_replace_candidate(config=json.dumps(candidate))
        assert drv.compare_config() == ""
        drv.discard_config()


@pytest.mark.parametrize("change, legal", [
    # gcu_field_operation_validators.conf.json (sonic-utilities): BUFFER_POOL "Shared/headroom
    # pool size changes": `replace` of ingress_lossless_pool/xoff and /size and
    # egress_lossy_pool/size only
    (lambda pools: pools["ingress_lossless_pool"].update(xoff="1048576"), True),
    (lambda pools: pools["egress_lossless_pool"].update(size="1"), False),
    (lambda pools: pools.update(extra_pool={"type": "ingress", "mode": "static", "size": "1"}),
     False),
    (lambda pools: pools.pop("egress_lossless_pool"), False),
], ids=["shp-size", "egress-lossless-size", "add", "remove"])
def test_buffer_pools_change_only_as_gcu_allows(make_lab, drivers, change, legal):
    """On a traditional box (the 7060X6's 2 x 400G SKU, whose pools carry sizes and a shared
    headroom pool)."""
    dev = make_lab(DeviceSpec("leaf1", "sonic", model=MULTIVENDOR_MODEL))["leaf1"]
    drv = drivers(DRIVER, dev)
    drv.open()
    drv.cli(["sudo config qos reload"])  # SONiC's SKU pools on the factory box
    target = running(dev)
    change(target["BUFFER_POOL"])
    if legal:
        drv.load_replace_candidate(config=json.dumps(target))
        return
    with pytest.raises(ReplaceConfigException, match="BUFFER_POOL table is illegal"):
        drv.load_replace_candidate(config=json.dumps(target))


def test_a_box_without_pools_gets_the_skus_then_the_file(make_lab, drivers, rendered):
    """A factory CONFIG_DB has no BUFFER_POOL and GCU never adds one: the commit runs SONiC's
    `config qos reload` first, and the file takes the pools it wrote (the SKU's)."""
    if not (REPO.parent / "shared" / "factory").is_dir():
        pytest.skip("SONiC factory files (../shared/factory) not present next to the repo")
    from netcfg.lab.truth import vendor_options

    name, db = next(iter(rendered.items()))
    lab = make_lab(DeviceSpec(name, "sonic", interfaces=list(db["PORT"]),
                              model=MULTIVENDOR_MODEL, options=vendor_options(REPO.parent /
                                                                                "shared")))
    dev = lab[name]
    assert "BUFFER_POOL" not in running(dev)
    drv = drivers(DRIVER, dev)
    drv.open()
    drv.load_replace_candidate(config=json.dumps(db))
    assert "BUFFER_POOL" not in running(dev)  # loading changes nothing
    drv.commit_config()
    after = running(dev)
    assert after["BUFFER_POOL"]["ingress_lossless_pool"]["xoff"] == "29423360"
    assert after["BUFFER_PG"] == db["BUFFER_PG"]


def test_yang_rejects_what_the_models_forbid(make_lab, drivers):
    if _yang_skip_reason():
        pytest.skip(_yang_skip_reason())
    lab = make_lab(DeviceSpec("leaf1", "sonic", options={"yang_dir": str(SONIC_YANG)}))
    drv = drivers(DRIVER, lab["leaf1"])
    drv.open()
    with pytest.raises(ReplaceConfigException, match="Data Loading Failed"):
        target = running(lab["leaf1"])
        target["WRED_PROFILE"] = {"w": {"green_min_threshold": "200", "green_max_threshold": "100"}}
        drv.load_replace_candidate(config=json.dumps(target))


def _first_port(db: dict) -> str:
    return next(iter(db["PORT"]))


@pytest.mark.parametrize("edit,message", [
    (lambda e: e.update(lanes="0,1,2,3"), "lanes 0,1,2,3 is not the platform's 17,18,19,20"),
    (lambda e: e.update(index="7"), "index 7 is not the platform's 1"),
    (lambda e: e.pop("fec"), "fec \\(none\\) where the platform's SKU sets rs"),
    (lambda e: e.update(lanes="17,18,19"), "netcfg does not break ports out"),
], ids=["name-order-lanes", "index", "no-fec", "lane-count"])
def test_ports_the_hardware_does_not_have_are_refused(make_lab, drivers, rendered, edit,
                                                      message):
    """Arista-7060X6-64PE-O128S2/port_config.ini: Ethernet0 = lanes 17-20, etp1a, index 1,
    fec rs; no breakout mode of the 7060X6's platform.json makes a 3-lane port."""
    if not SONIC_SKUS.is_dir():
        pytest.skip("SONiC SKU files (../shared/sonic-skus) not present next to the repo")
    name, db = next(iter(rendered.items()))
    lab = make_lab(DeviceSpec(name, "sonic", interfaces=list(db["PORT"]), model=MULTIVENDOR_MODEL,
                              options={"sku_dir": str(SONIC_SKUS)}))
    dev = lab[name]
    before = running(dev)
    candidate = keep_device_local(json.loads(json.dumps(db)), before)
    port = _first_port(candidate)
    assert port == "Ethernet0"
    edit(candidate["PORT"][port])
    drv = drivers(DRIVER, dev)
    drv.open()
    with pytest.raises(ReplaceConfigException, match=message):
        drv.load_replace_candidate(config=json.dumps(candidate))
    assert running(dev) == before


def test_pools_the_asic_cannot_hold_are_refused():
    """The SN5600 SKUs' templates give their pools at most 158229504 B (egress_lossless_pool
    of ACS-SN5600, O128 and V256): a larger pool is refused, and on Spectrum the ingress pools
    plus the PGs' reserves must fit in it too."""
    if not SONIC_SKUS.is_dir():
        pytest.skip("SONiC SKU files (../shared/sonic-skus) not present next to the repo")
    from netcfg.lab.sonic.schema import SchemaError
    from netcfg.lab.sonic.sku import Platform

    hw = Platform(SONIC_SKUS / "mellanox" / "x86_64-nvidia_sn5600-r0")
    ok = {"BUFFER_POOL": {"ingress_lossless_pool": {"type": "ingress", "size": "79114752"},
                          "ingress_lossy_pool": {"type": "ingress", "size": "79114752"}}}
    hw.check(ok)  # 2 x 79114752 = 158229504: the whole buffer, nothing reserved
    big = json.loads(json.dumps(ok))
    big["BUFFER_POOL"]["ingress_lossy_pool"]["size"] = "158229505"
    with pytest.raises(SchemaError, match="more than the 158229504 B"):
        hw.check(big)
    reserved = json.loads(json.dumps(ok))
    reserved["BUFFER_PROFILE"] = {"p": {"size": "1"}}
    reserved["BUFFER_PG"] = {"Ethernet0|3": {"profile": "p"}}
    with pytest.raises(SchemaError, match="exceed the 158229504 B buffer"):
        hw.check(reserved)
