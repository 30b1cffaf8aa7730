"""SONiC buffer tables against SONiC's own buffer templates (../shared/sonic-skus).

The expected tables come from running the SKU's `buffers.json.j2` (with sonic-buildimage's
`buffers_config.j2`) through Jinja2 for the rendered device's own PORT table, SKU and type:
the pools, the lossy and lossless profiles, the port profile lists and the lossy PG must be the
template's; the queue profiles the template's for each queue's kind. netcfg's own parts are
checked by hand: pool sizes on Spectrum with the arithmetic of SONiC's pool rule
(sonic-swss cfgmgr/buffer_pool_mellanox.lua) applied to the rendered tables, and the lossless
profiles named as buffermgrd names them (cfgmgr/buffermgr.cpp).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from render_cases import nos_plans, swapped

from netcfg.render import render_plan
from netcfg.render.plan import DevicePlan
from netcfg.vendors.sonic import buffers
from netcfg.vendors.sonic.pools import pool_reserves

REPO = Path(__file__).resolve().parents[2]
ROOT = REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage"
needs_skus = pytest.mark.skipif(
    not ROOT.is_dir() and os.environ.get("NETCFG_REQUIRE_YANG") != "1",
    reason="SONiC SKU files (../shared/sonic-skus) not present next to the repo")
DIRECTORY = {"nvidia-sn5600-sonic": "mellanox/x86_64-nvidia_sn5600-r0",
             "arista-7060x6-sonic": "arista/x86_64-arista_7060x6_64pe"}
#: netcfg lays a SpineRouter out as t1: no SKU here has buffers_defaults_t2.j2
TEMPLATE_TYPE = {"ToRRouter": "ToRRouter", "LeafRouter": "LeafRouter",
                 "SpineRouter": "LeafRouter"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> list[tuple[DevicePlan, dict]]:
    out = []
    for platform in DIRECTORY:
        tmp = tmp_path_factory.mktemp(platform)
        for inventory in ("example", "multivendor", "gpu2048"):
            for plan in nos_plans(swapped(tmp, inventory, platform), "sonic", 6):
                out.append((plan, json.loads(render_plan(plan))))
    return out


def _template(plan: DevicePlan, db: dict, sku: str) -> dict:
    """The SKU's buffer template for the file's buffer model (buffers_dynamic.json.j2 for the
    dynamic one, as `config qos reload` picks it)."""
    meta = db["DEVICE_METADATA"]["localhost"]
    name = "buffers_dynamic.json.j2" if meta["buffer_model"] == "dynamic" else "buffers.json.j2"
    return buffers.render_sku(ROOT, DIRECTORY[plan.platform], sku,
                              TEMPLATE_TYPE[meta["type"]], db["PORT"], name)


def _lossless(db: dict, profile: str) -> bool:
    """A lossless PG's profile: NULL (the dynamic model computes it) or one with an xoff."""
    return profile == "NULL" or "xoff" in db["BUFFER_PROFILE"][profile]


def _ids(key: str) -> list[int]:
    first, _, last = key.partition("-")
    return list(range(int(first), int(last or first) + 1))


@needs_skus
def test_data_is_what_the_templates_render(tmp_path):
    """`python -m netcfg.vendors.sonic.buffers ROOT` reproduces the checked-in layouts."""
    assert buffers.main([str(ROOT), "--out", str(tmp_path)]) == 0
    for platform in DIRECTORY:
        shipped = json.loads((REPO / "netcfg" / "vendors" / "sonic" / "buffers" /
                              f"{platform}.json").read_text())
        assert json.loads((tmp_path / f"{platform}.json").read_text()) == shipped


