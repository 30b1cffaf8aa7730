"""`netcfg render PATH --out DIR`: one file per device (and host NIC profile), all or nothing.

Everything renders into a staging directory inside DIR first (a large fabric's workers write
their own files there); only when every selected device rendered is anything moved into
place, each file atomically. DIR keeps a manifest of what netcfg wrote there, so a render
removes only its own stale files and never anything else (netcfg/outdir.py). `--check` writes
nothing and exits 3 when DIR differs (GitOps drift).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

PROGRESS_FROM = 200  # devices; smaller fabrics render before a bar would be seen


def _read_tree(root: Path, names: set[str]) -> dict[str, str]:
    """The texts of those of `names` that exist below `root`."""
    return {name: (root / name).read_text(encoding="utf-8")
            for name in sorted(names) if (root / name).is_file()}


class _RenderFailed(Exception):
    """A template, file or import failure while rendering into the staging directory: the
    command names it as a render failure (DIR untouched), not as a refused write."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


@click.command()
@click.argument("path", type=click.Path())
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="directory for the rendered files")
@click.option("--device", "devices", multiple=True, help="device name or glob (repeatable)")
@click.option("--role", "roles", multiple=True, type=click.Choice(["leaf", "spine", "core"]),
              help="only this role (repeatable)")
@click.option("--check", is_flag=True,
              help="write nothing; list changed, missing and extra files with a unified diff of "
                   "each changed one; exit 3 if DIR differs")
@click.option("--no-deadlock-check", "no_deadlock", is_flag=True,
              help="render even if the PFC deadlock proof fails (the output says so)")
def render(path: str, out: str, devices: tuple[str, ...], roles: tuple[str, ...],
           check: bool, no_deadlock: bool) -> None:
    """Render every switch config (and host NIC profile) of the intent into DIR."""
    import jinja2

    from netcfg.deadlock import gate
    from netcfg.deploy.secrets import CredentialError
    from netcfg.outdir import NotOurs, write_staged
    from netcfg.render import host
    from netcfg.render.engine import (
        render_files,
        render_into,
        select,
        switch_file,
        workers_available,
    )
    from netcfg.validate import validate, waived_note

    result = validate(path)
    for f in result.findings:  # notes (info) are for validate and lint, not every render
        if f.severity != "info":
            click.echo(f"{f.severity}: {f.text()}", err=True)
    note = waived_note(result)
    if note:
        click.echo(note, err=True)
    if not result.ok or result.fabric is None or result.physics is None:
        click.echo("netcfg: intent is invalid; nothing rendered", err=True)
        sys.exit(1)
    fabric = result.fabric
    if not gate.passes(fabric, no_deadlock, lambda line: click.echo(line, err=True)):
        click.echo("netcfg: the fabric can deadlock; nothing rendered (see `netcfg deadlock`; "
                   "--no-deadlock-check renders anyway)", err=True)
        sys.exit(1)
    chosen = select(fabric, devices, roles)
    if not chosen:
        click.echo("netcfg: no switch matches the selection", err=True)
        sys.exit(1)
    partial = bool(devices or roles)
    bar = None
    if len(chosen) >= PROGRESS_FROM and sys.stderr.isatty():
        bar = click.progressbar(length=len(chosen), label="rendering", file=sys.stderr)

    shown = [0]

    def progress(done: int, total: int) -> None:  # the pool reports a chunk at a time
        if bar is not None:
            bar.update(done - shown[0])
            shown[0] = done

    target = Path(out)
    try:
        if check:
            files = render_files(fabric, result.physics, chosen, with_hosts=not partial,
                                 progress=progress, workers=workers_available())
            sys.exit(_check(target, fabric.name, files, partial))
        hosts_files = {} if partial else host.render_hosts(fabric)
        names = [switch_file(fabric, dev) for dev in chosen] + list(hosts_files)
        physics = result.physics

        def fill(staging: Path) -> None:
            try:
                # a large fabric renders on every core this process may use (same files,
                # same bytes), each worker writing its own files into the staging directory
                render_into(fabric, physics, chosen, staging, hosts_files, progress=progress,
                            workers=workers_available())
            except (jinja2.TemplateError, OSError, ImportError) as exc:
                raise _RenderFailed(exc) from exc

        write_staged(target, fabric.name, names, fill, partial=partial)
    except CredentialError as exc:  # the root-password hash: named, never shown
        click.echo(f"netcfg: nothing rendered, {out} left as it was: {exc}", err=True)
        sys.exit(1)
    except _RenderFailed as failed:
        cause = failed.cause
        click.echo(f"netcfg: render failed, {out} left as it was: {type(cause).__name__}: "
                   f"{cause}", err=True)
        sys.exit(1)
    except (jinja2.TemplateError, ImportError) as exc:  # --check renders before comparing
        click.echo(f"netcfg: render failed, {out} left as it was: {type(exc).__name__}: {exc}",
                   err=True)
        sys.exit(1)
    except (NotOurs, OSError) as exc:
        detail = str(exc) if isinstance(exc, NotOurs) else f"{type(exc).__name__}: {exc}"
        click.echo(f"netcfg: nothing written: {detail}", err=True)
        sys.exit(1)
    finally:
        if bar is not None:
            bar.render_finish()
    hosts = len(hosts_files)
    click.echo(f"rendered {len(chosen)} switch configs" +
               (f" and {hosts // 2} host NIC profiles" if hosts else "") + f" into {out}" +
               (f"; {gate.SKIPPED}" if no_deadlock else ""))


#: lines of one file's diff `--check` prints before it says how many it left out
DIFF_LINES = 400


def _print_diff(name: str, on_disk: str, rendered: str) -> None:
    """What changed in one file, as a unified diff from the file on disk (a/) to what the
    intent renders (b/), so a reviewer sees the drift itself, not only its file name."""
    import difflib

    lines = list(difflib.unified_diff(on_disk.splitlines(), rendered.splitlines(),
                                      f"a/{name}", f"b/{name}", lineterm=""))
    for line in lines[:DIFF_LINES]:
        click.echo(line)
    if len(lines) > DIFF_LINES:
        click.echo(f"... {len(lines) - DIFF_LINES} more diff lines in {name}")


def _check(target: Path, owner: str, files: dict[str, str], partial: bool) -> int:
    from netcfg.outdir import owned

    current = _read_tree(target, owned(target, owner) | set(files)) if target.is_dir() else {}
    changed = sorted(n for n in files if n in current and current[n] != files[n])
    missing = sorted(n for n in files if n not in current)
    extra = [] if partial else sorted(n for n in current if n not in files)
    for label, names in (("changed", changed), ("missing", missing), ("extra", extra)):
        for name in names:
            click.echo(f"{label}: {name}")
            if label == "changed":
                _print_diff(name, current[name], files[name])
    if changed or missing or extra:
        click.echo(f"{target} differs from the intent: {len(changed)} changed, {len(missing)} "
                   f"missing, {len(extra)} extra", err=True)
        return 3
    click.echo(f"{target} is up to date ({len(files)} files)")
    return 0
