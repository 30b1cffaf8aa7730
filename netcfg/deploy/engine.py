"""diff, push and rollback for one device each, and the fleet loop around them.

Per device, push is: lock, connect, save the running config, load the rendered config as a
replace candidate (device-local logins kept), the device's own diff (nothing to do when
empty), commit with a device-side revert timer, post-checks over a fresh connection (the
device answers with our login, the lossless chain now reads as intended, interfaces that were
up are up), confirm. Every step is journaled before it is taken. A device whose post-checks
fail, or that is still pending when the run is stopped, is reverted on the spot; the device
timer covers the case where this process cannot.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from napalm.base import NetworkDriver

from netcfg.deploy.connect import Connection, DeviceError, describe
from netcfg.deploy.preserve import Kept, keep, read_written
from netcfg.deploy.runs import DeviceLock, LockHeld, Run, State, cut_confirms, switch_key
from netcfg.deploy.secrets import filled_from, learn, learn_config, redact
from netcfg.deploy.sections import Change, compare
from netcfg.deploy.targets import Target
from netcfg.render.facts import QosFacts
from netcfg.vendors.base import PendingElsewhere


@dataclass(frozen=True)
class Desired:
    """What a device should run: the rendered text and what it means for the lossless chain."""

    text: str
    facts: QosFacts | None = None
    #: parses a config of this device's NOS into facts (None: no meaning-level checks)
    reader: Callable[[str], QosFacts] | None = field(default=None, compare=False)
    #: sections (globs) of the file where the device's own version, if it has one, is kept
    #: instead, beside the NOS's own (`DeployAdapter.device_owned`)
    device_wins: tuple[str, ...] = ()
    #: globs of the device's own sections a replace keeps though the file lacks them
    #: (`management.preserve`)
    preserve: tuple[str, ...] = ()
    #: the config netcfg last left on the device (runs.last_written): its sections are
    #: netcfg's, not the device's own, when the intent drops them
    written: Path | None = None
    #: the text as a run keeps it at rest (runs/*/candidate): secrets as placeholders, filled
    #: in `text` only in memory (None: `text` holds none)
    stored: str | None = None


@dataclass
class Options:
    timeout: int = 60
    revert_in: int = 300
    dry_run: bool = False
    workers: int = 8
    canary: int = 1
    batch_size: int = 10
    max_failures: int = 0
    message: str = "netcfg push"
    #: globs of sections (or families) a push may remove though the intent does not manage
    #: them (`--allow-removal`)
    allow_removal: tuple[str, ...] = ()
    #: a push may make changes that take links down by themselves (`--allow-disruptive`:
    #: an NX-OS breakout reloads its module), for a maintenance window
    allow_disruptive: bool = False
    #: devices a killed run left mid-confirm (`runs.cut_confirms`): their startup config is
    #: saved even when nothing else changes
    resave: frozenset[str] = frozenset()


@dataclass
class Result:
    device: str
    status: str  # unchanged | drift | changed | confirmed | reverted | failed | unreachable ...
    diff: str = ""
    meaning: list[str] = field(default_factory=list)
    error: str | None = None
    stage: str | None = None
    #: what the replace adds, changes and removes, by section (None: not compared)
    sections: Change | None = None
    #: the device may run the new config with no timer to revert it (a commit or confirm
    #: whose outcome could not be settled): a fleet rollback restores it
    may_run_new: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"device": self.device, "status": self.status, "diff": self.diff,
                "meaning": self.meaning, "error": self.error, "stage": self.stage,
                "sections": None if self.sections is None else self.sections.as_dict(),
                "may_run_new": self.may_run_new}


class Stopped(Exception):
    """The run was interrupted before this device was committed."""


# --------------------------------------------------------------------------- one device


def _running(driver: NetworkDriver) -> str:
    return str(driver.get_config(retrieve="running")["running"])


def _meaning(desired: Desired, running: str) -> list[str]:
    if desired.facts is None or desired.reader is None:
        return []
    try:
        return desired.facts.differences(desired.reader(running))
    except Exception as exc:  # noqa: BLE001 - any parser failure on what the device shows
        # unreadable is a difference, never a crash: in a post-check it reverts the device
        return [f"running config not readable for a meaning diff: {describe(exc)}"]


def _candidate(target: Target, running: str, desired: Desired) -> Kept:
    """The replace candidate: the rendered config with what the preserve policy keeps of the
    device's own (netcfg/deploy/preserve.py): its logins and AAA, the sections the intent
    preserves, and the sections the device owns."""
    policy = target.adapter.policy(desired.preserve, desired.device_wins)
    if desired.stored is not None:  # the device's current secrets, old ones too, are masked
        learn(desired.stored, running)
    return keep(target.adapter, running, desired.text, policy,
                filled_from(read_written(desired.written), running))


def _sections(target: Target, candidate: Kept, opts: Options) -> Change:
    wanted = target.adapter.sections(candidate.text)
    change = compare(candidate.running, wanted, opts.allow_removal, candidate.written)
    change.kept_device = candidate.overridden
    change.preserved = candidate.kept
    change.disruptive = target.adapter.disruptive(candidate.running, wanted)
    return change


def _load(driver: NetworkDriver, target: Target, candidate: str, run: Run | None = None) -> str:
    """Load the replace candidate; returns the device's diff ("" when it already matches)."""
    try:
        for what in target.adapter.clear_stale(driver, target):
            if run is not None:
                run.record(target.name, "stale-cleaned", what=what)
    except PendingElsewhere as exc:
        raise DeviceError(target.name, "load", str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - driver-specific exceptions
        raise DeviceError(target.name, "load", f"checking for leftovers: {describe(exc)}") \
            from None
    try:
        driver.load_replace_candidate(config=candidate)
        # the device's diff shows session keys: the one given (redact) and the one it runs
        return target.adapter.mask(redact(str(driver.compare_config() or "").strip()))
    except Exception as exc:  # noqa: BLE001 - driver-specific exceptions
        _quietly(driver.discard_config)
        raise DeviceError(target.name, "load", describe(exc)) from None


def diff_device(target: Target, desired: Desired, opts: Options,
                state: State | None = None, driver: NetworkDriver | None = None) -> Result:
    """The device's own diff against the replace candidate. With a run state directory, under
    a shared device lock: diffs run side by side, never while a push holds the device (a
    diff loads a candidate, and on Junos holds the configuration lock while it does, which
    would make the push's confirm fail). `driver`: an open connection to use (verify reads
    the state over the same one) instead of a new one."""
    if state is None:
        return _diff_unlocked(target, desired, opts, driver)
    try:
        with DeviceLock(state, target.name, "diff", shared=True, switch=_switch(target)):
            return _diff_unlocked(target, desired, opts, driver)
    except LockHeld as exc:
        return Result(target.name, "skipped", error=str(exc), stage="lock")


def _switch(target: Target) -> str:
    """The switch's lock name of the machine (runs.switch_key): the same switch reached from
    another state directory is the same lock."""
    return switch_key(target.host, target.port)


def _diff_unlocked(target: Target, desired: Desired, opts: Options,
                   opened: NetworkDriver | None = None) -> Result:
    try:
        with nullcontext(opened) if opened is not None \
                else Connection(target, opts.timeout) as driver:
            running = _step(target, "get running config", lambda: _running(driver))
            candidate = _candidate(target, running, desired)
            sections = _sections(target, candidate, opts)
            diff = _device_diff(driver, target, candidate.text)
    except DeviceError as exc:
        return Result(target.name, "unreachable" if exc.stage == "connect" else "failed",
                      error=exc.message, stage=exc.stage)
    return Result(target.name, "drift" if diff else "unchanged", diff, _meaning(desired, running),
                  sections=sections if diff else None)


def _step(target: Target, stage: str, fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except DeviceError:
        raise
    except Exception as exc:  # noqa: BLE001 - driver-specific exceptions
        raise DeviceError(target.name, stage, describe(exc)) from None


def _quietly(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001 - best effort clean-up after a failure already reported
        pass


def _up(driver: NetworkDriver) -> set[str]:
    return {name for name, i in driver.get_interfaces().items() if i.get("is_up")}


def post_check(target: Target, desired: Desired, up_before: set[str], opts: Options) -> None:
    """Fresh connection: the device answers our login, reads as intended, links stay up."""
    with Connection(target, opts.timeout) as fresh:
        running = _step(target, "post-check", lambda: _running(fresh))
        meaning = _meaning(desired, running)
        if meaning:
            raise DeviceError(target.name, "post-check",
                              "running config differs from the intent: " + "; ".join(meaning[:5]))
        down = sorted(up_before - _step(target, "post-check", lambda: _up(fresh)))
        if down:
            raise DeviceError(target.name, "post-check",
                              f"interfaces down after the commit: {', '.join(down[:10])}")


def push_device(target: Target, desired: Desired, run: Run, opts: Options,
                stop: threading.Event) -> Result:
    name = target.name
    try:
        lock = DeviceLock(run.state, name, run.id, switch=_switch(target)).acquire()
    except LockHeld as exc:
        run.record(name, "skipped", reason=str(exc))
        return Result(name, "skipped", error=str(exc), stage="lock")
    if lock.stale is not None:
        run.record(name, "stale-lock-cleaned", previous_run=str(lock.stale.get("run")))
    try:
        return _push_locked(target, desired, run, opts, stop)
    except Exception as exc:  # noqa: BLE001 - any error is this device's failure, never the run's
        return _worker_failed(target, run, exc)
    finally:
        lock.release()


#: journal events after which a device may run the push's config (its commit was sent)
_SENT = ("committing", "committed", "confirming", "confirm-unanswered", "commit-failed",
         "confirmed")


def _worker_failed(target: Target, run: Run, exc: Exception) -> Result:
    """An error no step named (an unknown driver, a bug, a driver's surprise) is this
    device's failure like any other: journaled and counted against --max-failures, so the
    fleet stops and rolls back; the other devices go on. Once the commit was sent the device
    may run the new config (`state` unknown): a rollback restores it."""
    name = target.name
    error = describe(exc)
    try:
        sent = any(e.device == name and e.event in _SENT for e in run.events())
    except Exception:  # noqa: BLE001 - an unreadable journal proves nothing: assume sent
        sent = True
    detail: dict[str, Any] = {"state": "unknown", "pending_revert": True} if sent else {}
    try:
        run.record(name, "failed", stage="internal", error=error, **detail)
    except Exception:  # noqa: BLE001 - the result below still reports it
        pass
    return Result(name, "failed", error=error, stage="internal", may_run_new=sent)


def _push_locked(target: Target, desired: Desired, run: Run, opts: Options,
                 stop: threading.Event) -> Result:
    name = target.name
    committed = False
    try:
        with Connection(target, opts.timeout) as driver:
            running = _step(target, "get running config", lambda: _running(driver))
            run.save("backup", name, running)
            run.record(name, "backed-up")
            up_before = _step(target, "get interfaces", lambda: _up(driver))
            candidate = _candidate(target, running, desired)
            sections = _sections(target, candidate, opts)
            if sections.unmanaged:
                # refused before anything is loaded: the device is untouched
                why = (f"would remove {', '.join(sections.unmanaged)}, which the intent does "
                       "not manage; keep them (preserve) or name them with --allow-removal")
                run.record(name, "refused", stage="removal", removes=sections.unmanaged)
                return Result(name, "failed", error=why, stage="removal", sections=sections)
            if sections.disruptive and not opts.allow_disruptive:
                why = (f"{'; '.join(sections.disruptive)}; push with --allow-disruptive in a "
                       "maintenance window")
                run.record(name, "refused", stage="disruptive", disrupts=sections.disruptive)
                return Result(name, "failed", error=why, stage="disruptive", sections=sections)
            diff = _load(driver, target, candidate.text, run)
            meaning = _meaning(desired, running)
            if not diff:
                _step(target, "discard", driver.discard_config)
                if name in opts.resave:
                    _step(target, "save", lambda: target.adapter.save(driver))
                    run.record(name, "startup-saved",
                               reason="an earlier run died while confirming")
                run.record(name, "unchanged")
                return Result(name, "unchanged")
            run.save("candidate", name, desired.stored or desired.text)  # no secret at rest
            if opts.dry_run or stop.is_set():
                _step(target, "discard", driver.discard_config)
                status = "dry-run" if opts.dry_run else "skipped"
                run.record(name, status, diff_lines=diff.count("\n") + 1)
                return Result(name, "changed" if opts.dry_run else "skipped", diff, meaning,
                              error=None if opts.dry_run else "run stopped before commit",
                              sections=sections)
            run.record(name, "committing", revert_in=opts.revert_in,
                       removes=sections.removed, adds=sections.added,
                       changes=len(sections.changed), keeps_device=sections.kept_device)
            try:
                timer = _commit(driver, target, opts.revert_in, opts.message)
            except Exception as exc:  # noqa: BLE001 - refused or unanswered: read the device
                _quietly(driver.discard_config)
                return _settle(target, desired, run, opts, "commit", describe(exc), diff,
                               meaning)
            committed = True
            run.record(name, "committed", revert_in=timer)
            try:
                if stop.is_set():
                    raise Stopped()
                post_check(target, desired, up_before, opts)
                if stop.is_set():
                    raise Stopped()
            except (DeviceError, Stopped) as exc:
                why = exc.message if isinstance(exc, DeviceError) else "run stopped"
                if not _pending(driver, target):  # a revert now would undo the timer's
                    return _settle(target, desired, run, opts, "timer", why, diff, meaning)
                _revert(driver, target, run, why)
                return Result(name, "reverted", diff, meaning, error=why,
                              stage=exc.stage if isinstance(exc, DeviceError) else "stopped")
            if not _pending(driver, target):  # a confirm now would confirm nothing
                return _settle(target, desired, run, opts, "timer", "no commit was pending "
                               "confirmation when the confirm was due", diff, meaning)
            run.record(name, "confirming")
            try:
                target.adapter.confirm(driver)
            except Exception as exc:  # noqa: BLE001 - the reply is lost: read the device
                return _settle(target, desired, run, opts, "confirm", describe(exc), diff,
                               meaning)
            run.record(name, "confirmed")
            return Result(name, "confirmed", diff, meaning, sections=sections)
    except DeviceError as exc:
        # pending_revert: committed but never confirmed, so the device timer reverts it
        run.record(name, "failed", stage=exc.stage, error=exc.message,
                   pending_revert=committed)
        status = "unreachable" if exc.stage == "connect" else "failed"
        return Result(name, status, error=exc.message, stage=exc.stage)


def _pending(driver: NetworkDriver, target: Target) -> bool:
    """Whether the commit this run made still waits for its confirmation, read from the
    device before confirming or reverting it: once the device's own timer has run out (a slow
    device, a stopped process), a Junos confirm is a plain `commit` that succeeds with nothing
    pending and a revert is `rollback 1`, which is the new config again. Unreadable counts as
    pending (the confirm or revert then goes ahead and is settled from the device if it
    fails)."""
    try:
        return bool(target.adapter.pending(driver))
    except Exception:  # noqa: BLE001 - driver-specific exceptions
        return True


def _outcome(target: Target, run: Run, opts: Options, stage: str,
             new: Callable[[str], str], old: str | None, save_new: bool) -> str:
    """What a commit or confirm that raised really did, read from the device over a fresh
    connection, never guessed from the error (the NOS refused it, or the reply, or the
    connection, was lost; on NX-OS and SONiC each is several device steps):

    - `reverted`: a commit still pending its confirmation, now reverted (no waiting for the
      timer);
    - otherwise what the failed attempt left behind is discarded (a dirty Junos candidate, a
      pending Cumulus revision, an orphaned EOS session, the NX-OS candidate file), and the
      device's own diffs say `new` (it runs `new(running)`; with `save_new` the startup config
      is made equal to it, since a lost reply may have cut a confirm from its save), `old`
      (it runs `old`) or `neither`.
    Raises DeviceError when the device cannot be read."""
    name = target.name
    with Connection(target, opts.timeout) as fresh:
        if _step(target, stage, lambda: target.adapter.pending(fresh)):
            _step(target, "revert", lambda: target.adapter.revert_pending(fresh))
            return "reverted"
        for what in _step(target, stage, lambda: target.adapter.discard_leftovers(
                fresh, target)):
            run.record(name, "stale-cleaned", what=what)
        running = _step(target, stage, lambda: _running(fresh))
        if not _device_diff(fresh, target, new(running)):
            if save_new:
                _step(target, stage, lambda: target.adapter.save(fresh))
            return "new"
        if old is not None and not _device_diff(fresh, target, old):
            return "old"
        return "neither"


def _settle(target: Target, desired: Desired, run: Run, opts: Options, stage: str,
            error: str, diff: str, meaning: list[str]) -> Result:
    """A push's commit or confirm raised, or its commit was no longer pending when it was to
    be confirmed or reverted (stage `timer`: the device's own timer ran out first): settle it
    from the device (`_outcome`). New after a confirm -> confirmed; reverted or old -> nothing
    of this push is left; new after a commit (never post-checked) or a timer, neither, or
    unreadable -> the device may run the new config with no timer, so a fleet rollback
    restores it (`may_run_new`)."""
    name = target.name
    run.record(name, {"confirm": "confirm-unanswered", "timer": "timer-expired"}.get(
        stage, f"{stage}-failed"), error=error)
    try:
        outcome = _outcome(target, run, opts, stage,
                           lambda running: _candidate(target, running, desired).text,
                           run.saved("backup", name), save_new=stage == "confirm")
    except DeviceError as exc:
        run.record(name, "failed", stage=stage, error=f"{error}; then {exc.message}",
                   state="unknown", pending_revert=True)
        return Result(name, "failed", error=f"{stage} outcome unknown: {error}; reading the "
                      f"device failed: {exc.message}", stage=stage, may_run_new=True)
    if outcome == "reverted":
        why = f"{stage} failed ({error}); the pending commit was reverted at once"
        run.record(name, "reverted", reason=why)
        return Result(name, "reverted", diff, meaning, error=why, stage=stage)
    if outcome == "new" and stage == "confirm":
        run.record(name, "confirmed", note="the confirm took effect; its reply was lost")
        return Result(name, "confirmed", diff, meaning)
    if outcome == "old":
        why = (f"the device's own revert timer ran out first ({error}); it runs its old "
               "config" if stage == "timer" else
               f"{stage} failed ({error}); the device runs its old config")
        reverted = stage in ("confirm", "timer")
        run.record(name, "reverted" if reverted else "failed", reason=why,
                   stage=stage, state="old", pending_revert=False)
        if reverted:
            return Result(name, "reverted", diff, meaning, error=why, stage=stage)
        return Result(name, "failed", error=why, stage=stage)
    why = (f"{stage} failed ({error}); the device runs "
           + ("the new config unconfirmed" if outcome == "new"
              else "neither the old nor the new config")
           + " with no timer left: a fleet rollback restores its saved config")
    run.record(name, "failed", stage=stage, error=why,
               state="new" if outcome == "new" else "unknown", pending_revert=False)
    return Result(name, "failed", error=why, stage=stage, may_run_new=True)


def _device_diff(driver: NetworkDriver, target: Target, config: str) -> str:
    """The device's own diff of its running config against `config` (nothing left loaded)."""
    left = _load(driver, target, config)
    _step(target, "discard", driver.discard_config)
    return left


def _commit(driver: NetworkDriver, target: Target, seconds: int, message: str) -> int:
    """Commit the loaded candidate with the device's own revert timer (it reverts even if
    this process dies); returns the timer the NOS really runs."""
    timer = target.adapter.revert_seconds(seconds)
    target.adapter.commit(driver, timer, message)
    return timer


def _revert(driver: NetworkDriver, target: Target, run: Run, why: str) -> None:
    try:
        target.adapter.revert(driver)
    except Exception as exc:  # noqa: BLE001 - the device timer is the fallback
        run.record(target.name, "revert-failed", reason=why, error=describe(exc),
                   note="the device's commit timer reverts it")
        return
    run.record(target.name, "reverted", reason=why)


def restore_device(target: Target, saved: str, run: Run, opts: Options) -> Result:
    """Put a saved running config back (rollback of a run): replace, commit with the device's
    timer, check, confirm. A commit or confirm that raises is settled from the device like a
    push's (`_outcome`): the journal says `rolled-back` only when the device runs the saved
    config, else `rollback-failed` with what it runs."""
    name = target.name
    try:
        # the backup holds the secrets of before the push (a rotation's old key): masked in
        # device errors, the journal and debug lines from before the first connection
        pushed = _pushed_candidate(run, name)
        learn_config(saved, target.adapter.secret_values, pushed)
        with DeviceLock(run.state, name, run.id, switch=_switch(target)), \
                Connection(target, opts.timeout) as driver:
            before = _step(target, "get running config", lambda: _running(driver))
            learn_config(before, target.adapter.secret_values, pushed)  # and those it runs
            # what a killed run left (an EOS session, a dirty Junos candidate) is cleared the
            # way a push clears it, and journaled `stale-cleaned`
            diff = _load(driver, target, saved, run)
            if not diff:
                _step(target, "discard", driver.discard_config)
                # the device runs its backup already, but its startup config may not: a
                # rollback killed between its confirm's two steps (NX-OS, SONiC) left the
                # push's there. Saved as a confirmed rollback saves it (no-op on Junos and
                # Cumulus, whose commit persists)
                _step(target, "save", lambda: target.adapter.save(driver))
                run.record(name, "rolled-back", changed=False, startup="saved")
                return Result(name, "unchanged")
            try:
                _commit(driver, target, opts.revert_in, "netcfg rollback")
            except Exception as exc:  # noqa: BLE001 - refused or unanswered: read the device
                _quietly(driver.discard_config)
                return _settle_restore(target, saved, before, run, opts, "commit",
                                       describe(exc), diff)
            try:
                with Connection(target, opts.timeout) as fresh:
                    _step(target, "post-check", fresh.get_facts)
            except DeviceError as exc:
                _revert(driver, target, run, exc.message)
                raise
            if not _pending(driver, target):  # the timer ran out: nothing to confirm
                return _settle_restore(target, saved, before, run, opts, "confirm",
                                       "no commit was pending confirmation", diff)
            try:
                target.adapter.confirm(driver)
            except Exception as exc:  # noqa: BLE001 - the reply is lost: read the device
                return _settle_restore(target, saved, before, run, opts, "confirm",
                                       describe(exc), diff)
            run.record(name, "rolled-back", changed=True)
            return Result(name, "rolled-back", diff)
    except LockHeld as exc:
        return Result(name, "skipped", error=str(exc), stage="lock")
    except DeviceError as exc:
        run.record(name, "rollback-failed", stage=exc.stage, error=exc.message)
        return Result(name, "failed", error=exc.message, stage=exc.stage)
    except Exception as exc:  # noqa: BLE001 - any error is this device's failure
        run.record(name, "rollback-failed", stage="internal", error=describe(exc),
                   state="unknown")
        return Result(name, "failed", error=describe(exc), stage="internal")


def _pushed_candidate(run: Run, name: str) -> str | None:
    """The candidate the run kept at rest for `name` (its secrets as placeholders), which
    says where the device's secrets sit; None where there is none or it cannot be read (the
    NOS's own statements still say where)."""
    try:
        return run.saved("candidate", name)
    except (OSError, ValueError):
        return None


def _settle_restore(target: Target, saved: str, before: str, run: Run, opts: Options,
                    stage: str, error: str, diff: str) -> Result:
    """A rollback's commit or confirm raised: the device runs the saved config (rolled back,
    startup saved), or what it ran before the rollback, or it cannot be told."""
    name = target.name
    try:
        outcome = _outcome(target, run, opts, stage,
                           lambda running: target.adapter.keep_device_local(running, saved),
                           before, save_new=True)
    except DeviceError as exc:
        outcome, error = "unknown", f"{error}; then {exc.message}"
    if outcome == "new":
        run.record(name, "rolled-back", changed=True,
                   note=f"the {stage} took effect; its reply was lost")
        return Result(name, "rolled-back", diff)
    state = {"reverted": "before", "old": "before"}.get(outcome, "unknown")
    why = (f"rollback {stage} failed ({error}); the device runs "
           + ("what it ran before the rollback" if state == "before" else "an unknown config"))
    run.record(name, "rollback-failed", stage=stage, error=why, state=state)
    return Result(name, "failed", error=why, stage=stage)


# --------------------------------------------------------------------------- fleet


def pool(items: Iterable[Target], fn: Callable[[Target], Result], workers: int,
         progress: Callable[[Result], None] | None = None,
         stop: threading.Event | None = None) -> list[Result]:
    """Run `fn` over targets with at most `workers` at a time; results in target order."""
    targets = list(items)
    results: dict[str, Result] = {}
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="netcfg") as ex:
        pending: dict[Future[Result], Target] = {}
        queue = iter(targets)
        for t in queue:
            pending[ex.submit(fn, t)] = t
            if len(pending) >= workers:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                t = pending.pop(fut)
                try:
                    results[t.name] = fut.result()
                except Exception as exc:  # noqa: BLE001 - one device's error, never the fleet's
                    results[t.name] = Result(t.name, "failed", error=describe(exc),
                                             stage="internal")
                if progress is not None:
                    progress(results[t.name])
                if stop is None or not stop.is_set():
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[ex.submit(fn, nxt)] = nxt
    return [results[t.name] for t in targets if t.name in results]


#: outcomes that count against --max-failures (a device skipped for a lock is not a failure)
FAILED = ("failed", "unreachable", "reverted")


def batches(targets: list[Target], size: int) -> list[list[Target]]:
    """Fixed-size batches, in the given order (the canary goes before them, in push_fleet)."""
    return [targets[i:i + size] for i in range(0, len(targets), max(1, size))]


def push_fleet(targets: list[Target], desired: dict[str, Desired], run: Run, opts: Options,
               stop: threading.Event,
               progress: Callable[[Result], None] | None = None) -> tuple[list[Result], bool]:
    """Push in canary + batches; returns (results, aborted). On too many failures the run stops
    and every device it confirmed is restored to its saved config."""
    results: list[Result] = []
    failures = 0
    aborted = False
    rest = list(targets)
    opts = replace(opts, resave=opts.resave | cut_confirms(run.state))
    canary = min(opts.canary, len(rest))

    def push(group: list[Target]) -> bool:
        """Push one group; False when the run must stop."""
        nonlocal failures, aborted
        got = pool(group, lambda t: push_device(t, desired[t.name], run, opts, stop),
                   opts.workers, progress, stop)
        results.extend(got)
        failures += sum(1 for r in got if r.status in FAILED)
        if failures > opts.max_failures:
            aborted = True
            run.record("-", "stop", reason=f"{failures} device(s) failed, more than "
                       f"--max-failures {opts.max_failures}")
        return not aborted and not stop.is_set()

    # The canary must really be pushed: a canary device another run holds (skipped) proves
    # nothing, so the next device in order takes its place before any batch starts.
    while canary and rest and not stop.is_set():
        group, rest = rest[:canary], rest[canary:]
        if not push(group):
            rest = []
            break
        skipped = [r.device for r in results[-len(group):] if r.status == "skipped"]
        if skipped and rest:
            run.record("-", "canary-replaced", skipped=skipped)
        canary = len(skipped)
    for group in batches(rest, opts.batch_size):
        if stop.is_set() or not push(group):
            break
    if aborted or stop.is_set():
        results = _undo_confirmed(targets, results, run, opts, progress)
    return results, aborted


def _undo_confirmed(targets: list[Target], results: list[Result], run: Run, opts: Options,
                    progress: Callable[[Result], None] | None) -> list[Result]:
    by_name = {t.name: t for t in targets}
    confirmed = [by_name[r.device] for r in results if _may_run_new(r)]
    if not confirmed:
        return results
    run.record("-", "rollback", devices=[t.name for t in confirmed])
    def restore(t: Target) -> Result:
        saved = run.saved("backup", t.name) or ""
        result = restore_device(t, saved, run, opts)
        if result.status == "failed" and result.stage in ("connect", "load"):
            result = restore_device(t, saved, run, opts)  # nothing applied yet: try once more
        return result

    restored = {r.device: r for r in pool(confirmed, restore, opts.workers, progress)}
    return [restored.get(r.device, r) if _may_run_new(r) else r for r in results]


def _may_run_new(result: Result) -> bool:
    """Devices a fleet rollback restores: the confirmed ones, and those whose confirm had an
    outcome nobody could read (they may run the new config with no timer left)."""
    return result.status == "confirmed" or result.may_run_new
