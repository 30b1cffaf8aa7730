"""YAML loading that remembers where every value came from.

PyYAML (libyaml when available) composes the node tree; we build plain Python data from it and
record, for every path into the data, the file/line/column of the value and of its key. That
lets a Pydantic error on `("qos", "classes", "roce", "dscp", 0)` be reported as
`fabric.yaml:42:7`. The walk also rejects what PyYAML silently accepts: duplicate keys and
alias expansions that explode in size ("billion laughs").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml

from netcfg.findings import Finding, IntentError, Position
from netcfg.fsutil import UnreadableFile, read_regular
from netcfg.yamlfast import SafeLoader as _Loader  # libyaml: large explicit topologies

PathKey = tuple[str | int, ...]

#: Upper bound on nodes built from one file, aliases included (a huge explicit topology stays
#: below it).
MAX_NODES = 2_000_000
#: Upper bound on values produced by alias expansion alone: reuse of a small block is fine,
#: an alias bomb ("billion laughs") is refused long before it costs time or memory.
MAX_ALIAS_VALUES = 100_000
#: Deepest nesting accepted (an intent needs fewer than ten levels).
MAX_DEPTH = 64
#: Largest intent file read, in bytes.
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass
class SourceMap:
    """Positions of values and keys by data path, for every loaded file."""

    values: dict[PathKey, Position] = field(default_factory=dict)
    keys: dict[PathKey, Position] = field(default_factory=dict)

    def value(self, path: PathKey) -> Position | None:
        """Position of the value at `path`, or of its nearest ancestor that has one."""
        p = tuple(path)
        while True:
            pos = self.values.get(p)
            if pos is not None or not p:
                return pos
            p = p[:-1]

    def key(self, path: PathKey) -> Position | None:
        """Position of the key naming `path` (falls back to the value's position)."""
        return self.keys.get(tuple(path)) or self.value(path)

    def has(self, path: PathKey) -> bool:
        return tuple(path) in self.values

    def merge(self, other: SourceMap, prefix: PathKey = ()) -> None:
        for k, v in other.values.items():
            self.values[prefix + k] = v
        for k, v in other.keys.items():
            self.keys[prefix + k] = v


def _pos(display: str, mark: yaml.Mark) -> Position:
    return Position(display, mark.line + 1, mark.column + 1)


class _Builder:
    """Turns a composed node tree into Python data plus a SourceMap."""

    def __init__(self, display: str):
        self.display = display
        self.src = SourceMap()
        self.count = 0
        self.aliased = 0
        self.built: set[int] = set()
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if id(node) in self.built:
            self.aliased += 1
        else:
            self.built.add(id(node))
        if self.count > MAX_NODES:
            raise IntentError([_too_many(_pos(self.display, node.start_mark))])
        if self.aliased > MAX_ALIAS_VALUES:
            raise IntentError(
                [
                    Finding.at(
                        "YAML005",
                        "document expands to too many values (anchors/aliases that explode in "
                        f"size: more than {MAX_ALIAS_VALUES:,} values from aliases); write the "
                        "values out",
                        _pos(self.display, node.start_mark),
                    )
                ]
            )
        self.src.values[path] = _pos(self.display, node.start_mark)
        if isinstance(node, yaml.MappingNode):
            self._depth(node, path)
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            self._depth(node, path)
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        return self._scalar(cast(yaml.ScalarNode, node))  # the only other kind of node

    def _depth(self, node: yaml.Node, path: PathKey) -> None:
        if len(path) >= MAX_DEPTH:
            raise IntentError([Finding.at(
                "YAML005", f"values are nested more than {MAX_DEPTH} levels deep",
                _pos(self.display, node.start_mark), path=_dotted(path[:4]) + "...")])

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # noqa: BLE001 - explicit tags (!!int x) fail in many ways
            problem = getattr(exc, "problem", None) or f"not a valid {node.tag.rsplit(':', 1)[-1]}"
            raise IntentError(
                [
                    Finding.at(
                        "YAML003",
                        f"cannot read this value: {problem}",
                        _pos(self.display, node.start_mark),
                    )
                ]
            ) from None

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        out: dict[str, Any] = {}
        first_seen: dict[str, Position] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise IntentError(
                    [
                        Finding.at(
                            "YAML003",
                            "merge keys ('<<') are not supported; write the keys out",
                            _pos(self.display, key_node.start_mark),
                        )
                    ]
                )
            key = self._scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            kpos = _pos(self.display, key_node.start_mark)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise IntentError(
                    [Finding.at("YAML003", "mapping keys must be plain strings or numbers", kpos)]
                )
            key = str(key)
            if key in first_seen:
                raise IntentError(
                    [
                        Finding.at(
                            "YAML004",
                            f"duplicate key '{key}' (first defined at line "
                            f"{first_seen[key].line}); YAML would silently keep only the last",
                            kpos,
                            path=_dotted(path + (key,)),
                        )
                    ]
                )
            first_seen[key] = kpos
            self.src.keys[path + (key,)] = kpos
            out[key] = self.build(value_node, path + (key,))
        return out


def _too_many(pos: Position) -> Finding:
    return Finding.at("YAML005", f"document has more than {MAX_NODES:,} values (list items, "
                      "keys and scalars); an intent needs far fewer: describe the topology, "
                      "netcfg expands it", pos)


#: YAML events that become a node of the tree (a scalar, a list, a mapping, an alias)
_NODE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent,
                yaml.AliasEvent)


