"""docs/api.md's examples, run in order from the repository root: the documentation of the
Python API cannot drift from what it does. Plus the API's own contract: no file written, and
the same findings and files as the command line."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg import api
from netcfg.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"


def test_the_documented_examples_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.S)
    assert len(blocks) >= 6
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), namespace)  # noqa: S102 - our own docs


def test_in_memory_configs_equal_the_rendered_files(tmp_path):
    fabric = api.from_yaml((EXAMPLE / "fabric.yaml").read_text(),
                           (EXAMPLE / "devices.yaml").read_text()
                           if (EXAMPLE / "devices.yaml").exists() else None)
    assert fabric.ok, fabric.findings
    before = set(os.listdir(tmp_path))
    files = api.configs(fabric)
    assert set(os.listdir(tmp_path)) == before
    out = tmp_path / "out"
    rendered = CliRunner().invoke(main, ["render", str(EXAMPLE), "--out", str(out)])
    assert rendered.exit_code == 0, rendered.output
    on_disk = {p.relative_to(out).as_posix(): p.read_text() for p in out.rglob("*")
               if p.is_file() and not p.name.startswith(".")}
    assert files == {k: v for k, v in on_disk.items() if k in files}
    assert set(files) <= set(on_disk)


def test_findings_equal_the_command_lines(tmp_path):
    text = (EXAMPLE / "fabric.yaml").read_text().replace("dscp: [26]", "dscp: [64]")
    (tmp_path / "fabric.yaml").write_text(text)
    from_disk = api.load(tmp_path)
    in_memory = api.from_yaml(text)
    assert [(f.rule, f.line, f.column, f.message) for f in from_disk.findings] == \
        [(f.rule, f.line, f.column, f.message) for f in in_memory.findings]


def test_an_unknown_device_is_a_key_error():
    with pytest.raises(KeyError):
        api.device_config(api.load(EXAMPLE), "no-such-switch")


def test_the_stable_surface_is_what_all_says():
    assert sorted(api.__all__) == sorted(
        n for n in vars(api) if not n.startswith("_") and n in api.__all__)
    for name in api.__all__:
        assert getattr(api, name).__doc__, name


def test_data_yaml_cannot_hold_is_a_finding_not_an_exception():
    class Thing:
        pass

    result = api.from_data({"fabric": {"name": Thing()}})
    assert not result.ok
    assert [(f.rule, f.message) for f in result.findings] == [
        ("SCH003", "the intent holds a Thing, which is not YAML data (use mappings, lists, "
                   "strings, numbers and booleans)")]
