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
The intent's 9216-byte frame less the 14-byte header is 9202 on every end (hand arithmetic)."""

from __future__ import annotations

import json
import re

import yaml
from render_cases import INVENTORIES, PlanBuilder, _fabric

from netcfg.render import render_plan

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


def test_both_ends_of_every_fabric_link_carry_the_same_ip_packet():
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    builder = PlanBuilder(fabric, physics)
    packets = {}
    for dev in fabric.switches():
        nos = fabric.platform(dev).nos
        packets[dev.name] = _ip_packets(nos, render_plan(builder.plan(dev)))
    pairs, kinds = 0, set()
    for link in fabric.links:
        a, b = link.a, link.b
        if not (a.device.is_switch and b.device.is_switch):
            continue
        ends = [packets[p.device.name][p.name] for p in (a, b)]
        assert ends == [9216 - HEADER] * 2, (a.device.name, a.name, b.device.name, b.name, ends)
        pairs += 1
        kinds.add(frozenset(fabric.platform(p.device).nos for p in (a, b)))
    # the mixed links this inventory has: every leaf NOS and the Junos cores meet NX-OS
    assert kinds >= {frozenset({"eos", "nxos"}), frozenset({"sonic", "nxos"}),
                     frozenset({"cumulus", "nxos"}), frozenset({"junos", "nxos"})}, kinds
    assert pairs > 100
