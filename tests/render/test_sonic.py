"""SONiC config_db.json renderer and reader.

Goldens (golden/sonic/) were read against the vendor notes (sonic.md, SUMMARY-cumulus-sonic.md)
and SONiC's YANG models; checked by hand:
- PORT: lanes, alias, index and fec as the SKU's port_config.ini states them (compared row by
  row in test_sonic_ports.py; Arista 7060X6 lanes are permuted, e.g. Ethernet0 = 17-20);
  speed in Mb/s; mtu = L2 frame - 22 (orchagent adds header, tag and FCS back); all strings.
- The lossless chain lines up for TC 3: DSCP 26 -> TC 3 (DSCP_TO_TC_MAP, all 64 code points),
  TC 3 -> PG 3 (TC_TO_PRIORITY_GROUP_MAP, lossy TCs -> PG 0), TC 3 -> queue 3, PFC 3 -> queue 3,
  PORT_QOS_MAP pfc_enable "3" and pfcwd_sw_enable "3", BUFFER_PG <port>|3 -> the port's
  lossless profile (xon/xoff/size in bytes, dynamic_th an exponent), BUFFER_QUEUE <port>|3 ->
  egress_lossless_profile, QUEUE <port>|3 -> WRED profile with ecn_all, green thresholds in
  bytes, green_drop_probability 0..100 (the marking probability with ECN on).
- CNP (DSCP 48 -> TC 6) queue 6 uses a STRICT scheduler; ETS classes are DWRR with the weight.
- PFC_WD per port: detection/restoration in ms within 100..5000 / 100..60000; GLOBAL
  POLL_INTERVAL is not above them. CABLE_LENGTH in whole metres ("3m", "40m").
- SWITCH_HASH|GLOBAL ecmp_hash uses sonic-hash.yang field names.
Every rendered file is also validated with the YANG models in ../shared/sonic-yang/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
from render_cases import nos_plans, swapped

from netcfg.render import environment, render_plan
from netcfg.render.facts import facts_of
from netcfg.render.plan import DevicePlan
from netcfg.vendors import vendor
from netcfg.vendors.sonic import render as sonic

REPO = Path(__file__).resolve().parents[2]
INVENTORIES = REPO / "inventories"
GOLDEN = Path(__file__).parent / "golden" / "sonic"
SONIC_YANG = REPO.parent / "shared" / "sonic-yang"


def _yang_skip_reason() -> str | None:
    """Why the YANG tests cannot run here, or None. CI (NETCFG_REQUIRE_YANG=1) never skips for
    a missing libyang: it installs it (.ci/run)."""
    if not SONIC_YANG.is_dir():
        return "SONiC YANG models (../shared/sonic-yang) not present next to the repo"
    if os.environ.get("NETCFG_REQUIRE_YANG") == "1":
        return None
    try:
        import libyang  # noqa: F401
    except ImportError:
        return ("the libyang binding is not installed: apt-get install libyang2-dev, then "
                "pip install -e '.[yang]' (shared/sonic-yang/README.md)")
    return None


needs_yang = pytest.mark.skipif(_yang_skip_reason() is not None, reason=str(_yang_skip_reason()))
PLATFORM = "nvidia-sn5600-sonic"
UPDATE = os.environ.get("NETCFG_UPDATE_GOLDEN") == "1"


def plans(path: Path, sample: int = 12) -> list[DevicePlan]:
    return nos_plans(path, "sonic", sample)


@pytest.fixture(scope="module")
def multivendor() -> list[DevicePlan]:
    return plans(INVENTORIES / "multivendor" / "fabric.yaml")


@pytest.fixture(scope="module")
def all_plans(tmp_path_factory, multivendor) -> list[DevicePlan]:
    tmp = tmp_path_factory.mktemp("inv")
    return (multivendor + plans(swapped(tmp, "example", PLATFORM))
            + plans(swapped(tmp, "multivendor", PLATFORM))
            + plans(swapped(tmp, "gpu2048", PLATFORM)))


def test_multivendor_has_four_sonic_leaves(multivendor):
    assert sorted(p.hostname for p in multivendor) == [f"leaf-su2-r{i}" for i in range(1, 5)]


@pytest.mark.parametrize("host", ["leaf-su2-r1", "leaf-su2-r4"])
def test_golden(multivendor, host):
    plan = next(p for p in multivendor if p.hostname == host)
    text = render_plan(plan)
    golden = GOLDEN / f"multivendor-{host}.json"
    if UPDATE:
        golden.write_text(text)
    assert text == golden.read_text()


def test_round_trip_every_inventory(all_plans):
    assert len(all_plans) > 20
    for plan in all_plans:
        got = sonic.read(render_plan(plan))
        want = sonic.expected(plan)
        assert got == want, (plan.hostname, want.differences(got))
        assert want == facts_of(plan)


def test_render_is_deterministic(multivendor):
    plan = multivendor[0]
    assert render_plan(plan) == render_plan(plan)


def test_missing_value_fails():
    """StrictUndefined: no config_db in the view is an error (tojson refuses an Undefined)."""
    with pytest.raises((jinja2.UndefinedError, TypeError)):
        environment().get_template(vendor("sonic").template).render(plan=None, v={})


def test_conversions(multivendor):
    plan = multivendor[0]
    port = plan.interfaces[1]
    db = json.loads(render_plan(plan))
    entry = db["PORT"][port.name]
    # Arista-7060X6-64PE-O128S2/port_config.ini: Ethernet4 21,22,23,24 etp1b 1 400000 rs
    assert (plan.platform, port.name) == ("arista-7060x6-sonic", "Ethernet4")
    assert (entry["lanes"], entry["alias"], entry["index"], entry["fec"]) == (
        "21,22,23,24", "etp1b", "1", "rs")
    # portmgr: PORT.mtu is the Linux MTU (the frame less its 14-byte header); orchagent adds 22
    assert entry["mtu"] == str(port.mtu - 14) and entry["speed"] == str(port.speed)
    assert sonic.cable(2.1) == "3m" and sonic.cable(40.0) == "40m"
    # traditional model: the profile buffermgrd itself makes from the SKU's
    # pg_profile_lookup.ini (Arista-7060X6-64PE-O128S2: rows at 5m, 40m and 150m only, so a
    # 3 m cable takes the 5 m row: "400000 5m 18796 0 612140 0 3556"), threshold as
    # dynamic_th of the dynamic pool, with the SKU's xon_offset
    assert db["CABLE_LENGTH"]["AZURE"][port.name] == "3m"
    pg = db["BUFFER_PG"][f"{port.name}|3"]["profile"]
    assert pg == "pg_lossless_400000_3m_profile"
    assert db["BUFFER_PROFILE"][pg] == {"pool": "ingress_lossless_pool", "size": "18796",
                                        "xon": "0", "xoff": "612140", "dynamic_th": "0",
                                        "xon_offset": "3556"}
    # the SKU's shared headroom pool stays (buffers_defaults_t0.j2 of O128S2)
    assert db["BUFFER_POOL"]["ingress_lossless_pool"]["xoff"] == "29423360"


def test_hostile_description_stays_one_json_string(multivendor):
    plan = multivendor[0]
    evil = 'x"}, "PORT": {"Ethernet999": {}}\n# ;{\'<&>'
    plan.interfaces[0].description = evil
    try:
        db = json.loads(render_plan(plan))
    finally:
        plan.interfaces[0].description = multivendor[0].interfaces[0].description
    assert db["PORT"][plan.interfaces[0].name]["description"] == evil
    assert "Ethernet999" not in db["PORT"]


def test_capabilities_name_known_fields():
    from typing import get_args

    from netcfg.intent.qos import HashField
    assert vendor("sonic").capabilities.hash_fields <= set(get_args(HashField))
    assert "rocev2_dest_qp" not in vendor("sonic").capabilities.hash_fields


@needs_yang
def test_yang_valid(all_plans, tmp_path):
    files = []
    for plan in all_plans:
        f = tmp_path / f"{plan.hostname}.json"
        f.write_text(render_plan(plan))
        files.append(str(f))
    run = subprocess.run([sys.executable, str(SONIC_YANG / "validate_config_db.py"), *files],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count(": VALID") == len(files)


@needs_yang
def test_yang_catches_a_broken_render(multivendor, tmp_path):
    """The validator is not a rubber stamp: WRED max below min must be rejected."""
    db = json.loads(render_plan(multivendor[0]))
    prof = next(iter(db["WRED_PROFILE"].values()))
    prof["green_max_threshold"] = str(int(prof["green_min_threshold"]) - 1)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(db))
    run = subprocess.run([sys.executable, str(SONIC_YANG / "validate_config_db.py"), str(f)],
                         capture_output=True, text=True)
    assert run.returncode != 0


@pytest.fixture(scope="module")
def shp_plans(tmp_path_factory) -> list[DevicePlan]:
    """The multivendor fabric on SN5600 SONiC with a shared headroom pool (ratio 2)."""
    import yaml

    path = swapped(tmp_path_factory.mktemp("shp"), "multivendor", PLATFORM)
    doc = yaml.safe_load(path.read_text())
    doc.setdefault("qos", {}).setdefault("buffer", {})["shared_headroom_pool"] = {
        "over_subscribe_ratio": 2}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return plans(path)


def test_shared_headroom_pool_is_the_ingress_xoff(shp_plans):
    for plan in shp_plans:
        db = json.loads(render_plan(plan))
        ingress = db["BUFFER_POOL"]["ingress_lossless_pool"]
        shp = plan.qos.pools.headroom_pool
        assert shp > 0 and ingress["xoff"] == str(shp)
        for entry in db["BUFFER_PG"].values():  # lossless PGs reserve only xon
            if entry["profile"] == "NULL":  # dynamic model: the buffer manager's
                continue
            prof = db["BUFFER_PROFILE"][entry["profile"]]
            assert "xoff" not in prof or prof["size"] == prof["xon"]


@needs_yang
def test_yang_valid_with_shared_headroom_pool(shp_plans, tmp_path):
    files = []
    for plan in shp_plans:
        f = tmp_path / f"{plan.hostname}.json"
        f.write_text(render_plan(plan))
        files.append(str(f))
    run = subprocess.run([sys.executable, str(SONIC_YANG / "validate_config_db.py"), *files],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_seed_other_than_the_type_default_is_reported(tmp_path):
    """SONiC picks the seed from DEVICE_METADATA.type (tests/test_vendors.py renders SONiC's
    template): ToRRouter 0, LeafRouter 10, SpineRouter 25. The multivendor seeds (leaf 10,
    spine 25, core 40) differ on every tier, so an all-SONiC fabric gets one CAP005 warning
    per tier, each naming the seed the switch applies."""
    from netcfg.validate import validate

    result = validate(str(swapped(tmp_path, "multivendor", PLATFORM)))
    cap = sorted(f.text().split("gets ", 1)[1].split(" [")[0] for f in result.findings
                 if f.rule == "CAP005")
    assert result.ok and cap == ["0, not 10", "10, not 25", "25, not 40"], cap


def test_server_blocks_are_announced_as_bgpcfgd_reads_them():
    """bgpcfgd (managers_static_rt.py) announces a STATIC_ROUTE|<vrf>|<prefix> with blackhole
    "true" as `ip route <prefix> blackhole tag 1` + `redistribute static`. In the multivendor
    fabric the 8 pod-1 leaves take 8 x 16 server /31s = 256 addresses from 10.128.0.0, so
    leaf-su2-r1 owns 10.128.1.0-31: one /27."""
    from render_cases import _fabric

    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate

    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    db = json.loads(render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su2-r1"])))
    assert db["STATIC_ROUTE"] == {"default|10.128.1.0/27": {"blackhole": "true",
                                                            "advertise": "true"}}
    found = validate(INVENTORIES / "multivendor" / "fabric.yaml").findings
    assert not [f for f in found if f.rule == "CAP009"]


def _servers_per_leaf(tmp_path: Path, count: int) -> Path:
    """The multivendor fabric with `count` servers per scalable unit (one leaf per rail)."""
    import yaml

    path = tmp_path / "fabric.yaml"
    doc = yaml.safe_load((INVENTORIES / "multivendor" / "fabric.yaml").read_text())
    doc["topology"]["nodes_per_su"] = count
    doc["overrides"].pop("ports")
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_an_odd_server_count_is_announced_as_its_aligned_block(tmp_path):
    """15 servers per leaf: 30 addresses = /28 + /29 + /30 + one /31 that would be a block of
    its own, which SONiC cannot announce (the connected /31 shadows a static route of the same
    prefix). Each leaf's run of 15 links starts on a multiple of 8 (the largest power of two
    not above 15), so the runs start every 16 links and link 16k+15 is nobody's.
    leaf-su2-r1, the 9th leaf, has links 128-142: 10.128.0.0 + 2 x 128 = 10.128.1.0 to
    10.128.1.29; the lone /31 is 10.128.1.28/31, its /30 partner 10.128.1.30/31 (link 143)
    is free, and the next leaf starts at link 144 = 10.128.1.32. So the leaf announces the
    whole 10.128.1.0/27 (16 /31s) as one STATIC_ROUTE, and no server is left out (no
    CAP009)."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate

    result = validate(_servers_per_leaf(tmp_path, 15))
    assert result.ok and not [f for f in result.findings if f.rule == "CAP009"]
    fabric = result.fabric
    leaf = fabric.devices["leaf-su2-r1"]
    db = json.loads(render_plan(PlanBuilder(fabric, result.physics).plan(leaf)))
    assert db["STATIC_ROUTE"] == {"default|10.128.1.0/27": {"blackhole": "true",
                                                            "advertise": "true"}}
    import ipaddress
    server_ports = sorted(ipaddress.IPv4Interface(k.split("|")[1]) for k in db["INTERFACE"]
                          if "|10.128." in k)
    # the leaf takes the even address of each server /31: .0, .2, ... .28, the lone one last
    assert len(server_ports) == 15 and str(server_ports[-1]) == "10.128.1.28/31"
    # the block holds addresses of this leaf and its 15 NICs only
    first, last = (10 << 24) | (128 << 16) | (1 << 8), (10 << 24) | (128 << 16) | (1 << 8) | 31
    owners = {d.name for d in fabric.devices.values() for p in d.ports
              if p.address is not None and first <= p.address <= last}
    assert "leaf-su2-r1" in owners and len(owners) == 16
    assert all(o == "leaf-su2-r1" or o.startswith("gpu-su2-") for o in owners), owners


