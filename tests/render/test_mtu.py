"""One MTU meaning across NOSes: on every fabric link of the multivendor inventory (EOS, NX-OS,
SONiC and Cumulus leaves, NX-OS spines, Junos cores), both ends carry the same largest IP
packet. Each end's number is read from its rendered file with a plain pattern and turned into
an IP packet size by that vendor's documented meaning of the field, written out here, never by
netcfg's converters:
- EOS routed `mtu`: the IP MTU (EOS manual, `mtu` in interface configuration mode);
- NX-OS routed `mtu`: the IP MTU [as the project's NX-OS notes read Cisco's guide];
- Junos `mtu`: the media MTU, the 14-byte Ethernet header included (Junos interfaces guide);
- NVUE `link mtu`: the Linux interface MTU, the IP packet (Linux netdev);
- SONiC PORT `mtu`: the Linux MTU, `ip link set dev <port> mtu <mtu>` (sonic-swss
  cfgmgr/portmgr.cpp).
The intent's 9216-byte frame less the 14-byte header is 9202 on every end (hand arithmetic).

A brownfield fabric states its IP MTU instead (`fabric.l3_mtu`): every end then carries that
packet, and a value above what a NOS's `mtu` statement takes is LNK006 at the line, the
ceilings written here from the vendors' documentation as the project's render notes quote it:
EOS's IP MTU at most 9214 (docs/render-eos.md), the Junos media MTU at most 9216, so IP 9202
(docs/render-junos.md), NX-OS's at most 9216 (docs/render-nxos.md)."""

from __future__ import annotations

import json
import re

import yaml
from click.testing import CliRunner
from render_cases import INVENTORIES, PlanBuilder, _fabric

from netcfg.cli import main
from netcfg.render import render_plan
from netcfg.validate import validate

HEADER = 14


def _ip_packets(nos: str, text: str) -> dict[str, int]:
    """Interface -> the largest IP packet its rendered MTU line allows."""
    if nos in ("eos", "nxos"):
        blocks = re.findall(r"^interface (\S+)\n((?:[ ]+.*\n)*)", text, re.M)
        return {name: int(m.group(1)) for name, body in blocks
                if (m := re.search(r"^\s+mtu (\d+)$", body, re.M))}
    if nos == "junos":
        out = {}
        for name, body in re.findall(r"^    (et-\S+) \{\n((?:        .*\n)*)", text, re.M):
            if m := re.search(r"^        mtu (\d+);$", body, re.M):
                out[name] = int(m.group(1)) - HEADER
        return out
    if nos == "cumulus":
        interfaces = yaml.safe_load(text)[0]["set"]["interface"]
        return {name: int(i["link"]["mtu"]) for name, i in interfaces.items()
                if "mtu" in (i.get("link") or {})}
    if nos == "sonic":
        return {name: int(p["mtu"]) for name, p in json.loads(text)["PORT"].items()}
    raise AssertionError(nos)


MULTIVENDOR = INVENTORIES / "multivendor" / "fabric.yaml"


def _packets_on_links(fabric, physics) -> tuple[list[list[int]], set]:
    """The IP packet each end of every switch-switch link states, and the NOS pairs seen."""
    builder = PlanBuilder(fabric, physics)
    packets = {}
    for dev in fabric.switches():
        nos = fabric.platform(dev).nos
        packets[dev.name] = _ip_packets(nos, render_plan(builder.plan(dev)))
    ends, kinds = [], set()
    for link in fabric.links:
        a, b = link.a, link.b
        if not (a.device.is_switch and b.device.is_switch):
            continue
        ends.append([packets[p.device.name][p.name] for p in (a, b)])
        kinds.add(frozenset(fabric.platform(p.device).nos for p in (a, b)))
    return ends, kinds


def test_both_ends_of_every_fabric_link_carry_the_same_ip_packet():
    ends, kinds = _packets_on_links(*_fabric(str(MULTIVENDOR)))
    assert all(pair == [9216 - HEADER] * 2 for pair in ends)
    pairs = len(ends)
    # the mixed links this inventory has: every leaf NOS and the Junos cores meet NX-OS
    assert kinds >= {frozenset({"eos", "nxos"}), frozenset({"sonic", "nxos"}),
                     frozenset({"cumulus", "nxos"}), frozenset({"junos", "nxos"})}, kinds
    assert pairs > 100


def _brownfield(tmp_path, line: str):
    """The multivendor inventory with `fabric.mtu: 9216` replaced by `line`."""
    text = MULTIVENDOR.read_text(encoding="utf-8")
    assert text.count("  mtu: 9216\n") == 1
    inv = tmp_path / "brownfield"
    inv.mkdir(parents=True)
    (inv / "fabric.yaml").write_text(text.replace("  mtu: 9216\n", line))
    return inv


def test_a_stated_l3_mtu_is_what_every_end_carries(tmp_path):
    """l3_mtu 9100: EOS, NX-OS, NVUE and SONiC state 9100, Junos its media MTU 9114."""
    ends, kinds = _packets_on_links(*_fabric(str(_brownfield(tmp_path, "  l3_mtu: 9100\n"))))
    assert all(pair == [9100, 9100] for pair in ends), ends[:3]
    assert len(kinds) >= 4


def _lnk006(result) -> dict[str, tuple]:
    """NOS (the message's first word) -> where its LNK006 points."""
    return {f.message.split()[0]: (f.line, f.column, f.path)
            for f in result.findings if f.rule == "LNK006"}


def test_an_l3_mtu_above_what_a_nos_states_is_an_error_at_its_line(tmp_path):
    # 9214: EOS's most; Junos's media MTU 9216 carries at most 9202
    got = validate(_brownfield(tmp_path / "a", "  l3_mtu: 9214\n"))
    assert not got.ok
    assert _lnk006(got) == {"junos": (8, 11, "fabric.l3_mtu")}
    (f,) = [f for f in got.findings if f.rule == "LNK006"]
    assert f.severity == "error"
    assert "junos files cannot state 9228-byte frames (IP MTU 9214)" in f.message
    assert "their `mtu` stays at 9216, the most junos takes" in f.message
    # 9216: above EOS's 9214 as well; NX-OS takes 9216
    got = validate(_brownfield(tmp_path / "b", "  l3_mtu: 9216\n"))
    assert set(_lnk006(got)) == {"junos", "eos"}


def test_mtu_and_l3_mtu_that_disagree_are_refused(tmp_path):
    got = validate(_brownfield(tmp_path, "  mtu: 9216\n  l3_mtu: 9214\n"))
    (f,) = got.findings
    assert (f.rule, f.line, f.path) == ("SCH003", 9, "fabric.l3_mtu")
    assert "9214 + 14 = 9228" in f.message


def test_explain_shows_the_intent_mtu_beside_each_nos_file(tmp_path):
    """Side by side: the 9216-byte frame, and what each NOS's file says for it."""
    want = {"leaf-su1-r1": ("eos", 9202), "leaf-su2-r1": ("sonic", 9202),
            "leaf-su2-r5": ("cumulus", 9202), "spine-pod1-1": ("nxos", 9202),
            "core1": ("junos", 9216)}
    for dev, (nos, stated) in want.items():
        r = CliRunner().invoke(main, ["explain", str(MULTIVENDOR), dev, "--format", "json"])
        assert r.exit_code == 0, r.output
        rows = {row["key"]: row["value"] for sec in json.loads(r.stdout)["sections"]
                for row in sec["rows"]}
        assert rows["mtu"] == 9216
        assert rows[f"mtu in the {nos} file"] == stated, dev
