"""Property tests: validate() never raises, every finding is located, valid shapes stay valid."""

from __future__ import annotations

import copy
import itertools
import os
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from netcfg.findings import Finding
from netcfg.platforms import load_catalog
from netcfg.validate import Validation, validate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
EXAMPLE_DATA = yaml.safe_load((EXAMPLE / "fabric.yaml").read_text())
EXAMPLE_TEXT = (EXAMPLE / "fabric.yaml").read_text()
EXAMPLE_DEVICES = (EXAMPLE / "devices.yaml").read_text()

#: NETCFG_PROPERTY_EXAMPLES=5000 for a deeper (slower) run.
EXAMPLES = int(os.environ.get("NETCFG_PROPERTY_EXAMPLES", "200"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# --------------------------------------------------------------------------- helpers

_TMPDIR = tempfile.TemporaryDirectory(prefix="netcfg-prop-")  # removed at interpreter exit
_TMP = Path(_TMPDIR.name)
_counter = itertools.count()


def _inventory() -> Path:
    inv = _TMP / f"inv{next(_counter)}"
    inv.mkdir()
    return inv


def validate_text(text: str | bytes, devices: str | None = None) -> Validation:
    inv = _inventory()
    path = inv / "fabric.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    if devices is not None:
        (inv / "devices.yaml").write_text(devices, encoding="utf-8")
    return validate(inv)


def validate_data(data, devices: str | None = None) -> Validation:
    return validate_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), devices)


def assert_well_formed(v: Validation) -> None:
    assert isinstance(v, Validation)
    if v.fabric is None:
        assert v.findings, "no fabric and no finding"
        assert not v.ok
    for f in v.findings:
        assert isinstance(f, Finding)
        assert isinstance(f.rule, str) and f.rule, f
        assert f.severity in ("error", "warning", "info"), f
        assert isinstance(f.file, str) and f.file, f
        assert isinstance(f.line, int) and f.line >= 1, f
        assert isinstance(f.column, int) and f.column >= 1, f
        assert isinstance(f.message, str) and f.message.strip(), f
        assert "Traceback" not in f.message
        f.text()  # renders


# --------------------------------------------------------------------------- (a) mutations