def test_a_lone_server_subnet_beside_another_leafs_is_reported(tmp_path):
    """One server per leaf: runs of one link are aligned to one, so leaf i has link i.
    leaf-su2-r1 (the 9th leaf) has link 8 = 10.128.0.16/31; the other half of its /30 is link
    9, 10.128.0.18/31, leaf-su2-r2's server. A covering block would take that leaf's traffic,
    so nothing is announced for it and CAP009 names the leaves (rails 1-4 of pod 2)."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate

    result = validate(_servers_per_leaf(tmp_path, 1))
    cap = [f for f in result.findings if f.rule == "CAP009"]
    assert result.ok and len(cap) == 1 and cap[0].severity == "warning"
    assert ("on leaf-su2-r1 and 3 more server subnets form no block (10.128.0.16/31)"
            in cap[0].text())
    fabric = result.fabric
    assert fabric.devices["leaf-su2-r2"].port("Ethernet0").peer.ip == "10.128.0.19/31"
    db = json.loads(render_plan(PlanBuilder(fabric, result.physics).plan(
        fabric.devices["leaf-su2-r1"])))
    assert "STATIC_ROUTE" not in db


def test_an_address_of_another_device_in_the_other_half_keeps_the_subnet_alone(tmp_path):
    """15 servers per leaf again, with a spine's management address put at 10.128.1.31: the
    /30 partner of leaf-su2-r1's lone 10.128.1.28/31 (10.128.1.30/31) now holds another
    device's address, so that leaf keeps its exact blocks (/28 + /29 + /30) and CAP009 names
    it alone; the other SONiC leaves still announce their /27s."""
    import yaml

    from netcfg.validate import validate

    path = _servers_per_leaf(tmp_path, 15)
    doc = yaml.safe_load(path.read_text())
    doc["devices"] = {"spine-pod1-1": {"management": {"address": "10.128.1.31/24"}}}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    result = validate(path)
    cap = [f for f in result.findings if f.rule == "CAP009"]
    assert result.ok and len(cap) == 1
    assert "on leaf-su2-r1 server subnets form no block (10.128.1.28/31)" in cap[0].text()
    fabric = result.fabric
    assert fabric.devices["leaf-su2-r1"].server_prefixes()[1] == [
        "10.128.1.0/28", "10.128.1.16/29", "10.128.1.24/30", "10.128.1.28/31"]
    # leaf-su2-r2 has links 144-158 (10.128.1.32 to .61); link 159 is free: one /27
    assert fabric.devices["leaf-su2-r2"].server_prefixes()[1] == ["10.128.1.32/27"]


def test_spines_take_routes_through_leaves_with_their_own_asn(tmp_path):
    """SONiC's bgpd/templates/general/peer-group.conf.j2 (../shared/sonic-skus) gives a
    LeafRouter's peer groups `allowas-in 1` only with BGP_BBR status enabled; the multivendor
    fabric's spines of a pod share an ASN, so a SONiC spine must have it (a leaf, ToRRouter,
    always has it)."""
    template = (REPO.parent / "shared" / "sonic-skus" / "sonic-buildimage" / "dockers" /
                "docker-fpm-frr" / "frr" / "bgpd" / "templates" / "general" /
                "peer-group.conf.j2")
    if not template.is_file():
        pytest.skip("SONiC's bgpd templates (../shared/sonic-skus) not present next to the repo")
    by_role = {}
    for plan in plans(swapped(tmp_path, "multivendor", PLATFORM)):
        by_role.setdefault(plan.role, plan)
    spine_asns = {n.remote_as for n in by_role["leaf"].bgp.neighbors}
    assert len(spine_asns) < len({n.name for n in by_role["leaf"].bgp.neighbors})  # shared
    for role, want in (("leaf", 2), ("spine", 2)):
        db = json.loads(render_plan(by_role[role]))
        text = jinja2.Template(template.read_text()).render(
            CONFIG_DB__DEVICE_METADATA=db["DEVICE_METADATA"],
            CONFIG_DB__BGP_BBR=db.get("BGP_BBR", {}).get("all", {}))
        assert text.count("allowas-in 1") == want, role


MANAGEMENT = """management:
  ntp_servers: [192.0.2.123, 198.51.100.7]
  dns_servers: [192.0.2.53]
  syslog_servers: [192.0.2.55]
  syslog_severity: warning
  snmp:
    location: DC1 hall 2
    contact: noc@example.com
    community: {password_env: NETCFG_SNMP_COMMUNITY}
  banners:
    login: Authorised use only.
    motd: managed by netcfg
  aaa:
    protocol: %s
    servers: [192.0.2.7, 192.0.2.8]
    key: {password_env: NETCFG_AAA_KEY}
"""


@needs_yang
@pytest.mark.parametrize("protocol", ["tacacs+", "radius"])
def test_yang_valid_with_the_management_plane(tmp_path, protocol):
    """Every management table (NTP, DNS, syslog, SNMP, banner, AAA with TACACS+ or RADIUS)
    under SONiC's whole YANG set, with the secrets as `netcfg push` puts them in."""
    from render_cases import render_multivendor

    from netcfg.render.plan import AAA_KEY, SNMP_COMMUNITY

    text = render_multivendor(tmp_path, MANAGEMENT % protocol)["leaf-su2-r1"]
    db = json.loads(text.replace(SNMP_COMMUNITY, "ro-community").replace(AAA_KEY, "aaa-key"))
    assert db["SYSLOG_SERVER"] == {"192.0.2.55": {"severity": "warn"}}  # RFC 5424 warning
    assert {"NTP_SERVER", "DNS_NAMESERVER", "SNMP", "SNMP_COMMUNITY", "BANNER_MESSAGE",
            "AAA"} <= set(db)
    f = tmp_path / "leaf.json"
    f.write_text(json.dumps(db))
    run = subprocess.run([sys.executable, str(SONIC_YANG / "validate_config_db.py"), str(f)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
