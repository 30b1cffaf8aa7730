"""Lint reports in the formats CI systems display natively: text, json, sarif, junit, github.

Paths in machine formats are relative to the working directory (the repository root in CI), so
GitHub code scanning and GitLab annotate the YAML line itself.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree as ET

from netcfg.findings import Finding, Rule
from netcfg.lint.registry import all_rules, layers
from netcfg.lint.run import LintResult
from netcfg.lint.waive import Checked

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _version() -> str:
    try:
        return version("netcfg")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def relative(file: str | None, base: Path | None = None) -> str | None:
    """`file` relative to `base` (default: the working directory), with '/' separators."""
    if file is None:
        return None
    base = (base or Path.cwd()).resolve()
    path = Path(file)
    resolved = path if path.is_absolute() else (Path.cwd() / path)
    try:
        rel = Path(os.path.relpath(resolved.resolve(), base))
    except ValueError:  # another drive (Windows)
        return PurePosixPath(path).as_posix()
    if rel.parts and rel.parts[0] == "..":
        return path.as_posix() if not path.is_absolute() else resolved.as_posix()
    return rel.as_posix()


# --------------------------------------------------------------------------- text


def text(result: LintResult, fail_on: str, colour: Callable[[str, str], str]) -> str:
    """Findings grouped by rule, then device; a summary line and the gate's verdict."""
    rules = all_rules()
    colours = {"error": "red", "warning": "yellow", "info": "blue"}
    by_rule: dict[str, list[Checked]] = defaultdict(list)
    for c in result.results:
        by_rule[c.finding.rule].append(c)
    lines: list[str] = []
    for rule_id in sorted(by_rule):
        items = by_rule[rule_id]
        rule = rules.get(rule_id)
        sev = items[0].finding.severity
        head = f"{rule_id} {sev}" + (f": {rule.summary}" if rule else "")
        lines.append(colour(head, colours[sev]))
        by_dev: dict[str, list[Checked]] = defaultdict(list)
        for c in items:
            by_dev[c.finding.device or "(fabric)"].append(c)
        for dev in sorted(by_dev):
            lines.append(f"  {dev}")
            for c in by_dev[dev]:
                f = c.finding
                where = f.location()
                iface = f"{f.interface}: " if f.interface else ""
                waived = colour(f" [waived: {c.waiver.reason}]", "cyan") if c.waiver else ""
                lines.append(f"    {where + ': ' if where else ''}{iface}{f.message}{waived}")
    lines.append(summary(result, fail_on))
    return "\n".join(lines)


def summary(result: LintResult, fail_on: str) -> str:
    counts = {"error": 0, "warning": 0, "info": 0}
    waived = 0
    for c in result.results:
        if c.waived:
            waived += 1
        else:
            counts[c.finding.severity] += 1
    gate = "fail" if result.failing(fail_on) else "pass"
    return (f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} "
            f"note(s), {waived} waived: {gate} (--fail-on {fail_on})")


# --------------------------------------------------------------------------- json


def as_json(result: LintResult, fail_on: str) -> str:
    items = []
    for c in result.results:
        d = c.finding.as_dict()
        d["file"] = relative(c.finding.file)
        d["waived"] = c.waived
        d["waiver_reason"] = c.waiver.reason if c.waiver else None
        items.append(d)
    return json.dumps({
        "fabric": result.fabric,
        "ok": not result.failing(fail_on),
        "fail_on": fail_on,
        "deadlock": result.deadlock,
        "summary": summary(result, fail_on),
        "findings": items,
    }, indent=2)


# --------------------------------------------------------------------------- sarif


def _sarif_rule(rule: Rule, layer: str) -> dict:
    return {
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary}: {rule.rationale}"},
        "help": {"text": f"{rule.rationale} (source: {rule.source})"},
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"tags": ["netcfg", layer], "source": rule.source},
    }


