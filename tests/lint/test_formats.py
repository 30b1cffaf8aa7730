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


#: Jenkins' xUnit plugin schema for JUnit (jenkinsci/xunit-plugin, src/main/resources/org/
#: jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd): the elements and attributes it
#: allows, and those it requires, transcribed as facts
JUNIT_XSD = {
    "testsuites": ({"name", "time", "tests", "failures", "disabled", "errors"}, set(),
                   {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors", "time", "disabled", "skipped",
                   "skips", "timestamp", "hostname", "id", "package", "assertions", "file",
                   "skip", "log", "url"}, {"tests"},
                  {"testsuite", "properties", "testcase", "system-out", "system-err"}),
    "testcase": ({"name", "assertions", "time", "timestamp", "classname", "status", "class",
                  "file", "line", "log", "group", "url"}, {"name"},
                 {"skipped", "error", "failure", "rerunFailure", "rerunError", "system-out",
                  "system-err"}),
    "failure": ({"type", "message"}, set(), set()),
    "skipped": ({"type", "message"}, set(), set()),
    "system-out": (set(), set(), set()),
}


def _xsd_valid(element: ET.Element) -> None:
    allowed, required, children = JUNIT_XSD[element.tag]
    assert set(element.attrib) <= allowed, (element.tag, set(element.attrib) - allowed)
    assert required <= set(element.attrib), (element.tag, required)
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        _xsd_valid(child)


def test_junit_validates_and_fails_only_what_fails_the_gate(broken):
    result = lint(broken)
    for fail_on in ("error", "warning"):
        root = ET.fromstring(formats.junit(result, fail_on))
        _xsd_valid(root)
        suite = root.find("testsuite")
        assert suite is not None
        failing = result.failing(fail_on)
        assert len(suite.findall("testcase/failure")) == len(failing) \
            == int(suite.get("failures", "-1"))
        cases = suite.findall("testcase")
        assert len(cases) == int(suite.get("tests", "0"))
        hsh = [c for c in cases if c.get("name", "").startswith("HSH001 ")]
        assert hsh and all(c.find("failure") is not None for c in hsh)
        assert {c.get("file") for c in hsh} == {"inventories/lab/fabric.yaml"}
        line = BROKEN.splitlines().index("  seeds: {leaf: 10, spine: 10}") + 1
        assert {c.get("line") for c in hsh} == {str(line)}
        waived = [c for c in cases if c.get("name", "").startswith("LNK004 ")]
        assert waived and all(c.find("failure") is None for c in waived)
        assert "lab cable" in (waived[0].find("skipped").get("message") or "")
        quiet = [c for c in cases if c.get("name", "").startswith("ECN001")]
        assert len(quiet) == 1 and quiet[0].find("failure") is None  # a rule that passed


def test_junit_of_warnings_only_fails_nothing_under_fail_on_error(tmp_path, monkeypatch):
    """A lint whose findings are warnings exits 0 with --fail-on error: the report agrees."""
    inv = write(tmp_path / "repo" / "inv", EXAMPLE)
    monkeypatch.chdir(tmp_path / "repo")
    result = lint(inv)
    assert not result.failing("error")
    root = ET.fromstring(formats.junit(result, "error"))
    assert root.get("failures") == "0" and root.find("testsuite/testcase/failure") is None


def test_paths_are_relative_to_the_repository_from_any_directory(tmp_path, monkeypatch):
    """Run from outside the repository (or deep inside it): every URI still starts at the
    root holding `.git`, so code scanning maps each result to its file."""
    repo = tmp_path / "repo"
    inv = write(repo / "inventories" / "lab", BROKEN)
    (repo / ".git").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = lint(inv)
    doc = json.loads(formats.sarif(result))
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"] for loc in r.get("locations", [])}
    assert uris == {"inventories/lab/fabric.yaml"}
    assert "file=inventories/lab/fabric.yaml," in formats.github(result)
    assert json.loads(formats.as_json(result, "error"))["findings"][0]["file"] == \
        "inventories/lab/fabric.yaml"


def test_sarif_rules_have_readable_names():
    rules = all_rules()
    assert formats.rule_name(rules["BUF001"]) == "HeadroomOfASwitchDoesNotFitItsASICBuffer"
    names = [formats.rule_name(r) for r in rules.values()]
    assert all(n.isalnum() and n[0].isupper() for n in names)


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
