"""`netcfg twin PATH`: build the fabric's control plane from real FRR routers in network
namespaces, prove every server NIC reaches every other with the topology's ECMP width, and
tear it all down (also on Ctrl-C, SIGTERM or an error). Exit 0 when every check holds, 1 when
one fails, 2 when the twin cannot run here (no root, no FRR, invalid intent).

`--keep` leaves it running; `netcfg twin exec DEVICE -- CMD` runs a command inside a switch's
or NIC's namespace (vtysh talks to that switch's FRR) and `netcfg twin down` removes it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from netcfg.physics import Physics
    from netcfg.topology.fabric import Fabric


class _Terminated(BaseException):
    """SIGTERM, raised where the twin is being built so that its teardown runs."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


@contextlib.contextmanager
def twin_running() -> Iterator[None]:
    """While a twin is built and run: SIGTERM unwinds through its teardown, and a twin that
    cannot run (TwinError) or was terminated ends the command in one line (exit 2, 143)."""
    from netcfg.twin.network import TwinError

    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    except TwinError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    except _Terminated:
        click.echo("netcfg: terminated; the twin was torn down", err=True)
        sys.exit(143)
    finally:
        signal.signal(signal.SIGTERM, previous)


class _TwinGroup(click.Group):
    """`netcfg twin PATH ...` runs the twin; `netcfg twin exec|down ...` act on a kept one."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_TwinGroup)
def twin() -> None:
    """Prove on real FRR routers that every GPU NIC reaches every other
    (`netcfg twin PATH`), or look into / remove a twin kept running."""


def twin_ready(path: str, nothing: str, code: int) -> tuple[Fabric, Physics]:
    """The validated fabric and its physics, once the machine can run a twin: a machine
    that cannot (not root, no FRR) exits 2 naming what is missing; an invalid intent prints
    its errors and exits `code`, saying `nothing` was done."""
    from netcfg.twin.network import TwinError, preflight
    from netcfg.validate import validate

    try:
        preflight()
    except TwinError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    result = validate(path)
    if not result.ok or result.fabric is None or result.physics is None:
        for f in result.findings:
            if f.severity == "error":
                click.echo(f"error: {f.text()}", err=True)
        click.echo(f"netcfg: intent is invalid; {nothing}", err=True)
        sys.exit(code)
    return result.fabric, result.physics


@twin.command("run")
@click.argument("path", type=click.Path())
@click.option("--timeout", default=120.0, show_default=True,
              help="seconds to wait for BGP to converge")
@click.option("--sources", type=click.IntRange(min=1), default=None,
              help="reachability from the first N NICs only (default: all pairs)")
@click.option("--failures", type=click.IntRange(min=0), default=2, show_default=True,
              help="cables of each tier to fail one at a time (0: none)")
@click.option("--failure-bound", type=float, default=30.0, show_default=True,
              help="seconds a link failure may take to reconverge")
@click.option("--pod", type=click.IntRange(min=1), default=None,
              help="twin only the leaves and spines of this pod (for fabrics too large for "
                   "the machine)")
@click.option("--rail", "rails", type=click.IntRange(min=1), multiple=True,
              help="twin only the leaves of this rail (repeatable) and every switch above "
                   "them (for fabrics too large for the machine)")
@click.option("--keep", is_flag=True,
              help="leave the twin running (netcfg twin exec / netcfg twin down)")
@click.option("--without-bfd", is_flag=True,
              help="run the routers without BFD and leave it unchecked (for fabrics with more "
                   "BFD sessions than the machine can keep to their timers)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def run_twin(path: str, timeout: float, sources: int | None, failures: int,
             failure_bound: float, pod: int | None, rails: tuple[int, ...], keep: bool,
             without_bfd: bool, fmt: str) -> None:
    """Prove on real FRR routers that every GPU NIC reaches every other."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.run import SliceError, run, twinned_switches
    from netcfg.twin.run import without_bfd as bfd_off

    fabric, physics = twin_ready(path, "no twin built", 2)
    builder = PlanBuilder(fabric, physics)
    try:
        devices = twinned_switches(fabric, pod, set(rails))
    except SliceError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    plans = [builder.plan(dev) for dev in devices]
    if without_bfd:
        plans = bfd_off(plans)
    with twin_running():
        with click.progressbar(length=len(plans), label="BGP converging",
                               file=sys.stderr) as bar:
            seen = [0]

            def progress(done: int, total: int) -> None:
                bar.update(done - seen[0])
                seen[0] = done

            report = run(fabric, plans, timeout=timeout, progress=progress,
                         sources=sources, failures=failures, bound=failure_bound, keep=keep)
    report.pod, report.rails = pod, sorted(set(rails))
    click.echo(json.dumps(report.as_dict(), indent=2) if fmt == "json" else report.text())
    sys.exit(0 if report.ok else 1)


@twin.command("exec", context_settings={"ignore_unknown_options": True})
@click.option("--prefix", default=None, help="the kept twin (when several run)")
@click.argument("device")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def exec_in(prefix: str | None, device: str, command: tuple[str, ...]) -> None:
    """Run COMMAND inside DEVICE's namespace of the kept twin: a switch name (vtysh then
    talks to its FRR) or a server NIC (`server:port`). Exits with COMMAND's status."""
    from netcfg.twin.network import FRR_RUN, Twin, TwinError

    try:
        kept, places = Twin.kept(prefix)
    except TwinError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    netns = places.get(device)
    if netns is None:
        click.echo(f"netcfg: no device {device!r} in twin {kept.prefix} "
                   f"(switches: {', '.join(sorted(r.name for r in kept.routers)[:5])} ...)",
                   err=True)
        sys.exit(2)
    argv = list(command)
    if argv[0] == "vtysh" and device in {r.name for r in kept.routers}:
        argv[1:1] = ["--vty_socket", str(FRR_RUN / netns)]
    os.execvp("ip", ["ip", "netns", "exec", netns, *argv])


@twin.command("down")
@click.option("--prefix", default=None, help="the kept twin (when several run)")
def down(prefix: str | None) -> None:
    """Remove a kept twin: its FRR daemons, namespaces and cables, and restore the kernel's
    neighbour-table limits it raised."""
    from netcfg.twin.network import Twin, TwinError

    try:
        kept, _ = Twin.kept(prefix)
    except TwinError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    kept.close()
    click.echo(f"twin {kept.prefix} removed")