CONTROL = ["\x00", "\x01", "\x07", "\x08", "\t", "\n", "\r", "\x0b", "\x0c", "\x1b", "\x7f",
           "\x85", "\u200b", "\u200e", "\u202e", "\u2028", "\u2029", "\ufeff"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.sampled_from(["400G", "3m", "200ms", "150KB", "10.0.0.0/8", "leaf-su1-r1", "spine1",
                     "roce", "ets", "strict", "rail_optimized", "explicit", "*", "{su}", "",
                     "leaf-su1-r1:swp1s0", "nvidia-sn5600-sonic", "connectx-8", "-1", "0",
                     "1e400", "yes", "no", "~", "&a", "*a", "!!binary AAAA"]),
    st.sampled_from([0, 1, 2, 3, 4, 7, 8, 63, 64, 1500, 9216, 65535, 2**32, -1]),
)
yaml_keys = st.one_of(st.text(max_size=12), st.sampled_from(
    ["kind", "tiers", "spines", "cores", "planes", "naming", "ports", "links", "devices",
     "leaf", "spine", "core", "host", "speed", "cable", "mtu", "lossless", "dscp", "priorities",
     "sus_per_pod", "spine_core", "spine_uplinks", "leaf_uplinks", "management", "asn"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(yaml_keys, inner, max_size=4)),
    max_leaves=10,
)


def _paths(node, prefix=()):
    """Every path to a value inside `node` (dict keys and list indexes)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for part in path:
        node = node[part]
    return node


def _mutate(data: dict, draw) -> dict:
    data = copy.deepcopy(data)
    paths = list(_paths(data))
    kind = draw(st.sampled_from(["delete", "replace", "insert", "rename", "control",
                                 "replace", "delete"]))
    if kind in ("delete", "replace"):
        path = draw(st.sampled_from(paths))
        parent = _get(data, path[:-1])
        if kind == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(values)
    elif kind == "insert":
        containers = [()] + [p for p in paths if isinstance(_get(data, p), dict)]
        target = _get(data, draw(st.sampled_from(containers)))
        target[draw(yaml_keys)] = draw(values)
    elif kind == "rename":
        keyed = [p for p in paths if isinstance(p[-1], str)]
        path = draw(st.sampled_from(keyed))
        parent = _get(data, path[:-1])
        old = path[-1]
        new = draw(st.one_of(yaml_keys, st.just(old[:-1]), st.just(old + "s"),
                             st.just(old.upper()), st.just(old.replace("_", "-"))))
        if new != old:
            parent[new] = parent.pop(old)
    else:
        strings = [p for p in paths if isinstance(_get(data, p), str)]
        keyed = [p for p in paths if isinstance(p[-1], str)]
        char = draw(st.sampled_from(CONTROL))
        if strings and draw(st.booleans()):
            path = draw(st.sampled_from(strings))
            s = _get(data, path)
            i = draw(st.integers(0, len(s)))
            _get(data, path[:-1])[path[-1]] = s[:i] + char + s[i:]
        else:
            path = draw(st.sampled_from(keyed))
            parent = _get(data, path[:-1])
            parent[path[-1][:1] + char + path[-1][1:]] = parent.pop(path[-1])
    return data


_LINK = {"speed": "400G", "cable": "3m"}
THREE_TIER = {
    "fabric": {"name": "three"},
    "topology": {"kind": "rail_optimized", "tiers": 3, "planes": 2, "scalable_units": 2,
                 "sus_per_pod": 1, "nodes_per_su": 2, "node": {"nics": 2, "nic": "connectx-8"},
                 "spines": 2, "cores": 2, "host_leaf": _LINK, "leaf_spine": _LINK,
                 "spine_core": _LINK, "naming": {"leaf": "l{su}-{rail}-{plane}"}},
    "platforms": {"leaf": "arista-7060x6-eos", "spine": "nvidia-sn5600-sonic",
                  "core": "juniper-qfx5240-junos"},
    "overrides": {"roles": {"spine": {"mtu": 9000}}, "devices": {"l1-*": {"ecmp_seed": 3}},
                  "ports": {"l1-1-1:Ethernet1/1": {"cable": "5m", "lossless": False}}},
    "routing": {"asn": {"spine": "per_pod"}, "deadlock": {"failures": [["l1-1-1", "spine-x"]]}},
    "addressing": {"management": "192.0.2.0/24"},
    "devices": {"l1-1-1": {"management": {"address": "198.51.100.1/24"}}},
}
EXPLICIT = {
    "fabric": {"name": "c14"},
    "topology": {"kind": "explicit", "link_defaults": _LINK,
                 "devices": {"g0": {"tier": 0}, "g1": {"tier": 0}, "RL0": {"tier": 1},
                             "S0": {"tier": 2, "platform": "arista-7060x6-eos"}},
                 "links": [["g0", "RL0"], ["g1", "RL0"], {"ends": ["RL0", "S0"],
                                                         "lossless": False}]},
    "platforms": {"leaf": "nvidia-sn5600-cumulus", "spine": "nvidia-sn5600-cumulus"},
}
BASES = {"example": EXAMPLE_DATA, "three_tier": THREE_TIER, "explicit": EXPLICIT}


@PROPERTY
@given(st.data())
def test_mutated_example_never_raises(data):
    base = data.draw(st.sampled_from(sorted(BASES)), label="base")
    intent = BASES[base]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        intent = _mutate(intent, data.draw)
    with_devices = base == "example" and data.draw(st.booleans(), label="devices.yaml")
    v = validate_data(intent, EXAMPLE_DEVICES if with_devices else None)
    assert_well_formed(v)


def _dotted(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _marks(text: str, path) -> tuple[tuple[int, int], tuple[int, int]]:
    """1-based (line, column) of the key naming `path` and of its value, read back from YAML."""
    node = yaml.compose(text)
    key_mark = node.start_mark
    for part in path:
        if isinstance(part, int):
            node = node.value[part]
            key_mark = node.start_mark
            continue
        for k, v in node.value:
            if k.value == part:
                key_mark, node = k.start_mark, v
                break
        else:
            raise KeyError(part)
    value_mark = node.start_mark
    return ((key_mark.line + 1, key_mark.column + 1), (value_mark.line + 1, value_mark.column + 1))


#: Mappings of the example that are schema objects (a new key there is an unknown key).
MODEL_MAPPINGS = [(), ("fabric",), ("topology",), ("topology", "node"), ("topology", "host_leaf"),
                  ("topology", "leaf_spine"), ("qos",), ("qos", "classes", "roce"),
                  ("qos", "classes", "roce", "scheduling"), ("qos", "classes", "roce", "ecn"),
                  ("qos", "classes", "cnp"), ("qos", "pfc"), ("qos", "pfc", "watchdog"),
                  ("ecmp",), ("routing",), ("routing", "asn"), ("addressing",),
                  ("credentials", "lab")]
#: Integer fields of the example.
INT_FIELDS = [("fabric", "mtu"), ("topology", "scalable_units"), ("topology", "nodes_per_su"),
              ("topology", "spines"), ("topology", "node", "nics"),
              ("qos", "classes", "roce", "traffic_class"), ("qos", "classes", "roce", "dscp", 0),
              ("qos", "classes", "best-effort", "scheduling", "weight"), ("ecmp", "seeds", "leaf")]


@PROPERTY
@given(st.sampled_from(MODEL_MAPPINGS),
       st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True), values)
def test_unknown_key_located_at_the_key(target, key, value):
    intent = copy.deepcopy(EXAMPLE_DATA)
    mapping = _get(intent, target)
    assume(key not in mapping)
    mapping[key] = value
    text = yaml.safe_dump(intent, sort_keys=False, allow_unicode=True)
    v = validate_text(text)
    assert_well_formed(v)
    path = _dotted(target + (key,))
    hits = [f for f in v.findings if f.rule == "SCH001" and f.path == path]
    assert len(hits) == 1, [f.text() for f in v.findings]
    assert f"unknown key '{key}'" in hits[0].message and "allowed:" in hits[0].message
    (line, column), _ = _marks(text, target + (key,))
    assert (hits[0].line, hits[0].column) == (line, column)


@PROPERTY
@given(st.sampled_from(INT_FIELDS),
       st.one_of(st.text(max_size=8), st.floats(allow_nan=False), st.booleans(),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3),
                                                                      st.integers(), max_size=2)))
def test_wrong_type_located_at_the_value(target, value):
    intent = copy.deepcopy(EXAMPLE_DATA)
    _get(intent, target[:-1])[target[-1]] = value
    text = yaml.safe_dump(intent, sort_keys=False, allow_unicode=True)
    v = validate_text(text)
    assert_well_formed(v)
    assert not v.ok
    path = _dotted(target)
    hits = [f for f in v.findings if f.path == path]
    assert len(hits) == 1, [f.text() for f in v.findings]
    assert hits[0].rule == "SCH003"
    _, (line, column) = _marks(text, target)
    assert (hits[0].line, hits[0].column) == (line, column)


@PROPERTY
@given(st.data())
def test_mutated_devices_file_never_raises(data):
    devices = yaml.safe_load(EXAMPLE_DEVICES)
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        devices = _mutate(devices, data.draw) if devices else devices
    v = validate_text(EXAMPLE_TEXT, yaml.safe_dump(devices, allow_unicode=True))
    assert_well_formed(v)


def test_example_is_valid():
    v = validate_data(EXAMPLE_DATA, EXAMPLE_DEVICES)
    assert v.ok, [f.text() for f in v.findings]


def test_three_tier_base_is_valid():
    """The 3-tier base of the mutations is valid, so mutations start from a working intent."""
    data = copy.deepcopy(THREE_TIER)
    data["routing"]["deadlock"]["failures"] = []
    v = validate_data(data)
    assert v.ok, [f.text() for f in v.findings]


# --------------------------------------------------------------------------- (b) garbage text

_EXAMPLE_LINES = EXAMPLE_TEXT.splitlines()


@PROPERTY
@given(st.text(max_size=400))
def test_random_text_never_raises(text):
    assert_well_formed(validate_text(text))


@PROPERTY
@given(st.binary(max_size=400))
def test_random_bytes_never_raises(raw):
    assert_well_formed(validate_text(raw))


yaml_fragments = st.sampled_from(
    ["", "-", "- ", ":", ": x", "? x", "&a x", "*a", "*b", "<<: *a", "!!python/object:os.system",
     "!!str", "!!str x", "!!map x", "!!seq x", "a: !!map [1]", "{", "}", "[", "]", "'", '"',
     "|", ">", "#", "---", "...", "%YAML 1.1",
     "\t", "  ", "a: &a [*a]", "k: v", "k: {a: 1, a: 2}", "1: 2", "? [a]\n: b", "\ufeff", "\x00"])


@PROPERTY
@given(st.lists(st.one_of(st.sampled_from(_EXAMPLE_LINES), yaml_fragments), max_size=40),
       st.lists(st.integers(0, 6), max_size=40))
def test_yamlish_line_soup_never_raises(lines, indents):
    """Lines of the example and YAML syntax fragments, shuffled and re-indented."""
    text = "\n".join(" " * (indents[i] if i < len(indents) else 0) + line
                     for i, line in enumerate(lines))
    assert_well_formed(validate_text(text))


@PROPERTY
@given(st.data())
def test_example_text_edits_never_raise(data):
    """Character-level edits of the real file: deletions, insertions, duplicated lines."""
    text = EXAMPLE_TEXT
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["del", "ins", "dup"]))
        if op == "del":
            text = text[:i] + text[i + data.draw(st.integers(1, 20)):]
        elif op == "ins":
            text = text[:i] + data.draw(st.text(max_size=5)) + text[i:]
        else:
            lines = text.splitlines(keepends=True)
            j = data.draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[:j + 1] + [lines[j]] + lines[j + 1:])
    assert_well_formed(validate_text(text, EXAMPLE_DEVICES))


@pytest.mark.parametrize("text", ["!!int x", 'a: !!int ""', "a: !!int 0x", "a: !!float x",
                                  "a: !!bool x", "a: !!timestamp x",
                                  "a: !!timestamp 2020-13-45"])
def test_explicit_scalar_tag_with_bad_value(text):
    v = validate_text(text)
    assert_well_formed(v)
    assert [f.rule for f in v.findings] == ["YAML003"]


@pytest.mark.parametrize("text", ["a: !!int 5", "a: !!str 5", "a: !!float 1.5", "a: !!bool yes",
                                  "a: !!null ~", "a: !!binary AAAA", "a: !!python/name:os.system"])
def test_explicit_scalar_tag_with_good_value(text):
    assert_well_formed(validate_text(text))


# --------------------------------------------------------------------------- (c) valid shapes

PLATFORMS_400G = ["nvidia-sn5600-cumulus", "nvidia-sn5600-sonic", "nvidia-sn4700-cumulus",
                  "arista-7060x5-eos", "arista-7060x6-eos", "arista-7060x6-sonic",
                  "cisco-n9364d-gx2a-nxos", "cisco-n9364e-sg2-nxos", "juniper-qfx5230-junos",
                  "juniper-qfx5240-junos"]


CATALOG = load_catalog()


def _cages(platform: str, ports: int) -> int:
    mode = CATALOG.platforms[platform].mode_for(400_000)
    assert mode is not None
    return -(-ports // mode.per_cage)


@st.composite
def rail_shapes(draw) -> dict:
    sus = draw(st.integers(1, 3), label="scalable_units")
    nodes = draw(st.integers(1, 8), label="nodes_per_su")
    rails = draw(st.integers(1, 4), label="rails")
    uplinks = draw(st.one_of(st.none(), st.integers(1, 8)), label="leaf_uplinks")
    up = uplinks or nodes
    spines = draw(st.sampled_from([d for d in range(1, up + 1) if up % d == 0]), label="spines")
    planes = draw(st.sampled_from([1, 1, 2]), label="planes")
    nic = "connectx-8" if planes == 2 else draw(st.sampled_from(["connectx-7", "connectx-8"]))
    topo = {"kind": "rail_optimized", "tiers": 2, "planes": planes, "scalable_units": sus,
            "nodes_per_su": nodes, "node": {"gpus": 8, "nics": rails, "nic": nic},
            "spines": spines, "host_leaf": {"speed": "400G", "cable": "3m"},
            "leaf_spine": {"speed": "400G", "cable": "30m"}}
    if uplinks is not None:
        topo["leaf_uplinks"] = uplinks
    leaf = draw(st.sampled_from(PLATFORMS_400G), label="leaf platform")
    # a spine has one down port per leaf uplink toward it: pick a platform with the cages
    spine_ports = sus * rails * (up // spines)
    fits = [p for p in PLATFORMS_400G if _cages(p, spine_ports) <= CATALOG.platforms[p].cages]
    spine = draw(st.sampled_from(fits), label="spine platform")
    return {"fabric": {"name": "prop"}, "topology": topo,
            "platforms": {"leaf": leaf, "spine": spine}}


@settings(max_examples=max(EXAMPLES * 3 // 4, 1), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rail_shapes())
def test_valid_rail_shapes(data):
    v = validate_data(data)
    assert v.ok, [f.text() for f in v.findings]
    f = v.fabric
    t = data["topology"]
    sus, nodes, rails = t["scalable_units"], t["nodes_per_su"], t["node"]["nics"]
    planes, spines = t["planes"], t["spines"]
    up = t.get("leaf_uplinks") or nodes
    s = f.summary()
    leaves = sus * rails * planes
    assert s["leaf"] == leaves
    assert s["host"] == sus * nodes
    assert s["spine"] == spines * planes
    assert "core" not in s
    k = Counter(lk.kind for lk in f.links)
    assert k["host-leaf"] == sus * nodes * rails * planes
    assert k["leaf-spine"] == leaves * up
    assert s["links"] == k["host-leaf"] + k["leaf-spine"]
    assert s["ports"] == 2 * s["links"]
    addresses = []
    for d in f.devices.values():
        assert len({p.name for p in d.ports}) == len(d.ports)
        for p in d.ports:
            assert p.peer is not None and p.peer.peer is p
            addresses.append(p.address)
    assert None not in addresses and len(set(addresses)) == len(addresses)
    for leaf in f.by_role("leaf"):
        hosts = [p.peer.device for p in leaf.ports if p.peer.device.tier == 0]
        assert len(hosts) == nodes and {h.su for h in hosts} == {leaf.su}
        ups = Counter(p.peer.device.name for p in leaf.ports if p.peer.device.tier == 2)
        assert set(ups.values()) == {up // spines} and len(ups) == spines
        assert all(f.devices[n].plane == leaf.plane for n in ups)


@pytest.mark.parametrize("shape", [
    dict(tiers=3, scalable_units=2, sus_per_pod=1, cores=2, spines=2, nodes_per_su=4,
         spine_core={"speed": "400G", "cable": "100m"}),
])
def test_three_tier_shape_is_valid(shape):
    topo = {"kind": "rail_optimized", "node": {"nics": 2, "nic": "connectx-7"},
            "host_leaf": {"speed": "400G", "cable": "3m"},
            "leaf_spine": {"speed": "400G", "cable": "30m"}, **shape}
    v = validate_data({"fabric": {"name": "p"}, "topology": topo,
                       "platforms": {"leaf": PLATFORMS_400G[0], "spine": PLATFORMS_400G[0],
                                     "core": PLATFORMS_400G[0]}})
    assert v.ok, [f.text() for f in v.findings]
