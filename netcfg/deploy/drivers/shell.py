"""Reading one command's answer out of an interactive switch shell (netmiko), for drivers that
read with `cmd_verify=False` (no wait for the echo, so no extra round trip per command).

A shell channel can hold output nobody asked for: a prompt answering one of the extra Enters
netmiko sends while it waits for a slow login (`find_prompt`), or the tail of a command that
timed out. Taking "everything up to the next prompt, minus the first line" as the answer then
hands a driver the wrong text (a stray prompt in front of JSON, or the previous command's
output). The answer is therefore cut out after the echo of the command itself.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from netcfg.deploy.targets import Target

_SEQ = itertools.count(1)

#: how often a waiting read looks at the channel again (netmiko's own loop delay)
_POLL_S = 0.01


class ChannelClosed(EOFError):
    """The device closed the session before the answer was complete."""


class NoAnswer(TimeoutError):
    """The session stayed open but the answer did not come within the timeout."""


def send_line(conn: Any, line: str, until: str, timeout: float) -> str:
    """Send `line` on a netmiko connection and return what the shell printed, up to and
    including the first match of the regex `until` (per line) after the echo of `line`.

    netmiko's `send_command` keeps polling a channel the device has closed until its read
    timeout: a switch that drops the session mid-command would cost the whole timeout. Here a
    closed channel ends the wait at once (`ChannelClosed`); only a silent, open session waits
    the full `timeout` (`NoAnswer`).
    """
    conn.write_channel(line + conn.RETURN)
    pattern = re.compile(until, re.MULTILINE)
    out = ""
    deadline = time.monotonic() + timeout

    def answered() -> bool:
        # only what follows the echo of this line counts: prompts that were already in the
        # channel (netmiko's login Enters, a timed-out command's tail) cannot end the read
        echo = out.replace("\r\n", "\n").rfind(line)
        return echo >= 0 and pattern.search(out.replace("\r\n", "\n"), echo + len(line)) \
            is not None

    while True:
        out += conn.read_channel()
        if answered():
            return out
        channel = conn.remote_conn
        if channel.closed or (channel.eof_received and not channel.recv_ready()):
            out += conn.read_channel()
            if answered():
                return out
            _hang_up(conn)
            raise ChannelClosed("the device closed the session")
        if time.monotonic() > deadline:
            _hang_up(conn)
            raise NoAnswer(f"no answer within {timeout:g} s")
        time.sleep(_POLL_S)


def close_session(conn: Any) -> None:
    """End a shell session: `exit`, then close the transport.

    netmiko's own `disconnect()` first reads for the prompt it remembered to check the
    privilege level; after an apply that renamed the switch (the prompt changed) or on a
    session the device dropped, that read waits a full timeout for nothing.
    """
    channel = conn.remote_conn
    try:
        if channel is not None and not channel.closed:
            conn.write_channel("exit" + conn.RETURN)
    except (OSError, EOFError):
        pass
    _hang_up(conn)


def _hang_up(conn: Any) -> None:
    """Drop a session that is out of step: a late answer would be read as the next command's,
    and netmiko's polite exit on close would wait once more for a prompt that is not coming."""
    conn.paramiko_cleanup()


def after_echo(out: str, line: str) -> str:
    """What follows the echo of `line` in `out` (the last echo: anything stray comes before
    it); without an echo, everything after the first line, as netmiko would strip it."""
    out = out.replace("\r\n", "\n")
    at = out.rfind(line)
    if at >= 0:
        rest = out[at + len(line):]
        return rest[1:] if rest.startswith("\n") else rest
    return out.split("\n", 1)[1] if "\n" in out else ""


@dataclass(frozen=True)
class Framed:
    """A command followed by an echo of its exit status under a marker used once."""

    command: str
    marker: str = field(default_factory=lambda: f"__netcfg_rc_{next(_SEQ)}=")

    @property
    def line(self) -> str:
        """What to send to the shell."""
        return f"{self.command}; echo {self.marker}$?"

    def until(self, prompt: str) -> str:
        """Regex for the end of the answer: this command's status line, then `prompt`."""
        return re.escape(self.marker) + r"\d+\s+" + prompt

    def split(self, out: str) -> tuple[str, int] | None:
        """(answer, exit status) from what the shell printed; None without a status line."""
        text = after_echo(out, self.line)
        found = re.search(re.escape(self.marker) + r"(\d+)[ \t]*$", text, re.M)
        if found is None:
            return None
        return text[:found.start()].rstrip("\n"), int(found.group(1))


def netmiko_options(target: Target, timeout: int) -> dict[str, Any]:
    """NAPALM `optional_args` for netcfg's shell drivers (SONiC, Cumulus), which take
    netmiko's: host keys checked against known_hosts, reads as long as the deploy timeout.
    netcfg's engine builds every replace candidate with the device's own sections already in
    it (the adapter's `keep_device_local`), so the driver need not read the running config a
    second time to add them (`keep_device_local: False`); plain NAPALM use keeps the
    drivers' default."""
    args: dict[str, Any] = {"ssh_strict": target.check_host_keys,
                            "read_timeout_override": timeout, "keep_device_local": False}
    if target.known_hosts:
        args["known_hosts"] = target.known_hosts
    return args
