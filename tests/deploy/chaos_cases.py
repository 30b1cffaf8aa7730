"""Chaos, shared by tests/deploy/test_chaos_*.py: every fault kind at every phase of a push
and of a rollback, on each NOS, through the
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

from netcfg.deploy.engine import Options, diff_device, push_device, restore_device
from netcfg.deploy.runs import Run

from .deploy_cases import PASSWORD, lying

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


#: journal states after which the device must run its old config (unless `state` says new)
OLD = ("failed", "reverted", "revert-failed", "skipped", "unchanged")


def lines(config: str) -> list[str]:
    """Config lines without comments, volatile headers, NX-OS's `version` head line and EOS's
    closing `end` (the running config has them, the startup config not)."""
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and line.strip() != "end"  # EOS ends its running config so
            and not line.lstrip().startswith(("!", "#", "## Last", "version "))]


def where(dev, target, desired, before: list[str]) -> str:
    if lines(dev.running_config()) == before:
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
        assert lines(dev.startup_config()) == lines(dev.running_config()), \
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


def arm(dev, chaos: Chaos) -> None:
    if chaos.times == 0:
        return
    options = {"message": "Error: TCAM exhausted"} if chaos.kind == "commit_error" else {}
    dev.inject(chaos.kind, **({"phase": chaos.phase} if chaos.phase else {}),
               times=chaos.times, **options)


def push_under(one: tuple, chaos: Chaos) -> None:
    """Push under `chaos`, then hold the device and the journal to the invariants."""
    lab, dev, target, desired, run = one
    original = dev.running_config()
    before = lines(original)
    arm(dev, chaos)
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
