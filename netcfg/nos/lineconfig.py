"""The indented line configuration of EOS and NX-OS (`show running-config`): one parser for
the readers (netcfg/vendors/eos|nxos/render.py) and for the sections a replace reports and
keeps (netcfg/deploy/sections.py, netcfg/deploy/preserve.py).

A line is a statement; a line indented deeper than the one before it belongs to it. A line
whose first non-blank character is `!` is a comment: at the left margin it closes every open
block (EOS writes one between blocks), indented it stays inside the block's text. A `!` or
any other character later in a line is part of the value (`description a ! b`). A blank line
closes every open block. `banner login` and `banner motd` take the lines after them, up to a
line `EOF`, as their own text (EOS); `banner motd <d>` / `banner exec <d>` take theirs up to the
line holding the delimiter character `<d>` (NX-OS).
"""

from __future__ import annotations

import re
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


#: EOS commands whose text follows up to a line `EOF` (`banner login`, `banner motd`: AVD's
#: banners.j2, NAPALM's `_multiline_convert`)
HEREDOCS = frozenset({"banner login", "banner motd"})
#: NX-OS banners: `banner motd|exec <d>text<d>`, the text running over lines up to the line
#: holding the delimiter again (Cisco's cisco.nxos nxos_banner: `banner motd @` ... `@`)
_DELIMITED = re.compile(r"banner (?:motd|exec) (\S)(.*)")


def _indent(raw: str) -> int:
    return len(raw) - len(raw.lstrip(" \t"))


def parse(text: str) -> list[Statement]:
    """The top-level statements of a config, each with its tree."""
    roots: list[Statement] = []
    open_: list[tuple[int, Statement]] = []  # (indent, statement), outermost first
    lines = iter(text.splitlines())
    for raw in lines:
        stripped = raw.strip()
        indent = _indent(raw)
        if indent == 0 and stripped.lower() in HEREDOCS:
            # the banner's text, up to a line `EOF`, is the statement's, not statements
            node = Statement(stripped, lines=[raw])
            for more in lines:
                node.lines.append(more)
                if more.strip() == "EOF":
                    break
            open_.clear()
            roots.append(node)
            continue
        if indent == 0 and (m := _DELIMITED.fullmatch(stripped)) and m.group(1) not in m.group(2):
            node = Statement(stripped, lines=[raw])
            for more in lines:
                node.lines.append(more)
                if m.group(1) in more:
                    break
            open_.clear()
            roots.append(node)
            continue
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
