"""verify's JSON, JUnit and SARIF reports are written as they are made (a switch, or a finding,
at a time) so that a fleet's report is never one document in memory; what they write is byte
for byte what the whole-document writers of netcfg 0.4.0 wrote for the same result. Those
writers are copied below as the reference: the standard library's serialisers
(`json.dumps(..., indent=2)`, ElementTree after `ET.indent`) over the whole document. The
reports still pass the validators lint's tests use (the SARIF 2.1.0 schema, junit-10.xsd)."""

from __future__ import annotations

import hashlib
import json
import tracemalloc
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from lint.test_formats import SCHEMA, _xsd_valid

from netcfg.fsutil import marked
from netcfg.lint import formats
from netcfg.lint.registry import all_rules, layers
from netcfg.verify import report
from netcfg.verify.checks import Check
from netcfg.verify.cli import _write
from netcfg.verify.run import DeviceReport, Reports, VerifyResult

from .conftest import CORE, CUMULUS_LEAF, LEAF, SONIC_LEAF, SPINES, VerifyLab
from .test_verify_lab import faulted

# --- the whole-document writers of netcfg 0.4.0 (netcfg/verify/report.py, lint's sarif) ---


def whole_json(result: VerifyResult) -> str:
    return json.dumps({
        "fabric": result.fabric,
        "ok": result.exit_code == 0,
        "exit_code": result.exit_code,
        "summary": report.summary(result),
        "seconds": round(result.seconds, 3),
        "devices": [{"device": d.device, "nos": d.nos, "errors": d.errors,
                     "not_checked": d.not_checked, "seconds": round(d.seconds, 3),
                     "checks": [{"rule": c.rule, "severity": c.severity,
                                 "interface": c.interface, "ok": c.ok, "message": c.message}
                                for c in d.checks]} for d in result.devices],
        "findings": [f.as_dict() | {"file": formats.relative(f.file)}
                     for f in result.findings()],
    }, indent=2)


def whole_junit(result: VerifyResult) -> str:
    root = ET.Element("testsuites", name="netcfg verify")
    tests = failures = 0
    file = formats.relative(result.file)
    for d in result.devices:
        suite = ET.SubElement(root, "testsuite", name=d.device, hostname=d.device)
        n = bad = 0
        for c in d.checks:
            attrs = {"classname": f"netcfg.verify.{d.device}.{c.rule}",
                     "name": f"{c.rule} {c.subject}", "time": "0"}
            if file:
                attrs["file"] = file
            case = ET.SubElement(suite, "testcase", attrs)
            n += 1
            if c.ok or c.severity != "error":
                ET.SubElement(case, "system-out").text = (
                    c.message if c.ok else f"{c.severity}: {c.message}")
            else:
                ET.SubElement(case, "failure", type="error",
                              message=c.message).text = f"{c.subject}: {c.message}"
                bad += 1
        suite.attrib.update(tests=str(n), failures=str(bad), errors="0", skipped="0",
                            time=f"{d.seconds:.3f}")
        tests, failures = tests + n, failures + bad
    root.attrib.update(tests=str(tests), failures=str(failures), errors="0",
                       time=f"{result.seconds:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def whole_sarif(result: VerifyResult) -> str:
    rules, layer = all_rules(), layers()
    found = result.findings()
    used = sorted({f.rule for f in found} | set(rules))
    index = {rid: i for i, rid in enumerate(used)}
    results = []
    for f in found:
        file = formats.relative(f.file or result.file)
        res: dict = {"ruleId": f.rule, "ruleIndex": index[f.rule],
                     "level": formats.SARIF_LEVEL[f.severity], "message": {"text": f.message},
                     "partialFingerprints": {"netcfgFinding/v1": hashlib.sha256("\0".join(
                         str(x) for x in (f.rule, f.path, f.device, f.interface)).encode()
                     ).hexdigest()[:32]}}
        if file:
            loc: dict = {"physicalLocation": {
                "artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": f.line or 1}}}
            if f.device:
                name = f.device + (f":{f.interface}" if f.interface else "")
                loc["logicalLocations"] = [{"fullyQualifiedName": name, "kind": "object"}]
            res["locations"] = [loc]
        props = {k: v for k, v in (("device", f.device), ("interface", f.interface),
                                   ("path", f.path)) if v}
        if props:
            res["properties"] = props
        results.append(res)
    return json.dumps({
        "$schema": formats.SARIF_SCHEMA, "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "netcfg", "version": formats._version(),
                                      "rules": [formats._sarif_rule(rules[r], layer.get(r, "lint"))
                                                for r in used]}},
                  "columnKind": "unicodeCodePoints", "results": results}]}, indent=2)


