"""The twin's wiring: one Linux network namespace per switch and per server NIC, one veth pair
per cable, and real FRR daemons (zebra, bgpd, staticd, bfdd) in each switch namespace.

Everything created is recorded before it is created, so `Twin.close()` removes exactly that
(daemons by pid file, namespaces with their veths, FRR's run directories), also after an error
or Ctrl-C half way through the build. Names carry a per-twin prefix, so two twins (or a twin and
anything else on the machine) never touch each other's namespaces.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from netcfg.fsutil import write_atomic
from netcfg.twin.vty import Vty, VtyError

FRR_BIN = Path("/usr/lib/frr")
FRR_RUN = Path("/var/run/frr")
#: the user and group the Debian frr package runs its daemons as
FRR_ACCOUNT = "frr"
SYSCTL_NET = Path("/proc/sys/net")
#: A router without a route for a packet answers its sender at once with ICMP "net
#: unreachable" (Linux ip_error), so the reachability probe knows the pair has no route
#: instead of waiting for echoes that never come, and does not ask it again. Linux limits
#: those answers per sender to a burst of 5, then one a second: `route/error_cost` (host-wide,
#: set to 0 while the twin runs, put back by close) and each namespace's `icmp_ratemask`
#: (set to 0 in every router namespace, gone with it).
ROUTE_ERROR_COST = SYSCTL_NET / "ipv4/route/error_cost"
ICMP_RATEMASK = SYSCTL_NET / "ipv4/icmp_ratemask"
#: zebra (interfaces, RIB), bgpd, staticd, which holds static routes since FRR 7.2 (the
#: discard routes a SONiC leaf announces its server blocks with), and bfdd for BFD sessions
DAEMONS = ("zebra", "bgpd", "staticd", "bfdd")
#: the daemons a router runs only when its frr.conf has work for them (`daemons_for`)
_NEEDED_FOR = {"staticd": re.compile(r"(?m)^ip route "),
               "bfdd": re.compile(r"(?m)^bfd$|^ neighbor \S+ bfd\b")}
#: routers started at the same time (Twin.start)
STARTS_AT_ONCE = 8
#: How long bgpd holds back the first UPDATE to a session that has just come up, in ms.
#: FRR groups peers that come up together into one update subgroup and, unless told
#: otherwise, waits 1 s plus 50 ms per configured peer before announcing to a new one
#: (bgpd/bgp_updgrp.h: BGP_DEFAULT_SUBGROUP_COALESCE_TIME 1000,
#: BGP_PEER_ADJUST_SUBGROUP_COALESCE_TIME 50, at most 10,000): 4.2 s for a spine with 64
#: sessions, after every start and after every cable a failure test brings back. It is
#: FRR's own batching, stated by no NOS file and no part of what the twin proves (routes,
#: paths, sessions), so the twin's routers run `coalesce-time 0` (under `router bgp`, which
#: also turns the heuristic off) and announce at once.
COALESCE_MS = 0


#: where a kept twin (`netcfg twin --keep`) records what it holds, for `twin exec` and
#: `twin down`; one 0600 JSON file per twin, named after its prefix
KEPT = Path("/run/netcfg/twins")
#: where a twin being built or run records what it holds (as KEPT's files, with its process
#: id), each step before it is taken: a twin whose process died without closing it (SIGKILL,
#: a test run stopped from outside) is removed by the next twin, which finds the process gone
RUNNING = Path("/run/netcfg/twins-running")


CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def _setns(fd: int) -> None:
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@contextmanager
def inside(netns: str) -> Iterator[None]:
    """Run the body in network namespace `netns` (this thread only), then come back."""
    home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open(f"/var/run/netns/{netns}", os.O_RDONLY)
    try:
        _setns(target)
        try:
            yield
        finally:
            _setns(home)
    finally:
        os.close(target)
        os.close(home)


def daemons_for(config: str) -> tuple[str, ...]:
    """The FRR daemons a router with frr.conf `config` runs: zebra and bgpd always, staticd
    where it has static routes, bfdd where it has BFD. A router without BFD (`--without-bfd`,
    or a NOS file that states none) or without static routes starts two daemons fewer, and
    vtysh hands each command of the file only to the daemons that run."""
    return tuple(d for d in DAEMONS if d not in _NEEDED_FOR or _NEEDED_FOR[d].search(config))


def twin_settings(config: str) -> str:
    """`config` (an frr.conf) with what the twin adds to every router it runs: settings of
    FRR itself that no NOS file states and that only make the twin wait (COALESCE_MS)."""
    return re.sub(r"(?m)^(router bgp \S+\n)", rf"\1 coalesce-time {COALESCE_MS}\n", config)


class TwinError(Exception):
    """The twin cannot be built or run here (one line, for the user)."""


def preflight() -> None:
    """Root (CAP_NET_ADMIN), iproute2 and FRR are needed; say which is missing."""
    if os.geteuid() != 0:
        raise TwinError("the twin needs root (network namespaces and veth pairs)")
    if shutil.which("ip") is None:
        raise TwinError("the twin needs iproute2 (`ip`)")
    missing = [d for d in DAEMONS if not (FRR_BIN / d).is_file()]
    if missing or shutil.which("vtysh") is None:
        raise TwinError("the twin needs FRR (Debian package `frr`): "
                        f"{', '.join(missing) or 'vtysh'} not found")


@dataclass
class Router:
    """One switch: its namespace and FRR instance."""

    name: str  # the switch's name in the intent
    netns: str
    config: str  # frr.conf text

    @property
    def rundir(self) -> Path:
        return FRR_RUN / self.netns


@dataclass
class Twin:
    """The namespaces, veths and daemons of one twin, and how to remove them."""

    #: start of every name this twin creates (NETCFG_TWIN_PREFIX, else random): lets an
    #: operator or a test tell its namespaces from another twin's
    prefix: str = field(default_factory=lambda: os.environ.get("NETCFG_TWIN_PREFIX")
                        or "nc" + secrets.token_hex(2))
    namespaces: list[str] = field(default_factory=list)
    routers: list[Router] = field(default_factory=list)
    _lock: int | None = None
    #: host-wide kernel settings as they were before this twin changed them (the neighbour
    #: table's limits, the rate of ICMP errors for packets without a route): close restores
    _host_settings: dict[Path, str] = field(default_factory=dict)
    #: the state file of a kept twin taken over by `kept()` (close removes it last)
    _state: Path | None = None
    #: this twin's file in RUNNING while it holds anything (close removes it last)
    _record: Path | None = None
    #: open connections to the routers' daemons, by (namespace, daemon)
    _vtys: dict[tuple[str, str], Vty] = field(default_factory=dict)

    def __enter__(self) -> Twin:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ building
    def add_namespaces(self, names: list[str]) -> None:
        if self._lock is None:
            self._lock = _machine_lock()
            remove_abandoned()
            if kept := kept_twins():
                raise TwinError(f"a kept twin ({kept[0]}) still runs and holds the kernel's "
                                "neighbour table: `netcfg twin down` removes it")
            self._set_host(ROUTE_ERROR_COST, "0")
        self.namespaces += names  # recorded first: close() removes what may exist
        self._remember()
        _ip_batch([f"netns add {n}" for n in names])

    def wire(self, links: list[tuple[str, str, str, str]]) -> None:
        """Veth pairs: (namespace A, interface A, namespace B, interface B)."""
        self._fit_neighbour_table(2 * len(links))
        _ip_batch([f"link add {ia} netns {na} type veth peer name {ib} netns {nb}"
                   for na, ia, nb, ib in links])

    def configure(self, netns: str, commands: list[str]) -> None:
        """`ip` commands inside one namespace (addresses, MTU, routes)."""
        _ip_batch(commands, netns)

    def start(self, routers: list[Router]) -> None:
        """Start the routers, several at a time: starting one is mostly waiting for its
        daemons to come up and take their configuration (about 0.2 s each), so a few at once
        keep both cores busy. Every router is recorded before any starts (`close` removes
        what may exist), and an error or Ctrl-C starts no further one."""
        self.routers += routers
        self._remember()
        pool = ThreadPoolExecutor(max_workers=STARTS_AT_ONCE, thread_name_prefix="twin-start")
        try:
            for done in [pool.submit(self._start, router) for router in routers]:
                done.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _start(self, router: Router) -> None:
        """Start the FRR daemons for one switch, then load its frr.conf through vtysh, which
        hands each daemon its own sections as `vtysh -b` does at boot. (A daemon reading the
        integrated file itself stops at the first top-level `exit` of a block it does not
        know, and loses the rest.)"""
        try:
            with inside(router.netns):  # this namespace's own /proc/sys/net
                ICMP_RATEMASK.write_text("0")
        except OSError as exc:
            raise TwinError(f"{router.name}: cannot set {ICMP_RATEMASK} in its namespace: "
                            f"{exc}") from None
        router.rundir.mkdir(parents=True, exist_ok=True)
        shutil.chown(router.rundir, FRR_ACCOUNT, FRR_ACCOUNT)
        conf = router.rundir / "frr.conf"
        conf.write_text(twin_settings(router.config), encoding="utf-8")
        shutil.chown(conf, FRR_ACCOUNT, FRR_ACCOUNT)
        empty = router.rundir / "empty.conf"
        empty.write_text("", encoding="utf-8")
        for daemon in daemons_for(router.config):
            proc = subprocess.run(
                ["ip", "netns", "exec", router.netns, str(FRR_BIN / daemon), "-d",
                 "-N", router.netns, "-u", FRR_ACCOUNT, "-g", FRR_ACCOUNT,
                 "-i", str(router.rundir / f"{daemon}.pid"),
                 "--vty_socket", str(router.rundir), "-f", str(empty)],
                capture_output=True, text=True, timeout=60)
            if proc.returncode != 0:
                raise TwinError(f"{router.name}: {daemon} did not start: "
                                f"{(proc.stderr or proc.stdout).strip()[:300]}")
        proc = subprocess.run(["vtysh", "--vty_socket", str(router.rundir), "-f", str(conf)],
                              capture_output=True, text=True, timeout=120)
        refused = [line for line in (proc.stdout + proc.stderr).splitlines()
                   if line.lstrip().startswith("%") or "line " in line]
        if proc.returncode != 0 or refused:
            raise TwinError(f"{router.name}: FRR refused its frr.conf: "
                            f"{'; '.join(refused[:3]) or proc.returncode}")

    def _fit_neighbour_table(self, entries: int) -> None:
        """Make room for one ARP/ND entry per veth end, in every namespace together.

        Linux keeps one neighbour table for all network namespaces, and its limits exist only
        in the initial one (net.ipv4.neigh.default.gc_thresh1..3; 128/512/1024 by default).
        A twin with 1,000 cables needs 2,000 entries: beyond gc_thresh3 the kernel refuses new
        ones ("neighbor table overflow" in the kernel log), a leaf never resolves a NIC, and
        pairs across pods look unreachable. So the limits are raised to fit (never lowered)
        while the twin lives; below gc_thresh1 nothing is garbage-collected."""
        low = entries + 256
        for family in ("ipv4", "ipv6"):
            for name, value in (("gc_thresh1", low), ("gc_thresh2", 2 * low),
                                ("gc_thresh3", 4 * low)):
                path = SYSCTL_NET / family / "neigh/default" / name
                try:
                    if int(path.read_text()) >= value:
                        continue
                except (OSError, ValueError) as exc:
                    raise TwinError(f"cannot read the kernel setting {path}: {exc}") from None
                self._set_host(path, str(value))

    def _set_host(self, path: Path, value: str) -> None:
        """Change a host-wide kernel setting while the twin lives (close puts it back)."""
        try:
            old = path.read_text().strip()
            if old != value:
                self._host_settings.setdefault(path, old)
                self._remember()
                path.write_text(value)
        except OSError as exc:
            raise TwinError(f"cannot set the kernel setting {path}: {exc}") from None

    def _state_of(self) -> dict[str, object]:
        return {"prefix": self.prefix, "namespaces": self.namespaces,
                "routers": {r.name: r.netns for r in self.routers},
                "host_settings": {str(p): v for p, v in self._host_settings.items()}}

    def _remember(self) -> None:
        """Record in RUNNING what the twin holds, with this process's id, before the next
        step creates more (`remove_abandoned`)."""
        RUNNING.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._record = RUNNING / f"{self.prefix}.json"
        write_atomic(self._record, json.dumps({**self._state_of(), "pid": os.getpid()},
                                              indent=1))  # mkstemp: 0600

    # ------------------------------------------------------------------ keeping it
    def keep(self, places: dict[str, str]) -> Path:
        """Hand the twin over to `netcfg twin exec` and `netcfg twin down`: what it holds goes
        into a state file, and this object forgets it (close() then only releases the lock).
        `places`: switch or NIC name -> its namespace."""
        KEPT.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = KEPT / f"{self.prefix}.json"
        write_atomic(path, json.dumps({**self._state_of(), "places": places},
                                      indent=1))  # mkstemp: 0600
        self.routers, self.namespaces, self._host_settings = [], [], {}
        if self._record is not None:
            self._record.unlink(missing_ok=True)
            self._record = None
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
        return path

    @classmethod
    def kept(cls, prefix: str | None = None) -> tuple[Twin, dict[str, str]]:
        """The kept twin `prefix` (the only one when None) and its places, ready to close."""
        names = kept_twins()
        if prefix is None and len(names) > 1:
            raise TwinError(f"{len(names)} kept twins ({', '.join(names)}): name one with "
                            "--prefix")
        name = prefix or (names[0] if names else None)
        if name is None or name not in names:
            raise TwinError(f"no kept twin{' ' + prefix if prefix else ''}: "
                            "`netcfg twin PATH --keep` leaves one running")
        try:
            state = json.loads((KEPT / f"{name}.json").read_text(encoding="utf-8"))
            twin = cls.from_state(state, KEPT / f"{name}.json")
            places = {str(k): str(v) for k, v in state["places"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TwinError(f"kept twin {name}: unreadable state ({exc})") from None
        return twin, places

    @classmethod
    def from_state(cls, state: dict, path: Path) -> Twin:
        """The twin a state file (KEPT's or RUNNING's) records, ready to close; closing it
        removes the file."""
        return cls(prefix=str(state["prefix"]), namespaces=list(state["namespaces"]),
                   routers=[Router(r, ns, "") for r, ns in state["routers"].items()],
                   _host_settings={Path(p): str(v) for p, v in state["host_settings"].items()},
                   _state=path)

    # ------------------------------------------------------------------ looking inside
    def show(self, router: Router, daemon: str, command: str) -> str:
        """`command`'s output from one of the router's daemons (`bgpd`, `zebra`, `bfdd`),
        or "" while the daemon cannot answer it (not started yet, or gone)."""
        key = (router.netns, daemon)
        vty = self._vtys.get(key)
        if vty is None:
            vty = self._vtys[key] = Vty(router.rundir / f"{daemon}.vty")
        try:
            return vty.ask(command)
        except VtyError:
            return ""

    # ------------------------------------------------------------------ teardown
    def close(self) -> None:
        """Remove every daemon, namespace and run directory this twin created. Signals are
        held off meanwhile, so a second Ctrl-C cannot leave half a twin behind."""
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            for vty in self._vtys.values():
                vty.close()
            self._vtys = {}
            _stop([pid for router in self.routers for daemon in DAEMONS
                   if (pid := _pid(router.rundir / f"{daemon}.pid")) is not None])
            # a daemon interrupted while it daemonized has no pid file yet, but its argv
            # names its run directory from the moment it is forked
            rundirs = {str(router.rundir) for router in self.routers}
            for _ in range(3):
                strays = _daemons_of(rundirs)
                if not strays:
                    break
                _stop(strays)
            if self.namespaces:
                _ip_batch([f"netns del {n}" for n in self.namespaces], check=False)
            for router in self.routers:
                shutil.rmtree(router.rundir, ignore_errors=True)
            self.routers, self.namespaces = [], []
            for path, value in self._host_settings.items():
                try:
                    path.write_text(value)
                except OSError:
                    pass
            self._host_settings = {}
            for record in (self._state, self._record):
                if record is not None:
                    record.unlink(missing_ok=True)
            self._state = self._record = None
            if self._lock is not None:
                os.close(self._lock)  # releases the flock
                self._lock = None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


#: one twin per machine at a time: twins share the kernel's one neighbour table and its
#: limits, which each raises while it runs and puts back when it closes; a second twin waits
LOCK = Path("/run/lock/netcfg-twin.lock")


def _machine_lock() -> int:
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def remove_abandoned() -> list[str]:
    """Remove every twin RUNNING records whose process is gone (its daemons, namespaces and
    run directories; the host settings it changed put back): what a twin killed before its
    close left. Only with the machine lock held, so no live twin is being built meanwhile.
    Returns their prefixes."""
    removed = []
    for path in sorted(RUNNING.glob("*.json")) if RUNNING.is_dir() else []:
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
            pid = int(state["pid"])
            if pid == os.getpid() or _alive(pid):
                continue
            twin = Twin.from_state(state, path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # not a record this version of netcfg wrote: left alone
        twin.close()
        removed.append(twin.prefix)
    return removed


def kept_twins() -> list[str]:
    """Prefixes of the twins kept running on this machine."""
    return sorted(p.stem for p in KEPT.glob("*.json")) if KEPT.is_dir() else []


def _pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    """Running, and not a zombie (a daemon re-parented to a PID 1 that does not reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _daemons_of(rundirs: set[str]) -> list[int]:
    """Live processes whose argv gives one of `rundirs` as their `--vty_socket`."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            argv = [a.decode(errors="replace")
                    for a in (proc / "cmdline").read_bytes().split(b"\0")]
        except OSError:
            continue
        if any(a == "--vty_socket" and b in rundirs for a, b in zip(argv, argv[1:])) \
                and argv[0] != "vtysh" and _alive(int(proc.name)):
            found.append(int(proc.name))
    return found


def _stop(pids: list[int]) -> None:
    """SIGTERM to all, up to 2 s for them to exit together, then SIGKILL and wait until the
    kernel has removed them (a killed process cannot linger; the bound only ends a hang)."""
    for sig, rounds in ((signal.SIGTERM, 200), (signal.SIGKILL, 6000)):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        for _ in range(rounds):
            pids = [p for p in pids if _alive(p)]
            if not pids:
                return
            time.sleep(0.01)


def _ip_batch(commands: list[str], netns: str | None = None, check: bool = True) -> None:
    if not commands:
        return
    argv = ["ip"] + (["-n", netns] if netns else []) + ["-force", "-batch", "-"]
    proc = subprocess.run(argv, input="\n".join(commands) + "\n", capture_output=True,
                          text=True, timeout=300)
    if check and proc.returncode != 0:
        raise TwinError(f"ip{' -n ' + netns if netns else ''}: "
                        f"{(proc.stderr or proc.stdout).strip().splitlines()[0][:300]}")


def existing_namespaces(prefix: str) -> list[str]:
    """Namespaces whose name starts with `prefix` (what a twin would leave behind)."""
    proc = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=30)
    return [line.split()[0] for line in proc.stdout.splitlines()
            if line.split() and line.split()[0].startswith(prefix)]
