"""`netcfg docs` describes what each NOS file states, not the plan's per-port values.

Each expectation comes from outside the docs: the rendered file of the same switch (what the
NOS file states, as `netcfg render` writes it), the vendor text quoted in docs/render-<nos>.md,
or SONiC's own seed table (../shared/sonic-skus/FACTS.md, `switch.json.j2`: ToRRouter 0,
LeafRouter 10, SpineRouter 25), written here by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg.cli import main

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py renders the Markdown")

MULTIVENDOR = Path(__file__).resolve().parent.parent / "inventories" / "multivendor"
#: SONiC's switch.json.j2 (../shared/sonic-skus/FACTS.md): the seed of each DEVICE_METADATA type
SONIC_SEED = {"ToRRouter": 0, "LeafRouter": 10, "SpineRouter": 25}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    runner = CliRunner()
    assert runner.invoke(main, ["docs", str(MULTIVENDOR), "--out", str(root / "docs")]
                         ).exit_code == 0
    rendered = runner.invoke(main, ["render", str(MULTIVENDOR), "--out",
                                    str(root / "configs")])
    assert rendered.exit_code == 0, rendered.output
    return root


def _tables(page: str) -> list[list[list[str]]]:
    """Every table of a Markdown page as rows of cells (GFM, through markdown-it)."""
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(page)
    out = []
    for table in html.split("<table>")[1:]:
        rows = re.findall(r"<tr>(.*?)</tr>", table.split("</table>")[0], re.S)
        out.append([[re.sub(r"<[^>]+>", "", c).strip()
                     for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)] for r in rows])
    return out


def _table(page: str, *head: str) -> list[dict[str, str]]:
    """The rows of the first table whose header starts with `head`."""
    table = next(t for t in _tables(page) if tuple(t[0][:len(head)]) == head)
    return [dict(zip(table[0], row)) for row in table[1:]]


def test_eos_states_one_headroom_for_the_switch_and_no_seed(out):
    page = (out / "docs" / "devices" / "leaf-su1-r1.md").read_text()
    config = (out / "configs" / "leaf-su1-r1.cfg").read_text()
    lossless = [r for r in _table(page, "Interface") if r["Lossless"] == "yes"]
    assert lossless and {r["Headroom"] for r in lossless} == {"switch-wide"}
    # the file's one queue profile (docs/render-eos.md: "The profile is switch-wide")
    xoff = int(re.search(r"^\s+ingress headroom (\d+)$", config, re.M)[1])
    xon = int(re.search(r"^\s+ingress resume (\d+)$", config, re.M)[1])
    [headroom] = _table(page, "Headroom")
    assert headroom["Headroom"].startswith("switch-wide (the largest port's, ")
    assert (headroom["XOFF"], headroom["XON"]) == (f"{xoff:,} B", f"{xon:,} B")
    assert headroom["Size"] == "not stated"  # the profile has headroom and resume only
    # EOS has no hash seed line, and none for the IP protocol (docs/render-eos.md)
    assert "seed" not in config
    ecmp = page.split("## ECMP")[1].strip().splitlines()[0]
    assert ecmp == ("static hashing on src_ip, dst_ip, l4_src_port, l4_dst_port (ip_proto: not "
                    "stated, the switch's own choice), no seed stated: the switch keeps its own")
    left = {r["Plan value"] for r in _table(page, "Plan value")}
    assert {"ecmp.seed", "qos.pools.total", "qos.headroom_profiles[].size"} <= left
    fabric = _table((out / "docs" / "fabric.md").read_text(), "Switch", "NOS", "Headroom")
    chain = [r for r in fabric if r["NOS"] == "eos"]
    per_switch: dict[str, int] = {}
    for row in chain:
        per_switch[row["Switch"]] = per_switch.get(row["Switch"], 0) + 1
    assert per_switch and set(per_switch.values()) == {1}  # one headroom per EOS switch


def test_sonic_seed_is_the_one_sonic_derives_from_the_device_type(out):
    page = (out / "docs" / "devices" / "leaf-su2-r1.md").read_text()
    db = json.loads((out / "configs" / "leaf-su2-r1.json").read_text())
    kind = db["DEVICE_METADATA"]["localhost"]["type"]
    assert kind == "ToRRouter"
    ecmp = page.split("## ECMP")[1].strip().splitlines()[0]
    assert ecmp.endswith(f", seed {SONIC_SEED[kind]}, which the NOS derives from the switch's "
                         "role (none is stated)")
    assert "Headroom: the file states none; the lossless PG profile is SONiC's own" in page
    neighbors = _table(page, "Neighbor")
    assert neighbors and {r["Group"] for r in neighbors} == {"not stated"}  # PEER_V4 is bgpcfgd's


def test_cumulus_watchdog_is_what_nvue_states(out):
    """NVUE's watchdog has a polling interval and a robustness, no restoration time
    (docs/render-cumulus.md); detection is their product."""
    page = (out / "docs" / "devices" / "leaf-su2-r5.md").read_text()
    nvue = (out / "configs" / "leaf-su2-r5.yaml").read_text()
    poll = int(re.search(r"^\s+polling-interval: (\d+)$", nvue, re.M)[1])
    robust = int(re.search(r"^\s+robustness: (\d+)$", nvue, re.M)[1])
    lossless = [r for r in _table(page, "Interface") if r["Lossless"] == "yes"]
    assert lossless and {r["Watchdog"] for r in lossless} == {
        f"detection {poll * robust}ms, restoration none, action drop"}
    assert {r["Headroom"] for r in lossless} == {"-"}  # NVUE states a cable length, not xoff
    assert "Cumulus derives xoff from the profile's cable-length" in page