WHOLE = {"json": whole_json, "junit": whole_junit, "sarif": whole_sarif}


def test_streamed_reports_are_the_whole_documents_byte_for_byte(
        verify_lab: VerifyLab, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """One verify of a switch of every NOS of the lab, with faults (errors and a warning)."""
    from netcfg import api

    with faulted(verify_lab, ("swap", LEAF, "Ethernet9/1", "Ethernet11/1"),
                 ("pfc_storm", SONIC_LEAF, "Ethernet0")):
        result = api.verify(verify_lab.inventory, verify_lab.connect, interval=0.01,
                            devices=(LEAF, SPINES[0], CORE, SONIC_LEAF, CUMULUS_LEAF))
    assert isinstance(result.devices, Reports) and len(result.devices) == 5
    severities = {f.severity for f in result.findings()}
    assert severities == {"error", "warning"} and result.exit_code == 1
    for fmt, whole in WHOLE.items():
        expected = whole(result)
        assert "".join(report.chunks(result, fmt, lambda t, _c: t)) == expected, fmt
        # as the command writes it: to stdout, and to --output with netcfg's marker
        _write(result, fmt, None)
        assert capsys.readouterr().out == expected + "\n", fmt
        out = tmp_path / f"verify.{fmt}"
        _write(result, fmt, str(out))
        assert out.read_text() == marked(expected + "\n", "verify", fmt), fmt
    jsonschema.Draft4Validator(SCHEMA).validate(json.loads(report.sarif(result)))
    _xsd_valid(ET.fromstring(report.junit(result)))
    # the file written over: the marker lets the next run replace it
    _write(result, "json", str(tmp_path / "verify.json"))
    assert {d["device"] for d in json.loads((tmp_path / "verify.json").read_text())[
        "devices"]} == {LEAF, SPINES[0], CORE, SONIC_LEAF, CUMULUS_LEAF}


def _fleet(switches: int, checks: int) -> VerifyResult:
    """A made-up fleet's result, every switch with `checks` checks, one failed."""
    return VerifyResult("f", None, Reports(
        DeviceReport(f"leaf{i}", "sonic",
                     [Check("VFY004", f"leaf{i}", f"Ethernet{j}", j != 0, f"port {j} is up")
                      for j in range(checks)], seconds=0.1)
        for i in range(switches)))


@pytest.mark.parametrize("fmt", ["json", "junit"])
def test_streamed_reports_hold_one_switch_at_a_time(fmt: str):
    """The peak memory of writing a report does not grow with the fleet: 4 times the
    switches, the same peak (within a tenth) -- the whole document's peak grows 4 times."""
    def peak(result: VerifyResult, write: object) -> int:
        tracemalloc.start()
        try:
            for _chunk in write(result):  # type: ignore[operator]
                pass
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = _fleet(3, 200), _fleet(12, 200)
    streamed = [peak(r, lambda r: report.chunks(r, fmt, lambda t, _c: t))
                for r in (small, large)]
    whole = [peak(r, lambda r: [WHOLE[fmt](r)]) for r in (small, large)]
    assert streamed[1] < streamed[0] * 1.1, streamed
    assert whole[1] > whole[0] * 3, whole
