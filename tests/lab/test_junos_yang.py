"""The lab's Junos commit check (netcfg/lab/junos/yang.py) loads Juniper's YANG with the schema
compiled once at the end rather than after every module: it must give the verdicts the
validator's own fixtures state (../shared/junos-yang/tests: `valid/` files have no error,
each `expect: LINE: TEXT` of an `invalid/` file is reported on that line, and the
`known-gaps/` statements are the ones let through unchecked, never reported valid by the
model)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from netcfg.lab.junos.yang import JunosYang

ROOT = Path(__file__).resolve().parents[2]
JUNOS_YANG = ROOT.parent / "shared" / "junos-yang"
FIXTURES = JUNOS_YANG / "tests"


@pytest.fixture(scope="module")
def yang() -> JunosYang:
    if not (JUNOS_YANG / "validate_junos.py").is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it)")
    pytest.importorskip("libyang")
    found = JunosYang.from_options({"junos_yang": str(JUNOS_YANG)})
    assert found is not None
    return found


def expectations(text: str) -> list[tuple[int, str]]:
    """The fixture's `expect: LINE: TEXT` lines (the validator's own test format)."""
    return [(int(m.group(1)), m.group(2).strip())
            for m in re.finditer(r"expect:\s*(\d+):\s*(.+)", text)]


def test_juniper_fixtures_get_the_verdicts_they_state(yang):
    valid = sorted((FIXTURES / "valid").glob("*.conf"))
    invalid = sorted((FIXTURES / "invalid").glob("*.conf"))
    assert valid and invalid
    for path in valid:
        assert yang.errors(path.read_text()) == [], path.name
    for path in invalid:
        text = path.read_text()
        errors = yang.errors(text)
        assert errors, path.name
        for line, message in expectations(text):
            assert any(e[0] == line and message in e[2] for e in errors), (path.name, line,
                                                                          message, errors)


def test_the_known_gap_is_let_through_unchecked_and_nothing_else(yang):
    """The shared-buffer partitions Juniper's published model lacks: skipped (the lab's own
    table checks them), each one listed as not checked, on the lines the fixture names."""
    path = FIXTURES / "known-gaps" / "shared-buffer-partitions.conf"
    text = path.read_text()
    lines = {line for line, _ in expectations(text)}
    assert lines
    assert yang.errors(text) == []
    skipped = yang.not_checked(text)
    assert {line for line, _ in skipped} >= lines
    assert all(where.startswith("class-of-service shared-buffer") for _, where in skipped)


def test_the_escape_repair_is_the_validators_on_every_module():
    """The lab repairs the modules' backslashes by regular expression
    (netcfg.lab.junos.yang.fix_escapes): the same text and count as the validator's own
    `fix_escapes` on every module Juniper publishes here, and on the corners of its loop
    (comments, single quotes, escapes at the end, unterminated strings)."""
    if not (JUNOS_YANG / "validate_junos.py").is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it)")
    pytest.importorskip("libyang")
    from netcfg.lab.junos.yang import _load_validator, fix_escapes

    own = _load_validator(JUNOS_YANG / "validate_junos.py").fix_escapes
    modules = sorted((JUNOS_YANG / "24.4R1-EVO").glob("*.yang"))
    assert len(modules) >= 10
    fixed = 0
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert fix_escapes(text) == own(text), path.name
        fixed += own(text)[1]
    assert fixed > 0  # the published modules do hold escapes RFC 7950 does not define
    corners = ['"a\\d"', '"a\\\\d"', '"\\n\\t\\"\\\\"', "'a\\d'", '// "x\\d\n"y\\d"',
               '/* "x\\d */ "y\\d"', '/*/ "x\\d" */', '"open \\d', '"end\\', "'open \\d",
               '/* open "x\\d"', '"a\\"b\\c" \'q\\w\' "\\\\\\d"', '', '\\d "" \\e',
               '"x" // c\n "\\z"', 'a / b "\\/"']
    for text in corners:
        assert fix_escapes(text) == own(text), text
