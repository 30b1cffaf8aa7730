"""`netcfg verify` reports in lint's formats (netcfg/lint/formats.py): text, json, sarif,
junit, github. JSON and JUnit list every check, passed or failed; SARIF and GitHub carry the
failed ones (code scanning shows problems, not passes). Findings point at the intent file
(code scanning needs a file) and name the switch and port as SARIF logical locations.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from xml.etree import ElementTree as ET

from netcfg.lint import formats
from netcfg.lint.run import LintResult
from netcfg.lint.waive import Checked
from netcfg.verify.checks import Check
from netcfg.verify.rules import RULES
from netcfg.verify.run import DeviceReport, VerifyResult


def summary(result: VerifyResult) -> str:
    total, failed = result.total(), result.failed()
    warnings = sum(1 for c in failed if c.severity != "error")
    bad = result.unverified_devices()
    verdict = {0: "pass", 1: "fail"}.get(result.exit_code, "device error")
    return (f"{len(result.devices)} switch(es), {total} check(s), {len(failed) - warnings} "
            f"failed" + (f", {warnings} warning(s)" if warnings else "")
            + (f", {len(bad)} not verified ({', '.join(bad[:5])})" if bad else "")
            + f": {verdict}")


def text(result: VerifyResult, colour: Callable[[str, str], str]) -> str:
    """Per switch: each rule's count of passed checks, then every failed check."""
    lines: list[str] = []
    for d in result.devices:
        # errors first, then warnings; within a rule the worst (most pause frames) first
        failed = sorted((c for c in d.checks if not c.ok),
                        key=lambda c: (c.severity != "error", -c.amount))
        warned = sum(1 for c in failed if c.severity != "error")
        head = (f"{d.device} ({d.nos}): {len(d.checks)} check(s), {len(failed) - warned} failed"
                + (f", {warned} warning(s)" if warned else ""))
        lines.append(colour(head, "red" if len(failed) > warned else "yellow" if warned
                            else "green"))
        passed: dict[str, int] = defaultdict(int)
        for c in d.checks:
            if c.ok:
                passed[c.rule] += 1
        for rule in sorted(passed):
            lines.append(f"  ok    {rule} {_holds(rule)}: {passed[rule]}")
        for c in failed:
            where = f"{c.interface}: " if c.interface else ""
            error = c.severity == "error"
            lines.append(colour(f"  {'FAIL' if error else 'WARN'}  {c.rule} {where}{c.message}",
                                "red" if error else "yellow"))
        for what in d.not_checked:
            lines.append(f"  not checked: {what}")
    lines.append(summary(result))
    return "\n".join(lines)


#: what a passed check of each rule says, for the text report's counts
_HOLDS = {"VFY001": "running config is the rendered one",
          "VFY002": "LLDP neighbour as planned", "VFY003": "LLDP neighbour present",
          "VFY004": "planned port up", "VFY005": "planned speed", "VFY006": "planned MTU",
          "VFY007": "BGP session established", "VFY008": "BGP session configured",
          "VFY009": "peer's own prefixes received",
          "VFY010": "lossless queue watched by the PFC watchdog",
          "VFY011": "no PFC storm", "VFY012": "PFC pauses within the threshold",
          "VFY013": "no drop on a lossless queue",
          "VFY014": "server subnet on every planned path",
          "VFY021": "ECN marking on the planned queue",
          "VFY022": "prefixes within what the plan announces",
          "VFY023": "prefixes within the switch's limit",
          "VFY024": "lossless PG headroom as derived or more"}


def _holds(rule: str) -> str:
    return _HOLDS.get(rule, RULES[rule].summary)


def as_json(result: VerifyResult) -> str:
    return "".join(json_chunks(result))


def json_chunks(result: VerifyResult) -> Iterator[str]:
    """The JSON report a switch at a time, in the switches' order: the text
    `json.dumps(document, indent=2)` writes for the whole document, byte for byte, without
    the document (at gpu32768, 1.97 million checks: 4 GiB as one object). Each switch's
    report is unpacked, written and dropped before the next."""
    head = json.dumps({"fabric": result.fabric, "ok": result.exit_code == 0,
                       "exit_code": result.exit_code, "summary": summary(result),
                       "seconds": round(result.seconds, 3)}, indent=2)
    yield head[:-2] + ",\n  \"devices\": "
    yield from _items(({"device": d.device, "nos": d.nos, "errors": d.errors,
                        "not_checked": d.not_checked, "seconds": round(d.seconds, 3),
                        "checks": [_check(c) for c in d.checks]} for d in result.devices), 1)
    yield ",\n  \"findings\": "
    yield from _items((f.as_dict() | {"file": formats.relative(f.file)}
                       for f in result.findings()), 1)
    yield "\n}"


