"""LNK005: a cable longer than its medium reaches at the link's lane rate is a warning at the
intent line that set the cable, with the reach. Expected reaches are written here from the
sources the catalog cites, not read from the catalog: a passive DAC carries 50G PAM4 lanes at
least 3 m (IEEE 802.3cd, 50GBASE-CR) and NVIDIA's longest 100G-PAM4 passive DAC is 3 m
(MCP7Y00-N003). Lane rates are hand arithmetic: 400G on an SN5600 (800G OSFP cage, 8 lanes,
two 400G ports a cage) is 4 lanes of 100G; 400G on an SN4700 (400G QSFP-DD cage, 8 lanes)
is 8 lanes of 50G."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.intent.checks import check_fabric
from netcfg.intent.load import load_intent_text
from netcfg.topology import build_fabric

ROOT = Path(__file__).resolve().parent.parent
SN5600 = "nvidia-sn5600-cumulus"
SN4700 = "nvidia-sn4700-cumulus"


def rail(host_leaf: str, *, platform: str = SN5600, extra: str = "") -> str:
    """A two-tier fabric: 2 rails, 4 servers, 2 spines. Line 8 is `host_leaf`."""
    return (
        "fabric: {name: t}\n"                                  # 1
        "topology:\n"                                          # 2
        "  kind: rail_optimized\n"                             # 3
        "  scalable_units: 1\n"                                # 4
        "  nodes_per_su: 4\n"                                  # 5
        "  node: {gpus: 8, nics: 2, nic: connectx-7}\n"        # 6
        "  spines: 2\n"                                        # 7
        f"  host_leaf: {host_leaf}\n"                          # 8
        "  leaf_spine: {speed: 400G, cable: 30m, medium: fiber}\n"
        f"platforms: {{leaf: {platform}, spine: {platform}}}\n" + extra)


def reach_findings(text: str) -> list:
    fabric = build_fabric(load_intent_text(text))
    return [f for f in check_fabric(fabric) if f.rule == "LNK005"]


def test_a_dac_longer_than_100g_lanes_reach_is_a_warning_at_the_cable():
    (f,) = reach_findings(rail("{speed: 400G, cable: 4m, medium: dac}"))
    assert f.severity == "warning"
    # `  host_leaf: {speed: 400G, cable: ` is 34 characters: the value starts at column 35
    assert (f.file, f.line, f.column, f.path) == ("fabric.yaml", 8, 35, "topology.host_leaf.cable")
    assert "\n" not in f.message
    assert f.message.startswith(
        "4m of dac is longer than dac reaches at 100G a lane (400G on 4 lanes): 3m (NVIDIA ")
    assert "8 links such as leaf-su1-r1:swp1s0 - gpu-su1-n1:eth0" in f.message  # 2 rails x 4
    assert f.message.endswith("use a shorter cable or another medium (aec, fiber)")


def test_at_the_reach_is_fine():
    assert reach_findings(rail("{speed: 400G, cable: 3m, medium: dac}")) == []
    assert reach_findings(rail("{speed: 400G, cable: 300cm, medium: dac}")) == []


def test_50g_lanes_reach_3m():
    (f,) = reach_findings(rail("{speed: 400G, cable: 3.5m, medium: dac}", platform=SN4700))
    assert "3.5m of dac is longer than dac reaches at 50G a lane (400G on 8 lanes): 3m " \
           "(IEEE 802.3cd" in f.message


@pytest.mark.parametrize("host_leaf", [
    "{speed: 400G, cable: 10m, medium: aec}",     # no reach retrieved for active copper
    "{speed: 400G, cable: 10m, medium: fiber}",   # the optic decides
    "{speed: 400G, cable: 10m}",                  # medium unknown
])
def test_media_without_a_reach_are_not_checked(host_leaf):
    assert reach_findings(rail(host_leaf)) == []


def test_a_port_override_is_named_where_it_sets_the_cable():
    extra = ("overrides:\n"
             "  ports:\n"
             "    'leaf-su1-r1:swp1s0': {cable: 5m}\n")   # line 13, value at column 35
    (f,) = reach_findings(rail("{speed: 400G, cable: 3m, medium: dac}", extra=extra))
    assert (f.line, f.column, f.path) == (13, 35, "overrides.ports.leaf-su1-r1:swp1s0.cable")
    assert f.message.startswith("5m of dac is longer than dac reaches at 100G a lane")
    assert "the link leaf-su1-r1:swp1s0 - gpu-su1-n1:eth0" in f.message


def test_explicit_links_and_link_defaults():
    text = ("fabric: {name: t}\n"
            "topology:\n"
            "  kind: explicit\n"
            "  devices: {L0: {tier: 1}, L1: {tier: 1}, S0: {tier: 2}}\n"
            "  links:\n"
            "    - {ends: [L0, S0], cable: 2m, medium: dac}\n"      # 6: within 3m
            "    - {ends: [L1, S0], cable: 7m}\n"                   # 7: dac from the defaults
            "  link_defaults: {speed: 400G, cable: 1m, medium: dac}\n"
            f"platforms: {{leaf: {SN5600}, spine: {SN5600}}}\n")
    (f,) = reach_findings(text)
    assert (f.line, f.path) == (7, "topology.links[1].cable")
    assert f.message.startswith("7m of dac is longer than dac reaches at 100G a lane")


def test_validate_prints_it_as_one_warning_line_and_passes(tmp_path):
    inv = tmp_path / "inv"
    inv.mkdir()
    (inv / "fabric.yaml").write_text(rail("{speed: 400G, cable: 4m, medium: dac}"))
    r = CliRunner().invoke(main, ["validate", str(inv), "--format", "json"])
    assert r.exit_code == 0, r.output
    (f,) = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "LNK005"]
    assert (f["severity"], f["line"], f["column"]) == ("warning", 8, 35)


def test_explain_names_the_reach_beside_the_cable():
    example = ROOT / "inventories" / "example"
    r = CliRunner().invoke(main, ["explain", str(example), "leaf-su1-r1", "swp1s0",
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    port = json.loads(r.stdout)["sections"][0]
    assert port["title"] == "port leaf-su1-r1:swp1s0"
    rows = {row["key"]: row for row in port["rows"]}
    assert rows["cable"]["value"] == "3m"
    assert rows["medium reach"]["value"] == "3m (dac, 100G a lane)"  # 400G on 4 of 8 lanes
    assert rows["medium reach"]["source"].startswith("catalog media.dac: NVIDIA MCP7Y00")
