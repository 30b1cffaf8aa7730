"""Deploy state shared by a team in PostgreSQL (`--state postgresql://...`, `NETCFG_STATE`).

The way Terraform keeps a shared backend: runs, their journals and the configs they saved are
rows, and each device's lock is a PostgreSQL advisory lock, so two runners anywhere never push
one switch at once, and a push made on one machine is rolled back from another. The rows are
keyed by fabric name; one database serves many fabrics.

    netcfg_runs(fabric, run)                          a diff/push/rollback run
    netcfg_events(id, fabric, run, line)              its journal, one JSON event per row
    netcfg_saved(fabric, run, kind, device, text)     backup / candidate configs
    netcfg_locks(fabric, device, holder)              who holds a device (for the message)
    netcfg_switch_locks(switch, holder)               who holds a switch, of any fabric

A device lock is a session-level advisory lock on its own connection: PostgreSQL decides who
holds it, and it is free the moment the holder's connection ends, killed or not (the holder
row it leaves is then reported as a stale lock, as the local directory's lock files are).
The same session holds the switch's advisory lock, keyed by the address and port netcfg
connects to and by nothing of the fabric: runners of any fabric of the database, on any
machine, exclude each other on one switch. The machine's switch lock (runs.machine_locks) is
taken too, so a directory state's run on the same machine is held off as well.
Backups hold device password hashes: the database's access control is theirs to keep.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    import psycopg

SCHEMA = """
CREATE TABLE IF NOT EXISTS netcfg_runs (
    fabric text NOT NULL, run text NOT NULL, PRIMARY KEY (fabric, run));
CREATE TABLE IF NOT EXISTS netcfg_events (
    id bigserial PRIMARY KEY, fabric text NOT NULL, run text NOT NULL, line text NOT NULL);
CREATE INDEX IF NOT EXISTS netcfg_events_run ON netcfg_events (fabric, run, id);
CREATE TABLE IF NOT EXISTS netcfg_saved (
    fabric text NOT NULL, run text NOT NULL, kind text NOT NULL, device text NOT NULL,
    text text NOT NULL, PRIMARY KEY (fabric, run, kind, device));
CREATE TABLE IF NOT EXISTS netcfg_locks (
    fabric text NOT NULL, device text NOT NULL, holder text NOT NULL,
    PRIMARY KEY (fabric, device));
CREATE TABLE IF NOT EXISTS netcfg_switch_locks (
    switch text PRIMARY KEY, holder text NOT NULL);
"""

#: the advisory lock that serialises schema creation (two first runs at once)
SCHEMA_LOCK = 0x6E6574636667  # "netcfg"


def is_url(state: str) -> bool:
    return state.startswith(("postgresql://", "postgres://"))


class PgState:
    """The shared state of one fabric in one PostgreSQL database."""

    def __init__(self, url: str, fabric: str) -> None:
        self.url, self.fabric = url, fabric
        self._conn: psycopg.Connection[Any] | None = None
        self._guard = threading.Lock()
        self._written: Path | None = None

    def __str__(self) -> str:
        """The URL without its password (it is printed: `netcfg runs`, run messages)."""
        parts = urlsplit(self.url)
        host = parts.hostname or ""
        netloc = (f"{parts.username}@" if parts.username else "") + host + (
            f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")) + \
            f" (fabric {self.fabric})"

    def connect(self) -> psycopg.Connection[Any]:
        try:
            import psycopg
        except ImportError as exc:
            raise ModuleNotFoundError("a PostgreSQL state needs psycopg: pip install "
                                      "'netcfg-roce[postgresql]'", name="psycopg") from exc
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as exc:  # an OSError: the command's one line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ConnectionError(f"cannot reach the PostgreSQL state {self}: {first}") from None

    def db(self) -> psycopg.Connection[Any]:
        """The process's data connection (psycopg serialises the threads that share it),
        with the tables created on first use."""
        with self._guard:
            if self._conn is None or self._conn.closed:
                conn = self.connect()
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                    conn.execute(SCHEMA)
                self._conn = conn
            return self._conn

    def lock_key(self, device: str) -> int:
        return advisory_key(f"{self.fabric}\0{device}")

    def run_ids(self) -> list[str]:
        rows = self.db().execute("SELECT run FROM netcfg_runs WHERE fabric = %s ORDER BY run",
                                 (self.fabric,)).fetchall()
        return [r[0] for r in rows]

    def written_dir(self) -> Path:
        """A private directory for the configs `last_written` hands on as files (they hold
        password hashes: 0700, removed when the process ends)."""
        if self._written is None:
            self._written = Path(tempfile.mkdtemp(prefix="netcfg-written-"))
            atexit.register(shutil.rmtree, self._written, True)
        return self._written


def advisory_key(name: str) -> int:
    """PostgreSQL's advisory lock key (a signed 64-bit integer) for a name: the first eight
    bytes of its SHA-256."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def switch_lock_key(switch: str) -> int:
    """The advisory lock of a switch (`runs.switch_key`: its address and port), the same
    for every fabric of the database (a fabric name never starts with a NUL)."""
    return advisory_key(f"\0switch\0{switch}")


