"""Deploy state in PostgreSQL (`--state postgresql://...`, NETCFG_STATE), against a real
server: Debian's postgresql, started here on a private Unix socket (`.ci/run` installs it and
sets NETCFG_REQUIRE_POSTGRES; elsewhere the tests skip with the install hint).

A push's run, journal and backups are rows, so `netcfg runs` and `netcfg rollback` from
another checkout in another working directory find them; a device lock is an advisory lock,
so a push in another process is refused the device while one is held, and gets it the moment
that process dies (its lock row is then named stale)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .cli_cases import serve
from .deploy_cases import BY_NOS, MULTIVENDOR

BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of its own (initdb, pg_ctl) on a Unix socket; its URL."""
    pytest.importorskip("psycopg", reason="pip install -e '.[postgresql]'")
    if not BINARIES:
        if os.environ.get("NETCFG_REQUIRE_POSTGRES"):
            pytest.fail("NETCFG_REQUIRE_POSTGRES is set but PostgreSQL is not installed")
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    bin_dir = Path(BINARIES[-1])
    home = Path(tempfile.mkdtemp(prefix="netcfg-pg-"))  # reachable by the postgres user
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        shutil.chown(home, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = home / "data"
    try:
        subprocess.run([*as_user, str(bin_dir / "initdb"), "-A", "trust", "-U", "netcfg",
                        "-D", str(data)], check=True, capture_output=True, timeout=120)
        subprocess.run([*as_user, str(bin_dir / "pg_ctl"), "-s", "-w", "-D", str(data), "-l",
                        str(home / "log"), "-o", f"-k {home} -p 5432 -c listen_addresses=''",
                        "start"], check=True, capture_output=True, timeout=120)
        yield f"postgresql://netcfg@/postgres?host={home}&port=5432"
    finally:
        subprocess.run([*as_user, str(bin_dir / "pg_ctl"), "-s", "-D", str(data), "-m",
                        "immediate", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(home, ignore_errors=True)


def _netcfg(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


HOLDER = """
import sys
from pathlib import Path
from netcfg.deploy.runs import DeviceLock, open_state
lock = DeviceLock(open_state(sys.argv[1], Path(sys.argv[2])), sys.argv[3], "held-elsewhere")
lock.acquire()
print("held", flush=True)
sys.stdin.read()
"""


def test_runs_backups_and_locks_are_shared_through_postgresql(postgres, tmp_path):
    import psycopg

    name = BY_NOS["eos"]
    alice, ci = tmp_path / "alice", tmp_path / "ci"
    for home in (alice, ci):
        shutil.copytree(MULTIVENDOR, home / "inventories" / "multivendor")
    env = {**os.environ, "NETCFG_STATE": postgres,
           "XDG_STATE_HOME": str(tmp_path / "xdg")}  # would hold a local state: must not
    with serve(tmp_path, [name]) as lab:
        args = ["inventories/multivendor", "--connect", str(lab.devices), "--device", name]

        # another process (a runner elsewhere) holds the switch: the push is refused it
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, postgres,
                                   str(ci / "inventories" / "multivendor"), name],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd=ci)
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            refused = _netcfg(alice, env, "push", *args, "--format", "json")
            assert refused.returncode == 4, refused.stdout + refused.stderr
            device = json.loads(refused.stdout)["devices"][0]
            assert device["status"] == "skipped"
            assert f"locked by run held-elsewhere (pid {holder.pid} on " in device["error"]
        finally:
            holder.send_signal(signal.SIGKILL)  # dies holding it: PostgreSQL frees the lock
            holder.wait(timeout=60)

        pushed = _netcfg(alice, env, "push", *args, "--format", "json")
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        report = json.loads(pushed.stdout)
        assert [d["status"] for d in report["devices"]] == ["confirmed"]
        assert "journal postgresql://netcfg@/postgres?host=" in pushed.stderr
        with psycopg.connect(postgres) as db:  # the lock row the killed holder left
            journal = [json.loads(line) for (line,) in db.execute(
                "SELECT line FROM netcfg_events WHERE run = %s ORDER BY id", (report["run"],))]
        assert [e["previous_run"] for e in journal
                if e["event"] == "stale-lock-cleaned"] == ["held-elsewhere"]

        listed = _netcfg(ci, env, "runs", "inventories/multivendor", "--format", "json")
        assert listed.returncode == 0, listed.stderr
        rows = {row["run"]: row for row in json.loads(listed.stdout)["runs"]}
        assert rows[report["run"]]["changed"] == [name]
        assert len(rows) == 2  # the refused push and the one that went through

        back = _netcfg(ci, env, "rollback", *args)
        assert back.returncode == 0, back.stdout + back.stderr
        assert f"rolling back run {report['run']}" in back.stderr
        assert "1 restored, 0 failed" in back.stdout
        # diff reads under a shared advisory lock: the switch runs its old config again
        drift = _netcfg(ci, env, "diff", *args)
        assert drift.returncode == 3 and f"{name}: drift" in drift.stdout, drift.stderr
    # nothing was kept locally but the machine's switch lock (tests/deploy/test_pg_switch_locks.py)
    assert [p.name for p in (tmp_path / "xdg" / "netcfg").iterdir()] == ["locks"]


def test_an_unreachable_database_is_one_line_without_its_password(tmp_path):
    pytest.importorskip("psycopg", reason="pip install -e '.[postgresql]'")
    env = {**os.environ, "NETCFG_STATE": "postgresql://team:s3cret-pw@127.0.0.1:1/netcfg"}
    done = _netcfg(tmp_path, env, "runs", str(MULTIVENDOR))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("netcfg: ConnectionError: cannot reach the PostgreSQL "
                                  "state postgresql://team@127.0.0.1:1/netcfg (fabric "
                                  "multivendor): ")
    assert done.stderr.count("\n") == 1 and "s3cret-pw" not in done.stderr
