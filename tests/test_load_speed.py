"""Loading an intent faster must not change what it finds or builds.

The shortcuts of the load path are each held to what they replace: Python's `ipaddress` for
the management pool's hosts and a management address's network, the deadlock check's own
network path for the gate's proof without a network, and the collector left as it was found.
Every finding and rendered byte is compared elsewhere (test_render_speed_identity.py, the
lint and validate tests).
"""

from __future__ import annotations

import gc
import ipaddress
import random
from pathlib import Path

import pytest

from netcfg.deadlock import scenario as scen
from netcfg.deadlock.check import _report, check
from netcfg.routing.network import from_fabric
from netcfg.routing.setup import from_intent, resolve_model
from netcfg.topology.addressing import _hosts, _subnet
from netcfg.validate import collector_paused, validate

ROOT = Path(__file__).resolve().parent.parent


def test_management_hosts_are_ipaddress_hosts():
    rng = random.Random(42)
    for bits in range(20, 33):
        for _ in range(6):
            net = ipaddress.IPv4Network((rng.getrandbits(32), bits), strict=False)
            assert [ipaddress.IPv4Address(h) for h in _hosts(net)] == list(net.hosts()), net


def test_management_subnet_is_ipaddress_network():
    rng = random.Random(7)
    known: dict = {}
    for _ in range(300):
        text = f"{ipaddress.IPv4Address(rng.getrandbits(32))}/{rng.randint(0, 32)}"
        got = _subnet(text, known)
        assert got == ipaddress.IPv4Interface(text).network, text
        assert str(got) == str(ipaddress.IPv4Interface(text).network)
    # a netmask form is read as ipaddress reads it
    assert str(_subnet("10.1.2.3/255.255.255.0", {})) == "10.1.2.0/24"


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_gate_proof_without_network_is_the_network_report(inventory):
    """With every link up and a routing model that proves the fabric alone, `check` skips
    indexing the fabric; its report is the one the network path gives."""
    fabric = validate(ROOT / "inventories" / inventory).fabric
    assert fabric is not None
    got = check(fabric).as_dict()
    net = from_fabric(fabric)
    setup = from_intent(fabric.loaded.intent, has_hosts=any(t == 0 for t in net.tier))
    assert scen.valley_free_proof(setup)  # the shortcut is taken for this intent
    want = _report(fabric, net, setup, resolve_model(fabric.loaded.intent)[1],
                   scen.run(net, setup, ())).as_dict()
    got.pop("seconds")
    want.pop("seconds")
    assert got == want
    assert got["graph"]["nodes"] == sum(net.lossless) * scen.lossless_priorities(setup)


def test_collector_left_as_found():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        validate(ROOT / "inventories" / "example")
        assert not gc.isenabled()  # a caller that turned it off keeps it off
    finally:
        gc.enable()


def test_server_prefixes_are_the_callers_own():
    """Device.server_prefixes is made once per switch; each caller gets lists of its own."""
    fabric = validate(ROOT / "inventories" / "example").fabric
    assert fabric is not None
    leaf = next(d for d in fabric.switches() if d.role == "leaf")
    subnets, blocks = leaf.server_prefixes()
    assert subnets and blocks
    subnets.append("x")
    blocks.clear()
    again = leaf.server_prefixes()
    assert "x" not in again[0] and again[1]
