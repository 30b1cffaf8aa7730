"""A factory Cumulus switch through netcfg push, with the real NAPALM driver against the lab.

Expected values come from NVIDIA's factory startup.yaml (../shared/factory/cumulus, read here)
and NVIDIA's text quoted in docs/render-cumulus.md:
- the default startup file holds "default firewall rules, and `cumulus` user account
  credentials. The file also enables the NVUE API" (5.15 "NVUE CLI"), and a replace without the
  account "deletes the `cumulus` account": a push must keep all three;
- eth0 stays in VRF `mgmt` (the factory file), so the switch still answers after the push;
- "Configuring the hash seed restarts the `switchd` service, which causes all network ports to
  reset, interrupts network services, and resets the switch hardware configuration" (5.15
  ECMP page): once the switch runs ports, a changed seed is refused without
  --allow-disruptive; "By default, Cumulus Linux disables all data plane ports" (Quick Start
  Guide): on a factory switch nothing is up to go down;
- "When you enable BGP for the first time, the FRR service restarts, which might impact
  traffic. Any time you enable or disable BGP, change the ASN ... the FRR service also
  restarts" (5.14 Basic BGP Configuration); "When you change the BFD state, the FRR service
  will restart, affecting all configured routing protocols" (5.15 BFD page).
"""

from __future__ import annotations

import shutil
import threading

import pytest
import yaml

from netcfg.deploy.desired import desired_configs
from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run
from netcfg.deploy.targets import select
from netcfg.validate import validate
from netcfg.vendors import vendor

from .deploy_cases import BY_NOS, MULTIVENDOR, SHARED, fleet, specs

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


def _reseeded(directory, seed: int):
    """The multivendor Cumulus leaf's desired config with the leaves' ECMP seed changed."""
    inventory = directory / "reseeded"
    shutil.copytree(MULTIVENDOR, inventory)
    fabric = inventory / "fabric.yaml"
    text = fabric.read_text()
    assert "seeds: {leaf: 10," in text
    fabric.write_text(text.replace("seeds: {leaf: 10,", f"seeds: {{leaf: {seed},"))
    v = validate(inventory)
    assert v.fabric is not None and v.physics is not None
    return desired_configs(v.fabric, v.physics, select(v.fabric, (NAME,)))[NAME]


def test_a_hash_seed_change_is_refused_without_allow_disruptive(make_lab, tmp_path):
    lab = make_lab(*specs([NAME]))
    lab.advance(30)
    dev = lab[NAME]
    f = fleet(lab, [NAME], tmp_path)
    run = Run(tmp_path / "state")
    # fresh from the factory: no port is up, so setting the seed takes nothing down
    first = diff_device(f.targets[0], f.desired[NAME], OPTS)
    assert first.sections is not None and first.sections.disruptive == []
    assert push_device(f.targets[0], f.desired[NAME], run, OPTS,
                       threading.Event()).status == "confirmed"
    assert _set(dev.running_config())["system"]["forwarding"]["hash-seed"] == 10

    why = ("changes `system forwarding hash-seed` 10 -> 11 (restarts switchd: NVIDIA, every "
           "network port resets)")
    reseeded = _reseeded(tmp_path, 11)
    drift = diff_device(f.targets[0], reseeded, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == [why]
    refused = push_device(f.targets[0], reseeded, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive"), refused
    assert why in (refused.error or "") and "--allow-disruptive" in (refused.error or "")
    assert _set(dev.running_config())["system"]["forwarding"]["hash-seed"] == 10
    allowed = push_device(f.targets[0], reseeded, run,
                          Options(timeout=20, revert_in=300, allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    assert _set(dev.running_config())["system"]["forwarding"]["hash-seed"] == 11


def _sections(tree: dict) -> dict:
    return vendor("cumulus").deploy.sections(yaml.safe_dump([{"set": tree}]))


def test_frr_restarts_and_breakouts_are_named_where_something_runs():
    """Hand-written NVUE documents: BGP on (5.15 words) with one port in service."""
    cumulus = vendor("cumulus").deploy
    port = {"swp1": {"type": "swp", "link": {"breakout": {"2x": {}}}},
            "swp1s0": {"type": "swp", "link": {"mtu": 9202}}}
    running = {"interface": port, "router": {"bgp": {"state": "enabled",
                                                     "autonomous-system": 65001}}}
    wanted = {"interface": {"swp1": {"type": "swp", "link": {"breakout": {"4x": {}}}}},
              "router": {"bgp": {"state": "enabled", "autonomous-system": 65002},
                         "bfd": {"state": "enabled"}}}
    frr = "(the FRR service restarts: NVIDIA, every routing protocol is affected)"
    assert cumulus.disruptive(_sections(running), _sections(wanted)) == [
        "changes `interface swp1 link breakout` 2x -> 4x (the cage's ports are replaced: "
        "their links go down)",
        f"changes the BGP autonomous-system 65001 -> 65002 {frr}",
        f"enables `router bfd` {frr}"]
    assert cumulus.disruptive(_sections(running), _sections(running)) == []
    # 5.14's words: `enable: off` switches BGP off
    off = {**running, "router": {"bgp": {"enable": "off", "autonomous-system": 65001}}}
    assert cumulus.disruptive(_sections(running), _sections(off)) == [f"disables BGP {frr}"]
    # nothing runs on a factory switch: no port, no routing
    assert cumulus.disruptive(_sections({"system": {"hostname": "cumulus"}}),
                              _sections(wanted)) == []
