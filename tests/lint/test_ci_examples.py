"""The pre-commit hook and the CI examples parse, and every netcfg option they use exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import yaml

from netcfg.cli import main

ROOT = Path(__file__).resolve().parents[2]
CI_FILES = [ROOT / "docs" / "ci" / "github-actions.yml", ROOT / "docs" / "ci" / "gitlab-ci.yml"]


def test_pre_commit_hook():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "netcfg-lint" and hook["language"] == "python"
    module = hook["entry"].split()[-1]
    assert callable(importlib.import_module(module).main)
    files = re.compile(hook["files"])
    assert files.search("inventories/prod/fabric.yaml")
    assert files.search("inventories/prod/devices.yaml")
    assert not files.search("docs/fabric.yaml.md")


def test_ci_examples_use_real_options():
    for path in CI_FILES:
        yaml.safe_load(path.read_text())
        for line in path.read_text().splitlines():
            m = re.search(r"\bnetcfg (lint|render) (.*)", line)
            if not m or line.lstrip().startswith("#"):
                continue
            command = main.commands[m.group(1)]
            known = {o for p in command.params for o in getattr(p, "opts", [])}
            used = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(2).split("||")[0]))
            assert used <= known, (path.name, line, used - known)
