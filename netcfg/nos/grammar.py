"""The raw-config grammar several line NOSes share: which first words leave configuration
mode or act on the switch instead of configuring it (a `raw_config` entry must not)."""

from __future__ import annotations

#: first words that leave configuration mode or act on the switch instead of configuring it,
#: in EOS's and NX-OS's CLI (a loaded file runs line by line: after `end` the rest would be
#: exec commands, `reload` among them)
EXEC_WORDS = frozenset({"end", "exit", "abort", "commit", "configure", "copy", "write",
                        "reload", "bash", "run", "do", "delete", "rollback", "terminal",
                        "send", "clear", "install", "boot"})


def exec_line(lines: str, words: frozenset[str] = EXEC_WORDS) -> str | None:
    """Why these CLI lines cannot go into a config file: the first line whose first word is
    one of `words` (None: none is)."""
    for n, line in enumerate(lines.splitlines(), 1):
        parts = line.split()
        if parts and parts[0].lower() in words:
            return (f"line {n} '{line.strip()[:60]}' is not configuration ('{parts[0]}' would "
                    "leave configuration mode or act on the switch)")
    return None
