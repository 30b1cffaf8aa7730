"""netcfg touches only its own files: a crafted manifest, a symbolic link below `--out`, an
intent named as the lab's devices file, a run id that is a path, a state directory the user
made, a device node or link named as `--output`. Each case runs the real `netcfg` in its own
process and says by hand what must be left as it was."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from netcfg.deploy.runs import Run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
MANIFEST = ".netcfg-manifest"


def netcfg(*args: str, code: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NETCFG_PASSWORD": "only-read-never-sent"}  # the example's login
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _manifest_naming(out: Path, owner: str, name: str) -> None:
    data = json.loads((out / MANIFEST).read_text())
    data["owners"][owner].append(name)
    (out / MANIFEST).write_text(json.dumps(data))


@pytest.mark.parametrize("command,owner,entry", [
    ("render", "example", "../../x"), ("render", "example", "absolute"),
    ("docs", "example docs", "../../x")])
def test_a_manifest_naming_a_file_outside_out_deletes_nothing(tmp_path, command, owner, entry):
    victim = tmp_path / "x"
    victim.write_text("the user's file\n")
    out = tmp_path / "a" / "out"
    netcfg(command, str(EXAMPLE), "--out", str(out), code=0)
    name = str(victim) if entry == "absolute" else "../../x"
    assert (out / name).resolve() == victim.resolve()  # the crafted entry names the victim
    _manifest_naming(out, owner, name)
    refused = netcfg(command, str(EXAMPLE), "--out", str(out), code=1)
    assert f"names {name!r}, not a plain name inside" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert victim.read_text() == "the user's file\n"


def test_render_never_writes_or_removes_through_a_linked_subdirectory(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    netcfg("render", str(EXAMPLE), "--out", str(out), code=0)
    shutil.move(out / "hosts", elsewhere)  # hosts/ now lives elsewhere, reached by a link
    (out / "hosts").symlink_to(elsewhere, target_is_directory=True)
    (elsewhere / "connectx-7.json").write_text("someone else's\n")
    before = sorted(p.name for p in elsewhere.iterdir())
    refused = netcfg("render", str(EXAMPLE), "--out", str(out), code=1)
    assert f"{out / 'hosts'} is a symbolic link" in refused.stderr
    assert (elsewhere / "connectx-7.json").read_text() == "someone else's\n"
    assert sorted(p.name for p in elsewhere.iterdir()) == before
    # a partial render would remove nothing, but still writes only below real directories
    netcfg("render", str(EXAMPLE), "--out", str(out), "--device", "spine1", code=0)
    assert (elsewhere / "connectx-7.json").read_text() == "someone else's\n"


def test_the_lab_refuses_to_write_its_devices_file_over_an_intent(tmp_path):
    inv = tmp_path / "inv"
    shutil.copytree(EXAMPLE, inv)
    before = (inv / "fabric.yaml").read_bytes()
    refused = netcfg("lab", str(inv), "--out", str(inv / "fabric.yaml"), "--limit", "1", code=1)
    assert "fabric.yaml: exists and netcfg did not write it" in refused.stderr
    assert (inv / "fabric.yaml").read_bytes() == before


def test_the_lab_rewrites_its_own_file_and_leaves_a_replaced_one_at_exit(tmp_path):
    """A devices file an earlier lab wrote is the lab's to write again; at Ctrl-C the lab
    removes only the file it wrote, not one that took its place meanwhile."""
    devices = tmp_path / "devices.yaml"
    devices.write_text("# written by `netcfg lab`; valid while the lab runs (credentials are "
                       "per run)\ndevices: {}\n")
    proc = subprocess.Popen([sys.executable, "-m", "netcfg", "lab", str(EXAMPLE), "--out",
                             str(devices), "--device", "spine1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "serving ..." once the file is written
        assert line.startswith("serving 1 device(s)"), line + proc.stderr.read()
        assert "spine1" in devices.read_text()
        devices.unlink()
        devices.write_text("the user's own\n")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert devices.read_text() == "the user's own\n"


def test_the_labs_stop_signal_is_never_lost_nor_waits_on_a_lock():
    """The lab waits for Ctrl-C through the interpreter's wakeup pipe, not an Event a signal
    handler sets (a handler run while `Event.wait` held the event's lock blocked on it for
    ever: the test above hung about once in 300 starts). A signal that comes before the wait,
    while the lab starts, ends the wait at once."""
    code = ("import os, signal\n"
            "from netcfg.lab.cli import _stop_signals\n"
            "stopped = _stop_signals()\n"
            "os.kill(os.getpid(), signal.SIGTERM)\n"
            "os.kill(os.getpid(), signal.SIGINT)\n"
            "stopped()\n"
            "stopped()\n"
            "print('stopped twice')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "stopped twice\n", "")


def test_rollback_takes_only_a_run_id(tmp_path):
    """`--run ../../../x` named a journal and a backup outside the state: refused before
    anything is read or appended."""
    state = tmp_path / "p" / "state"
    foreign = tmp_path / "x"
    (foreign / "backup").mkdir(parents=True)
    journal = ('{"command": "push", "device": "-", "event": "run", "time": 1.0}\n'
               '{"device": "spine1", "event": "confirmed", "time": 2.0}\n')
    (foreign / "journal.jsonl").write_text(journal)
    (foreign / "backup" / "spine1").write_text("hostname someone-else\n")
    assert (state / "runs" / "../../../x").resolve() == foreign.resolve()
    refused = netcfg("rollback", str(EXAMPLE), "--state", str(state), "--run", "../../../x",
                     code=1)
    assert "'../../../x' is not a run id" in refused.stderr
    assert (foreign / "journal.jsonl").read_text() == journal


def test_a_state_directory_the_user_made_keeps_its_mode_and_gets_no_gitignore(tmp_path):
    """At a repository's root, a `.gitignore` of `*` hid the user's untracked files from git
    and the root became 0700. netcfg's own runs/ still ignores itself."""
    repo = tmp_path / "repo"
    repo.mkdir()
    os.chmod(repo, 0o755)
    (repo / "notes.txt").write_text("mine\n")
    run = Run(repo)
    run.save("backup", "sw1", "username admin secret sha512 $6$x\n")
    assert stat.S_IMODE(repo.stat().st_mode) == 0o755
    assert not (repo / ".gitignore").exists()
    if shutil.which("git") is None:
        return
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain",
                             "--untracked-files=all"], capture_output=True, text=True,
                            check=True).stdout
    assert status.splitlines() == ["?? notes.txt"]  # the user's file, and no backup


