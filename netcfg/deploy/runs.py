"""A deploy run on disk: journal, backups of running configs, and per-device locks.

Layout under the state directory (default outside the inventory, `default_state`; every
directory netcfg creates there is 0700, and the state directory ignores itself in git):

    runs/<run-id>/journal.jsonl      one JSON event per line, fsync'd before the step it records
    runs/<run-id>/backup/<device>    the running config saved before any commit (0600)
    runs/<run-id>/candidate/<device> what was loaded (0600)
    locks/<device>.lock              held while a run touches the device
    locks/.fleet.lock                shared by running pushes, held alone by a rollback
                                     (runs/<run-id>/ itself is locked while its push runs)

and, for the machine (every state directory of the user's, `machine_locks`):

    $XDG_STATE_HOME/netcfg/locks/<switch address>-<port>.lock   held while a run touches it
    .gitignore                       `*`: backups hold password hashes, never commit them

The journal is the answer to "what state did the run leave each device in", also after a
crash or Ctrl-C; nothing in it is a credential (`redact` is applied to every detail).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets as _random
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from netcfg.deploy.secrets import redact
from netcfg.fsutil import UnreadableFile, read_regular

if TYPE_CHECKING:
    from netcfg.deploy.state_pg import PgState

#: where runs live: a local directory, or a PostgreSQL database shared by a team
#: (netcfg/deploy/state_pg.py)
State: TypeAlias = "Path | PgState"


def open_state(given: str | None, inventory: Path) -> State:
    """`--state` (or NETCFG_STATE): a directory, or a postgresql:// URL whose rows are keyed
    by the fabric's name; else the default directory (`default_state`)."""
    given = given or os.environ.get("NETCFG_STATE") or None
    if given is None:
        return default_state(inventory)
    from netcfg.deploy.state_pg import PgState, is_url

    if not is_url(given):
        return Path(given)
    name = fabric_name(inventory)
    if name is None:
        raise ValueError(f"{inventory}: no fabric name to key the PostgreSQL state by")
    return PgState(given, name)


class BadJournal(ValueError):
    """A journal that cannot be read (empty, a broken line, not a file, too large); the
    message is one line naming it."""


#: largest journal read (a push of 32,768 switches journals some 70 MB)
MAX_JOURNAL_BYTES = 256 * 2**20
#: largest saved config (backup, candidate) read back: an intent file's bound
MAX_SAVED_BYTES = 64 * 2**20


class LockHeld(Exception):
    """Another live run holds the device."""


class RollbackRefused(Exception):
    """A rollback that must not start (nothing was touched); the message is one line."""


def default_state(inventory: Path) -> Path:
    """Where runs of an inventory live unless `--state` says otherwise: outside it (backups
    hold device password hashes and must not land in the inventory's repository), under
    `$XDG_STATE_HOME/netcfg/fabrics/` (default `~/.local/state/netcfg/fabrics/`), one
    directory per fabric name: every checkout of a fabric (a colleague's clone, a CI
    workspace) finds the runs, backups and locks of the others on the machine, so a push made
    from one can be rolled back from another and two never push one switch at once. An
    inventory whose name cannot be read (no fabric.yaml yet) gets its directory's name and a
    hash of its path, as every inventory did before."""
    base = inventory if inventory.is_dir() else inventory.parent
    root = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    name = fabric_name(inventory)
    if name is not None:
        return root / "netcfg" / "fabrics" / name
    digest = hashlib.sha256(str(base.resolve()).encode()).hexdigest()[:12]
    return root / "netcfg" / f"{base.resolve().name}-{digest}"


#: a fabric name as the intent's schema allows it (netcfg.intent.base.Name)
_FABRIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}")


