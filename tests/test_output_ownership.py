"""`--output FILE` (lint, validate, deadlock, verify, schema) and `graph --out/--dot` replace
an existing file only when netcfg wrote it: a report netcfg wrote before, in any format, is
replaced; an empty file is too (nothing in it to lose); a user's fabric.yaml is refused in one
line naming it and left byte for byte; a symbolic link is refused and its target never made.

Every expectation is written here by hand: the marker each format carries in its first 4 KiB
(the text's first line, the JSON's first key, SARIF's tool name, JUnit's `<testsuites>` name,
the SVG's and DOT's comment), read with Python's own json and XML parsers.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.fsutil import ours

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "inventories" / "example")

#: (command line before `--output FILE`, what the file must say first), one per format
FORMATS = {
    "lint-text": (["lint", EXAMPLE], "line:# written by netcfg lint"),
    "lint-github": (["lint", EXAMPLE, "--format", "github"], "line:# written by netcfg lint"),
    "lint-json": (["lint", EXAMPLE, "--format", "json"], "json:written by netcfg lint"),
    "lint-sarif": (["lint", EXAMPLE, "--format", "sarif"], "sarif"),
    "lint-junit": (["lint", EXAMPLE, "--format", "junit"], "junit:netcfg lint"),
    "rules-text": (["lint", "--list-rules"], "line:# written by netcfg lint --list-rules"),
    "rules-json": (["lint", "--list-rules", "--format", "json"],
                   "json:written by netcfg lint --list-rules"),
    "validate-text": (["validate", EXAMPLE], "line:# written by netcfg validate"),
    "validate-json": (["validate", EXAMPLE, "--format", "json"],
                      "json:written by netcfg validate"),
    "deadlock-text": (["deadlock", EXAMPLE], "line:# written by netcfg deadlock"),
    "deadlock-json": (["deadlock", EXAMPLE, "--format", "json"],
                      "json:written by netcfg deadlock"),
    "schema": (["schema"], "json:written by netcfg schema"),
    "graph-svg": (["graph", EXAMPLE, "--dot", "{other}"], "line:<!-- written by netcfg graph -->"),
    "graph-dot": (["graph", EXAMPLE, "--out", "{other}"], "line:// written by netcfg graph"),
}


def _run(name: str, target: Path) -> tuple[int, str]:
    """`netcfg` with the format `name`'s command line, writing its report to `target` (graph's
    other file, the one not under test, goes beside it)."""
    option = {"graph-svg": "--out", "graph-dot": "--dot"}.get(name, "--output")
    other = str(target.parent / f"{target.name}.other")
    argv = [a.replace("{other}", other) for a in FORMATS[name][0]] + [option, str(target)]
    result = CliRunner().invoke(main, argv)
    return result.exit_code, result.stderr


def _says_netcfg(path: Path, expected: str) -> None:
    """The marker, read the way a person or a parser would, then the same through `ours`."""
    text = path.read_text()
    kind, _, said = expected.partition(":")
    if kind == "line":
        assert text.splitlines()[0] == said
    elif kind == "json":
        doc = json.loads(text)
        assert next(iter(doc)) == "$comment" and doc["$comment"] == said
    elif kind == "sarif":
        doc = json.loads(text)
        assert doc["version"] == "2.1.0" and doc["runs"][0]["tool"]["driver"]["name"] == "netcfg"
    else:
        assert ET.fromstring(text.encode()).attrib["name"] == said  # the root: testsuites
    assert ours(path.read_bytes()[:4096])


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_report_netcfg_wrote_is_replaced(tmp_path, name):
    expected = FORMATS[name][1]
    target = tmp_path / "report"
    code, err = _run(name, target)
    assert code in (0, 1) and "netcfg:" not in err, err
    _says_netcfg(target, expected)
    with target.open("a") as fh:  # a stale report: the next run must replace all of it
        fh.write("stale line of an earlier run\n")
    inode = target.stat().st_ino
    code, err = _run(name, target)
    assert "netcfg:" not in err, err
    assert "stale line" not in target.read_text()
    assert target.stat().st_ino != inode  # a new file renamed over the old one
    _says_netcfg(target, expected)


def test_stdout_carries_no_marker():
    shown = CliRunner().invoke(main, ["validate", EXAMPLE, "--format", "json"])
    assert "$comment" not in json.loads(shown.stdout)
    shown = CliRunner().invoke(main, ["deadlock", EXAMPLE])
    assert shown.stdout.startswith("verdict: ")
    listed = CliRunner().invoke(main, ["lint", "--list-rules", "--format", "json"])
    assert isinstance(json.loads(listed.stdout), list)


@pytest.mark.parametrize("name", ["lint-json", "lint-text", "validate-text", "deadlock-json",
                                  "schema", "graph-svg", "graph-dot"])
def test_a_users_intent_is_refused_in_one_line_and_left_as_it_was(tmp_path, name):
    target = tmp_path / "fabric.yaml"
    shutil.copy(ROOT / "inventories" / "example" / "fabric.yaml", target)
    before = target.read_bytes()
    code, err = _run(name, target)
    assert code == 1
    assert err == f"netcfg: {target}: exists and netcfg did not write it; name a new file\n"
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fabric.yaml"]  # nothing else made


@pytest.mark.parametrize("name", ["lint-sarif", "deadlock-text", "rules-json"])
def test_an_empty_file_is_replaced(tmp_path, name):
    target = tmp_path / "report"
    target.touch()  # what `mktemp` hands a CI job
    code, err = _run(name, target)
    assert "netcfg:" not in err, err
    _says_netcfg(target, FORMATS[name][1])


@pytest.mark.parametrize("name", ["lint-junit", "validate-json", "graph-dot"])
def test_a_symbolic_link_is_refused_even_to_a_report(tmp_path, name):
    report = tmp_path / "report"
    _run(name, report)
    before = report.read_bytes()
    link, missing = tmp_path / "link", tmp_path / "missing"
    link.symlink_to(report)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(missing)
    for target in (link, dangling):
        code, err = _run(name, target)
        assert code == 1
        assert err == (f"netcfg: {target}: is a symbolic link; netcfg writes only a new file "
                       "or one it wrote\n")
        assert target.is_symlink()
    assert report.read_bytes() == before
    assert not missing.exists()


@pytest.mark.parametrize("head,netcfgs", [
    (b"", True),
    (b"# written by netcfg lint\nHSH001 error: ...\n", True),
    (b'{\n  "$comment": "written by netcfg verify",\n  "fabric": "x"\n}\n', True),
    (b'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="netcfg verify" tests="1">',
     True),
    (b'{\n  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",\n  "version": "2.1.0",'
     b'\n  "runs": [\n    {\n      "tool": {\n        "driver": {\n          "name": "netcfg"',
     True),
    # a user's files, and other tools' reports of the same formats
    (b"fabric:\n  name: example\n", False),
    (b" ", False),
    (b"# my notes on netcfg\n", False),
    (b'{"fabric": "x", "$comment": "written by netcfg lint"}', False),  # not the first key
    (b'{"$comment": "written by hand"}', False),
    (b'<?xml version="1.0"?>\n<testsuites name="pytest" tests="3">', False),
    (b'{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", '
     b'"runs": [{"tool": {"driver": {"name": "ESLint"}}}]}', False),
    (b"// written by hand\ndigraph g {}\n", False),
])
def test_the_marker_and_nothing_else_makes_a_file_netcfgs(head, netcfgs):
    assert ours(head) is netcfgs


def test_verify_reports_in_every_format_are_replaced(tmp_path, make_lab):
    """A switch that refuses connections still gets a report (VFY020, exit 4): enough to see
    each of verify's formats written, marked, and written again over itself."""
    from deploy.deploy_cases import MULTIVENDOR, devices_file, specs

    from netcfg.report.build import read_verify

    lab = make_lab(*specs(["leaf-su1-r1"]))
    connect = devices_file(lab, tmp_path)
    lab["leaf-su1-r1"].inject("refused")
    base = ["verify", str(MULTIVENDOR), "--device", "leaf-su1-r1", "--connect", str(connect),
            "--state", str(tmp_path / "state"), "--timeout", "5"]
    expected = {"text": "line:# written by netcfg verify", "github": "line:# written by "
                "netcfg verify", "json": "json:written by netcfg verify", "sarif": "sarif",
                "junit": "junit:netcfg verify"}
    for fmt, said in expected.items():
        target = tmp_path / f"verify.{fmt}"
        for _ in range(2):
            result = CliRunner().invoke(main, [*base, "--format", fmt, "--output", str(target)])
            assert result.exit_code == 4, result.output
            assert "netcfg:" not in result.stderr, result.stderr
            _says_netcfg(target, said)
    # `netcfg report --verify` still reads verify's JSON with its marker
    assert read_verify(str(tmp_path / "verify.json")).ok is False
    user = tmp_path / "fabric.yaml"
    user.write_text("fabric:\n  name: mine\n")
    result = CliRunner().invoke(main, [*base, "--output", str(user)])
    assert result.exit_code == 1
    assert result.stderr == f"netcfg: {user}: exists and netcfg did not write it; name a new file\n"
    assert user.read_text() == "fabric:\n  name: mine\n"
