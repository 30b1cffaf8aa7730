"""A factory Cumulus switch through netcfg push, with the real NAPALM driver against the lab.

Expected values come from NVIDIA's factory startup.yaml (../shared/factory/cumulus, read here)
and NVIDIA's text quoted in docs/render-cumulus.md:
- the default startup file holds "default firewall rules, and `cumulus` user account
  credentials. The file also enables the NVUE API" (5.15 "NVUE CLI"), and a replace without the
  account "deletes the `cumulus` account": a push must keep all three;
- eth0 stays in VRF `mgmt` (the factory file), so the switch still answers after the push.
"""

from __future__ import annotations

import threading

import pytest
import yaml

from netcfg.deploy.engine import Options, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, SHARED, fleet, specs

FACTORY = None if SHARED is None else \
    SHARED / "factory" / "cumulus" / "startup.yaml.factory-reconstructed.yaml"
OPTS = Options(timeout=20, revert_in=300)
NAME = BY_NOS["cumulus"]


def _set(text: str) -> dict:
    return next(d["set"] for d in yaml.safe_load(text) if "set" in d)


@pytest.mark.skipif(FACTORY is None or not FACTORY.is_file(),
                    reason="NVIDIA's factory startup.yaml (../shared/factory/cumulus) is not here")
def test_a_factory_switch_keeps_management_acls_api_and_account(make_lab, drivers, tmp_path):
    assert FACTORY is not None
    nvidia = _set(FACTORY.read_text())["system"]
    lab = make_lab(*specs([NAME]))
    lab.advance(30)
    dev = lab[NAME]
    f = fleet(lab, [NAME], tmp_path)
    run = Run(tmp_path / "state")

    pushed = push_device(f.targets[0], f.desired[NAME], run, OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = _set(dev.running_config())
    system = running["system"]
    assert system["control-plane"] == nvidia["control-plane"]
    assert system["api"] == nvidia["api"]
    assert system["aaa"]["user"]["cumulus"]["role"] == nvidia["aaa"]["user"]["cumulus"]["role"]
    assert system["aaa"]["class"] == nvidia["aaa"]["class"]
    assert system["aaa"]["role"] == nvidia["aaa"]["role"]
    # the file's static management address, in NVIDIA's management VRF (5.15 words)
    assert running["interface"]["eth0"]["vrf"] == nvidia_vrf() == "mgmt"
    assert dev.do(lambda emu: emu.cut_off) is None
    drv = drivers("netcfg_cumulus", dev)
    drv.open()
    assert drv.get_facts()["hostname"] == NAME

    again = push_device(f.targets[0], f.desired[NAME], run, OPTS, threading.Event())
    assert again.status == "unchanged", again


def nvidia_vrf() -> str:
    assert FACTORY is not None
    return str(_set(FACTORY.read_text())["interface"]["eth0"]["ip"]["vrf"])
