"""NVUE configuration documents and trees: parse the `- set:` / `- unset:` YAML that
`nv config replace|patch` take, apply it to a revision, and print revisions and diffs the way
`nv config show` / `nv config diff` do.

A tree is nested dicts of strings; a leaf is a scalar; an empty object (`{}`) is a present
collection member without properties (`10.0.0.1/32: {}`). NVUE writes `on`/`off` unquoted, so
the loader keeps them (and yes/no) as strings rather than YAML 1.1 booleans.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml

from netcfg.yamlfast import SafeDumper, SafeLoader

Tree = dict[str, Any]


class DocumentError(ValueError):
    """The file is not an NVUE configuration document."""


class _Loader(SafeLoader):
    """YAML 1.2-style scalars: only true/false are booleans (libyaml's parser, PyYAML's
    resolvers: netcfg.yamlfast)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.copy().items()
}


class _Dumper(SafeDumper):
    """libyaml's emitter with PyYAML's representers (the pure-Python emitter was a fifth of
    the lab's CPU in a Cumulus push): the same text, byte for byte, for every revision and
    diff the lab prints (tests/lab/test_cumulus_yaml.py)."""


def _str_presenter(dumper: Any, value: str) -> yaml.ScalarNode:
    # numbers and on/off as keys or values stay strings when read back
    style = "'" if value.isdigit() or value in ("on", "off", "yes", "no", "true", "false") \
        else None
    if "\n" in value:
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


def load_yaml(text: str) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        raise DocumentError(f"Invalid YAML: {e}".replace("\n", " ")) from None


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, default_flow_style=False, sort_keys=False, width=4096)


def normalise(value: Any) -> Any:
    """Keys as strings (`'26'` and `26` are the same ID); empty values as `{}`."""
    if isinstance(value, dict):
        return {str(k): normalise(v) for k, v in value.items()}
    if value is None:
        return {}
    return value


def parse_document(text: str) -> list[tuple[str, Tree]]:
    """The operations of a file: [("set"|"unset", tree), ...]; the header is dropped.

    NVUE also takes a plain text file of `nv set` / `nv unset` lines; those come back as
    ("command", {"line": ...}) entries for the caller to run.
    """
    lines = [ln.strip() for ln in text.splitlines()]
    meaningful = [ln for ln in lines if ln and not ln.startswith("#")]
    if meaningful and all(ln.startswith(("nv set ", "nv unset ")) for ln in meaningful):
        return [("command", {"line": ln}) for ln in meaningful]
    data = load_yaml(text)
    if data is None:
        return []
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise DocumentError("Invalid config: expected a list of 'set'/'unset' operations")
    ops: list[tuple[str, Tree]] = []
    for entry in data:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise DocumentError("Invalid config: each entry must be one of 'header', 'set', "
                                "'unset'")
        (op, body), = entry.items()
        if op == "header":
            continue
        if op not in ("set", "unset"):
            raise DocumentError(f"Invalid config: unknown operation '{op}'")
        body = normalise(body)
        if not isinstance(body, dict):
            raise DocumentError(f"Invalid config: '{op}' must be an object")
        ops.append((op, body))
    return ops


def set_tree(target: Tree, patch: Tree) -> None:
    """Merge `patch` into `target` (NVUE set: objects merge, scalars replace)."""
    for key, value in patch.items():
        if isinstance(value, dict):
            if not isinstance(target.get(key), dict):
                target[key] = {}
            set_tree(target[key], value)
        else:
            target[key] = value


def unset_tree(target: Tree, patch: Tree) -> None:
    """Remove what `patch` names: a key with no children (`{}`/null) goes with its subtree."""
    for key, value in patch.items():
        if key not in target:
            continue
        if isinstance(value, dict) and value and isinstance(target[key], dict):
            unset_tree(target[key], value)
        else:
            del target[key]


def apply_ops(tree: Tree, ops: list[tuple[str, Tree]]) -> None:
    for op, body in ops:
        (set_tree if op == "set" else unset_tree)(tree, body)


def path_tree(path: list[str], value: Any) -> Tree:
    """['interface', 'swp1', 'link', 'mtu'], 9000 -> nested dict."""
    node: Any = value
    for token in reversed(path):
        node = {token: node}
    return node


def diff(old: Tree, new: Tree) -> list[tuple[str, Tree]]:
    """Operations that turn `old` into `new`: one set tree, one unset tree (either may be
    missing), the shape `nv config diff` prints."""
    sets, unsets = _diff(old, new)
    ops: list[tuple[str, Tree]] = []
    if sets:
        ops.append(("set", sets))
    if unsets:
        ops.append(("unset", unsets))
    return ops


def _diff(old: Tree, new: Tree) -> tuple[Tree, Tree]:
    sets: Tree = {}
    unsets: Tree = {}
    for key, value in new.items():
        if key not in old:
            sets[key] = copy.deepcopy(value)
        elif isinstance(value, dict) and isinstance(old[key], dict):
            s, u = _diff(old[key], value)
            if s or (not value and old[key]):
                sets[key] = s
            if u:
                unsets[key] = u
        elif value != old[key]:
            sets[key] = copy.deepcopy(value)
    for key in old:
        if key not in new:
            unsets[key] = None
    return sets, unsets


def render_ops(ops: list[tuple[str, Tree]], fmt: str = "yaml") -> str:
    if fmt == "json":
        return json.dumps([{op: body} for op, body in ops], indent=2)
    if fmt == "commands":
        return "".join(f"{line}\n" for op, body in ops for line in commands(op, body))
    if not ops:
        return ""
    return dump_yaml([{op: body} for op, body in ops])


def commands(op: str, tree: Tree, prefix: tuple[str, ...] = ()) -> list[str]:
    """`nv set ...` / `nv unset ...` lines for a tree (`nv config show -o commands`)."""
    out: list[str] = []
    for key, value in tree.items():
        path = prefix + (key,)
        if isinstance(value, dict) and value:
            out.extend(commands(op, value, path))
        elif value is None or value == {}:
            out.append(f"nv {op} {' '.join(_quote(p) for p in path)}")
        else:
            out.append(f"nv {op} {' '.join(_quote(p) for p in path)} {_quote(str(value))}")
    return out


def _quote(token: str) -> str:
    return f"'{token}'" if (not token or any(c.isspace() for c in token)) else token


def show(tree: Tree, header: Tree, fmt: str = "yaml") -> str:
    """A revision as `nv config show` prints it."""
    doc = [{"header": header}, {"set": tree}]
    if fmt == "json":
        return json.dumps(doc, indent=2)
    if fmt == "commands":
        return "".join(f"{ln}\n" for ln in commands("set", tree))
    return dump_yaml(doc)
