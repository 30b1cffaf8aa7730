"""A push that takes links down by itself is refused unless the operator allows it, on a
switch with a port in service (the gate's one policy, docs/deploy.md): on NX-OS an `interface
breakout` line added, changed or removed reloads the module and removes the split interfaces'
configuration (Cisco NX-API reference, "Configuring Breakout on High-Bandwidth
Interfaces"). The multivendor NX-OS spine splits cages 1-24 into 2 x 400G. Fresh from the
factory it splits none and has no port up (a routed port is shut unless it says `no
shutdown`: ../shared/factory/DEFAULTS.md, observed and Cisco's cisco.nxos collection), so its
first push splits them without asking; once its ports are up, another split is refused."""

from __future__ import annotations

import dataclasses
import threading

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, NXOS_BREAKOUT, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
WHY = "(NX-OS reloads the module: its links go down)"
#: the same cages split 4 x 200G: sub-ports /1 and /2, which the file configures, stay
OTHER = "interface breakout module 1 port 1-24 map 200g-4x"


def test_a_factory_spine_splits_without_asking_and_in_service_only_when_allowed(make_lab,
                                                                                tmp_path):
    name = BY_NOS["nxos"]
    lab = make_lab(*specs([name], factory=True))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    target, desired = f.targets[0], f.desired[name]
    assert "interface breakout" not in lab[name].running_config()

    # no port up: nothing to take down, the first push splits the cages
    drift = diff_device(target, desired, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == []
    run = Run(tmp_path / "state")
    first = push_device(target, desired, run, OPTS, threading.Event())
    assert first.status == "confirmed", first
    assert NXOS_BREAKOUT in lab[name].running_config()
    assert "  no shutdown" in lab[name].running_config()

    # its ports up now: another split of the same cages is named and refused
    other = dataclasses.replace(desired, text=desired.text.replace(NXOS_BREAKOUT, OTHER))
    assert other.text != desired.text
    named = [f"adds `{OTHER}` {WHY}", f"removes `{NXOS_BREAKOUT}` {WHY}"]
    drift = diff_device(target, other, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == named
    assert f"disruptive: {'; '.join(named)}" in drift.sections.summary()
    before = lab[name].running_config()
    refused = push_device(target, other, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive")
    assert named[0] in (refused.error or "") and "--allow-disruptive" in (refused.error or "")
    assert lab[name].running_config().split("\n", 5)[5:] == before.split("\n", 5)[5:]
    [event] = [e for e in run.events() if e.device == name and e.event == "refused"]
    assert event.detail["stage"] == "disruptive" and event.detail["disrupts"] == named

    allowed = push_device(target, other, run, dataclasses.replace(OPTS, allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    assert OTHER in lab[name].running_config()


def test_a_split_spine_with_no_port_up_takes_its_file_without_asking(make_lab, tmp_path):
    """Split already (deploy_cases.in_service) and nothing brought up: the push changes no
    split and has no port to take down."""
    name = BY_NOS["nxos"]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    drift = diff_device(f.targets[0], f.desired[name], OPTS)
    assert drift.sections is not None and drift.sections.disruptive == []
    pushed = push_device(f.targets[0], f.desired[name], Run(tmp_path / "state"), OPTS,
                         threading.Event())
    assert pushed.status == "confirmed", pushed


def test_a_changed_map_is_one_line_removed_and_one_added():
    """Cages 1-24 going from 2 x 400G to 4 x 200G on a switch with a port up: both lines
    named; other lines are not. With no port up, nothing is named."""
    from netcfg.vendors import vendor

    adapter = vendor("nxos").deploy
    base = "hostname s1\ninterface Ethernet1/25\n  mtu 9216\n  no shutdown\n"
    running = adapter.sections(base + NXOS_BREAKOUT + "\n")
    wanted = adapter.sections(base.replace("9216", "9100") + OTHER + "\n")
    assert adapter.disruptive(running, wanted) == [
        f"adds `{OTHER}` {WHY}", f"removes `{NXOS_BREAKOUT}` {WHY}"]
    assert adapter.disruptive(running, running) == []
    shut = adapter.sections(base.replace("  no shutdown\n", "") + NXOS_BREAKOUT + "\n")
    assert adapter.disruptive(shut, wanted) == []

