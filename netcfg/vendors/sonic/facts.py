"""What SONiC is, for the layers below rendering: its capabilities, raw config as CONFIG_DB
tables laid over the file, and how its SKU's buffer tables carve a switch's buffer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from netcfg.nos import NosFacts, PoolLayout, Switch
from netcfg.vendors.sonic import buffers
from netcfg.vendors.sonic.capabilities import CAPABILITIES, DEVICE_TYPES


class SonicFacts(NosFacts):
    name = "sonic"
    capabilities = CAPABILITIES
    raw_form = "tree"

    def raw_tree_refusal(self, merge: Mapping[str, Any]) -> str | None:
        """CONFIG_DB is tables of keys of fields: `{"SYSLOG_SERVER": {"10.0.0.5": {...}}}`."""
        for table, keys in merge.items():
            if not isinstance(keys, dict) or not all(isinstance(v, dict) for v in keys.values()):
                return f"{table}: a CONFIG_DB table maps keys to mappings of fields"
        return None

    def pool_layout(self, switch: Switch) -> PoolLayout:
        return buffers.pool_layout(switch, DEVICE_TYPES[switch.role])


FACTS = SonicFacts()
