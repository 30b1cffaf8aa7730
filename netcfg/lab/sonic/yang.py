"""Optional second opinion on a target CONFIG_DB: SONiC's own YANG models through libyang.

Active only when the device is given a directory of SONiC `.yang` files
(`DeviceSpec.options["yang_dir"]`, or the `NETCFG_SONIC_YANG` environment variable) and the
`libyang` binding is importable (extra `yang`). Tables whose module is not in that directory are
left to `schema.py`, the emulator's own checks, which always run. Values are typed from the
schema the way SONiC's sonic_yang_ext does before libyang sees them (small integers and
booleans as JSON numbers/booleans, everything else as strings).
"""

from __future__ import annotations

import functools
import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any, NamedTuple

from netcfg.lab.sonic.schema import SchemaError

_SMALL_INTS = {"int8", "int16", "int32", "uint8", "uint16", "uint32"}


class YangValidator:
    def __init__(self, directory: Path) -> None:
        import libyang

        self._ly = libyang
        self.ctx = libyang.Context(str(directory))
        pending = sorted(p.stem for p in directory.glob("*.yang"))
        # load in dependency order: retry the ones whose imports are not loaded yet
        for _ in range(len(pending)):
            failed = []
            for name in pending:
                try:
                    self.ctx.load_module(name)
                except libyang.LibyangError:
                    failed.append(name)
            if not failed or failed == pending:
                break
            pending = failed
        self.tables: dict[str, tuple[str, Any]] = {}
        for module in self.ctx:
            for top in module.children():
                if not isinstance(top, libyang.SContainer):
                    continue
                for table in top.children():
                    if table.nodetype() == libyang.SNode.CONTAINER:
                        self.tables[table.name()] = (f"{module.name()}:{top.name()}", table)
        self._shapes: dict[str, _Table] = {}
        self._verdicts: OrderedDict[str, str | None] = OrderedDict()

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> YangValidator | None:
        folder = options.get("yang_dir") or os.environ.get("NETCFG_SONIC_YANG")
        if not folder or not Path(folder).is_dir():
            return None
        try:
            import libyang  # noqa: F401
        except ImportError:
            return None
        return _cached(str(Path(folder).resolve()))

    # --- translation config_db -> RFC 7951 --------------------------------------------------------
    def _kind(self, typ: Any) -> str:
        base = typ.basename()
        if base == "leafref":
            target = typ.leafref_type()
            return self._kind(target) if target is not None else "str"
        if base in _SMALL_INTS:
            return "int"
        if base == "boolean":
            return "bool"
        if base == "union" and any(self._kind(t) == "int" for t in typ.union_types()):
            return "union-int"
        return "str"

    def _leaves(self, snode: Any) -> dict[str, _Leaf]:
        kinds = (self._ly.SNode.LEAF, self._ly.SNode.LEAFLIST)
        return {c.name(): _Leaf(self._kind(c.type()), c.nodetype() == self._ly.SNode.LEAFLIST)
                for c in snode.children() if c.nodetype() in kinds}

    def _list(self, lst: Any) -> _List:
        leaves = self._leaves(lst)
        inner = [c for c in lst.children() if c.nodetype() == self._ly.SNode.LIST]
        nested = None
        if inner:
            il = inner[0]
            ikey = next(iter(il.keys())).name()
            ileaves = self._leaves(il)
            ival = next(n for n in ileaves if n != ikey)
            nested = _Nested(il.name(), ikey, ileaves[ikey], ival, ileaves[ival])
        return _List(lst.name(), tuple(k.name() for k in lst.keys()), leaves, nested)

    def _shape(self, table: str) -> _Table:
        """What the translation needs of a table's schema, read once per table: walking
        libyang's schema nodes for every entry was most of the lab's CPU in a SONiC push."""
        shape = self._shapes.get(table)
        if shape is None:
            top, tsn = self.tables[table]
            shape = _Table(top,
                           tuple(self._list(c) for c in tsn.children()
                                 if c.nodetype() == self._ly.SNode.LIST),
                           {c.name(): self._leaves(c) for c in tsn.children()
                            if c.nodetype() == self._ly.SNode.CONTAINER})
            self._shapes[table] = shape
        return shape

    @staticmethod
    def _entry(lst: _List, key: str, fields: dict) -> dict | None:
        parts = key.split("|")
        if len(parts) != len(lst.keys):
            return None
        leaves = lst.leaves
        out = {n: _typed(leaves[n], p) for n, p in zip(lst.keys, parts)}
        nested = lst.nested
        if nested is not None and not any(f in leaves for f in fields):
            out[nested.name] = [{nested.key: _typed(nested.key_leaf, k),
                                 nested.value: _typed(nested.value_leaf, v)}
                                for k, v in fields.items()]
            return out
        for f, v in fields.items():
            if f not in leaves:
                raise SchemaError(f"Data Loading Failed\nAll Keys are not parsed in "
                                  f"{lst.name}\ndict_keys([{f!r}])")
            out[f] = _typed(leaves[f], v)
        return out

    def validate(self, db: dict) -> None:
        """Raise SchemaError for what SONiC's models refuse in `db`. A CONFIG_DB already
        judged gets the same verdict again without the work: a push, its checks, its revert
        and the next case's push validate the same few databases over and over. The key is
        the whole database (as canonical JSON), the judge this one loaded context."""
        try:
            key = json.dumps(db, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):  # not a JSON document: judged, never remembered
            self._judge(db)
            return
        if key in self._verdicts:
            self._verdicts.move_to_end(key)
            verdict = self._verdicts[key]
        else:
            try:
                self._judge(db)
                verdict = None
            except SchemaError as e:
                verdict = str(e)
            self._verdicts[key] = verdict
            if len(self._verdicts) > _VERDICTS:
                self._verdicts.popitem(last=False)
        if verdict is not None:
            raise SchemaError(verdict)

    def _judge(self, db: dict) -> None:
        tree: dict[str, dict] = {}
        for table, entries in db.items():
            if table not in self.tables or not isinstance(entries, dict):
                continue
            shape = self._shape(table)
            out = tree.setdefault(shape.top, {}).setdefault(table, {})
            for key, fields in entries.items():
                if key in shape.containers:
                    leaves = shape.containers[key]
                    unknown = [f for f in fields if f not in leaves]
                    if unknown:
                        raise SchemaError(f"Data Loading Failed\nAll Keys are not parsed in "
                                          f"{table}\ndict_keys({unknown!r})")
                    out[key] = {f: _typed(leaves[f], v) for f, v in fields.items()}
                    continue
                for lst in shape.lists:
                    entry = self._entry(lst, key, fields)
                    if entry is not None:
                        out.setdefault(lst.name, []).append(entry)
                        break
                else:
                    raise SchemaError(f"Data Loading Failed\nNo list in {table} matches {key!r}")
        try:
            node = self.ctx.parse_data_mem(json.dumps(tree), "json", strict=True, no_state=True)
        except self._ly.LibyangError as e:
            raise SchemaError(f"Data Loading Failed\n{e}") from None
        if node is not None:
            node.free()