def _items(items: Iterable[object], depth: int) -> Iterator[str]:
    """A JSON array of `items` as json.dumps(..., indent=2) writes it at nesting `depth`
    (the array's key at that depth), one item a chunk. json.dumps escapes every newline
    inside a string, so each line of an item's text is indented alike."""
    inner = "\n" + "  " * (depth + 1)
    first = True
    for item in items:
        yield ("[" if first else ",") + inner + json.dumps(item, indent=2).replace("\n", inner)
        first = False
    yield "[]" if first else "\n" + "  " * depth + "]"


def _check(c: Check) -> dict[str, object]:
    return {"rule": c.rule, "severity": c.severity, "interface": c.interface, "ok": c.ok,
            "message": c.message}


def _as_lint(result: VerifyResult) -> LintResult:
    return LintResult(result.fabric, [Checked(f) for f in result.findings()])


def sarif(result: VerifyResult) -> str:
    """Lint's SARIF of the failed checks, with the VFY rules' descriptors (they are in the
    one registry, so every rule has its metadata)."""
    return formats.sarif(_as_lint(result), result.file)


def sarif_chunks(result: VerifyResult) -> Iterator[str]:
    """`sarif`, a finding at a time (lint's writer, formats.sarif_chunks)."""
    return formats.sarif_chunks(_as_lint(result), result.file)


def github(result: VerifyResult) -> str:
    return formats.github(_as_lint(result), result.file)


def junit(result: VerifyResult) -> str:
    return "".join(junit_chunks(result))


def junit_chunks(result: VerifyResult) -> Iterator[str]:
    """JUnit XML (Jenkins' junit-10.xsd, as lint's): a testsuite per switch, a testcase per
    check, `<failure>` for a failed error (a warning passes with its text, so the report
    and the exit code agree); a switch that could not be verified fails its VFY020 case.
    Written a suite at a time, in the switches' order: what ElementTree writes for the whole
    tree once `ET.indent`ed, byte for byte, without the tree (the root's counts come from
    the result's count of checks and its failed ones, which it keeps)."""
    failed = sum(1 for c in result.failed() if c.severity == "error")
    root = ET.Element("testsuites", name="netcfg verify")
    root.attrib.update(tests=str(result.total()), failures=str(failed), errors="0",
                       time=f"{result.seconds:.3f}")
    empty = ET.tostring(root, encoding="unicode")
    file = formats.relative(result.file)
    suites = iter(result.devices)
    first = next(suites, None)
    if first is None:
        yield '<?xml version="1.0" encoding="UTF-8"?>\n' + empty
        return
    yield '<?xml version="1.0" encoding="UTF-8"?>\n' + empty[:-len(" />")] + ">"
    for d in itertools.chain([first], suites):
        yield "\n  " + ET.tostring(_suite(d, file), encoding="unicode")
    yield "\n</testsuites>"


def _suite(d: DeviceReport, file: str | None) -> ET.Element:
    """One switch's testsuite, indented as the second level of the document."""
    suite = ET.Element("testsuite", name=d.device, hostname=d.device)
    n = bad = 0
    for c in d.checks:
        attrs = {"classname": f"netcfg.verify.{d.device}.{c.rule}",
                 "name": f"{c.rule} {c.subject}", "time": "0"}
        if file:
            attrs["file"] = file
        case = ET.SubElement(suite, "testcase", attrs)
        n += 1
        if c.ok or c.severity != "error":  # a warning passes, as below lint's gate
            ET.SubElement(case, "system-out").text = (
                c.message if c.ok else f"{c.severity}: {c.message}")
        else:
            ET.SubElement(case, "failure", type="error",
                          message=c.message).text = f"{c.subject}: {c.message}"
            bad += 1
    suite.attrib.update(tests=str(n), failures=str(bad), errors="0", skipped="0",
                        time=f"{d.seconds:.3f}")
    ET.indent(suite, level=1)
    return suite


def render(result: VerifyResult, fmt: str, colour: Callable[[str, str], str]) -> str:
    return "".join(chunks(result, fmt, colour))


def chunks(result: VerifyResult, fmt: str, colour: Callable[[str, str], str]
           ) -> Iterator[str]:
    """The report in `fmt` as it is written: JSON and JUnit a switch at a time, SARIF a
    finding at a time (`--output` and stdout take it chunk by chunk); text and GitHub's
    lines whole (they hold counts and the failed checks only)."""
    if fmt == "json":
        return json_chunks(result)
    if fmt == "sarif":
        return sarif_chunks(result)
    if fmt == "junit":
        return junit_chunks(result)
    return iter([github(result) if fmt == "github" else text(result, colour)])
