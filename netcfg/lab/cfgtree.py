"""Configuration as an ordered tree of CLI lines, and the editor that applies flat lines to it.

EOS and NX-OS receive configuration as flat lines (NAPALM strips indentation), so the mode of
each line comes from the NOS's rules: a mode-opening command enters its mode; a line that is
not valid in the current mode is tried in the parent modes, up to the global one; a line valid
nowhere is rejected with the position of the bad token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netcfg.lab.grammar import Grammar, Match


@dataclass
class Node:
    """A configuration line; `mode` is set when the line opens a sub-mode."""

    line: str
    mode: str | None = None
    children: list[Node] = field(default_factory=list)
    #: a heredoc command's text (Grammar.heredocs), printed after it and closed by `EOF`
    text: str | None = None
    #: (line, its lowered words), kept while `line` is the same string (every edit compares
    #: words, and splitting each sibling's line again made a long config quadratic in time)
    _words: tuple[str, tuple[str, ...]] | None = field(default=None, init=False, repr=False,
                                                       compare=False)

    def copy(self) -> Node:
        return Node(self.line, self.mode, [c.copy() for c in self.children], self.text)

    @property
    def words(self) -> tuple[str, ...]:
        """The line's words, lowered (`tokens`, without a new list per call)."""
        cached = self._words
        if cached is None or cached[0] is not self.line:
            cached = self._words = (self.line, tuple(self.line.lower().split()))
        return cached[1]

    @property
    def tokens(self) -> list[str]:
        return list(self.words)

    def child(self, line: str) -> Node | None:
        wanted = tuple(line.lower().split())
        return next((c for c in self.children if c.words == wanted), None)

    def walk(self, depth: int = 0):
        for c in self.children:
            yield depth, c
            yield from c.walk(depth + 1)


class ConfigError(Exception):
    """A line the NOS rejects: `token` is the index of the first bad token (None: incomplete)."""

    def __init__(self, line: str, token: int | None) -> None:
        self.line = line
        self.token = token
        super().__init__(line)

    @property
    def bad(self) -> str:
        toks = self.line.split()
        return toks[self.token] if self.token is not None and self.token < len(toks) else ""


class ModalEditor:
    """Applies lines to `root` (whose mode is `root.mode`) following `grammar`.

    strict=False accepts unknown lines as leaves of the current mode (mode-opening commands
    must still be known, or the hierarchy could not be rebuilt).
    """

    NEGATIONS = ("no", "default")

    def __init__(self, grammar: Grammar, root: Node, strict: bool = True,
                 indexed: bool = False) -> None:
        """`indexed`: keep an index of each block's lines while editing, for a tree only
        this editor changes until it is done (parse_indented's): a line then finds the
        lines it replaces, and a block its existing node, without reading every sibling."""
        self.grammar = grammar
        self.root = root
        self.strict = strict
        self.stack: list[Node] = [root]
        self._index: dict[int, _Block] | None = {} if indexed else None

    @property
    def mode(self) -> str:
        return self.stack[-1].mode or ""

    def exit(self) -> bool:
        """Leave the current sub-mode; False when already at the top."""
        if len(self.stack) > 1:
            self.stack.pop()
            return True
        return False

    def end(self) -> None:
        del self.stack[1:]

    def apply(self, line: str) -> bool:
        """Apply one line; True when it opened a sub-mode. Raises ConfigError."""
        tokens = line.split()
        if not tokens:
            return False
        far = 0
        incomplete = False
        for depth in range(len(self.stack) - 1, -1, -1):
            mode = self.stack[depth].mode or ""
            outcome = self._try(mode, tokens)
            if isinstance(outcome, tuple):
                del self.stack[depth + 1:]
                return self._perform(outcome[0], outcome[1], tokens, line)
            if outcome == -1:
                incomplete = incomplete or depth == len(self.stack) - 1 or far == 0
            else:
                far = max(far, outcome)
        if not self.strict:
            self._leaf(self.stack[-1], tokens, None, line)
            return False
        raise ConfigError(line, None if incomplete else far)

    # --- internals ------------------------------------------------------------------------------
    def _try(self, mode: str, tokens: list[str]) -> tuple[str, Match] | int:
        """(action, match) on success; else the bad-token index, or -1 for an incomplete line."""
        if tokens[0].lower() in self.NEGATIONS and len(tokens) > 1:
            m, _ = self.grammar.match(mode, tokens)
            if m is not None and m.command.sticky_negation:
                return "sticky", m
            m, far = self.grammar.match(mode, tokens[1:], partial=True)
            if m is not None:
                return ("reset" if tokens[0].lower() == "default" else "remove"), m
            return far + 1
        m, far = self.grammar.match(mode, tokens)
        if m is not None:
            return "set", m
        p, _ = self.grammar.match(mode, tokens, partial=True)
        return -1 if p is not None else far

    def _perform(self, action: str, match: Match, tokens: list[str], line: str) -> bool:
        parent = self.stack[-1]
        if action in ("remove", "reset"):
            self._remove(parent, [t.lower() for t in tokens[1:]])
            return False
        if action == "sticky":
            self._remove(parent, [t.lower() for t in tokens[1:]])
            parent.children.append(Node(line))
            return False
        cmd = match.command
        if cmd.enters:
            block = self._block(parent)
            node = parent.child(line) if block is None else block.child(line)
            if node is None:
                node = Node(line, cmd.enters)
                parent.children.append(node)
                if block is not None:
                    block.added(node)
            self.stack.append(node)
            return True
        self._leaf(parent, tokens, match.command.key_len, line)
        return False

    def _block(self, parent: Node) -> _Block | None:
        """The index of `parent`'s lines (None: not indexed), rebuilt when they changed
        other than through it."""
        if self._index is None:
            return None
        block = self._index.get(id(parent))
        if block is None or not block.current(parent):
            block = self._index[id(parent)] = _Block(parent)
        return block

    def _leaf(self, parent: Node, tokens: list[str], key_len: int | None, line: str) -> None:
        """`_set_leaf`, answered from the index when no sibling can be one the line
        replaces (the line is then appended, as `_set_leaf` would append it)."""
        block = self._block(parent)
        if block is not None and block.appends(tokens, key_len):
            node = Node(line)
            parent.children.append(node)
            block.added(node)
            return
        self._set_leaf(parent, tokens, key_len, line)
        if block is not None:  # lines replaced in place: the list's size may not show it
            del self._index[id(parent)]  # type: ignore[union-attr]

    @staticmethod
    def _set_leaf(parent: Node, tokens: list[str], key_len: int | None, line: str) -> None:
        low = [t.lower() for t in tokens]
        key = low[:key_len] if key_len is not None else low
        index = len(parent.children)
        for i in range(len(parent.children) - 1, -1, -1):
            c = list(parent.children[i].words)
            same = c[:len(key)] == key and (key_len is not None or c == low)
            negated = c[:1] == ["no"] and c[1:] == low[:len(c) - 1]
            if (same or negated) and parent.children[i].mode is None:
                del parent.children[i]
                index = i
        parent.children.insert(index, Node(line))

    @staticmethod
    def _remove(parent: Node, prefix: list[str]) -> None:
        parent.children = [
            c for c in parent.children
            if c.tokens[:len(prefix)] != prefix and c.tokens[:len(prefix) + 1] != ["no", *prefix]
        ]


