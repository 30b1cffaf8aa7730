"""Output people read: `--quiet` leaves the notes out of every lint format and of validate
without changing an exit code, SARIF rule help carries the rule's text from docs/rules.md
without the research notes' ids, and every JUnit testcase has a name of its own.

The SARIF document validates against the OASIS schema and the JUnit XML against Jenkins'
junit-10.xsd facts, both as tests/lint/test_formats.py vendors them; the expected rule texts
are copied by hand from docs/rules.md.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from click.testing import CliRunner

from lint.cases import EXAMPLE, INVENTORIES, write
from lint.test_formats import BROKEN, SCHEMA, _xsd_valid
from netcfg.cli import main
from netcfg.lint import formats
from netcfg.lint.precommit import main as precommit
from netcfg.lint.run import LintResult, lint

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
MULTIVENDOR = str(INVENTORIES / "multivendor")
#: the research notes' rule ids (P1-P12, E1-E10, H1-H5) and the deadlock cases' (C06)
NOTE_ID = re.compile(r"\b(?:[PEH](?:[1-9]|1[0-2])|C[0-9]{2})\b")


@pytest.fixture(scope="module")
def mixed() -> LintResult:
    """The multivendor inventory: warnings and notes, no error (exit 0 under --fail-on
    error, 1 under --fail-on warning)."""
    return lint(MULTIVENDOR, deadlock=False)


def test_quiet_leaves_notes_out_of_every_format(mixed):
    notes = sum(1 for c in mixed.results if c.finding.severity == "info")
    others = [c for c in mixed.results if c.finding.severity != "info"]
    assert notes and others  # both kinds, or the test proves nothing
    quiet = mixed.quiet()
    assert quiet.results == others and quiet.hidden == notes

    doc = json.loads(formats.as_json(quiet, "error"))
    assert doc["hidden_notes"] == notes
    assert {f["severity"] for f in doc["findings"]} == {"warning"}
    assert f"{notes} note(s) hidden by --quiet" in doc["summary"]
    assert doc["ok"] is json.loads(formats.as_json(mixed, "error"))["ok"] is True

    sarif = json.loads(formats.sarif(quiet))
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    levels = Counter(r["level"] for r in sarif["runs"][0]["results"])
    assert levels == {"warning": len(others)}  # no "note"

    root = ET.fromstring(formats.junit(quiet, "warning"))
    _xsd_valid(root)
    out = [c.find("system-out") for c in root.iter("testcase")]
    assert not any(o is not None and (o.text or "").startswith("info:") for o in out)
    assert root.get("failures") == str(len(others))

    github = formats.github(quiet).splitlines()
    assert len(github) == len(others) and not any(ln.startswith("::notice") for ln in github)

    text = formats.text(quiet, "error", lambda s, _fg: s).splitlines()
    assert not any(" info" in ln and not ln.startswith(" ") for ln in text)
    assert text[-1] == (f"0 error(s), {len(others)} warning(s), {notes} note(s) hidden by "
                        "--quiet, 0 waived: pass (--fail-on error)")


def test_quiet_keeps_the_exit_codes(tmp_path):
    runner = CliRunner()
    bad = str(write(tmp_path / "bad", BROKEN))
    for args, code, fmts in (
            ([MULTIVENDOR, "--no-deadlock"], 0, ("text",)),
            ([MULTIVENDOR, "--no-deadlock", "--fail-on", "warning"], 1,
             ("text", "json", "sarif", "junit", "github")),
            ([bad, "--no-deadlock"], 1, ("text",))):
        for fmt in fmts:
            loud = runner.invoke(main, ["lint", *args, "--format", fmt])
            quiet = runner.invoke(main, ["lint", *args, "--format", fmt, "--quiet"])
            assert loud.exit_code == quiet.exit_code == code, (args, fmt, quiet.output)


def test_validate_quiet(tmp_path):
    runner = CliRunner()
    loud = runner.invoke(main, ["validate", MULTIVENDOR])
    quiet = runner.invoke(main, ["validate", MULTIVENDOR, "-q"])
    assert loud.exit_code == quiet.exit_code == 0
    notes = [ln for ln in loud.output.splitlines() if ln.startswith("info: ")]
    kept = [ln for ln in loud.output.splitlines() if ln.startswith("warning: ")]
    assert notes and kept
    lines = quiet.output.splitlines()
    assert lines[:-1] == kept
    assert lines[-1] == ("ok: fabric multivendor: 16 leaf, 32 host, 8 spine, 8 core, 640 links, "
                         f"1280 ports ({len(notes)} note(s) hidden by --quiet)")
    doc = json.loads(runner.invoke(main, ["validate", MULTIVENDOR, "-q", "--format",
                                          "json"]).output)
    assert doc["hidden_notes"] == len(notes) and doc["ok"] is True
    assert {f["severity"] for f in doc["findings"]} == {"warning"}
    bad = write(tmp_path / "bad", BROKEN.replace("mtu: 9216", "mtu: 99999", 1))
    assert runner.invoke(main, ["validate", str(bad)]).exit_code == 1
    assert runner.invoke(main, ["validate", str(bad), "--quiet"]).exit_code == 1


def _rules_md() -> dict[str, tuple[str, str, str]]:
    """docs/rules.md's rows: id -> (rule, why, source), cells unescaped."""
    rows = {}
    for line in RULES_MD.read_text().splitlines():
        m = re.match(r'^\| <a id="[a-z0-9]+"></a>([A-Z]+[0-9]+) \| (.*) \|$', line)
        if m:
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", m[2])]
            rows[m[1]] = (cells[1], cells[2], cells[3])
    return rows


