"""`netcfg lab PATH`: serve the switches of an inventory on loopback until stopped.

Writes a devices file (connection details: address, ports, driver, credentials generated for
this run, CA and known_hosts paths) that NAPALM clients and `netcfg diff/push` can use, with
0600 permissions, and removes it and the trust material on exit.
"""

from __future__ import annotations

import secrets
import signal
import sys
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import click

from netcfg.fsutil import check_output
from netcfg.lab.faults import Fault, FaultKind


@click.command("lab")
@click.argument("path", type=click.Path())
@click.option("--out", type=click.Path(dir_okay=False),
              help="devices file to write [default: lab-devices.yaml in the inventory's state "
                   "directory, outside the inventory]")
@click.option("--device", "patterns", multiple=True, metavar="GLOB",
              help="serve only matching devices (repeatable)")
@click.option("--limit", type=int, help="serve at most N devices")
@click.option("--lenient", is_flag=True, help="accept config lines the NOS grammar does not know")
@click.option("--vendor-data", type=click.Path(file_okay=False, exists=True),
              envvar="NETCFG_VENDOR_DATA",
              help="folder with the vendors' own data the emulators check against (junos-yang/,"
                   " sonic-yang/yang/, sonic-skus/sonic-buildimage/device/) and boot from "
                   "(factory/; docs/lab.md)")
@click.option("--fault", "faults", multiple=True, metavar="GLOB=KIND[:PHASE[:TIMES[:VALUE]]]",
              callback=lambda _ctx, _param, value: [parse_fault(v) for v in value],
              help="arm a fault on matching devices, e.g. 'core1=commit_error::1' or "
                   "'leaf*=slow:request::5' (VALUE: slow's delay in s, commit_error's message, "
                   "reboot_mid_commit's downtime; repeatable; kinds and phases: docs/lab.md)")
@click.option("--state-fault", "state_faults", multiple=True,
              callback=lambda _ctx, _param, value: _state_faults(value),
              metavar="KIND,DEVICE,ARG[,ARG]",
              help="an operational-state fault from the start, e.g. 'swap,leaf-su1-r1,"
                   "Ethernet9/1,Ethernet11/1', 'bgp_down,leaf-su1-r1,10.64.0.16', "
                   "'port_down,DEVICE,PORT', 'pfc_storm|pfc_off|lossless_drops,DEVICE,PORT' "
                   "(repeatable; docs/verify.md)")
def lab(path: str, out: str | None, patterns: tuple[str, ...], limit: int | None,
        lenient: bool, vendor_data: str | None, faults: list[tuple[str, Fault]],
        state_faults: list[tuple[str, tuple[str, ...]]]) -> None:
    """Serve emulated devices for an inventory on loopback until stopped (Ctrl-C)."""
    import yaml

    from netcfg.lab.device import DeviceSpec
    from netcfg.lab.lab import Lab
    from netcfg.lab.registry import supported
    from netcfg.lab.truth import vendor_options
    from netcfg.platforms import load_catalog
    from netcfg.validate import validate

    result = validate(path)
    if result.fabric is None:
        for f in result.findings:
            click.echo(f"{f.severity}: {f.text()}", err=True)
        sys.exit(1)
    catalog = load_catalog()
    options = vendor_options(Path(vendor_data) if vendor_data else None)
    if not vendor_data:  # a rehearsal on the built-in states must not pass for a factory one
        click.echo("note: no --vendor-data: each emulator boots from its own minimal factory "
                   "state and checks its own tables only (docs/lab.md)", err=True)
    from netcfg.lab.oper import Wiring

    # operational state (links, LLDP, BGP) from the fabric's cabling: netcfg/lab/oper.py
    wiring = Wiring.from_fabric(result.fabric)
    username, password = "netcfg", secrets.token_urlsafe(12)
    specs: list[DeviceSpec] = []
    skipped: dict[str, int] = {}
    for name, device in result.fabric.devices.items():
        if not device.is_switch or device.platform not in catalog.platforms:
            continue
        if patterns and not any(fnmatch(name, p) for p in patterns):
            continue
        platform = catalog.platforms[device.platform]
        if platform.nos not in supported():
            skipped[platform.nos] = skipped.get(platform.nos, 0) + 1
            continue
        specs.append(DeviceSpec(name, platform.nos, username=username, password=password,
                                interfaces=[p.name for p in device.ports], model=platform.model,
                                version=device.release, strict=not lenient,
                                options={**options, "oper": wiring}))
        if limit is not None and len(specs) >= limit:
            break
    for nos, count in sorted(skipped.items()):
        click.echo(f"warning: {count} {nos} device(s) not served (no {nos} emulator yet)", err=True)
    if not specs:
        click.echo("netcfg: no device to serve", err=True)
        sys.exit(1)
    if out:
        target = Path(out)
        try:  # never over an intent or a file of the user's: a new file, or a lab's own
            check_output(target, _ours)
        except OSError as exc:
            click.echo(f"netcfg: --out {exc.filename}: {exc.strerror}", err=True)
            sys.exit(1)
    else:  # beside the runs, out of the inventory's repository: the file holds lab passwords
        from netcfg.deploy.runs import default_state, private_dir

        target = private_dir(default_state(Path(path))) / "lab-devices.yaml"
    stopped = _stop_signals()  # from here on: Ctrl-C during the start stops right after it
    click.echo(f"starting {len(specs)} device(s)...", err=True)
    try:
        running = Lab(specs, realtime=True).start()
        wiring.bind(running)
        for kind, args in state_faults:
            running.call(getattr(wiring, kind), *args)
            click.echo(f"state fault: {kind} {' '.join(args)}", err=True)
    except ValueError as exc:  # e.g. more devices than the lab has loopback addresses for
        click.echo(f"netcfg: {exc}", err=True)
        sys.exit(1)
    try:
        for pattern, fault in faults:
            matched = [s.name for s in specs if fnmatch(s.name, pattern)]
            if not matched:
                click.echo(f"warning: --fault {pattern}: no served device matches", err=True)
            for name in matched:
                running[name].inject(fault.kind, phase=fault.phase, times=fault.times,
                                     delay=fault.delay, message=fault.message,
                                     downtime=fault.downtime)
                click.echo(f"fault armed on {name}: {fault.kind.value} at {fault.phase}"
                           + ("" if fault.times is None else f", {fault.times} time(s)")
                           + (f", {fault.delay:g} s delay" if fault.delay else ""),
                           err=True)
        written = _write(target, running.inventory(), yaml)
        try:
            click.echo(f"serving {len(specs)} device(s) on loopback; devices file: {target}")
            click.echo("press Ctrl-C to stop", err=True)
            stopped()
        finally:
            _remove_if_ours(target, written)
    finally:
        running.stop()
    click.echo("lab stopped", err=True)