class _Block:
    """What an indexed editor knows of one block's lines (ModalEditor(indexed=True)): the
    first node of each word sequence (`Node.child`), and of the settings (nodes without a
    mode) every leading part of their words, their whole words, and the words after a
    leading `no`. A set may still hold a line removed since (then the plain scan runs),
    never miss one present; a block whose list was replaced or resized elsewhere is read
    again."""

    def __init__(self, parent: Node) -> None:
        self.children = parent.children
        self.size = 0
        self.first: dict[tuple[str, ...], Node] = {}
        self.heads: set[tuple[str, ...]] = set()
        self.whole: set[tuple[str, ...]] = set()
        self.negated: set[tuple[str, ...]] = set()
        for node in parent.children:
            self.added(node)

    def current(self, parent: Node) -> bool:
        return parent.children is self.children and len(self.children) == self.size

    def added(self, node: Node) -> None:
        self.size += 1
        words = node.words
        self.first.setdefault(words, node)
        if node.mode is None:
            self.whole.add(words)
            self.heads.update(words[:n] for n in range(1, len(words) + 1))
            if words[:1] == ("no",):
                self.negated.add(words[1:])

    def child(self, line: str) -> Node | None:
        return self.first.get(tuple(line.lower().split()))

    def appends(self, tokens: list[str], key_len: int | None) -> bool:
        """True when no setting of the block is one `_set_leaf` would replace: it keys on
        the first `key_len` words (all of them when None), or is the line's own negation
        (`no` and a leading part of its words)."""
        low = tuple(t.lower() for t in tokens)
        if key_len is not None:
            key = low[:key_len]
            if not key or key in self.heads:
                return False
        elif low in self.whole:
            return False
        return not any(low[:n] in self.negated for n in range(len(low) + 1))


def render(root: Node, indent: int, bang: bool) -> list[str]:
    """Lines of the tree, children indented by `indent` spaces; inside a block, settings come
    before sub-blocks (as both EOS and NX-OS print them). With `bang`, EOS-style `!`
    separators after each top-level block and before nested blocks."""
    out: list[str] = []

    def emit(node: Node, depth: int) -> None:
        pad = " " * (indent * depth)
        children = node.children
        if depth > 0:
            children = [c for c in children if c.mode is None] + \
                       [c for c in children if c.mode is not None]
        for c in children:
            if bang and c.children and depth > 0:
                out.append(pad + "!")
            out.append(pad + c.line)
            if c.text is not None:
                out.extend(c.text.split("\n") + ["EOF"])
            emit(c, depth + 1)
            if bang and depth == 0 and (c.children or c.mode):
                out.append("!")

    emit(root, 0)
    return out


def parse_indented(text: str, grammar: Grammar, root_mode: str, strict: bool = False) -> Node:
    """Rebuild a tree from indented text (a saved file or startup-config); `!` lines and
    blank lines are ignored, hierarchy comes from the grammar like on the device."""
    root = Node("", root_mode)
    editor = ModalEditor(grammar, root, strict=strict, indexed=True)
    indents = [-1]  # indentation of the line that opened each stack level
    lines = iter(text.splitlines())
    for raw in lines:
        line = raw.strip()
        if line.lower() in grammar.heredocs:
            body = []
            for more in lines:
                if more.strip() == "EOF":
                    break
                body.append(more)
            set_heredoc(editor, line, "\n".join(body))
            continue
        if not line or line.startswith("!") or line == "end":
            continue
        indent = len(raw) - len(raw.lstrip())
        while len(indents) > 1 and indents[-1] >= indent:
            indents.pop()
            editor.exit()
        if editor.apply(line):
            indents[len(editor.stack) - 1:] = [indent]
        else:
            del indents[len(editor.stack):]
    return root


def set_heredoc(editor: ModalEditor, line: str, body: str) -> None:
    """Apply heredoc command `line` at the top level and give its node `body` as its text."""
    del editor.stack[1:]
    editor.apply(line)
    node = editor.stack[0].child(line)
    if node is None:
        raise ConfigError(line, 0)
    node.text = body
