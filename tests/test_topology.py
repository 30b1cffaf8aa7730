"""The topology generator, through netcfg.validate.validate on small inventories."""

from __future__ import annotations

import copy
import ipaddress
import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from netcfg.topology.fabric import Fabric
from netcfg.validate import Validation, validate

CUMULUS = "nvidia-sn5600-cumulus"
LINK400 = {"speed": "400G", "cable": "3m"}


# --------------------------------------------------------------------------- helpers


def write_inventory(root: Path, fabric: dict, devices: dict | None = None) -> Path:
    """Write fabric.yaml (and optionally devices.yaml) into a fresh directory under `root`."""
    for i in itertools.count():
        inv = root / f"inv{i}"
        if not inv.exists():
            break
    inv.mkdir(parents=True)
    (inv / "fabric.yaml").write_text(yaml.safe_dump(fabric, sort_keys=False))
    if devices is not None:
        (inv / "devices.yaml").write_text(yaml.safe_dump(devices, sort_keys=False))
    return inv


def run(root: Path, fabric: dict, devices: dict | None = None) -> Validation:
    return validate(write_inventory(root, fabric, devices))


def build(root: Path, fabric: dict, devices: dict | None = None) -> Fabric:
    v = run(root, fabric, devices)
    assert v.ok, "\n".join(f.text() for f in v.findings)
    assert v.fabric is not None
    return v.fabric


def rail(*, platform: str = CUMULUS, extra: dict | None = None, **topo) -> dict:
    """A small rail-optimized intent; keyword arguments override topology keys."""
    t = {"kind": "rail_optimized", "tiers": 2, "scalable_units": 1, "nodes_per_su": 4,
         "node": {"gpus": 8, "nics": 2, "nic": "connectx-7"}, "spines": 2,
         "host_leaf": {"speed": "400G", "cable": "3m"},
         "leaf_spine": {"speed": "400G", "cable": "30m"}}
    t.update(topo)
    data = {"fabric": {"name": "t"}, "topology": t,
            "platforms": {"leaf": platform, "spine": platform, "core": platform}}
    for key, value in (extra or {}).items():
        data[key] = value
    return data


def three_tier(**kw) -> dict:
    base = dict(tiers=3, scalable_units=4, sus_per_pod=2, cores=4,
                spine_core={"speed": "400G", "cable": "100m"})
    base.update(kw)
    return rail(**base)


def links_between(fabric: Fabric, a: str, b: str) -> int:
    return sum(1 for lk in fabric.links if {lk.a.device.name, lk.b.device.name} == {a, b})


def kinds(fabric: Fabric) -> Counter:
    return Counter(lk.kind for lk in fabric.links)


def dump(fabric: Fabric) -> str:
    """Everything a renderer would use, serialized in a stable order."""
    out = []
    for name in sorted(fabric.devices):
        d = fabric.devices[name]
        out.append({
            "name": d.name, "role": d.role, "tier": d.tier, "platform": d.platform,
            "asn": d.asn, "loopback": d.loopback_ip, "management": d.management, "mtu": d.mtu,
            "seed": d.ecmp_seed, "plane": d.plane, "pod": d.pod, "su": d.su, "rail": d.rail,
            "ports": [[p.name, p.peer.id if p.peer else None, p.ip, p.speed, p.cable, p.mtu,
                       p.lossless, p.description] for p in d.ports],
        })
    out.append([[lk.a.id, lk.b.id, lk.lossless] for lk in fabric.links])
    return json.dumps(out, sort_keys=True)


# --------------------------------------------------------------------------- sizing relations


