"""Junos configuration: a schema-checked tree, loaded from curly-brace text, `set` commands or
XML, and shown as text, XML or a `show | compare` diff."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from netcfg.lab.junos.schema import (
    ANY,
    ENTRY,
    SCHEMA,
    WILDCARD,
    Anything,
    Flag,
    Leaf,
    Named,
    Presence,
    interface_name,
)


class JunosSyntaxError(Exception):
    """What `load` reports: the hierarchy path and the bad element."""

    def __init__(self, path: list[str], bad: str, message: str = "syntax error") -> None:
        super().__init__(f"{message}: [edit {' '.join(path)}] {bad}")
        self.path = path
        self.bad = bad
        self.message = message


@dataclass
class JNode:
    """A statement. Containers have `children` (a list); leaves have a `value` or are flags."""

    name: str
    value: str | None = None
    children: list[JNode] | None = None
    body: Any = None  # schema of the children
    #: `replace:` or `delete:` in front of the statement in a `load merge` text
    mark: str = field(default="", compare=False)

    def copy(self) -> JNode:
        kids = None if self.children is None else [c.copy() for c in self.children]
        return JNode(self.name, self.value, kids, self.body, self.mark)

    def get(self, name: str) -> JNode | None:
        return next((c for c in self.children or [] if c.name == name), None)

    def find(self, path: list[str]) -> JNode | None:
        node: JNode | None = self
        for name in path:
            node = node.get(name) if node is not None else None
        return node

    def same(self, other: JNode) -> bool:
        return render([self]) == render([other])


def new_root() -> JNode:
    return JNode("", children=[], body=SCHEMA)


# --- tokens -------------------------------------------------------------------------------------
_TOKEN = re.compile(r'/\*.*?\*/|#[^\n]*|"(?:[^"\\]|\\.)*"|\[[^\]]*\]|[{};]|[^\s{};"\[\]]+', re.S)


def tokenize(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text) if not t.startswith(("/*", "#"))]


#: the `body` of a leaf whose value is several words (`shaping-rate percent 5`): Junos shows
#: them as written, where one word holding blanks was a quoted string and is shown quoted
WORDS = "words"


def _norm_list(token: str) -> str:
    if token.startswith("["):
        return "[ " + " ".join(token[1:-1].split()) + " ]"
    return token


def _quoted(token: str) -> str:
    """A token as Junos text again: one that held blanks or structure was a quoted string
    (`location "DC1 hall 2"`), and an unchecked subtree keeps it quoted, or the next reader
    takes its words for statements."""
    if not token or any(c in token for c in ' \t{};#"\\'):
        return '"' + token + '"'  # kept as written: its `\"` and `\\` are escaped already
    return token


#: the escapes of a quoted Junos string (Juniper's CLI reference, `login (System)`: `\n`,
#: `\t`, `\'`, `\"`, `\\`); the tree keeps strings as the text writes them, escaped
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
_UNESCAPES = {"n": "\n", "t": "\t"}


def escape(value: str) -> str:
    """A string's characters (an XML element's text) as a quoted Junos string writes them."""
    return re.sub(r'[\\"\n\t]', lambda m: _ESCAPES[m.group()], value)


def unescape(value: str) -> str:
    """A string as written between quotes -> its characters (for XML)."""
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m.group(1), m.group(1)), value, flags=re.S)


# --- resolution against the schema ---------------------------------------------------------------
def _spec(body: Any, token: str, path: list[str]) -> tuple[str, Any]:
    """(key kind, schema) of `token` inside a container with schema `body`."""
    if isinstance(body, Anything):
        return "any", ANY
    if isinstance(body, dict):
        if token in body:
            return "kw", body[token]
        if WILDCARD in body and interface_name(token):
            return "wild", body[WILDCARD]
        if ENTRY in body:
            return "wild", body[ENTRY]
    raise JunosSyntaxError(path, token)


def _statement(tokens: list[str], body: Any, path: list[str], container: bool) -> list[JNode]:
    """Nodes for one statement's tokens (a container head if `container`). A statement may be a
    Junos one-liner (`class X queue-num 3 no-loss;`): trailing tokens become child leaves."""
    kind, spec = _spec(body, tokens[0], path)
    if kind == "any":
        return [JNode(" ".join(_quoted(t) for t in tokens), None, [] if container else None, ANY)]
    if kind == "wild":
        node = JNode(tokens[0], None, [], spec.body)
        node.children = _oneliner(tokens[1:], spec.body, path + [tokens[0]])
        return [node]
    if isinstance(spec, Flag):
        if len(tokens) != 1 or container:
            raise JunosSyntaxError(path, tokens[1] if len(tokens) > 1 else tokens[0])
        return [JNode(tokens[0])]
    if isinstance(spec, Leaf):
        if len(tokens) < 2 or container:
            raise JunosSyntaxError(path, tokens[0], "syntax error, expecting <data>")
        words = [_norm_list(t) for t in tokens[1:]]
        if len(words) > 1:  # `transmit-rate percent 50`: words, shown as written, unquoted
            return [JNode(tokens[0], " ".join(w if w.startswith("[") else _quoted(w)
                                              for w in words), None, WORDS)]
        return [JNode(tokens[0], words[0])]
    if isinstance(spec, Anything):
        return [JNode(" ".join(_quoted(t) for t in tokens), None, [] if container else None, ANY)]
    if isinstance(spec, Presence):
        node = JNode(tokens[0], None, [] if container or len(tokens) > 1 else None, spec.body)
        if node.children is not None:
            node.children = _oneliner(tokens[1:], spec.body, path + [tokens[0]])
        return [node]
    if isinstance(spec, Named):
        if len(tokens) < 2:
            raise JunosSyntaxError(path, tokens[0], "syntax error, expecting <data>")
        if spec.ids and tokens[1] not in spec.ids:
            raise JunosSyntaxError(path + [tokens[0]], tokens[1])
        name = f"{tokens[0]} {tokens[1]}"
        node = JNode(name, None, [], spec.body)
        node.children = _oneliner(tokens[2:], spec.body, path + [name])
        return [node]
    assert isinstance(spec, dict)
    node = JNode(tokens[0], None, [], spec)
    node.children = _oneliner(tokens[1:], spec, path + [tokens[0]])
    return [node]


def _oneliner(tokens: list[str], body: Any, path: list[str]) -> list[JNode]:
    out: list[JNode] = []
    i = 0
    while i < len(tokens):
        kind, spec = _spec(body, tokens[i], path)
        if kind == "any" or isinstance(spec, Anything):
            out += _statement(tokens[i:], body, path, False)
            break
        take = 1 if isinstance(spec, Flag) else 2
        if isinstance(spec, (Named, dict, Presence)) or kind == "wild":
            out += _statement(tokens[i:], body, path, False)
            break
        out += _statement(tokens[i:i + take], body, path, False)
        i += take
    return out


# --- loading -----------------------------------------------------------------------------------
def parse_text(text: str) -> JNode:
    """Curly-brace text -> tree. `replace:`/`delete:` annotations are kept on the nodes' names
    only for the merge step (see `merge`)."""
    tokens = tokenize(text)
    root = new_root()
    stack: list[JNode] = [root]
    path: list[str] = []
    current: list[str] = []
    for tok in tokens:
        if tok == "{":
            if not current:
                raise JunosSyntaxError(path, "{")
            mark, current = _annotation(current)
            node = _statement(current, stack[-1].body, path, True)[0]
            node = _attach(stack[-1], node, mark)
            stack.append(node)
            path.append(node.name)
            current = []
        elif tok == "}":
            if current or len(stack) == 1:
                raise JunosSyntaxError(path, current[0] if current else "}")
            stack.pop()
            path.pop()
        elif tok == ";":
            if current:
                mark, current = _annotation(current)
                for node in _statement(current, stack[-1].body, path, False):
                    _attach(stack[-1], node, mark)
            current = []
        else:
            current.append(tok[1:-1] if tok.startswith('"') else tok)
    if current or len(stack) != 1:
        raise JunosSyntaxError(path, current[0] if current else "}", "syntax error, expecting '}'")
    return root


def _annotation(tokens: list[str]) -> tuple[str, list[str]]:
    if tokens and tokens[0] in ("replace:", "delete:", "inactive:", "active:"):
        return tokens[0][:-1], tokens[1:]
    return "", tokens


def _attach(parent: JNode, node: JNode, mark: str) -> JNode:
    assert parent.children is not None
    if mark:
        node.mark = mark
    existing = parent.get(node.name)
    if existing is not None and existing.children is not None and node.children is not None \
            and not mark:
        for c in node.children:
            _attach(existing, c, "")
        return existing
    if existing is not None:
        parent.children.remove(existing)
    parent.children.append(node)
    return node


def merge(base: JNode, update: JNode) -> JNode:
    """`load merge`/`load replace` semantics: containers merge, leaves replace, `replace:`
    replaces a whole subtree, `delete:` removes it."""
    result = base.copy()
    _merge_into(result, update)
    return result


def _merge_into(target: JNode, update: JNode) -> None:
    assert target.children is not None
    for c in update.children or []:
        mark = c.mark
        existing = target.get(c.name)
        if mark == "delete":
            if existing is not None:
                target.children.remove(existing)
            continue
        if existing is not None and existing.children is not None and c.children is not None \
                and mark != "replace":
            _merge_into(existing, c)
            continue
        fresh = c.copy()
        if existing is not None:
            target.children[target.children.index(existing)] = fresh
        else:
            target.children.append(fresh)


def apply_set(root: JNode, line: str) -> None:
    """One `set`/`delete` command (PyEZ sends them in `<configuration-set>`)."""
    tokens = [t[1:-1] if t.startswith('"') else t for t in tokenize(line)]
    if not tokens:
        return
    verb, tokens = tokens[0], tokens[1:]
    if verb not in ("set", "delete"):
        raise JunosSyntaxError([], verb, "unknown command")
    node, path = root, list[str]()
    while tokens:
        kind, spec = _spec(node.body, tokens[0], path)
        if isinstance(spec, (Named, dict)) or kind == "wild" or \
                (isinstance(spec, Presence) and len(tokens) > 1):
            width = 1 if kind == "wild" or isinstance(spec, (dict, Presence)) else 2
            head = tokens[:width]
            rest = tokens[width:]
            new = _statement(head, node.body, path, True)[0]
            existing = node.get(new.name)
            if verb == "delete" and not rest:
                if existing is not None:
                    node.children.remove(existing)  # type: ignore[union-attr]
                return
            if existing is None:
                if verb == "delete":
                    return
                node.children.append(new)  # type: ignore[union-attr]
                existing = new
            node, tokens = existing, rest
            path.append(existing.name)
            continue
        stmt = _statement(tokens, node.body, path, False)[0]
        old = node.get(stmt.name)
        if old is not None:
            node.children.remove(old)  # type: ignore[union-attr]
        if verb == "set":
            node.children.append(stmt)  # type: ignore[union-attr]
        return
    if verb == "delete":
        return
    raise JunosSyntaxError(path, path[-1] if path else "set", "syntax error, expecting <statement>")


# --- XML ---------------------------------------------------------------------------------------
def from_xml(element: etree._Element) -> JNode:
    """`<configuration>` XML -> text -> tree (one grammar for every input format). List
    entries carry a `<name>` child; entries of `interfaces` are `<interface>` elements."""
    lines: list[str] = []

    def walk(el: etree._Element, body: Any, named: bool = False) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue
            tag = etree.QName(child).localname
            if named and tag == "name":
                continue
            kids = [k for k in child if isinstance(k.tag, str)]
            name_el = next((k for k in kids if etree.QName(k).localname == "name"), None)
            rest = [k for k in kids if name_el is None or etree.QName(k).localname != "name"]
            op = child.get("operation") or ("replace" if child.get("replace") else "")
            prefix = f"{op}: " if op in ("delete", "replace") else ""
            spec = body.get(tag) if isinstance(body, dict) else ANY
            name = _quote(escape(name_el.text or "")) if name_el is not None else ""
            opened = 1
            if isinstance(spec, Named) and spec.ids and not name:
                for g in rest:  # <family><inet>...</inet></family>
                    lines.append(f"{prefix}{tag} {etree.QName(g).localname} {{")
                    walk(g, spec.body)
                    lines.append("}")
                continue
            if tag == "interface" and isinstance(body, dict) and WILDCARD in body and name:
                head, sub = name, body[WILDCARD].body
            elif isinstance(spec, dict) and ENTRY in spec and name:
                lines.append(f"{tag} {{")
                head, sub, opened = name, spec[ENTRY].body, 2
            elif name:
                head, sub = f"{tag} {name}", getattr(spec, "body", ANY)
            else:
                head, sub = tag, spec if isinstance(spec, dict) else getattr(spec, "body", ANY)
            if rest:
                lines.append(f"{prefix}{head} {{")
                walk(child, sub, name_el is not None)
                lines.append("}")
            elif name_el is not None or not (child.text or "").strip():
                lines.append(f"{prefix}{head};")
            else:
                lines.append(f"{prefix}{head} {_quote(escape((child.text or '').strip()))};")
            lines.extend("}" * (opened - 1))

    walk(element, SCHEMA)
    return parse_text("\n".join(lines))


def to_xml(root: JNode) -> etree._Element:
    config = etree.Element("configuration")

    def emit(parent: etree._Element, node: JNode, under: str, body: Any) -> None:
        words = node.name.split(" ", 1)
        if isinstance(body, dict) and WILDCARD in body and len(words) == 1 and \
                interface_name(words[0]):
            el = etree.SubElement(parent, "interface")
            etree.SubElement(el, "name").text = words[0]
        elif isinstance(body, dict) and ENTRY in body and len(words) == 1 and \
                words[0] not in body:
            # list entries repeat the list's element: <schedulers><name>s1</name>...
            grand = parent.getparent()
            assert grand is not None, "a list entry below the root"
            el = etree.SubElement(grand, parent.tag)
            etree.SubElement(el, "name").text = words[0]
        elif words[0] == "family" and len(words) == 2:
            el = etree.SubElement(etree.SubElement(parent, "family"), words[1])
        elif len(words) == 2 and node.children is not None and node.body is not ANY:
            el = etree.SubElement(parent, words[0])
            etree.SubElement(el, "name").text = words[1]
        else:
            el = etree.SubElement(parent, re.sub(r"[^\w.-]", "-", words[0]))
            if node.value is not None:
                el.text = unescape(node.value) if node.body is not WORDS else node.value
            elif len(words) == 2:
                quoted = words[1].startswith('"') and words[1].endswith('"') and len(words[1]) > 1
                el.text = unescape(words[1][1:-1]) if quoted else words[1]
        for c in node.children or []:
            emit(el, c, words[0], node.body)
        if isinstance(node.body, dict) and ENTRY in node.body and len(el) == 0:
            parent.remove(el)

    for c in root.children or []:
        emit(config, c, "", SCHEMA)
    return config


# --- text --------------------------------------------------------------------------------------
def _quote(value: str) -> str:
    """`value` (kept as written, escapes included) as Junos text: quoted when it must be."""
    if value.startswith("[") or (value and not re.search(r'[\s;{}#"\\]', value)):
        return value
    return '"' + value + '"'


def render(nodes: list[JNode], depth: int = 0) -> list[str]:
    out: list[str] = []
    pad = "    " * depth
    for n in nodes:
        if n.children:
            out.append(f"{pad}{n.name} {{")
            out += render(n.children, depth + 1)
            out.append(f"{pad}}}")
        elif n.value is not None and n.children is None:
            value = n.value if n.body is WORDS else _quote(n.value)
            out.append(f"{pad}{n.name} {value};")
        else:
            out.append(f"{pad}{n.name};")
    return out


def to_text(root: JNode) -> str:
    return "\n".join(render(root.children or [])) + "\n"


def compare(old: JNode, new: JNode) -> str:
    """`show | compare` text: `[edit path]` headers, then `-`/`+` statements."""
    out: list[str] = []

    def walk(a: JNode, b: JNode, path: list[str]) -> None:
        lines: list[str] = []
        depth = len(path) + 1  # statements sit one level in from their `[edit ...]` header
        a_kids = {c.name: c for c in a.children or []}
        b_kids = {c.name: c for c in b.children or []}
        nested: list[tuple[JNode, JNode]] = []
        for name, c in a_kids.items():
            if name not in b_kids:
                lines += ["-" + line[1:] for line in render([c], depth)]
        for name, c in b_kids.items():
            old_c = a_kids.get(name)
            if old_c is None:
                lines += ["+" + line[1:] for line in render([c], depth)]
            elif old_c.children is not None and c.children is not None:
                nested.append((old_c, c))
            elif not old_c.same(c):
                lines += ["-" + line[1:] for line in render([old_c], depth)]
                lines += ["+" + line[1:] for line in render([c], depth)]
        if lines:
            out.append(f"[edit{''.join(' ' + p for p in path)}]")
            out.extend(lines)
        for old_c, c in nested:
            walk(old_c, c, path + [c.name])

    walk(old, new, [])
    return "\n".join(out) + ("\n" if out else "")