@needs_skus
def test_tables_are_the_sku_templates(rendered):
    for plan, db in rendered:
        meta = db["DEVICE_METADATA"]["localhost"]
        lay = buffers.layout(plan.platform, buffers.main_speed(
            [int(p["speed"]) for p in db["PORT"].values()]), meta["type"])
        assert meta["hwsku"] == lay.sku
        want = _template(plan, db, lay.borrowed_from or lay.sku)
        if lay.borrowed_from:  # Arista-7060X6-64PE: its own templates write no buffers
            assert not _template(plan, db, lay.sku).get("BUFFER_POOL")
        assert sorted(db["BUFFER_POOL"]) == sorted(want["BUFFER_POOL"])
        for name, pool in want["BUFFER_POOL"].items():
            got = db["BUFFER_POOL"][name]
            assert (got["type"], got["mode"]) == (pool["type"], pool["mode"])
            if meta["buffer_model"] == "dynamic":  # sized by the buffer manager, or as given
                assert got.get("size") == pool.get("size"), name
        for name, prof in want["BUFFER_PROFILE"].items():
            assert db["BUFFER_PROFILE"][name] == prof, name
        for table in ("BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"):
            assert db.get(table, {}) == want.get(table, {}), table
        lossless = {k: v for k, v in db["BUFFER_PG"].items() if _lossless(db, v["profile"])}
        lossy_pgs = {k: v for k, v in db["BUFFER_PG"].items() if k not in lossless}
        assert lossy_pgs == {k: v for k, v in want["BUFFER_PG"].items()
                             if v["profile"] != "NULL"}
        if meta["buffer_model"] == "dynamic":  # the template's inputs of the computation
            for table in ("LOSSLESS_TRAFFIC_PATTERN", "DEFAULT_LOSSLESS_BUFFER_PARAMETER"):
                assert sorted(db[table]) == sorted(want[table]), table
        kind = {}  # the template's profile for a lossless (3) and a lossy (0) queue
        for key, v in want["BUFFER_QUEUE"].items():
            for q in _ids(key.split("|")[1]):
                kind[q in (3, 4)] = v["profile"]
        pfc = set(plan.qos.pfc_priorities)
        for key, v in db["BUFFER_QUEUE"].items():
            port, ids = key.split("|")
            for q in _ids(ids):
                assert v["profile"] == kind[q in pfc and port in lossless_ports(db)], key


def lossless_ports(db: dict) -> set[str]:
    return {k for k, v in db["PORT_QOS_MAP"].items() if v.get("pfc_enable")}


@needs_skus
def test_lossless_profiles_carry_buffermgrd_names(rendered):
    """buffermgrd (traditional model) reuses a profile named pg_lossless_<speed>_<cable>_profile
    and leaves a PG that names it alone; its key is the PFC priorities as a range."""
    for _plan, db in rendered:
        cables = db["CABLE_LENGTH"]["AZURE"]
        spans: dict[str, list[list[int]]] = {}
        for key, v in db["BUFFER_PG"].items():
            port, ids = key.split("|")
            if not _lossless(db, v["profile"]):
                continue
            assert v["profile"] in ("NULL", f"pg_lossless_{db['PORT'][port]['speed']}_"
                                            f"{cables[port]}_profile")
            spans.setdefault(port, []).append(_ids(ids))
        pg_of = next(iter(db["TC_TO_PRIORITY_GROUP_MAP"].values()))
        for port, entry in db["PORT_QOS_MAP"].items():
            if not entry.get("pfc_enable"):
                assert port not in spans
                continue
            want = sorted(int(pg_of[p]) for p in entry["pfc_enable"].split(","))
            got = sorted(spans[port])
            assert [i for span in got for i in span] == want, port
            # maximal runs, as orch.cpp generateIdListFromMap writes them
            assert all(a[-1] + 1 < b[0] for a, b in zip(got, got[1:])), port


def test_spectrum_reserves_by_hand():
    """buffer_pool_mellanox.lua's reserves, worked out by hand: ports of 4, 8 and 4 lanes,
    pipeline latency 19 KiB, one lossy PG per port, SONiC's 9216 B egress lossy profile."""
    # per 4-lane port: management PG 19456 + lossy PG 19456 + 9216 + mirror 10240 = 58368
    # per 8-lane port: 2 x (2 x 19 - 1) KiB = 2 x 37888 + 9216 + 10240 = 95232
    # once: management pool 262144
    assert pool_reserves(19, [4, 8, 4], 1, 9216, 2, False) == \
        262144 + 2 * 58368 + 95232 == 474112
    # a shared headroom pool adds 10 KiB private headroom per lossless port
    assert pool_reserves(19, [4, 8, 4], 1, 9216, 2, True) == 474112 + 20480


