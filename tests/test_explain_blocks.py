"""`netcfg explain` counts a leaf's server block the way an engineer reads it: the server
links inside it and the /31s it covers that no device holds.

The multivendor fabric with 15 servers per scalable unit (one leaf per rail): each leaf's run
of 15 links starts every 16 links (tests/render/test_sonic.py), so leaf-su2-r1, the 9th leaf,
has links 128-142 of addressing.host_links 10.128.0.0/...: 10.128.0.0 + 2 x 128 = 10.128.1.0
up to 10.128.1.29. Its lone last /31 (10.128.1.28/31) takes its free /30 partner
10.128.1.30/31 (link 143, nobody's) along, so the leaf's block is 10.128.1.0/27: 32 addresses
= 16 /31s, 15 of them server links and 1 unused."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import run_cli

MULTIVENDOR = Path(__file__).resolve().parents[1] / "inventories" / "multivendor"


def test_a_block_with_a_free_half_names_its_server_links_and_the_unused_31(tmp_path):
    doc = yaml.safe_load((MULTIVENDOR / "fabric.yaml").read_text())
    doc["topology"]["nodes_per_su"] = 15
    doc["overrides"].pop("ports")
    path = tmp_path / "fabric.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = run_cli("explain", str(path), "leaf-su2-r1", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = {row["key"]: row["value"] for s in json.loads(r.stdout)["sections"]
            for row in s["rows"]}
    assert rows["server blocks"] == "10.128.1.0/27 (15 server links + 1 unused /31)"
