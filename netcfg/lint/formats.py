"""Lint reports in the formats CI systems display natively: text, json, sarif, junit, github.

Paths in machine formats are relative to the root of the repository holding the intent (the
nearest directory upwards with a `.git`; the working directory when there is none), whatever
directory the command runs from, so GitHub code scanning and GitLab annotate the YAML line
itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree as ET

from netcfg.findings import Finding, Rule, one_line
from netcfg.lint.registry import all_rules, layers
from netcfg.lint.run import LintResult
from netcfg.lint.waive import Checked

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _version() -> str:
    """netcfg's version from its one place (an editable install's metadata can be stale)."""
    from netcfg import __version__

    return __version__


def repository_root(file: str | Path) -> Path:
    """The nearest directory at or above `file` holding `.git` (a directory, or a file in a
    worktree or submodule); the working directory when there is none."""
    start = (Path.cwd() / file).resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return Path.cwd()


def relative(file: str | None, base: Path | None = None) -> str | None:
    """`file` relative to `base` (default: the root of its repository), '/' separators."""
    if file is None:
        return None
    base = (base or repository_root(file)).resolve()
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
            lines.append(one_line(f"  {dev}"))
            for c in by_dev[dev]:
                f = c.finding
                where = f.location()
                iface = f"{f.interface}: " if f.interface else ""
                waived = colour(f" [waived: {c.waiver.reason}]", "cyan") if c.waiver else ""
                lines.append(one_line(f"    {where + ': ' if where else ''}{iface}{f.message}")
                             + waived)
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
    notes = (f"{result.hidden} note(s) hidden by --quiet" if result.hidden
             else f"{counts['info']} note(s)")
    return (f"{counts['error']} error(s), {counts['warning']} warning(s), {notes}, "
            f"{waived} waived: {gate} (--fail-on {fail_on})")


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
        "hidden_notes": result.hidden,
        "findings": items,
    }, indent=2)


# --------------------------------------------------------------------------- sarif


def rule_name(rule: Rule) -> str:
    """SARIF's readable rule name: the summary in upper camel case (`HeadroomOfASwitchDoes
    NotFitItsASICBuffer`), as the SARIF specification's examples name rules."""
    words = "".join(ch if ch.isalnum() else " " for ch in rule.summary).split()
    return "".join(w[:1].upper() + w[1:] for w in words) or rule.id


#: a reference to the research notes' own rule list (P1-P12, E1-E10, H1-H5) or to the
#: project's deadlock cases (C06/C07): ids a reader of a code-scanning alert cannot look up
_NOTE_ID = re.compile(r"^(?:[PEH][0-9]+|cases? C[0-9]+(?:/C[0-9]+)*)(?:\s*\(.*\))?$")


def public_source(source: str) -> str:
    """A rule's source as docs/rules.md gives it, without the research notes' ids: what is
    left names an outside reference (a standard, a paper, a vendor file) or nothing."""
    parts = []
    for part in source.split(";"):
        items = [i.strip() for i in part.split(",")]
        kept = [i for i in items if i and not _NOTE_ID.match(i)]
        if kept:
            parts.append(", ".join(kept))
    return "; ".join(parts)


def rule_help(rule: Rule) -> tuple[str, str]:
    """The rule's text as docs/rules.md has it (rule, why, source), as plain text and as
    Markdown: what a code-scanning UI shows under "Rule help"."""
    source = public_source(rule.source)
    why = rule.rationale.rstrip(".")
    text = f"{rule.summary}: {why}." + (f" Source: {source}." if source else "")
    markdown = (f"**{rule.id}** ({rule.severity}): {rule.summary}\n\n{why}."
                + (f"\n\nSource: {source}." if source else ""))
    return text, markdown


def _sarif_rule(rule: Rule, layer: str) -> dict:
    text, markdown = rule_help(rule)
    source = public_source(rule.source)
    return {
        "id": rule.id,
        "name": rule_name(rule),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary}: {rule.rationale}"},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"tags": ["netcfg", layer], **({"source": source} if source else {})},
    }


def _fingerprint(f: Finding) -> str:
    key = "\0".join(str(x) for x in (f.rule, f.path, f.device, f.interface))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def sarif(result: LintResult, fallback_file: str | None = None) -> str:
    """SARIF 2.1.0: rule metadata, and a file:line region for every result (findings without
    a position point at the intent file's first line, since code scanning needs a location)."""
    return "".join(sarif_chunks(result, fallback_file))


def sarif_chunks(result: LintResult, fallback_file: str | None = None) -> Iterator[str]:
    """`sarif` a result at a time: the text json.dumps(document, indent=2) writes, byte for
    byte, without the document of every result (a fleet's verify may fail hundreds of
    thousands of checks)."""
    rules = all_rules()
    layer = layers()
    used = sorted({c.finding.rule for c in result.results} | set(rules))
    index = {rid: i for i, rid in enumerate(used)}
    descriptors = [_sarif_rule(rules[rid], layer.get(rid, "lint")) if rid in rules else
                   {"id": rid, "shortDescription": {"text": rid}} for rid in used]
    head = json.dumps({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "netcfg", "version": _version(),
                                "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "results": [],
        }],
    }, indent=2)
    # the results are the last key of the one run: what follows them closes the document
    at = head.rindex('"results": []') + len('"results": ')
    yield head[:at]
    inner, first = "\n        ", True
    for c in result.results:
        res = _sarif_result(c, index, fallback_file)
        yield ("[" if first else ",") + inner + json.dumps(res, indent=2).replace("\n", inner)
        first = False
    yield ("[]" if first else "\n      ]") + head[at + len("[]"):]


def _sarif_result(c: Checked, index: dict[str, int], fallback_file: str | None) -> dict:
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
    return res


# --------------------------------------------------------------------------- junit


def junit(result: LintResult, fail_on: str = "error") -> str:
    """JUnit XML as Jenkins' xUnit schema (junit-10.xsd) and GitLab read it: one testcase per
    finding, with the file and line it points at; it fails (`<failure>`) only when the finding
    fails the gate (unwaived, at or above `fail_on`), so the report and the exit code agree.
    A finding below the gate passes with its text in system-out, a waived one is skipped with
    the waiver's reason, and a rule with no finding is one passing testcase."""
    rules = all_rules()
    layer = layers()
    failing = {id(c) for c in result.failing(fail_on)}
    by_rule: dict[str, list[Checked]] = defaultdict(list)
    for c in result.results:
        by_rule[c.finding.rule].append(c)
    suite = ET.Element("testsuite", name="netcfg lint", hostname="netcfg")
    tests = failures = skipped = 0
    # the verify rules are checked on running switches (`netcfg verify`), never by lint
    checked = {rid for rid in rules if layer.get(rid) != "verify"}
    for rid in sorted(checked | set(by_rule)):
        rule = rules.get(rid)
        classname = f"netcfg.lint.{layer.get(rid, 'lint').replace(' ', '_')}.{rid}"
        title = f"{rid}: {rule.summary}" if rule else rid
        found = by_rule.get(rid, [])
        if not found:
            ET.SubElement(suite, "testcase", classname=classname, name=title, time="0")
            tests += 1
        for c, name in zip(found, _case_names(rid, found)):
            f = c.finding
            attrs = {"classname": classname, "name": name, "time": "0"}
            file = relative(f.file)
            if file:
                attrs["file"] = file
                attrs["line"] = str(f.line or 1)
            case = ET.SubElement(suite, "testcase", attrs)
            tests += 1
            where = ":".join(str(x) for x in (file, f.line, f.column) if x)
            body = f"{where} {f.message}".strip()
            if c.waiver is not None:
                ET.SubElement(case, "skipped", message=f"waived: {c.waiver.reason}").text = body
                skipped += 1
            elif id(c) in failing:
                ET.SubElement(case, "failure", type=f.severity, message=f.message).text = body
                failures += 1
            else:
                ET.SubElement(case, "system-out").text = f"{f.severity}: {body}"
    total = sum(result.seconds.values())
    suite.attrib.update(tests=str(tests), failures=str(failures), errors="0",
                        skipped=str(skipped), time=f"{total:.3f}")
    root = ET.Element("testsuites", name="netcfg lint", tests=str(tests),
                      failures=str(failures), errors="0", time=f"{total:.3f}")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _case_names(rid: str, found: list[Checked]) -> list[str]:
    """One testcase name per finding, unique within the rule (CI systems key a test's
    history by its name, and merge or drop cases that share one): `RULE device[:port]`, then
    the message where several findings share that, then a count where even that repeats."""
    def subject(f: Finding) -> str:
        return f"{f.device}{':' + f.interface if f.interface else ''}" if f.device else "fabric"

    names = [f"{rid} {subject(c.finding)}" for c in found]
    shared = Counter(names)
    names = [n if shared[n] == 1 else f"{n}: {_shortened(one_line(c.finding.message))}"
             for n, c in zip(names, found)]
    shared = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for n in names:
        seen[n] += 1
        out.append(n if shared[n] == 1 else f"{n} ({seen[n]})")
    return out


def _shortened(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[:width - 3].rstrip() + "..."


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