def fabric_name(inventory: Path) -> str | None:
    """`fabric.name` of the inventory (a directory with fabric.yaml, or the file), read
    without validating the rest; None when it is missing or not a name usable as a
    directory."""
    import yaml

    path = inventory / "fabric.yaml" if inventory.is_dir() else inventory
    try:
        data = yaml.load(path.read_text(encoding="utf-8"),
                         Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    fabric = data.get("fabric") if isinstance(data, dict) else None
    name = fabric.get("name") if isinstance(fabric, dict) else None
    if not isinstance(name, str) or not _FABRIC_NAME.fullmatch(name):
        return None
    return name


def private_dir(path: Path) -> Path:
    """`path`, with every directory created on the way 0700 (directories that exist are the
    user's and keep their mode, except `path` itself)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for p in reversed(missing):
        p.mkdir(mode=0o700, exist_ok=True)
        os.chmod(p, 0o700)
    os.chmod(path, 0o700)
    return path


def _write_private(path: Path, text: str) -> None:
    """Atomically, 0600, through a temporary name of its own (two runs starting at once write
    the state's .gitignore together: one shared temporary name let one rename the other's)."""
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def prepare_state(state: Path) -> Path:
    """A state directory ready for runs: created 0700 with a `.gitignore` of `*` when netcfg
    creates it; a directory netcfg did not create keeps its mode and gets no file of
    netcfg's (a `.gitignore` of `*` at a repository's root hid the user's own files from
    git): the `.gitignore` then goes into `runs/`."""
    fresh = not state.exists()
    if fresh:
        private_dir(state)
    ignore = state / ".gitignore"
    if fresh:
        _write_private(ignore, "# netcfg run state: backups hold device password hashes\n*\n")
    elif not (state / "runs").exists() and not ignore.exists():
        _write_private(private_dir(state / "runs") / ".gitignore",
                       "# netcfg runs: backups hold device password hashes\n*\n")
    return state


#: what a run id is: a plain name (`new_run_id` makes them), never a path
RUN_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_.\-]{0,127}")


def new_run_id() -> str:
    """UTC start time to the millisecond, then a random tail: ids sort as runs started (to
    the second only, two runs of one second sorted at random and `rollback` could pick the
    older as the latest)."""
    now = time.time()
    return (time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
            + "-" + _random.token_hex(3))


@dataclass
class Event:
    time: float
    device: str
    event: str
    detail: dict[str, Any]


class Run:
    """One diff/push/rollback invocation's directory and journal (thread-safe appends). With
    a PostgreSQL state the same run lives in its tables (state_pg.PgRun)."""

    state: Any  # the Path of a directory state; PgRun's is a PgState

    def __new__(cls, state: State, *args: Any, **kwargs: Any) -> Run:
        if cls is Run and not isinstance(state, Path):
            from netcfg.deploy.state_pg import PgRun

            return super().__new__(PgRun)
        return super().__new__(cls)

    def __init__(self, state: State, run_id: str | None = None, command: str = "push",
                 live: bool = False) -> None:
        """`live`: the run holds its own lock until `close` or the end of the process, taken
        before its journal's first line, so `in_flight` tells a push still running from one
        that ended or died (a rollback must not take a running push for "the latest")."""
        assert isinstance(state, Path)  # PgRun takes a PostgreSQL state
        self.state = prepare_state(state)
        # a live push shares the state's fleet lock, taken before anything of the run exists:
        # refused (FleetBusy) while a rollback of the state holds it
        self._fleet = FleetLock(self.state, exclusive=False).acquire() if live else None
        self.id = run_id or new_run_id()
        self.dir = private_dir(self.state / "runs" / self.id)
        self._lock = threading.Lock()
        self._journal = self.dir / "journal.jsonl"
        self._live: int | None = None
        if live:
            fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BaseException:
                os.close(fd)
                raise
            self._live = fd
        if not self._journal.exists():
            self.record("-", "run", command=command, host=socket.gethostname(), pid=os.getpid())

    @classmethod
    def open(cls, state: State, run_id: str) -> Run:
        """An existing run, as it is on disk: nothing is created or made private (reading
        the runs, as `netcfg runs` and `rollback` do, must not change them)."""
        if not isinstance(state, Path):
            from netcfg.deploy.state_pg import PgRun

            return PgRun.open_pg(state, run_id)
        if not RUN_ID.fullmatch(run_id):  # `../../x` named a journal outside the runs
            raise FileNotFoundError(f"{run_id!r} is not a run id (`netcfg runs` lists them)")
        if not (state / "runs" / run_id / "journal.jsonl").is_file():
            raise FileNotFoundError(f"no run {run_id} under {state / 'runs'}")
        run = cls.__new__(cls, state)
        run.state, run.id = state, run_id
        run.dir = state / "runs" / run_id
        run._lock = threading.Lock()
        run._journal = run.dir / "journal.jsonl"
        run._live = None
        run._fleet = None
        return run

    def in_flight(self) -> bool:
        """Whether the process that runs this run (`live=True`) is still at it: the kernel's
        lock on the run's directory, free the moment that process ends, killed or not."""
        try:
            fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)  # closing it drops the probe's own lock
        return False

    def close(self) -> None:
        """The run is over: `in_flight` says so from now on (a process's exit does the same)."""
        fd, self._live = getattr(self, "_live", None), None
        if fd is not None:
            os.close(fd)
        fleet, self._fleet = getattr(self, "_fleet", None), None
        if fleet is not None:
            fleet.release()

    def record(self, device: str, event: str, **detail: Any) -> None:
        clean = {k: redact(v) if isinstance(v, str) else v for k, v in detail.items()}
        line = json.dumps({"time": round(time.time(), 3), "device": device, "event": event,
                           **clean}, sort_keys=True)
        self._append(line)

    @property
    def where(self) -> str:
        """Where the journal is, for the user."""
        return str(self._journal)

    def _append(self, line: str) -> None:
        with self._lock:
            fd = os.open(self._journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, (line + "\n").encode())
                os.fsync(fd)
            finally:
                os.close(fd)

    def events(self) -> list[Event]:
        """The journal's events in order. A last line cut short (the run was killed in the
        middle of writing it) is no event: it is skipped, not a crash of whoever reads. A
        journal with no event (empty: killed before its first line) or with a broken line
        before the last is `BadJournal`, one line naming it. A journal on disk is parsed once
        while it does not change (`list_runs` reads each before handing it on)."""
        stamp = self._stamp()
        cached = getattr(self, "_cached", None)
        if stamp is not None and cached is not None and cached[0] == stamp:
            return list(cached[1])
        out = []
        lines = self._lines()
        for n, line in enumerate(lines, 1):
            try:
                data = json.loads(line)
                out.append(Event(data.pop("time"), data.pop("device"), data.pop("event"), data))
            except json.JSONDecodeError:
                if n == len(lines):
                    break
                raise BadJournal(f"journal {self.where} is unreadable: line {n} is not JSON; "
                                 "move the run away to keep it") from None
            except (AttributeError, KeyError, TypeError):
                raise BadJournal(f"journal {self.where} is unreadable: line {n} is no journal "
                                 "event; move the run away to keep it") from None
        if not out:
            raise BadJournal(f"journal {self.where} is unreadable: it holds no event (empty); "
                             "remove the run or move it away")
        if stamp is not None:
            self._cached = (stamp, out)
        return list(out)

    def _stamp(self) -> tuple[int, int] | None:
        """What identifies the journal file's content (size, modification time), or None for
        a journal that is not a file (PostgreSQL)."""
        if not isinstance(self.state, Path):
            return None
        try:
            info = os.stat(self._journal)
        except OSError:
            return None
        return info.st_size, info.st_mtime_ns

    def _lines(self) -> list[str]:
        try:  # bounded: a journal that is a FIFO or /dev/zero is refused, never read on
            raw = read_regular(self._journal, MAX_JOURNAL_BYTES)
        except UnreadableFile as exc:
            raise BadJournal(f"journal {self._journal} is unreadable: {exc.reason}") from None
        try:
            return raw.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            raise BadJournal(f"journal {self._journal} is unreadable: not UTF-8") from None

    def final_states(self) -> dict[str, str]:
        """Device -> the last state-changing event the journal holds for it, or `refused` for
        a device the push refused before loading anything (removal, disruptive): it is left
        as it was, and `netcfg runs` says so instead of "no device"."""
        out: dict[str, str] = {}
        for e in self.events():
            if e.device != "-" and (e.event in STATES or e.event == "refused"):
                out[e.device] = e.event
        return out

    def save(self, kind: str, device: str, text: str) -> None:
        _write_private(private_dir(self.dir / kind) / device, text)

    def saved(self, kind: str, device: str) -> str | None:
        path = self.dir / kind / device
        if not path.exists():
            return None
        try:  # bounded as an intent file is
            return read_regular(path, MAX_SAVED_BYTES).decode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableFile(path, "is not UTF-8") from None

    def saved_devices(self, kind: str) -> list[str]:
        folder = self.dir / kind
        return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) \
            if folder.is_dir() else []


    def started(self) -> Event:
        """The run's first event: its command, host and pid."""
        return self.events()[0]

    def changed_devices(self) -> list[str]:
        """Devices this run left at its new config: confirmed, or a commit/confirm whose
        outcome was not settled as old (`state` new or unknown). A device this run did not
        change is never restored by its rollback: its backup may be older than what a later
        run put there."""
        out: set[str] = set()
        last: dict[str, str] = {}
        for e in self.events():
            if e.event == "confirmed" or (e.event == "failed"
                                          and e.detail.get("state") in ("new", "unknown")):
                out.add(e.device)
            if e.device != "-" and (e.event in STATES or e.event in IN_FLIGHT):
                last[e.device] = e.event
        # a run killed with a commit in flight: nothing proves the device old (the confirm
        # may have been sent, NX-OS and SONiC may run new with startup old)
        return sorted(out | {d for d, event in last.items() if event in IN_FLIGHT})

    def rolled_back_devices(self) -> list[str]:
        return sorted({e.device for e in self.events() if e.event == "rolled-back"})


