"""Pydantic validation errors -> findings that name the file, line, column and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from netcfg.findings import Finding
from netcfg.intent.base import suggest
from netcfg.intent.yamlsrc import PathKey, SourceMap, dotted

_TYPE_NAMES = {
    "int_type": "an integer", "int_parsing": "an integer", "string_type": "a string",
    "bool_type": "true or false", "float_type": "a number", "list_type": "a list",
    "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "int_from_float": "an integer",
}
_RULES = {
    "unknown_keys": "SCH001", "missing": "SCH002", "unit_missing": "SCH004",
    "unit_parse": "SCH004", "unit_unknown": "SCH004", "unit_range": "SCH004",
    "unit_spelling": "SCH004", "leaf_count": "TOP004",
    "unsafe_text": "SCH005", "bad_name": "SCH005",
}


def _yaml_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
            dict: "mapping"}.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    """A value as YAML spells it (true, null), strings quoted."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def data_path(loc: tuple[Any, ...], data: Any) -> PathKey:
    """Drop the parts of a Pydantic `loc` that are not keys of the data (union tags, etc.)."""
    path: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
    return tuple(path)


def _message(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind in _TYPE_NAMES:
        return f"expected {_TYPE_NAMES[kind]}, got {_show(value)} ({_yaml_type(value)})"
    if kind == "literal_error":
        return f"{_show(value)} is not allowed; expected {ctx.get('expected')}"
    if kind == "union_tag_invalid":
        return f"kind {_show(ctx.get('tag'))} is not allowed; expected {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return f"missing 'kind' (one of {ctx.get('expected_tags', '?')})"
    msg: str = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if msg.startswith("Input should"):
        msg = f"{_show(value)} should" + msg[len("Input should"):]
    return msg


def findings_from_validation(exc: ValidationError, data: Any, src: SourceMap) -> list[Finding]:
    """One finding per distinct problem, located at the offending key or value."""
    out: list[Finding] = []
    seen: set[tuple[PathKey, str]] = set()
    for err in exc.errors(include_url=False):
        path = data_path(tuple(err["loc"]), data)
        kind = err["type"]
        rule = _RULES.get(kind, "SCH003")
        if kind == "unknown_keys":
            ctx = err["ctx"]
            for key in ctx["keys"]:
                kpath = path + (key,)
                msg = (f"unknown key '{key}'{suggest(str(key), ctx['allowed'])}; "
                       f"allowed: {', '.join(ctx['allowed'])}")
                out.append(Finding.at(rule, msg, src.key(kpath), path=dotted(kpath)))
            continue
        if kind == "missing":
            missing = err["loc"][-1]
            if (path, f"missing:{missing}") in seen:
                continue
            seen.add((path, f"missing:{missing}"))
            out.append(Finding.at(rule, f"missing required key '{missing}'", src.value(path),
                                  path=dotted(path + (str(missing),))))
            continue
        if (path, "value") in seen:  # a union reports each alternative; one line is enough
            continue
        seen.add((path, "value"))
        if kind in ("union_tag_invalid", "union_tag_not_found") and src.has(path + ("kind",)):
            path = path + ("kind",)
        at = (err.get("ctx") or {}).get("at")
        if at and src.has(path + tuple(at)):  # a model's check that names its field
            path = path + tuple(at)
        pos = src.key(path) if "[key]" in err["loc"] else src.value(path)
        out.append(Finding.at(rule, _message(err), pos, path=dotted(path)))
    return out
