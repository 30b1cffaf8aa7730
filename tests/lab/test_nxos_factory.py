"""The NX-OS emulator boots from the vendor factory state and applies the NX-OS defaults read
from that vendor material, through the real NAPALM `nxos` driver.

Outside truth (../shared/factory): the factory configuration
nxos/running-config.factory-10.x.reconstructed.txt is INFERRED (an assembly of the default
lines public 9.3/10.x captures share; no capture of these models exists) -- the lines this
test expects are read from it. The interface defaults are the NX-OS rows of DEFAULTS.md: a
routed (`no switchport`) port is `shutdown` unless the file says `no shutdown` (observed on a
10.5(2) 9000v, and Cisco's cisco.nxos: "L3 enabled default state is False on N9K"),
loopbacks are up, an L2 port follows `system default switchport shutdown` (cisco.nxos). That
`configure replace` replaces the whole running configuration is Cisco's configuration-replace
guide ("not a merge operation"); that NAPALM's nxos driver uploads the replace file by SCP is
its `load_replace_candidate` (netmiko `file_transfer`), and that the switch must run `feature
nxapi` and `feature scp-server` for it is NAPALM's nxos documentation ("The features nxapi
server scp-server must be enabled"; DEFAULTS.md: both absent from the factory state)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from napalm.base.exceptions import ConnectionException, ReplaceConfigException

from netcfg.lab import DeviceSpec
from netcfg.lab.truth import vendor_options

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
FACTORY = SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"

pytestmark = pytest.mark.skipif(not FACTORY.is_file(), reason="needs ../shared/factory")

PORTS = ["Ethernet1/1", "Ethernet1/2", "Ethernet1/3"]


def _own(name: str) -> list[str]:
    """The factory lines a replace must keep for the switch to stay the switch it was."""
    text = FACTORY.read_text().replace("<switchname>", name)
    return [line.rstrip() for line in text.splitlines()
            if line.startswith(("copp profile", "boot nxos", "rmon event", "line ", "vdc ",
                                "  limit-resource", "icam "))]


def _file(own: list[str], *extra: str) -> str:
    """A complete replace file: the switch's own lines, the bootstrap, the login, the ports."""
    return "\n".join(["hostname nx1", "feature nxapi", "feature scp-server",
                      "username admin password 5 $5$netcfglab$" + "0" * 43 + " role network-admin",
                      *extra,
                      "interface Ethernet1/1", "  no switchport", "  ip address 10.0.0.0/31",
                      "  no shutdown",
                      "interface Ethernet1/2", "  no switchport", "  ip address 10.0.0.2/31",
                      "interface Ethernet1/3", "  switchport",
                      "interface loopback0", "  ip address 10.1.1.1/32",
                      "vrf context management", "interface mgmt0", "  vrf member management",
                      *own]) + "\n"


def test_factory_boot_defaults_and_a_replace_that_removes_what_the_file_lacks(make_lab,
                                                                              drivers):
    lab = make_lab(DeviceSpec("nx1", "nxos", interfaces=PORTS,
                              options=vendor_options(SHARED)))
    dev = lab["nx1"]
    own = _own("nx1")
    assert len(own) >= 12
    assert "vendor factory" in dev.do(lambda emu: emu.factory.source)

    drv = drivers("nxos", dev)
    drv.open()
    running = drv.get_config()["running"]
    assert all(line in running for line in own)
    version = re.search(r"^version (\S+)", FACTORY.read_text(), re.M)
    assert version is not None and drv.get_facts()["os_version"] == version.group(1)
    # a factory port has no mode line: routed by the lab's (inferred) default, so shut
    assert not any(drv.get_interfaces()[p]["is_up"] for p in PORTS)

    drv.load_replace_candidate(config=_file(own))
    drv.commit_config()
    state = drv.get_interfaces()
    assert state["Ethernet1/1"]["is_up"] and state["Ethernet1/1"]["is_enabled"]
    # routed, no `no shutdown`: admin down and down (DEFAULTS.md, L3 admin state)
    assert not state["Ethernet1/2"]["is_up"] and not state["Ethernet1/2"]["is_enabled"]
    # L2 without `system default switchport shutdown`, and the loopback: up
    assert state["Ethernet1/3"]["is_up"] and state["loopback0"]["is_up"]
    assert state["mgmt0"]["is_up"]

    drv.load_replace_candidate(config=_file(own, "system default switchport shutdown"))
    drv.commit_config()
    state = drv.get_interfaces()
    assert not state["Ethernet1/3"]["is_up"] and state["Ethernet1/1"]["is_up"]
    # the operational state the lab's wiring reads (netcfg/lab/oper.py) agrees
    from netcfg.lab.nxos.oper import facts

    ports = dev.do(lambda emu: facts(emu).ports)
    assert [p for p in PORTS if not ports[p].shutdown] == ["Ethernet1/1"]

    # a partial file: `configure replace` (NAPALM: rollback to the file) removes what it lacks
    partial = _file([line for line in own if not line.startswith(("boot", "copp"))])
    drv.load_replace_candidate(config=partial.replace("feature scp-server\n", ""))
    drv.commit_config()
    running = dev.running_config()
    assert "boot nxos" not in running and "copp profile" not in running
    assert "feature scp-server" not in running and "rmon event 1" in running
    # and the switch no longer takes NAPALM's upload of the next file
    with pytest.raises(ReplaceConfigException, match="transfer"):
        drv.load_replace_candidate(config=_file(own))
    # NAPALM's nxos docs: "The features nxapi server scp-server must be enabled": without
    # `feature nxapi` the switch answers no NX-API request, so NAPALM cannot even connect
    drv.device.config("no feature nxapi")
    with pytest.raises(ConnectionException):
        drivers("nxos", dev).open()


def test_without_the_vendor_folder_the_built_in_factory_says_so(make_lab):
    lab = make_lab(DeviceSpec("nx2", "nxos"))
    dev = lab["nx2"]
    assert "built-in" in dev.do(lambda emu: emu.factory.source)
    assert any(entry.text == dev.do(lambda emu: emu.factory.source) for entry in dev.log())
    assert "feature scp-server" in dev.running_config()
