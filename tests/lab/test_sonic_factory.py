"""SONiC switches from the factory: the lab boots SONiC's own first-boot CONFIG_DB, and netcfg's
files go onto it and survive a reload with every buffer pool sized.

Outside truths: ../shared/factory/sonic (CONFIG_DB generated with SONiC's own sonic-cfggen and
first-boot steps; DEFAULTS.md), the platforms' `default_sku` files (../shared/sonic-skus),
SONiC's full YANG set through ../shared/sonic-yang/validate_config_db.py, and the dynamic
model's headroom arithmetic of sonic-swss cfgmgr/buffer_headroom_mellanox.lua as
../shared/specs/headroom-sonic-spectrum.md writes it out (its worked examples and one case
worked by hand below), never netcfg's own physics helpers.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from napalm.base.exceptions import ReplaceConfigException

from netcfg.lab import DeviceSpec
from netcfg.lab.sonic import buffermgr
from netcfg.lab.truth import vendor_options
from netcfg.render import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
FACTORY = SHARED / "factory" / "sonic"
DEVICE = SHARED / "sonic-skus" / "sonic-buildimage" / "device"
DRIVER = "netcfg_sonic"
MODELS = {"nvidia-sn5600-sonic": "SN5600", "arista-7060x6-sonic": "DCS-7060X6-64PE"}

pytestmark = pytest.mark.skipif(
    not FACTORY.is_dir() or not DEVICE.is_dir(),
    reason="SONiC factory files and SKU files (../shared/factory, ../shared/sonic-skus) not "
           "present next to the repo")


def _factory(sku: str) -> dict:
    return json.loads((FACTORY / sku / "configdb_after_first_boot.json").read_text())


@pytest.mark.parametrize("model, platform", [
    ("SN5600", "mellanox/x86_64-nvidia_sn5600-r0"),
    ("DCS-7060X6-64PE", "arista/x86_64-arista_7060x6_64pe")])
def test_a_new_switch_runs_sonics_first_boot_config_db(make_lab, model, platform):
    """The platform's default SKU (default_sku: `ACS-SN5600 t1`, `Arista-7060X6-64PE t1`) and
    its first-boot CONFIG_DB: buffer model dynamic on Mellanox, traditional on Broadcom; no
    BUFFER_* table, no MGMT_INTERFACE (eth0 by DHCP); the box's own MAC."""
    sku = (DEVICE / platform / "default_sku").read_text().split()[0]
    dev = make_lab(DeviceSpec("sw1", "sonic", model=model, options=vendor_options(SHARED)))["sw1"]
    running = json.loads(dev.running_config())
    want = _factory(sku)
    meta, factory_meta = running["DEVICE_METADATA"]["localhost"], \
        want["DEVICE_METADATA"]["localhost"]
    assert meta.pop("mac") != factory_meta.pop("mac")  # the box's, not the documentation MAC
    assert meta == factory_meta and meta["hwsku"] == sku
    assert meta["buffer_model"] == ("dynamic" if model == "SN5600" else "traditional")
    assert {t: v for t, v in running.items() if t != "DEVICE_METADATA"} == \
        {t: v for t, v in want.items() if t != "DEVICE_METADATA"}
    assert not [t for t in running if t.startswith("BUFFER_")]
    assert "MGMT_INTERFACE" not in running and len(running["PORT"]) in (65, 66)  # 64 x 800G + SFP


def test_the_labs_yang_check_agrees_with_sonics_validator(make_lab):
    """Every example of ../shared/sonic-yang (valid and invalid) gets the same verdict from the
    lab's check as from validate_config_db.py with SONiC's whole YANG set."""
    pytest.importorskip("libyang")
    from netcfg.lab.sonic.schema import SchemaError
    from netcfg.lab.sonic.yang import YangValidator

    lab_check = YangValidator.from_options(vendor_options(SHARED))
    assert lab_check is not None
    for example in sorted((SHARED / "sonic-yang" / "examples").glob("*.json")):
        theirs = subprocess.run([sys.executable, str(SHARED / "sonic-yang" /
                                                     "validate_config_db.py"), str(example)],
                                capture_output=True, text=True).returncode == 0
        try:
            lab_check.validate(json.loads(example.read_text()))
            ours = True
        except SchemaError:
            ours = False
        assert ours == theirs == example.name.startswith("config_db.valid"), example.name


