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
from pathlib import Path
from typing import Any

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

    def _value(self, snode: Any, value: Any) -> Any:
        kind = self._kind(snode.type())

        def one(v: Any) -> Any:
            v = str(v)
            if kind == "int" and v.lstrip("-").isdigit():
                return int(v)
            if kind == "union-int" and v.isdigit():
                return int(v)
            if kind == "bool" and v in ("true", "false"):
                return v == "true"
            return v
        if snode.nodetype() == self._ly.SNode.LEAFLIST:
            items = value if isinstance(value, list) else str(value).split(",")
            return [one(x.strip() if isinstance(x, str) else x) for x in items]
        return one(value)

    def _leaves(self, snode: Any) -> dict[str, Any]:
        kinds = (self._ly.SNode.LEAF, self._ly.SNode.LEAFLIST)
        return {c.name(): c for c in snode.children() if c.nodetype() in kinds}

    def _entry(self, lst: Any, key: str, fields: dict) -> dict | None:
        names = [k.name() for k in lst.keys()]
        parts = key.split("|")
        if len(parts) != len(names):
            return None
        leaves = self._leaves(lst)
        out = {n: self._value(leaves[n], p) for n, p in zip(names, parts)}
        inner = [c for c in lst.children() if c.nodetype() == self._ly.SNode.LIST]
        if inner and not any(f in leaves for f in fields):
            il = inner[0]
            ikey = next(iter(il.keys())).name()
            ileaves = self._leaves(il)
            ival = next(n for n in ileaves if n != ikey)
            out[il.name()] = [{ikey: self._value(ileaves[ikey], k),
                               ival: self._value(ileaves[ival], v)} for k, v in fields.items()]
            return out
        for f, v in fields.items():
            if f not in leaves:
                raise SchemaError(f"Data Loading Failed\nAll Keys are not parsed in "
                                  f"{lst.name()}\ndict_keys([{f!r}])")
            out[f] = self._value(leaves[f], v)
        return out

    def validate(self, db: dict) -> None:
        tree: dict[str, dict] = {}
        for table, entries in db.items():
            if table not in self.tables or not isinstance(entries, dict):
                continue
            top, tsn = self.tables[table]
            out = tree.setdefault(top, {}).setdefault(table, {})
            lists = [c for c in tsn.children() if c.nodetype() == self._ly.SNode.LIST]
            containers = {c.name(): c for c in tsn.children()
                          if c.nodetype() == self._ly.SNode.CONTAINER}
            for key, fields in entries.items():
                if key in containers:
                    leaves = self._leaves(containers[key])
                    unknown = [f for f in fields if f not in leaves]
                    if unknown:
                        raise SchemaError(f"Data Loading Failed\nAll Keys are not parsed in "
                                          f"{table}\ndict_keys({unknown!r})")
                    out[key] = {f: self._value(leaves[f], v) for f, v in fields.items()}
                    continue
                for lst in lists:
                    entry = self._entry(lst, key, fields)
                    if entry is not None:
                        out.setdefault(lst.name(), []).append(entry)
                        break
                else:
                    raise SchemaError(f"Data Loading Failed\nNo list in {table} matches {key!r}")
        try:
            node = self.ctx.parse_data_mem(json.dumps(tree), "json", strict=True, no_state=True)
        except self._ly.LibyangError as e:
            raise SchemaError(f"Data Loading Failed\n{e}") from None
        if node is not None:
            node.free()


@functools.cache
def _cached(folder: str) -> YangValidator:
    """One validator per folder and process: loading SONiC's models takes seconds, and the
    loaded context is only read afterwards."""
    return YangValidator(Path(folder))
