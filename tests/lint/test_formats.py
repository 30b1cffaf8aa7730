"""Report formats: SARIF validates against the SARIF 2.1.0 schema, JUnit parses as JUnit XML,
GitHub workflow commands are escaped, and the CLI keeps DESIGN.md's exit codes.

`sarif-schema-2.1.0.json` is the OASIS SARIF 2.1.0 (errata 01) schema, vendored from
github.com/oasis-tcs/sarif-spec, file sarif-2.1/schema/sarif-schema-2.1.0.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from lint.cases import EXAMPLE, edit, write
from netcfg.lint import formats
from netcfg.lint.registry import all_rules
from netcfg.lint.run import lint

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text())
BROKEN = (edit(EXAMPLE, "seeds: {leaf: 10, spine: 25}", "seeds: {leaf: 10, spine: 10}")
          + 'overrides:\n  ports:\n    "leaf-su1-r1:swp32s1": {lossless: false}\n'
          + 'waivers:\n  - rule: LNK004\n    ports: ["leaf-su1-r1:*"]\n    reason: "lab cable, '
          'see ticket: 42"\n')


@pytest.fixture
def broken(tmp_path, monkeypatch):
    inv = write(tmp_path / "repo" / "inventories" / "lab", BROKEN)
    monkeypatch.chdir(tmp_path / "repo")
    return inv


def test_sarif_validates_and_points_at_the_yaml(broken):
    result = lint(broken)
    doc = json.loads(formats.sarif(result))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    run = doc["runs"][0]
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert set(all_rules()) <= rules
    hsh = [r for r in run["results"] if r["ruleId"] == "HSH001"]
    assert hsh and hsh[0]["level"] == "error"
    loc = hsh[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "inventories/lab/fabric.yaml"
    line = BROKEN.splitlines().index("  seeds: {leaf: 10, spine: 10}") + 1
    assert loc["region"]["startLine"] == line
    assert run["tool"]["driver"]["rules"][hsh[0]["ruleIndex"]]["id"] == "HSH001"
    waived = [r for r in run["results"] if r["ruleId"] == "LNK004"]
    assert waived and waived[0]["suppressions"][0]["justification"].startswith("lab cable")


def test_sarif_of_a_schema_error_validates(tmp_path, monkeypatch):
    inv = write(tmp_path / "bad", EXAMPLE + "bogus: 1\n")
    monkeypatch.chdir(tmp_path)
    doc = json.loads(formats.sarif(lint(inv), str(inv / "fabric.yaml")))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["SCH001"]
    assert doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"] == "bad/fabric.yaml"


def test_junit_has_a_testcase_per_rule_and_a_failure_per_finding(broken):
    result = lint(broken)
    root = ET.fromstring(formats.junit(result))
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == len(all_rules()) == int(suite.get("tests", "0"))
    by_id = {c.get("name", "").split(":")[0]: c for c in cases}
    unwaived = [c for c in result.results if not c.waived]
    assert len(suite.findall("testcase/failure")) == len(unwaived) == int(suite.get("failures"))
    assert len(by_id["HSH001"].findall("failure")) == sum(
        1 for c in unwaived if c.finding.rule == "HSH001")
    assert by_id["LNK004"].find("failure") is None
    assert "lab cable" in (by_id["LNK004"].findtext("system-out") or "")
    assert by_id["ECN001"].find("failure") is None


def test_github_commands_are_escaped():
    assert formats.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert formats.escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_github_output(broken):
    lines = formats.github(lint(broken)).splitlines()
    hsh = [ln for ln in lines if "title=HSH001" in ln]
    assert hsh and hsh[0].startswith("::error file=inventories/lab/fabric.yaml,line=")
    waived = [ln for ln in lines if "LNK004" in ln]
    assert waived and waived[0].startswith("::notice ")
    assert "see ticket: 42" in waived[0]  # messages keep ':' (only properties escape it)


def test_json_output(broken):
    doc = json.loads(formats.as_json(lint(broken), "error"))
    assert doc["ok"] is False and doc["deadlock"]["verdict"] == "deadlock_free"
    f = next(x for x in doc["findings"] if x["rule"] == "HSH001")
    assert f["file"] == "inventories/lab/fabric.yaml" and f["waived"] is False
    assert {"rule", "severity", "message", "file", "line", "column", "device",
            "interface"} <= set(f)


def test_cli_exit_codes_and_formats(cli, tmp_path):
    clean = cli("lint", "inventories/example")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "\x1b[" not in clean.stdout  # not a TTY: no colour
    bad = write(tmp_path / "bad", BROKEN)
    out = cli("lint", str(bad), "--format", "sarif")
    assert out.returncode == 1
    jsonschema.Draft4Validator(SCHEMA).validate(json.loads(out.stdout))
    report = tmp_path / "report.xml"
    assert cli("lint", str(bad), "--format", "junit", "--output", str(report)).returncode == 1
    ET.parse(report)
    assert cli("lint", "inventories/multivendor").returncode == 0
    assert cli("lint", "inventories/multivendor", "--fail-on", "warning").returncode == 1
    assert cli("lint").returncode == 2
    assert cli("lint", "inventories/example", "--format", "yaml").returncode == 2


def test_text_groups_by_rule_then_device(cli, tmp_path):
    out = cli("lint", str(write(tmp_path, BROKEN)), "--failures", "1")
    lines = out.stdout.splitlines()
    head = lines.index(next(ln for ln in lines if ln.startswith("HSH001 error")))
    assert lines[head + 1].startswith("  ") and not lines[head + 1].startswith("    ")
    assert "[waived: lab cable" in out.stdout
    assert lines[-1].endswith("fail (--fail-on error)")


def test_list_rules(cli):
    out = cli("lint", "--list-rules", "--format", "json")
    assert out.returncode == 0
    ids = [r["id"] for r in json.loads(out.stdout)]
    assert ids == list(all_rules())
