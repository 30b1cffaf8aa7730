"""Click command `lint` (registered in netcfg.cli; heavy imports stay inside the command)."""

from __future__ import annotations

import json
import sys

import click

LINT_FORMATS = click.Choice(["text", "json", "sarif", "junit", "github"])


def _colour(text: str, fg: str) -> str:
    return click.style(text, fg=fg) if sys.stdout.isatty() else text


def _plain(text: str, fg: str) -> str:
    return text


@click.command()
@click.argument("path", type=click.Path(), required=False)
@click.option("--format", "fmt", type=LINT_FORMATS, default="text", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False), help="write the report here")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error",
              show_default=True, help="lowest unwaived severity that fails the gate (exit 1)")
@click.option("--failures", type=click.IntRange(0, 4), default=0, show_default=True,
              help="deadlock depth: also check every set of K failed links")
@click.option("--no-deadlock", is_flag=True, help="skip the deadlock check")
@click.option("--list-rules", is_flag=True, help="list every rule (text or json) and exit")
@click.option("-q", "--quiet", is_flag=True,
              help="leave info findings (notes) out of the report; the summary counts them")
def lint(path: str | None, fmt: str, output: str | None, fail_on: str, failures: int,
         no_deadlock: bool, list_rules: bool, quiet: bool) -> None:
    """Every check netcfg knows (schema, physics, deadlock, render capabilities, consistency)
    as one CI gate: exit 1 when an unwaived finding is at or above --fail-on."""
    from netcfg.lint import formats

    if list_rules:
        _list_rules(fmt, output)
        return
    if path is None:
        raise click.UsageError("PATH is required (an inventory directory or its fabric.yaml)")
    from netcfg.fsutil import check_report
    from netcfg.lint.run import lint as run

    check_report(output)  # before the checks, which may take a while

    def progress(step: str) -> None:
        if sys.stderr.isatty():
            click.echo(f"  lint: {step}", err=True)

    result = run(path, failures=failures, deadlock=not no_deadlock, progress=progress)
    if quiet:  # notes never fail the gate: the exit code is the same either way
        result = result.quiet()
    fallback = _fabric_file(path)
    if fmt == "json":
        out = formats.as_json(result, fail_on)
    elif fmt == "sarif":
        out = formats.sarif(result, fallback)
    elif fmt == "junit":
        out = formats.junit(result, fail_on)
    elif fmt == "github":
        out = formats.github(result, fallback)
    else:
        colour = _colour if output is None else _plain
        out = formats.text(result, fail_on, colour)
    _emit(out, output, "lint", fmt)
    if output is not None or fmt != "text":
        click.echo(formats.summary(result, fail_on), err=True)
    sys.exit(1 if result.failing(fail_on) else 0)


def _fabric_file(path: str) -> str | None:
    from pathlib import Path

    p = Path(path)
    target = p / "fabric.yaml" if p.is_dir() else p
    return str(target) if target.exists() else None


def _emit(text: str, output: str | None, command: str, syntax: str) -> None:
    """A report to stdout, or to `--output` marked as netcfg's `command` in `syntax` (lint's
    formats; netcfg/fsutil.py `ours`: only a new file, an empty one or a report netcfg wrote
    is replaced)."""
    if output:
        from netcfg.fsutil import write_report

        write_report(output, text if text.endswith("\n") else text + "\n", command, syntax)
    elif text:
        click.echo(text)


def _list_rules(fmt: str, output: str | None) -> None:
    from netcfg.lint.registry import all_rules, layers

    rules = all_rules()
    layer = layers()
    if fmt == "json":
        _emit(json.dumps([{"id": r.id, "severity": r.severity, "layer": layer[r.id],
                           "summary": r.summary, "rationale": r.rationale, "source": r.source}
                          for r in rules.values()], indent=2), output, "lint --list-rules",
              "json")
        return
    if fmt != "text":
        raise click.UsageError("--list-rules prints text or json")
    width = max(len(r) for r in rules)
    _emit("\n".join(f"{r.id:<{width}}  {r.severity:<7}  {layer[r.id]:<19}  {r.summary}"
                    for r in rules.values()), output, "lint --list-rules", "text")
