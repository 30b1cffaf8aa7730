"""What Cisco NX-OS is, for the layers below rendering: its capabilities (raw lines follow
the CLI grammar every line NOS shares, netcfg/nos/grammar.py)."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.vendors.nxos.capabilities import CAPABILITIES

#: banner delimiters, in order of preference (render.banner_delimiter takes the first the text
#: does not hold): `@` is Cisco's cisco.nxos nxos_banner default (`multiline_delimiter`), the
#: rest printable characters NX-OS takes as one (Batfish's NX-OS grammar takes any;
#: ../shared/specs/vendors/nxos-sources.md)
BANNER_DELIMITERS = "@#%^&*~|"


class NxosFacts(NosFacts):
    name = "nxos"
    capabilities = CAPABILITIES

    def banner_refusal(self, text: str) -> str | None:
        """`banner motd <d>` ends at the delimiter character `d` (Cisco's cisco.nxos
        nxos_banner: `banner motd @` + text + `@`): a text holding every delimiter the file
        can choose has none left."""
        if all(d in text for d in BANNER_DELIMITERS):
            return (f"NX-OS banners end at a delimiter character the text does not hold; this "
                    f"one holds all of {BANNER_DELIMITERS}")
        return None


FACTS = NxosFacts()
