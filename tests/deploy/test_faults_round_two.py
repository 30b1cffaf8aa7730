"""Deploy under faults, round two: an error no step names is one device's failure (fleet
safety holds), and a rollback clears what a killed run left on the switch."""

from __future__ import annotations

import json
import threading

import pytest
import yaml

from netcfg.deploy.engine import push_device, restore_device
from netcfg.deploy.runs import Run

from .chaos_cases import OPTS, lines
from .cli_cases import netcfg, serve
from .deploy_cases import BY_NOS, MULTIVENDOR, fleet, specs


def test_an_unknown_driver_is_that_devices_failure_and_the_run_rolls_back(tmp_path):
    """The connection file names a driver NAPALM does not have for the second switch: the
    canary (first in order) is confirmed, the second fails (journaled, stage internal), that is
    more than --max-failures 0, so the run stops and restores the canary: exit 4, not the
    "nothing was touched" exit 1, and the canary's diff shows the drift again."""
    canary, broken = BY_NOS["eos"], BY_NOS["sonic"]  # leaf-su1-r1 before leaf-su2-r1
    with serve(tmp_path, [canary, broken]) as lab:
        bad = yaml.safe_load(lab.devices.read_text())
        bad["devices"][broken]["driver"] = "no_such_driver"
        path = tmp_path / "bad-devices.yaml"
        path.write_text(yaml.safe_dump(bad))
        path.chmod(0o600)
        state = tmp_path / "state"
        common = [str(MULTIVENDOR), "--connect", str(path), "--state", str(state),
                  "--device", canary, "--device", broken]
        proc = netcfg("push", *common, "--canary", "1", "--max-failures", "0",
                      "--format", "json", check=4)
        report = json.loads(proc.stdout)
        assert report["aborted"] is True
        statuses = {d["device"]: (d["status"], d["stage"]) for d in report["devices"]}
        assert statuses == {canary: ("rolled-back", None), broken: ("failed", "internal")}
        assert "no_such_driver" in next(d["error"] for d in report["devices"]
                                        if d["device"] == broken)
        events = [json.loads(line) for line in
                  (state / "runs" / report["run"] / "journal.jsonl").read_text().splitlines()]
        order = [(e["device"], e["event"]) for e in events
                 if e["event"] in ("confirmed", "failed", "stop", "rolled-back")]
        assert order == [(canary, "confirmed"), (broken, "failed"), ("-", "stop"),
                         (canary, "rolled-back")]
        diff = netcfg("diff", str(MULTIVENDOR), "--connect", str(lab.devices), "--state",
                      str(state), "--device", canary, check=3)
        assert f"{canary}: drift" in diff.stdout


def _one_switch(make_lab, tmp_path, name: str):  # noqa: ANN001, ANN202
    """A lab of switch `name` with its boot settled, its fleet entry, a fresh run and the
    lines it runs before anything is pushed."""
    lab = make_lab(*specs([name]))
    lab.advance(30)
    dev = lab[name]
    return lab, dev, fleet(lab, [name], tmp_path), Run(tmp_path / "state"), \
        lines(dev.running_config())


@pytest.mark.parametrize("nos", ["eos", "junos"])
def test_rollback_clears_a_killed_runs_leftovers(nos, make_lab, tmp_path):
    """A killed run leaves an open EOS config session with changes, or Junos changes in the
    shared candidate with no lock held (the lab's stale_session fault): the rollback of the
    previous push clears it as a push does (journaled `stale-cleaned`) and restores the
    switch to what it ran before that push."""
    name = BY_NOS[nos]
    lab, dev, f, run, before = _one_switch(make_lab, tmp_path, name)
    assert push_device(f.targets[0], f.desired[name], run, OPTS,
                       threading.Event()).status == "confirmed"
    dev.inject("stale_session")
    back = restore_device(f.targets[0], run.saved("backup", name) or "", run, OPTS)
    assert back.status == "rolled-back", back
    assert lines(dev.running_config()) == before
    cleaned = [e for e in run.events() if e.device == name and e.event == "stale-cleaned"]
    assert cleaned, [e.event for e in run.events()]


class TimerRunsOut(threading.Event):
    """The engine's stop flag, which it reads between a push's steps: at its `at`-th read
    after the journal says `committed`, lab time moves past the switch's revert timer, as for
    a slow switch or a stopped process; `stops` is what that read answers."""

    def __init__(self, lab, run: Run, name: str, at: int, stops: bool) -> None:  # noqa: ANN001
        super().__init__()
        self.lab, self.run, self.name, self.at, self.stops, self.reads = (
            lab, run, name, at, stops, 0)

    def is_set(self) -> bool:
        if not any(e.device == self.name and e.event == "committed" for e in self.run.events()):
            return False
        self.reads += 1
        if self.reads == self.at:
            self.lab.advance(OPTS.revert_in + 60)  # Junos: `commit confirmed 5`, whole minutes
            return self.stops
        return False


@pytest.mark.parametrize("case", ["confirm-after-the-timer", "revert-after-the-timer"])
def test_junos_after_its_own_timer_netcfg_confirms_and_restores_nothing(case, make_lab,
                                                                         tmp_path):
    """core1 reverts the commit itself (`commit confirmed`'s timer) before netcfg confirms it,
    or before netcfg reverts it (the run stopped): the confirm is not sent as a plain `commit`
    and the revert is not `rollback 1` (which is then the new config); both end `reverted`,
    the switch runs what it ran before the push, changes nothing later, and the run counts it
    as unchanged."""
    name = BY_NOS["junos"]
    lab, dev, f, run, before = _one_switch(make_lab, tmp_path, name)
    stop = TimerRunsOut(lab, run, name, at=1 if case.startswith("revert") else 2,
                        stops=case.startswith("revert"))
    result = push_device(f.targets[0], f.desired[name], run, OPTS, stop)
    assert stop.reads >= stop.at
    assert result.status == "reverted", result
    assert lines(dev.running_config()) == before
    lab.advance(3600)  # no timer of netcfg's is left to change anything
    assert lines(dev.running_config()) == before
    assert run.final_states() == {name: "reverted"}
    assert run.changed_devices() == []
    events = [e.event for e in run.events() if e.device == name]
    assert "timer-expired" in events and "confirming" not in events


class Killed(BaseException):
    """The process dies: nothing after it is journaled (no `except Exception` catches it)."""


class KilledOnceCommitted(threading.Event):
    """The engine's stop flag: the process dies at its first read after `committed`."""

    def __init__(self, run: Run, name: str) -> None:
        super().__init__()
        self.run, self.name = run, name

    def is_set(self) -> bool:
        if any(e.device == self.name and e.event == "committed" for e in self.run.events()):
            raise Killed()
        return False


def test_a_run_killed_with_a_commit_in_flight_is_changed_and_rolled_back(make_lab, tmp_path):
    """A push dies once core1's journal says `committed`: `runs` shows that word, the run
    counts core1 as changed (nothing proves it old), and its rollback restores what core1 ran
    before, which stays after every timer."""
    name = BY_NOS["junos"]
    lab, dev, f, run, before = _one_switch(make_lab, tmp_path, name)
    with pytest.raises(Killed):
        push_device(f.targets[0], f.desired[name], run, OPTS, KilledOnceCommitted(run, name))
    assert lines(dev.running_config()) != before  # the commit is in, pending its confirm
    assert run.final_states() == {name: "committed"}
    assert run.changed_devices() == [name]
    back = restore_device(f.targets[0], run.saved("backup", name) or "", run, OPTS)
    assert back.status == "rolled-back", back
    lab.advance(3600)
    assert lines(dev.running_config()) == before
