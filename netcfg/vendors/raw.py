"""How `raw_config` enters a rendered file, and where it sets what netcfg itself sets: one
mechanism for every NOS, each vendor supplying only how its text reads (`Vendor.raw_*`).

Line NOSes take the lines at the start of the file (after netcfg's header line, which FRR
needs first: `frr defaults`) or at its end (EOS: before the closing `end`). Structured NOSes
have the entry's mapping laid over their document: mappings merge key by key, anything else
replaces. Where a raw line or value sets a setting the rendered file already states, `overlaps`
names the pair, so lint can say the site's line changes what netcfg derived.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from netcfg.intent.raw import RawPiece
from netcfg.nos.grammar import EXEC_WORDS, exec_line
from netcfg.vendors.lineconfig import Statement, parse

__all__ = ["EXEC_WORDS", "RawPiece", "Setting", "exec_line", "insert_lines", "line_leaves",
           "merged", "overlaps", "tree_overlaps"]


def insert_lines(text: str, pieces: Sequence[RawPiece]) -> str:
    """`text` with the pieces' lines after its first line (`start`) and at its end, before a
    closing `end` line (`end`), each piece in order."""
    start = [p.lines.rstrip("\n") for p in pieces if p.at == "start" and p.lines is not None]
    end = [p.lines.rstrip("\n") for p in pieces if p.at == "end" and p.lines is not None]
    body = text.rstrip("\n").split("\n")
    close = len(body) - 1 if body and body[-1].strip() == "end" else len(body)
    out = body[:1] + start + body[1:close] + end + body[close:]
    return "\n".join(out) + "\n"


def merged(base: Any, update: Any) -> Any:
    """`update` laid over `base`: mappings merge key by key, anything else replaces."""
    if isinstance(base, dict) and isinstance(update, dict):
        out = dict(base)
        for key, value in update.items():
            out[key] = merged(base[key], value) if key in base else value
        return out
    return update


def tree_overlaps(base: Any, update: Any, path: tuple[str, ...] = ()
                  ) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """(path, rendered value, raw value) wherever `update` changes a value `base` states."""
    if isinstance(base, dict) and isinstance(update, dict):
        for key, value in update.items():
            if key in base:
                yield from tree_overlaps(base[key], value, path + (key,))
    elif base != update:
        yield path, base, update


#: a setting: the block lines it sits in, and its own words (`(("interface Ethernet1",),
#: ("mtu", "9214"))`); Junos states every setting as words from the top, with no block lines
Setting = tuple[tuple[str, ...], tuple[str, ...]]


def line_leaves(text: str) -> list[Setting]:
    """An indented line config as settings: each statement without children, under the
    lines of the blocks it sits in."""
    out: list[Setting] = []

    def walk(node: Statement, above: tuple[str, ...]) -> None:
        if node.children:
            for child in node.children:
                walk(child, above + (node.text,))
        elif not node.text.startswith(("!", "#")):
            out.append((above, tuple(node.text.split())))

    for statement in parse(text):
        walk(statement, ())
    return out


def overlaps(rendered: list[Setting], raw: list[Setting]) -> list[tuple[Setting, Setting]]:
    """(raw setting, rendered setting) pairs where the raw one sets the same thing to another
    value (all but the last word alike) or negates it (`no` and the rendered words)."""
    exact = set(rendered)
    by_key: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Setting]] = {}
    for block, words in rendered:
        by_key.setdefault((block, words[:-1]), []).append((block, words))
    out = []
    for block, words in raw:
        if (block, words) in exact or len(words) < 2:
            continue
        if words[0] == "no":
            hits = [(b, w) for b, w in rendered if b == block and w[:len(words) - 1] == words[1:]]
        else:
            hits = by_key.get((block, words[:-1]), [])
        out += [((block, words), hit) for hit in hits[:1]]
    return out


def describe(setting: Setting) -> str:
    """A setting as a person reads it: `mtu 9214 (under interface Ethernet1)`."""
    block, words = setting
    return " ".join(words) + (f" (under {' / '.join(block)})" if block else "")
