"""Apply the intent's `waivers:` to findings: matched findings are kept but marked waived.

A waiver that matches nothing is itself reported (SUP001): it is either stale or misspelt, and
either way it no longer documents a real exception.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from netcfg.findings import Finding, Rule
from netcfg.intent.load import LoadedIntent
from netcfg.intent.waivers import Waiver

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("SUP001", "warning", "a waiver matches no finding",
         "a stale or misspelt waiver documents an exception that no longer exists",
         "netcfg lint (waivers)"),
    Rule("SUP002", "error", "a waiver names a rule netcfg does not have",
         "the waiver can never apply; the rule id is probably misspelt", "netcfg lint (waivers)"),
)}


@dataclass(frozen=True, slots=True)
class Checked:
    """A finding and the waiver that accepts it (None: it counts)."""

    finding: Finding
    waiver: Waiver | None = None
    waiver_index: int | None = None

    @property
    def waived(self) -> bool:
        return self.waiver is not None


def _matches(w: Waiver, f: Finding) -> bool:
    if f.rule != w.rule:
        return False
    if w.devices:
        name = f.device
        if any(g == "*" or (name is not None and fnmatch.fnmatchcase(name, g)) for g in w.devices):
            return True
    if w.ports and f.device is not None and f.interface is not None:
        port = f"{f.device}:{f.interface}"
        if any(fnmatch.fnmatchcase(port, g) for g in w.ports):
            return True
    return False


def match(loaded: LoadedIntent | None, findings: list[Finding]) -> list[Checked]:
    """Each finding with the first waiver of the intent that accepts it (if any). Every
    command that judges findings uses this, so a waiver means the same in validate, render,
    push and lint."""
    waivers = loaded.intent.waivers if loaded is not None else []
    out: list[Checked] = []
    for f in findings:
        hit = next((i for i, w in enumerate(waivers) if _matches(w, f)), None)
        out.append(Checked(f) if hit is None else Checked(f, waivers[hit], hit))
    return out


def apply(loaded: LoadedIntent | None, findings: list[Finding],
          known: set[str]) -> list[Checked]:
    """Mark waived findings; add SUP001/SUP002 for waivers that cannot or did not apply."""
    waivers = loaded.intent.waivers if loaded is not None else []
    out = match(loaded, findings)
    used = {c.waiver_index for c in out if c.waiver_index is not None}
    assert loaded is not None or not waivers
    for i, w in enumerate(waivers):
        if w.rule not in known:
            out.append(Checked(loaded.finding(  # type: ignore[union-attr]
                "SUP002", f"waiver for unknown rule {w.rule}; see `netcfg lint --list-rules`",
                ("waivers", i, "rule"))))
        elif i not in used:
            scope = ", ".join(w.devices + w.ports)
            out.append(Checked(loaded.finding(  # type: ignore[union-attr]
                "SUP001", f"waiver for {w.rule} on {scope} matches no finding; remove it",
                ("waivers", i), severity="warning")))
    return out
