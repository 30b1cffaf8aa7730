"""SONiC PORT entries against the SKU files of sonic-buildimage (../shared/sonic-skus).

The expected values are the SKUs' own `port_config.ini` rows (name, lanes, alias, index, speed,
fec), a file netcfg's port tables are not made from (they come from `platform.json`): every
rendered PORT entry of every SONiC platform of the catalog, at each speed a SKU exists for,
must equal the SKU's row field by field.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from render_cases import nos_plans, swapped

from netcfg.render import render_plan
from netcfg.vendors.sonic import ports

REPO = Path(__file__).resolve().parents[2]
DEVICES = REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage" / "device"
#: CI, which has ../shared, requires it (NETCFG_REQUIRE_YANG, set by .ci/run)
needs_skus = pytest.mark.skipif(
    not DEVICES.is_dir() and os.environ.get("NETCFG_REQUIRE_YANG") != "1",
    reason="SONiC SKU files (../shared/sonic-skus) not present next to the repo")
FACTORY = REPO.parent / "shared" / "factory" / "sonic"
#: ports per cage at each speed the catalog's SONiC modes use
WAYS = {800_000: 1, 400_000: 2, 200_000: 4}


def _sku_rows(platform: str, speed: int) -> dict[str, dict[str, str]]:
    directory, skus = ports.PLATFORMS[platform]
    rows = ports.read_port_config(DEVICES / directory / skus[speed] / "port_config.ini")
    return {r["name"]: r for r in rows if len(r["lanes"].split(",")) > 1}  # no SFP ports


@needs_skus
@pytest.mark.parametrize("platform", sorted(ports.PLATFORMS))
def test_data_file_is_the_import_of_the_shared_files(platform, tmp_path):
    """`python -m netcfg.vendors.sonic.ports ../shared/sonic-skus/sonic-buildimage/device`
    writes what is committed."""
    assert ports.main([str(DEVICES), "--out", str(tmp_path)]) == 0
    committed = json.loads((Path(ports.__file__).parent / "ports" / f"{platform}.json")
                           .read_text())
    assert committed == json.loads((tmp_path / f"{platform}.json").read_text())


@needs_skus
@pytest.mark.parametrize("platform", sorted(ports.PLATFORMS))
@pytest.mark.parametrize("speed", sorted(WAYS))
def test_every_sku_row(platform, speed):
    table = ports.table(platform)
    assert table is not None
    rows = _sku_rows(platform, speed)
    assert len(rows) == 64 * WAYS[speed]
    for name, row in rows.items():
        got = table.entry(name, 8 // WAYS[speed], speed)
        want = {"lanes": row["lanes"], "alias": row["alias"], "index": row["index"]}
        if "fec" in row:
            want["fec"] = row["fec"]
        assert got == want, name


def test_every_sonic_platform_of_the_catalog_has_a_port_table():
    from netcfg.platforms import load_catalog

    sonic = {n for n, p in load_catalog().platforms.items() if p.nos == "sonic"}
    assert sonic == set(ports.PLATFORMS)
    assert all(ports.table(n) is not None for n in sonic)


def test_a_port_outside_the_breakout_is_refused():
    table = ports.table("arista-7060x6-sonic")
    assert table is not None
    with pytest.raises(ValueError, match="not a port of Ethernet0 split 2 ways"):
        table.entry("Ethernet2", 4, 400_000)


@needs_skus
@pytest.mark.parametrize("platform", sorted(ports.PLATFORMS))
def test_rendered_port_tables_equal_the_sku(platform, tmp_path):
    """The example fabric (every port 400G) on the platform: each PORT entry equals the
    400G SKU's row (lanes, alias, index, speed, fec)."""
    plans = nos_plans(swapped(tmp_path, "example", platform), "sonic", sample=4)
    rows = _sku_rows(platform, 400_000)
    for plan in plans:
        db = json.loads(render_plan(plan))
        assert db["PORT"]
        for name, entry in db["PORT"].items():
            row = rows[name]
            for key in ("lanes", "alias", "index", "speed"):
                assert entry.get(key) == row.get(key), (plan.hostname, name, key)
            # FEC as SONiC's own port generator writes it from the SKU files (sonic-cfggen -H
            # -k <SKU>: ../shared/factory/sonic/<SKU>/config_db.json): the ini's where it
            # states one, else rs at 50G per lane or more (every SN5600 port)
            if FACTORY.is_dir():
                sku = ports.PLATFORMS[platform][1][400_000]
                generated = json.loads((FACTORY / sku / "config_db.json").read_text())["PORT"]
                assert entry.get("fec") == generated[name].get("fec"), (plan.hostname, name)
            elif row.get("fec"):
                assert entry.get("fec") == row["fec"], (plan.hostname, name)