def list_runs(state: State) -> list[Run]:
    """Every run under the state directory, oldest first (run ids sort by start time)."""
    return [run for run in _runs(state) if run is not None]


def unreadable_runs(state: State) -> list[str]:
    """One line for each run whose journal cannot be read (`BadJournal`): `list_runs` and
    everything that reads runs pass over them, the commands name them."""
    skipped: list[str] = []
    _runs(state, skipped)
    return skipped


def _runs(state: State, skipped: list[str] | None = None) -> list[Run | None]:
    """The runs of `state`, oldest first, None for one whose journal cannot be read (its
    reason appended to `skipped`): an empty or broken journal is one run lost, never all."""
    if not isinstance(state, Path):
        found = [Run.open(state, run_id) for run_id in state.run_ids()]
    else:
        runs = state / "runs"
        found = [Run.open(state, p.name) for p in sorted(runs.iterdir())
                 if RUN_ID.fullmatch(p.name) and (p / "journal.jsonl").is_file()] \
            if runs.is_dir() else []
    out: list[Run | None] = []
    for run in found:
        try:
            run.events()
        except BadJournal as exc:
            if skipped is not None:
                skipped.append(str(exc))
            out.append(None)
            continue
        out.append(run)
    return out


def latest_change(state: State) -> Run | None:
    """The latest push that changed devices (a push with nothing to do, a dry run or one
    whose devices all reverted has nothing to roll back)."""
    for run in reversed(list_runs(state)):
        if run.started().detail.get("command") == "push" and run.changed_devices():
            return run
    return None


