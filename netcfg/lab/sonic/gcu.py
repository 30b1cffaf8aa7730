"""The device side of SONiC's generic config updater (GCU): RFC 6902 patches on CONFIG_DB and
the checks `config apply-patch` / `config replace` / `config rollback` make before they change
anything (sonic-utilities `generic_config_updater`: generic_updater.py, gu_common.py,
patch_sorter.py, field_operation_validators.py and gcu_field_operation_validators.conf.json).

Order of checks, as GCU does them: operations forbidden on fields (PFC_WD GLOBAL, Loopback0,
BUFFER_POOL, BUFFER_PROFILE fields), no empty tables, only tables with YANG models touched,
then the whole target validated against the models.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from typing import Any

from netcfg.lab.sonic import schema


class GcuError(Exception):
    """A GCU refusal; the text is what the CLI prints after `Error: `."""


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str) -> str:
    return "".join("/" + _escape(t) for t in tokens)


def _walk(doc: Any, path: str) -> tuple[Any, str]:
    """(parent container, last token) of a JSON pointer."""
    if not path.startswith("/"):
        raise GcuError(f"Invalid JSON pointer: {path!r}")
    tokens = [_unescape(t) for t in path[1:].split("/")]
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise GcuError(f"can't resolve path {path!r}: member {token!r} not found")
    return node, tokens[-1]


def _get(doc: Any, path: str) -> Any:
    if path == "":
        return doc
    parent, last = _walk(doc, path)
    if isinstance(parent, dict) and last in parent:
        return parent[last]
    if isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        return parent[int(last)]
    raise GcuError(f"can't resolve path {path!r}")


def apply_patch(doc: dict, patch: list) -> dict:
    """Apply an RFC 6902 patch to a copy of `doc`."""
    if not isinstance(patch, list):
        raise GcuError("a JSON patch must be a list of operations")
    out = copy.deepcopy(doc)
    for op in patch:
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise GcuError(f"invalid patch operation: {op!r}")
        kind, path = op["op"], op["path"]
        if kind in ("add", "replace", "test") and "value" not in op:
            raise GcuError(f"The operation does not contain a 'value' member: {op!r}")
        if kind == "test":
            if _get(out, path) != op["value"]:
                raise GcuError(f"{_get(out, path)!r} is not equal to tested value {op['value']!r}")
            continue
        if kind in ("move", "copy"):
            value = copy.deepcopy(_get(out, op.get("from", "")))
            if kind == "move":
                out = _remove(out, op["from"])
            out = _add(out, path, value)
            continue
        if kind == "add":
            out = _add(out, path, copy.deepcopy(op["value"]))
        elif kind == "remove":
            out = _remove(out, path)
        elif kind == "replace":
            _get(out, path)
            out = _remove(out, path)
            out = _add(out, path, copy.deepcopy(op["value"]))
        else:
            raise GcuError(f"Unknown operation {kind!r}")
    return out


def _add(doc: Any, path: str, value: Any) -> Any:
    if path == "":
        return value
    parent, last = _walk(doc, path)
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        parent.insert(index, value)
    else:
        raise GcuError(f"can't add at {path!r}")
    return doc


def _remove(doc: Any, path: str) -> Any:
    parent, last = _walk(doc, path)
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        del parent[int(last)]
    else:
        raise GcuError(f"can't remove a non-existent object {last!r}")
    return doc


def diff(old: Any, new: Any, path: str = "") -> list[dict]:
    """The finest-grained add/remove/replace operations turning `old` into `new` (objects are
    descended into, other values replaced whole), the granularity GCU's validators look at."""
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[dict] = []
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": path + pointer(key)})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": path + pointer(key), "value": value})
            else:
                ops.extend(diff(old[key], value, path + pointer(key)))
        return ops
    return [] if old == new else [{"op": "replace", "path": path, "value": new}]


_ILLEGAL_REMOVALS = (
    "/PFC_WD/GLOBAL/POLL_INTERVAL",
    "/PFC_WD/GLOBAL",
    "/LOOPBACK_INTERFACE/Loopback0",
)
_VALIDATOR = "generic_config_updater.field_operation_validators."
#: BUFFER_POOL fields GCU lets a patch replace ("Shared/headroom pool size changes" of
#: gcu_field_operation_validators.conf.json, spc4 and th5 on a recent image); nothing else,
#: so a pool is never added or removed through GCU
_POOL_FIELDS = {"ingress_lossless_pool/xoff", "ingress_lossless_pool/size",
                "egress_lossy_pool/size"}
#: BUFFER_PROFILE fields GCU lets a patch change one by one
#: (gcu_field_operation_validators.conf.json, Spectrum/Tomahawk ASICs on a recent image):
#: field -> allowed operations
_PROFILE_FIELD_OPS = {"dynamic_th": {"replace"}, "xoff": {"replace"},
                      "packet_discard_action": {"add", "remove", "replace"}}


def check_field_operations(old: dict, target: dict) -> None:
    ops = diff(old, target)
    for op in ops:
        if op["op"] == "remove" and op["path"] in _ILLEGAL_REMOVALS:
            raise GcuError("Given patch operation is invalid. Operation: remove is illegal on "
                           f"field: {op['path']}")
    for op in ops:
        parts = [_unescape(t) for t in op["path"][1:].split("/")]
        table = parts[0]
        if table == "BUFFER_POOL" and not (
                op["op"] == "replace" and "/".join(parts[1:]) in _POOL_FIELDS):
            raise GcuError("Modification of BUFFER_POOL table is illegal- validating function "
                           f"{_VALIDATOR}rdma_config_update_validator returned False")
        if table == "BUFFER_PROFILE" and len(parts) != 2:
            field = parts[-1] if len(parts) > 2 else ""
            if op["op"] not in _PROFILE_FIELD_OPS.get(field, set()):
                raise GcuError("Modification of BUFFER_PROFILE table is illegal- validating "
                               f"function {_VALIDATOR}buffer_profile_config_update_validator "
                               "returned False")


def check_target(old: dict, target: dict, validate: Callable[[dict], None],
                 modelled: Collection[str] | None = None) -> None:
    """Every check GCU makes before applying `target` over `old` (raises GcuError);
    `modelled`: the tables with a YANG model (None: any table may change)."""
    if not isinstance(target, dict):
        raise GcuError("the target configuration must be a JSON object")
    check_field_operations(old, target)
    empty = [t for t, v in target.items() if v == {}]
    if empty:
        raise GcuError("given patch is not valid because it will result in empty tables which "
                       f"is not allowed in ConfigDb. Table{'s' if len(empty) != 1 else ''}: "
                       f"{', '.join(empty)}")
    touched = {op["path"][1:].split("/")[0] for op in diff(old, target) if op["path"]}
    if modelled is not None and any(_unescape(t) not in modelled for t in touched):
        raise GcuError("Given patch is not valid because it has changes to tables without YANG "
                       "models")
    try:
        validate(target)
    except schema.SchemaError as e:
        raise GcuError(f"Given patch will produce invalid config. Error: {e}") from None
