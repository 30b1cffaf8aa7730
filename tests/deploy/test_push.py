"""diff, push and rollback of one device per NOS, through the real NAPALM drivers against the
lab: the normal path, idempotence, and every way a push can go wrong ending with the device at
its old or its new config, never between, and a message naming the device."""

from __future__ import annotations

import json
import socket
import threading

from netcfg.deploy.engine import Desired, Options, diff_device, push_device, restore_device
from netcfg.deploy.runs import DeviceLock, Run

from .deploy_cases import lying

OPTS = Options(timeout=20, revert_in=300)


def _push(target, desired, run, opts=OPTS):
    return push_device(target, desired, run, opts, threading.Event())


def _events(run, device):
    return [e.event for e in run.events() if e.device == device]


def test_diff_push_then_nothing_to_do(one, tmp_path):
    lab, dev, target, desired, run = one
    first = diff_device(target, desired, OPTS)
    assert first.status == "drift" and first.diff
    # the lossless class is not yet as the intent has it (a SONiC switch in service runs its
    # SKU's QoS: DSCP 26 in traffic class 0, not 3)
    assert any("PFC priority 3 off" in line or "DSCP 26: traffic class 0 instead of 3" in line
               for line in first.meaning), first.meaning[:5]

    pushed = _push(target, desired, run)
    assert pushed.status == "confirmed", pushed
    assert _events(run, target.name) == [
        "backed-up", "committing", "committed", "confirming", "confirmed"]
    assert run.saved("backup", target.name) and run.saved("candidate", target.name)
    lab.advance(OPTS.revert_in + 60)  # confirmed: the timer is gone, nothing reverts
    after = diff_device(target, desired, OPTS)
    assert after.status == "unchanged" and after.diff == "" and after.meaning == []

    again = Run(tmp_path / "state2")
    assert _push(target, desired, again).status == "unchanged"
    assert _events(again, target.name) == ["backed-up", "unchanged"]


def test_device_logins_survive_the_replace(one):
    lab, dev, target, desired, run = one
    assert "netops" not in desired.text  # netcfg renders no users...
    assert _push(target, desired, run).status == "confirmed"
    assert dev.do(lambda emu: emu.user_configured("netops"))  # ...and keeps the device's


