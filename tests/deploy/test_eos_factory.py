"""An EOS switch fresh from the factory (the vendor's factory configuration in
../shared/factory/eos), pushed through the real NAPALM `eos` driver, and the changes that stop
traffic refused without --allow-disruptive.

Expected factory lines are read from the vEOS capture in ../shared/factory/eos (its
`show startup-config`); the lines the Vagrant box configured there (logins, eAPI, the
event-handler, Management1's address) are the ones factory/eos/README.md names as the box's.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run
from netcfg.lab.truth import vendor_options
from netcfg.vendors import vendor

from .deploy_cases import BY_NOS, SHARED, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
NAME = BY_NOS["eos"]
CAPTURE = SHARED / "factory" / "eos" / "captures" / "napalm__eos_mock_data__show_running_config.txt"
MMU_WHY = "(EOS re-carves the switch's packet buffer: traffic on every port is affected)"


def _top(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if line and not line.startswith((" ", "!")) and line != "end"]


@pytest.fixture
def factory_leaf(make_lab, tmp_path):
    if "factory_dir" not in vendor_options(SHARED) or not CAPTURE.is_file():
        pytest.skip("../shared/factory/eos is absent: the EOS lab has only its built-in factory")
    lab = make_lab(*specs([NAME]))
    lab.advance(30)
    return lab, lab[NAME], fleet(lab, [NAME], tmp_path)


def test_boots_from_the_vendor_factory_and_a_push_keeps_what_a_replace_gives_back(
        factory_leaf, tmp_path):
    lab, dev, f = factory_leaf
    factory_lines = {"no ip routing", "spanning-tree mode mstp",
                     "transceiver qsfp default-mode 4x10G"}
    assert factory_lines <= set(_top(CAPTURE.read_text()))  # the vendor's own lines
    before = set(_top(dev.running_config()))
    assert factory_lines <= before
    assert not any(line.startswith(("event-handler", "aaa root")) for line in before)
    assert any(e.channel == "factory" and "napalm__eos_mock_data" in e.text for e in dev.log())

    target, desired = f.targets[0], f.desired[NAME]
    run = Run(tmp_path / "state")
    # a factory switch runs EOS's default MMU profile and no PFC or speed of its own: its
    # first ones are not a change of anything it ran
    drift = diff_device(target, desired, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == []
    assert drift.sections.unmanaged == []
    pushed = push_device(target, desired, run, OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    after = set(_top(dev.running_config()))
    assert "ip routing" in after and "no ip routing" not in after
    assert {"spanning-tree mode mstp", "transceiver qsfp default-mode 4x10G"} <= after
    again = push_device(target, desired, run, OPTS, threading.Event())
    assert again.status == "unchanged", again


def test_a_qos_change_is_refused_without_allow_disruptive(factory_leaf, tmp_path):
    """The in-service leaf's MMU queue profile gets another threshold: diff names it, push
    refuses it and the journal records why; --allow-disruptive lets it through."""
    lab, dev, f = factory_leaf
    target, desired = f.targets[0], f.desired[NAME]
    run = Run(tmp_path / "state")
    assert push_device(target, desired, run, OPTS, threading.Event()).status == "confirmed"
    assert "    ingress threshold 1\n" in desired.text
    changed = replace(desired, text=desired.text.replace("    ingress threshold 1\n",
                                                         "    ingress threshold 1/2\n"))
    why = ("changes the applied MMU queue profile `NETCFG-LOSSLESS` (its thresholds change) "
           + MMU_WHY)
    drift = diff_device(target, changed, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == [why]
    assert f"disruptive: {why}" in drift.sections.summary()
    before = dev.running_config()
    refused = push_device(target, changed, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive")
    assert "--allow-disruptive" in (refused.error or "")
    assert dev.running_config().split("\n", 5)[5:] == before.split("\n", 5)[5:]
    [event] = [e for e in run.events() if e.device == NAME and e.event == "refused"]
    assert event.detail["disrupts"] == [why]
    allowed = push_device(target, changed, run, replace(OPTS, allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    assert "ingress threshold 1/2" in dev.running_config()


def test_speed_and_pfc_changes_on_a_running_port():
    """Only a port that runs a speed or PFC of its own is a change; the watchdog lines are
    not PFC."""
    adapter = vendor("eos").deploy
    port = ("interface Ethernet1/1\n   speed 400g-8\n   priority-flow-control on\n"
            "   priority-flow-control priority 3 no-drop\n"
            "   priority-flow-control pause watchdog\n")
    running = adapter.sections(port)
    assert adapter.disruptive(running, running) == []
    slower = adapter.sections(port.replace("400g-8", "200g-4"))
    assert adapter.disruptive(running, slower) == [
        "changes the speed of 1 port (Ethernet1/1 400g-8 -> 200g-4) (the link goes down and "
        "retrains at the new speed)"]
    no_pfc = adapter.sections(port.replace("   priority-flow-control priority 3 no-drop\n", ""))
    assert adapter.disruptive(running, no_pfc) == [
        "changes PFC on 1 port (Ethernet1/1) (the port's lossless priorities change under "
        "traffic: paused or lossless traffic may drop)"]
    no_watchdog = adapter.sections(port.replace("   priority-flow-control pause watchdog\n", ""))
    assert adapter.disruptive(running, no_watchdog) == []
    fresh = adapter.sections("interface Ethernet1/1\n")
    assert adapter.disruptive(fresh, running) == []