# --- the buffer manager's arithmetic ------------------------------------------------------------
@pytest.mark.parametrize("speed, lanes, cable, small, want", [
    # ../shared/specs/headroom-sonic-spectrum.md, worked examples (SPC4, port MTU 9100,
    # lossless MTU 1024): (xon, xoff, size)
    (400000, 4, 5, 50, (19456, 98304, 117760)),
    (400000, 4, 40, 50, (19456, 119808, 139264)),
    (400000, 4, 300, 50, (19456, 281600, 301056)),
    (400000, 8, 40, 50, (38912, 119808, 167936)),
    (800000, 8, 5, 50, (38912, 108544, 156672)),
    (800000, 8, 300, 50, (38912, 476160, 524288)),
    (400000, 4, 5, 100, (19456, 230400, 249856)),
    (800000, 8, 40, 100, (38912, 362496, 410624)),
])
def test_the_labs_buffer_manager_computes_sonics_headroom(speed, lanes, cable, small, want):
    got = buffermgr.headroom(speed, cable, 9100, lanes, buffermgr.SPECTRUM4, 1024, small, False)
    assert got == want


def _by_hand_400g_4lanes(cable_m: int, port_mtu: int) -> tuple[int, int, int]:
    """buffer_headroom_mellanox.lua for SPC4 (cell 192, pipeline 19 KiB, mac/phy 0.8 KiB),
    400G (905 pause quanta), 4 lanes, lossless MTU 1024 with 50 % small packets, no shared
    headroom pool, written out step by step."""
    kib = 1024
    pipeline = 19 * kib                                   # 4 lanes: not doubled
    mac_phy = 0.8 * kib
    peer = 905 * 512 / 8                                  # 57 920
    tile = 400000 / 1000 * 120 / 8                        # 6 000 (Spectrum-4)
    worst = math.ceil(192 / 64)                           # 3 cells for a 64 B packet
    small = 100 * 64 / ((50 * 64 + 50 * 1024) / 100)      # 11.7647 % of the bytes
    occupancy = (100 - small + small * worst) / 100
    cable = 2 * cable_m * 400000 * 1e9 / 198_000_000 / 8000
    propagation = port_mtu + cable + mac_phy + peer + tile
    xoff = math.ceil((1024 + propagation * occupancy) / kib) * kib
    if xoff + 2048 < math.ceil((1024 + propagation * worst) / kib) * kib:
        xoff += 2048
    xon = math.ceil(pipeline / kib) * kib
    return xon, xoff, math.ceil((xoff + xon) / kib) * kib


