"""Questions to one FRR daemon over its vty socket, the way vtysh itself asks them.

The twin polls every router several times a second while BGP converges and while a failed
link is routed around. One `vtysh -c` process per question costs about 30 ms of CPU on an idle
machine (it connects to every daemon of the router first); 32 routers asked twice a pass made
each pass take seconds on the busy 2-core machine, which both burned the CPU the daemons
needed and blurred the reconvergence times the twin reports. A daemon answers the same
question on its own socket in well under a millisecond.

The exchange is vtysh's (FRR's vtysh/vtysh.c, `vtysh_client_run`): the client writes the
command with its terminating NUL; the daemon writes the output, then three NUL bytes and the
command's return code (0 = CMD_SUCCESS). vtysh sends `enable` first on every connection
(without it bfdd answers `show bfd peers` with "Unknown command"); so does this client.
"""

from __future__ import annotations

import socket
from pathlib import Path

#: return code of a command that worked (lib/command.h CMD_SUCCESS)
CMD_SUCCESS = 0
_END = b"\0\0\0"


class VtyError(Exception):
    """The daemon cannot be reached, or refused the command."""


class Vty:
    """A connection to one daemon's vty socket (`<run directory>/<daemon>.vty`), opened on
    the first question and kept for the next; a broken one is reopened once."""

    def __init__(self, path: Path, timeout: float = 60.0) -> None:
        self.path = path
        self.timeout = timeout
        self._sock: socket.socket | None = None

    def ask(self, command: str) -> str:
        """The daemon's output for `command`; VtyError when it cannot be reached or the
        command fails."""
        for attempt in (1, 2):
            try:
                if self._sock is None:
                    self._sock = self._connect()
                return self._exchange(self._sock, command)
            except OSError as exc:
                self.close()
                if attempt == 2:
                    raise VtyError(f"{self.path}: {exc}") from None
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(str(self.path))
            self._exchange(sock, "enable")
        except BaseException:
            sock.close()
            raise
        return sock

    def _exchange(self, sock: socket.socket, command: str) -> str:
        sock.sendall(command.encode() + b"\0")
        data = bytearray()
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                raise ConnectionResetError("the daemon closed the connection")
            data += chunk
            # the terminator can only start in what was new (or in the last 3 bytes before)
            end = data.find(_END, max(0, len(data) - len(chunk) - len(_END)))
            if end >= 0 and len(data) > end + len(_END):
                break
        code = data[end + len(_END)]
        text = data[:end].decode(errors="replace")
        if code != CMD_SUCCESS:
            raise VtyError(f"{self.path.name}: {command!r}: {text.strip() or f'code {code}'}")
        return text
