"""Each NOS's routing facts, read back from its rendered file by that NOS's rules, equal the
plan's: neighbours and ASNs, every loopback and server address announced, the path count, and
transit. So the twin, which builds its routers from these facts, proves the NOS files. The
hand-made breakages below are the review's findings: a Junos export policy that rejects
transit, loopback-only announcements, a SONiC leaf without its STATIC_ROUTE block, an NX-OS
neighbour without its IPv4 address family."""

from __future__ import annotations

import json
import re

import pytest
from render_cases import INVENTORIES, _fabric

from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.vendors import vendor


def _plans(inventory: str):
    fabric, physics = _fabric(str(INVENTORIES / inventory / "fabric.yaml"))
    builder = PlanBuilder(fabric, physics)
    return {d.name: builder.plan(d) for d in fabric.switches()}


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_every_switch_states_the_planned_routing(inventory):
    for name, plan in _plans(inventory).items():
        nos = vendor(plan.nos)
        got = nos.read_routing(render_plan(plan))
        assert nos.expected_routing(plan).differences(got) == [], name


def _multivendor(name: str):
    plan = _plans("multivendor")[name]
    return plan, vendor(plan.nos), render_plan(plan)


def test_a_junos_policy_that_rejects_transit_is_caught():
    plan, junos, text = _multivendor("core1")
    assert junos.read_routing(text).transit
    broken = text.replace("        term transit {", "        term early {\n"
                          "            then reject;\n        }\n        term transit {")
    assert junos.expected_routing(plan).differences(junos.read_routing(broken)) == [
        "BGP-learned routes are not passed on to other neighbours"]
    # the policy without its transit term: the final `then reject` decides
    no_term = re.sub(r"        term transit \{.*?\n        \}\n", "", text, flags=re.S)
    assert not junos.read_routing(no_term).transit


def test_a_junos_policy_without_the_direct_protocol_announces_nothing_of_its_own():
    plan, junos, text = _multivendor("core1")
    broken = text.replace("protocol direct;", "protocol static;")
    assert junos.expected_routing(plan).differences(junos.read_routing(broken)) == [
        f"{plan.loopback} not announced"]


def test_loopback_only_announcements_are_caught():
    """The design the review found: a leaf announcing only its loopback leaves its 16 server
    /31s (one /27 from 10.128.0.0 on the first leaf) unannounced."""
    plan, eos, text = _multivendor("leaf-su1-r1")
    broken = "\n".join(line for line in text.splitlines()
                       if not line.startswith("   network 10.128."))
    assert eos.expected_routing(plan).differences(eos.read_routing(broken)) == [
        "10.128.0.0/27 not announced"]


def test_a_sonic_leaf_without_its_static_block_announces_no_server():
    plan, sonic, text = _multivendor("leaf-su2-r1")
    db = json.loads(text)
    del db["STATIC_ROUTE"]
    assert sonic.expected_routing(plan).differences(sonic.read_routing(json.dumps(db))) == [
        "10.128.1.0/27 not announced"]
    db = json.loads(text)
    db["STATIC_ROUTE"]["default|10.128.1.0/27"]["advertise"] = "false"
    assert "10.128.1.0/27 not announced" in sonic.expected_routing(plan).differences(
        sonic.read_routing(json.dumps(db)))


def test_an_nxos_neighbour_without_its_address_family_exchanges_no_routes():
    plan, nxos, text = _multivendor("spine-pod1-1")
    first = plan.bgp.neighbors[0]
    broken = text.replace(f"  neighbor {first.address}\n    remote-as {first.remote_as}\n"
                          f"    description {first.description}\n"
                          "    address-family ipv4 unicast\n",
                          f"  neighbor {first.address}\n    remote-as {first.remote_as}\n"
                          f"    description {first.description}\n")
    assert broken != text
    assert nxos.expected_routing(plan).differences(nxos.read_routing(broken)) == [
        f"neighbour {first.address} (AS {first.remote_as}) missing"]


def test_cumulus_reads_its_neighbours_and_paths():
    plan, cumulus, text = _multivendor("leaf-su2-r5")
    got = cumulus.read_routing(text)
    assert got.maximum_paths == 16 and len(got.neighbors) == 16
    assert got.asn == plan.bgp.asn and got.transit
