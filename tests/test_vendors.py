"""The vendor packages: one registry, no NOS-name branching outside them, capabilities that
report what a NOS does not render, and vendor facts checked against the vendor's own files."""

from __future__ import annotations

import ast
import json
from importlib.metadata import EntryPoint
from pathlib import Path

import jinja2
import pytest
import yaml

from netcfg.nos import NosError, facts
from netcfg.nos import names as nos_names
from netcfg.nos.registry import GROUP as NOS_GROUP
from netcfg.nos.registry import build as build_facts
from netcfg.validate import validate
from netcfg.vendors import names, vendor
from netcfg.vendors.registry import GROUP, VendorError, build, matched

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLE = ROOT / "inventories" / "example" / "fabric.yaml"
MULTIVENDOR = ROOT / "inventories" / "multivendor" / "fabric.yaml"
FIVE = ("cumulus", "eos", "junos", "nxos", "sonic")
#: the five switch NOSes and FRR (routing only: white boxes, hosts, the twin)
SIX = ("cumulus", "eos", "frr", "junos", "nxos", "sonic")


def _point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


def test_the_six_nos_packages_are_registered_through_entry_points():
    assert names() == SIX
    for nos in SIX:
        v = vendor(nos)
        assert v.name == nos and v.template.startswith(f"{nos}/")
        assert (ROOT / "templates" / v.template).is_file()


def test_a_nos_provided_twice_is_refused():
    points = [_point("eos", "netcfg.vendors.eos:VENDOR"), _point("eos", "other.pkg:VENDOR")]
    with pytest.raises(VendorError, match="provided twice"):
        build(points)


def test_a_vendor_must_call_itself_by_its_entry_point_name():
    with pytest.raises(VendorError, match="calls itself 'nxos'"):
        build([_point("cisco", "netcfg.vendors.nxos:VENDOR")])
    with pytest.raises(VendorError, match="not a netcfg Vendor"):
        build([_point("eos", "netcfg.vendors.eos.capabilities:CAPABILITIES")])


def test_an_unknown_nos_names_the_known_ones():
    with pytest.raises(VendorError, match="known: cumulus, eos, frr, junos, nxos, sonic"):
        vendor("ios-xr")


def test_what_each_nos_is_is_registered_beside_its_vendor():
    """The netcfg.nos group names the same six, and each vendor renders with the facts the
    layers below rendering read for its NOS."""
    assert nos_names() == SIX
    for nos in SIX:
        assert vendor(nos).facts is facts(nos) and vendor(nos).name == nos


def test_nos_facts_are_refused_like_vendors():
    def point(name: str, value: str) -> EntryPoint:
        return EntryPoint(name=name, value=value, group=NOS_GROUP)

    with pytest.raises(NosError, match="described twice"):
        build_facts([point("eos", "netcfg.vendors.eos.facts:FACTS"),
                     point("eos", "other.pkg:FACTS")])
    with pytest.raises(NosError, match="calls itself 'nxos'"):
        build_facts([point("cisco", "netcfg.vendors.nxos.facts:FACTS")])
    with pytest.raises(NosError, match="not netcfg NosFacts"):
        build_facts([point("eos", "netcfg.vendors.eos:VENDOR")])


def test_a_vendor_must_render_with_the_facts_registered_for_its_nos():
    found = {nos: vendor(nos) for nos in ("eos", "nxos")}
    described = {"eos": facts("eos"), "nxos": facts("eos")}
    with pytest.raises(VendorError, match="vendor of NOS 'nxos' does not render with the facts"):
        matched(found, described)
    with pytest.raises(VendorError, match="NOS 'junos' is described .* but has no vendor"):
        matched(found, {"eos": facts("eos"), "nxos": facts("nxos"), "junos": facts("junos")})
    assert matched(found, {"eos": facts("eos"), "nxos": facts("nxos")}) == found


def _nos_literals(path: Path) -> list[tuple[int, str]]:
    """String constants naming a NOS, outside docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in SIX and id(node) not in docstrings]


#: a literal that is spelled like a NOS but is something else
NOT_A_NOS = {("netcfg/twin/network.py", "frr")}  # the frr package's Unix account


def test_no_module_outside_the_vendor_packages_names_a_nos():
    """Code outside netcfg/vendors/ (and the lab, which emulates each NOS) asks a Vendor;
    a NOS name in code there is a branch on it or a per-NOS table."""
    offenders = []
    for path in sorted((ROOT / "netcfg").rglob("*.py")):
        rel = path.relative_to(ROOT / "netcfg").parts
        if rel[0] in ("vendors", "lab"):
            continue
        offenders += [f"{path.relative_to(ROOT)}:{line}: {value!r}"
                      for line, value in _nos_literals(path)
                      if (path.relative_to(ROOT).as_posix(), value) not in NOT_A_NOS]
    assert offenders == []


def test_the_scan_finds_a_branch_on_a_nos(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Mentions eos in prose only."""\n'
                      'def f(nos):\n    """eos"""\n    return nos == "junos"\n')
    assert _nos_literals(sample) == [(4, "junos")]


