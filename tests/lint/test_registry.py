"""The rule registry: complete, documented, and docs/rules.md generated from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from netcfg.lint.registry import SCHEMA_RULES, all_rules, layers
from netcfg.lint.rulesdoc import main, markdown

ROOT = Path(__file__).resolve().parents[2]


def test_docs_rules_md_is_up_to_date():
    """Regenerate with `python -m netcfg.lint.rulesdoc docs/rules.md`."""
    assert (ROOT / "docs" / "rules.md").read_text() == markdown()


def test_the_generator_writes_only_the_file_it_is_given(tmp_path, monkeypatch, capsys):
    """`--help` is help, not a file name (the generator once wrote the page to `./--help`)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["rulesdoc", "--help"])
    assert done.value.code == 0 and "usage:" in capsys.readouterr().out
    assert main(["rulesdoc", "rules.md"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.md"]
    assert (tmp_path / "rules.md").read_text() == markdown()


def test_every_rule_is_described():
    rules = all_rules()
    for r in rules.values():
        assert re.fullmatch(r"[A-Z]{3,4}[0-9]{3}", r.id)
        assert r.severity in ("error", "warning", "info")
        assert r.summary and r.rationale and r.source
    assert set(layers()) == set(rules)


def test_schema_rules_are_triggered_by_tests():
    """Every loader/schema rule is triggered, at an asserted file:line, by a case of the
    broken-intent corpus (its first line names the expected rule) or a test module that
    asserts it (generated cases of test_bad_intents, topology tests)."""
    expected = set()
    for f in (ROOT / "tests" / "bad_intents").rglob("*.yaml"):
        first = f.read_text(errors="replace").splitlines()[:1]
        if first and first[0].startswith("# expect: "):
            expected.add(first[0].split()[2])
    for py in (ROOT / "tests").glob("test_*.py"):
        expected |= set(re.findall(r'"((?:YAML|TOP|REF|QOS|SCH)[0-9]{3})"', py.read_text()))
    missing = {r.id for r in SCHEMA_RULES} - expected
    assert not missing, missing


def test_emitted_rule_ids_are_registered():
    """Rule ids written in the checks' source all have a registry entry."""
    ids = set()
    for py in (ROOT / "netcfg").rglob("*.py"):
        ids |= set(re.findall(r'"((?:YAML|SCH|REF|QOS|TOP|BUF|ECN|DCQ|CAP|DLK|LNK|LAT|NIC|CNP|'
                              r'PWD|HSH|SUP)[0-9]{3})"', py.read_text()))
    assert ids - set(all_rules()) == set()
