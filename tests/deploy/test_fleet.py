"""A 56-switch, five-NOS fleet pushed in canary + batches; one device fails its commit in the
second batch: the run stops, nothing further starts, every device the run confirmed is put
back to its saved config, and the journal tells the story."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from netcfg.deploy.desired import desired_configs
from netcfg.deploy.engine import Options, diff_device, pool, push_fleet
from netcfg.deploy.runs import Run
from netcfg.deploy.targets import from_devices_file, select
from netcfg.lab import DeviceSpec
from netcfg.validate import validate

from .deploy_cases import PASSWORD, devices_file

FLEET = Path(__file__).resolve().parent / "fleet"


@pytest.fixture(scope="module")
def fleet_intent():
    result = validate(FLEET)
    assert result.ok and result.fabric is not None
    return result


def test_one_failure_in_a_batch_stops_and_rolls_back_the_run(fleet_intent, make_lab, tmp_path):
    fabric = fleet_intent.fabric
    switches = select(fabric)
    assert len(switches) >= 50
    assert {fabric.platform(d).nos for d in switches} == {"eos", "nxos", "junos", "sonic",
                                                          "cumulus"}
    lab = make_lab(*[DeviceSpec(d.name, fabric.platform(d).nos, username="netops",
                                password=PASSWORD, interfaces=[p.name for p in d.ports],
                                model=fabric.platform(d).model)
                     for d in switches])
    lab.advance(30)
    targets = from_devices_file(fabric, switches, devices_file(lab, tmp_path))
    desired = desired_configs(fabric, fleet_intent.physics, switches)
    before = {t.name: lab[t.name].running_config() for t in targets}

    opts = Options(timeout=30, canary=1, batch_size=10, max_failures=0, workers=10)
    failing = targets[1 + 10 + 3]  # in the second batch
    lab[failing.name].inject("commit_error", message="Error: hardware programming failed")
    run = Run(tmp_path / "state")
    results, aborted = push_fleet(targets, desired, run, opts, threading.Event())

    assert aborted
    status = {r.device: r.status for r in results}
    assert status[failing.name] == "failed"
    started = [t.name for t in targets[:1 + 10 + 10]]
    assert sorted(status) == sorted(started)  # no third batch
    assert all(status[n] == "rolled-back" for n in started if n != failing.name), status
    lab.advance(opts.revert_in + 1)
    # every device, touched or not, differs from the intent again (diffed ten at a time, as
    # `netcfg diff` reads a fleet)
    drift = pool(targets, lambda t: diff_device(t, desired[t.name], opts), opts.workers)
    assert {r.device: r.status for r in drift} == {t.name: "drift" for t in targets}
    # the restore put each device's saved config back: the device itself sees no difference
    for name in started:
        assert _content(lab[name].running_config()) == _content(before[name]), name

    events = run.events()
    stop = next(i for i, e in enumerate(events) if e.event == "stop")
    assert "more than --max-failures 0" in events[stop].detail["reason"]
    assert [e.device for e in events[stop:] if e.event == "committing"] == []
    finals = run.final_states()
    assert finals[failing.name] == "failed"
    assert {finals[n] for n in started if n != failing.name} == {"rolled-back"}


def _content(config: str) -> list[str]:
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and not line.lstrip().startswith(("!", "#", "## Last"))]


def test_a_canary_held_by_another_run_is_replaced_before_any_batch(make_lab, tmp_path):
    """The canary proves the change on one device before the batches; one that another run
    holds is skipped, so the next device becomes the canary and is confirmed alone first."""
    from netcfg.deploy.runs import DeviceLock

    from .deploy_cases import fleet, specs

    names = ["leaf-su1-r1", "leaf-su1-r2", "leaf-su1-r3", "leaf-su1-r4"]
    lab = make_lab(*specs(names))
    lab.advance(30)
    f = fleet(lab, names, tmp_path)
    order = [t.name for t in f.targets]
    run = Run(tmp_path / "state")
    held = DeviceLock(run.state, order[0], "other-run").acquire()
    opts = Options(timeout=30, canary=1, batch_size=2, max_failures=0, workers=2)
    results, aborted = push_fleet(f.targets, f.desired, run, opts, threading.Event())
    held.release()

    assert not aborted
    assert {r.device: r.status for r in results} == {
        order[0]: "skipped", order[1]: "confirmed", order[2]: "confirmed",
        order[3]: "confirmed"}
    events = run.events()
    replaced = next(i for i, e in enumerate(events) if e.event == "canary-replaced")
    assert events[replaced].detail["skipped"] == [order[0]]
    canary_done = next(i for i, e in enumerate(events)
                       if e.device == order[1] and e.event == "confirmed")
    first_batch = min(i for i, e in enumerate(events) if e.device in order[2:])
    assert canary_done < first_batch
