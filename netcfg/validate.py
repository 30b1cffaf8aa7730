"""`validate`: load + schema + references + topology expansion, as one function returning data."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from netcfg.findings import Finding, IntentError
from netcfg.intent.checks import check_fabric, check_intent
from netcfg.intent.load import LoadedIntent, load_intent
from netcfg.lint.prefixes import check as check_prefix_limits
from netcfg.lint.waive import Checked, match
from netcfg.physics import Physics, derive
from netcfg.physics.checks import check as check_physics
from netcfg.topology import build_fabric
from netcfg.topology.fabric import Fabric
from netcfg.vendors.checks import check as check_capabilities


@dataclass
class Validation:
    fabric: Fabric | None
    #: findings that count (no waiver of the intent accepts them)
    findings: list[Finding] = field(default_factory=list)
    physics: Physics | None = None
    #: findings the intent's `waivers:` accept, each with its waiver: reported, never failing
    waived: list[Checked] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.fabric is not None and not any(f.severity == "error" for f in self.findings)


def validate(path: str | Path) -> Validation:
    """Everything `netcfg validate` checks; never raises for bad input."""
    return validate_loaded(lambda: load_intent(path))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a fabric is built and checked.

    Expanding an intent makes objects that all live on (gpu32768: half a million ports,
    links, devices and their lists), and the collector's runs of its oldest generation walk
    every object alive, again as the heap grows: more than half of validate's CPU time at
    that size, a quarter at gpu2048's. Reference counting still frees whatever dies here;
    a cycle that becomes garbage meanwhile waits for the collector's next run after this.
    The collector is left as it was found (a caller that turned it off keeps it off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def validate_loaded(load: Callable[[], LoadedIntent]) -> Validation:
    """`validate` of an intent however it is loaded (a path, or texts: netcfg.api)."""
    with collector_paused():
        return _validated(load)


def _validated(load: Callable[[], LoadedIntent]) -> Validation:
    try:
        loaded = load()
        findings = check_intent(loaded)
        if any(f.severity == "error" for f in findings):
            return Validation(None, findings)
        fabric = build_fabric(loaded)
    except IntentError as exc:
        return Validation(None, exc.findings)
    findings += check_fabric(fabric)
    if any(f.severity == "error" for f in findings):
        # not waivable: physics and configs cannot be derived from a fabric that does not fit
        return Validation(fabric, findings)
    physics = derive(fabric)
    findings += check_physics(physics)
    findings += check_capabilities(fabric, physics)
    findings += check_prefix_limits(fabric)
    return _judged(Validation(fabric, findings, physics))


def _judged(result: Validation) -> Validation:
    """The intent's waivers applied: a finding a waiver accepts moves to `waived`. Only once
    the fabric is built and fits: schema, reference and topology errors leave nothing to
    derive or render, so no waiver lets them through."""
    assert result.fabric is not None
    checked = match(result.fabric.loaded, result.findings)
    result.findings = [c.finding for c in checked if not c.waived]
    result.waived = [c for c in checked if c.waived]
    return result


def quieted(result: Validation) -> tuple[Validation, int]:
    """`result` without its info findings (`--quiet`), and how many were left out (waived
    ones included). Notes never make an intent invalid, so `ok` is the same."""
    findings = [f for f in result.findings if f.severity != "info"]
    waived = [c for c in result.waived if c.finding.severity != "info"]
    hidden = len(result.findings) - len(findings) + len(result.waived) - len(waived)
    return replace(result, findings=findings, waived=waived), hidden


def waived_note(result: Validation) -> str | None:
    """The one line render, push and the other commands print about waived findings."""
    if not result.waived:
        return None
    errors = sum(1 for c in result.waived if c.finding.severity == "error")
    return (f"note: {len(result.waived)} finding(s) waived by the intent ({errors} error(s)); "
            "`netcfg validate` lists them with their reasons")