# --- factory boxes taking netcfg's files ----------------------------------------------------------
def _plan(tmp: Path, platform: str):
    """The multivendor fabric's first SONiC leaf, with every SONiC switch on `platform`."""
    inventory = tmp / "inventory"
    inventory.mkdir()
    source = REPO / "inventories" / "multivendor"
    for item in source.iterdir():
        if item.is_file():
            (inventory / item.name).write_text(item.read_text())
    doc = yaml.safe_load((inventory / "fabric.yaml").read_text())
    doc["platforms"] = {role: (platform if "sonic" in p else p)
                        for role, p in doc["platforms"].items()}
    for over in (doc.get("overrides") or {}).get("devices", {}).values():
        if "sonic" in str(over.get("platform", "")):
            over["platform"] = platform
    (inventory / "fabric.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    result = validate(inventory / "fabric.yaml")
    assert result.fabric is not None and result.physics is not None
    fabric = result.fabric
    dev = next(d for d in fabric.switches() if d.name == "leaf-su2-r1")
    assert fabric.platform(dev).nos == "sonic"
    return PlanBuilder(fabric, result.physics).plan(dev)


@pytest.mark.parametrize("platform, sku, model", [
    ("nvidia-sn5600-sonic", "Mellanox-SN5600-O128", "dynamic"),
    ("arista-7060x6-sonic", "Arista-7060X6-64PE-O128S2", "traditional")])
def test_a_factory_switch_takes_two_pushes_and_a_reload_keeps_every_pool_sized(
        make_lab, drivers, tmp_path, platform, sku, model):
    """A factory box of the 2 x 400G SKU (the SKU the file's ports need) takes the file
    (its SKU's pools installed by `config qos reload` first), then the same file again with
    nothing to change; a `config reload` of the saved CONFIG_DB leaves every pool created with
    a size: the traditional model's from the file, the dynamic model's from the buffer
    manager. The box's buffer model never changes."""
    plan = _plan(tmp_path, platform)
    text = render_plan(plan)
    spec = DeviceSpec(plan.hostname, "sonic", model=MODELS[platform],
                      interfaces=[i.name for i in plan.interfaces],
                      options=vendor_options(SHARED))
    lab = make_lab(spec)
    dev = lab[plan.hostname]
    factory_meta = _factory(sku)["DEVICE_METADATA"]["localhost"]
    assert json.loads(dev.running_config())["DEVICE_METADATA"]["localhost"]["hwsku"] == sku
    drv = drivers(DRIVER, dev)
    drv.open()
    drv.load_replace_candidate(config=text)
    drv.commit_config()
    drv.load_replace_candidate(config=text)  # the second push: nothing left to change
    assert drv.compare_config() == ""
    drv.commit_config()
    drv.cli(["sudo config reload -y"])
    running = json.loads(dev.running_config())
    meta = running["DEVICE_METADATA"]["localhost"]
    assert meta["buffer_model"] == factory_meta["buffer_model"] == model
    assert meta["hwsku"] == sku and meta["hostname"] == plan.hostname
    pools = dev.do(lambda emu: emu.appl["BUFFER_POOL_TABLE"])
    assert sorted(pools) == sorted(running["BUFFER_POOL"])
    assert all(int(p["size"]) > 0 for p in pools.values()), pools
    if model == "traditional":  # the SKU's shared headroom pool (buffers_defaults_t0.j2)
        assert running["BUFFER_POOL"]["ingress_lossless_pool"]["xoff"] == "29423360"
        return
    # dynamic: the buffer manager computed each lossless PG's headroom, and it is netcfg's
    profiles = dev.do(lambda emu: emu.appl["BUFFER_PROFILE_TABLE"])
    pgs = dev.do(lambda emu: emu.appl["BUFFER_PG_TABLE"])
    checked = set()
    for i in plan.interfaces:
        if i.headroom is None:
            continue
        computed = profiles[pgs[f"{i.name}|3"]["profile"]]
        got = (int(computed["xon"]), int(computed["xoff"]), int(computed["size"]))
        assert got == (i.headroom.xon, i.headroom.xoff, i.headroom.size), i.name
        port = running["PORT"][i.name]
        cable = int(running["CABLE_LENGTH"]["AZURE"][i.name].rstrip("m"))
        if port["speed"] == "400000" and len(port["lanes"].split(",")) == 4:
            assert got == _by_hand_400g_4lanes(cable, int(port["mtu"])), i.name
            checked.add(cable)
    assert checked, "no 400G 4-lane lossless port to check by hand"


def test_a_file_for_other_ports_or_another_buffer_model_is_refused(make_lab, drivers, tmp_path):
    """The default SKU (64 x 800G) cannot take a 2 x 400G file: one line, nothing changed.
    Nor does a box running the other buffer model take the file."""
    plan = _plan(tmp_path, "nvidia-sn5600-sonic")
    text = render_plan(plan)
    other = _factory("Mellanox-SN5600-O128")  # the file's SKU, run in the traditional model
    other["DEVICE_METADATA"]["localhost"]["buffer_model"] = "traditional"
    lab = make_lab(DeviceSpec("factory", "sonic", model="SN5600", options=vendor_options(SHARED)),
                   DeviceSpec("other", "sonic", model="SN5600", startup_config=json.dumps(other),
                              options=vendor_options(SHARED)))
    for name, message in (("factory", "runs ACS-SN5600 .* install the file's SKU first"),
                          ("other", "runs the traditional buffer model and this file is for "
                                    "the dynamic one")):
        dev = lab[name]
        before = dev.running_config()
        drv = drivers(DRIVER, dev)
        drv.open()
        with pytest.raises(ReplaceConfigException, match=message) as refused:
            drv.load_replace_candidate(config=text)
        assert "\n" not in str(refused.value)
        assert dev.running_config() == before


@pytest.mark.parametrize("tables", [
    {"SYSLOG_SERVER": {"192.0.2.50": {"severity": "warning"}}},     # enum: warn
    {"TACPLUS_SERVER": {"192.0.2.60": {"priority": "99"}}},         # range 1..64
    {"SNMP_COMMUNITY": {"ro community": {"TYPE": "RO"}}},           # no spaces
    {"BGP_BBR": {"all": {"status": "on"}}},                         # enabled | disabled
    {"NTP_SERVER": {"192.0.2.1": {"association_type": "peer"}}},    # server | pool
])
def test_the_labs_own_checks_refuse_what_sonics_yang_refuses(tables):
    """Without the YANG set the lab checks the management tables itself (schema.py); on the
    refusals ../shared/sonic-yang/README.md lists, both refuse."""
    pytest.importorskip("libyang")
    from netcfg.lab.sonic import schema
    from netcfg.lab.sonic.yang import YangValidator

    with pytest.raises(schema.SchemaError):
        schema.validate(tables)
    yang = YangValidator.from_options(vendor_options(SHARED))
    assert yang is not None
    with pytest.raises(schema.SchemaError):
        yang.validate(tables)
