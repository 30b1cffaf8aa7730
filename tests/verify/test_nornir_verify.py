"""The Nornir task `netcfg_verify` (netcfg/nornir.py) with the real nornir package, on the
verify lab: one result per host with every check, `failed` when a check fails."""

from __future__ import annotations

import pytest

pytest.importorskip("nornir", reason="the nornir extra is not installed")

from nornir import InitNornir  # noqa: E402

from netcfg.nornir import netcfg_verify  # noqa: E402

from .conftest import CUMULUS_LEAF, LEAF, SONIC_LEAF, VerifyLab  # noqa: E402


def test_netcfg_verify_on_three_nos_and_a_session_down(verify_lab: VerifyLab):
    names = [LEAF, SONIC_LEAF, CUMULUS_LEAF]
    nr = InitNornir(
        inventory={"plugin": "NetcfgInventory",
                   "options": {"path": str(verify_lab.inventory),
                               "connect": str(verify_lab.connect), "devices": names,
                               "state": str(verify_lab.state), "timeout": 20}},
        runner={"plugin": "threaded", "options": {"num_workers": 3}},
        logging={"enabled": False})
    try:
        results = nr.run(task=netcfg_verify, timeout=20)
        assert sorted(results) == sorted(names)
        for name in names:
            [r] = results[name]
            assert not r.failed, r.result
            got = r.result
            assert got["device"] == name and got["errors"] == []
            rules = [c["rule"] for c in got["checks"] if c["ok"]]
            # every leaf: 16 uplinks, each with its LLDP neighbour and an established session
            assert rules.count("VFY002") == rules.count("VFY007") == 16, name
        lab, w = verify_lab.lab, verify_lab.wiring
        first = next(c for c in results[SONIC_LEAF][0].result["checks"]
                     if c["rule"] == "VFY007")
        port, address = first["interface"], first["message"].split()[1]  # "BGP <address> ..."
        lab.call(w.bgp_down, SONIC_LEAF, address)
        try:
            again = nr.filter(name=SONIC_LEAF).run(task=netcfg_verify, timeout=20)
        finally:
            lab.call(w.clear, verify_lab.links)
        [r] = again[SONIC_LEAF]
        assert r.failed
        failed = [(c["rule"], c["interface"]) for c in r.result["checks"] if not c["ok"]]
        assert failed == [("VFY007", port)]
    finally:
        nr.close_connections()