@pytest.mark.parametrize("kind", ["fifo", "link", "device"])
def test_an_output_that_is_no_regular_file_of_netcfgs_is_left_as_it_is(tmp_path, kind):
    target = tmp_path / "report"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link":
        target.symlink_to(tmp_path / "elsewhere.json")
    elif os.geteuid() == 0:
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the null device's numbers
    else:
        pytest.skip("making a device node needs root")
    before = os.lstat(target)
    refused = netcfg("validate", str(EXAMPLE), "--output", str(target), code=1)
    assert f"netcfg: {target}: " in refused.stderr
    after = os.lstat(target)
    assert (after.st_ino, stat.S_IFMT(after.st_mode)) == (before.st_ino,
                                                          stat.S_IFMT(before.st_mode))
    assert not (tmp_path / "elsewhere.json").exists()


def test_an_output_of_dash_is_stdout_and_a_report_is_rewritten(tmp_path):
    shown = netcfg("validate", str(EXAMPLE), "--format", "json", "--output", "-", code=0)
    assert json.loads(shown.stdout)["fabric"] == "example"
    assert not (ROOT / "-").exists()
    report = tmp_path / "report.json"
    for _ in range(2):  # a CI job that writes its report again
        netcfg("validate", str(EXAMPLE), "--format", "json", "--output", str(report), code=0)
    assert json.loads(report.read_text())["ok"] is True
