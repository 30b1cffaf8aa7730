"""What NVIDIA Cumulus Linux (NVUE) is, for the layers below rendering: its capabilities, and
raw config as a mapping laid over the NVUE document."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.vendors.cumulus.capabilities import CAPABILITIES


class CumulusFacts(NosFacts):
    name = "cumulus"
    capabilities = CAPABILITIES
    raw_form = "tree"


FACTS = CumulusFacts()
