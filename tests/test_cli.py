"""The CLI contract: exit codes, text and JSON output, explain and schema."""

from __future__ import annotations

import json

from conftest import run_cli


def test_validate_example_ok():
    r = run_cli("validate", "inventories/example")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok: fabric example: 8 leaf, 32 host, 4 spine, 512 links" in r.stdout


def test_validate_json():
    r = run_cli("validate", "inventories/example", "--format", "json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["ok"] is True
    # only notes on what the NOS keeps for itself (CAP010), no error or warning
    assert {(f["rule"], f["severity"]) for f in data["findings"]} <= {("CAP010", "info")}
    assert data["summary"]["host"] == 32


def test_validate_missing_inventory():
    r = run_cli("validate", "inventories/nope")
    assert r.returncode == 1
    assert "inventories/nope" in r.stdout and "[YAML001]" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_usage_error_exit_2():
    r = run_cli("validate")
    assert r.returncode == 2


def test_explain_device_cites_lines():
    r = run_cli("explain", "inventories/example", "leaf-su1-r1")
    assert r.returncode == 0, r.stderr
    assert "inventories/example/fabric.yaml:20:9 (platforms.leaf)" in r.stdout
    assert "default (qos.pfc.watchdog.poll_interval)" in r.stdout


def _routing_rows(inventory: str, device: str) -> dict[str, dict]:
    r = run_cli("explain", inventory, device, "--format", "json")
    assert r.returncode == 0, r.stderr
    sections = {s["title"]: s for s in json.loads(r.stdout)["sections"]}
    return {row["key"]: row for row in sections["routing and addressing"]["rows"]}


def test_explain_shows_the_routing_design():
    """Example leaf: 32 server /31s from 10.2.0.0 (the first leaf's links come first in
    addressing.host_links 10.2.0.0/23) = one /26, announced one by one on Cumulus; 32 uplinks.
    Multivendor SONiC leaf-su2-r1: 16 servers = 16 /31s = a /27, announced as that block,
    BFD asked for but not rendered; a spine passes routes on."""
    leaf = _routing_rows("inventories/example", "leaf-su1-r1")
    assert leaf["server blocks"]["value"] == "10.2.0.0/26 (32 server links)"
    assert leaf["announces"]["value"] == "loopback /32; each of its 32 server /31s as it is"
    assert leaf["ecmp width offered"]["value"].startswith("32 links toward leaf-su1-r")
    assert leaf["bfd to spines (group SPINE)"]["value"] == "300 ms x 3"
    sonic = _routing_rows("inventories/multivendor", "leaf-su2-r1")
    assert sonic["server blocks"]["value"] == "10.128.1.0/27 (16 server links)"
    assert "the blocks of several subnets" in sonic["announces"]["value"]
    assert sonic["bfd to spines (group SPINE)"]["value"].endswith("sonic renders none (CAP011)")
    spine = _routing_rows("inventories/multivendor", "spine-pod1-1")
    assert "passes every BGP-learned route on" in spine["transit"]["value"]
    assert set(spine) >= {"bfd to leaves (group LEAF)", "bfd to cores (group CORE)"}


def test_explain_port_json():
    r = run_cli("explain", "inventories/example", "leaf-su1-r1", "swp1s0", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    rows = {row["key"]: row for row in data["sections"][0]["rows"]}
    assert rows["speed"]["value"] == "400G"
    assert rows["peer"]["value"] == "gpu-su1-n1:eth0"
    assert rows["cable"]["source"].startswith("inventories/example/fabric.yaml:16:")


def test_explain_unknown_device_suggests():
    r = run_cli("explain", "inventories/example", "leaf-su1-r9")
    assert r.returncode == 1
    assert "did you mean" in r.stderr


def test_schema_is_json_schema():
    r = run_cli("schema")
    assert r.returncode == 0
    schema = json.loads(r.stdout)
    assert schema["title"] == "netcfg fabric intent"
    assert "topology" in schema["properties"]


def test_explain_shows_the_cumulus_pfc_fields():
    """SONiC's Spectrum-4 table in docs/physics.md worked by hand for 400G, 3 m: size
    116,736 B, xoff 97,280 B; NVUE's fields: PAUSE at 116,736 − 97,280 = 19,456 B, resume one
    9,216-byte frame lower; the 50 % lossless pool halves the queue limit's shared buffer."""
    r = run_cli("explain", "inventories/example", "leaf-su1-r1", "swp1s0", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = {row["key"]: row for s in json.loads(r.stdout)["sections"] for row in s["rows"]}
    assert rows["cumulus port-buffer"]["value"] == "116736B"
    assert rows["cumulus xoff-threshold"]["value"] == "19456B"
    assert rows["cumulus xon-threshold"]["value"] == "9216B"
    device = run_cli("explain", "inventories/example", "leaf-su1-r1", "--format", "json")
    rows = {row["key"]: row for s in json.loads(device.stdout)["sections"]
            for row in s["rows"]}
    assert rows["lossless pool"]["value"] == "50%"
    assert rows["lossless pool"]["source"] == "default (qos.buffer.lossless_pool)"
