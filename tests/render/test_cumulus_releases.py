"""Cumulus files are written for exactly one release, with every split port broken out.

Expected spellings are NVIDIA's, copied by hand from the Cumulus Linux 5.15 change table
("New and Changed NVUE Commands", CumulusNetworks/docs content/cumulus-linux-515/Whats-New/
New-and-Changed-NVUE-Commands.md @07d58d4b; its left column is 5.14 and earlier):
  IP Interface: `interface <if> ip address <p>`          -> `ipv4 address <p>`
  On/Off:       `router bgp enable on|off`                -> `router bgp state enabled|disabled`
                `vrf <v> router bgp enable on|off`        -> `... state enabled|disabled`
                `... address-family ipv4-unicast enable`  -> `... state`
                `... neighbor <n> bfd enable on|off`      -> `... bfd state enabled|disabled`
                `... multipath aspath-ignore on|off`      -> `enabled|disabled`
                `system forwarding ecmp-hash <f> on|off`  -> `enabled|disabled`
BGP BFD: the 5.14 page ("Bidirectional Forwarding Detection - BFD", BFD in BGP) sets
`bfd enable on` with `detect-multiplier`, `min-rx-interval`, `min-tx-interval` on a neighbour,
and the 5.14 NVUE command list the same on a peer group (`peer-group <id> bfd enable|
detect-multiplier|min-rx-interval|min-tx-interval`); the 5.15 page (@5810501f) enables `router
bfd state enabled`, puts the timers in `router bfd profile <p>` and attaches it with `bfd
profile <p>` (5.15 What's New: `peer-group <id> bfd profile <profile-name>` is new); each
neighbour names its group with `peer-group <id>` (NVUE reference, BGP, since 5.0);
and the SN5600 breakouts from NVIDIA's "Switch Port Attributes" page (Breakout Ports, SN5600):
an 800G OSFP cage splits 2x into 400G ports and 4x into 200G ports, named swpNs0, swpNs1, ...
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from netcfg.lab.cumulus.config import load_yaml
from netcfg.lab.cumulus.schema import SchemaError, release, validate
from netcfg.platforms import load_catalog
from netcfg.render.engine import render_files, select
from netcfg.validate import validate as validate_intent
from netcfg.vendors.cumulus.releases import RELEASES

ROOT = Path(__file__).resolve().parents[2]

#: NVIDIA's words per release (see the module docstring), written here, not taken from netcfg
NVIDIA = {
    "5.14": {"af": "ip", "switch": ("enable", "on"), "words": ("on", "off")},
    "5.15": {"af": "ipv4", "switch": ("state", "enabled"), "words": ("enabled", "disabled")},
}
#: SN5600 (NVIDIA "Switch Port Attributes", Breakout Ports): breakout -> split-port speed
SN5600_SPLIT_SPEED = {"2x": "400G", "4x": "200G"}


def _pinned(tmp_path: Path, inventory: str, extra: str = "",
            after: tuple[str, str] | None = None) -> Path:
    """A copy of a bundled inventory with `extra` YAML appended to its fabric.yaml, and a line
    inserted after the line holding `after[0]`."""
    target = tmp_path / inventory
    shutil.copytree(ROOT / "inventories" / inventory, target)
    fabric = target / "fabric.yaml"
    text = fabric.read_text()
    if after is not None:
        anchor, line = after
        assert anchor in text
        text = re.sub(f"(.*{re.escape(anchor)}.*\n)", lambda m: m.group(1) + line + "\n", text,
                      count=1)
    fabric.write_text(text + "\n" + extra)
    return target


def _cumulus_files(path: Path) -> dict[str, dict]:
    result = validate_intent(str(path))
    assert result.fabric is not None, [f.text() for f in result.findings]
    files = render_files(result.fabric, result.physics, select(result.fabric), with_hosts=False)
    trees = {}
    for name, text in files.items():
        if name.endswith(".yaml"):
            [doc] = load_yaml(text)
            trees[name] = doc["set"]
    assert trees, "no Cumulus switch rendered"
    return trees


def test_every_catalog_release_has_a_spelling():
    assert set(load_catalog().known_releases("cumulus")) == set(RELEASES) == set(NVIDIA)


@pytest.mark.parametrize("rel", sorted(NVIDIA))
def test_file_uses_only_its_release_spellings(tmp_path, rel):
    words = NVIDIA[rel]
    key, on = words["switch"]
    trees = _cumulus_files(_pinned(tmp_path, "multivendor", f"releases:\n  cumulus: '{rel}'\n"))
    for name, tree in trees.items():
        other = next(r for r in NVIDIA if r != rel)
        assert tree["router"]["bgp"][key] == on, name
        assert NVIDIA[other]["switch"][0] not in tree["router"]["bgp"], name
        bgp = tree["vrf"]["default"]["router"]["bgp"]
        assert bgp[key] == on and bgp["address-family"]["ipv4-unicast"][key] == on
        assert bgp["path-selection"]["multipath"]["aspath-ignore"] == words["words"][0]
        for neighbor in bgp["neighbor"].values():
            assert "bfd" not in neighbor  # its group's
            group = bgp["peer-group"][neighbor["peer-group"]]
            if rel == "5.14":
                assert group["bfd"]["enable"] == "on"
                assert group["bfd"]["detect-multiplier"] == 3  # routing.bfd's default
            else:
                profile = tree["router"]["bfd"]["profile"][group["bfd"]["profile"]]
                assert tree["router"]["bfd"]["state"] == "enabled"
                assert profile["detect-multiplier"] == 3
                assert profile["min-rx-interval"] == profile["min-tx-interval"] == 300
        assert set(tree["system"]["forwarding"]["ecmp-hash"].values()) <= set(words["words"])
        for ifname, iface in tree["interface"].items():  # no address in the other's words
            assert "address" not in iface.get(NVIDIA[other]["af"], {}), (name, ifname)
        addressed = [i for i in tree["interface"].values() if words["af"] in i]
        assert len(addressed) >= 2  # lo and every routed port
        # the lab's NVUE schema, written from the same table, takes it at this release only
        validate(tree, release(rel))
        with pytest.raises(SchemaError):
            validate(tree, release(other))


def test_every_split_port_is_broken_out(tmp_path):
    for path in (ROOT / "inventories" / "multivendor", ROOT / "inventories" / "example"):
        for name, tree in _cumulus_files(path).items():
            interfaces = tree["interface"]
            split = {n: i for n, i in interfaces.items() if re.fullmatch(r"swp\d+s\d+", n)}
            assert split, name
            for port, iface in split.items():
                cage, sub = re.fullmatch(r"swp(\d+)s(\d+)", port).groups()
                [mode] = interfaces[f"swp{cage}"]["link"]["breakout"]
                assert int(sub) < int(mode[:-1]), (name, port)
                assert iface["link"]["speed"] == SN5600_SPLIT_SPEED[mode], (name, port)


def test_lab_schema_refuses_a_split_port_without_its_breakout():
    tree = {"interface": {"swp3s1": {"type": "swp"}}}
    with pytest.raises(SchemaError, match="swp3 has no link breakout"):
        validate(tree, release("5.15"))
    tree["interface"]["swp3"] = {"type": "swp", "link": {"breakout": {"2x": {}}}}
    validate(tree, release("5.15"))
    tree["interface"]["swp3s2"] = {"type": "swp"}
    with pytest.raises(SchemaError, match="swp3s2"):
        validate(tree, release("5.15"))


def test_unknown_release_is_an_error_naming_the_known_ones(tmp_path):
    path = _pinned(tmp_path, "multivendor", "releases:\n  cumulus: '5.13'\n")
    result = validate_intent(str(path))
    assert result.fabric is None
    [finding] = [f for f in result.findings if f.rule == "REF006"]
    text = finding.text()
    assert "unknown cumulus release '5.13'; known: 5.14, 5.15" in text
    assert re.search(r"fabric\.yaml:\d+:\d+", text), text


def test_a_device_override_pins_one_switch(tmp_path):
    path = _pinned(tmp_path, "multivendor", after=(
        '"leaf-su2-r[5-8]"', "    leaf-su2-r5: {release: '5.14'}"))
    trees = _cumulus_files(path)
    assert trees["leaf-su2-r5.yaml"]["router"]["bgp"]["enable"] == "on"
    others = [t for n, t in trees.items() if n != "leaf-su2-r5.yaml"]
    assert others and all(t["router"]["bgp"]["state"] == "enabled" for t in others)