#: databases whose verdict is kept (a push and its revert meet a handful)
_VERDICTS = 32


class _Leaf(NamedTuple):
    """How a leaf's values are typed (sonic_yang_ext's rule): `int`, `union-int`, `bool` or
    `str`, and whether it is a leaf-list."""

    kind: str
    leaflist: bool


class _Nested(NamedTuple):
    """A list inside a list entry (field name -> value maps such as DSCP_TO_TC_MAP)."""

    name: str
    key: str
    key_leaf: _Leaf
    value: str
    value_leaf: _Leaf


class _List(NamedTuple):
    name: str
    keys: tuple[str, ...]
    leaves: dict[str, _Leaf]
    nested: _Nested | None


class _Table(NamedTuple):
    top: str  # module:container the table sits in
    lists: tuple[_List, ...]
    containers: dict[str, dict[str, _Leaf]]


def _typed(leaf: _Leaf, value: Any) -> Any:
    kind = leaf.kind

    def one(v: Any) -> Any:
        v = str(v)
        if kind == "int" and v.lstrip("-").isdigit():
            return int(v)
        if kind == "union-int" and v.isdigit():
            return int(v)
        if kind == "bool" and v in ("true", "false"):
            return v == "true"
        return v
    if leaf.leaflist:
        items = value if isinstance(value, list) else str(value).split(",")
        return [one(x.strip() if isinstance(x, str) else x) for x in items]
    return one(value)


@functools.cache
def _cached(folder: str) -> YangValidator:
    """One validator per folder and process: loading SONiC's models takes seconds, and the
    loaded context is only read afterwards."""
    return YangValidator(Path(folder))
