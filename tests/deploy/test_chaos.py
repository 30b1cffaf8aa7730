"""Chaos: every fault kind at every phase of a push and of a rollback, on each NOS, through the
real NAPALM drivers against the lab. After each, once the faults are gone and every device
timer has run out:

- the device runs its old config or its new one, never something between;
- where the NOS keeps a startup config apart (EOS, NX-OS, SONiC) it equals the running one, so
  a reboot cannot flip the device back or forward silently;
- the journal tells the truth: a device it calls confirmed runs the new config, one it calls
  failed, reverted, unreachable or skipped runs the old one, unless the journal itself says
  the outcome may be new (`state: new|unknown`, restored by a fleet rollback);
- nothing is left in the way: a following push confirms and a rollback restores the old config.

"Old" is the running config before the push, line for line; "new" is the device's own diff
against the rendered config being empty. Concurrency (two pushes of one fleet at once, a diff
during a push) is at the end; killing the push process is tests/deploy/test_cli.py's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest

from netcfg.deploy.engine import Options, diff_device, push_device, push_fleet, restore_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, PASSWORD, fleet, lying, specs

OPTS = Options(timeout=20, revert_in=300)
#: lab seconds after which every commit timer has fired and a rebooted device is back
SETTLE = 900


@dataclass(frozen=True)
class Chaos:
    kind: str
    phase: str = ""
    times: int | None = 1
    #: the post-check fails (the device "ignored a line"), so the push must revert
    post_check_fails: bool = False


PUSH_FAULTS = {
    "connect-auth": Chaos("auth_failure", "auth", None),
    "connect-refused": Chaos("refused", times=None),
    "lock-held-elsewhere": Chaos("lock_held", times=None),
    "lock-stale-session": Chaos("stale_session", times=None),
    "load-refused": Chaos("commit_error", "load"),
    "load-drop-before": Chaos("drop_before_apply", "load"),
    "load-drop-after": Chaos("drop_after_apply", "load"),
    "commit-refused": Chaos("commit_error", "commit"),
    "commit-drop-before": Chaos("drop_before_apply", "commit"),
    "commit-drop-after": Chaos("drop_after_apply", "commit"),
    "commit-reboot": Chaos("reboot_mid_commit", "commit"),
    "confirm-refused": Chaos("commit_error", "confirm"),
    "confirm-drop-before": Chaos("drop_before_apply", "confirm"),
    "confirm-drop-after": Chaos("drop_after_apply", "confirm"),
    "confirm-reboot": Chaos("reboot_mid_commit", "confirm"),
    "post-check-fails": Chaos("commit_error", "rollback", times=0, post_check_fails=True),
    "post-check-fails-revert-refused": Chaos("commit_error", "rollback",
                                             post_check_fails=True),
    "post-check-fails-revert-drop": Chaos("drop_after_apply", "rollback",
                                          post_check_fails=True),
}

#: journal states after which the device must run its old config (unless `state` says new)
OLD = ("failed", "reverted", "revert-failed", "skipped", "unchanged")


def _lines(config: str) -> list[str]:
    """Config lines without comments, volatile headers, NX-OS's `version` head line and EOS's
    closing `end` (the running config has them, the startup config not)."""
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and line.strip() != "end"  # EOS ends its running config so
            and not line.lstrip().startswith(("!", "#", "## Last", "version "))]


@pytest.fixture(params=sorted(BY_NOS))
def one(request, make_lab, tmp_path):
    name = BY_NOS[request.param]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    return lab, lab[name], f.targets[0], f.desired[name], Run(tmp_path / "state")


def where(dev, target, desired, before: list[str]) -> str:
    if _lines(dev.running_config()) == before:
        return "old"
    result = diff_device(target, desired, OPTS)
    assert result.status in ("drift", "unchanged"), result
    return "new" if result.status == "unchanged" else "between"


def assert_settled(lab, dev, target, desired, run, before: list[str]) -> str:
    """The invariants after the faults are gone and every timer ran out; returns old|new."""
    dev.clear_faults()
    lab.advance(SETTLE)
    now = where(dev, target, desired, before)
    assert now in ("old", "new"), f"{target.name} runs neither its old nor its new config"
    if target.nos in ("eos", "nxos", "sonic"):
        assert _lines(dev.startup_config()) == _lines(dev.running_config()), \
            "startup config differs from running: a reboot would change the device"
    # (NX-OS: the replace file NAPALM leaves on bootflash: is a file, not pending state)
    if target.nos != "nxos":
        assert dev.candidate_config() is None, "a candidate or pending commit was left behind"
    events = [e for e in run.events() if e.device == target.name]
    final = run.final_states().get(target.name)
    possibly_new = any(e.detail.get("state") in ("new", "unknown") for e in events)
    if final == "confirmed":
        assert now == "new", "the journal says confirmed but the device runs its old config"
    elif final == "rolled-back" or (final in OLD and not possibly_new):
        assert now == "old", f"the journal says {final} but the device runs the new config"
    for e in events:
        assert PASSWORD not in str(e.detail)
    return now


def _arm(dev, chaos: Chaos) -> None:
    if chaos.times == 0:
        return
    options = {"message": "Error: TCAM exhausted"} if chaos.kind == "commit_error" else {}
    dev.inject(chaos.kind, **({"phase": chaos.phase} if chaos.phase else {}),
               times=chaos.times, **options)


@pytest.mark.parametrize("case", sorted(PUSH_FAULTS))
def test_a_push_under_a_fault_ends_old_or_new_and_says_which(one, case):
    lab, dev, target, desired, run = one
    chaos = PUSH_FAULTS[case]
    original = dev.running_config()
    before = _lines(original)
    _arm(dev, chaos)
    pushed = desired if not chaos.post_check_fails else lying(desired)
    result = push_device(target, pushed, run, OPTS, threading.Event())
    assert PASSWORD not in (result.error or "")
    if chaos.post_check_fails:
        assert result.status == "reverted" and result.stage == "post-check", result
    final = run.final_states().get(target.name)
    if chaos.kind != "reboot_mid_commit" and final != "revert-failed" \
            and not result.may_run_new:
        # settled at once, not left to a timer: no lab time has passed yet
        assert where(dev, target, desired, before) in ("old", "new"), final
        if target.nos != "nxos" and chaos.kind not in ("lock_held", "stale_session"):
            assert dev.candidate_config() is None, f"left pending after {final}"
    now = assert_settled(lab, dev, target, desired, run, before)
    if result.status == "confirmed":
        assert now == "new"
    elif not result.may_run_new:
        assert now == "old", result

    # nothing is left in the way: a push goes through (or finds the new config in place), and
    # a rollback restores the old one
    after = Run(run.state)
    again = push_device(target, desired, after, OPTS, threading.Event())
    assert again.status == ("unchanged" if now == "new" else "confirmed"), again
    restored = restore_device(target, original, after, OPTS)
    assert restored.status == "rolled-back", restored
    assert assert_settled(lab, dev, target, desired, after, before) == "old"


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
    before = _lines(dev.running_config())
    assert push_device(target, desired, run, OPTS, threading.Event()).status == "confirmed"
    _arm(dev, ROLLBACK_FAULTS[case])
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
    befores = {n: _lines(lab[n].running_config()) for n in names}
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
    assert _lines(dev.startup_config()) != _lines(dev.running_config())

    after = Run(tmp_path / "state")
    results, _ = push_fleet(f.targets, f.desired, after, OPTS, threading.Event())
    assert [r.status for r in results] == ["unchanged"]
    assert _lines(dev.startup_config()) == _lines(dev.running_config())
    assert [e.event for e in after.events() if e.device == name] == [
        "backed-up", "startup-saved", "unchanged"]