def live_pushes(state: State) -> list[Run]:
    """The pushes of `state` still running (`Run.in_flight`), oldest first."""
    return [run for run in list_runs(state)
            if run.started().detail.get("command") == "push" and run.in_flight()]


def choose_rollback(state: State, run_id: str | None,
                    selected: set[str]) -> tuple[Run, list[str], FleetLock]:
    """The run a rollback undoes (`run_id`, else the latest push that changed devices), which
    of the `selected` devices it restores (those the run changed and saved a backup of), and
    the state's fleet lock, held alone until the rollback releases it (or its process ends):
    no push of the state starts meanwhile. Refused (RollbackRefused, one line; nothing
    touched) while a push of the state is still running (the latest run would be one in
    flight, whose confirmed devices the rollback would restore behind its back and split the
    fleet, and an older run's backups would be put under it), or another rollback is."""
    if isinstance(state, Path) and not state.exists():
        _choose(state, run_id, selected)  # no run: refused, and nothing created
    try:
        fleet = FleetLock(state, exclusive=True).acquire()
    except FleetBusy as busy:
        for live in live_pushes(state):
            first = live.started()
            raise RollbackRefused(
                f"a push of this fabric is still running: run {live.id} (pid "
                f"{first.detail.get('pid')} on {first.detail.get('host')}); roll back once it "
                "has ended (Ctrl-C stops a push and restores what it confirmed)") from None
        raise RollbackRefused(
            (f"another rollback of this fabric is running ({_holder(busy.holder)})"
             if busy.holder else "a push of this fabric is still running")
            + "; roll back once it has ended") from None
    try:
        run, devices = _choose(state, run_id, selected)
    except BaseException:
        fleet.release()
        raise
    return run, devices, fleet


def _holder(record: dict[str, Any]) -> str:
    return f"pid {record.get('pid')} on {record.get('host')}"


