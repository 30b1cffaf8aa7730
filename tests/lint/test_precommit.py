"""The pre-commit entry lints each inventory the changed files belong to."""

from __future__ import annotations

from lint.cases import EXAMPLE, edit, write
from netcfg.lint.precommit import inventory_of, main

BROKEN = edit(EXAMPLE, "seeds: {leaf: 10, spine: 25}", "seeds: {leaf: 10, spine: 10}")


def test_changed_files_map_to_their_inventory(tmp_path):
    inv = write(tmp_path / "inventories" / "a", EXAMPLE)
    (inv / "devices.yaml").write_text("devices: {}\n")
    assert inventory_of(inv / "devices.yaml") == inv
    assert inventory_of(inv / "fabric.yaml") == inv
    assert inventory_of(tmp_path / "README.md") is None


def test_exit_status_follows_the_gate(tmp_path, capsys):
    good = write(tmp_path / "good", EXAMPLE)
    bad = write(tmp_path / "bad", BROKEN)
    assert main([str(good / "fabric.yaml")]) == 0
    assert main([str(good / "fabric.yaml"), str(bad / "fabric.yaml"), "--no-deadlock"]) == 1
    out = capsys.readouterr().out
    assert "HSH001 error" in out and str(bad) in out
    assert main(["--fail-on", "warning", str(tmp_path / "unrelated.txt")]) == 0
