"""`netcfg twin PATH`: build the fabric's control plane from real FRR routers in network
namespaces, prove every server NIC reaches every other with the topology's ECMP width, and
tear it all down (also on Ctrl-C, SIGTERM or an error). Exit 0 when every check holds, 1 when
one fails, 2 when the twin cannot run here (no root, no FRR, invalid intent)."""

from __future__ import annotations

import json
import signal
import sys

import click


class _Terminated(BaseException):
    """SIGTERM, raised where the twin is being built so that its teardown runs."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


@click.command()
@click.argument("path", type=click.Path())
@click.option("--timeout", default=120.0, show_default=True,
              help="seconds to wait for BGP to converge")
@click.option("--sources", type=click.IntRange(min=1), default=None,
              help="reachability from the first N NICs only (default: all pairs)")
@click.option("--failures", type=click.IntRange(min=0), default=2, show_default=True,
              help="cables of each tier to fail one at a time (0: none)")
@click.option("--failure-bound", type=float, default=30.0, show_default=True,
              help="seconds a link failure may take to reconverge")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def twin(path: str, timeout: float, sources: int | None, failures: int, failure_bound: float,
         fmt: str) -> None:
    """Prove on real FRR routers that every GPU NIC reaches every other."""
    from netcfg.render.engine import select
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.network import TwinError, preflight
    from netcfg.twin.run import run
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
        click.echo("netcfg: intent is invalid; no twin built", err=True)
        sys.exit(2)
    builder = PlanBuilder(result.fabric, result.physics)
    plans = [builder.plan(dev) for dev in select(result.fabric)]
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        with click.progressbar(length=len(plans), label="BGP converging",
                               file=sys.stderr) as bar:
            seen = [0]

            def progress(done: int, total: int) -> None:
                bar.update(done - seen[0])
                seen[0] = done

            report = run(result.fabric, plans, timeout=timeout, progress=progress,
                         sources=sources, failures=failures, bound=failure_bound)
    except TwinError as exc:
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(2)
    except _Terminated:
        click.echo("netcfg: terminated; the twin was torn down", err=True)
        sys.exit(143)
    finally:
        signal.signal(signal.SIGTERM, previous)
    click.echo(json.dumps(report.as_dict(), indent=2) if fmt == "json" else report.text())
    sys.exit(0 if report.ok else 1)
