"""Each SSH login's known_hosts: the lines of the target's file that can name its switch.

A lab's or an operator's known_hosts names every switch of the fleet, and the SSH client
(paramiko, under netmiko and PyEZ) parses the file it is given whole on every login,
comparing each line it loads with every line loaded before it: 0.42 s of CPU per login at
2,560 lines, quadratic in the file, paid by every diff, push and rollback of every switch.
So every login (`connect.Connection`) is given a file of its own holding the lines that name
its address (with any of its ports) and every line whose host names cannot be matched as text
(hashed names, wildcard or negated patterns, markers such as @revoked), in the file's order:
the host-key check is the one the whole file gives (a changed or missing key still refuses),
and the file is parsed here once per process, not once per login.
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path

from netcfg.deploy.targets import TRUST_FILE_LIMIT, Target

#: parsed files kept per process (a fleet uses one, the lab's or the operator's)
_KEEP = 4


class KnownHosts:
    """An OpenSSH known_hosts file's lines, indexed by the plain host names they list
    (sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT": comma-separated names, `[host]:port` for a port
    other than 22, `|1|` hashed names, `*`/`?`/`!` patterns, `@cert-authority`/`@revoked`)."""

    def __init__(self, text: str) -> None:
        self.lines: list[str] = []
        self.by_host: dict[str, list[int]] = {}
        #: lines that may match any host (hashed names, patterns, @cert-authority/@revoked)
        self.every: list[int] = []
        for line in text.splitlines():
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            at = len(self.lines)
            self.lines.append(line.strip() + "\n")
            if fields[0].startswith(("@", "|")) or any(c in fields[0] for c in "*?!"):
                self.every.append(at)
                continue
            for name in fields[0].split(","):
                self.by_host.setdefault(name, []).append(at)

    def for_names(self, names: set[str]) -> str:
        chosen = set(self.every).union(*(self.by_host.get(n, ()) for n in names))
        return "".join(self.lines[i] for i in sorted(chosen))


_parsed: dict[tuple[str, int, int, int, int], KnownHosts | None] = {}
_guard = threading.Lock()


def _parse(path: str) -> KnownHosts | None:
    """The file parsed, once per version of it (path, inode, size, modification time); None
    when it cannot be read as a bounded regular UTF-8 file."""
    from netcfg.fsutil import UnreadableFile, read_regular

    try:
        info = os.stat(path)
    except OSError:
        return None
    key = (path, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    with _guard:
        if key not in _parsed:
            try:
                text = read_regular(Path(path), TRUST_FILE_LIMIT).decode()
            except (UnreadableFile, OSError, UnicodeDecodeError):
                known = None
            else:
                known = KnownHosts(text)
            while len(_parsed) >= _KEEP:
                del _parsed[next(iter(_parsed))]
            _parsed[key] = known
        return _parsed[key]


def login_known_hosts(target: Target, directory: Path) -> Target:
    """`target` with a known_hosts of its own in `directory` (the lines that can name its
    switch, above); as it is when it checks no host key, names no file (the SSH client's
    default file), or a file that cannot be read (the connection reports that)."""
    if not target.known_hosts or not target.check_host_keys:
        return target
    known = _parse(target.known_hosts)
    if known is None:
        return target
    names = {target.host if p == 22 else f"[{target.host}]:{p}"
             for p in {target.port, *target.ports.values()}}
    path = directory / "known_hosts"
    path.write_text(known.for_names(names), encoding="utf-8")
    return replace(target, known_hosts=str(path))
