"""Command grammars for line-oriented NOS CLIs (EOS, NX-OS), as data.

A grammar is a set of modes; each mode lists the commands valid in it. A command is a
pattern in a small notation:

    word          keyword (case-insensitive)          a|b|c     one of these keywords
    <type>        a value: <ip> <prefix> <iface> <word> <text> (rest of line) <num>
                  <fraction> (1/128) <list> (1,3-5) <sha512> (a $6$ crypt hash) or a numeric
                  range <0-63>
    [ ... ]       optional part                       { ... }   grouping
    X+            X once or more                      =         end of the setting's key

`=` marks which leading tokens identify a setting: a new `mtu 9000` replaces `mtu 1500` when
the pattern is `mtu = <68-9214>`. Without `=`, the whole line is the key. A command may open a
sub-mode (`interface <iface> -> if`). A pattern written with a leading `no` is a negation the
NOS keeps in its configuration (EOS prints `no switchport`).

Grammars are written from vendor documentation; they decide what an emulator accepts, so they
must never be generated from netcfg's own templates.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

TypeCheck = Callable[[str], bool]


def _ip(tok: str) -> bool:
    try:
        ipaddress.ip_address(tok)
        return True
    except ValueError:
        return False


def _prefix(tok: str) -> bool:
    if "/" not in tok:
        return False
    try:
        ipaddress.ip_interface(tok)
        return True
    except ValueError:
        return False


def _num(tok: str) -> bool:
    return re.fullmatch(r"\d+(\.\d+)?", tok) is not None


BASE_TYPES: dict[str, TypeCheck] = {
    "ip": _ip,
    "prefix": _prefix,
    "word": lambda t: True,
    "num": _num,
    "fraction": lambda t: re.fullmatch(r"\d+(/\d+)?", t) is not None,
    "list": lambda t: re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", t) is not None,
    "hex": lambda t: re.fullmatch(r"0x[0-9a-fA-F]+", t) is not None,
    "time": lambda t: re.fullmatch(r"\d\d:\d\d:\d\d", t) is not None,
    # a SHA-512 crypt hash: `$6$`, optional rounds, salt up to 16, digest 86 (crypt(5))
    "sha512": lambda t: re.fullmatch(r"\$6\$(rounds=\d{4,9}\$)?[./0-9A-Za-z]{1,16}\$"
                                     r"[./0-9A-Za-z]{86}", t) is not None,
}


# --- pattern compilation ------------------------------------------------------------------
@dataclass(frozen=True)
class _Lit:
    words: frozenset[str]


@dataclass(frozen=True)
class _Typ:
    name: str
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True)
class _Seq:
    items: tuple[object, ...]
    optional: bool = False


@dataclass(frozen=True)
class _Rep:
    item: object


_KEY = object()  # the `=` marker
_TEXT = _Typ("text")


def _lex(pattern: str) -> list[str]:
    return re.findall(r"\[|\]|\{|\}|\+|<[^>]+>|[^\s\[\]{}+<]+", pattern)


def _parse(tokens: list[str], i: int, close: str | None) -> tuple[list[object], int]:
    items: list[object] = []
    while i < len(tokens):
        tok = tokens[i]
        if tok == close:
            return items, i + 1
        if tok in "[{":
            inner, i = _parse(tokens, i + 1, "]" if tok == "[" else "}")
            items.append(_Seq(tuple(inner), optional=tok == "["))
            continue
        if tok == "+":
            items[-1] = _Rep(items[-1])
        elif tok == "=":
            items.append(_KEY)
        elif tok.startswith("<"):
            inner_tok = tok[1:-1]
            m = re.fullmatch(r"(\d+)-(\d+)", inner_tok)
            items.append(_Typ("int", int(m.group(1)), int(m.group(2))) if m else _Typ(inner_tok))
        else:
            items.append(_Lit(frozenset(w.lower() for w in tok.split("|"))))
        i += 1
    if close is not None:
        raise ValueError(f"unbalanced pattern: missing {close}")
    return items, i


@dataclass
class Command:
    """One pattern of a mode; `enters` names the sub-mode it opens."""

    pattern: str
    enters: str | None = None
    items: tuple[object, ...] = field(init=False, repr=False)
    key_len: int | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        items, _ = _parse(_lex(self.pattern), 0, None)
        if _KEY in items:
            self.key_len = items.index(_KEY)
            items = [x for x in items if x is not _KEY]
        self.items = tuple(items)

    @property
    def sticky_negation(self) -> bool:
        return self.pattern.startswith("no ")


@dataclass
class Mode:
    name: str
    commands: list[Command]


@dataclass
class Match:
    """A successful match: the command and the tokens of the key (see module docstring)."""

    command: Command
    key: tuple[str, ...]


class Grammar:
    """Modes of one NOS plus its value types (e.g. interface names)."""

    def __init__(self, modes: dict[str, list[tuple[str, str | None] | str]],
                 types: dict[str, TypeCheck] | None = None,
                 heredocs: frozenset[str] = frozenset()) -> None:
        self.types = {**BASE_TYPES, **(types or {})}
        #: commands whose text follows on the next lines up to a line `EOF` (EOS's `banner
        #: login`): the text belongs to the command, not to the configuration's modes
        self.heredocs = heredocs
        self.modes: dict[str, Mode] = {}
        for name, commands in modes.items():
            cmds = [Command(c) if isinstance(c, str) else Command(c[0], c[1]) for c in commands]
            self.modes[name] = Mode(name, cmds)
        for mode in self.modes.values():
            for cmd in mode.commands:
                if cmd.enters and cmd.enters not in self.modes:
                    raise ValueError(
                        f"{mode.name}: {cmd.pattern!r} enters unknown mode {cmd.enters}"
                    )

    def match(
        self, mode: str, tokens: list[str], partial: bool = False
    ) -> tuple[Match | None, int]:
        """Match `tokens` in `mode`. Returns (match or None, index of the first bad token).

        partial: the tokens may stop before the pattern ends (for `no`/`default` forms).
        """
        best = 0
        for cmd in self.modes[mode].commands:
            if partial and cmd.sticky_negation:
                continue
            ok, far = self._whole(cmd, tokens, partial)
            if ok:
                key_len = cmd.key_len if cmd.key_len is not None else len(tokens)
                return Match(cmd, tuple(t.lower() for t in tokens[:key_len])), len(tokens)
            best = max(best, far)
        return None, min(best, len(tokens) - 1) if tokens else 0

    # --- matcher ---------------------------------------------------------------------------
    def _whole(self, cmd: Command, tokens: list[str], partial: bool) -> tuple[bool, int]:
        far = [0]
        for end in self._seq(cmd.items, 0, tokens, 0, far, partial):
            if end == len(tokens):
                return True, end
        return False, far[0]

    def _seq(self, items: tuple[object, ...], k: int, toks: list[str], j: int, far: list[int],
             partial: bool) -> Iterator[int]:
        if k == len(items):
            yield j
            return
        if j == len(toks) and partial and j > 0:
            yield j
            return
        for nj in self._item(items[k], toks, j, far, partial):
            far[0] = max(far[0], nj)
            yield from self._seq(items, k + 1, toks, nj, far, partial)

    def _item(self, item: object, toks: list[str], j: int, far: list[int],
              partial: bool) -> Iterator[int]:
        if isinstance(item, _Seq):
            yield from self._seq(item.items, 0, toks, j, far, partial)
            if item.optional:
                yield j
            return
        if isinstance(item, _Rep):
            for nj in self._item(item.item, toks, j, far, partial):
                if nj > j:
                    yield from self._item(item, toks, nj, far, partial)
                    yield nj
            return
        if j >= len(toks):
            return
        tok = toks[j]
        if isinstance(item, _Lit):
            if tok.lower() in item.words:
                yield j + 1
            return
        assert isinstance(item, _Typ)
        if item.name == "text":
            yield len(toks)
            return
        if item.name == "int":
            if tok.isdigit() and item.low is not None and item.low <= int(tok) <= (item.high or 0):
                yield j + 1
            return
        check = self.types.get(item.name)
        if check is None:
            raise ValueError(f"unknown type <{item.name}>")
        if check(tok):
            yield j + 1
