"""SSH listener (asyncssh): password login, interactive CLI shells, subsystems such as
NETCONF, and SCP/SFTP into a per-device directory.

A shell is an object with `banner()`, `prompt()` and `async handle(line) -> str`; this module
runs the read/echo/prompt loop that netmiko expects: each line is echoed when the CLI takes it
and output lines end with CRLF, as on a terminal. A subsystem handler gets the raw
`SSHServerProcess` and owns the channel.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from netcfg.lab.device import Dropped, Listener

if TYPE_CHECKING:
    from netcfg.lab.device import Emulator

SubsystemHandler = Callable[[asyncssh.SSHServerProcess], Awaitable[None]]


class Shell(Protocol):
    """A line-oriented CLI session; one instance per SSH shell channel."""

    closed: bool

    def banner(self) -> str: ...
    def prompt(self) -> str: ...
    async def handle(self, line: str) -> str: ...


class _Server(asyncssh.SSHServer):
    def __init__(self, listener: SshListener) -> None:
        self.listener = listener
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.listener.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.listener.connections.discard(self.conn)
            self.listener.device_disconnected(self.conn)

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def validate_password(self, username: str, password: str) -> bool:
        return self.listener.device.check_password(username, password)


class SshListener(Listener):
    """asyncssh server for one device.

    shell: factory of a `Shell` per interactive session (None: no shell).
    subsystems: name -> handler (e.g. {"netconf": ...}); binary channels.
    files: directory served by SCP/SFTP (None: no file transfer).
    files_served: asked at each SCP ("scp") or SFTP ("sftp") session whether the device serves
        it now (None: always); a refused one fails every file operation (NX-OS serves them
        only with `feature scp-server` / `feature sftp-server`).
    on_disconnect: called with the connection when a client goes away (locks, sessions).
    """

    def __init__(self, device: Emulator, host: str, port: int, *,
                 shell: Callable[[], Shell] | None = None,
                 subsystems: dict[str, SubsystemHandler] | None = None,
                 files: Path | None = None,
                 on_disconnect: Callable[[Any], None] | None = None,
                 files_served: Callable[[str], bool] | None = None) -> None:
        super().__init__("ssh", host, port)
        self.device = device
        self.shell = shell
        self.subsystems = subsystems or {}
        self.files = files
        self.files_served = files_served
        self.on_disconnect = on_disconnect
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self._acceptor: asyncssh.SSHAcceptor | None = None

    def device_disconnected(self, conn: Any) -> None:
        if self.on_disconnect is not None:
            self.on_disconnect(conn)

    async def open(self) -> None:
        if self._acceptor is not None:
            return
        options: dict[str, Any] = {}
        if self.files is not None:
            root = str(self.files).encode()
            options["sftp_factory"] = lambda chan: self._file_server(chan, root)
            options["allow_scp"] = True
        self._acceptor = await asyncssh.create_server(
            lambda: _Server(self), self.host, self.port,
            server_host_keys=[str(self.device.trust.host_key)],
            process_factory=self._process, reuse_address=True, login_timeout=30,
            # shells are text echoed by _run_shell (not asyncssh's line editor); subsystems bytes
            encoding="utf-8" if self.shell else None, line_editor=False,
            **options)
        self.port = self._acceptor.sockets[0].getsockname()[1]

    def _file_server(self, chan: Any, root: bytes) -> asyncssh.SFTPServer:
        kind = "sftp" if chan.get_subsystem() == "sftp" else "scp"
        if self.files_served is None or self.files_served(kind):
            return asyncssh.SFTPServer(chan, chroot=root)
        return _NoFiles(chan, chroot=root)

    def shut(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
        self.drop_all()

    async def close(self) -> None:
        self.shut()
        if self._acceptor is None:
            return
        acceptor, self._acceptor = self._acceptor, None
        await acceptor.wait_closed()

    def drop_all(self) -> None:
        for conn in list(self.connections):
            conn.abort()
        self.connections.clear()

    async def _process(self, process: asyncssh.SSHServerProcess) -> None:
        conn = process.get_extra_info("connection")
        try:
            if process.subsystem:
                handler = self.subsystems.get(process.subsystem)
                if handler is None:
                    process.exit(1)
                    return
                await handler(process)
            elif self.shell is not None and process.command is None:
                await self._run_shell(process, self.shell())
            else:
                process.stderr.write("command execution is not supported\n"
                                     if self.shell else b"command execution is not supported\n")
                process.exit(1)
        except Dropped:
            conn.abort()
        except (asyncssh.Error, ConnectionError, asyncio.IncompleteReadError):
            conn.abort()

    async def _run_shell(self, process: asyncssh.SSHServerProcess, shell: Shell) -> None:
        """Read/echo/prompt loop. A line is echoed when the CLI takes it, not when it arrives,
        as a NOS CLI does with type-ahead: two commands sent at once come back as
        "cmd1, output1, prompt, cmd2, output2, prompt", which is what netmiko's prompt
        matching expects (an early echo would put two prompts on one line)."""
        def write(text: str) -> None:
            process.stdout.write(text.replace("\r\n", "\n").replace("\n", "\r\n"))

        lines = _Lines(process)
        write(shell.banner() + shell.prompt())
        while not shell.closed:
            line = await lines.next()
            if line is None:
                break
            write(line + "\n")
            await self.device.gate("request")
            output = await shell.handle(line)
            if shell.closed:
                break
            if output:
                write(output if output.endswith("\n") else output + "\n")
            write(shell.prompt())
        process.exit(0)


class _Lines:
    """Input lines of a shell channel; CR, LF and CRLF each end one line, control bytes are
    dropped."""

    def __init__(self, process: asyncssh.SSHServerProcess) -> None:
        self._stdin = process.stdin
        self._buf = ""
        self._skip_lf = False  # the previous line ended with CR: a following LF is its pair

    async def next(self) -> str | None:
        """The next line, or None at end of input."""
        while True:
            if self._skip_lf and self._buf:
                self._buf = self._buf[1:] if self._buf[0] == "\n" else self._buf
                self._skip_lf = False
            end = _EOL.search(self._buf)
            if end is not None:
                line, self._buf = self._buf[:end.start()], self._buf[end.end():]
                self._skip_lf = end.group() == "\r"
                return line
            try:
                data = await self._stdin.read(65536)
            except (asyncssh.BreakReceived, asyncssh.TerminalSizeChanged,
                    asyncssh.SignalReceived):
                continue
            if not data:
                return None
            self._buf += _IGNORED.sub("", data)


_EOL = re.compile("[\r\n]")
#: control bytes a CLI line editor swallows (netmiko's is_alive() sends NUL, for one)
_IGNORED = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")


class _NoFiles(asyncssh.SFTPServer):
    """A file server the device does not run now: every file operation is refused."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise asyncssh.SFTPError(asyncssh.FX_PERMISSION_DENIED, "file server not enabled")

    open = stat = lstat = scandir = listdir = realpath = mkdir = _refuse
