"""Keep a device's own logins and AAA across a full-config replace.

netcfg renders the fabric, not who may log in: users, password hashes, AAA servers and SSH
keys are device-local (often managed by another system) and never pass through the intent.
A replace candidate without them would lock everyone out (EOS, NX-OS) or be refused (Junos
requires `system root-authentication`). So before a replace, the device-local sections of the
running config are copied into the candidate, unless the candidate defines them itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

#: top-level statements (with their indented children) that belong to the device, per NOS
LINE_SECTIONS = {
    "eos": ("username ", "aaa ", "enable password", "enable secret", "role ", "tacacs-server ",
            "radius-server ", "management ssh", "management security"),
    "nxos": ("username ", "aaa ", "role name", "tacacs-server ", "radius-server ",
             "snmp-server user ", "ssh key"),
}
#: children of Junos `system { }` that belong to the device
JUNOS_SYSTEM = ("root-authentication", "login", "authentication-order", "tacplus-server",
                "radius-server")


def _line_blocks(text: str, prefixes: tuple[str, ...]) -> list[list[str]]:
    """Top-level blocks whose first line starts with one of `prefixes`."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line[:1] not in (" ", "\t"):
            current = [line] if line.startswith(prefixes) else None
            if current is not None:
                blocks.append(current)
        elif current is not None:
            current.append(line)
    return blocks


def _key(block: list[str]) -> tuple[str, ...]:
    """What a block configures: its first two words (`username admin`, `aaa authentication`)."""
    return tuple(block[0].split()[:2])


def _lines(running: str, candidate: str, nos: str) -> str:
    prefixes = LINE_SECTIONS[nos]
    have = {_key(block) for block in _line_blocks(candidate, prefixes)}
    keep = [b for b in _line_blocks(running, prefixes) if _key(b) not in have]
    if not keep:
        return candidate
    lines = candidate.splitlines()
    # after the hostname line, where a human would look for logins
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("hostname ")), 0)
    block = [line for b in keep for line in b]
    if nos == "eos":
        block.append("!")
    return "\n".join(lines[:at] + block + lines[at:]) + "\n"


def _brace_block(text: str, start: int) -> int:
    """Index just past the `}` closing the block whose `{` is at or after `start`."""
    depth = 0
    i = text.index("{", start)
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = text.index('"', i + 1)
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def _junos_children(text: str, parent: str) -> dict[str, str]:
    """Statements (text) directly inside the top-level `parent { }` block, by keyword."""
    match = re.search(rf"^{parent} \{{", text, re.M)
    if not match:
        return {}
    end = _brace_block(text, match.start())
    body = text[match.end():end - 1]
    out: dict[str, str] = {}
    pos = 0
    for child in re.finditer(r"^( +)([a-z][a-z0-9-]*)\b[^\n]*$", body, re.M):
        if child.start() < pos or len(child.group(1)) != 4:
            continue
        line = child.group(0)
        stop = (_brace_block(body, child.start()) if line.rstrip().endswith("{")
                else child.end())
        out[child.group(2)] = body[child.start():stop]
        pos = stop
    return out


def _junos(running: str, candidate: str) -> str:
    theirs = _junos_children(running, "system")
    ours = _junos_children(candidate, "system")
    keep = [theirs[k] for k in JUNOS_SYSTEM if k in theirs and k not in ours]
    if not keep:
        return candidate
    match = re.search(r"^system \{\n", candidate, re.M)
    insert = "".join(part.rstrip("\n") + "\n" for part in keep)
    if match is None:
        return "system {\n" + insert + "}\n" + candidate
    return candidate[:match.end()] + insert + candidate[match.end():]


def _sonic(running: str, candidate: str) -> str:
    from netcfg.deploy.drivers.sonic import keep_device_local as sonic_local

    merged = sonic_local(json.loads(candidate), json.loads(running))
    return json.dumps(merged, indent=4, sort_keys=True) + "\n"


def _cumulus(running: str, candidate: str) -> str:
    from netcfg.deploy.drivers.cumulus import with_device_local

    return with_device_local(candidate, running)


MERGERS: dict[str, Callable[[str, str], str]] = {
    "eos": lambda r, c: _lines(r, c, "eos"),
    "nxos": lambda r, c: _lines(r, c, "nxos"),
    "junos": _junos,
    "sonic": _sonic,
    "cumulus": _cumulus,
}


def keep_device_local(nos: str, running: str, candidate: str) -> str:
    """`candidate` plus the device-local sections of `running` it does not define itself."""
    merge = MERGERS.get(nos)
    return merge(running, candidate) if merge is not None else candidate
