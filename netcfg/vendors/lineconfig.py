"""The indented line configuration of EOS and NX-OS (`show running-config`): one parser for
the readers (netcfg/vendors/eos|nxos/render.py) and for the device-local blocks a replace
keeps (netcfg/deploy/preserve.py).

A line is a statement; a line indented deeper than the one before it belongs to it. A line
whose first non-blank character is `!` is a comment: at the left margin it closes every open
block (EOS writes one between blocks), indented it stays inside the block's text. A `!` or
any other character later in a line is part of the value (`description a ! b`). A blank line
closes every open block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(slots=True)
class Statement:
    """One line (stripped) and the statements indented below it."""

    text: str
    children: list[Statement] = field(default_factory=list)
    #: for a top-level statement: its lines as written, indented comments included
    lines: list[str] = field(default_factory=list)

    def walk(self) -> Iterator[Statement]:
        """Every statement below this one, depth first, in order."""
        for child in self.children:
            yield child
            yield from child.walk()


def _indent(raw: str) -> int:
    return len(raw) - len(raw.lstrip(" \t"))


def parse(text: str) -> list[Statement]:
    """The top-level statements of a config, each with its tree."""
    roots: list[Statement] = []
    open_: list[tuple[int, Statement]] = []  # (indent, statement), outermost first
    for raw in text.splitlines():
        stripped = raw.strip()
        indent = _indent(raw)
        if not stripped or (stripped.startswith("!") and indent == 0):
            if not stripped and indent and open_:
                open_[0][1].lines.append(raw)  # a whitespace-only line inside a block
            else:
                open_.clear()
            continue
        if stripped.startswith("!"):
            if open_:
                open_[0][1].lines.append(raw)
            continue
        while open_ and open_[-1][0] >= indent:
            open_.pop()
        node = Statement(stripped)
        if open_:
            open_[-1][1].children.append(node)
            open_[0][1].lines.append(raw)
        else:
            node.lines.append(raw)
            roots.append(node)
        open_.append((indent, node))
    return roots