def holder_record(run_id: str, state: str | None = None) -> str:
    record = {"run": run_id, "pid": os.getpid(), "host": socket.gethostname(),
              "time": time.time()}
    return json.dumps({**record, "state": state} if state else record)


def parse_record(text: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(text or "null")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


# The run and the lock of a PostgreSQL state: `Run(state)` and `DeviceLock(state, ...)` give
# these for a PgState, so the engine and the commands use one interface for both.
from netcfg.deploy.runs import (  # noqa: E402 - runs imports us lazily
    DeviceLock,
    FleetBusy,
    FleetLock,
    LockHeld,
    Run,
    _who,
)


class PgRun(Run):
    """A run whose journal and saved configs are rows of the fabric's PostgreSQL state."""

    def __init__(self, state: Any, run_id: str | None = None, command: str = "push",
                 live: bool = False) -> None:
        from netcfg.deploy.runs import new_run_id

        assert isinstance(state, PgState)
        self.state, self.id = state, run_id or new_run_id()
        self.dir = Path(self.id)  # no directory: `where` names the database
        self._lock = threading.Lock()
        self._session: psycopg.Connection[Any] | None = None
        # a live push shares the fabric's fleet lock (runs.FleetLock), then holds its run's
        # own advisory lock on a session of its own, before its first row
        self._fleet = FleetLock(state, exclusive=False).acquire() if live else None
        if live:
            try:
                session = state.connect()
                try:
                    session.execute("SELECT pg_advisory_lock(%s)", (self._key(),))
                except BaseException:
                    session.close()
                    raise
            except BaseException:
                self.close()
                raise
            self._session = session
        inserted = state.db().execute(
            "INSERT INTO netcfg_runs (fabric, run) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            (state.fabric, self.id)).rowcount
        if inserted:
            self.record("-", "run", command=command, host=socket.gethostname(), pid=os.getpid())

    @classmethod
    def open_pg(cls, state: PgState, run_id: str) -> PgRun:
        found = state.db().execute("SELECT 1 FROM netcfg_runs WHERE fabric = %s AND run = %s",
                                   (state.fabric, run_id)).fetchone()
        if found is None:
            raise FileNotFoundError(f"no run {run_id} in {state}")
        run = object.__new__(cls)
        run.state, run.id, run.dir = state, run_id, Path(run_id)
        run._lock = threading.Lock()
        run._session = None
        run._fleet = None
        return run

    def _key(self) -> int:
        """The advisory lock a live run holds (`live=True`) while it runs."""
        assert isinstance(self.state, PgState)
        return self.state.lock_key(f"\0run\0{self.id}")

    def in_flight(self) -> bool:
        """Whether the runner of this run still holds its lock: PostgreSQL frees it with the
        runner's session, killed or not (on any machine)."""
        db = self.state.db()
        free = db.execute("SELECT pg_try_advisory_lock_shared(%s)", (self._key(),)).fetchone()
        if free and free[0]:
            db.execute("SELECT pg_advisory_unlock_shared(%s)", (self._key(),))
            return False
        return True

    def close(self) -> None:
        session, self._session = getattr(self, "_session", None), None
        if session is not None:
            try:  # unlocked now: the server ends a closed session's backend a moment later
                session.execute("SELECT pg_advisory_unlock(%s)", (self._key(),))
            finally:
                session.close()
        fleet, self._fleet = getattr(self, "_fleet", None), None
        if fleet is not None:
            fleet.release()

    @property
    def where(self) -> str:
        return f"{self.state} run {self.id}"

    def _append(self, line: str) -> None:
        self.state.db().execute(
            "INSERT INTO netcfg_events (fabric, run, line) VALUES (%s, %s, %s)",
            (self.state.fabric, self.id, line))

    def _lines(self) -> list[str]:
        rows = self.state.db().execute(
            "SELECT line FROM netcfg_events WHERE fabric = %s AND run = %s ORDER BY id",
            (self.state.fabric, self.id)).fetchall()
        return [r[0] for r in rows]

    def save(self, kind: str, device: str, text: str) -> None:
        self.state.db().execute(
            "INSERT INTO netcfg_saved (fabric, run, kind, device, text) VALUES "
            "(%s, %s, %s, %s, %s) ON CONFLICT (fabric, run, kind, device) DO UPDATE SET "
            "text = EXCLUDED.text", (self.state.fabric, self.id, kind, device, text))

    def saved(self, kind: str, device: str) -> str | None:
        row = self.state.db().execute(
            "SELECT text FROM netcfg_saved WHERE fabric = %s AND run = %s AND kind = %s "
            "AND device = %s", (self.state.fabric, self.id, kind, device)).fetchone()
        return row[0] if row else None

    def saved_devices(self, kind: str) -> list[str]:
        rows = self.state.db().execute(
            "SELECT device FROM netcfg_saved WHERE fabric = %s AND run = %s AND kind = %s "
            "ORDER BY device", (self.state.fabric, self.id, kind)).fetchall()
        return [r[0] for r in rows]


class PgLock(DeviceLock):
    """A device lock as a PostgreSQL advisory lock, on a connection of its own (a session's
    advisory locks are re-entrant: two locks on one session would not exclude each other).

    With `switch` (`runs.switch_key` of the target's address) the same session also holds the
    switch's advisory lock (`switch_lock_key`, the same for every fabric and every machine
    using the database), and the machine's switch lock is taken as a directory state's run
    takes it (`machine_locks()/SWITCH.lock`, flock): a run of a directory state on this
    machine, and a run of any fabric of the database anywhere, are held off the switch."""

    def __init__(self, state: Any, device: str, run_id: str, shared: bool = False,
                 switch: str | None = None) -> None:
        from netcfg.deploy.runs import machine_locks, private_dir

        assert isinstance(state, PgState)
        self.pg, self.device, self.run_id, self.shared = state, device, run_id, shared
        self.where, self.switch = str(state), switch
        #: the machine's lock file of the switch (DeviceLock._take holds it), None without
        self.switch_path = (private_dir(machine_locks()) / f"{switch}.lock"
                            if switch is not None else None)
        self.stale: dict[str, Any] | None = None
        self._fds: list[int] = []
        self._session: psycopg.Connection[Any] | None = None

    def acquire(self) -> PgLock:
        try:
            if self.switch_path is not None:  # the machine's first: no database round trip
                self._fds.append(self._take(self.switch_path))
            self._take_pg()
        except BaseException:
            self.release()
            raise
        return self

    def _take_pg(self) -> None:
        state = self.pg
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        session = state.connect()
        try:
            row = session.execute(f"SELECT {take}(%s)", (state.lock_key(self.device),)).fetchone()
            if not (row and row[0]):
                holder = parse_record(self._holder())
                who = (f"run {holder.get('run')} (pid {holder.get('pid')} on "
                       f"{holder.get('host')})" if holder else "a netcfg diff reading it")
                raise LockHeld(f"{self.device} is locked by {who}")
            if self.switch is not None:
                row = session.execute(f"SELECT {take}(%s)",
                                      (switch_lock_key(self.switch),)).fetchone()
                if not (row and row[0]):
                    raise LockHeld(f"{self.device} is locked by "
                                   f"{_who(parse_record(self._switch_holder()), self.where)}")
        except BaseException:
            session.close()  # ends the session, and with it whatever it took
            raise
        self._session = session
        if self.shared:
            return
        mine = holder_record(self.run_id, self.where)
        for previous in (parse_record(self._holder()), parse_record(self._switch_holder())):
            if previous and previous.get("run") != self.run_id and self.stale is None:
                self.stale = previous
        state.db().execute(
            "INSERT INTO netcfg_locks (fabric, device, holder) VALUES (%s, %s, %s) "
            "ON CONFLICT (fabric, device) DO UPDATE SET holder = EXCLUDED.holder",
            (state.fabric, self.device, mine))
        if self.switch is not None:
            state.db().execute(
                "INSERT INTO netcfg_switch_locks (switch, holder) VALUES (%s, %s) "
                "ON CONFLICT (switch) DO UPDATE SET holder = EXCLUDED.holder",
                (self.switch, mine))

    def _holder(self) -> str | None:
        row = self.pg.db().execute(
            "SELECT holder FROM netcfg_locks WHERE fabric = %s AND device = %s",
            (self.pg.fabric, self.device)).fetchone()
        return row[0] if row else None

    def _switch_holder(self) -> str | None:
        if self.switch is None:
            return None
        row = self.pg.db().execute("SELECT holder FROM netcfg_switch_locks WHERE switch = %s",
                                   (self.switch,)).fetchone()
        return row[0] if row else None

    def release(self) -> None:
        session, self._session = self._session, None
        try:
            if session is not None:
                self._release_pg(session)
        finally:
            super().release()  # the machine's switch lock, if taken

    def _release_pg(self, session: psycopg.Connection[Any]) -> None:
        try:
            if not self.shared:  # a clean release leaves no record to call stale
                self.pg.db().execute(
                    "DELETE FROM netcfg_locks WHERE fabric = %s AND device = %s",
                    (self.pg.fabric, self.device))
                if self.switch is not None:
                    self.pg.db().execute("DELETE FROM netcfg_switch_locks WHERE switch = %s",
                                         (self.switch,))
        finally:
            try:  # unlocked now: the server ends a closed session's backend a moment later,
                # and a run that takes the device next (a rollback after a push) must find it
                # free
                give = "pg_advisory_unlock_shared" if self.shared else "pg_advisory_unlock"
                keys = [self.pg.lock_key(self.device)]
                if self.switch is not None:
                    keys.append(switch_lock_key(self.switch))
                for key in keys:
                    session.execute(f"SELECT {give}(%s)", (key,))
            except Exception:  # noqa: BLE001 - closing the session frees it anyway
                pass
            session.close()  # ends the session, and with it the advisory locks


#: the netcfg_locks row a rollback holding the fleet lock leaves (no device is named so)
FLEET_ROW = "(rollback)"


class PgFleetLock(FleetLock):
    """The fabric's fleet lock as a PostgreSQL advisory lock on a session of its own: every
    runner's pushes share it, a rollback anywhere holds it alone."""

    def __init__(self, state: Any, exclusive: bool) -> None:
        assert isinstance(state, PgState)
        self.pg, self.exclusive = state, exclusive
        self._session: psycopg.Connection[Any] | None = None

    def _key(self) -> int:
        return self.pg.lock_key("\0fleet")

    def acquire(self) -> PgFleetLock:
        session = self.pg.connect()
        try:
            take = "pg_try_advisory_lock" if self.exclusive else "pg_try_advisory_lock_shared"
            row = session.execute(f"SELECT {take}(%s)", (self._key(),)).fetchone()
            if not (row and row[0]):
                found = self.pg.db().execute(
                    "SELECT holder FROM netcfg_locks WHERE fabric = %s AND device = %s",
                    (self.pg.fabric, FLEET_ROW)).fetchone()
                raise FleetBusy(parse_record(found[0]) if found else None)
        except BaseException:
            session.close()
            raise
        self._session = session
        if self.exclusive:
            self.pg.db().execute(
                "INSERT INTO netcfg_locks (fabric, device, holder) VALUES (%s, %s, %s) "
                "ON CONFLICT (fabric, device) DO UPDATE SET holder = EXCLUDED.holder",
                (self.pg.fabric, FLEET_ROW, holder_record("rollback")))
        return self

    def release(self) -> None:
        session, self._session = self._session, None
        if session is None:
            return
        try:
            if self.exclusive:
                self.pg.db().execute(
                    "DELETE FROM netcfg_locks WHERE fabric = %s AND device = %s",
                    (self.pg.fabric, FLEET_ROW))
        finally:
            try:  # unlocked now, not when the server ends the closed session's backend
                give = "pg_advisory_unlock" if self.exclusive else "pg_advisory_unlock_shared"
                session.execute(f"SELECT {give}(%s)", (self._key(),))
            except Exception:  # noqa: BLE001 - closing the session frees it anyway
                pass
            session.close()
