"""Where deploy state lives and who can read it: outside the inventory by default, every
directory netcfg creates 0700 (runs/ included), and ignored by git (checked with git itself)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest

from netcfg.deploy.runs import Run, default_state, list_runs


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_directory_netcfg_creates_is_private(tmp_path):
    run = Run(tmp_path / "new" / "state")
    for d in (tmp_path / "new", run.state, run.state / "runs", run.dir):
        assert _mode(d) == 0o700, d
    run.save("backup", "sw1", "username admin secret sha512 $6$x\n")
    assert _mode(run.dir / "backup") == 0o700
    assert _mode(next((run.dir / "backup").iterdir())) == 0o600


def test_a_directory_the_user_made_keeps_its_mode(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    os.chmod(mine, 0o755)
    run = Run(mine / "state")
    assert _mode(mine) == 0o755 and _mode(run.state) == 0o700


def test_listing_and_opening_runs_changes_nothing(tmp_path):
    """`netcfg runs` and rollback read runs as they are: a run directory someone opened up
    (0755) stays so, and no directory is created by reading."""
    run = Run(tmp_path / "state")
    os.chmod(run.dir, 0o755)
    before = sorted(p.name for p in (tmp_path / "state").rglob("*"))
    assert [r.id for r in list_runs(tmp_path / "state")] == [run.id]
    assert Run.open(tmp_path / "state", run.id).events()[0].event == "run"
    assert _mode(run.dir) == 0o755
    assert sorted(p.name for p in (tmp_path / "state").rglob("*")) == before
    with pytest.raises(FileNotFoundError):
        Run.open(tmp_path / "elsewhere", run.id)
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_state_directory_is_ignored_by_git_inside_a_repository(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    run = Run(repo / "inventory" / ".state")
    run.save("backup", "sw1", "secret\n")
    backup = next((run.dir / "backup").iterdir())
    got = subprocess.run(["git", "-C", str(repo), "check-ignore", "-q", str(backup)])
    assert got.returncode == 0  # ignored
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain",
                             "--untracked-files=all"], capture_output=True, text=True, check=True)
    assert ".state" not in status.stdout


def test_the_default_state_is_outside_the_inventory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    inv = tmp_path / "inventories" / "example"
    inv.mkdir(parents=True)
    (inv / "fabric.yaml").write_text("fabric: {name: x}\n")
    state = default_state(inv)
    assert state == tmp_path / "xdg" / "netcfg" / "fabrics" / "x"  # the fabric's name
    assert inv not in (state, *state.parents)
    assert default_state(inv / "fabric.yaml") == state  # the file or its directory
    monkeypatch.chdir(tmp_path)
    assert default_state(inv.relative_to(tmp_path)) == state  # however it is spelt
    other = tmp_path / "elsewhere" / "example"
    other.mkdir(parents=True)
    (other / "fabric.yaml").write_text("fabric: {name: y}\n")
    assert default_state(other) != state  # another fabric
