"""The lab's Cumulus facts reader on a rendered NVUE file (the wiring reads a Cumulus switch's
ports and BGP from its applied revision). Expected values by hand from the multivendor
inventory: leaf-su2-r5 is the 13th leaf (ASNs `unique` from 4200000000: 4200000012), with
16 server ports and 16 uplinks (leaf_uplinks: 16), each uplink a session; it announces its
loopback and its 16 server subnets."""

from __future__ import annotations

from types import SimpleNamespace

import yaml
from deploy.deploy_cases import MULTIVENDOR

from netcfg import api
from netcfg.lab.cumulus.oper import facts


def test_cumulus_facts_from_an_applied_revision():
    text = api.device_config(api.load(MULTIVENDOR), "leaf-su2-r5")
    [doc] = yaml.safe_load(text)
    dev = SimpleNamespace(applied=doc["set"], hostname="leaf-su2-r5")
    got = facts(dev)  # type: ignore[arg-type]
    assert got.asn == 4_200_000_012
    assert len(got.neighbors) == 16
    assert {n.remote_as for n in got.neighbors.values()} == {4_200_100_001}  # pod 2's spines
    assert got.networks == 1 + 16
    addressed = [p for p in got.ports.values() if p.address]
    assert len(addressed) == 32 + 2  # the 32 links, the loopback and eth0 (management)
    assert {p.speed for p in addressed if p.mtu} == {400_000}


def test_state_faults_from_the_command_line():
    import pytest
    from click.testing import CliRunner

    from netcfg.cli import main
    from netcfg.lab.oper import parse_state_fault

    assert parse_state_fault("swap,core1,et-0/0/0:0,et-0/0/0:1") == (
        "swap", ("core1", "et-0/0/0:0", "et-0/0/0:1"))  # colons stay in port names
    assert parse_state_fault("bgp_down, leaf-su1-r1, 10.64.0.16") == (
        "bgp_down", ("leaf-su1-r1", "10.64.0.16"))
    with pytest.raises(ValueError, match="swap takes DEVICE,PORT,PORT"):
        parse_state_fault("swap,leaf-su1-r1,Ethernet9/1")
    result = CliRunner().invoke(main, ["lab", str(MULTIVENDOR), "--state-fault", "storm,x,y"])
    assert result.exit_code == 2 and "unknown state fault 'storm'" in result.output


def test_a_session_s_port_is_the_first_whose_subnet_holds_the_peer():
    """The lab finds each session's local port through an index of the ports' subnets; the
    answer is the definition's, by the standard library's containment: the first port, in
    the config's order, whose interface network holds the address (IPv4 and IPv6, nested
    and overlapping subnets, ports without an address)."""
    import ipaddress
    import random

    from netcfg.lab.oper import ConfigFacts, PortFacts, _port_of

    rng = random.Random(40)
    for _ in range(200):
        facts = ConfigFacts()
        for i in range(rng.randint(0, 16)):
            pick = rng.random()
            address = (f"10.0.{rng.randint(0, 3)}.{rng.randint(0, 7)}/"
                       f"{rng.choice([24, 29, 30, 31, 32])}" if pick < 0.6 else
                       f"fd00::{rng.randint(0, 9)}/{rng.choice([64, 127, 128])}"
                       if pick < 0.8 else None)
            facts.ports[f"Ethernet{i}"] = PortFacts(address=address)
        for peer in [f"10.0.{rng.randint(0, 3)}.{rng.randint(0, 7)}" for _ in range(8)] + \
                [f"fd00::{rng.randint(0, 9)}" for _ in range(4)]:
            ip = ipaddress.ip_address(peer)
            want = next((name for name, p in facts.ports.items() if p.address
                         and ip in ipaddress.ip_interface(p.address).network), None)
            assert _port_of(facts, peer) == want, (facts.ports, peer)


def test_the_dynamic_model_s_lossless_profile_names(tmp_path):
    """VFY024 finds a SONiC port's lossless PG profile by buffermgrd's name for it. On an
    SN5600 O128 (the dynamic buffer model from first boot, ../shared/factory/DEFAULTS.md) the
    dynamic buffermgrd names it `pg_lossless_<S>_<L>m[_mtu<M_p>]..._profile`, `_mtu` only
    where PORT's mtu is not 9100 (../shared/specs/headroom-sonic-spectrum.md): netcfg's PORT
    mtu is 9202 (the 9216-byte frame less the 14-byte Ethernet header), so a 400G server port
    on a 3 m cable is `pg_lossless_400000_3m_mtu9202_profile` and a 50 m uplink
    `pg_lossless_400000_50m_mtu9202_profile` (4-lane ports: no `_8lane`). The traditional
    model's name (the multivendor inventory's 7060X6 SONiC leaf, a 40 m uplink) has no MTU."""
    from deploy.deploy_cases import multivendor

    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate
    from netcfg.vendors import vendor

    text = (MULTIVENDOR.parent / "gpu32768" / "fabric.yaml").read_text()
    (tmp_path / "fabric.yaml").write_text(text.replace("scalable_units: 128",
                                                       "scalable_units: 4")
                                          .replace("cores: 512", "cores: 32"))
    v = validate(tmp_path)
    assert v.fabric is not None and v.physics is not None, v.findings
    plan = PlanBuilder(v.fabric, v.physics).plan(v.fabric.devices["leaf-su1-r1"])
    sonic = vendor("sonic")
    names = {i.name: sonic.buffer_profile_name(i, plan) for i in plan.interfaces if i.lossless}
    server = next(i for i in plan.interfaces if i.lossless and i.cable_m == 3)
    uplink = next(i for i in plan.interfaces if i.lossless and i.cable_m == 50)
    assert names[server.name] == "pg_lossless_400000_3m_mtu9202_profile"
    assert names[uplink.name] == "pg_lossless_400000_50m_mtu9202_profile"
    m = multivendor()
    assert m.fabric is not None and m.physics is not None
    leaf = PlanBuilder(m.fabric, m.physics).plan(m.fabric.devices["leaf-su2-r1"])
    assert {sonic.buffer_profile_name(i, leaf) for i in leaf.interfaces
            if i.lossless and i.cable_m == 40} == {"pg_lossless_400000_40m_profile"}