def _write(tmp_path: Path, source: Path, edit) -> Path:
    data = yaml.safe_load(source.read_text())
    edit(data)
    for extra in source.parent.iterdir():
        if extra.name != source.name and extra.is_file():
            (tmp_path / extra.name).write_bytes(extra.read_bytes())
    out = tmp_path / source.name
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


def _rules(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for f in validate(path).findings:
        found.setdefault(f.rule, []).append(f.message)
    return found


def test_hash_algorithm_and_resilient_hashing_are_reported_where_not_rendered(tmp_path):
    """Of the five, only SONiC writes a hash algorithm (SWITCH_HASH ecmp_hash_algorithm) and
    none writes resilient hashing: each other NOS present says so, none is silent."""
    def edit(data):
        data.setdefault("ecmp", {}).update(algorithm="crc32", resilient=True)
        data["platforms"]["spine"] = "nvidia-sn5600-sonic"

    found = _rules(_write(tmp_path, MULTIVENDOR, edit))
    assert sorted(m.split()[0] for m in found["CAP007"]) == ["cumulus", "eos", "junos"]
    assert sorted(m.split()[0] for m in found["CAP008"]) == ["cumulus", "eos", "junos", "sonic"]


def test_a_negative_hash_seed_is_refused(tmp_path):
    path = _write(tmp_path, EXAMPLE, lambda d: d.setdefault("ecmp", {}).update(
        seeds={"leaf": -1}))
    report = validate(path)
    assert any(f.rule.startswith("SCH") and "seeds" in (f.path or "")
               for f in report.findings), report.findings


def _sonic_seed(device_type: str) -> int:
    """Render SONiC's own orchagent template for a DEVICE_METADATA type."""
    template = SHARED / "sonic-skus" / "sonic-buildimage" / "dockers" / "docker-orchagent" / \
        "switch.json.j2"
    if not template.is_file():
        pytest.skip("../shared/sonic-skus is not present (CI provides it)")
    text = jinja2.Environment().from_string(template.read_text()).render(
        DEVICE_METADATA={"localhost": {"type": device_type}})
    return int(json.loads(text)[0]["SWITCH_TABLE:switch"]["ecmp_hash_seed"])


def test_sonic_seeds_are_what_orchagent_derives_from_the_device_type():
    from netcfg.vendors.sonic.render import DEVICE_TYPES

    caps = vendor("sonic").capabilities
    assert caps.hash_seed == "by_role"
    for role, device_type in DEVICE_TYPES.items():
        assert caps.seed_by_role[role] == _sonic_seed(device_type), role


def test_sonic_devices_are_told_the_seed_their_type_gives(tmp_path):
    """SONiC leaves are ToRRouter (seed 0) and cores SpineRouter (25): with the multivendor
    seeds (leaf 10, core 40) each gets one CAP005 naming the seed SONiC applies."""
    def edit(data):
        data["platforms"]["core"] = "nvidia-sn5600-sonic"

    found = _rules(_write(tmp_path, MULTIVENDOR, edit))
    sonic = sorted(m for m in found["CAP005"] if m.startswith("sonic derives"))
    assert [m.split(": ", 1)[1] for m in sonic] == ["core1 gets 25, not 40",
                                                   "leaf-su2-r1 gets 0, not 10"]


def test_bfd_is_reported_where_the_nos_renders_none(tmp_path):
    """SONiC's bgpcfgd templates render no BFD: with `routing.bfd` on (the default) the
    multivendor fabric's SONiC leaves get one CAP011; with BFD off on the only tier they have
    (leaf_spine) none, although spine_core stays on."""
    cap011 = _rules(MULTIVENDOR).get("CAP011", [])
    assert len(cap011) == 1 and cap011[0].startswith("sonic config renders no BFD")

    def leaf_spine_off(data):
        data.setdefault("routing", {})["bfd"] = {"tiers": {"leaf_spine": {"enabled": False}}}
    assert "CAP011" not in _rules(_write(tmp_path, MULTIVENDOR, leaf_spine_off))


def test_bfd_on_a_tier_the_fabric_lacks_is_not_reported(tmp_path):
    """Two tiers of SONiC switches (no cores): BFD off on leaf_spine leaves nothing to report,
    even though spine_core keeps the default (on) and SONiC renders no BFD."""
    def sonic_without_leaf_spine_bfd(data):
        data["platforms"] = {role: "nvidia-sn5600-sonic" for role in data["platforms"]}
        data.setdefault("routing", {})["bfd"] = {"tiers": {"leaf_spine": {"enabled": False}}}
    found = _rules(_write(tmp_path, EXAMPLE, sonic_without_leaf_spine_bfd))
    assert "CAP011" not in found and "CAP009" not in found
