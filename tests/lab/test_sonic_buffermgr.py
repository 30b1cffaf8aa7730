"""The lab's SONiC box runs buffermgrd's traditional model (netcfg/lab/sonic/buffermgr.py,
written from sonic-swss cfgmgr/buffermgr.cpp): netcfg's headroom must survive it. Expected
profile values are read by hand off the SKU's pg_profile_lookup.ini, quoted below."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from netcfg.lab import DeviceSpec
from netcfg.lab.sonic import buffermgr
from netcfg.vendors import vendor


def keep_device_local(candidate: dict, running: dict) -> dict:
    """`candidate` with what SONiC's preserve policy keeps of `running` (the deploy adapter's)."""
    return json.loads(vendor("sonic").deploy.keep_device_local(json.dumps(running),
                                                              json.dumps(candidate)))


REPO = Path(__file__).resolve().parents[2]
SKUS = REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage" / "device"
ARISTA = SKUS / "arista" / "x86_64-arista_7060x6_64pe"
#: Arista-7060X6-64PE-O128S2/pg_profile_lookup.ini, the 400000 40m row:
#: speed cable size xon xoff threshold xon_offset = 400000 40m 18796 0 612140 0 3556
ROW_40M = {"size": "18796", "xon": "0", "xoff": "612140", "xon_offset": "3556"}

pytestmark = pytest.mark.skipif(not SKUS.is_dir(), reason="SONiC SKU files (../shared/"
                                "sonic-skus) not present next to the repo (CI provides them)")


@pytest.fixture(scope="module")
def leaf(tmp_path_factory) -> dict:
    """leaf-su2-r1 of the multivendor inventory (Arista 7060X6-64PE, SONiC), as rendered."""
    out = tmp_path_factory.mktemp("rendered")
    subprocess.run([sys.executable, "-m", "netcfg", "render",
                    str(REPO / "inventories" / "multivendor"), "--out", str(out),
                    "--device", "leaf-su2-r1"], check=True, capture_output=True, cwd=REPO,
                   timeout=300)
    return json.loads((out / "leaf-su2-r1.json").read_text())


def lookup():
    return buffermgr.read_lookup(ARISTA / "Arista-7060X6-64PE-O128S2" / "pg_profile_lookup.ini")


def test_the_lookup_is_read_as_buffermgrd_reads_it():
    rows = lookup()
    assert rows[("400000", "40m")] == buffermgr.LookupRow("18796", "0", "612140", "0", "3556")
    mellanox = buffermgr.read_lookup(SKUS / "mellanox" / "x86_64-nvidia_sn5600-r0" /
                                     "Mellanox-SN5600-O128" / "pg_profile_lookup.ini")
    # "400000    5m 250880  19456  231424        0": no xon_offset column
    assert mellanox[("400000", "5m")] == buffermgr.LookupRow("250880", "19456", "231424", "0")


def test_pg_runs_as_generate_id_list_from_map():
    # orch.cpp's own example: 00100110b -> ["1-2", "5"]
    assert buffermgr.id_ranges(0b00100110) == ["1-2", "5"]
    assert buffermgr.id_ranges(1 << 3 | 1 << 4) == ["3-4"]


def test_netcfgs_headroom_survives_buffermgrd(leaf):
    db = copy.deepcopy(leaf)
    log = buffermgr.run(db, lookup(), "broadcom")
    assert db["BUFFER_PG"] == leaf["BUFFER_PG"] and db["BUFFER_PROFILE"] == leaf["BUFFER_PROFILE"]
    assert not [line for line in log if "->" in line or "creating" in line], log


def test_headroom_under_another_name_is_overwritten(leaf):
    """What the review warned of: a PG whose profile is not buffermgrd's name for the port's
    speed and cable is re-pointed, and the profile created from the lookup row."""
    db = copy.deepcopy(leaf)
    port = next(p for p, c in db["CABLE_LENGTH"]["AZURE"].items() if c == "40m")
    db["BUFFER_PROFILE"]["netcfg_headroom"] = db["BUFFER_PROFILE"].pop(
        "pg_lossless_400000_40m_profile")
    for pg in db["BUFFER_PG"].values():
        if pg["profile"] == "pg_lossless_400000_40m_profile":
            pg["profile"] = "netcfg_headroom"
    buffermgr.run(db, lookup(), "broadcom")
    assert db["BUFFER_PG"][f"{port}|3"] == {"profile": "pg_lossless_400000_40m_profile"}
    mode = db["BUFFER_POOL"]["ingress_lossless_pool"]["mode"]
    assert db["BUFFER_PROFILE"]["pg_lossless_400000_40m_profile"] == {
        "pool": "ingress_lossless_pool", **ROW_40M, f"{mode}_th": "0"}


def test_a_push_leaves_the_rendered_pgs_in_place(make_lab, drivers, leaf):
    """Through the real driver into the lab box that runs buffermgrd after every apply."""
    name = "leaf-su2-r1"
    lab = make_lab(DeviceSpec(name, "sonic", interfaces=list(leaf["PORT"]),
                              model="DCS-7060X6-64PE", options={"sku_dir": str(SKUS)}))
    dev = lab[name]
    candidate = keep_device_local(copy.deepcopy(leaf), json.loads(dev.running_config()))
    drv = drivers("netcfg_sonic", dev)
    drv.open()
    drv.load_replace_candidate(config=json.dumps(candidate))
    drv.commit_config()
    after = json.loads(dev.running_config())
    assert after["BUFFER_PG"] == leaf["BUFFER_PG"]
    assert {k: after["BUFFER_PROFILE"][k] for k in leaf["BUFFER_PROFILE"]} == \
        leaf["BUFFER_PROFILE"]
