"""Routing at scale: EOS's `maximum-routes` sized from the fabric, and each NOS's limit in RTE006.

Expected values are hand arithmetic on the cabling and Arista's floor: AVD's underlay default
256,000 (pyavd 6.4 `neighbor IPv4-UNDERLAY-PEERS maximum-routes 256000`); above it, twice the
prefixes the whole fabric originates (a loopback per switch and a /31 per server port), rounded
up to a thousand. NX-OS states no default prefix limit in any Cisco text found (Cisco's Nexus
3000 Unicast Routing guide lists none among its default BGP parameters and advises configuring
`maximum-prefix` per peer; docs/render-nxos.md): RTE006 counts what an NX-OS switch receives
but has no limit to hold it against.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from netcfg.lab.cfgtree import parse_indented
from netcfg.lab.eos.grammar import eos_grammar
from netcfg.lint import prefixes
from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate
from netcfg.vendors import vendor

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def multivendor():
    result = validate(ROOT / "inventories" / "multivendor")
    assert result.fabric is not None
    return result


def test_the_plan_carries_the_fabric_prefixes(multivendor):
    """multivendor: 2 SUs of 16 eight-NIC servers = 256 server ports on 16 leaves, 8 spines and
    8 cores: 32 loopbacks + 256 subnets = 288 prefixes at most."""
    fabric = multivendor.fabric
    plan = PlanBuilder(fabric, multivendor.physics).plan(fabric.devices["leaf-su1-r1"])
    assert plan.bgp.fabric_prefixes == 32 + 2 * 16 * 8 == 288


def test_maximum_routes_has_headroom_above_the_floor():
    eos = vendor("eos")
    # 2 x 288 = 576: the floor holds
    assert eos.prefix_limit(288)[0] == 256_000
    # 2 x 128,000 = 256,000: still the floor; one more prefix: 256,002 -> 257,000
    assert eos.prefix_limit(128_000)[0] == 256_000
    assert eos.prefix_limit(128_001)[0] == 257_000
    # 2 x 150,001 = 300,002 -> 301,000, and the message says why
    limit, source = eos.prefix_limit(150_001)
    assert limit == 301_000 and "301000" in source and "150001" in source


def test_the_rendered_line_is_the_limit_validate_uses(multivendor):
    """A leaf of a fabric of 150,001 prefixes (its plan's count replaced) renders 301,000 on
    every peer group, in a form the lab's EOS grammar takes; the multivendor leaves' limit is
    the floor, and only EOS switches have one."""
    fabric = multivendor.fabric
    plan = PlanBuilder(fabric, multivendor.physics).plan(fabric.devices["leaf-su1-r1"])
    text = render_plan(plan)
    assert re.findall(r"^   neighbor (\S+) maximum-routes (\d+)$", text, re.M) \
        == [("SPINE", "256000")]
    big = dataclasses.replace(plan, bgp=dataclasses.replace(plan.bgp, fabric_prefixes=150_001))
    text = render_plan(big)
    assert re.findall(r"^   neighbor (\S+) maximum-routes (\d+)$", text, re.M) \
        == [("SPINE", "301000")]
    parse_indented(text, eos_grammar(), "config", strict=True)

    limits = prefixes.limits(fabric)
    assert {fabric.platform(fabric.devices[n]).nos for n in limits} == {"eos"}
    assert {v[0] for v in limits.values()} == {256_000}


def test_nxos_has_no_default_limit_to_compare(multivendor):
    """The multivendor NX-OS spines receive 17 prefixes from each EOS leaf (16 server /31s and
    the loopback), counted by RTE006 but held against no limit: NX-OS states none."""
    assert vendor("nxos").prefix_limit(10**6) is None
    assert vendor("nxos").capabilities.prefix_limit is None
    fabric = multivendor.fabric
    got = {s.prefixes for s in prefixes.sessions(fabric)
           if s.receiver.startswith("spine-") and s.sender.startswith("leaf-su1-")}
    assert got == {16 + 1}
    assert not [f for f in multivendor.findings if f.rule == "RTE006"]