@needs_skus
def test_spectrum_pools_follow_sonics_pool_rule(rendered):
    """On a traditional-model SN5600 (V256) the ingress pools and the egress lossy pool are
    what buffer_pool_mellanox.lua computes from the rendered tables: mmu (the SKU's egress
    lossless pool) less every PG's profile size, 19 KiB per lossy PG and per management PG
    (37 KiB on 8-lane ports), the egress profile list's sizes, 10 KiB egress mirror per port
    and the 256 KiB management pool; with two ingress pools each gets half."""
    seen = 0
    for plan, db in rendered:
        if plan.platform != "nvidia-sn5600-sonic" or \
                db["DEVICE_METADATA"]["localhost"]["buffer_model"] == "dynamic":
            continue
        seen += 1
        profiles = db["BUFFER_PROFILE"]
        mmu = int(db["BUFFER_POOL"]["egress_lossless_pool"]["size"])
        lanes = {p: len(e["lanes"].split(",")) for p, e in db["PORT"].items()}
        occupied = 262144
        for key, v in db["BUFFER_PG"].items():
            port, ids = key.split("|")
            prof = profiles[v["profile"]]
            size = int(prof["size"])
            if "xoff" not in prof:  # lossy: implicit reserve
                size += 37888 if lanes[port] == 8 else 19456
            occupied += size * len(_ids(ids))
        for e in db.get("BUFFER_PORT_EGRESS_PROFILE_LIST", {}).values():
            occupied += sum(int(profiles[p]["size"]) for p in e["profile_list"].split(","))
        for port in db["PORT"]:
            occupied += (37888 if lanes[port] == 8 else 19456) + 10240
        ingress = [n for n, p in db["BUFFER_POOL"].items() if p["type"] == "ingress"]
        share = (mmu - occupied) / len(ingress)
        for name, pool in db["BUFFER_POOL"].items():
            if name != "egress_lossless_pool":
                assert pool["size"] == str(math.ceil(share)), (plan.hostname, name)
    if not seen:  # the dynamic model's pools are sized by SONiC: test_tables_are_the_sku_...
        pytest.skip("no traditional-model SN5600 file (Mellanox-SN5600-V256, 200G ports) "
                    "among the rendered inventories")


@needs_skus
def test_pools_within_the_asic_buffer(rendered):
    """No pool is larger than the SKU's buffer, and on Spectrum the ingress pools plus every
    PG's reserve fit in it."""
    for plan, db in rendered:
        meta = db["DEVICE_METADATA"]["localhost"]
        lay = buffers.layout(plan.platform, buffers.main_speed(
            [int(p["speed"]) for p in db["PORT"].values()]), meta["type"])
        mmu = int(_template(plan, db, lay.borrowed_from or lay.sku)["BUFFER_POOL"][
            "egress_lossless_pool"]["size"])
        pools = db["BUFFER_POOL"]
        assert all(int(p.get("size", 0)) <= mmu for p in pools.values())
        if plan.platform == "nvidia-sn5600-sonic" and meta["buffer_model"] == "traditional":
            reserved = sum(int(db["BUFFER_PROFILE"][v["profile"]]["size"])
                           for v in db["BUFFER_PG"].values())
            ingress = sum(int(p["size"]) for p in pools.values() if p["type"] == "ingress")
            assert ingress + reserved <= mmu


def test_headroom_is_computed_for_the_length_config_db_states(tmp_path):
    """CABLE_LENGTH holds whole metres; a 2.5 m cable is written "3m" and its lossless profile
    carries exactly the headroom of a 3 m cable, never the shorter cable's smaller one."""
    import yaml

    def profiles(cable: str, sub: str) -> tuple[dict, dict]:
        path = swapped(tmp_path / sub, "example", "nvidia-sn5600-sonic")
        doc = yaml.safe_load(path.read_text())
        doc["topology"]["host_leaf"]["cable"] = cable
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        plan = next(p for p in nos_plans(path, "sonic", 50) if p.role == "leaf")
        db = json.loads(render_plan(plan))
        return db["CABLE_LENGTH"]["AZURE"], db["BUFFER_PROFILE"]

    cables_25, profiles_25 = profiles("2.5m", "a")
    cables_3, profiles_3 = profiles("3m", "b")
    assert "3m" in cables_25.values() and "2.5m" not in cables_25.values()
    assert cables_25 == cables_3 and profiles_25 == profiles_3


def test_id_ranges_are_written_as_buffermgrd_writes_them():
    """BUFFER_PG/BUFFER_QUEUE keys: a single id, or a maximal run "first-last", as sonic-swss
    orchagent/orch.cpp generateIdListFromMap writes them for buffermgrd (its example: ids 1, 2
    and 5 give "1-2" and "5"), and as SONiC's templates key queues ("3-4", "0-2", "5-6")."""
    assert buffers.ranges([3]) == ["3"]
    assert buffers.ranges([4, 3]) == ["3-4"]
    assert buffers.ranges([0, 1, 2, 5, 6]) == ["0-2", "5-6"]
    assert buffers.ranges([2, 4]) == ["2", "4"]
    assert buffers.ranges([]) == []