def _count_nodes(text: str, shown: str) -> None:
    """Refuse a document of more than MAX_NODES nodes while parsing, before the node tree is
    composed: composing 4 million list items took a minute and 2 GiB before the bound on
    building them was reached. A node takes at least half a character of the text (`[0,0]`),
    so only a text of more than MAX_NODES / 2 characters is counted at all. Errors of the
    YAML itself are left to the composer, which reports them with their position."""
    if len(text) <= MAX_NODES // 2:
        return
    count = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, _NODE_EVENTS):
                count += 1
                if count > MAX_NODES:
                    mark = event.start_mark  # libyaml's Mark: the same line and column
                    raise IntentError([_too_many(Position(shown, mark.line + 1, mark.column + 1)
                                                 if mark else Position(shown, 1, 1))])
    except yaml.YAMLError:
        return


def _dotted(path: PathKey) -> str:
    """`("qos", "classes", "roce", "dscp", 0)` -> `qos.classes.roce.dscp[0]`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


dotted = _dotted


def _char(c: int | str) -> str:
    return repr(chr(c) if isinstance(c, int) else c)


def load_yaml(path: Path, display: str | None = None) -> tuple[Any, SourceMap]:
    """Load one YAML file into plain data and its SourceMap, or raise IntentError."""
    shown = display or str(path)
    start = Position(shown, 1, 1)
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except UnreadableFile as exc:
        raise IntentError([Finding.at("YAML001", exc.reason, start)]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        col = len(raw[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        raise IntentError(
            [
                Finding.at(
                    "YAML002",
                    f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
                    Position(shown, line, col),
                )
            ]
        ) from None
    return load_yaml_text(text, shown)


def load_yaml_text(text: str, shown: str) -> tuple[Any, SourceMap]:
    """Load YAML text (named `shown` in findings) into plain data and its SourceMap, or raise
    IntentError: the same checks as a file, for callers that hold the text (netcfg.api)."""
    start = Position(shown, 1, 1)
    if len(text) > MAX_FILE_BYTES:
        raise IntentError([Finding.at("YAML001", f"is larger than {MAX_FILE_BYTES // 2**20} MiB",
                                      start)])
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        _count_nodes(text, shown)
        nodes = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise IntentError([Finding.at(
            "YAML003", f"character {_char(exc.character)} is not allowed in YAML "
            "(control characters must be escaped inside double quotes)",
            Position(shown, line, col))]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(shown, mark) if mark else start
        problem = exc.problem or exc.context or "invalid YAML"
        raise IntentError([Finding.at("YAML003", f"YAML syntax error: {problem}", pos)]) from None
    except yaml.YAMLError as exc:
        raise IntentError([Finding.at("YAML003", f"YAML error: {exc}", start)]) from None
    if len(nodes) > 1:
        second = nodes[1].start_mark
        raise IntentError(
            [Finding.at("YAML003", "more than one YAML document in the file", _pos(shown, second))]
        )
    if not nodes or (
        isinstance(nodes[0], yaml.ScalarNode) and nodes[0].tag == "tag:yaml.org,2002:null"
    ):
        raise IntentError([Finding.at("YAML006", "file is empty", start)])
    builder = _Builder(shown)
    data = builder.build(nodes[0], ())
    return data, builder.src