def _choose(state: State, run_id: str | None, selected: set[str]) -> tuple[Run, list[str]]:
    try:
        run = Run.open(state, run_id) if run_id else latest_change(state)
        if run is not None:
            run.events()  # a journal that cannot be read is named here, not met mid-rollback
    except (FileNotFoundError, BadJournal) as exc:
        raise RollbackRefused(str(exc)) from None
    if run is None:
        raise RollbackRefused(f"no push under {state} changed a device; nothing to roll back "
                              "(`netcfg runs` lists the runs)")
    changed = set(run.changed_devices()) & set(run.saved_devices("backup"))
    devices = sorted(changed & selected)
    if not devices:
        raise RollbackRefused(f"run {run.id} changed none of the selected devices")
    if run_id is None and set(devices) <= set(run.rolled_back_devices()):
        raise RollbackRefused(
            f"the latest push that changed devices, run {run.id}, is rolled back already; "
            "name an earlier run with --run (`netcfg runs` lists them)")
    return run, devices


#: how many of the latest runs `cut_confirms` reads
RECENT_RUNS = 50


def cut_confirms(state: State) -> frozenset[str]:
    """Devices whose latest word in the journals is a confirm sent and never answered: the
    run died mid-confirm. On NX-OS and SONiC a confirm is two device steps (end the pending
    commit, then save the startup config), so such a device may run the new config with an
    old startup config, and a push that finds nothing to change would leave it so."""
    last: dict[str, str] = {}
    for run in list_runs(state)[-RECENT_RUNS:]:
        for e in run.events():
            if e.device != "-" and (e.event in STATES or e.event in CONFIRM_SENT):
                last[e.device] = e.event
    return frozenset(d for d, event in last.items() if event in CONFIRM_SENT)


def last_written(state: State) -> dict[str, Path]:
    """Device -> the file of the config netcfg last left running there: the candidate of the
    newest push (of the last RECENT_RUNS) that changed it and that no rollback has undone
    since (a rolled-back device runs its backup, what the push before had left). A
    PostgreSQL state's candidates are handed on as files of a private directory."""
    out: dict[str, Path] = {}
    for run in reversed(list_runs(state)[-RECENT_RUNS:]):
        if run.started().detail.get("command") != "push":
            continue
        undone = set(run.rolled_back_devices())
        for device in run.changed_devices():
            if device in out or device in undone:
                continue
            if isinstance(state, Path):
                path = run.dir / "candidate" / device
                if path.is_file():
                    out[device] = path
            elif (text := run.saved("candidate", device)) is not None:
                path = private_dir(state.written_dir() / run.id) / device
                _write_private(path, text)
                out[device] = path
    return out


#: journal events after which a confirm may have been cut between its device steps
CONFIRM_SENT = ("confirming", "confirm-unanswered")

#: journal events a run writes between sending a commit and settling it: a device whose last
#: word is one of them was left by a run that died with its commit in flight
IN_FLIGHT = ("committing", "committed", "confirming", "confirm-unanswered", "commit-failed",
             "timer-expired")

#: journal events that say where a device's configuration stands
STATES = ("unchanged", "dry-run", "committing", "committed", "confirming", "confirmed", "reverted",
          "revert-failed", "rolled-back", "rollback-failed", "failed", "skipped")


class FleetBusy(Exception):
    """The state's fleet lock is held the other way: `holder` is a rollback's record (pid,
    host), None for pushes (they leave none)."""

    def __init__(self, holder: dict[str, Any] | None) -> None:
        super().__init__("the fleet lock is held")
        self.holder = holder

    def push_refusal(self) -> str:
        """The one line a push refused by a rollback prints."""
        who = f" ({_holder(self.holder)})" if self.holder else ""
        return (f"a rollback of this fabric is running{who}; push once it has ended "
                "(no device was touched)")


class FleetLock:
    """The state's fleet lock (`locks/.fleet.lock`, flock; a PostgreSQL state's is an
    advisory lock of the fabric): every running push shares it (pushes of one fabric run side
    by side, as `--shard` runners do), a rollback holds it alone. So a rollback never starts
    while a push of the state runs, nor a push while a rollback does: either would leave the
    fleet split between the two, device by device."""

    def __new__(cls, state: State, *args: Any, **kwargs: Any) -> FleetLock:
        if cls is FleetLock and not isinstance(state, Path):
            from netcfg.deploy.state_pg import PgFleetLock

            return super().__new__(PgFleetLock)
        return super().__new__(cls)

    def __init__(self, state: State, exclusive: bool) -> None:
        assert isinstance(state, Path)  # PgFleetLock takes a PostgreSQL state
        self.path = private_dir(state / "locks") / ".fleet.lock"  # no device name starts "."
        self.exclusive = exclusive
        self._fd: int | None = None

    def acquire(self) -> FleetLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _record(fd)
            os.close(fd)
            raise FleetBusy(holder) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        if self.exclusive:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                      "time": time.time()}).encode(), 0)
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if self.exclusive:
                os.ftruncate(fd, 0)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def machine_locks() -> Path:
    """Where the machine's switch locks live: `$XDG_STATE_HOME/netcfg/locks` (default
    `~/.local/state/netcfg/locks`), beside the default states, whatever `--state` a run has:
    two state directories of one machine exclude each other on the same switch."""
    root = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return root / "netcfg" / "locks"


