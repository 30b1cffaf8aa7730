"""Command line: `netcfg COMMAND PATH [options]` (the commands and their exit codes: README).

Exit codes: 0 ok, 1 invalid intent / findings, 2 usage error. Commands import only what they
need, so `validate` starts without loading NAPALM or Jinja2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from netcfg.entry import Interrupted, pressed

FORMATS = click.Choice(["text", "json"])


def _emit(text: str, output: str | None, command: str, syntax: str) -> None:
    """A report to stdout, or to `--output` marked as netcfg's (netcfg/fsutil.py `ours`: only
    a new file, an empty one or a report netcfg wrote is replaced)."""
    if output:
        from netcfg.fsutil import write_report

        write_report(output, text if text.endswith("\n") else text + "\n", command, syntax)
    else:
        click.echo(text)


def _color(text: str, fg: str) -> str:
    return click.style(text, fg=fg) if sys.stdout.isatty() else text


def _print_findings(findings: list[Any]) -> None:
    colours = {"error": "red", "warning": "yellow", "info": "blue"}
    for f in findings:
        line = f.text()
        click.echo(_color(f.severity + ": ", colours[f.severity]) + line)


class Failure(click.ClickException):
    """A one-line error for the user, exit 1 (what the OS refused, an internal error)."""

    def show(self, file: Any = None) -> None:
        click.echo(f"netcfg: {self.format_message()}", err=True)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    return " ".join(f"{type(exc).__name__}: {exc}".split())


class MissingExtra(click.ClickException):
    """A command whose extra is not installed: one line naming it, exit 2 (usage)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(self.format_message(), err=True)  # "netcfg COMMAND needs ..."


class _Group(click.Group):
    """Every command's last line of defence: the README promises no traceback, so an error no
    command handled becomes one line (`NETCFG_DEBUG=1` shows the traceback), and Ctrl-C outside
    a command's own handling ends with exit 130. A command whose extra is not installed says
    which to install before it starts (`--help` still works)."""

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        from netcfg.extras import missing_for

        name, command, rest = super().resolve_command(ctx, args)
        hint = missing_for(name) if name and not {"-h", "--help"} & set(rest) else None
        if hint:
            raise MissingExtra(hint)
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        import os

        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, Interrupted):
            raise
        except KeyboardInterrupt:  # where the command runs without netcfg.entry's handler
            click.echo("netcfg: interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:  # noqa: BLE001 - a bug still gets one line, not a traceback
            if pressed():  # the Ctrl-C came back wrapped in a library's error
                raise Interrupted() from None
            if os.environ.get("NETCFG_DEBUG"):
                raise
            if isinstance(exc, ModuleNotFoundError):
                from netcfg.extras import missing_module

                hint = missing_module(ctx.invoked_subcommand, exc.name)
                if hint:
                    raise MissingExtra(hint) from None
            if isinstance(exc, OSError):
                raise Failure(_one_line(exc)) from None
            raise Failure(f"internal error ({_one_line(exc)}); run with NETCFG_DEBUG=1 for "
                          f"the traceback and report it") from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="netcfg-roce")
def main() -> None:
    """netcfg: lossless RoCEv2 fabric intent -> proven-safe, vendor-specific configs."""
    _quiet_libraries()


def _quiet_libraries() -> None:
    """Drivers log their failures with tracebacks (pyeapi logs every socket error through
    `logger.exception`, which Python's last-resort handler prints to stderr); netcfg reports
    each failure itself, in one line naming the device. Library logging therefore goes
    nowhere, unless NETCFG_DEBUG is set."""
    import logging
    import os

    root = logging.getLogger()
    if os.environ.get("NETCFG_DEBUG"):
        logging.basicConfig(level=logging.DEBUG)
        from netcfg.deploy.secrets import RedactingFilter

        for handler in root.handlers:  # the libraries log the configs they send
            handler.addFilter(RedactingFilter())
    elif not root.handlers:
        root.addHandler(logging.NullHandler())


@main.command()
@click.argument("path", type=click.Path())
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False), help="write the report here")
@click.option("-q", "--quiet", is_flag=True,
              help="leave info findings (notes) out of the report; the last line counts them")
def validate(path: str, fmt: str, output: str | None, quiet: bool) -> None:
    """Load the intent, check schema and references, expand the topology."""
    from netcfg.fsutil import check_report
    from netcfg.validate import quieted
    from netcfg.validate import validate as run

    check_report(output)
    result = run(path)
    hidden = 0
    if quiet:  # notes never make an intent invalid: the exit code is the same either way
        result, hidden = quieted(result)
    summary = result.fabric.summary() if result.fabric else None
    waived = [f"waived {c.finding.severity}: {c.finding.text()} [waived: "
              f"{c.waiver.reason if c.waiver else ''}]" for c in result.waived]
    if fmt == "json":
        _emit(json.dumps({"ok": result.ok, "fabric": result.fabric.name if result.fabric else None,
                          "summary": summary, "hidden_notes": hidden,
                          "findings": [f.as_dict() for f in result.findings],
                          "waived": [{**c.finding.as_dict(), "waiver_reason": c.waiver.reason
                                      if c.waiver else None} for c in result.waived]},
                         indent=2), output, "validate", "json")
    elif output:
        lines = [f"{f.severity}: {f.text()}" for f in result.findings] + waived
        if result.ok and result.fabric is not None:
            lines.append(f"ok: fabric {result.fabric.name}: {_counts(summary)}{_hidden(hidden)}")
        _emit("\n".join(lines), output, "validate", "text")
    else:
        _print_findings(result.findings)
        for line in waived:
            click.echo(_color(line, "cyan"))
        if result.ok and result.fabric is not None:
            click.echo(_color("ok", "green") + f": fabric {result.fabric.name}: "
                       f"{_counts(summary)}{_hidden(hidden)}")
    if not result.ok:
        n = sum(1 for f in result.findings if f.severity == "error")
        click.echo(f"{n} error(s){_hidden(hidden)}", err=True)
    sys.exit(0 if result.ok else 1)


