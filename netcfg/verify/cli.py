"""Click command `verify` (registered in netcfg.cli; NAPALM loads when it runs).

The selection, connection and trust options are diff's and push's (netcfg/deploy/cli.py);
the output formats and exit codes are lint's, plus 4 for a switch that could not be verified.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import click

from netcfg.deploy.cli import _selection, _Setup
from netcfg.lint.cli import LINT_FORMATS
from netcfg.progress import Progress


def _colour(text: str, fg: str) -> str:
    return click.style(text, fg=fg) if sys.stdout.isatty() else text


def _plain(text: str, fg: str) -> str:
    return text


@click.command("verify")
@_selection
@click.option("--output", type=click.Path(dir_okay=False), help="write the report here")
@click.option("--interval", type=click.FloatRange(0, 3600), default=0, show_default=True,
              help="seconds between two readings of PFC and queue counters (0: one reading, "
                   "no pause or drop check)")
@click.option("--max-pauses", type=click.IntRange(0), default=0, show_default=True,
              help="PFC pause frames a lossless priority of a port may receive over "
                   "--interval before VFY012 warns")
@click.option("--twin", "on_twin", is_flag=True,
              help="check BGP and ECMP on the fabric's twin (real FRR in network "
                   "namespaces, as `netcfg twin`; needs root and FRR) instead of the switches")
@click.option("--pod", type=click.IntRange(min=1), default=None,
              help="with --twin: twin only this pod's leaves and spines")
@click.option("--rail", "rails", type=click.IntRange(min=1), multiple=True,
              help="with --twin: twin only this rail's leaves and every switch above them")
@click.option("--twin-timeout", type=click.FloatRange(1, 3600), default=120.0,
              show_default=True, help="with --twin: seconds BGP gets to settle")
@click.option("--export", "export", type=(click.Choice(["anta"]), click.Path(file_okay=False)),
              default=None, metavar="anta DIR",
              help="write an ANTA catalog per selected EOS switch into DIR (BGP peers, LLDP "
                   "neighbours, interface status, from the plan) instead of verifying")
def verify(path: str, fmt: str, output: str | None, interval: float, max_pauses: int,
           on_twin: bool, pod: int | None, rails: tuple[int, ...], twin_timeout: float,
           export: tuple[str, str] | None, **kw: Any) -> None:
    """Check every selected switch's operational state against the plan its config renders
    from: config, cabling (LLDP), ports, BGP sessions, PFC watchdog, storms, pauses and
    lossless drops. Exit 0 all hold, 1 findings, 4 a switch could not be verified."""
    from netcfg.deploy.engine import Options
    from netcfg.fsutil import check_report
    from netcfg.lint.cli import _fabric_file
    from netcfg.render.plan import PlanBuilder
    from netcfg.verify import report
    from netcfg.verify.run import Plans, peer_origins, prefix_bounds, verify_fleet

    check_report(output)  # before any switch is read
    if export is not None:
        _export(path, export[1], kw)
    if on_twin:
        result = _on_twin(path, pod, rails, twin_timeout, kw)
        _write(result, fmt, output)
        if output is not None or fmt != "text":
            click.echo(report.summary(result), err=True)
        sys.exit(result.exit_code)
    setup = _Setup(path, kw, lazy=True)  # a switch's config and plan made on its turn
    fabric, physics = setup.validation.fabric, setup.validation.physics
    assert fabric is not None and physics is not None  # _Setup exits otherwise
    builder = PlanBuilder(fabric, physics)
    plans = Plans(builder, [fabric.devices[t.name] for t in setup.targets])
    assert setup.lazy_desired is not None
    opts = Options(timeout=kw["timeout"], workers=kw["workers"])
    bar = Progress(len(setup.targets), "verifying")
    try:
        result = verify_fleet(setup.targets, plans, setup.lazy_desired, opts, setup.state,
                              fabric.name, _fabric_file(path), bar, interval, max_pauses,
                              peer_origins(builder, plans), prefix_bounds(fabric, set(plans)))
    finally:
        bar.close()
    _write(result, fmt, output)
    if output is not None or fmt != "text":
        click.echo(report.summary(result), err=True)
    sys.exit(result.exit_code)


def _write(result: Any, fmt: str, output: str | None) -> None:
    """The report to stdout or `--output` as it is made (report.chunks: JSON and JUnit a
    switch at a time, SARIF a finding at a time), ended as lint's reports are: stdout with a
    newline, a file with one unless it has one."""
    from netcfg.fsutil import write_report_chunks
    from netcfg.verify import report

    chunks = report.chunks(result, fmt, _colour if output is None else _plain)
    write_report_chunks("-" if output is None else output,
                        _ended(chunks, always=output is None), "verify", fmt)


def _ended(chunks: Iterator[str], always: bool) -> Iterator[str]:
    last = ""
    for last in chunks:
        yield last
    if always or not last.endswith("\n"):
        yield "\n"


def _export(path: str, directory: str, kw: dict[str, Any]) -> None:
    """`--export anta DIR`: the selected EOS switches' plans as ANTA catalogs; no switch is
    contacted. Exit 0 with the files written, 1 for an invalid intent or no EOS switch."""
    from pathlib import Path

    from netcfg.deploy.targets import select
    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate
    from netcfg.vendors import vendor
    from netcfg.verify.anta import export

    result = validate(path)
    if not result.ok or result.fabric is None or result.physics is None:
        for f in result.findings:
            if f.severity == "error":
                click.echo(f"error: {f.text()}", err=True)
        click.echo("netcfg: intent is invalid; no catalog written", err=True)
        sys.exit(1)
    fabric = result.fabric
    chosen = [d for d in select(fabric, tuple(kw.get("devices") or ()),
                                tuple(kw.get("roles") or ()), tuple(kw.get("limit") or ()))
              if vendor(fabric.platform(d).nos).anta]
    if not chosen:
        click.echo("netcfg: no EOS switch matches the selection (ANTA tests EOS only); "
                   "no catalog written", err=True)
        sys.exit(1)
    builder = PlanBuilder(fabric, result.physics)
    try:
        written = export([builder.plan(d) for d in chosen], Path(directory))
    except OSError as exc:
        click.echo(f"netcfg: catalogs not all written: {exc}", err=True)
        sys.exit(1)
    click.echo(f"{len(written)} ANTA catalog(s) written to {directory}")
    sys.exit(0)


def _on_twin(path: str, pod: int | None, rails: tuple[int, ...], timeout: float,
             kw: dict[str, Any]) -> Any:
    """`--twin`: the BGP and ECMP checks on the twin of the fabric (or of its --pod/--rail
    slice), reported for the switches --device/--role select among those the twin holds."""
    from netcfg.deploy.targets import select
    from netcfg.lint.cli import _fabric_file
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.cli import twin_ready, twin_running
    from netcfg.twin.run import SliceError, twinned_switches
    from netcfg.verify.twin import verify_on_twin

    fabric, physics = twin_ready(path, "nothing verified", 1)
    try:
        devices = twinned_switches(fabric, pod, set(rails))
    except SliceError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    chosen = {d.name for d in select(fabric, tuple(kw.get("devices") or ()),
                                     tuple(kw.get("roles") or ()))}
    shown = {d.name for d in devices} & chosen
    if not shown:
        click.echo("netcfg: no switch of the twin matches the selection", err=True)
        sys.exit(1)
    builder = PlanBuilder(fabric, physics)
    plans = [builder.plan(d) for d in devices]
    # SIGTERM unwinds through the twin's teardown, as `netcfg twin` does
    with twin_running():
        return verify_on_twin(fabric, plans, _fabric_file(path), shown, timeout)


for _param in verify.params:  # diff's options, lint's formats
    if _param.name == "fmt" and isinstance(_param, click.Option):
        _param.type = LINT_FORMATS
        _param.help = "report format (json and junit list every check, passed or failed)"
del _param
