"""SONiC (CONFIG_DB): capabilities, rendering, reading and deployment."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from netcfg.vendors.base import ModuleVendor, PoolLayout
from netcfg.vendors.sonic import buffers, render, routing
from netcfg.vendors.sonic.capabilities import CAPABILITIES
from netcfg.vendors.sonic.deploy import SonicDeploy

if TYPE_CHECKING:
    from netcfg.topology.fabric import Device, Fabric


class Sonic(ModuleVendor):
    name = "sonic"
    template = "sonic/device.j2"
    extension = "json"
    capabilities = CAPABILITIES
    deploy = SonicDeploy()
    render: ClassVar[ModuleType] = render
    routing: ClassVar[ModuleType] = routing
    filters = {"sonic_json": render.to_json}
    raw_form = "tree"

    def raw_tree_refusal(self, merge: Mapping[str, Any]) -> str | None:
        """CONFIG_DB is tables of keys of fields: `{"SYSLOG_SERVER": {"10.0.0.5": {...}}}`."""
        for table, keys in merge.items():
            if not isinstance(keys, dict) or not all(isinstance(v, dict) for v in keys.values()):
                return f"{table}: a CONFIG_DB table maps keys to mappings of fields"
        return None

    def raw_document(self, text: str) -> dict[str, Any]:
        return cast(dict[str, Any], json.loads(text))

    def raw_text(self, document: dict[str, Any]) -> str:
        return render.to_json(document)

    def pool_layout(self, fabric: Fabric, dev: Device, lossless_ports: int) -> PoolLayout:
        return buffers.pool_layout(fabric, dev, lossless_ports, render.DEVICE_TYPES[dev.role])


VENDOR = Sonic()