def test_sarif_rule_help_is_the_rule_text_of_rules_md(mixed):
    doc = json.loads(formats.sarif(mixed))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    rules = {r["id"]: r for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    # copied from docs/rules.md; the notes' id (P4) left out
    assert rules["BUF001"]["help"]["text"] == (
        "headroom of a switch does not fit its ASIC buffer: reserved PFC headroom (and the "
        "shared headroom pool) must fit the packet buffer, or the ASIC rejects or clips it "
        "and lossless traffic drops.")
    # "P8, P11 (forwarding loops), P9 (modelled flooding); Hu 2016; Dally & Seitz 1987"
    assert rules["DLK001"]["help"]["text"].endswith(" Source: Hu 2016; Dally & Seitz 1987.")
    assert rules["QOS002"]["properties"]["source"] == "IEEE 802.1Qbb"  # "P1; IEEE 802.1Qbb"
    assert "source" not in rules["ECN001"]["properties"]  # "E2" only
    assert rules["HSH001"]["help"]["markdown"].startswith("**HSH001** (error): ")
    documented = _rules_md()
    assert set(documented) <= set(rules)
    for rid, (summary, why, _source) in documented.items():
        help_ = rules[rid]["help"]
        assert help_["text"].startswith(f"{summary}: {why.rstrip('.')}."), rid
        assert f"\n\n{why.rstrip('.')}." in help_["markdown"], rid
        for text in (help_["text"], help_["markdown"], rules[rid]["fullDescription"]["text"],
                     rules[rid]["properties"].get("source", "")):
            assert not NOTE_ID.search(text), (rid, text)


def test_junit_testcase_names_are_unique(mixed):
    root = ET.fromstring(formats.junit(mixed, "error"))
    _xsd_valid(root)
    names = Counter(c.get("name") for c in root.iter("testcase"))
    assert [n for n, k in names.items() if k > 1] == []
    # core1 has seven CAP010 notes (one per plan field Junos does not state): each its own
    core1 = sorted(n for n in names if n and n.startswith("CAP010 core1"))
    assert len(core1) == 7
    assert ("CAP010 core1: junos config does not state bgp.maximum_paths (core1 and 7 more "
            "junos switches): BGP multipath ha...") in core1
    # one finding of its rule on its device keeps the short name
    assert "CAP017 core1" in names


def test_pre_commit_quiet_prints_nothing_for_notes_only(tmp_path, capsys):
    good = write(tmp_path / "good", EXAMPLE)  # the example: notes only (what CAP010 says)
    assert precommit([str(good / "fabric.yaml"), "--no-deadlock"]) == 0
    assert " info" in capsys.readouterr().out
    assert precommit(["--quiet", str(good / "fabric.yaml"), "--no-deadlock"]) == 0
    assert capsys.readouterr().out == ""
    bad = write(tmp_path / "bad", BROKEN)
    assert precommit(["-q", str(bad / "fabric.yaml"), "--no-deadlock"]) == 1
    out = capsys.readouterr().out
    assert "HSH001 error" in out and " info" not in out and "hidden by --quiet" in out
