"""The deadlock proof as a gate in front of `render` and `push` (as `lint` runs it): configs
for a fabric whose lossless traffic can deadlock with every link up do not leave netcfg unless
the user says `--no-deadlock-check`, and then the output says the proof was skipped."""

from __future__ import annotations

from collections.abc import Callable

from netcfg.topology.fabric import Fabric

SKIPPED = "deadlock check skipped (--no-deadlock-check)"


def passes(fabric: Fabric, skip: bool, say: Callable[[str], None]) -> bool:
    """True when the no-failure proof holds (or was skipped, which `say` reports); False
    after printing each deadlock finding through `say`."""
    if skip:
        say(f"warning: {SKIPPED}")
        return True
    from netcfg.deadlock.check import check
    from netcfg.validate import collector_paused

    # the proof's network has a list per port: building it would set off collections that
    # walk the whole fabric again
    with collector_paused():
        report = check(fabric, failures=0)
    errors = [f for f in report.findings if f.severity == "error"]
    for f in report.findings:
        say(f"{f.severity}: {f.text()}")
    return not errors
