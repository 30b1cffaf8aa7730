"""`lint(path)`: every check netcfg knows, as one list of findings with waivers applied.

Order: load + schema + references + physics + render capabilities (`validate`), then the
DevicePlans of every switch (the numbers the templates would print; nothing is rendered), the
deadlock check at the chosen depth, the cross-device rules on the plans, and the routing-design
rules on what each NOS states of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from netcfg.findings import Finding
from netcfg.lint import consistency, raw, routing, waive
from netcfg.lint.registry import all_rules
from netcfg.validate import Validation, validate

SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass
class LintResult:
    fabric: str | None
    results: list[waive.Checked]
    deadlock: dict[str, Any] | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    #: info findings (waived or not) left out of `results` by `quiet()`: the report says how
    #: many, so a reader knows there is more
    hidden: int = 0

    def quiet(self) -> LintResult:
        """The same result without its info findings (`--quiet`): notes explain, they never
        fail the gate, so leaving them out changes no exit code."""
        kept = [c for c in self.results if c.finding.severity != "info"]
        return replace(self, results=kept, hidden=self.hidden + len(self.results) - len(kept))

    def failing(self, fail_on: str) -> list[waive.Checked]:
        """Unwaived findings at or above `fail_on` (error | warning)."""
        floor = SEVERITY_RANK[fail_on]
        return [c for c in self.results
                if not c.waived and SEVERITY_RANK[c.finding.severity] >= floor]


def lint(path: str | Path | None, *, failures: int = 0, deadlock: bool = True,
         progress: Callable[[str], None] | None = None,
         validation: Validation | None = None) -> LintResult:
    """Run every rule; never raises for bad input (problems are findings). `validation`: an
    intent already validated (netcfg.api's in-memory ones), instead of reading `path`."""
    say = progress or (lambda _msg: None)
    times: dict[str, float] = {}
    t = time.perf_counter()
    say("validate")
    if validation is None:
        assert path is not None
        validation = validate(path)
    v = validation
    times["validate"] = time.perf_counter() - t
    # waivers are applied once below, with SUP001/SUP002 for those that match nothing
    findings: list[Finding] = list(v.findings) + [c.finding for c in v.waived]
    fabric = v.fabric
    report_dict = None
    if fabric is not None and v.physics is not None:
        from netcfg.render.plan import PlanBuilder

        t = time.perf_counter()
        say("plans")
        builder = PlanBuilder(fabric, v.physics)
        plans = {dev.name: builder.plan(dev) for dev in fabric.switches()}
        times["plans"] = time.perf_counter() - t
        report = None
        if deadlock:
            from netcfg.deadlock.check import check

            t = time.perf_counter()
            say(f"deadlock (failures={failures})")
            report = check(fabric, failures=failures)
            findings += report.findings
            report_dict = {"verdict": report.verdict, "failures": failures,
                           "model": report.model, "seconds": round(report.seconds, 3)}
            times["deadlock"] = time.perf_counter() - t
        t = time.perf_counter()
        say("consistency")
        findings += consistency.check(fabric, plans, report)
        times["consistency"] = time.perf_counter() - t
        t = time.perf_counter()
        say("routing")
        findings += routing.check(fabric, plans)
        times["routing"] = time.perf_counter() - t
        t = time.perf_counter()
        say("raw config")
        findings += raw.check(fabric, plans)
        times["raw config"] = time.perf_counter() - t
    loaded = fabric.loaded if fabric is not None else None
    results = consistency.merge(waive.apply(loaded, findings, set(all_rules())))
    results.sort(key=_order)
    return LintResult(fabric.name if fabric else None, results, report_dict, times)


def _order(c: waive.Checked) -> tuple:
    f = c.finding
    return (f.rule, f.device or "", f.file or "", f.line or 0, f.column or 0, f.message)