def _counts(summary: dict[str, int] | None) -> str:
    return ", ".join(f"{v} {k}" for k, v in (summary or {}).items())


def _hidden(notes: int) -> str:
    return f" ({notes} note(s) hidden by --quiet)" if notes else ""


@main.command()
@click.option("--output", type=click.Path(dir_okay=False), help="write the schema here")
@click.option("--devices", "devices_file", is_flag=True,
              help="the schema of devices.yaml instead of fabric.yaml")
def schema(output: str | None, devices_file: bool) -> None:
    """Print the JSON Schema of fabric.yaml, or of devices.yaml (for editor completion)."""
    from netcfg.intent.schema import devices_schema, intent_schema

    doc = devices_schema() if devices_file else intent_schema()
    _emit(json.dumps(doc, indent=2, sort_keys=False), output, "schema", "json")


@main.command()
@click.argument("path", type=click.Path())
@click.argument("device")
@click.argument("port", required=False)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def explain(path: str, device: str, port: str | None, fmt: str) -> None:
    """Show every effective value of DEVICE (or PORT) and where it came from."""
    from netcfg.explain import explain as run
    from netcfg.intent.base import suggest
    from netcfg.validate import validate as load

    result = load(path)
    if result.fabric is None:
        _print_findings(result.findings)
        sys.exit(1)
    fabric = result.fabric
    dev = fabric.devices.get(device)
    if dev is None:
        click.echo(f"netcfg: no device '{device}'{suggest(device, tuple(fabric.devices))}",
                   err=True)
        sys.exit(1)
    p = None
    if port is not None:
        p = dev.port(port)
        if p is None:
            names = [x.name for x in dev.ports]
            click.echo(f"netcfg: {device} has no port '{port}'{suggest(port, names)}", err=True)
            sys.exit(1)
    sections = run(fabric, dev, p, result.physics)
    if fmt == "json":
        click.echo(json.dumps({"device": dev.name, "port": port,
                               "sections": [s.as_dict() for s in sections]}, indent=2))
        return
    for sec in sections:
        click.echo(_color(sec.title, "cyan"))
        width = max((len(r.key) for r in sec.rows), default=0)
        for r in sec.rows:
            click.echo(f"  {r.key:<{width}}  {r.value!s:<24}  {r.source}")


from netcfg.deadlock.cli import deadlock, graph  # noqa: E402 - click only, heavy imports lazy

main.add_command(deadlock)
main.add_command(graph)


@main.command("docs")
@click.argument("path", type=click.Path())
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="directory for fabric.md, devices/NAME.md and cabling.csv")
def docs(path: str, out: str) -> None:
    """Write fabric documentation (Markdown per fabric and switch, a cabling CSV) from the
    plans the configs render from."""
    from netcfg.docs import documents
    from netcfg.outdir import NotOurs, write_owned
    from netcfg.validate import validate as run

    result = run(path)
    if not result.ok or result.fabric is None or result.physics is None:
        _print_findings([f for f in result.findings if f.severity == "error"])
        raise Failure("intent is invalid; nothing written")
    files = documents(result)
    try:
        write_owned(out, f"{result.fabric.name} docs", files)
    except NotOurs as exc:
        raise Failure(f"nothing written: {exc}") from None
    click.echo(f"documented {len(files) - 2} switches and the cabling into {out}")

from netcfg.render.cli import render  # noqa: E402 - click only, heavy imports lazy

main.add_command(render)

from netcfg.lab.cli import lab  # noqa: E402 - click only, the lab loads when it runs

main.add_command(lab)

from netcfg.lint.cli import lint  # noqa: E402 - click only, checks load when it runs

main.add_command(lint)

from netcfg.deploy.cli import diff, push, rollback, runs  # noqa: E402 - click only, NAPALM loads on use

main.add_command(diff)
main.add_command(push)
main.add_command(rollback)
main.add_command(runs)

from netcfg.twin.cli import twin  # noqa: E402 - click only, FRR is started when it runs

main.add_command(twin)

from netcfg.verify.cli import verify  # noqa: E402 - click only, NAPALM loads when it runs

main.add_command(verify)

from netcfg.report.cli import report  # noqa: E402 - click only, the intent loads when it runs

main.add_command(report)


if __name__ == "__main__":  # pragma: no cover
    main()
