"""A PostgreSQL state locks the switch, not only its fabric's device: the advisory lock of the
switch's address in the database (any fabric, any machine) and the machine's switch lock
(what a directory state takes), against a real server (tests/deploy/test_pg_state.py starts
it) and real `netcfg` processes against `netcfg lab` in its own process.

Two "machines" are two `XDG_STATE_HOME`s (the machine's switch locks live there) with two
connections to one database; two fabrics of the database are two copies of the inventory
that differ in `fabric.name` only, so their device locks are keyed apart and only the switch
lock can keep them off one switch. The push that holds the switch stays in flight on the
lab's `hang` fault; the test waits on the database's rows and PostgreSQL's own `pg_locks`,
never on a time."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from netcfg.deploy.runs import DeviceLock, LockHeld, switch_key

from .cli_cases import ROOT, serve
from .deploy_cases import MULTIVENDOR
from .test_pg_state import postgres  # noqa: F401 - the server fixture

SWITCH = "leaf-su1-r1"  # an EOS leaf of the multivendor inventory


def _fabric_copy(where: Path, name: str) -> Path:
    """The multivendor inventory under another `fabric.name` (nothing else differs)."""
    shutil.copytree(MULTIVENDOR, where)
    intent = where / "fabric.yaml"
    text = intent.read_text()
    assert "\n  name: multivendor\n" in text
    intent.write_text(text.replace("\n  name: multivendor\n", f"\n  name: {name}\n", 1))
    return where


def _netcfg(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)


def _until(what: str, proc: subprocess.Popen[str] | None, check: Callable[[], bool]) -> None:
    """Wait for `check` (the deadline only guards a hung test)."""
    deadline = time.monotonic() + 240
    while not check():
        assert proc is None or proc.poll() is None, (what, proc.communicate())
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.05)


def test_a_switch_is_locked_across_fabrics_of_the_database_and_for_the_machine(
        postgres, tmp_path, monkeypatch):  # noqa: F811
    """In one process, as the engine takes them: a push of fabric A holds the switch; fabric
    B's push is refused it naming A's run and state, and so is B's reader; a directory state
    on this machine is refused too; another port of the address is another switch. Each
    "machine" is an XDG_STATE_HOME of its own (where its switch lock files live)."""
    from netcfg.deploy.state_pg import PgState

    def machine(name: str) -> None:
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / name))

    a, b = PgState(postgres, "fabric-a"), PgState(postgres, "fabric-b")
    switch = switch_key("127.0.0.1", 10443)
    machine("one")
    held = DeviceLock(a, "leaf1", "run-a", switch=switch).acquire()
    mine = f"run run-a \\(pid {os.getpid()} on [^,]+, state postgresql://netcfg@/postgres"
    # this machine, a directory state: the machine's lock file names the holder
    with pytest.raises(LockHeld, match=mine):
        DeviceLock(tmp_path / "dir-state", "leaf1", "run-c", switch=switch).acquire()
    machine("two")  # another machine: only PostgreSQL's switch lock is shared
    with pytest.raises(LockHeld, match=mine) as refused:
        DeviceLock(b, "spine9", "run-b", switch=switch).acquire()
    assert str(refused.value).startswith("spine9 is locked by ")
    assert str(refused.value).endswith(" (fabric fabric-a))")
    with pytest.raises(LockHeld, match="run-a"):
        DeviceLock(b, "spine9", "diff", shared=True, switch=switch).acquire()
    DeviceLock(b, "spine9", "run-b", switch=switch_key("127.0.0.1", 10444)).acquire().release()
    held.release()
    # readers of two fabrics share the switch, and keep a push of either off it
    one = DeviceLock(a, "leaf1", "diff", shared=True, switch=switch).acquire()
    two = DeviceLock(b, "spine9", "diff", shared=True, switch=switch).acquire()
    with pytest.raises(LockHeld, match="a netcfg diff reading it"):
        DeviceLock(b, "spine9", "run-b", switch=switch).acquire()
    one.release()
    two.release()
    after = DeviceLock(b, "spine9", "run-b", switch=switch).acquire()
    assert after.stale is None  # a clean release leaves no record
    after.release()


def test_a_killed_push_holds_the_switch_until_postgresql_frees_it(postgres, tmp_path):  # noqa: F811
    import psycopg

    here = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "here")}
    there = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "there")}  # another machine
    other = _fabric_copy(tmp_path / "other", "multivendor-other")
    # the switch's first request is never answered: the push holds it, in flight
    with serve(tmp_path, [SWITCH], "--fault", f"{SWITCH}=hang::1") as lab:

        def args(inventory: Path, state: str) -> list[str]:
            return [str(inventory), "--connect", str(lab.devices), "--state", state,
                    "--device", SWITCH]

        push = subprocess.Popen(
            [sys.executable, "-m", "netcfg", "push", *args(MULTIVENDOR, postgres),
             "--timeout", "900", "--format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=here)
        db = psycopg.connect(postgres, autocommit=True)
        try:
            holder: dict[str, object] = {}

            def switch_held() -> bool:
                rows = db.execute("SELECT to_regclass('netcfg_switch_locks') IS NOT NULL"
                                  ).fetchone()
                if not (rows and rows[0]):
                    return False
                for (text,) in db.execute("SELECT holder FROM netcfg_switch_locks"):
                    holder.update(json.loads(text))
                return holder.get("pid") == push.pid

            _until("the push holding the switch", push, switch_held)
            run = str(holder["run"])
            assert str(holder["state"]).endswith(" (fabric multivendor)")

            # this machine, a directory state: the machine's switch lock refuses it
            local = _netcfg(here, "push", *args(MULTIVENDOR, str(tmp_path / "dir-state")),
                            "--format", "json")
            assert local.returncode == 4, local.stdout + local.stderr
            device = json.loads(local.stdout)["devices"][0]
            assert (device["status"], device["stage"]) == ("skipped", "lock")
            assert device["error"].startswith(
                f"{SWITCH} is locked by run {run} (pid {push.pid} on "), device
            assert device["error"].endswith(" (fabric multivendor))")

            # another machine, another fabric of the database: PostgreSQL's switch lock
            remote = _netcfg(there, "push", *args(other, postgres), "--format", "json")
            assert remote.returncode == 4, remote.stdout + remote.stderr
            device = json.loads(remote.stdout)["devices"][0]
            assert (device["status"], device["stage"]) == ("skipped", "lock")
            assert device["error"].startswith(
                f"{SWITCH} is locked by run {run} (pid {push.pid} on "), device
            refused_run = json.loads(remote.stdout)["run"]
            journal = [json.loads(line) for (line,) in db.execute(
                "SELECT line FROM netcfg_events WHERE fabric = %s AND run = %s ORDER BY id",
                ("multivendor-other", refused_run))]
            assert [(e["device"], e["event"], e.get("reason")) for e in journal
                    if e["device"] != "-"] == [(SWITCH, "skipped", device["error"])]
            assert push.poll() is None  # still in flight through all of the above
        finally:
            push.send_signal(signal.SIGKILL)
            push.communicate(timeout=60)

        try:
            # PostgreSQL ends the killed push's sessions, and their advisory locks with them
            _until("PostgreSQL freeing the killed push's locks", None, lambda: db.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone() == (0,))
        finally:
            db.close()

        pushed = _netcfg(there, "push", *args(other, postgres), "--format", "json")
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        report = json.loads(pushed.stdout)
        assert [d["status"] for d in report["devices"]] == ["confirmed"]
        listed = _netcfg(there, "runs", str(other), "--state", postgres, "--format", "json")
        rows = {row["run"]: row for row in json.loads(listed.stdout)["runs"]}
        assert rows[refused_run]["devices"] == {"skipped": 1}
        assert rows[report["run"]]["changed"] == [SWITCH]
        with psycopg.connect(postgres) as check:  # the record the killed push left is stale
            journal = [json.loads(line) for (line,) in check.execute(
                "SELECT line FROM netcfg_events WHERE run = %s ORDER BY id", (report["run"],))]
            assert check.execute("SELECT count(*) FROM netcfg_switch_locks").fetchone() == (0,)
        assert [e["previous_run"] for e in journal
                if e["event"] == "stale-lock-cleaned"] == [run]