def _fingerprint(f: Finding) -> str:
    key = "\0".join(str(x) for x in (f.rule, f.path, f.device, f.interface))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def sarif(result: LintResult, fallback_file: str | None = None) -> str:
    """SARIF 2.1.0: rule metadata, and a file:line region for every result (findings without
    a position point at the intent file's first line, since code scanning needs a location)."""
    rules = all_rules()
    layer = layers()
    used = sorted({c.finding.rule for c in result.results} | set(rules))
    index = {rid: i for i, rid in enumerate(used)}
    descriptors = [_sarif_rule(rules[rid], layer.get(rid, "lint")) if rid in rules else
                   {"id": rid, "shortDescription": {"text": rid}} for rid in used]
    results = []
    for c in result.results:
        f = c.finding
        file = relative(f.file or fallback_file)
        res: dict = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "partialFingerprints": {"netcfgFinding/v1": _fingerprint(f)},
        }
        if file:
            region = {"startLine": f.line or 1}
            if f.column:
                region["startColumn"] = f.column
            loc: dict = {"physicalLocation": {
                "artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"}, "region": region}}
            if f.device:
                name = f.device + (f":{f.interface}" if f.interface else "")
                loc["logicalLocations"] = [{"fullyQualifiedName": name, "kind": "object"}]
            res["locations"] = [loc]
        props = {k: v for k, v in (("device", f.device), ("interface", f.interface),
                                   ("path", f.path)) if v}
        if props:
            res["properties"] = props
        if c.waiver is not None:
            res["suppressions"] = [{"kind": "inSource", "justification": c.waiver.reason}]
        results.append(res)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "netcfg", "version": _version(),
                                "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2)


# --------------------------------------------------------------------------- junit


def junit(result: LintResult) -> str:
    """One testcase per rule; one <failure> per unwaived finding; waived ones in system-out."""
    rules = all_rules()
    layer = layers()
    by_rule: dict[str, list[Checked]] = defaultdict(list)
    for c in result.results:
        by_rule[c.finding.rule].append(c)
    suite = ET.Element("testsuite", name="netcfg lint", timestamp="", hostname="netcfg")
    failures = 0
    ids = sorted(set(rules) | set(by_rule))
    for rid in ids:
        rule = rules.get(rid)
        group = layer.get(rid, "lint").replace(" ", "_")
        case = ET.SubElement(suite, "testcase", classname=f"netcfg.lint.{group}",
                             name=f"{rid}: {rule.summary}" if rule else rid, time="0")
        waived = []
        for c in by_rule.get(rid, []):
            f = c.finding
            where = ":".join(str(x) for x in (relative(f.file), f.line, f.column) if x)
            subject = f"{f.device}{':' + f.interface if f.interface else ''}" if f.device else ""
            body = " ".join(x for x in (where, subject) if x)
            if c.waived:
                waived.append(f"waived ({c.waiver.reason}): {body} {f.message}")  # type: ignore[union-attr]
                continue
            failures += 1
            el = ET.SubElement(case, "failure", type=f.severity, message=f.message)
            el.text = f"{body}\n{f.message}" if body else f.message
        if waived:
            ET.SubElement(case, "system-out").text = "\n".join(waived)
    suite.set("tests", str(len(ids)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", "0")
    total = sum(result.seconds.values())
    suite.set("time", f"{total:.3f}")
    root = ET.Element("testsuites", name="netcfg lint", tests=str(len(ids)),
                      failures=str(failures), errors="0", time=f"{total:.3f}")
    del suite.attrib["timestamp"]
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


# --------------------------------------------------------------------------- github


def escape_data(s: str) -> str:
    """Workflow command message: %, CR and LF are percent-encoded."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    """Workflow command property: also ':' and ',' (they delimit properties)."""
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github(result: LintResult, fallback_file: str | None = None) -> str:
    """`::error file=F,line=L,col=C,title=RULE::message` per finding; waived ones as notices."""
    lines = []
    for c in result.results:
        f = c.finding
        level = "notice" if c.waived else GITHUB_LEVEL[f.severity]
        props = []
        file = relative(f.file or fallback_file)
        if file:
            props.append(f"file={escape_property(file)}")
            props.append(f"line={f.line or 1}")
            if f.column:
                props.append(f"col={f.column}")
        title = f.rule + (" (waived)" if c.waived else "")
        props.append(f"title={escape_property(title)}")
        subject = f"{f.device}{':' + f.interface if f.interface else ''}: " if f.device else ""
        msg = subject + f.message
        if c.waiver is not None:
            msg += f" [waived: {c.waiver.reason}]"
        lines.append(f"::{level} {','.join(props)}::{escape_data(msg)}")
    return "\n".join(lines)
