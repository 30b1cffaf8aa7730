"""`netcfg diff` says what differs the way a person writes it: an EOS switch of the lab runs
the multivendor inventory's config (PFC watchdog detection 200ms), the intent then asks for
400ms, and the diff reads the running config back through the real NAPALM `eos` driver.

The expected lines are written by hand: the watchdog of the intent (`detection: 400ms`) and of
the config pushed before (the inventory's default, 200ms, docs/intent.md)."""

from __future__ import annotations

import threading

from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, desired_with, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
WATCHDOG = ("qos:\n  pfc:\n    watchdog: {enabled: true, detection: 400ms, restoration: 200ms, "
            "action: drop, poll_interval: 100ms}\n")


def test_diff_prints_the_watchdog_as_a_person_writes_it(make_lab, tmp_path):
    name = BY_NOS["eos"]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    target = f.targets[0]
    pushed = push_device(target, f.desired[name], Run(tmp_path / "state"), OPTS,
                         threading.Event())
    assert pushed.status == "confirmed", pushed

    wanted = desired_with(tmp_path, name, WATCHDOG)
    drift = diff_device(target, wanted, OPTS)
    watchdog = [line for line in drift.meaning if "watchdog" in line]
    assert watchdog, drift.meaning[:5]
    for line in watchdog:  # the running 200ms where the intent now asks for 400ms
        port, said = line.split(": ", 1)
        assert port.startswith("Ethernet") and said == "PFC watchdog detection 200ms instead "\
            "of 400ms", line
    assert not any("Facts(" in line or "Ecn(" in line for line in drift.meaning)

    inventory = tmp_path / "inventory-0"  # the one desired_with wrote
    out = CliRunner().invoke(main, ["diff", str(inventory), "--connect",
                                    str(tmp_path / "lab-devices.yaml"), "--device", name,
                                    "--state", str(tmp_path / "state")])
    assert out.exit_code == 3, out.output  # drift
    shown = [ln for ln in out.output.splitlines() if ln.startswith("  = ")]
    assert shown and shown[0].startswith("  = Ethernet")
    assert any(ln.endswith(": PFC watchdog detection 200ms instead of 400ms") for ln in shown)
    assert "WatchdogFacts" not in out.output
