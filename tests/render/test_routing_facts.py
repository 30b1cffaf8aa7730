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
    own = (f"  neighbor {first.address}\n    inherit peer {first.group}\n"
           f"    remote-as {first.remote_as}\n    description {first.description}\n")
    # without its own address family it still takes its template's (`inherit peer`) ...
    inherits = text.replace(own + "    address-family ipv4 unicast\n", own)
    assert inherits != text
    assert nxos.expected_routing(plan).differences(nxos.read_routing(inherits)) == []
    # ... and without either it exchanges nothing
    alone = own.replace(f"    inherit peer {first.group}\n", "")
    broken = text.replace(own + "    address-family ipv4 unicast\n", alone)
    assert broken != text
    assert nxos.expected_routing(plan).differences(nxos.read_routing(broken)) == [
        f"neighbour {first.address} (AS {first.remote_as}) missing",
        f"neighbour {first.address}: no BFD"]


def test_cumulus_reads_its_neighbours_and_paths():
    plan, cumulus, text = _multivendor("leaf-su2-r5")
    got = cumulus.read_routing(text)
    assert got.maximum_paths == 16 and len(got.neighbors) == 16
    assert got.asn == plan.bgp.asn and got.transit


def test_bfd_reads_back_with_the_planned_timers_on_each_nos():
    """By hand: `routing.bfd` defaults to 300 ms x 3 on every fabric session of the four NOSes
    that render it (EOS leaf, NX-OS spine, Junos core, Cumulus leaf); SONiC states none.
    Sessions by hand from the multivendor topology: a leaf has 16 uplinks; a spine has 8 leaves
    x 16/4 links plus 16 uplinks = 48; a core has 2 pods x 4 spines x 16/8 links = 16."""
    for name, sessions in (("leaf-su1-r1", 16), ("spine-pod1-1", 48), ("core1", 16),
                           ("leaf-su2-r5", 16)):
        plan, nos, text = _multivendor(name)
        bfd = nos.read_routing(text).bfd
        assert len(bfd) == sessions and set(bfd.values()) == {(300, 3)}, name
    plan, sonic, text = _multivendor("leaf-su2-r1")
    assert sonic.read_routing(text).bfd == {} and sonic.expected_routing(plan).bfd == {}


def test_bfd_taken_out_by_hand_is_caught():
    plan, eos, text = _multivendor("leaf-su1-r1")
    no_group_bfd = text.replace("   neighbor SPINE bfd\n", "")
    assert len(eos.expected_routing(plan).differences(eos.read_routing(no_group_bfd))) == 16
    plan, nxos, text = _multivendor("spine-pod1-1")
    no_feature = text.replace("feature bfd\n", "")
    assert all(d.endswith(": no BFD") for d in
               nxos.expected_routing(plan).differences(nxos.read_routing(no_feature)))
    port = next(i for i in plan.interfaces if i.peer_role == "leaf")
    slow = text.replace(f"interface {port.name}\n", f"interface {port.name}\n"
                        "  bfd interval 900 min_rx 900 multiplier 5\n", 1)
    peer = next(n.address for n in plan.bgp.neighbors if n.interface == port.name)
    assert nxos.expected_routing(plan).differences(nxos.read_routing(slow)) == [
        f"neighbour {peer}: BFD 900 ms x 5 instead of 300 ms x 3"]
    plan, junos, text = _multivendor("core1")
    none = re.sub(r" *bfd-liveness-detection \{[^}]*\}\n", "", text)
    assert len(junos.expected_routing(plan).differences(junos.read_routing(none))) == 16


