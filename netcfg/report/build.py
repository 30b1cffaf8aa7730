"""Everything a pull request's report says, gathered once for both outputs (Markdown, HTML).

The working tree's intent is linted as `netcfg lint` lints it (waivers applied, the deadlock
proof at `--failures`); the base's is linted too, so that a finding the change brings is
marked new. `netcfg verify`'s JSON report (`--verify FILE`), when given, adds what the
switches last said.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from netcfg.lint.run import LintResult, lint
from netcfg.report.changes import FabricDiff, compare_fabrics
from netcfg.report.gitref import checkout_of
from netcfg.validate import Validation, validate


class VerifyFileError(Exception):
    """`--verify FILE` is not a report `netcfg verify --format json` wrote."""


@dataclass(frozen=True)
class LintRow:
    rule: str
    severity: str
    message: str
    where: str
    #: the waiver's reason; None: the finding counts
    waived: str | None
    #: the base's intent does not have this finding
    new: bool


@dataclass(frozen=True)
class VerifySaid:
    """What a `netcfg verify --format json` report says: its summary line, whether all held,
    the failed checks (switch, rule, port, message, severity) and the switches not verified."""

    file: str
    written: str
    fabric: str
    summary: str
    ok: bool
    failed: list[tuple[str, str, str, str, str]]
    unverified: list[tuple[str, str]]


@dataclass
class Report:
    fabric: str
    path: str
    base_ref: str
    base_commit: str
    #: None: the working tree's intent does not validate (its errors are in `lint`)
    diff: FabricDiff | None
    lint: list[LintRow] = field(default_factory=list)
    deadlock: dict[str, Any] | None = None
    base_deadlock: dict[str, Any] | None = None
    verify: VerifySaid | None = None
    #: what the reader should know about the comparison (no inventory at the base ...)
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.diff is not None

    def counts(self) -> dict[str, int]:
        """Unwaived findings by severity, and the waived ones."""
        out = {"error": 0, "warning": 0, "info": 0, "waived": 0}
        for row in self.lint:
            out["waived" if row.waived is not None else row.severity] += 1
        return out

    def disruptive(self) -> int:
        return sum(1 for d in self.diff.devices if d.disruptive) if self.diff else 0

    def as_dict(self) -> dict[str, Any]:
        return {"fabric": self.fabric, "path": self.path, "base": self.base_ref,
                "base_commit": self.base_commit, "valid": self.valid, "notes": self.notes,
                "switches": self.diff.switches if self.diff else None,
                "devices": [d.as_dict() for d in self.diff.devices] if self.diff else [],
                "hosts": [h.as_dict() for h in self.diff.hosts] if self.diff else [],
                "lint": [row.__dict__ for row in self.lint], "deadlock": self.deadlock,
                "base_deadlock": self.base_deadlock,
                "verify": None if self.verify is None else self.verify.__dict__}


def build(path: str, ref: str, failures: int = 0, verify_file: str | None = None) -> Report:
    """The report of the intent at `path` (working tree) against git revision `ref`.
    Raises gitref.RefError for a base that cannot be read, VerifyFileError for a bad
    `verify_file`."""
    said = read_verify(verify_file) if verify_file else None
    head = validate(path)
    head_lint = lint(path, failures=failures, validation=head)
    notes: list[str] = []
    with checkout_of(Path(path), ref) as base:
        base_valid: Validation | None = None
        base_lint: LintResult | None = None
        if base.path is None:
            notes.append(f"{path} does not exist at {ref}: every switch is new")
        else:
            base_valid = validate(base.path)
            if not base_valid.ok:
                notes.append(f"the intent at {ref} does not validate: every switch is shown "
                             "as new")
                base_valid = None
            else:
                base_lint = lint(base.path, failures=failures, validation=base_valid)
        diff = compare_fabrics(base_valid, head) if head.ok else None
    known = {_identity(c.finding) for c in base_lint.results} if base_lint else set()
    from netcfg.lint.formats import relative

    rows = []
    for c in head_lint.results:
        f = c.finding
        place = relative(f.file)
        where = ", ".join(p for p in (
            f"{f.device}{':' + f.interface if f.interface else ''}" if f.device else None,
            f"{place}:{f.line}" if place and f.line else place) if p)
        rows.append(LintRow(f.rule, f.severity, f.message, where,
                            c.waiver.reason if c.waiver is not None else None,
                            base_lint is not None and _identity(f) not in known))
    fabric = head.fabric.name if head.fabric else Path(path).name
    if said is not None and said.fabric != fabric:
        notes.append(f"{verify_file} is verify's report of fabric {said.fabric}, not {fabric}")
    return Report(fabric, path, ref, base.commit, diff, rows, head_lint.deadlock,
                  base_lint.deadlock if base_lint else None, said, notes)


#: how lint counts the switches or places a merged finding stands for (`leaf1 and 11 more
#: cumulus switches`, `(and 3 more)`): a switch added elsewhere changes the count, not the
#: finding
_MORE = re.compile(r"\band \d+ more\b")


def _identity(f: Any) -> tuple[str, str | None, str | None, str]:
    """A finding as the same on both sides: not its file (the base is elsewhere on disk),
    its line (an edit above moves it) or how many others it stands for."""
    return (f.rule, f.device, f.interface, _MORE.sub("and N more", f.message))


def read_verify(file: str) -> VerifySaid:
    """`netcfg verify --format json`'s report: what the switches last said."""
    try:
        doc = json.loads(Path(file).read_text(encoding="utf-8"))
        written = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(Path(file).stat().st_mtime))
    except OSError as exc:
        raise VerifyFileError(f"{file}: {exc.strerror}") from None
    except ValueError as exc:
        raise VerifyFileError(f"{file}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or not {"summary", "ok", "devices"} <= set(doc):
        raise VerifyFileError(f"{file}: not a report of `netcfg verify --format json`")
    failed, unverified = [], []
    for d in doc["devices"]:
        for e in d.get("errors") or []:
            unverified.append((str(d.get("device")), str(e)))
        for c in d.get("checks") or []:
            if not c.get("ok"):
                failed.append((str(d.get("device")), str(c.get("rule")),
                               str(c.get("interface") or ""), str(c.get("message")),
                               str(c.get("severity"))))
    return VerifySaid(file, written, str(doc.get("fabric")), str(doc["summary"]),
                      bool(doc["ok"]), failed, unverified)
