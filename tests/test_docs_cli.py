"""`netcfg docs`: the Markdown renders as tables on GitHub (checked with markdown-it's GFM
tables), every link resolves, the cabling CSV has one row per cable of the topology, and the
output directory is netcfg's own (the manifest rules of render --out)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.validate import validate

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py renders the Markdown")

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_docs_render_as_tables_and_match_the_topology(tmp_path, inventory):
    source = ROOT / "inventories" / inventory
    out = tmp_path / "docs"
    result = CliRunner().invoke(main, ["docs", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    fabric = validate(source).fabric
    assert fabric is not None
    md = markdown_it.MarkdownIt("commonmark").enable("table")

    with (out / "cabling.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(fabric.links)
    ends = {(r["device_a"], r["port_a"]) for r in rows} | {(r["device_b"], r["port_b"])
                                                          for r in rows}
    assert len(ends) == 2 * len(fabric.links)  # every port on one cable only

    html = md.render((out / "fabric.md").read_text())
    switches = sorted(d.name for d in fabric.switches())
    for name in switches:
        assert f'<a href="devices/{name}.md">{name}</a>' in html
        page = md.render((out / "devices" / f"{name}.md").read_text())
        tables = page.split("<table>")[1:]
        interfaces = tables[1]  # after the summary table
        assert interfaces.count("<tr>") - 1 == len(fabric.devices[name].ports), name
        peers = {m for m in re.findall(r"<td>([\w.-]+:[\w/.:-]+)</td>", interfaces)}
        assert peers == {f"{p.peer.device.name}:{p.peer.name}"
                         for p in fabric.devices[name].ports if p.peer is not None}
    assert sorted(p.stem for p in (out / "devices").glob("*.md")) == switches


def test_docs_refuse_a_directory_netcfg_did_not_make(tmp_path):
    out = tmp_path / "docs"
    out.mkdir()
    (out / "README.md").write_text("mine\n")
    result = CliRunner().invoke(main, ["docs", str(ROOT / "inventories" / "example"),
                                       "--out", str(out)])
    assert result.exit_code == 1 and "nothing written" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["README.md"]


def test_docs_list_the_management_plane_and_name_secrets_only(tmp_path):
    inventory = tmp_path / "inv"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (ROOT / "inventories" / "multivendor" / "fabric.yaml").read_text()
        + "management:\n  ntp_servers: [192.0.2.123]\n  syslog_servers: [192.0.2.55]\n"
        "  snmp: {location: hall 2, community: {password_env: NOT_READ_BY_DOCS}}\n"
        "  banners: {login: \"Authorised use only.\\nLogged.\"}\n"
        "  users: {viewer: {role: operator, hash_env: NOT_READ_EITHER}}\n")
    out = tmp_path / "docs"
    result = CliRunner().invoke(main, ["docs", str(inventory), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = markdown_it.MarkdownIt("commonmark").enable("table").render(
        (out / "devices" / "leaf-su1-r1.md").read_text())
    table = page[page.index("<h2>Management</h2>"):]
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*</tr>", table, re.S)
    assert rows == [
        ("NTP servers", "192.0.2.123"),
        ("syslog servers", "192.0.2.55 (informational and more severe)"),
        ("SNMP", "location hall 2; read-only community (by reference)"),
        ("login banner", "Authorised use only. ..."),
        ("logins", "viewer (operator)")]