def test_bfd_per_link_tier(tmp_path):
    """`routing.bfd.tiers.spine_core: {interval: 1s, multiplier: 4}`: by hand, a spine's CORE
    group runs 1000 ms x 4 and its LEAF group keeps 300 ms x 3; a core's SPINE group 1000 x 4;
    `leaf_spine: {enabled: false}` leaves the leaves without BFD."""
    import yaml

    from netcfg.validate import validate

    src = INVENTORIES / "multivendor"
    for f in src.iterdir():
        if f.is_file():
            (tmp_path / f.name).write_bytes(f.read_bytes())
    doc = yaml.safe_load((src / "fabric.yaml").read_text())
    doc.setdefault("routing", {})["bfd"] = {"tiers": {
        "spine_core": {"interval": "1s", "multiplier": 4},
        "leaf_spine": {"enabled": False}}}
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    result = validate(tmp_path / "fabric.yaml")
    assert result.ok and result.fabric is not None
    builder = PlanBuilder(result.fabric, result.physics)
    groups = {name: {g.name: g.bfd and (g.bfd.interval_ms, g.bfd.multiplier)
                     for g in builder.plan(result.fabric.devices[name]).bgp.groups}
              for name in ("spine-pod1-1", "core1", "leaf-su1-r1")}
    assert groups == {"spine-pod1-1": {"CORE": (1000, 4), "LEAF": None},
                      "core1": {"SPINE": (1000, 4)}, "leaf-su1-r1": {"SPINE": None}}
    spine = builder.plan(result.fabric.devices["spine-pod1-1"])
    assert set(vendor("nxos").read_routing(render_plan(spine)).bfd.values()) == {(1000, 4)}


def test_a_bfd_interval_below_50ms_is_an_error_at_its_line(tmp_path):
    from netcfg.validate import validate

    src = INVENTORIES / "example"
    for f in src.iterdir():
        if f.is_file():
            (tmp_path / f.name).write_bytes(f.read_bytes())
    path = tmp_path / "fabric.yaml"
    path.write_text(path.read_text().replace(
        "routing:\n  asn: {leaf: unique, spine: shared}\n",
        "routing:\n  asn: {leaf: unique, spine: shared}\n  bfd: {interval: 10ms}\n"))
    errors = [f for f in validate(path).findings if f.severity == "error"]
    assert len(errors) == 1 and "whole milliseconds from 50ms to 10s" in errors[0].message
    assert errors[0].line is not None and errors[0].line > 1


#: NVUE YAML written by hand in NVIDIA's spellings (NVUE reference, BGP: `peer-group <id>`,
#: `neighbor <id> peer-group <id>`, "The BGP neighbor inherits the group's configuration";
#: 5.14 BFD on a peer group: `bfd enable on`, `detect-multiplier`, `min-rx-interval`,
#: `min-tx-interval`): two neighbours in group SPINE, one of them with its own slower timers,
#: and a third in group CORE, whose outbound route map stops transit
_GROUPED = """
- set:
    router:
      bgp: {enable: on, autonomous-system: 65101, router-id: 10.0.0.1}
    vrf:
      default:
        router:
          bgp:
            enable: on
            address-family:
              ipv4-unicast: {enable: on, multipaths: {ebgp: 2}}
            peer-group:
              SPINE:
                bfd: {enable: on, detect-multiplier: 3, min-rx-interval: 200,
                      min-tx-interval: 200}
                password: secret
              CORE:
                address-family:
                  ipv4-unicast: {policy: {outbound: {route-map: NO-TRANSIT}}}
            neighbor:
              10.1.0.0: {type: numbered, remote-as: 65200, peer-group: SPINE}
              10.1.0.2:
                type: numbered
                remote-as: 65200
                peer-group: SPINE
                bfd: {enable: on, detect-multiplier: 5, min-rx-interval: 900,
                      min-tx-interval: 900}
              10.2.0.0: {type: numbered, remote-as: 65300, peer-group: CORE}
"""


def test_a_cumulus_neighbour_takes_what_its_peer_group_sets():
    got = vendor("cumulus").read_routing(_GROUPED)
    assert got.neighbors == {"10.1.0.0": 65200, "10.1.0.2": 65200, "10.2.0.0": 65300}
    assert got.bfd == {"10.1.0.0": (200, 3), "10.1.0.2": (900, 5)}
    assert got.keyed == frozenset({"10.1.0.0", "10.1.0.2"})
    assert not got.transit


def test_cumulus_bfd_taken_off_the_peer_group_is_caught():
    plan, cumulus, text = _multivendor("leaf-su2-r5")
    timers = ("              SPINE:\n                timers:\n                  keepalive: 3\n"
              "                  hold: 9\n")
    group = timers + "                bfd:\n                  profile: SPINE\n"
    assert group in text
    bare = text.replace(group, timers)
    assert len(cumulus.expected_routing(plan).differences(cumulus.read_routing(bare))) == 16
