"""The extras a command names exist in pyproject.toml, and the line it prints for a module
found missing while it ran (the base-only install itself is tests/test_wheel.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from netcfg import extras

ROOT = Path(__file__).resolve().parent.parent


def test_every_named_extra_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = set(project["optional-dependencies"])
    named = set(extras.EXTRA_OF_MODULE.values()) | {e for e, _ in extras.COMMANDS.values()}
    assert named <= declared
    assert project["name"] == extras.DISTRIBUTION == "netcfg-roce"
    base = " ".join(project["dependencies"]).lower()
    for module in ("napalm", "netmiko", "asyncssh", "aiohttp", "nornir", "distributed"):
        assert module not in base, module
    deploy = " ".join(project["optional-dependencies"]["deploy"]).lower()
    for module in ("napalm", "netmiko", "asyncssh", "aiohttp", "cryptography"):
        assert module in deploy, module
    # `.ci/run` installs `.[test,lint]`: the test extra brings every command's packages
    everything = "netcfg-roce[deploy,verify,twin,nornir,cluster,postgresql]"
    assert everything in project["optional-dependencies"]["test"]


def installed_from() -> str | None:
    """pip's record of where this netcfg-roce came from (PEP 610 direct_url.json)."""
    import json
    from importlib.metadata import distributions

    for found in distributions(name="netcfg-roce"):
        record = json.loads(found.read_text("direct_url.json") or "null")
        if record:
            return record["url"] if record.get("dir_info", {}).get("editable") else ""
    return None


def test_a_module_found_missing_names_its_extra_in_one_line() -> None:
    """The tests run on an editable install of this checkout (`pip install -e .`): the hint
    adds the extra to that checkout; a wheel's install is told the index name (the base-only
    virtual environment of tests/test_wheel.py)."""
    if installed_from() != ROOT.as_uri():
        pytest.skip("netcfg-roce is not installed in editable mode from this checkout")
    assert extras.missing_module("push", "napalm.base") == (
        f"netcfg push needs the deploy extra (napalm not installed): "
        f"pip install -e '{ROOT}[deploy]'")
    assert extras.missing_module("deadlock", "distributed") == (
        f"netcfg deadlock needs the cluster extra (distributed not installed): "
        f"pip install -e '{ROOT}[cluster]'")
    assert extras.missing_module("render", "not_an_optional_module") is None
    assert extras.missing_for("validate") is None
    assert extras.missing_for("push") is None  # this environment has the deploy extra
