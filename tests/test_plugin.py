"""A third-party NOS plugs in through entry points alone: tests/plugins/netcfg_acme is
installed into a fresh path as a distribution declaring `acme` in both the `netcfg.nos` group
(what it is) and the `netcfg.vendors` group (what netcfg does with it), and netcfg's own
commands validate, render and lint a fabric of acme switches. The layers below rendering then
take acme's facts from the plugin: topology its raw-line grammar, physics its buffer carving,
validate its capabilities."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = Path(__file__).resolve().parent / "plugins"
EXAMPLE = ROOT / "inventories" / "example"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """An environment with the plugin installed (a dist-info declaring its entry points, as
    pip writes one), a catalog with an acme platform, and the example fabric on it."""
    root = tmp_path_factory.mktemp("acme")
    dist = root / "site" / "netcfg_acme-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: netcfg-acme\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[netcfg.nos]\nacme = netcfg_acme.facts:FACTS\n\n"
        "[netcfg.vendors]\nacme = netcfg_acme.vendor:VENDOR\n")
    catalog = yaml.safe_load((ROOT / "netcfg" / "platforms" / "catalog.yaml").read_text())
    platform = dict(catalog["platforms"]["nvidia-sn5600-cumulus"], nos="acme", release="1.0",
                    vendor="Acme")
    platform["modes"] = [dict(m, name=m["name"].replace("swp", "port")) for m in platform["modes"]]
    catalog["platforms"]["acme-x1"] = platform
    catalog["releases"]["acme"] = {"known": ["1.0"], "source": "the acme test plugin"}
    (root / "catalog.yaml").write_text(yaml.safe_dump(catalog, sort_keys=False))
    fabric = yaml.safe_load((EXAMPLE / "fabric.yaml").read_text())
    fabric["platforms"] = {"leaf": "acme-x1", "spine": "acme-x1"}
    inventory = root / "inventory"
    inventory.mkdir()
    for extra in EXAMPLE.iterdir():
        if extra.is_file() and extra.name != "fabric.yaml":
            (inventory / extra.name).write_bytes(extra.read_bytes())
    (inventory / "fabric.yaml").write_text(yaml.safe_dump(fabric, sort_keys=False))
    return root


def netcfg(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(site / "site"), str(PLUGINS), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, str(PLUGINS / "run_netcfg.py"),
                           str(site / "catalog.yaml"), *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_a_plugin_nos_is_validated_rendered_and_linted(site):
    inventory = site / "inventory"
    done = netcfg(site, "validate", str(inventory), "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    rules = {f["rule"]: f["message"] for f in json.loads(done.stdout)["findings"]}
    # the plugin's capabilities reach validate: acme renders no BFD
    assert rules["CAP011"].startswith("acme"), rules

    out = site / "out"
    done = netcfg(site, "render", str(inventory), "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    leaf = (out / "leaf-su1-r1.acme").read_text()
    assert leaf.startswith("# acme leaf-su1-r1\n")
    # the plugin's own template, with netcfg's numbers: the example's DSCP 26 is lossless TC 3
    assert "dscp 26 tc 3\n" in leaf and "lossless 3\n" in leaf
    assert len(list(out.glob("*.acme"))) == 12  # 8 leaves and 4 spines

    done = netcfg(site, "lint", str(inventory), "--format", "json", "--fail-on", "error")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [f for f in json.loads(done.stdout)["findings"] if f["severity"] == "error"]


def test_the_layers_below_rendering_take_the_plugins_facts(site):
    """topology refuses a raw line by acme's own grammar (SCH005); physics keeps back what
    acme's pool layout says (explain shows the budget's reserve with acme's source)."""
    fabric = yaml.safe_load((site / "inventory" / "fabric.yaml").read_text())
    fabric["raw_config"] = [{"nos": "acme", "lines": "halt\n"}]
    bad = site / "bad"
    bad.mkdir(exist_ok=True)
    for extra in (site / "inventory").iterdir():
        (bad / extra.name).write_bytes(extra.read_bytes())
    (bad / "fabric.yaml").write_text(yaml.safe_dump(fabric, sort_keys=False))
    done = netcfg(site, "validate", str(bad), "--format", "json")
    assert done.returncode == 1
    messages = [f["message"] for f in json.loads(done.stdout)["findings"]
                if f["rule"] == "SCH005"]
    assert messages == ["raw_config for acme: line 1: 'halt' stops an acme switch"], done.stdout

    done = netcfg(site, "explain", str(site / "inventory"), "leaf-su1-r1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "acme keeps 1 MiB back" in done.stdout, done.stdout