def check_sizing(f: Fabric, data: dict) -> None:
    """The counts every rail-optimized fabric must have (README / rail.py docstring)."""
    t = data["topology"]
    sus, nodes, rails = t["scalable_units"], t["nodes_per_su"], t["node"]["nics"]
    planes, spines = t.get("planes", 1), t["spines"]
    tiers = t.get("tiers", 2)
    leaf_uplinks = t.get("leaf_uplinks") or nodes
    pods = sus // t["sus_per_pod"] if tiers == 3 else 1
    s = f.summary()
    leaves = sus * rails * planes
    assert s.get("leaf", 0) == leaves
    assert s.get("host", 0) == sus * nodes
    assert s.get("spine", 0) == spines * planes * pods
    k = kinds(f)
    assert k["host-leaf"] == sus * nodes * rails * planes
    assert k["leaf-spine"] == leaves * leaf_uplinks
    total = k["host-leaf"] + k["leaf-spine"]
    if tiers == 3:
        assert s.get("core", 0) == t["cores"] * planes
        n_spines = spines * planes * pods
        spine_down = (leaves // (planes * pods)) * (leaf_uplinks // spines)
        spine_uplinks = t.get("spine_uplinks") or spine_down
        assert k["spine-core"] == n_spines * spine_uplinks
        total += k["spine-core"]
    else:
        assert s.get("core", 0) == 0
    assert s["links"] == total == len(f.links)
    assert s["ports"] == 2 * total


SHAPES = {
    "2tier-1su": rail(),
    "2tier-3su": rail(scalable_units=3, nodes_per_su=3, spines=3,
                      node={"nics": 4, "nic": "connectx-7"}),
    "2tier-oversub": rail(scalable_units=2, nodes_per_su=8, leaf_uplinks=4, spines=2),
    "2tier-undersub": rail(scalable_units=2, nodes_per_su=2, leaf_uplinks=8, spines=4),
    "2tier-planes2": rail(scalable_units=2, planes=2, node={"nics": 2, "nic": "connectx-8"}),
    "3tier": three_tier(),
    "3tier-spine-uplinks": three_tier(spine_uplinks=4),
    "3tier-planes2": three_tier(scalable_units=2, sus_per_pod=1, cores=2, planes=2,
                                node={"nics": 2, "nic": "connectx-8"}),
    "3tier-3pods": three_tier(scalable_units=3, sus_per_pod=1, nodes_per_su=2, spines=1,
                              cores=2, node={"nics": 1, "nic": "connectx-7"}),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_sizing(tmp_path, name):
    data = SHAPES[name]
    check_sizing(build(tmp_path, data), data)


def test_sizing_explicit_numbers(tmp_path):
    f = build(tmp_path, rail(scalable_units=2, nodes_per_su=4, spines=2))
    assert f.summary() == {"leaf": 4, "host": 8, "spine": 2, "links": 32, "ports": 64}
    f = build(tmp_path, three_tier())
    s = f.summary()
    assert (s["leaf"], s["host"], s["spine"], s["core"]) == (8, 16, 4, 4)
    # 32 host-leaf + 8 leaves x 4 uplinks + 4 spines x 8 uplinks
    assert s["links"] == 32 + 32 + 32


def test_example_inventory_counts():
    v = validate(Path(__file__).resolve().parent.parent / "inventories" / "example")
    assert v.ok, [f.text() for f in v.findings]
    s = v.fabric.summary()
    assert (s["leaf"], s["host"], s["spine"], s["links"]) == (8, 32, 4, 32 * 8 + 8 * 32)


# --------------------------------------------------------------------------- ports and peers


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_port_has_a_symmetric_peer(tmp_path, name):
    f = build(tmp_path, SHAPES[name])
    for d in f.devices.values():
        names = [p.name for p in d.ports]
        assert len(names) == len(set(names)), f"{d.name}: duplicate port names"
        for p in d.ports:
            assert p.device is d
            assert p.peer is not None, p.id
            assert p.peer.peer is p, p.id
            assert p.peer.device is not d, p.id
            assert p.link is not None and p.link is p.peer.link
            assert {p.link.a, p.link.b} == {p, p.peer}
            assert p.speed == p.peer.speed
    assert len({id(lk) for lk in f.links}) == len(f.links)


def _leaf(f: Fabric, su=1, rail=1, plane=1):
    (leaf,) = [d for d in f.by_role("leaf") if (d.su, d.rail, d.plane) == (su, rail, plane)]
    return leaf


def _downs_and_ups(leaf):
    downs = [p.name for p in leaf.ports if p.peer.device.tier == 0]
    ups = [p.name for p in leaf.ports if p.peer.device.tier > leaf.tier]
    return downs, ups


# (platform, host speed, uplink speed) -> first four downlink names, first four uplink names
NAMING = [
    (CUMULUS, "400G", "400G", ["swp1s0", "swp1s1", "swp2s0", "swp2s1"],
     ["swp3s0", "swp3s1", "swp4s0", "swp4s1"]),
    (CUMULUS, "200G", "800G", ["swp1s0", "swp1s1", "swp1s2", "swp1s3"],
     ["swp2", "swp3", "swp4", "swp5"]),
    ("nvidia-sn4700-cumulus", "400G", "400G", ["swp1", "swp2", "swp3", "swp4"],
     ["swp5", "swp6", "swp7", "swp8"]),
    ("nvidia-sn5600-sonic", "400G", "400G", ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"],
     ["Ethernet16", "Ethernet20", "Ethernet24", "Ethernet28"]),
    ("nvidia-sn5600-sonic", "200G", "800G", ["Ethernet0", "Ethernet2", "Ethernet4", "Ethernet6"],
     ["Ethernet8", "Ethernet16", "Ethernet24", "Ethernet32"]),
    ("arista-7060x6-sonic", "400G", "400G", ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"],
     ["Ethernet16", "Ethernet20", "Ethernet24", "Ethernet28"]),
    ("arista-7060x6-eos", "400G", "400G", ["Ethernet1/1", "Ethernet1/5", "Ethernet2/1",
                                           "Ethernet2/5"],
     ["Ethernet3/1", "Ethernet3/5", "Ethernet4/1", "Ethernet4/5"]),
    ("arista-7060x5-eos", "400G", "400G", ["Ethernet1/1", "Ethernet2/1", "Ethernet3/1",
                                           "Ethernet4/1"],
     ["Ethernet5/1", "Ethernet6/1", "Ethernet7/1", "Ethernet8/1"]),
    ("arista-7060x5-eos", "100G", "400G", ["Ethernet1/1", "Ethernet1/3", "Ethernet1/5",
                                           "Ethernet1/7"],
     ["Ethernet2/1", "Ethernet3/1", "Ethernet4/1", "Ethernet5/1"]),
    ("cisco-n9364d-gx2a-nxos", "400G", "400G", ["Ethernet1/1", "Ethernet1/2", "Ethernet1/3",
                                                "Ethernet1/4"],
     ["Ethernet1/5", "Ethernet1/6", "Ethernet1/7", "Ethernet1/8"]),
    ("cisco-n9364e-sg2-nxos", "400G", "800G", ["Ethernet1/1/1", "Ethernet1/1/2",
                                               "Ethernet1/2/1", "Ethernet1/2/2"],
     ["Ethernet1/3", "Ethernet1/4", "Ethernet1/5", "Ethernet1/6"]),
    ("juniper-qfx5230-junos", "400G", "400G", ["et-0/0/0", "et-0/0/1", "et-0/0/2", "et-0/0/3"],
     ["et-0/0/4", "et-0/0/5", "et-0/0/6", "et-0/0/7"]),
    ("juniper-qfx5240-junos", "400G", "400G", ["et-0/0/0:0", "et-0/0/0:1", "et-0/0/1:0",
                                               "et-0/0/1:1"],
     ["et-0/0/2:0", "et-0/0/2:1", "et-0/0/3:0", "et-0/0/3:1"]),
]


@pytest.mark.parametrize("platform, host, up, downs, ups", NAMING,
                         ids=[f"{p}-{h}-{u}" for p, h, u, *_ in NAMING])
def test_port_naming(tmp_path, platform, host, up, downs, ups):
    nic_speed = host if host in ("400G", "200G", "100G") else "400G"
    data = rail(platform=platform, nodes_per_su=4, spines=2,
                host_leaf={"speed": nic_speed, "cable": "3m"},
                leaf_spine={"speed": up, "cable": "30m"})
    f = build(tmp_path, data)
    leaf = _leaf(f)
    got_downs, got_ups = _downs_and_ups(leaf)
    assert got_downs == downs
    assert got_ups == ups
    # downlinks first, uplinks after, in port order
    assert [p.name for p in leaf.ports] == got_downs + got_ups
    # spines use the same naming, their downlinks (to leaves) from the first cage
    spine = f.by_role("spine")[0]
    if up == host:
        assert [p.name for p in spine.ports][:2] == downs[:2]


def test_sonic_names_are_lane_indexed_on_8_lane_cages(tmp_path):
    f = build(tmp_path, rail(platform="nvidia-sn5600-sonic", nodes_per_su=8))
    downs, ups = _downs_and_ups(_leaf(f))
    assert downs == [f"Ethernet{4 * i}" for i in range(8)]
    assert ups == [f"Ethernet{32 + 4 * i}" for i in range(8)]


def test_odd_downlink_count_leaves_cage_half_empty(tmp_path):
    f = build(tmp_path, rail(nodes_per_su=3, leaf_uplinks=2, spines=2))
    downs, ups = _downs_and_ups(_leaf(f))
    assert downs == ["swp1s0", "swp1s1", "swp2s0"]
    assert ups == ["swp3s0", "swp3s1"]  # uplinks start on a fresh cage


def test_spine_ports_in_leaf_order(tmp_path):
    f = build(tmp_path, rail(scalable_units=2, nodes_per_su=4, spines=2))
    leaves = f.by_role("leaf")
    for spine in f.by_role("spine"):
        peers = [p.peer.device.name for p in spine.ports]
        # each leaf takes leaf_uplinks / spines consecutive ports, leaves in build order
        assert peers == [lf.name for lf in leaves for _ in range(2)]
        assert [p.name for p in spine.ports][:4] == ["swp1s0", "swp1s1", "swp2s0", "swp2s1"]


def test_platform_cage_limit_reported(tmp_path):
    v = run(tmp_path, rail(platform="nvidia-sn4700-cumulus", nodes_per_su=20, spines=2))
    assert not v.ok and v.fabric is None
    assert [f.rule for f in v.findings] == ["TOP001"]
    assert "needs" in v.findings[0].message and "cages" in v.findings[0].message


def test_unsupported_speed_reported(tmp_path):
    v = run(tmp_path, rail(platform="juniper-qfx5240-junos",
                           host_leaf={"speed": "200G", "cable": "3m"}))
    assert [f.rule for f in v.findings] == ["TOP002"]


# --------------------------------------------------------------------------- wiring


@pytest.mark.parametrize("name", ["2tier-3su", "2tier-planes2", "3tier", "3tier-planes2"])
def test_rail_alignment(tmp_path, name):
    data = SHAPES[name]
    t = data["topology"]
    planes = t.get("planes", 1)
    f = build(tmp_path, data)
    hosts_of_su: dict[int, set[str]] = {}
    for h in f.hosts():
        hosts_of_su.setdefault(h.su, set()).add(h.name)
    for leaf in f.by_role("leaf"):
        down = [p for p in leaf.ports if p.peer.device.tier == 0]
        served = [p.peer.device for p in down]
        # leaf r of SU u reaches every server of SU u exactly once, in node order
        assert [h.name for h in served] == sorted(hosts_of_su[leaf.su],
                                                  key=lambda n: f.devices[n].node)
        for p in down:
            # ... on NIC r (and the plane's port of it)
            index = (leaf.rail - 1) * planes + leaf.plane - 1
            assert p.peer.name == f"eth{index}"
    for h in f.hosts():
        leaves = [p.peer.device for p in h.ports]
        assert len(h.ports) == t["node"]["nics"] * planes
        assert len({lf.name for lf in leaves}) == len(leaves)
        assert {(lf.su, lf.rail, lf.plane) for lf in leaves} == {
            (h.su, r, pl) for r in range(1, t["node"]["nics"] + 1) for pl in range(1, planes + 1)}


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_leaf_reaches_every_spine_of_its_plane_and_pod(tmp_path, name):
    data = SHAPES[name]
    t = data["topology"]
    per_spine = (t.get("leaf_uplinks") or t["nodes_per_su"]) // t["spines"]
    f = build(tmp_path, data)
    for leaf, spine in itertools.product(f.by_role("leaf"), f.by_role("spine")):
        same = (leaf.plane, leaf.pod) == (spine.plane, spine.pod)
        assert links_between(f, leaf.name, spine.name) == (per_spine if same else 0), \
            (leaf.name, spine.name)
    # no leaf-leaf, spine-spine or host-spine shortcuts
    assert set(kinds(f)) <= {"host-leaf", "leaf-spine", "spine-core"}


@pytest.mark.parametrize("name", ["3tier", "3tier-spine-uplinks", "3tier-planes2", "3tier-3pods"])
def test_core_groups(tmp_path, name):
    """Spine j of every pod connects to core group j (cores / spines cores), evenly."""
    data = SHAPES[name]
    t = data["topology"]
    f = build(tmp_path, data)
    per_group = t["cores"] // t["spines"]
    for plane in range(1, t.get("planes", 1) + 1):
        cores = [c for c in f.by_role("core") if c.plane == plane]
        assert len(cores) == t["cores"]
        for spine in (s for s in f.by_role("spine") if s.plane == plane):
            j = [s for s in f.by_role("spine") if (s.plane, s.pod) == (plane, spine.pod)
                 ].index(spine)
            group = {c.name for c in cores[j * per_group:(j + 1) * per_group]}
            ups = [p for p in spine.ports if p.peer.device.tier == 3]
            assert {p.peer.device.name for p in ups} == group
            counts = Counter(p.peer.device.name for p in ups)
            assert len(set(counts.values())) == 1
        for core in cores:
            assert all(p.peer.device.plane == plane for p in core.ports)


# --------------------------------------------------------------------------- addressing


@pytest.mark.parametrize("name", list(SHAPES))
def test_p2p_addressing(tmp_path, name):
    f = build(tmp_path, SHAPES[name])
    intent = f.loaded.intent
    fabric_net, host_net = intent.addressing.fabric_links, intent.addressing.host_links
    seen = []
    for lk in f.links:
        a, b = lk.a, lk.b
        assert a.address is not None and b.address is not None, (a.id, b.id)
        seen += [a.address, b.address]
        assert a.address // 2 == b.address // 2, (a.id, a.ip, b.id, b.ip)  # same /31
        upper, lower = (a, b) if a.device.tier > b.device.tier else (b, a)
        assert upper.device.tier > lower.device.tier
        assert upper.address % 2 == 0 and lower.address == upper.address + 1
        net = host_net if lower.device.tier == 0 else fabric_net
        assert ipaddress.IPv4Address(upper.address) in net
        assert a.ip.endswith("/31")
    assert len(seen) == len(set(seen)), "duplicate point-to-point address"


@pytest.mark.parametrize("name", list(SHAPES))
def test_loopbacks_unique(tmp_path, name):
    f = build(tmp_path, SHAPES[name])
    net = f.loaded.intent.addressing.loopbacks
    lbs = [d.loopback for d in f.switches()]
    assert None not in lbs
    assert len(lbs) == len(set(lbs))
    assert all(ipaddress.IPv4Address(x) in net for x in lbs)
    assert all(d.loopback is None for d in f.hosts())


def test_addressing_from_custom_prefixes(tmp_path):
    f = build(tmp_path, rail(extra={"addressing": {
        "loopbacks": "172.16.0.0/24", "fabric_links": "172.17.0.0/24",
        "host_links": "172.18.0.0/24"}}))
    leaf = _leaf(f)
    assert leaf.loopback_ip == "172.16.0.1"
    assert leaf.ports[0].ip == "172.18.0.0/31" and leaf.ports[0].peer.ip == "172.18.0.1/31"
    up = [p for p in leaf.ports if p.peer.device.tier == 2][0]
    assert up.ip == "172.17.0.1/31" and up.peer.ip == "172.17.0.0/31"


def test_server_links_are_numbered_leaf_by_leaf_in_aligned_blocks(tmp_path):
    """6 servers x 2 NICs: each of the 2 rail leaves has 6 server /31s (12 addresses). Leaf 1
    takes 172.18.0.0-11 (blocks /29 + /30); leaf 2 starts on the next multiple of 4 links (the
    largest power of two not above 6), link 8 = address 16: 172.18.0.16-27 (/29 + /30)."""
    f = build(tmp_path, rail(nodes_per_su=6, extra={"addressing": {
        "host_links": "172.18.0.0/24"}}))
    leaves = sorted(f.by_role("leaf"), key=lambda d: d.index)
    assert [str(n) for n in leaves[0].server_subnets()] == [
        f"172.18.0.{a}/31" for a in range(0, 12, 2)]
    assert [str(n) for n in leaves[1].server_subnets()] == [
        f"172.18.0.{a}/31" for a in range(16, 28, 2)]
    assert [str(b) for b in leaves[0].server_blocks()] == ["172.18.0.0/29", "172.18.0.8/30"]
    assert [str(b) for b in leaves[1].server_blocks()] == ["172.18.0.16/29", "172.18.0.24/30"]
    # the NIC end of each /31 is the odd address, and NIC n of server k sits on leaf n
    server = f.devices[leaves[1].ports[0].peer.device.name]
    assert [p.ip for p in server.ports if p.ip] == ["172.18.0.1/31", "172.18.0.17/31"]


def test_prefix_too_small_reported(tmp_path):
    v = run(tmp_path, rail(extra={"addressing": {"fabric_links": "10.1.0.0/29"}}))
    assert not v.ok
    assert [(f.rule, f.path) for f in v.findings] == [("TOP003", "addressing.fabric_links")]
    v = run(tmp_path, rail(extra={"addressing": {"loopbacks": "10.0.0.0/30"}}))
    assert [(f.rule, f.path) for f in v.findings] == [("TOP003", "addressing.loopbacks")]


# --------------------------------------------------------------------------- ASNs


def _asns(f: Fabric, role: str) -> list[int]:
    return [d.asn for d in f.by_role(role)]


def test_asn_default_plan_2tier(tmp_path):
    f = build(tmp_path, rail(scalable_units=2))
    leaves = _asns(f, "leaf")
    assert len(set(leaves)) == len(leaves) == 4
    assert sorted(leaves) == list(range(4_200_000_000, 4_200_000_004))
    assert set(_asns(f, "spine")) == {4_200_100_000}  # per_pod, one pod
    assert all(d.asn is None for d in f.hosts())


def test_asn_per_pod_3tier(tmp_path):
    f = build(tmp_path, three_tier())
    by_pod: dict[int, set[int]] = {}
    for s in f.by_role("spine"):
        by_pod.setdefault(s.pod, set()).add(s.asn)
    assert all(len(v) == 1 for v in by_pod.values())
    assert len({next(iter(v)) for v in by_pod.values()}) == len(by_pod) == 2
    assert {next(iter(by_pod[p])) for p in (1, 2)} == {4_200_100_000, 4_200_100_001}
    assert set(_asns(f, "core")) == {4_200_200_000}
    leaves = _asns(f, "leaf")
    assert len(set(leaves)) == len(leaves)


def test_asn_spine_shared_in_3tier(tmp_path):
    data = three_tier(extra={"routing": {"asn": {"spine": "shared"}}})
    f = build(tmp_path, data)
    assert set(_asns(f, "spine")) == {4_200_100_000}


def test_asn_unique_and_shared_modes(tmp_path):
    data = three_tier(extra={"routing": {"asn": {
        "leaf": "shared", "spine": "unique", "core": "unique",
        "leaf_base": 65000, "spine_base": 65100, "core_base": 65200}}})
    f = build(tmp_path, data)
    assert set(_asns(f, "leaf")) == {65000}
    spines = _asns(f, "spine")
    assert len(set(spines)) == len(spines) and min(spines) == 65100
    cores = _asns(f, "core")
    assert sorted(cores) == [65200, 65201, 65202, 65203]


def test_asn_clash_between_roles_reported(tmp_path):
    v = run(tmp_path, rail(scalable_units=2, extra={"routing": {"asn": {
        "leaf_base": 65000, "spine_base": 65002}}}))
    assert not v.ok
    assert [f.rule for f in v.findings] == ["TOP003"]
    assert "spine_base" in v.findings[0].path


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", ["2tier-3su", "3tier", "2tier-planes2"])
def test_deterministic(tmp_path, name):
    data = SHAPES[name]
    first = dump(build(tmp_path / "a", copy.deepcopy(data)))
    second = dump(build(tmp_path / "b", copy.deepcopy(data)))
    assert first == second


def test_deterministic_example():
    ex = Path(__file__).resolve().parent.parent / "inventories" / "example"
    assert dump(validate(ex).fabric) == dump(validate(ex).fabric)


# --------------------------------------------------------------------------- overrides


def test_device_override_cascade(tmp_path):
    ov = {"roles": {"leaf": {"mtu": 9000, "description": "rail leaf"},
                    "spine": {"ecmp_seed": 7}},
          "devices": {"leaf-*": {"mtu": 9100},
                      "leaf-su1-*": {"mtu": 9150},
                      "leaf-su1-r1": {"mtu": 9200, "asn": 65001, "ecmp_seed": 99}}}
    f = build(tmp_path, rail(scalable_units=2, extra={"overrides": ov}))
    d = f.devices
    assert d["leaf-su1-r1"].mtu == 9200  # exact device beats every glob
    assert d["leaf-su1-r2"].mtu == 9150  # later glob wins
    assert d["leaf-su2-r1"].mtu == 9100  # only leaf-* matches
    assert d["leaf-su1-r1"].description == "rail leaf"  # role value kept where not overridden
    assert d["leaf-su1-r1"].asn == 65001
    assert d["leaf-su1-r1"].ecmp_seed == 99 and d["leaf-su1-r2"].ecmp_seed == 10
    assert all(s.ecmp_seed == 7 for s in f.by_role("spine"))
    assert all(s.mtu == 9216 for s in f.by_role("spine"))
    # ports follow their device's MTU
    assert {p.mtu for p in d["leaf-su1-r2"].ports} == {9150}
    assert d["leaf-su1-r1"].origin["mtu"] == ("overrides", "devices", "leaf-su1-r1", "mtu")
    assert d["leaf-su1-r2"].origin["mtu"] == ("overrides", "devices", "leaf-su1-*", "mtu")


def test_later_glob_wins_regardless_of_specificity(tmp_path):
    ov = {"devices": {"leaf-su1-*": {"mtu": 9150}, "leaf-*": {"mtu": 9100}}}
    f = build(tmp_path, rail(extra={"overrides": ov}))
    assert {d.mtu for d in f.by_role("leaf")} == {9100}


def test_default_seeds(tmp_path):
    f = build(tmp_path, three_tier())
    assert {d.ecmp_seed for d in f.by_role("leaf")} == {10}
    assert {d.ecmp_seed for d in f.by_role("spine")} == {25}
    assert {d.ecmp_seed for d in f.by_role("core")} == {40}


def test_platform_override_by_glob(tmp_path):
    ov = {"devices": {"leaf-su2-*": {"platform": "nvidia-sn5600-sonic"}}}
    f = build(tmp_path, rail(scalable_units=2, extra={"overrides": ov}))
    assert f.devices["leaf-su2-r1"].platform == "nvidia-sn5600-sonic"
    assert f.devices["leaf-su2-r1"].ports[0].name == "Ethernet0"
    assert f.devices["leaf-su1-r1"].platform == CUMULUS
    assert f.devices["leaf-su1-r1"].ports[0].name == "swp1s0"


def test_port_override_cascade(tmp_path):
    ov = {"ports": {"leaf-su1-r1:*": {"mtu": 9000, "description": "glob"},
                    "leaf-su1-r1:swp1*": {"description": "later glob"},
                    "leaf-su1-r1:swp1s0": {"cable": "5m", "description": "exact"},
                    "spine*:swp2s0": {"lossless": False}}}
    f = build(tmp_path, rail(extra={"overrides": ov}))
    leaf = f.devices["leaf-su1-r1"]
    p = {x.name: x for x in leaf.ports}
    assert p["swp1s0"].description == "exact" and p["swp1s0"].cable == 5.0
    assert p["swp1s1"].description == "later glob"
    assert p["swp2s0"].description == "glob"
    assert all(x.mtu == 9000 for x in leaf.ports)
    assert leaf.mtu == 9216
    assert p["swp2s0"].cable == 3.0
    assert all(not s.port("swp2s0").lossless for s in f.by_role("spine"))
    assert all(s.port("swp1s0").lossless for s in f.by_role("spine"))
    assert p["swp1s0"].origin["cable"] == ("overrides", "ports", "leaf-su1-r1:swp1s0", "cable")


def test_cable_override_applies_to_both_ends(tmp_path):
    ov = {"ports": {"leaf-su1-r1:swp1s0": {"cable": "5m"},
                    "spine1:swp1s1": {"cable": "45m"}}}
    f = build(tmp_path, rail(extra={"overrides": ov}))
    p = f.devices["leaf-su1-r1"].port("swp1s0")
    assert p.cable == 5.0 and p.peer.cable == 5.0
    assert p.peer.device.tier == 0
    s = f.devices["spine1"].port("swp1s1")
    assert s.cable == 45.0 and s.peer.cable == 45.0
    untouched = f.devices["leaf-su1-r1"].port("swp1s1")
    assert untouched.cable == 3.0 and untouched.peer.cable == 3.0


def test_override_unknown_device_or_port_reported(tmp_path):
    v = run(tmp_path, rail(extra={"overrides": {"devices": {"leaf-su9-r1": {"mtu": 9000}}}}))
    assert [f.rule for f in v.findings] == ["REF003"]
    v = run(tmp_path, rail(extra={"overrides": {"ports": {"leaf-su1-r1:swp99": {"mtu": 9000}}}}))
    assert [f.rule for f in v.findings] == ["REF003"]
    v = run(tmp_path, rail(extra={"overrides": {"ports": {"leaf-su1-r1": {"mtu": 9000}}}}))
    assert [f.rule for f in v.findings] == ["SCH003"]
    # globs that match nothing are fine
    assert run(tmp_path, rail(extra={"overrides": {"devices": {"zz-*": {"mtu": 9000}}}})).ok


# --------------------------------------------------------------------------- naming templates


def test_custom_naming(tmp_path):
    data = rail(scalable_units=2, naming={"leaf": "tor{su}-{rail}", "host": "srv{su}-{node}",
                                          "spine": "sp{index}"})
    f = build(tmp_path, data)
    assert {d.name for d in f.by_role("leaf")} == {"tor1-1", "tor1-2", "tor2-1", "tor2-2"}
    assert {d.name for d in f.by_role("spine")} == {"sp1", "sp2"}
    assert "srv2-4" in f.devices


def test_naming_collision_reported(tmp_path):
    v = run(tmp_path, rail(naming={"leaf": "leaf{su}"}))
    assert [f.rule for f in v.findings] == ["TOP006"]
    assert v.findings[0].path == "topology.naming.leaf"


@pytest.mark.parametrize("template", ["x{bogus}", "x{0}", "x{su:q}", "x{su"])
def test_bad_naming_template_reported(tmp_path, template):
    v = run(tmp_path, rail(naming={"leaf": template}))
    assert not v.ok
    assert "SCH003" in [f.rule for f in v.findings]


@pytest.mark.parametrize("template", ["x{su[0]}", "x{su.x}"])
def test_naming_template_with_index_or_attribute(tmp_path, template):
    v = run(tmp_path, rail(naming={"leaf": template}))
    assert not v.ok
    assert "SCH003" in [f.rule for f in v.findings]


# --------------------------------------------------------------------------- explicit topology


def explicit(nodes: dict[str, int], links: list, platforms: dict | None = None,
             link_defaults: dict | None = LINK400, **extra) -> dict:
    topo = {"kind": "explicit", "devices": {n: {"tier": t} for n, t in nodes.items()},
            "links": links}
    if link_defaults is not None:
        topo["link_defaults"] = link_defaults
    data = {"fabric": {"name": "x"}, "topology": topo,
            "platforms": platforms or {"leaf": CUMULUS, "spine": CUMULUS, "core": CUMULUS}}
    data.update(extra)
    return data


# The tiny fabrics of shared/cases/deadlock-public.yaml, as explicit inventories.
C01_NODES = {"T0": 1, "T1": 1, "T2": 1, "T3": 1, "S0": 2, "S1": 2}
C01_LINKS = [["T0", "S0"], ["T0", "S1"], ["T1", "S0"], ["T1", "S1"],
             ["T2", "S0"], ["T2", "S1"], ["T3", "S0"], ["T3", "S1"]]
C08_NODES = {"R0": 1, "R1": 1, "R2": 1, "R3": 1}
C08_LINKS = [["R0", "R1"], ["R1", "R2"], ["R2", "R3"], ["R3", "R0"]]
C14_NODES = {"g00": 0, "g01": 0, "g10": 0, "g11": 0, "RL0": 1, "RL1": 1, "S0": 2, "S1": 2}
C14_LINKS = [["g00", "RL0"], ["g10", "RL0"], ["g01", "RL1"], ["g11", "RL1"],
             ["RL0", "S0"], ["RL0", "S1"], ["RL1", "S0"], ["RL1", "S1"]]



def test_explicit_c01_leaf_spine(tmp_path):
    f = build(tmp_path, explicit(C01_NODES, C01_LINKS,
                                 {"leaf": "arista-7060x6-eos", "spine": "nvidia-sn5600-sonic"}))
    assert f.summary() == {"leaf": 4, "spine": 2, "links": 8, "ports": 16}
    assert {d.role for d in f.devices.values()} == {"leaf", "spine"}
    for t, s in itertools.product(["T0", "T1", "T2", "T3"], ["S0", "S1"]):
        assert links_between(f, t, s) == 1
    assert all(lk.lossless and lk.a.lossless and lk.b.lossless for lk in f.links)
    assert [p.name for p in f.devices["T0"].ports] == ["Ethernet1/1", "Ethernet1/5"]
    assert [p.name for p in f.devices["S0"].ports] == ["Ethernet0", "Ethernet4", "Ethernet8",
                                                       "Ethernet12"]
    for lk in f.links:
        assert lk.kind == "leaf-spine"
        spine_end = lk.a if lk.a.device.tier == 2 else lk.b
        assert spine_end.address % 2 == 0
    assert len({d.asn for d in f.by_role("leaf")}) == 4
    assert len({d.asn for d in f.by_role("spine")}) == 1


def test_explicit_c08_ring_with_lossy_link(tmp_path):
    links = [["R0", "R1"], ["R1", "R2"], {"ends": ["R2", "R3"], "lossless": False}, ["R3", "R0"]]
    f = build(tmp_path, explicit(C08_NODES, links))
    assert f.summary() == {"leaf": 4, "links": 4, "ports": 8}
    assert [lk.lossless for lk in f.links] == [True, True, False, True]
    for lk in f.links:
        assert lk.kind == "leaf-leaf"
        assert lk.a.lossless == lk.b.lossless == lk.lossless
    for name in C08_NODES:
        dev = f.devices[name]
        assert len(dev.ports) == 2
        assert {p.peer.device.name for p in dev.ports} == {
            n for pair in C08_LINKS if name in pair for n in pair} - {name}


def test_explicit_c14_with_hosts(tmp_path):
    platforms = {"leaf": "juniper-qfx5240-junos", "spine": "cisco-n9364e-sg2-nxos"}
    f = build(tmp_path, explicit(C14_NODES, C14_LINKS, platforms))
    assert f.summary() == {"host": 4, "leaf": 2, "spine": 2, "links": 8, "ports": 16}
    assert Counter(lk.kind for lk in f.links) == {"host-leaf": 4, "leaf-spine": 4}
    assert [p.peer.device.name for p in f.devices["RL0"].ports] == ["g00", "g10", "S0", "S1"]
    assert f.devices["g00"].ports[0].name == "eth0"
    for lk in f.links:
        lower = min((lk.a, lk.b), key=lambda p: p.device.tier)
        assert lower.address % 2 == 1


def test_explicit_link_speed_cable_and_ports(tmp_path):
    links = [{"ends": ["T0", "S0"], "speed": "800G", "cable": "10m", "ports": ["swp9", "swp10"],
              "description": "uplink"}, ["T0", "S0"]]
    f = build(tmp_path, explicit({"T0": 1, "S0": 2}, links))
    a = f.devices["T0"].port("swp9")
    assert a is not None and a.peer.name == "swp10" and a.speed == 800_000 and a.cable == 10.0
    assert a.description == "uplink"
    other = [p for p in f.devices["T0"].ports if p is not a]
    assert other[0].speed == 400_000 and other[0].cable == 3.0


def test_explicit_device_platform_wins_over_role(tmp_path):
    data = explicit({"T0": 1, "S0": 2}, [["T0", "S0"]])
    data["topology"]["devices"]["S0"]["platform"] = "arista-7060x6-eos"
    f = build(tmp_path, data)
    assert f.devices["S0"].platform == "arista-7060x6-eos"
    assert f.devices["S0"].ports[0].name == "Ethernet1/1"


def test_explicit_without_link_defaults(tmp_path):
    v = run(tmp_path, explicit({"T0": 1, "S0": 2}, [["T0", "S0"]], link_defaults=None))
    assert v.ok, [f.text() for f in v.findings]
    port = v.fabric.links[0].a
    assert port.speed == 400_000 and port.cable == 3.0


def test_explicit_errors_reported(tmp_path):
    v = run(tmp_path, explicit({"T0": 1, "S0": 2}, [["T0", "S00"]]))
    assert [(f.rule, f.path) for f in v.findings] == [("REF003", "topology.links[0][1]")]
    assert (v.findings[0].line, v.findings[0].column) == (12, 7)  # the S00 of the shorthand
    v = run(tmp_path, explicit({"T0": 1, "S0": 2}, [{"ends": ["T0", "S00"]}]))
    assert [(f.rule, f.path) for f in v.findings] == [("REF003", "topology.links[0].ends[1]")]
    assert "did you mean 'S0'" in v.findings[0].message
    v = run(tmp_path, explicit({"T0": 1, "S0": 2}, [["T0", "T0"]]))
    assert [f.rule for f in v.findings] == ["TOP005"]
    v = run(tmp_path, explicit({"T0": 1}, [], {"leaf": "nvidia-sn5600-cumulas"}))
    assert [f.rule for f in v.findings] == ["REF002"]
    assert "did you mean 'nvidia-sn5600-cumulus'" in v.findings[0].message


# --------------------------------------------------------------------------- management


def test_management_addresses_in_order(tmp_path):
    data = rail(scalable_units=2, extra={"addressing": {"management": "192.0.2.0/24"}})
    f = build(tmp_path, data)
    order = sorted(f.switches(), key=lambda d: (d.tier, d.index))
    assert [d.management for d in order] == [f"192.0.2.{i}/24" for i in range(1, 7)]
    assert [d.role for d in order] == ["leaf"] * 4 + ["spine"] * 2
    assert all(h.management is None for h in f.hosts())


def test_management_explicit_address_wins(tmp_path):
    data = rail(scalable_units=2, extra={"addressing": {"management": "192.0.2.0/24"}})
    devices = {"devices": {"spine1": {"management": {"address": "198.51.100.7/24"}}}}
    f = build(tmp_path, data, devices)
    assert f.devices["spine1"].management == "198.51.100.7/24"
    assert f.devices["spine2"].management == "192.0.2.6/24"
    assert f.devices["leaf-su1-r1"].management == "192.0.2.1/24"


def test_management_explicit_without_pool(tmp_path):
    data = rail(extra={"devices": {"leaf-su1-r1": {"management": {"address": "10.9.9.9"}}}})
    f = build(tmp_path, data)
    assert f.devices["leaf-su1-r1"].management == "10.9.9.9/32"
    assert f.devices["leaf-su1-r2"].management is None


def test_management_collision_not_silent(tmp_path):
    data = rail(extra={"addressing": {"management": "192.0.2.0/24"}})
    devices = {"devices": {"spine2": {"management": {"address": "192.0.2.1/24"}}}}
    v = run(tmp_path, data, devices)
    if v.ok:
        ips = [d.management.split("/")[0] for d in v.fabric.switches()]
        assert len(ips) == len(set(ips))
    else:
        assert any(f.rule == "TOP003" and "192.0.2.1" in f.message for f in v.findings)


def test_management_pool_too_small(tmp_path):
    v = run(tmp_path, rail(extra={"addressing": {"management": "192.0.2.0/30"}}))
    assert [(f.rule, f.path) for f in v.findings] == [("TOP003", "addressing.management")]


def test_devices_yaml_unknown_device(tmp_path):
    v = run(tmp_path, rail(), {"devices": {"leaf-su9-r1": {}}})
    assert [f.rule for f in v.findings] == ["REF003"]
    assert v.findings[0].file.endswith("devices.yaml")


def test_a_port_named_by_two_links_is_reported_by_its_name(tmp_path):
    links = [{"ends": ["T0", "S0"], "ports": ["swp1", "swp1"]},
             {"ends": ["T0", "S1"], "ports": ["swp1", "swp1"]}]
    v = run(tmp_path, explicit({"T0": 1, "S0": 2, "S1": 2}, links))
    assert [f.rule for f in v.findings] == ["TOP005"]
    assert "port T0:swp1 is used by two links" in v.findings[0].message


def test_override_patterns_that_match_nothing_are_reported(tmp_path):
    ov = {"devices": {"leaf-su9-*": {"mtu": 9000}, "leaf-su1-*": {"mtu": 9100}},
          "ports": {"spine*:Ethernet99/*": {"mtu": 9000}}}
    v = run(tmp_path, rail(extra={"overrides": ov}))
    assert v.ok  # a warning: the fabric is still valid
    got = sorted((f.rule, f.severity, f.path) for f in v.findings if f.rule == "REF005")
    assert got == [("REF005", "warning", "overrides.devices.leaf-su9-*"),
                   ("REF005", "warning", "overrides.ports.spine*:Ethernet99/*")]
    assert "matches nothing" in next(f.message for f in v.findings if f.rule == "REF005")
