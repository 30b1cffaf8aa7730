"""What SONiC's own BGP configuration makes of netcfg's CONFIG_DB: bgpcfgd renders each
BGP_NEIGHBOR through docker-fpm-frr's `bgpd/templates/general/instance.conf.j2` (the copy in
../shared/sonic-skus, sonic-buildimage 086b03bd), with the arguments bgpcfgd's
`BGPPeerMgrBase.add_peer` passes (src/sonic-bgpcfgd/bgpcfgd/managers_bgp.py) and the filters of
its `TemplateFabric` (template.py: `ipv4`/`ipv6` test the address family with netaddr). The
expected FRR lines are written by hand from the intent and the addressing plan."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2
import netaddr
import pytest
import yaml
from render_cases import INVENTORIES, _fabric

from netcfg.render import render_plan
from netcfg.render.plan import PlanBuilder

REPO = Path(__file__).resolve().parents[2]
FRR_TEMPLATES = (REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage" / "dockers" /
                 "docker-fpm-frr" / "frr")

pytestmark = pytest.mark.skipif(
    not (FRR_TEMPLATES / "bgpd" / "templates" / "general" / "instance.conf.j2").is_file(),
    reason="SONiC's bgpd templates (../shared/sonic-skus) not present next to the repo")


def _family(value: object) -> int | None:
    try:
        return netaddr.IPNetwork(str(value)).version if value else None
    except (netaddr.AddrFormatError, netaddr.AddrConversionError):
        return None


def bgpcfgd_templates() -> jinja2.Environment:
    """The Jinja2 environment bgpcfgd renders with: its loader root is the frr template
    folder, trim_blocks off, and the address-family tests it registers."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(FRR_TEMPLATES)),
                             trim_blocks=False)
    env.filters["ipv4"] = lambda v: _family(v) == 4
    env.filters["ipv6"] = lambda v: _family(v) == 6
    return env


def neighbor_commands(db: dict, address: str) -> list[str]:
    """The FRR commands bgpcfgd sends for one BGP_NEIGHBOR entry of `db` (its `add` template),
    stripped, comments dropped."""
    meta = db["DEVICE_METADATA"]
    text = bgpcfgd_templates().get_template("bgpd/templates/general/instance.conf.j2").render(
        CONFIG_DB__DEVICE_METADATA=meta, CONFIG_DB__BGP_BBR=db.get("BGP_BBR", {}),
        constants={}, bgp_asn=meta["localhost"]["bgp_asn"], vrf="default",
        neighbor_addr=address, is_interface_neighbor=False,
        bgp_session=dict(db["BGP_NEIGHBOR"][address]))
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("!")]


def _leaf_db(tmp_path: Path, timers: dict | None) -> dict:
    """config_db.json of leaf-su2-r1, the multivendor fabric's first SONiC leaf, with
    `routing.timers` set to `timers` (None: the intent's defaults)."""
    path = INVENTORIES / "multivendor" / "fabric.yaml"
    if timers is not None:
        doc = yaml.safe_load(path.read_text())
        doc["routing"]["timers"] = timers
        path = tmp_path / "fabric.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
    fabric, physics = _fabric(str(path))
    return json.loads(render_plan(PlanBuilder(fabric, physics).plan(
        fabric.devices["leaf-su2-r1"])))


def test_default_timers_reach_bgpd_as_sonic_renders_them(tmp_path):
    """The intent's default timers (keepalive 3 s, hold 9 s: docs/intent.md) as SONiC stores
    them (strings), and the line bgpcfgd gives FRR. leaf-su2-r1 is the 9th leaf in build
    order; the 8 leaves before it own 8 x 16 = 128 fabric /31s from 10.64.0.0, so its first
    uplink is /31 number 128 = 10.64.0.0 + 256 = 10.64.1.0, the spine's end the even
    address (10.64.1.0), the leaf's the odd one (10.64.1.1)."""
    db = _leaf_db(tmp_path, None)
    entry = db["BGP_NEIGHBOR"]["10.64.1.0"]
    assert (entry["keepalive"], entry["holdtime"], entry["local_addr"]) == ("3", "9",
                                                                         "10.64.1.1")
    commands = neighbor_commands(db, "10.64.1.0")
    assert "neighbor 10.64.1.0 timers 3 9" in commands
    assert "neighbor 10.64.1.0 peer-group PEER_V4" in commands  # the family test held
    for address in db["BGP_NEIGHBOR"]:  # every session, 16 uplinks
        assert f"neighbor {address} timers 3 9" in neighbor_commands(db, address)
    assert len(db["BGP_NEIGHBOR"]) == 16


def test_other_timers_reach_bgpd(tmp_path):
    db = _leaf_db(tmp_path, {"keepalive": "10s", "hold": "30s"})
    assert "neighbor 10.64.1.0 timers 10 30" in neighbor_commands(db, "10.64.1.0")


def test_timers_of_frrs_own_defaults_are_left_to_it(tmp_path):
    """instance.conf.j2 writes the line only for values other than 60/180 ("set the bgp
    neighbor timers if they have not default values"): the file still states them, and FRR
    runs its profile's defaults, 60/180 under SONiC's `traditional` (docs/render-sonic.md)."""
    db = _leaf_db(tmp_path, {"keepalive": "60s", "hold": "180s"})
    entry = db["BGP_NEIGHBOR"]["10.64.1.0"]
    assert (entry["keepalive"], entry["holdtime"]) == ("60", "180")
    assert not [c for c in neighbor_commands(db, "10.64.1.0")
                if c.startswith("neighbor 10.64.1.0 timers ") and "connect" not in c]


def test_validate_has_nothing_to_say_of_60_180_on_sonic(tmp_path):
    """Those are the timers SONiC's template drops (the test above runs it), and the ones
    SONiC's FRR then runs: its `traditional` profile's defaults (FRR bgpd/bgp_vty.c:
    BGP_KEEPALIVE 60, BGP_HOLDTIME 180 outside `datacenter`; which profile SONiC's FRR runs:
    docs/lab-sonic.md, "FRR"). So validate names no BGP timer for them, nor for others."""
    from netcfg.validate import validate

    doc = yaml.safe_load((INVENTORIES / "multivendor" / "fabric.yaml").read_text())
    for keepalive, hold in (("60s", "180s"), ("10s", "30s")):
        doc["routing"]["timers"] = {"keepalive": keepalive, "hold": hold}
        (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        assert not [f for f in validate(tmp_path).findings
                    if "BGP timers" in f.message], (keepalive, hold)