def switch_key(host: str, port: int) -> str:
    """The switch a target reaches, as a lock file name: its address and port (every name
    of every fabric that reaches the same listener is the same switch; two lab switches on
    one address differ by port). Characters a file name should not hold become `_`, and a
    hash of the exact address then keeps two addresses apart."""
    exact = f"{host.lower()}-{port}"
    plain = re.sub(r"[^a-z0-9._-]", "_", exact)
    if plain != exact or plain.startswith("."):
        plain = plain.lstrip(".") + "-" + hashlib.sha256(exact.encode()).hexdigest()[:12]
    return plain


class DeviceLock:
    """One lock per device, held through the OS (`flock` on `locks/DEVICE.lock`).

    The kernel decides who holds it, so two runs can never both get it (an owner record in a
    file, checked and then written, let two processes in at once), and a lock is free the
    moment its process is gone, killed or not: "stale" is exactly "its owner died". The file
    keeps the holder's record (run, pid, host, state) for the message another run prints, and
    is never removed (removing a lock file while someone waits on it splits the lock in two).

    With `switch` (`switch_key` of the target's address), the switch's lock of the machine is
    taken too (`machine_locks()/SWITCH.lock`, the same flock): runs of other state
    directories, or of another fabric's inventory naming the same switch, are held off it.

    `shared=True` is for readers (`diff`): any number of them at once, none while a push holds
    the device, and a push waits for none of them but is refused while one reads.
    """

    def __new__(cls, state: State, *args: Any, **kwargs: Any) -> DeviceLock:
        if cls is DeviceLock and not isinstance(state, Path):
            from netcfg.deploy.state_pg import PgLock

            return super().__new__(PgLock)
        return super().__new__(cls)

    def __init__(self, state: State, device: str, run_id: str, shared: bool = False,
                 switch: str | None = None) -> None:
        assert isinstance(state, Path)  # PgLock takes a PostgreSQL state
        self.path = private_dir(state / "locks") / f"{device}.lock"
        self.device, self.run_id, self.shared = device, run_id, shared
        self.where = str(state)
        #: the machine's lock file of the switch, None without `switch`
        self.switch_path = (private_dir(machine_locks()) / f"{switch}.lock"
                            if switch is not None else None)
        #: the record of a holder that died with the lock (then taken over), else None
        self.stale: dict[str, Any] | None = None
        self._fds: list[int] = []

    def acquire(self) -> DeviceLock:
        try:
            for path in (self.path, self.switch_path):
                if path is not None:
                    self._fds.append(self._take(path))
        except BaseException:
            self.release()
            raise
        return self

    def _take(self, path: Path) -> int:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _record(fd)
            os.close(fd)
            raise LockHeld(f"{self.device} is locked by {_who(holder, self.where)}") from None
        except BaseException:
            os.close(fd)
            raise
        if not self.shared:
            previous = _record(fd)
            if previous and previous.get("run") != self.run_id and self.stale is None:
                self.stale = previous
            mine = json.dumps({"run": self.run_id, "pid": os.getpid(),
                               "host": socket.gethostname(), "time": time.time(),
                               "state": self.where})
            os.ftruncate(fd, 0)
            os.pwrite(fd, mine.encode(), 0)
        return fd

    def release(self) -> None:
        fds, self._fds = self._fds, []
        for fd in reversed(fds):
            try:
                if not self.shared:
                    os.ftruncate(fd, 0)  # a clean release leaves no record to call stale
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def __enter__(self) -> DeviceLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _who(holder: dict[str, Any] | None, where: str) -> str:
    """The holder of a lock, for the message of the run refused it: its run, pid and host,
    and its state when that is not the refused run's own."""
    if not holder:
        return "a netcfg diff reading it"
    state = holder.get("state")
    return (f"run {holder.get('run')} (pid {holder.get('pid')} on {holder.get('host')}"
            + (f", state {state})" if state and state != where else ")"))


def _record(fd: int) -> dict[str, Any] | None:
    """The holder record in an open lock file, None when empty or unreadable."""
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"null")
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
