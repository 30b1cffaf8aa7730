"""A push in flight, in its own `netcfg` process against `netcfg lab` in another: the lab's
`hang` fault leaves every request to the second switch unanswered, so the push stays in
flight (its canary confirmed, the second switch locked) until the test kills it. What the test
waits for is the journal and the lock files, never a time.

While it runs, `netcfg rollback` of the same state refuses (exit 1, one line naming the run)
instead of taking the running push for "the latest" and restoring its canary behind its back;
a push from another state directory is refused the locked switch; once the push is dead, the
same rollback restores the canary. A rollback that holds the state's fleet lock keeps a push of
the state, and another rollback, from starting."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from netcfg.deploy.runs import switch_key
from netcfg.deploy.targets import from_devices_file

from .cli_cases import ROOT, serve
from .deploy_cases import MULTIVENDOR, multivendor

CANARY, HELD = "leaf-su1-r1", "leaf-su1-r2"  # name order: the canary is pushed first

#: a rollback that has chosen its run (netcfg's own first step of `netcfg rollback`) and
#: waits on stdin before restoring anything: the fleet lock it took stays held until then
ROLLING = """
import sys
from pathlib import Path
from netcfg.deploy.runs import choose_rollback
run, devices, fleet = choose_rollback(Path(sys.argv[1]), None, {sys.argv[2]})
print("rolling back", run.id, flush=True)
sys.stdin.read()
"""


def _netcfg(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)


def _until(what: str, proc: subprocess.Popen[str], check: Callable[[], bool]) -> None:
    """Wait for `check` to hold while the push runs (the deadline only guards a hung test)."""
    deadline = time.monotonic() + 240
    while not check():
        assert proc.poll() is None, (what, proc.communicate())
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.05)


def _record(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text() or "null")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def test_rollback_refuses_while_a_push_runs_and_other_states_keep_off_its_switch(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "xdg")}
    a, b = tmp_path / "state-a", tmp_path / "state-b"
    with serve(tmp_path, [CANARY, HELD], "--fault", f"{HELD}=hang") as lab:
        fabric = multivendor().fabric
        assert fabric is not None
        held = from_devices_file(fabric, [fabric.devices[HELD]], lab.devices)[0]
        switch_lock = tmp_path / "xdg" / "netcfg" / "locks" / (
            switch_key(held.host, held.port) + ".lock")

        def args(state: Path, *names: str) -> list[str]:
            out = [str(MULTIVENDOR), "--connect", str(lab.devices), "--state", str(state)]
            for name in names:
                out += ["--device", name]
            return out

        push = subprocess.Popen(
            [sys.executable, "-m", "netcfg", "push", *args(a, CANARY, HELD), "--timeout",
             "900", "--format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        try:
            _until("the push's run", push,
                   lambda: (a / "runs").is_dir() and any((a / "runs").iterdir()))
            run = next((a / "runs").iterdir())
            journal = run / "journal.jsonl"

            def canary_confirmed_and_switch_held() -> bool:
                events = [json.loads(line) for line in journal.read_text().splitlines()
                          if line.endswith("}")]
                return ((CANARY, "confirmed") in {(e["device"], e["event"]) for e in events}
                        and _record(switch_lock).get("run") == run.name)

            _until("the canary confirmed and the second switch locked", push,
                   canary_confirmed_and_switch_held)

            listed = _netcfg(env, "runs", str(MULTIVENDOR), "--state", str(a), "--format",
                             "json")
            assert [(r["run"], r["running"]) for r in json.loads(listed.stdout)["runs"]] == [
                (run.name, True)]

            refused = _netcfg(env, "rollback", *args(a, CANARY, HELD))
            assert refused.returncode == 1, refused.stdout + refused.stderr
            assert refused.stdout == ""
            last = refused.stderr.strip().splitlines()[-1]
            assert last.startswith(f"netcfg: a push of this fabric is still running: run "
                                   f"{run.name} (pid {push.pid} on "), refused.stderr
            assert "roll back once it has ended" in last
            # nothing was restored: the canary still runs what the push confirmed
            assert _netcfg(env, "diff", *args(a, CANARY)).returncode == 0

            other = _netcfg(env, "push", *args(b, HELD), "--format", "json")
            assert other.returncode == 4, other.stdout + other.stderr
            device = json.loads(other.stdout)["devices"][0]
            assert (device["device"], device["status"]) == (HELD, "skipped")
            assert device["error"].startswith(
                f"{HELD} is locked by run {run.name} (pid {push.pid} on "), device
            assert device["error"].endswith(f", state {a})")
            skipped = [json.loads(line) for line in
                       next((b / "runs").iterdir()).joinpath("journal.jsonl").read_text()
                       .splitlines()]
            assert [(e["device"], e["event"]) for e in skipped if e["device"] != "-"] == [
                (HELD, "skipped")]
            assert push.poll() is None  # still in flight through all of the above
        finally:
            push.send_signal(signal.SIGKILL)
            push.communicate(timeout=60)

        # the push is gone (its locks with it): the same rollback now restores the canary
        listed = _netcfg(env, "runs", str(MULTIVENDOR), "--state", str(a))
        assert listed.stdout.startswith(f"{run.name}  ") and "running" not in listed.stdout

        # a rollback that has chosen its run holds the state's fleet lock until it ends: a
        # push of the state, and another rollback, refuse meanwhile (exit 1, nothing touched)
        rolling = subprocess.Popen([sys.executable, "-c", ROLLING, str(a), CANARY],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                   cwd=ROOT, env=env)
        try:
            assert rolling.stdout is not None
            assert rolling.stdout.readline() == f"rolling back {run.name}\n"
            pushed = _netcfg(env, "push", *args(a, CANARY))
            assert pushed.returncode == 1, pushed.stdout + pushed.stderr
            assert pushed.stderr.strip().splitlines()[-1] == (
                f"netcfg: a rollback of this fabric is running (pid {rolling.pid} on "
                f"{socket.gethostname()}); push once it has ended (no device was touched)")
            assert [p.name for p in (a / "runs").iterdir() if not p.name.startswith(".")] == [
                run.name]  # the refused push left no run
            again = _netcfg(env, "rollback", *args(a, CANARY, HELD))
            assert again.returncode == 1
            assert again.stderr.strip().splitlines()[-1] == (
                f"netcfg: another rollback of this fabric is running (pid {rolling.pid} on "
                f"{socket.gethostname()}); roll back once it has ended")
        finally:
            assert rolling.stdin is not None
            rolling.stdin.close()
            rolling.wait(timeout=60)
        back = _netcfg(env, "rollback", *args(a, CANARY, HELD))
        assert back.returncode == 0, back.stdout + back.stderr
        assert f"rolling back run {run.name}" in back.stderr
        assert "1 restored, 0 failed" in back.stdout
        drift = _netcfg(env, "diff", *args(a, CANARY))
        assert drift.returncode == 3 and f"{CANARY}: drift" in drift.stdout
