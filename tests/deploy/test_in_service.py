"""The disruptive-change gate's one policy (docs/deploy.md): a change is named only on a switch
with a front-panel port in service, read from its running configuration by its NOS's own admin
defaults. Hand-written configurations; each default comes from ../shared/factory/DEFAULTS.md
or the vendor text quoted in docs/render-<nos>.md:

- NX-OS: a routed port is `shutdown` unless it says `no shutdown` (observed; Cisco's
  cisco.nxos: "L3 enabled default state is False on N9K"); an L2 port's state is set by
  `system default switchport shutdown` (cisco.nxos);
- EOS: Ethernet ports are `no shutdown`, `switchport` in VLAN 1 (observed `show run all`);
- Junos: a port carries traffic only with a logical unit (docs/render-junos.md);
- Cumulus: "By default, Cumulus Linux disables all data plane ports" (Quick Start Guide);
  NVUE brings a configured port up unless `link state down`;
- SONiC: PORT `admin_status` defaults to `down` (sonic-port.yang in ../shared/sonic-yang).
"""

from __future__ import annotations

import json

import yaml

from netcfg.vendors import vendor


def _serving(nos: str, text: str) -> bool:
    adapter = vendor(nos).deploy
    return adapter.in_service(adapter.sections(text))


def test_nxos():
    assert not _serving("nxos", "interface Ethernet1/1\n  mtu 9216\n")
    assert _serving("nxos", "interface Ethernet1/1\n  no shutdown\n")
    assert _serving("nxos", "interface Ethernet1/1\n  switchport\n")
    assert not _serving("nxos", "interface Ethernet1/1\n  switchport\n  shutdown\n")
    assert not _serving("nxos", "system default switchport shutdown\n"
                                "interface Ethernet1/1\n  switchport\n")
    assert _serving("nxos", "system default switchport\ninterface Ethernet1/1\n  mtu 9216\n")
    assert not _serving("nxos", "system default switchport\n"
                                "interface Ethernet1/1\n  no switchport\n")
    assert not _serving("nxos", "interface mgmt0\n  no shutdown\n")


def test_eos():
    # a factory port prints no line and is up (a switchport in VLAN 1)
    assert _serving("eos", "hostname s\ninterface Ethernet1/1\n!\n")
    assert _serving("eos", "interface Ethernet1/1\n   no switchport\n")
    assert not _serving("eos", "interface Ethernet1/1\n   shutdown\n"
                               "interface Ethernet2/1\n   shutdown\n")
    assert not _serving("eos", "interface Management1\n   ip address 192.0.2.1/24\n")


def test_junos():
    assert not _serving("junos", "interfaces {\n    et-0/0/0 {\n        mtu 9216;\n    }\n}\n")
    assert _serving("junos", "interfaces {\n    et-0/0/0 {\n        unit 0 {\n"
                             "            family inet;\n        }\n    }\n}\n")
    assert not _serving("junos", "interfaces {\n    lo0 {\n        unit 0 {\n"
                                 "            family inet;\n        }\n    }\n}\n")


def _nvue(tree: dict) -> str:
    return yaml.safe_dump([{"set": tree}])


def test_cumulus():
    assert not _serving("cumulus", _nvue({"system": {"hostname": "cumulus"},
                                          "interface": {"eth0": {"type": "eth"}}}))
    assert _serving("cumulus", _nvue({"interface": {"swp1": {"type": "swp"}}}))
    for down in ("down", {"down": {}}):
        assert not _serving("cumulus", _nvue({"interface": {"swp1": {
            "type": "swp", "link": {"state": down}}}}))


def test_sonic():
    def db(**ports: dict) -> str:
        return json.dumps({"DEVICE_METADATA": {"localhost": {"hostname": "s"}},
                           "PORT": ports})

    assert not _serving("sonic", db(Ethernet0={"lanes": "0,1,2,3"}))
    assert not _serving("sonic", db(Ethernet0={"admin_status": "down"}))
    assert _serving("sonic", db(Ethernet0={"admin_status": "down"},
                                Ethernet8={"admin_status": "up"}))


def test_nothing_is_named_on_a_switch_with_no_port_in_service():
    """Each NOS's entry that its own tests show named on a switch in service, asked of the
    same switch with its ports down: nothing."""
    nxos = vendor("nxos").deploy
    split = "interface breakout module 1 port 1-24 map 400g-2x\n"
    assert nxos.disruptive(nxos.sections("interface Ethernet1/25\n  no shutdown\n"),
                           nxos.sections(split)) != []
    assert nxos.disruptive(nxos.sections("interface Ethernet1/25\n  mtu 9216\n"),
                           nxos.sections(split)) == []

    eos = vendor("eos").deploy
    port = "interface Ethernet1/1\n   speed 400g-8\n{}"
    faster = eos.sections(port.format("").replace("400g-8", "800g-8"))
    assert eos.disruptive(eos.sections(port.format("")), faster) != []
    assert eos.disruptive(eos.sections(port.format("   shutdown\n")), faster) == []

    sonic = vendor("sonic").deploy
    pools = json.dumps({"PORT": {"Ethernet0": {"admin_status": "up"}},
                        "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic"}}})
    up = json.dumps({"PORT": {"Ethernet0": {"admin_status": "up"}}})
    down = json.dumps({"PORT": {"Ethernet0": {"admin_status": "down"}}})
    assert sonic.disruptive(sonic.sections(up), sonic.sections(pools)) != []
    assert sonic.disruptive(sonic.sections(down), sonic.sections(pools)) == []

    cumulus = vendor("cumulus").deploy
    seeded = _nvue({"interface": {"swp1": {"type": "swp"}},
                    "system": {"forwarding": {"hash-seed": 11}}})
    assert cumulus.disruptive(cumulus.sections(_nvue({"interface": {"swp1": {"type": "swp"}}})),
                              cumulus.sections(seeded)) != []
    assert cumulus.disruptive(cumulus.sections(_nvue({"system": {"hostname": "cumulus"}})),
                              cumulus.sections(seeded)) == []
