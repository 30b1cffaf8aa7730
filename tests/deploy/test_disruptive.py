"""A push that takes links down by itself is refused unless the operator allows it: on NX-OS
an `interface breakout` line added, changed or removed reloads the module and removes the
split interfaces' configuration (Cisco NX-API reference, "Configuring Breakout on
High-Bandwidth Interfaces"). The multivendor NX-OS spine splits cages 1-24 into 2 x 400G;
fresh from the factory it splits none."""

from __future__ import annotations

import threading

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, NXOS_BREAKOUT, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
WHY = f"adds `{NXOS_BREAKOUT}` (NX-OS reloads the module: its links go down)"


def test_a_factory_spine_is_split_only_when_the_push_allows_it(make_lab, tmp_path):
    name = BY_NOS["nxos"]
    lab = make_lab(*specs([name], factory=True))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    target, desired = f.targets[0], f.desired[name]
    before = lab[name].running_config()
    assert "interface breakout" not in before

    drift = diff_device(target, desired, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == [WHY]
    assert f"disruptive: {WHY}" in drift.sections.summary()

    run = Run(tmp_path / "state")
    refused = push_device(target, desired, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive")
    assert WHY in (refused.error or "") and "--allow-disruptive" in (refused.error or "")
    assert lab[name].running_config().split("\n", 5)[5:] == before.split("\n", 5)[5:]
    [event] = [e for e in run.events() if e.device == name and e.event == "refused"]
    assert event.detail["stage"] == "disruptive" and event.detail["disrupts"] == [WHY]

    allowed = push_device(target, desired, run, Options(timeout=20, revert_in=300,
                                                        allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    assert NXOS_BREAKOUT in lab[name].running_config()
    # split now: the same push has nothing disruptive left to do
    again = push_device(target, desired, run, OPTS, threading.Event())
    assert again.status == "unchanged", again


def test_an_in_service_spine_keeps_its_split_without_asking(make_lab, tmp_path):
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
    """Cages 1-24 going from 2 x 400G to 4 x 200G: both lines named; other lines are not."""
    from netcfg.vendors import vendor

    adapter = vendor("nxos").deploy
    base = "hostname s1\ninterface Ethernet1/25\n  mtu 9216\n"
    running = adapter.sections(base + NXOS_BREAKOUT + "\n")
    wanted = adapter.sections(base.replace("9216", "9100")
                              + "interface breakout module 1 port 1-24 map 200g-4x\n")
    why = "(NX-OS reloads the module: its links go down)"
    assert adapter.disruptive(running, wanted) == [
        f"adds `interface breakout module 1 port 1-24 map 200g-4x` {why}",
        f"removes `{NXOS_BREAKOUT}` {why}"]
    assert adapter.disruptive(running, running) == []
