"""Click command `report` (registered in netcfg.cli; the intent loads when it runs).

Exit codes: 0 the report is written; 1 it is written but the working tree's intent does not
validate (the report names the errors), or it could not be written; 2 usage: no git
repository, a base that names no commit, a `--verify` file that is not verify's JSON.
"""

from __future__ import annotations

import json
import sys

import click

#: the files written into --out
MARKDOWN, HTML = "report.md", "report.html"


@click.command("report")
@click.argument("path", type=click.Path(exists=True))
@click.option("--base", "ref", required=True, metavar="REF",
              help="the git revision to compare with (the pull request's base: a branch, "
                   "tag or commit)")
@click.option("--out", "out", type=click.Path(file_okay=False), default="netcfg-report",
              show_default=True, help=f"directory for {MARKDOWN} and {HTML}")
@click.option("--failures", type=click.IntRange(0, 4), default=0, show_default=True,
              help="deadlock depth, as for lint: also check every set of K failed links")
@click.option("--verify", "verify_file", type=click.Path(dir_okay=False), default=None,
              help="what `netcfg verify --format json` last wrote, to show beside the change")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="what is printed: a summary line, or the whole report")
def report(path: str, ref: str, out: str, failures: int, verify_file: str | None,
           fmt: str) -> None:
    """Markdown and self-contained HTML for a pull request: per switch and section what the
    working tree's intent changes against git revision REF, the disruptive changes, lint
    findings with waivers, the deadlock verdict, and what verify last said."""
    from pathlib import Path

    from netcfg.fsutil import check_report, write_report
    from netcfg.report.build import VerifyFileError, build
    from netcfg.report.gitref import RefError
    from netcfg.report.markdown import markdown
    from netcfg.report.page import html

    target = Path(out)
    try:  # refused before the work, as every report's output is
        check_report(target / MARKDOWN)
        check_report(target / HTML)
    except OSError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(1)
    try:
        r = build(path, ref, failures=failures, verify_file=verify_file)
    except (RefError, VerifyFileError) as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    target.mkdir(parents=True, exist_ok=True)
    try:  # each only over a report netcfg wrote (or a new or empty file)
        write_report(target / MARKDOWN, markdown(r), "report", "markdown")
        write_report(target / HTML, html(r), "report", "html")
    except OSError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(r.as_dict(), indent=2))
    elif r.diff is None:
        click.echo(f"wrote {target / MARKDOWN} and {target / HTML}: the intent does not "
                   "validate", err=True)
    else:
        click.echo(f"wrote {target / MARKDOWN} and {target / HTML}: {len(r.diff.devices)} of "
                   f"{r.diff.switches} switches change against {ref}, {r.disruptive()} with "
                   "disruptive changes")
    sys.exit(0 if r.valid else 1)
