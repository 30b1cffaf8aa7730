"""The EOS lab takes a BGP session down past its prefix limit, as EOS does: Idle(MaxPath).

The limit where a config states none is EOS's default, read here from the `show
running-config all` capture in ../shared/factory/eos (a peer group with no limit of its own
prints `neighbor <group> maximum-routes 12000`); the session's prefixes are what the peer's own
config announces (the lab's model: its `network` statements, no transit). Both ends are EOS lab
switches cabled by the lab's wiring, read through the real NAPALM eos driver.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from netcfg.lab import DeviceSpec
from netcfg.lab.cfgtree import Node
from netcfg.lab.oper import Wiring
from netcfg.lab.truth import vendor_options

SHARED = Path(__file__).resolve().parents[3] / "shared"
SHOW_RUN_ALL = SHARED / "factory" / "eos" / "captures" / "batfish__arista_bgp_show_run_all_2"
HASH = "$6$x$" + "y" * 86


def _config(name: str, address: str, asn: int, peer: str, peer_as: int,
            extra: str = "") -> str:
    lines = [f"hostname {name}",
             f"username netops privilege 15 role network-admin secret sha512 {HASH}",
             "management api http-commands", "   no shutdown",
             "ip routing",
             "interface Ethernet1/1", "   no switchport", f"   ip address {address}/31",
             f"router bgp {asn}", f"   router-id {address}",
             f"   neighbor {peer} remote-as {peer_as}", *extra.splitlines()]
    return "\n".join(lines) + "\n"


def _announce(emulator, count: int) -> None:
    """`count` network statements (10.128.0.0/32, 10.128.0.1/32, ...) in the switch's running
    `router bgp`, put into its configuration tree directly: the lab's line parser checks each
    statement against every sibling, which for 12,001 of them takes minutes (the statements
    are what the grammar takes: `network <prefix>`)."""
    bgp = next(n for n in emulator.running.children if n.tokens[:2] == ["router", "bgp"])
    bgp.children += [Node(f"network 10.{128 + i // 65536}.{i // 256 % 256}.{i % 256}/32")
                     for i in range(count)]


@pytest.fixture(scope="module")
def default_limit() -> int:
    if not SHOW_RUN_ALL.is_file():
        pytest.skip("../shared/factory/eos is absent: EOS's default limit is read from it")
    found = {int(n) for n in re.findall(r"^\s+neighbor \S+ maximum-routes (\d+)$",
                                        SHOW_RUN_ALL.read_text(), re.M)}
    assert len(found) == 1
    return found.pop()


def _lab(make_lab, receiver_extra: str, networks: int):
    wiring = Wiring({("rx", "Ethernet1/1"): ("tx", "Ethernet1/1")})
    options = {**vendor_options(SHARED), "oper": wiring}
    lab = make_lab(
        DeviceSpec("rx", "eos", username="netops", interfaces=["Ethernet1/1"],
                   options=dict(options), startup_config=_config(
                       "rx", "10.0.0.0", 65001, "10.0.0.1", 65002, receiver_extra)),
        DeviceSpec("tx", "eos", username="netops", interfaces=["Ethernet1/1"],
                   options=dict(options), startup_config=_config(
                       "tx", "10.0.0.1", 65002, "10.0.0.0", 65001)))
    wiring.bind(lab)
    lab["tx"].do(lambda e: _announce(e, networks))
    return lab


def _driver(lab, name: str, drivers):
    driver = drivers("eos", lab[name])
    driver.open()
    return driver


def _neighbors(lab, name: str, drivers) -> dict:
    return _driver(lab, name, drivers).get_bgp_neighbors()["global"]["peers"]


def _eapi(lab, name: str, drivers, command: str) -> dict:
    return _driver(lab, name, drivers).device.run_commands([command])[0]


def test_past_the_default_the_session_goes_idle_maxpath(make_lab, drivers, default_limit):
    """12,001 prefixes on a session with no maximum-routes: rx shows it Idle (MaxPath) and
    neither end has it up; exactly 12,000 stays up."""
    lab = _lab(make_lab, "", default_limit + 1)
    peer = _neighbors(lab, "rx", drivers)["10.0.0.1"]
    assert peer["is_up"] is False
    [row] = _eapi(lab, "rx", drivers, "show ip bgp neighbors vrf all")["vrfs"]["default"][
        "peerList"]
    assert (row["state"], row["idleReason"]) == ("Idle", "MaxPath")
    assert _neighbors(lab, "tx", drivers)["10.0.0.0"]["is_up"] is False

    at = _lab(make_lab, "", default_limit)
    peer = _neighbors(at, "rx", drivers)["10.0.0.1"]
    assert peer["is_up"] is True
    assert peer["address_family"]["ipv4"]["received_prefixes"] == default_limit


def test_the_rendered_group_limit_keeps_it_up(make_lab, drivers, default_limit):
    """The form netcfg renders (a peer group with maximum-routes 256000) holds the same
    12,001 prefixes; a limit of 0 is none."""
    group = ("   neighbor SPINE peer group\n   neighbor SPINE maximum-routes 256000\n"
             "   neighbor 10.0.0.1 peer group SPINE")
    lab = _lab(make_lab, group, default_limit + 1)
    peer = _neighbors(lab, "rx", drivers)["10.0.0.1"]
    assert peer["is_up"] is True
    assert peer["address_family"]["ipv4"]["received_prefixes"] == default_limit + 1
    unlimited = _lab(make_lab, "   neighbor 10.0.0.1 maximum-routes 0", default_limit + 1)
    assert _neighbors(unlimited, "rx", drivers)["10.0.0.1"]["is_up"] is True
