"""The Junos configuration language (curly-brace text and `set` commands), read once for
everything that reads it: the QoS reader (`statements`), raw statements merged into netcfg's
hierarchy (`merge_statements`) and the sections a replace keeps or replaces (`select`,
`remove_statements`). Strings with escaped quotes, braces or `#` inside them, `/* */` and
`#` comments are tokens of their own, never structure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: comment, string (with backslash escapes), structure, or a word
_TOKEN = re.compile(r'/\*.*?\*/|#[^\n]*|"(?:[^"\\]|\\.)*"|[{};\[\]]|[^\s{};"\[\]]+', re.S)


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def comment(self) -> bool:
        return self.text.startswith(("/*", "#"))


def tokens(text: str) -> list[Token]:
    return [Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _word(tok: str) -> str:
    return tok[1:-1] if tok.startswith('"') else tok


def statements(text: str) -> list[tuple[str, ...]]:
    """A curly-brace (or `set`) config as flat statements, each the full token path from the
    top: `class-of-service forwarding-classes class roce queue-num 3`. Brackets and quotes are
    dropped, so one-liners and blocks read alike; `inactive:`-style tags are left out."""
    if re.match(r"\s*(set|delete) ", text):
        return [tuple(_word(t) for t in _TOKEN.findall(line)[1:]
                      if t not in "[]" and not t.startswith(("/*", "#")))
                for line in text.splitlines() if line.startswith("set ")]
    out: list[tuple[str, ...]] = []
    stack: list[tuple[str, ...]] = [()]
    cur: list[str] = []
    for tok in _TOKEN.findall(text):
        if tok.startswith(("/*", "#")) or tok in ("[", "]"):
            continue
        if tok == "{":
            stack.append(stack[-1] + tuple(w for w in cur if not w.endswith(":")))
            cur = []
        elif tok == "}":
            if cur:
                out.append(stack[-1] + tuple(cur))
            if len(stack) > 1:
                stack.pop()
            cur = []
        elif tok == ";":
            if cur:
                out.append(stack[-1] + tuple(w for w in cur if not w.endswith(":")))
            cur = []
        else:
            cur.append(_word(tok))
    return out


def raw_refusal(text: str) -> str | None:
    """Why curly-brace `text` cannot follow netcfg's own hierarchy in one file (None: it can):
    every brace closed in it and none closed that it did not open (or it would end a block of
    netcfg's, or swallow the rest), strings and comments closed, no statement left open, and
    no `set` commands (another format)."""
    depth, last = 0, None
    covered = 0
    for tok in tokens(text):
        gap = text[covered:tok.start]
        if gap.strip():
            return f"'{gap.strip()[:20]}' is not Junos syntax (an unclosed string?)"
        covered = tok.end
        if tok.text.startswith("/*") and not tok.text.endswith("*/"):
            return "a /* comment is not closed"
        if tok.comment:
            continue
        if last is None and depth == 0 and tok.text in ("set", "delete", "activate"):
            return "write the lines in curly-brace form, not as `set` commands"
        if tok.text == "{":
            depth += 1
        elif tok.text == "}":
            if last is not None:
                return f"the statement ending '{last[:30]}' has no ';'"
            depth -= 1
            if depth < 0:
                return "a '}' closes a block the lines did not open"
        last = tok.text
        if tok.text in (";", "{", "}"):
            last = None
    if text[covered:].strip():
        return f"'{text[covered:].strip()[:20]}' is not Junos syntax (an unclosed string?)"
    if depth:
        return f"{depth} block(s) are not closed"
    if last is not None:
        return f"the statement ending '{last[:30]}' has no ';'"
    return None


@dataclass(slots=True)
class _Statement:
    """A statement of curly-brace text: its words (quotes and brackets kept), its children
    (None for a leaf), or a comment on its own (no words)."""

    words: tuple[str, ...]
    children: list[_Statement] | None = None
    comment: str = ""

    def lines(self, depth: int) -> list[str]:
        """The statement in Junos's own layout: four spaces a level, braces on their lines."""
        pad = "    " * depth
        if self.comment:
            return [pad + self.comment]
        if self.children is None:
            return [f"{pad}{' '.join(self.words)};"]
        inner = [line for child in self.children for line in child.lines(depth + 1)]
        return [f"{pad}{' '.join(self.words)} {{", *inner, pad + "}"]


def _parse(toks: list[Token], first: int, last: int) -> list[_Statement]:
    out: list[_Statement] = []
    words: list[str] = []
    i = first
    while i < last:
        tok = toks[i]
        if tok.comment:
            out.append(_Statement((), comment=tok.text))
        elif tok.text == "{":
            close = _matching(toks, i)
            out.append(_Statement(tuple(words), _parse(toks, i + 1, close)))
            words, i = [], close
        elif tok.text == ";":
            if words:
                out.append(_Statement(tuple(words)))
            words = []
        else:
            words.append(tok.text)
        i += 1
    return out


def _container(toks: list[Token], path: list[tuple[str, ...]]) -> tuple[int, int] | None:
    """Token indexes inside the block at `path` (each step a statement's words): (0, len) for
    the top level; None where the text has no such block."""
    first, last = 0, len(toks)
    for step in path:
        words: list[str] = []
        i, found = first, None
        while i < last and found is None:
            tok = toks[i]
            if tok.comment:
                pass
            elif tok.text == "{":
                close = _matching(toks, i)
                if tuple(words) == step:
                    found = (i + 1, close)
                words, i = [], close
            elif tok.text == ";":
                words = []
            else:
                words.append(tok.text)
            i += 1
        if found is None:
            return None
        first, last = found
    return first, last


def merge_statements(text: str, extra: str, at_start: bool = False) -> str:
    """`text` with the statements of `extra` in its hierarchy, so that no block is stated
    twice: a block `text` already has (same words at the same level) takes `extra`'s children
    inside it, level by level; any other statement goes last into the block it belongs in, or,
    at the top level, at the end of `text` (`at_start`: after its first line, netcfg's
    header)."""

    def place(text: str, path: list[tuple[str, ...]], statement: _Statement) -> str:
        toks = tokens(text)
        inside = _container(toks, path)
        assert inside is not None
        if statement.children is not None and statement.words and \
                _container(toks, path + [statement.words]) is not None:
            for child in statement.children:
                text = place(text, path + [statement.words], child)
            return text
        lines = "\n".join(statement.lines(len(path))) + "\n"
        if path:  # before the line of the block's closing brace
            at = _line_start(text, toks[inside[1]].start)
        elif at_start:
            at = _line_end(text, 0)
        else:
            at = len(text)
            if text and not text.endswith("\n"):
                lines = "\n" + lines
        return text[:at] + lines + text[at:]

    toks = tokens(extra)
    statements = _parse(toks, 0, len(toks))
    for statement in (reversed(statements) if at_start else statements):
        text = place(text, [], statement)
    return text


def _plain(words: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A statement's words as `statements` reads them: unquoted, no brackets or tags."""
    return tuple(_word(w) for w in words if w not in ("[", "]") and not w.endswith(":"))


def _under(words: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether a statement with `words` lies on `path` (a prefix of it, or under it)."""
    n = min(len(words), len(path))
    return words[:n] == path[:n]


def select(text: str, path: tuple[str, ...]) -> str:
    """The statements of `text` whose full path (as `statements` reads it) starts with `path`,
    inside their enclosing blocks, in Junos's layout: `("system", "login", "user", "ops")` ->
    `system { login { user ops { ... } } }`. Comments inside a selected statement stay, and
    so do those right before it (Junos shows an annotation before what it annotates)."""

    def pick(found: list[_Statement], rest: tuple[str, ...]) -> list[_Statement]:
        out: list[_Statement] = []
        comments: list[_Statement] = []
        for statement in found:
            words = _plain(statement.words)
            if not words:
                comments.append(statement)
                continue
            before, comments = comments, []
            if not _under(words, rest):
                continue
            if len(words) >= len(rest):
                out += [*before, statement]
            elif statement.children is not None:
                inner = pick(statement.children, rest[len(words):])
                if inner:
                    out.append(_Statement(statement.words, inner))
        return out

    toks = tokens(text)
    chosen = pick(_parse(toks, 0, len(toks)), path)
    return "".join(line + "\n" for s in chosen for line in s.lines(0))


def remove_statements(text: str, path: tuple[str, ...]) -> str:
    """`text` without the statements whose full path starts with `path` (whole lines; the
    blocks around them stay, as written)."""
    toks = tokens(text)
    first, last = 0, len(toks)
    while True:
        hits = [b for b in _children(text, toks, first, last) if _under(b.words, path)]
        whole = [b for b in hits if len(b.words) >= len(path)]
        if whole:
            for block in reversed(whole):
                text = text[:block.start] + text[block.end:]
            return text
        inner = next((b for b in hits if b.body >= 0), None)
        if inner is None:
            return text
        open_at = next(k for k, t in enumerate(toks) if t.end == inner.body)
        first, last, path = open_at + 1, _matching(toks, open_at), path[len(inner.words):]


@dataclass(frozen=True, slots=True)
class _Block:
    start: int  # first character of the statement's first line
    end: int    # just past the end of its last line
    body: int   # just past its `{` (blocks only)
    #: its words, unquoted, without `inactive:`-style tags (as `statements` reads them)
    words: tuple[str, ...]


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def _children(text: str, toks: list[Token], first: int, last: int) -> list[_Block]:
    """Statements directly between token indexes `first` and `last` (exclusive)."""
    out: list[_Block] = []
    i = first
    while i < last:
        tok = toks[i]
        if tok.comment or tok.text in ("}", ";"):
            i += 1
            continue
        words: list[str] = []
        j = i
        while j < last and toks[j].text not in ("{", ";", "}"):
            if not toks[j].comment and toks[j].text not in ("[", "]"):
                words.append(toks[j].text)
            j += 1
        plain = _plain(words)
        if j < last and toks[j].text == "{":
            close = _matching(toks, j)
            out.append(_Block(_line_start(text, tok.start),
                              _line_end(text, toks[close].end), toks[j].end, plain))
            i = close + 1
        else:
            stop = toks[j].end if j < last else toks[last - 1].end
            out.append(_Block(_line_start(text, tok.start), _line_end(text, stop), -1,
                              plain))
            i = j + 1
    return out


def _matching(toks: list[Token], open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(toks)):
        if toks[k].text == "{":
            depth += 1
        elif toks[k].text == "}":
            depth -= 1
            if depth == 0:
                return k
    raise ValueError("unbalanced braces in a Junos configuration")


