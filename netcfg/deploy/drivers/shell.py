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
from dataclasses import dataclass, field

_SEQ = itertools.count(1)


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
