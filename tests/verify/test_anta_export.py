"""`netcfg verify --export anta DIR`: ANTA (the real package from PyPI) loads the catalog
written for an EOS leaf, and its tests and inputs are the ones written here by hand from the
multivendor intent.

What the leaf's catalog must hold, from inventories/multivendor/fabric.yaml and the platform:
- 16 servers per SU (nodes_per_su) on rail 1 -> 16 server ports; leaf_uplinks 16 over
  spines 4 -> 4 links to each spine of pod 1;
- the 7060X6 leaf has 800G cages of 8 lanes, split into two 400G ports at lanes 1 and 5
  (EOS names them Ethernet<cage>/1 and /5): servers on cages 1-8, uplinks on cages 9-16,
  two cages per spine; each spine (N9364E-SG2) takes a leaf's two links on its cages
  1/1 and 1/2, split the same way (Ethernet1/<cage>/1 and /2 on NX-OS);
- the leaf-spine /31s are allocated from 10.64.0.0 in the order of the leaf's uplinks, the
  spine holding the even address (docs/verify.md's example: 10.64.0.0 is spine-pod1-1 on
  Ethernet9/1).
core1 (Junos) is selected too: ANTA tests EOS only, so no catalog is written for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from netcfg.cli import main

catalog_mod = pytest.importorskip("anta.catalog", reason="ANTA (the test extra) is not installed")

INVENTORY = Path(__file__).resolve().parents[2] / "inventories" / "multivendor"

SERVER_PORTS = [f"Ethernet{cage}/{lane}" for cage in range(1, 9) for lane in (1, 5)]
UPLINKS = [  # leaf port, spine, spine port
    ("Ethernet9/1", "spine-pod1-1", "Ethernet1/1/1"),
    ("Ethernet9/5", "spine-pod1-1", "Ethernet1/1/2"),
    ("Ethernet10/1", "spine-pod1-1", "Ethernet1/2/1"),
    ("Ethernet10/5", "spine-pod1-1", "Ethernet1/2/2"),
    ("Ethernet11/1", "spine-pod1-2", "Ethernet1/1/1"),
    ("Ethernet11/5", "spine-pod1-2", "Ethernet1/1/2"),
    ("Ethernet12/1", "spine-pod1-2", "Ethernet1/2/1"),
    ("Ethernet12/5", "spine-pod1-2", "Ethernet1/2/2"),
    ("Ethernet13/1", "spine-pod1-3", "Ethernet1/1/1"),
    ("Ethernet13/5", "spine-pod1-3", "Ethernet1/1/2"),
    ("Ethernet14/1", "spine-pod1-3", "Ethernet1/2/1"),
    ("Ethernet14/5", "spine-pod1-3", "Ethernet1/2/2"),
    ("Ethernet15/1", "spine-pod1-4", "Ethernet1/1/1"),
    ("Ethernet15/5", "spine-pod1-4", "Ethernet1/1/2"),
    ("Ethernet16/1", "spine-pod1-4", "Ethernet1/2/1"),
    ("Ethernet16/5", "spine-pod1-4", "Ethernet1/2/2"),
]
PEERS = [f"10.64.0.{2 * k}" for k in range(16)]  # 10.64.0.0, .2, ... .30


def test_anta_loads_the_catalog_of_an_eos_leaf(tmp_path: Path):
    out = tmp_path / "anta"
    result = CliRunner().invoke(main, ["verify", str(INVENTORY), "--device", "leaf-su1-r1",
                                       "--device", "core1", "--export", "anta", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["leaf-su1-r1.yml"]
    path = out / "leaf-su1-r1.yml"

    assert yaml.safe_load(path.read_text()) == {
        "anta.tests.routing": {"bgp": [{"VerifyBGPPeerSession": {"bgp_peers": [
            {"peer_address": a, "vrf": "default"} for a in PEERS]}}]},
        "anta.tests.connectivity": [{"VerifyLLDPNeighbors": {
            "require_fqdn": False,
            "neighbors": [{"port": p, "neighbor_device": d, "neighbor_port": q}
                          for p, d, q in UPLINKS]}}],
        "anta.tests.interfaces": [{"VerifyInterfacesStatus": {"interfaces": [
            {"name": p, "status": "up"} for p in SERVER_PORTS + [u[0] for u in UPLINKS]]}}],
    }

    # ANTA's own loader: its test classes, its input models
    catalog = catalog_mod.AntaCatalog.parse(path)
    tests = {(t.test.__module__, t.test.__name__): t.inputs for t in catalog.tests}
    assert set(tests) == {("anta.tests.routing.bgp", "VerifyBGPPeerSession"),
                          ("anta.tests.connectivity", "VerifyLLDPNeighbors"),
                          ("anta.tests.interfaces", "VerifyInterfacesStatus")}
    bgp = tests[("anta.tests.routing.bgp", "VerifyBGPPeerSession")]
    assert [str(p.peer_address) for p in bgp.bgp_peers] == PEERS
    assert {p.vrf for p in bgp.bgp_peers} == {"default"}
    lldp = tests[("anta.tests.connectivity", "VerifyLLDPNeighbors")]
    assert lldp.require_fqdn is False
    assert [(n.port, n.neighbor_device, n.neighbor_port) for n in lldp.neighbors] == UPLINKS
    status = tests[("anta.tests.interfaces", "VerifyInterfacesStatus")]
    assert len(status.interfaces) == 32
    assert {i.status for i in status.interfaces} == {"up"}


def test_no_eos_switch_in_the_selection_writes_nothing(tmp_path: Path):
    out = tmp_path / "anta"
    result = CliRunner().invoke(main, ["verify", str(INVENTORY), "--device", "core1",
                                       "--export", "anta", str(out)])
    assert result.exit_code == 1
    assert "no EOS switch" in result.output
    assert not out.exists()
