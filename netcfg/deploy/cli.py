"""`netcfg diff`, `netcfg push`, `netcfg rollback`, `netcfg runs`.

Exit codes (DESIGN.md): diff 0 no drift, 3 drift, 4 a device could not be diffed (the others
are still reported); push 0 ok, 4 a device failed (the run's devices rolled back when more than
--max-failures failed); rollback 0 / 4; 1 invalid intent or selection; 2 usage.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from netcfg.progress import Progress

EXIT_DRIFT, EXIT_DEVICE = 3, 4


def _selection(f: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.argument("path", type=click.Path()),
        click.option("--device", "devices", multiple=True, metavar="GLOB",
                     help="only matching devices (repeatable)"),
        click.option("--role", "roles", multiple=True,
                     type=click.Choice(["leaf", "spine", "core"]), help="only this role"),
        click.option("--limit", "limit", multiple=True, metavar="GLOB",
                     help="further restrict the selection (repeatable)"),
        click.option("--shard", metavar="I/N", help="this runner's share of the devices"),
        click.option("--connect", "connect", type=click.Path(dir_okay=False),
                     help="devices file with connection details (e.g. the one `netcfg lab` "
                          "writes); default: management addresses and credentials of the intent"),
        click.option("--configs", type=click.Path(file_okay=False),
                     help="deploy the files `netcfg render` wrote here instead of rendering now"),
        click.option("--state", type=click.Path(file_okay=False),
                     help="run directories and locks, or a postgresql:// URL shared by a team "
                          "(also NETCFG_STATE) [default: $XDG_STATE_HOME/netcfg/"
                          "fabrics/<fabric name>, outside the inventory]"),
        click.option("--workers", type=click.IntRange(1, 256), default=16, show_default=True),
        click.option("--timeout", type=click.IntRange(1, 3600), default=60, show_default=True,
                     help="seconds per device operation"),
        click.option("--ca-file", type=click.Path(dir_okay=False), help="CA bundle for TLS"),
        click.option("--known-hosts", type=click.Path(dir_okay=False),
                     help="OpenSSH known_hosts for host-key checks"),
        click.option("--insecure-tls", is_flag=True, help="do NOT verify TLS certificates"),
        click.option("--no-host-key-check", is_flag=True, help="do NOT verify SSH host keys"),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text"),
    ]
    for option in reversed(options):
        f = option(f)
    return f


class _Setup:
    """Everything a deploy command needs, or a clean exit with the reason."""

    def __init__(self, path: str, kw: dict[str, Any],
                 skip_deadlock: bool | None = None, lazy: bool = False) -> None:
        """`skip_deadlock`: None runs no deadlock gate (diff, rollback); False runs it (push);
        True skips it and says so (push --no-deadlock-check). `lazy` (verify): each device's
        config made when asked, not held (`lazy_desired`; `desired` stays empty)."""
        from netcfg.deploy.desired import (
            DesiredError,
            LazyDesired,
            desired_configs,
            with_history,
        )
        from netcfg.deploy.runs import open_state
        from netcfg.deploy.targets import (
            TargetError,
            from_devices_file,
            from_intent,
            parse_shard,
            select,
            with_trust,
        )
        from netcfg.validate import validate, waived_note

        result = validate(path)
        note = waived_note(result)
        if note:
            click.echo(note, err=True)
        if not result.ok or result.fabric is None or result.physics is None:
            for f in result.findings:
                click.echo(f"{f.severity}: {f.text()}", err=True)
            _fail("intent is invalid; no device was touched")
        fabric = result.fabric
        #: the validated intent (verify builds each switch's plan from it)
        self.validation = result
        if skip_deadlock is not None:
            from netcfg.deadlock import gate

            if not gate.passes(fabric, skip_deadlock, lambda line: click.echo(line, err=True)):
                _fail("the fabric can deadlock; no device was touched (see `netcfg deadlock`; "
                      "--no-deadlock-check pushes anyway)")
        base = Path(path) if Path(path).is_dir() else Path(path).parent
        try:
            self.state = open_state(kw["state"], Path(path))
        except ValueError as exc:
            _fail(str(exc))
        _name_unreadable_runs(self.state)
        try:
            shard = parse_shard(kw["shard"]) if kw["shard"] else None
            chosen = select(fabric, kw["devices"], kw["roles"], kw["limit"], shard)
            if not chosen:
                _fail("no switch matches the selection")
            targets = (from_devices_file(fabric, chosen, Path(kw["connect"])) if kw["connect"]
                       else from_intent(fabric, chosen, base))
            configs = Path(kw["configs"]) if kw["configs"] else None
            self.desired = {} if lazy else with_history(
                desired_configs(fabric, result.physics, chosen, configs, base), self.state)
            self.lazy_desired = LazyDesired(fabric, result.physics, chosen, configs, base,
                                            self.state) if lazy else None
            self.targets = with_trust(targets, ca_file=kw["ca_file"],
                                      known_hosts=kw["known_hosts"],
                                      insecure_tls=kw["insecure_tls"],
                                      no_host_key_check=kw["no_host_key_check"])
        except (TargetError, DesiredError) as exc:
            _fail(str(exc))
        for flag, what in (("insecure_tls", "TLS certificates"),
                           ("no_host_key_check", "SSH host keys")):
            if kw[flag]:
                click.echo(f"warning: {what} are NOT verified (--{flag.replace('_', '-')})",
                           err=True)


def _name_unreadable_runs(state: Any) -> None:
    """One warning line per run whose journal cannot be read (empty, broken): every other run
    still counts (runs.BadJournal)."""
    from netcfg.deploy.runs import unreadable_runs

    for line in unreadable_runs(state):
        click.echo(f"warning: {line}", err=True)


def _fail(message: str) -> NoReturn:
    click.echo(f"netcfg: {message}", err=True)
    sys.exit(1)


def _interruptible() -> threading.Event:
    """Ctrl-C / SIGTERM set an event the workers check between steps (never mid-commit)."""
    stop = threading.Event()

    def handler(signum: int, _frame: Any) -> None:
        if not stop.is_set():
            _say_in_handler("\nnetcfg: stopping: devices in flight are confirmed or "
                            "reverted, nothing new is started\n")
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handler)
    return stop


def _say_in_handler(text: str) -> None:
    """Write from a signal handler. The handler runs between two bytecodes of the main thread,
    which may be inside a write to stderr (the progress bar's): writing to that file object
    again raises "reentrant call" there and ends the push mid-flight. A write to its
    descriptor has no buffer to re-enter."""
    try:
        os.write(sys.stderr.fileno(), text.encode(errors="replace"))
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # no descriptor behind stderr (captured): the stop still happens


def _emit(fmt: str, payload: dict[str, Any], text: Callable[[], None]) -> None:
    if fmt == "json":
        click.echo(json.dumps(payload, indent=2, sort_keys=True))
    else:
        text()


def _print_result(r: Any, show_diff: bool = True, summary_only: bool = False) -> None:
    colour = sys.stdout.isatty()
    head = f"{r.device}: {r.status}" + (f" ({r.stage}: {r.error})" if r.error else "")
    if r.sections is not None:
        head += f"; {r.sections.summary()}"
    if summary_only:
        click.echo(head)
        return
    good = r.status in ("unchanged", "confirmed", "rolled-back")
    click.echo(click.style(head, fg="green" if good else "yellow" if r.status in (
        "drift", "changed") else "red", bold=True) if colour else head)
    if show_diff and r.diff:
        click.echo("\n".join("    " + line for line in r.diff.splitlines()))
    meaning = sorted(r.meaning, key=_weight)
    for line in meaning[:20]:
        click.echo(f"  = {line}")
    if len(meaning) > 20:
        click.echo(f"  = ... and {len(meaning) - 20} more differences in the lossless chain")


#: what breaks losslessness first, so the first lines shown are the ones that matter most
_ORDER = ("lossless", "PFC", "ECN", "watchdog", "MTU", "DSCP")


def _weight(line: str) -> int:
    return next((i for i, word in enumerate(_ORDER) if word in line), len(_ORDER))


@click.command("diff")
@_selection
@click.option("--summary", is_flag=True,
              help="one line per device: the sections the push would add, change and remove")
def diff(path: str, fmt: str, summary: bool, **kw: Any) -> None:
    """Show each device's own diff of its running config against the rendered one."""
    from netcfg.deploy.engine import Options, diff_device, pool

    setup = _Setup(path, kw)
    opts = Options(timeout=kw["timeout"], workers=kw["workers"])
    bar = Progress(len(setup.targets), "diffing")
    try:
        results = pool(setup.targets,
                       lambda t: diff_device(t, setup.desired[t.name], opts, setup.state),
                       opts.workers, bar)
    finally:
        bar.close()
    errors = [r for r in results if r.status in ("failed", "unreachable", "skipped")]
    drift = [r for r in results if r.status == "drift"]

    def text() -> None:
        for r in results:
            _print_result(r, summary_only=summary)
        click.echo(f"{len(results)} device(s): {len(drift)} with drift, "
                   f"{len(errors)} not reachable, failed or locked by a push")

    _emit(fmt, {"devices": [r.as_dict() for r in results]}, text)
    sys.exit(EXIT_DEVICE if errors else EXIT_DRIFT if drift else 0)


@click.command("push")
@_selection
@click.option("--revert-in", type=click.IntRange(60, 86400), default=300, show_default=True,
              help="seconds before a device reverts an unconfirmed commit by itself")
@click.option("--canary", type=click.IntRange(0, 1000), default=1, show_default=True,
              help="devices pushed alone first")
@click.option("--batch-size", type=click.IntRange(1, 10000), default=10, show_default=True)
@click.option("--max-failures", type=click.IntRange(0, 10000), default=0, show_default=True,
              help="failed devices tolerated before the run stops and rolls back")
@click.option("--dry-run", is_flag=True, help="do everything except commit")
@click.option("--no-deadlock-check", "no_deadlock", is_flag=True,
              help="push even if the PFC deadlock proof fails (the output says so)")
@click.option("--allow-removal", "allow_removal", multiple=True, metavar="SECTION",
              help="let the push remove this section (or family, a glob) though the intent "
                   "does not manage it, e.g. 'ntp server' or 'NTP_SERVER' (repeatable)")
@click.option("--allow-disruptive", "allow_disruptive", is_flag=True,
              help="let the push make changes that take links down by themselves (an NX-OS "
                   "breakout line reloads its module): for a maintenance window")
def push(path: str, fmt: str, revert_in: int, canary: int, batch_size: int,
         max_failures: int, dry_run: bool, no_deadlock: bool, allow_removal: tuple[str, ...],
         allow_disruptive: bool, **kw: Any) -> None:
    """Diff, commit with a revert timer, post-check and confirm, canary first then batches."""
    from netcfg.deploy.engine import Options, push_fleet
    from netcfg.deploy.runs import FleetBusy, Run

    setup = _Setup(path, kw, skip_deadlock=no_deadlock)
    opts = Options(timeout=kw["timeout"], revert_in=revert_in, dry_run=dry_run,
                   workers=kw["workers"], canary=canary, batch_size=batch_size,
                   max_failures=max_failures, allow_removal=allow_removal,
                   allow_disruptive=allow_disruptive)
    # a live run: a rollback of this state refuses while it runs (runs.choose_rollback), and
    # it refuses to start while a rollback runs (exit 1, nothing touched)
    try:
        run = Run(setup.state, command="push --dry-run" if dry_run else "push", live=True)
    except FleetBusy as busy:
        _fail(busy.push_refusal())
    click.echo(f"run {run.id}: journal {run.where}", err=True)
    stop = _interruptible()
    bar = Progress(len(setup.targets), "pushing")
    try:
        results, aborted = push_fleet(setup.targets, setup.desired, run, opts, stop, bar)
    finally:
        bar.close()
    by_name = {r.device: r for r in results}
    never = [t.name for t in setup.targets if t.name not in by_name]
    bad = [r for r in results if r.status in ("failed", "unreachable", "reverted", "skipped")]

    def text() -> None:
        for r in results:
            _print_result(r, show_diff=dry_run)
        if never:
            click.echo(f"not started: {', '.join(never)}")
        summary = ", ".join(f"{n} {s}" for s, n in sorted(_counts(results).items()))
        # "rolled back" only where a device was: a run stopped at its canary undid nothing
        undone = any(r.status == "rolled-back" for r in results)
        click.echo(f"run {run.id}: {summary or 'nothing to do'}"
                   + (("; stopped and rolled back" if undone else "; stopped") if aborted
                      else "")
                   + ("; interrupted" if stop.is_set() else ""))

    _emit(fmt, {"run": run.id, "aborted": aborted, "interrupted": stop.is_set(),
                "not_started": never, "devices": [r.as_dict() for r in results]}, text)
    sys.exit(EXIT_DEVICE if bad or aborted or stop.is_set() else 0)


def _counts(results: list[Any]) -> dict[str, int]:
    return _counts_of(r.status for r in results)


@click.command("rollback")
@_selection
@click.option("--run", "run_id", metavar="ID",
              help="the run to undo [default: the latest push that changed devices]")
def rollback(path: str, fmt: str, run_id: str | None, **kw: Any) -> None:
    """Restore the running configs a push saved before committing, on the devices it
    changed."""
    from netcfg.deploy.engine import Options, pool, restore_device
    from netcfg.deploy.runs import RollbackRefused, choose_rollback

    setup = _Setup(path, kw)
    try:  # refused (exit 1, nothing touched) while a push of the state still runs
        # the state's fleet lock, held to the end: no push of the state starts meanwhile
        run, devices, _fleet = choose_rollback(setup.state, run_id,
                                               {t.name for t in setup.targets})
    except RollbackRefused as exc:
        _fail(str(exc))
    targets = [t for t in setup.targets if t.name in devices]
    started = run.started()
    click.echo(f"rolling back run {run.id} ({started.detail.get('command')} of "
               f"{_when(started.time)}): {len(targets)} device(s) it changed", err=True)
    run.record("-", "rollback", command="rollback")
    opts = Options(timeout=kw["timeout"], workers=kw["workers"])
    bar = Progress(len(targets), "restoring")
    try:
        results = pool(targets, lambda t: restore_device(t, run.saved("backup", t.name) or "",
                                                         run, opts), opts.workers, bar)
    finally:
        bar.close()
    bad = [r for r in results if r.status not in ("rolled-back", "unchanged")]

    def text() -> None:
        for r in results:
            _print_result(r, show_diff=False)
        click.echo(f"run {run.id}: {len(results) - len(bad)} restored, {len(bad)} failed")

    _emit(fmt, {"run": run.id, "devices": [r.as_dict() for r in results]}, text)
    sys.exit(EXIT_DEVICE if bad else 0)


def _when(t: float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(t))


@click.command("runs")
@click.argument("path", type=click.Path())
@click.option("--state", type=click.Path(file_okay=False),
              help="run directories or a postgresql:// URL (also NETCFG_STATE) [default: as "
                   "for push]")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def runs(path: str, state: str | None, fmt: str) -> None:
    """List the diff/push/rollback runs of an inventory: when, what, and where each left
    its devices (the journal's last word per device)."""
    from netcfg.deploy.runs import list_runs, open_state

    try:
        where = open_state(state, Path(path))
    except ValueError as exc:
        _fail(str(exc))
    _name_unreadable_runs(where)
    rows: list[dict[str, Any]] = []
    for run in list_runs(where):
        started = run.started()
        rows.append({"run": run.id, "command": started.detail.get("command"),
                     "started": _when(started.time), "host": started.detail.get("host"),
                     "devices": _counts_of(run.final_states().values()),
                     "changed": run.changed_devices(),
                     "rolled_back": run.rolled_back_devices(),
                     # a push whose process still holds its run (rollback refuses meanwhile)
                     "running": started.detail.get("command") == "push" and run.in_flight()})

    def text() -> None:
        if not rows:
            click.echo(f"no runs under {where}")
        for row in rows:
            states = ", ".join(f"{n} {s}" for s, n in sorted(row["devices"].items()))
            click.echo(f"{row['run']}  {row['started']}  {row['command']}: "
                       f"{states or 'no device'}; {len(row['changed'])} changed"
                       + (f", {len(row['rolled_back'])} rolled back" if row["rolled_back"]
                          else "") + ("; running" if row["running"] else ""))

    _emit(fmt, {"state": str(where), "runs": rows}, text)


def _counts_of(states: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in states:
        out[s] = out.get(s, 0) + 1
    return out
