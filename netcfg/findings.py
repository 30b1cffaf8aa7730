"""Findings: the one shape every check reports in (CLI, JSON, later SARIF/JUnit).

A finding points at the intent value at fault (file, line, column) so a user, an editor or a
code-scanning UI can jump straight to it.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Position:
    """A place in a source file; line and column are 1-based, as editors count them."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or note) about the intent, a device or a port."""

    rule: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    device: str | None = None
    interface: str | None = None
    path: str | None = None

    @classmethod
    def at(
        cls,
        rule: str,
        message: str,
        pos: Position | None,
        *,
        path: str | None = None,
        severity: Severity = "error",
        device: str | None = None,
        interface: str | None = None,
    ) -> Finding:
        return cls(
            rule=rule,
            severity=severity,
            message=message,
            file=pos.file if pos else None,
            line=pos.line if pos else None,
            column=pos.column if pos else None,
            device=device,
            interface=interface,
            path=path,
        )

    def location(self) -> str:
        if self.file is None:
            return ""
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"

    def text(self) -> str:
        """`file:line:col: path: message [RULE]`, the format compilers and editors understand."""
        parts = [p for p in (self.location(), self.path) if p]
        where = ": ".join(parts)
        subject = ""
        if self.device:
            subject = f"{self.device}{':' + self.interface if self.interface else ''}: "
        prefix = f"{where}: " if where else ""
        return one_line(f"{prefix}{subject}{self.message} [{self.rule}]")

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


#: what would end or hide a printed line: C0/C1 controls (newline, carriage return, escape),
#: DEL and the Unicode line and paragraph separators
_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """`text` with every line break or control character written as its escape (`\\n`): a
    finding is one line whatever a name or value in it holds, so a name with a newline cannot
    split it or forge a line of its own."""
    return _BREAKS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class IntentError(Exception):
    """Raised when the intent cannot be used; carries every finding found so far."""

    def __init__(self, findings: list[Finding]):
        super().__init__("\n".join(f.text() for f in findings))
        self.findings = findings


@dataclass(frozen=True, slots=True)
class Rule:
    """A check's identity for registries and docs: stable id, severity, summary, why, source."""

    id: str
    severity: Severity
    summary: str
    rationale: str
    source: str
