"""JSON Schema of the intent, for editors (yaml-language-server) and documentation."""

from __future__ import annotations

from typing import Any

from netcfg.intent.model import Intent
from netcfg.nos import registered
from netcfg.platforms import load_catalog


def intent_schema() -> dict[str, Any]:
    schema = _with_catalog(Intent.model_json_schema(mode="validation"))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://netcfg.dev/schema/fabric.json"
    schema["title"] = "netcfg fabric intent"
    return schema


def devices_schema() -> dict[str, Any]:
    """JSON Schema of devices.yaml: the intent's `devices` and `credentials` sections, which
    may live in that file instead (netcfg/intent/load.py merges it), and nothing else."""
    full = intent_schema()
    return {
        "$schema": full["$schema"],
        "$id": "https://netcfg.dev/schema/devices.json",
        "title": "netcfg devices file",
        "type": "object",
        "properties": {k: full["properties"][k] for k in ("devices", "credentials")},
        "additionalProperties": False,
        "$defs": full.get("$defs", {}),
    }


def _with_catalog(schema: Any) -> Any:
    """Every `x-netcfg-catalog` marker replaced by the names the catalog knows (editors then
    complete platform and NIC names, and the schema refuses a misspelt one like validate)."""
    catalog = load_catalog()
    names = {"platforms": sorted(catalog.platforms), "nics": sorted(catalog.nics),
             "nos": sorted(registered())}
    trees = sorted(n for n, v in registered().items() if v.raw_form == "tree")

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            kind = node.pop("x-netcfg-catalog", None)
            forms = node.pop("x-netcfg-raw-forms", None)
            out = {k: walk(v) for k, v in node.items()}
            if kind is not None:
                out.pop("pattern", None)
                out["enum"] = names[kind]
            if forms:  # raw_config: SONiC and Cumulus take `merge`, the others `lines`
                out["if"] = {"properties": {"nos": {"enum": trees}}}
                out["then"] = {"required": ["merge"], "not": {"required": ["lines"]}}
                out["else"] = {"required": ["lines"], "not": {"required": ["merge"]}}
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)