def test_post_check_failure_reverts_at_once(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    result = _push(target, lying(desired), run)
    assert result.status == "reverted" and result.stage == "post-check"
    assert "lossless priorities" in (result.error or "")
    assert _semantic(dev.running_config()) == _semantic(before)
    assert _events(run, target.name)[-1] == "reverted"
    # nothing is left pending on the device: the corrected push goes through at once
    assert _push(target, desired, run).status == "confirmed"


def test_a_confirm_lost_before_the_device_took_it_is_reverted_at_once(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    dev.inject("drop_before_apply", phase="confirm", times=1)
    result = _push(target, desired, run)
    assert result.status == "reverted" and result.stage == "confirm", result
    assert "reverted at once" in (result.error or "")
    # read back from the device, not left to the timer: the old config runs now
    assert _semantic(dev.running_config()) == _semantic(before)
    assert _events(run, target.name)[-3:] == ["confirming", "confirm-unanswered", "reverted"]
    lab.advance(OPTS.revert_in + 1)
    assert _semantic(dev.running_config()) == _semantic(before)
    assert _push(target, desired, run).status == "confirmed"  # nothing left pending


def test_a_confirm_whose_reply_is_lost_is_recorded_as_what_the_device_did(one):
    lab, dev, target, desired, run = one
    dev.inject("drop_after_apply", phase="confirm", times=1)
    result = _push(target, desired, run)
    assert result.status == "confirmed", result
    events = [e for e in _events(run, target.name) if e != "stale-cleaned"]  # NX-OS: its file
    assert events[-3:] == ["confirming", "confirm-unanswered", "confirmed"]
    lab.advance(OPTS.revert_in + 1)  # no timer left to flip it back
    assert diff_device(target, desired, OPTS).status == "unchanged"
    if target.nos in ("eos", "nxos", "sonic"):  # the NOSes that keep a separate startup config
        def body(text: str) -> list[str]:  # NX-OS heads only the running config with `version`
            return [line for line in _semantic(text) if not line.startswith("version ")]

        assert body(dev.startup_config()) == body(dev.running_config())


def test_dry_run_commits_nothing(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    result = _push(target, desired, run, Options(timeout=20, dry_run=True))
    assert result.status == "changed" and result.diff
    assert _semantic(dev.running_config()) == _semantic(before) and dev.candidate_config() is None
    assert _events(run, target.name)[-1] == "dry-run"


def test_restore_puts_the_saved_config_back(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    assert _push(target, desired, run).status == "confirmed"
    restored = restore_device(target, run.saved("backup", target.name), run, OPTS)
    assert restored.status == "rolled-back", restored
    lab.advance(OPTS.revert_in + 1)
    assert diff_device(target, desired, OPTS).status == "drift"
    assert _semantic(dev.running_config()) == _semantic(before)


def _semantic(config: str) -> list[str]:
    """Config lines without comments and volatile headers."""
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and not line.lstrip().startswith(("!", "#", "## Last"))]


def test_a_live_lock_skips_the_device_and_a_stale_one_is_cleaned(one, tmp_path):
    lab, dev, target, desired, run = one
    other = DeviceLock(run.state, target.name, "other-run").acquire()
    result = _push(target, desired, run)
    assert result.status == "skipped" and "locked by run other-run" in (result.error or "")
    other.release()
    # a lock left by a process that no longer exists
    (run.state / "locks" / f"{target.name}.lock").write_text(
        json.dumps({"run": "crashed", "pid": 999999999, "host": socket.gethostname(),
                    "time": 0}))
    assert _push(target, desired, run).status == "confirmed"
    assert "stale-lock-cleaned" in _events(run, target.name)


def test_leftovers_of_a_crashed_run_are_cleared_or_named(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    dev.inject("stale_session")
    result = _push(target, desired, run)
    if target.nos == "nxos":  # a pending configure replace reverts by itself: never overridden
        assert result.status == "failed" and "pending its commit" in (result.error or "")
        assert _semantic(dev.running_config()) == _semantic(before)
    else:
        assert result.status == "confirmed", result
    if target.nos in ("eos", "junos"):
        assert "stale-cleaned" in _events(run, target.name)


def test_a_lock_held_by_someone_else_fails_cleanly(one):
    lab, dev, target, desired, run = one
    before = dev.running_config()
    dev.inject("lock_held")
    result = _push(target, desired, run)
    assert result.status == "failed" and result.stage in ("load", "commit"), result
    assert _semantic(dev.running_config()) == _semantic(before)


def test_a_diff_never_runs_while_a_push_holds_the_device(one):
    """A diff loads a candidate (on Junos under the configuration lock, which would make the
    push's confirm fail): with the run state it takes the device's shared lock, so it waits
    its turn instead of breaking a push, and a push is refused while a diff reads."""
    lab, dev, target, desired, run = one
    pushing = DeviceLock(run.state, target.name, "a-push").acquire()
    try:
        result = diff_device(target, desired, OPTS, run.state)
        assert result.status == "skipped" and "locked by run a-push" in (result.error or "")
        assert dev.candidate_config() is None  # the device was not touched
    finally:
        pushing.release()
    reading = DeviceLock(run.state, target.name, "diff", shared=True).acquire()
    try:
        assert diff_device(target, desired, OPTS, run.state).status == "drift"  # readers share
        refused = _push(target, desired, run)
        assert refused.status == "skipped" and "netcfg diff" in (refused.error or "")
    finally:
        reading.release()
    assert _push(target, desired, run).status == "confirmed"


def test_a_reader_that_crashes_on_the_running_config_reverts_instead(one):
    """The post-check's parser meets a running config it cannot read (any exception type): the
    device is reverted at once and the run goes on, never a crash with a commit pending."""
    lab, dev, target, desired, run = one
    before = dev.running_config()

    def crashing(_: str):
        raise IndexError("list index out of range")

    broken = Desired(desired.text, desired.facts, crashing)
    result = _push(target, broken, run)
    assert result.status == "reverted" and result.stage == "post-check", result
    assert "not readable" in (result.error or "")
    assert _semantic(dev.running_config()) == _semantic(before)
