"""What Cisco NX-OS is, for the layers below rendering: its capabilities (raw lines follow
the CLI grammar every line NOS shares, netcfg/nos/grammar.py)."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.vendors.nxos.capabilities import CAPABILITIES


class NxosFacts(NosFacts):
    name = "nxos"
    capabilities = CAPABILITIES


FACTS = NxosFacts()
