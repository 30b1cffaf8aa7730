"""Chaos in a rollback, two pushes of one fleet at once, and a run killed between a confirm's
device steps (tests/deploy/chaos_cases.py says what is checked after each)."""

from __future__ import annotations

import threading

import pytest

from netcfg.deploy.engine import Options, push_device, push_fleet, restore_device
from netcfg.deploy.runs import Run

from .chaos_cases import OPTS, SETTLE, Chaos, arm, assert_settled, lines, where
from .deploy_cases import BY_NOS, PASSWORD, fleet, specs

ROLLBACK_FAULTS = {
    "rollback-connect-refused": Chaos("refused", times=None),
    "rollback-load-refused": Chaos("commit_error", "load"),
    "rollback-commit-refused": Chaos("commit_error", "commit"),
    "rollback-commit-drop-before": Chaos("drop_before_apply", "commit"),
    "rollback-commit-drop-after": Chaos("drop_after_apply", "commit"),
    "rollback-confirm-drop-after": Chaos("drop_after_apply", "confirm"),
}


@pytest.mark.parametrize("case", sorted(ROLLBACK_FAULTS))
def test_a_rollback_under_a_fault_ends_old_or_new_and_a_retry_restores(one, case):
    lab, dev, target, desired, run = one
    before = lines(dev.running_config())
    assert push_device(target, desired, run, OPTS, threading.Event()).status == "confirmed"
    arm(dev, ROLLBACK_FAULTS[case])
    first = restore_device(target, run.saved("backup", target.name) or "", run, OPTS)
    assert PASSWORD not in (first.error or "")
    now = assert_settled(lab, dev, target, desired, run, before)
    if first.status == "rolled-back":
        assert now == "old"
    elif run.final_states()[target.name] == "rollback-failed" and now == "new":
        pass  # the journal says the rollback failed; the device kept the pushed config
    retry = restore_device(target, run.saved("backup", target.name) or "", run, OPTS)
    assert retry.status in ("rolled-back", "unchanged"), retry
    assert assert_settled(lab, dev, target, desired, run, before) == "old"


def test_two_pushes_of_one_fleet_at_once_never_share_a_device(make_lab, tmp_path):
    """Two runs on the same state directory (two engineers, or a retried CI job): each device
    is pushed by exactly one of them, the other run reports it skipped, none ends between."""
    names = sorted(BY_NOS.values())
    lab = make_lab(*specs(names))
    lab.advance(30)
    f = fleet(lab, names, tmp_path)
    befores = {n: lines(lab[n].running_config()) for n in names}
    opts = Options(timeout=20, revert_in=300, canary=0, batch_size=5, max_failures=5)
    outcomes: list[list] = []

    def push() -> None:
        results, _ = push_fleet(f.targets, f.desired, Run(tmp_path / "state"), opts,
                                threading.Event())
        outcomes.append(results)

    workers = [threading.Thread(target=push) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=600)
    assert len(outcomes) == 2
    for name in names:
        statuses = sorted(r.status for results in outcomes for r in results if r.device == name)
        # one run confirmed it; the other skipped it (locked) or found nothing left to do
        assert statuses in (["confirmed", "skipped"], ["confirmed", "unchanged"]), (name,
                                                                                     statuses)
    lab.advance(SETTLE)
    for t in f.targets:
        assert where(lab[t.name], t, f.desired[t.name], befores[t.name]) == "new"


def _set_startup(emulator, text: str) -> None:
    """The startup config as a run killed between a confirm's two device steps leaves it."""
    if hasattr(emulator, "write_file") and hasattr(emulator, "timers"):  # SONiC's saved file
        from netcfg.lab.sonic.emulator import SAVED_CONFIG

        emulator.write_file(SAVED_CONFIG, text)
    else:
        emulator.startup = text


@pytest.mark.parametrize("nos", ["eos", "nxos", "sonic"])
def test_a_run_killed_between_confirm_and_save_is_finished_by_the_next_push(
        make_lab, tmp_path, nos):
    """The journal's last word on the device is `confirming` (the process died there): the
    device runs the new config, its startup config is still the old one, and the next push has
    nothing to change. It saves the startup config anyway, and says why."""
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    dev, target = lab[name], f.targets[0]
    old_startup = dev.startup_config()
    killed = Run(tmp_path / "state")
    assert push_device(target, f.desired[name], killed, OPTS,
                       threading.Event()).status == "confirmed"
    dev.do(lambda emu: _set_startup(emu, old_startup))
    killed.record(name, "confirming")  # as the killed run's journal ends
    assert lines(dev.startup_config()) != lines(dev.running_config())

    after = Run(tmp_path / "state")
    results, _ = push_fleet(f.targets, f.desired, after, OPTS, threading.Event())
    assert [r.status for r in results] == ["unchanged"]
    assert lines(dev.startup_config()) == lines(dev.running_config())
    assert [e.event for e in after.events() if e.device == name] == [
        "backed-up", "startup-saved", "unchanged"]
