"""Keep a device's own logins and AAA across a full-config replace.

netcfg renders the fabric, not who may log in: users, password hashes, AAA servers and SSH
keys are device-local (often managed by another system) and never pass through the intent.
A replace candidate without them would lock everyone out (EOS, NX-OS) or be refused (Junos
requires `system root-authentication`). So before a replace, the device-local sections of the
running config are copied into the candidate, unless the candidate defines them itself. Which
sections are device-local is each vendor's fact (`DeployAdapter.keep_device_local`); this
module holds the mechanism for line-oriented (indented) configs.
"""

from __future__ import annotations

from netcfg.vendors.lineconfig import parse


def line_blocks(text: str, prefixes: tuple[str, ...]) -> list[list[str]]:
    """Top-level blocks (a line and its indented children, as written) whose first line starts
    with one of `prefixes`."""
    return [s.lines for s in parse(text)
            if s.text.startswith(prefixes) and not s.lines[0][:1].isspace()]


def _key(block: list[str]) -> tuple[str, ...]:
    """What a block configures: its first two words (`username admin`, `aaa authentication`)."""
    return tuple(block[0].split()[:2])


def keep_line_blocks(running: str, candidate: str, prefixes: tuple[str, ...],
                     separator: str | None = None) -> str:
    """`candidate` plus the blocks of `running` starting with `prefixes` that the candidate
    does not configure itself, inserted after the hostname line (where a human looks for
    logins), followed by `separator` when the NOS closes a block with one (EOS `!`)."""
    have = {_key(block) for block in line_blocks(candidate, prefixes)}
    keep = [b for b in line_blocks(running, prefixes) if _key(b) not in have]
    if not keep:
        return candidate
    lines = candidate.splitlines()
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("hostname ")), 0)
    block = [line for b in keep for line in b]
    if separator is not None:
        block.append(separator)
    return "\n".join(lines[:at] + block + lines[at:]) + "\n"
