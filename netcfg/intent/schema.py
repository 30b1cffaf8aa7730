"""JSON Schema of the intent, for editors (yaml-language-server) and documentation."""

from __future__ import annotations

from typing import Any

from netcfg.intent.model import Intent


def intent_schema() -> dict[str, Any]:
    schema = Intent.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://netcfg.dev/schema/fabric.json"
    schema["title"] = "netcfg fabric intent"
    return schema
