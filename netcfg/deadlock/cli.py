"""Click commands `deadlock` and `graph` (registered in netcfg.cli; heavy imports stay inside)."""

from __future__ import annotations

import json
import sys

import click

MODELS = click.Choice(["auto", "updown", "shortest_path", "bounce_on_failure", "k_bounce",
                       "all_simple_paths"])


def _load(path: str):  # noqa: ANN202 - Fabric
    from netcfg.validate import validate

    result = validate(path)
    if not result.ok or result.fabric is None:
        for f in result.findings:
            click.echo(f"{f.severity}: {f.text()}", err=True)
        sys.exit(1)
    return result.fabric


@click.command()
@click.argument("path", type=click.Path())
@click.option("--failures", type=click.IntRange(0, 4), default=0, show_default=True,
              help="also check every set of K failed links")
@click.option("--model", type=MODELS, default=None, help="override routing.deadlock.model")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--output", type=click.Path(dir_okay=False), help="write the report here")
@click.option("--budget", type=click.IntRange(1), default=None,
              help="most failure sets checked one by one (default 20,000)")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="check one failure set per orbit of the fabric's exact symmetry")
def deadlock(path: str, failures: int, model: str | None, fmt: str, output: str | None,
             budget: int | None, symmetry: bool) -> None:
    """Prove the fabric free of PFC deadlock (cyclic buffer dependencies), or show the cycle."""
    from netcfg.deadlock.check import check
    from netcfg.deadlock.text import render

    fabric = _load(path)

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\r  failure sets: {done}/{total}", err=True, nl=False)

    from netcfg.deadlock.sweep import ENUMERATION_BUDGET

    report = check(fabric, failures=failures, model=None if model == "auto" else model,
                   progress=progress, budget=budget or ENUMERATION_BUDGET, symmetry=symmetry)
    text = json.dumps(report.as_dict(), indent=2) if fmt == "json" else render(report)
    if output:
        from netcfg.fsutil import write_atomic

        write_atomic(output, text + "\n")
    else:
        click.echo(text)
    sys.exit(1 if report.deadlock else 0)


@click.command()
@click.argument("path", type=click.Path())
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="SVG file to write (default: stdout)")
@click.option("--dot", type=click.Path(dir_okay=False), default=None, help="also write DOT here")
@click.option("--failures", type=click.IntRange(0, 4), default=0, show_default=True)
@click.option("--model", type=MODELS, default=None)
def graph(path: str, out: str | None, dot: str | None, failures: int, model: str | None) -> None:
    """Draw the topology as SVG (and DOT) with any dependency cycle highlighted."""
    from netcfg.deadlock.check import check
    from netcfg.deadlock.draw import to_dot, to_svg

    fabric = _load(path)
    report = check(fabric, failures=failures, model=None if model == "auto" else model)
    svg = to_svg(fabric, report)
    if out:
        from netcfg.fsutil import write_atomic

        write_atomic(out, svg)
    else:
        click.echo(svg)
    if dot:
        from netcfg.fsutil import write_atomic

        write_atomic(dot, to_dot(fabric, report))
    sys.exit(1 if report.deadlock else 0)