def _stop_signals() -> Callable[[], None]:
    """Take SIGINT and SIGTERM from now on; returns the call that blocks until one has come
    (at once if one came already).

    The handler does nothing but let the interpreter write the signal's number into a pipe
    (`signal.set_wakeup_fd`), which the returned call reads. A handler that set a
    `threading.Event` the main thread waits on could deadlock: `Event.wait` holds the event's
    lock (not re-entrant) for a few bytecodes before it blocks, and a handler run between
    them blocks on that lock in the same thread for ever (a Ctrl-C just as the lab started
    serving hung it, about once in 300)."""
    import os

    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end)
    wanted = {signal.SIGINT, signal.SIGTERM}
    for sig in wanted:
        signal.signal(sig, lambda *_: None)

    def stopped() -> None:
        while os.read(read_end, 1)[0] not in wanted:
            pass

    return stopped


def _state_faults(value: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    from netcfg.lab.oper import parse_state_fault

    try:
        return [parse_state_fault(v) for v in value]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


#: what the fourth field of --fault sets, per kind
_VALUE = {FaultKind.SLOW: "delay", FaultKind.COMMIT_ERROR: "message",
          FaultKind.REBOOT_MID_COMMIT: "downtime"}


def parse_fault(text: str) -> tuple[str, Fault]:
    """'GLOB=KIND[:PHASE[:TIMES[:VALUE]]]' -> (GLOB, Fault); an empty PHASE keeps the kind's
    default. VALUE is the slow kind's delay in seconds (required: a slow fault without one
    delays nothing), commit_error's message, reboot_mid_commit's downtime in lab seconds."""
    glob, sep, spec = text.partition("=")
    kind, phase, times, value = (spec.split(":", 3) + ["", "", ""])[:4]
    try:
        if not sep or not glob or not kind:
            raise ValueError("expected GLOB=KIND[:PHASE[:TIMES[:VALUE]]]")
        try:
            fault_kind = FaultKind(kind)
        except ValueError:
            raise ValueError(f"unknown fault kind {kind!r}; allowed: "
                             + ", ".join(k.value for k in FaultKind)) from None
        if times and not (times.isdigit() and int(times) > 0):
            raise ValueError(f"TIMES must be a whole number above 0, not {times!r}")
        field = _VALUE.get(fault_kind)
        if value and field is None:
            raise ValueError(f"{kind} takes no VALUE; expected GLOB=KIND[:PHASE[:TIMES]]")
        options: dict[str, Any] = {}
        if field == "message" and value:
            options["message"] = value
        elif field in ("delay", "downtime"):
            if fault_kind == FaultKind.SLOW and not value:
                raise ValueError("slow needs its delay in seconds as VALUE, e.g. "
                                 f"'{glob}=slow:request::5'")
            if value:
                try:
                    seconds = float(value)
                except ValueError:
                    seconds = -1.0
                if not 0 < seconds <= 86400:
                    raise ValueError(f"VALUE must be seconds above 0, not {value!r}")
                options[field] = seconds
        return glob, Fault(fault_kind, phase=phase, times=int(times) if times else None,
                           **options)
    except ValueError as exc:
        raise click.BadParameter(f"{text!r}: {exc}", param_hint="--fault") from None


#: the first line of every devices file the lab writes: how a later lab knows the file is its own
HEADER = "# written by `netcfg lab`; valid while the lab runs (credentials are per run)\n"


def _ours(head: bytes) -> bool:
    return head.startswith(HEADER.encode())


def _write(target: Path, inventory: dict[str, Any], yaml: Any) -> tuple[int, int, bytes] | None:
    """Write the devices file; returns the identity of what the lab wrote: its (device,
    inode) and its bytes (None where it was printed: nothing to remove at exit)."""
    from netcfg.fsutil import write_output

    text = HEADER + yaml.safe_dump(inventory, sort_keys=False)
    write_output(target, text, _ours)
    if str(target) == "-":
        return None
    info = target.stat()
    return info.st_dev, info.st_ino, text.encode()


def _remove_if_ours(target: Path, written: tuple[int, int, bytes] | None) -> None:
    """Remove the devices file at exit only while it is still the one this lab wrote: the
    same inode with the same bytes (a file someone put there meanwhile is theirs, even where
    the file system gives it the inode the lab's file had)."""
    if written is None:
        return
    try:
        info = target.lstat()
        same = (info.st_dev, info.st_ino) == written[:2] and target.read_bytes() == written[2]
    except OSError:
        return
    if same:
        target.unlink(missing_ok=True)
