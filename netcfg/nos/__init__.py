"""What a NOS *is*, as the layers below rendering need it: its name, its capabilities, how it
carves a switch's buffer into pools, and the grammar its raw-config lines and banners must
follow. It sits beside netcfg/platforms and imports nothing above netcfg/intent, so topology,
physics and the plan read it without reaching up to the vendor packages, which hold what a NOS
*does* (render, read, deploy) and use it (docs/vendors.md)."""

from netcfg.nos.facts import (
    WATCHDOG_FIELDS,
    Capabilities,
    NosFacts,
    PoolLayout,
    SeedSupport,
    Switch,
)
from netcfg.nos.registry import NosError, facts, names, registered

__all__ = ["WATCHDOG_FIELDS", "Capabilities", "NosError", "NosFacts", "PoolLayout",
           "SeedSupport", "Switch", "facts", "names", "registered"]
