"""`netcfg render PATH --out DIR`: one file per device (and host NIC profile), all or nothing.

Everything renders in memory first; only when every selected device rendered is anything
written (the whole directory swapped in, or with --device/--role just those files, each
atomically). `--check` writes nothing and exits 3 when DIR differs (GitOps drift).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

PROGRESS_FROM = 200  # devices; smaller fabrics render before a bar would be seen


def _read_tree(root: Path) -> dict[str, str]:
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*")) if p.is_file() and not p.name.startswith(".")}


@click.command()
@click.argument("path", type=click.Path())
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="directory for the rendered files")
@click.option("--device", "devices", multiple=True, help="device name or glob (repeatable)")
@click.option("--role", "roles", multiple=True, type=click.Choice(["leaf", "spine", "core"]),
              help="only this role (repeatable)")
@click.option("--check", is_flag=True, help="write nothing; exit 3 if DIR differs")
def render(path: str, out: str, devices: tuple[str, ...], roles: tuple[str, ...],
           check: bool) -> None:
    """Render every switch config (and host NIC profile) of the intent into DIR."""
    import jinja2

    from netcfg.fsutil import replace_tree, update_files
    from netcfg.render.engine import render_files, select
    from netcfg.validate import validate

    result = validate(path)
    for f in result.findings:
        click.echo(f"{f.severity}: {f.text()}", err=True)
    if not result.ok or result.fabric is None or result.physics is None:
        click.echo("netcfg: intent is invalid; nothing rendered", err=True)
        sys.exit(1)
    fabric = result.fabric
    chosen = select(fabric, devices, roles)
    if not chosen:
        click.echo("netcfg: no switch matches the selection", err=True)
        sys.exit(1)
    partial = bool(devices or roles)
    bar = None
    if len(chosen) >= PROGRESS_FROM and sys.stderr.isatty():
        bar = click.progressbar(length=len(chosen), label="rendering", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.update(1)

    try:
        files = render_files(fabric, result.physics, chosen, with_hosts=not partial,
                             progress=progress)
    except (jinja2.TemplateError, OSError, ImportError) as exc:
        click.echo(f"netcfg: render failed, {out} left as it was: {type(exc).__name__}: {exc}",
                   err=True)
        sys.exit(1)
    finally:
        if bar is not None:
            bar.render_finish()
    target = Path(out)
    if check:
        sys.exit(_check(target, files, partial))
    if partial:
        update_files(target, files)
    else:
        replace_tree(target, files)
    hosts = sum(1 for name in files if name.startswith("hosts/"))
    click.echo(f"rendered {len(chosen)} switch configs" +
               (f" and {hosts // 2} host NIC profiles" if hosts else "") + f" into {out}")


def _check(target: Path, files: dict[str, str], partial: bool) -> int:
    current = _read_tree(target)
    changed = sorted(n for n in files if n in current and current[n] != files[n])
    missing = sorted(n for n in files if n not in current)
    extra = [] if partial else sorted(n for n in current if n not in files)
    for label, names in (("changed", changed), ("missing", missing), ("extra", extra)):
        for name in names:
            click.echo(f"{label}: {name}")
    if changed or missing or extra:
        click.echo(f"{target} differs from the intent: {len(changed)} changed, {len(missing)} "
                   f"missing, {len(extra)} extra", err=True)
        return 3
    click.echo(f"{target} is up to date ({len(files)} files)")
    return 0
