"""Click commands `deadlock` and `graph` (registered in netcfg.cli; heavy imports stay inside)."""

from __future__ import annotations

import functools
import json
import sys
from typing import Any

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
@click.option("--workers", type=click.IntRange(1), default=None,
              help="check the failure sets on a local Dask cluster of N worker processes")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="check the failure sets on a running Dask cluster (tcp://host:8786)")
def deadlock(path: str, failures: int, model: str | None, fmt: str, output: str | None,
             budget: int | None, symmetry: bool, workers: int | None,
             scheduler: str | None) -> None:
    """Prove the fabric free of PFC deadlock (cyclic buffer dependencies), or show the cycle.

    Exit codes: 0 free, 1 a deadlock (or the intent is invalid), 2 usage or the cluster
    could not be used."""
    from netcfg.deadlock.check import check
    from netcfg.deadlock.sweep import ENUMERATION_BUDGET
    from netcfg.deadlock.text import render

    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers and --scheduler exclude each other")
    if scheduler is not None and (not scheduler.isprintable() or not scheduler.strip()):
        raise click.BadParameter("a scheduler address is printable text", param_hint="--scheduler")
    from netcfg.fsutil import check_report

    check_report(output)  # before a sweep that may take minutes
    fabric = _load(path)
    bar = _SweepBar()
    run = functools.partial(check, fabric, failures=failures,
                            model=None if model == "auto" else model, progress=bar,
                            budget=budget or ENUMERATION_BUDGET, symmetry=symmetry)
    distributed = workers is not None or scheduler is not None
    if distributed and not failures:
        click.echo("netcfg: --workers/--scheduler only spread a failure sweep (--failures K); "
                   "checking here", err=True)
    from netcfg.deadlock.cluster import ClusterError, pool

    try:
        if distributed and failures:
            with pool(workers, scheduler) as p:
                report = run(pool=p)
        else:
            report = run()
    except ClusterError as exc:
        bar.close()  # the message on a line of its own
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    finally:
        bar.close()
    text = json.dumps(report.as_dict(), indent=2) if fmt == "json" else render(report)
    if output:
        from netcfg.fsutil import write_report

        write_report(output, text + "\n", "deadlock", fmt)
    else:
        click.echo(text)
    sys.exit(1 if report.deadlock else 0)


class _SweepBar:
    """The sweep's progress (done, total) on one progress bar, made when the total is known."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        from netcfg.progress import Progress

        if self.bar is None:
            self.bar = Progress(total, "failure sets")
        self.bar.to(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


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
    from netcfg.fsutil import check_report, write_report

    check_report(out)  # both refused before anything is drawn or written
    check_report(dot)
    fabric = _load(path)
    report = check(fabric, failures=failures, model=None if model == "auto" else model)
    svg = to_svg(fabric, report)
    if out:
        write_report(out, svg, "graph", "svg")
    else:
        click.echo(svg)
    if dot:
        write_report(dot, to_dot(fabric, report), "graph", "dot")
    sys.exit(1 if report.deadlock else 0)
